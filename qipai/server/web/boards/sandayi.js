// 三打一 sandayi: four seats, one pack with jokers; the declarer (庄家; the view's dealer) plays alone against three.
// Bidding (不叫, 60–80 分) by buttons, each seat's bid shown in its place; the declarer takes the
// six-card kitty (shown to everyone under a low contract), selects six cards to bury (扣底) and
// names trump by a button; then tricks of one card each, drawn by seat (the last trick greyed
// until the next lead), the defenders' running points against the contract, every trick of the
// hand listed as cards by seat (view.tricks; a click shows the table as that trick ended), and the
// result in words. Trumps (jokers, 2s, the named suit) sit at the right end of the hand. The hint selects
// a legal card (in a trick) or the cards the server names (burying). See cardtable.js.
import { mountCardTable, bidArea, suitSign } from "./cardtable.js";
import { paren } from "../i18n.js";

const RANKS = "3456789TJQKA";
const SIDE_ORDER = ["S", "H", "C", "D"];
const FACE = /^(?:[2-9TJQKA][SHDC]|[LB]J)$/;

/** Display order: side suits (♠ ♥ ♣ ♦) 3..A, then trumps: the trump suit 3..A, the other 2s,
 * the trump 2, LJ, BJ (before trump is named, every 2 and joker counts as trump). */
export function sortHand(ids, trump) {
  const key = (id) => {
    const r = id[0], s = id[1];
    if (r === "L" || r === "B") return [9, r === "L" ? 30 : 31];
    if (r === "2") return [9, s === trump ? 29 : 28];
    if (s === trump) return [8, RANKS.indexOf(r)];
    return [SIDE_ORDER.indexOf(s), RANKS.indexOf(r)];
  };
  return [...ids].sort((a, b) => {
    const x = key(a), y = key(b);
    return x[0] - y[0] || x[1] - y[1] || a.localeCompare(b);
  });
}

const bidWords = (a, tr) => (a === "pass" ? tr("sdy.nobid") : a.startsWith("bid ") ? tr("sdy.bid", { n: a.slice(4) }) : a);

export function mount(root, ctx) {
  return mountCardTable(root, ctx, {
    seats: 4, cls: "sandayi",
    sort: (ids, v) => sortHand(ids, v.trump),
    need: (msg) => (msg.view.phase === "bury" ? { count: 6, action: "bury" } : null),
    legal: (msg) => {
      if (msg.view.phase === "bury") return { kind: "bury", count: 6 };
      // a set too long to list comes summarised (msg.legal null): one selected card is sent and
      // the referee judges it
      if (msg.legal === null && msg.legal_count) return { kind: "many", count: msg.legal_count, cards: true };
      return msg.legal || [];
    },
    isCardAction: (a) => FACE.test(a),
    compose: (ids, legal) => (ids.length === 1 && (!Array.isArray(legal) || legal.includes(ids[0])) ? ids[0] : null),
    hints: (msg, list) => list.filter((a) => FACE.test(a)).map((a) => ({ ids: [a] })),
    label: (a, { tr }) => {
      if (a === "bury") return tr("sdy.bury");
      if (a.startsWith("trump ")) return `${suitSign(a.slice(6))} ${tr("term.suit." + a.slice(6))}`;
      return bidWords(a, tr);
    },
    badges: (v, s, { tr }) => {
      const out = [];
      if (v.dealer === s) out.push([tr("sdy.dealer"), "role"]);
      else if (v.dealer !== null && v.dealer !== undefined) out.push([tr("sdy.defender"), "farmer"]);
      if (v.dealer === null && v.first_bidder === s) out.push([tr("sdy.first"), ""]);
      if (v.tricks_won && v.tricks_won[s]) out.push([tr("sdy.won", { n: v.tricks_won[s] }), "out"]);
      return out;
    },
    last: (v, s, { tr }) => {
      if (v.phase === "bid") return bidArea(v, s, (a) => bidWords(a, tr));
      const cur = (v.trick || []).find(([x]) => x === s);
      if (cur) return { cards: [cur[1]] };
      if (!(v.trick || []).length && v.last_trick) {
        const p = v.last_trick.cards.find(([x]) => x === s);
        if (p) return { cards: [p[1]], stale: true };
      }
      return null;
    },
    top: () => null,
    // the bidding in words (叫分：alice 60分 · 机器人 不叫 …), then every trick as cards by seat
    history: (v) => {
      if (!v) return null;
      const rounds = (Array.isArray(v.tricks) ? v.tricks : []).map((t) => t.cards.map(([s, c]) => [s, { cards: [c] }]));
      if ((v.trick || []).length) rounds.push(v.trick.map(([s, c]) => [s, { cards: [c] }]));
      rounds.forEach((r, k) => { r.no = k + 1; });        // trick numbers, the bidding's row before them unnumbered
      if ((v.bids || []).length) rounds.unshift(Object.assign(v.bids.map(([s, a]) => [s, { bid: a }]), { head: "ct.bids" }));
      return rounds.length ? rounds : null;
    },
    bidText: (a, tr) => bidWords(a, tr),
    historyTitle: "ct.tricks",
    info: (v, { tr }) => [
      ["contract", tr("sdy.contract"), v.contract ? tr("sdy.points", { n: v.contract }) + (v.forced ? paren(tr("sdy.forced")) : "") : null],
      ["trump", tr("sdy.trump"), v.trump ? `${suitSign(v.trump)} ${tr("term.suit." + v.trump)}` : null],
      ["defender_points", tr("sdy.defenderPoints"), v.dealer !== null && v.dealer !== undefined ? tr("sdy.ofNeed", { n: v.defender_points, need: 105 - (v.contract || 0) }) : null],
      ["tricks", tr("sdy.tricks"), v.phase === "play" || v.phase === "over" ? `${v.tricks_played}/12` : null],
      ["redeals", tr("sdy.redeals"), v.redeals || null],
    ],
    piles: (v, { tr }) => [["kitty", tr(v.exposed ? "sdy.kittyShown" : "sdy.kitty"), v.phase === "bury" || v.phase === "trump" || v.exposed ? v.kitty : null],
      ["buried", tr("sdy.buried"), v.buried]],
    prompt: (msg, { tr }) => {
      const p = msg.view.phase;
      if (p === "bury") return null;       // "Select 6 cards" (the table's count) says it, as at shengji's bury
      if (p === "trump") return tr("sdy.trumpPrompt");
      if (p === "play") return tr(msg.view.trick && msg.view.trick.length ? "sdy.follow" : "sdy.lead");
      if (p === "bid") return tr("sdy.bidPrompt");
      return null;
    },
    resultLine: (r, v, { tr, role }) => {
      const d = r.details || {};
      if (d.dealer === null || d.dealer === undefined || !d.outcome) return null;
      const named = ["made", "set", "heavy_set", "shutout"].includes(d.outcome);   // the dealer by name
      const words = named ? role(`sdy.outcome.${d.outcome}`, d.dealer) : tr(`sdy.outcome.${d.outcome}`);
      return d.defender_points !== undefined && d.contract ? `${words} · ${tr("sdy.final", { n: d.defender_points, need: 105 - d.contract })}` : words;
    },
  });
}
