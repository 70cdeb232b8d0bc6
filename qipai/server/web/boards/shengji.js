// 升级 / 拖拉机 shengji: four seats, partners opposite (0+2 against 1+3). Declarations (亮主 /
// 反主) are buttons from the view's list; the dealer selects as many cards as the kitty holds and
// buries them; leads and follows are the selected faces ("AS AS KS"). The view only summarises the
// long legal sets ({kind: "bury", count: 8}, {kind: "follow", count, suit}): the board asks for
// that many cards and the referee judges the rest; the hint selects the play the server names
// (msg.hint). Your hand keeps the referee's order (trumps first). The current trick is drawn by
// seat; between tricks the last one stays, greyed. Every trick of the hand is listed as cards by
// seat (view.tricks; a click shows the table as that trick ended), except at a competition table
// that shows only the last trick (the server leaves view.tricks out, §5.8). See cardtable.js.
import { mountCardTable, faceText, suitSign } from "./cardtable.js";
import { paren } from "../i18n.js";

const LEVEL = (n) => ({ 11: "J", 12: "Q", 13: "K", 14: "A" }[n] || String(n));

/** Cards as faces, identical cards once with their count as the other card rows write a
 *  count: ["LJ0", "LJ1"] is "Small Joker ×2", ["5S0", "LJ0"] "♠5 Small Joker". */
export function groupedFaces(ids, lang) {
  const counts = new Map();
  for (const x of ids) { const f = faceText(x, lang); counts.set(f, (counts.get(f) || 0) + 1); }
  return [...counts].map(([f, n]) => (n > 1 ? `${f} ×${n}` : f)).join(" ");
}

/** The declarations of a hand ([{seat, cards}] in order), each seat named once with its
 *  declarations after it, one after another: "Bot (Rule-based) ♦2 → ♦2 ×2; ann Small Joker ×2". */
export function declaredText(declarations, who, lang) {
  const bySeat = new Map();
  for (const d of declarations || []) {
    if (!bySeat.has(d.seat)) bySeat.set(d.seat, []);
    bySeat.get(d.seat).push(groupedFaces(d.cards, lang));
  }
  const zh = lang === "zh";
  return [...bySeat].map(([s, ds]) => `${who(s)} ${ds.join(" → ")}`).join(zh ? "；" : "; ");
}

export function mount(root, ctx) {
  const summary = (msg) => msg.view.legal;
  const faces = (ids, lang) => ids.map((x) => faceText(x, lang)).join(" ");
  return mountCardTable(root, ctx, {
    seats: 4, cls: "shengji", order: null,
    legal: (msg) => {
      const l = summary(msg);
      if (!l) return [];
      return l.kind === "declaration" ? l.actions : l;
    },
    need: (msg) => {
      const l = summary(msg);
      return l && l.kind === "bury" ? { count: l.count, action: "bury" } : null;
    },
    compose: (ids, legal) => {
      if (!ids.length) return null;
      if (legal.kind === "follow" && ids.length !== legal.count) return null;
      return ids.join(" ");
    },
    isCardAction: () => false,
    // during the deal (every_card) a declaration may be sent between this seat's prompts
    ahead: (a) => a.startsWith("declare "),
    label: (a, { tr, lang, msg }) => {
      if (a === "pass") return tr("sj.nodeclare");
      if (a === "bury") return tr("sj.bury");
      if (a.startsWith("declare ")) return tr("sj.declare", { cards: groupedFaces(a.slice(8).split(" "), lang) });
      return a;
    },
    badges: (v, s, { tr, me }) => {
      const out = [];
      if (v.dealer === s) out.push([tr("sj.dealer"), "role"]);
      if (me !== null && me !== undefined && s === (me + 2) % 4) out.push([tr("ct.partner"), "team0"]);   // partners sit opposite
      if (v.winning === s && (v.trick || []).length) out.push([tr("sj.winning"), "out"]);
      return out;
    },
    // the seat's cards in the current trick; between tricks, in the last trick (greyed)
    last: (v, s) => {
      const cur = (v.trick || []).find(([x]) => x === s);
      if (cur) return { cards: cur[1] };
      if (!(v.trick || []).length && v.last_trick) {
        const p = v.last_trick.plays.find(([x]) => x === s);
        if (p) return { cards: p[1], stale: true };
      }
      return null;
    },
    top: (v) => ((v.trick || []).length ? v.winning : null),
    // the declarations (亮主: each seat's shown cards, in order) as the list's first row, as
    // doudizhu's bidding, from the first one on; then the tricks numbered from 1. Before any
    // declaration the deal is that row ("Deal"): its prompts (a hundred passes when the seat
    // dealt each card is asked, deal_prompt=every_card) are never entries of the list, live or
    // in a replay (a hand that ended in its deal lists this row, not its steps)
    history: (v) => {
      if (!v || !Array.isArray(v.tricks)) return null;
      const rounds = v.tricks.map((t) => t.plays.map(([s, fs]) => [s, { cards: fs }]));
      if ((v.trick || []).length) rounds.push(v.trick.map(([s, fs]) => [s, { cards: fs }]));
      const shown = (v.declarations || []).map((d) => [d.seat, { cards: d.cards }]);
      if (!shown.length && !rounds.length) return [Object.assign([], { head: "sj.deal" })];
      const numbered = rounds.map((r, k) => Object.assign(r, { no: k + 1 }));
      return shown.length ? [Object.assign(shown, { head: "sj.declared" }), ...numbered] : numbered;
    },
    historyTitle: "ct.tricks",
    info: (v, { tr, lang, brief, me, msg }) => {
      const ours = me === null ? null : me % 2;
      // after the hand the levels it ended with ("Levels now"), never the figures it began with
      // beside a result that says a team went up
      const r = (msg && msg.result) || v.result;
      const after = r && r.details && Array.isArray(r.details.levels) ? r.details.levels : null;
      const lv = (t) => LEVEL((after || v.levels)[t]);
      return [
        ["levels", tr(after ? "sj.levelsNow" : "sj.levels"), ours === null ? `${lv(0)} · ${lv(1)}` : tr("sj.levelsMine", { us: lv(ours), them: lv(1 - ours) })],
        ["level", tr("sj.level"), LEVEL(v.level)],
        ["trump", tr("sj.trump"), v.trump ? (v.trump === "NT" ? tr("sj.notrump") : `${suitSign(v.trump)} ${tr("term.suit." + v.trump)}`) : null],
        // bots by their place (下家), not "机器人（规则型，下家）": the row stays one line at 390 px
        ["declared", tr("sj.declared"), declaredText(v.declarations, brief, lang)],
        ["throw", tr("sj.failed"), (() => {
          const f = (v.failed_throws || []).at(-1);
          return f ? `${brief(f.seat)}${tr("colon")}${faces(f.attempted, lang)} → ${faces(f.forced, lang)}${f.penalty ? paren(`−${f.penalty}`) : ""}` : null;
        })()],
        ["points", tr("sj.points"), v.attacker_points],
        ["penalty", tr("sj.penalty"), v.penalty || null],
        ["tricks", tr("sj.tricks"), v.tricks_played || null],
      ];
    },
    piles: (v, { tr }) => [["kitty_shown", tr("sj.kittyShown"), v.kitty_shown], ["buried", tr("sj.buried"), v.buried],
      ["captured", tr("sj.captured"), v.captured]],
    prompt: (msg, { tr }) => {
      const l = summary(msg);
      if (!l || msg.result) return null;
      if (l.kind === "lead") return tr("sj.lead");
      if (l.kind === "follow") return tr("sj.follow", { n: l.count, suit: l.suit === "TRUMP" ? tr("term.suit.TRUMP") : suitSign(l.suit) });
      return null;
    },
    resultLine: (r, v, { tr, me, who }) => {
      const d = r.details || {};
      if (!d.levels) return null;
      // the levels by team: "us / them" for a player, the teams by name for a spectator
      // (the levels the hand ended with: "levels now", never read as the ones it began with)
      const levels = me === null || me === undefined
        ? tr("sj.levelsNowTeams", { a: `${who(0)}/${who(2)}`, la: LEVEL(d.levels[0]), b: `${who(1)}/${who(3)}`, lb: LEVEL(d.levels[1]) })
        : tr("sj.levelsNowMine", { us: LEVEL(d.levels[me % 2]), them: LEVEL(d.levels[1 - (me % 2)]) });
      // a hand ended by a forfeit has no attackers' points
      if (d.attack_total === undefined || d.attack_total === null) return levels;
      // no level gained (the attackers took the deal over): said so beside the ±0 scores
      // and what a level up needs ("moving up a level needs 120"), where the record says it
      const noLevel = d.up_at === undefined || d.up_at === null ? tr("sj.takeOverNoLevel") : tr("sj.takeOverUpAt", { up: d.up_at });
      const none = Array.isArray(d.gains) && d.gains.every((g) => !g) ? `${noLevel} · ` : "";
      // the attackers' points against the take-over mark ("attackers 45 of the 80 needed")
      const points = d.take_at === undefined || d.take_at === null ? tr("sj.attackPoints", { points: d.attack_total })
        : tr("sj.attackPointsOf", { points: d.attack_total, needed: d.take_at });
      return `${points} · ${none}${levels}`;
    },
  });
}
