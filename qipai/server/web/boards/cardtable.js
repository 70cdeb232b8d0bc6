// Shared card table for the climbing and trick games (doudizhu, wakeng, fouafour, baohuang,
// shengji, sandayi). The other seats sit around the table relative to you — left (上家, who
// plays before you), across, right (下家, who plays after you) — each with its name, role marks,
// card count and what it laid in the current round or trick, drawn as cards; a round or trick
// that is over is greyed until the next play. Your hand is sorted and drawn as cards: click
// cards to select them and play them (the action text is built in the game's notation from the
// selection), a hint selects a legal play, buttons stand for the other actions the server
// offers (pass, bids, declarations, accept / decline ...), and an auto-pass box answers by
// itself where the only answer is to pass (要不起). The game's piles (pit, kitty, package,
// trick ...) and facts (bid, trump, level, points ...) sit in the middle, and the result in
// words at the end. Each game's board (boards/<game id>.js) is a small configuration.
//
// Cards carry data-card="<card id>" (5H0, TS, LJ0, BJ ...) and, in the hand, data-key (the id and
// its copy number, so identical faces of several packs stay apart). Buttons carry data-action:
// "play", "hint", "clear", or the exact action text they send. Seat boxes carry data-seatbox
// (the seat) and data-pos (left, across, right, me); a seat's play area data-lastplay, with the
// class "stale" for a finished round or trick.
//
// Every action the board sends is either one the server listed for this seat, or (when the view
// only summarises a long set: view.legal = {kind, count}, or msg.legal = null) the selected
// cards in the game's notation; the referee decides, and a refusal is shown with its reason.
// Texts come from the page's catalogues (ctx.t, keys "ct.*" and each game's own); a seat is
// named by its player's name, never by its number.

import { boardKeys } from "../boardkeys.js";
import { lookBack, mountHistory, playCount } from "./cardhistory.js";
import { cardActionWords, cardMoveEntry } from "./cardmoves.js";
import { paren } from "../i18n.js";
import { fmtScore, NBSP } from "../result.js";

const SUIT = { S: "♠", H: "♥", C: "♣", D: "♦" };
const RED = new Set(["H", "D"]);

export const el = (tag, cls, ...kids) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  for (const k of kids.flat()) if (k !== null && k !== undefined && k !== false) e.append(k instanceof Node ? k : String(k));
  return e;
};

/** The rank letter of a card id or face (5H0 → 5, TS → T, LJ0 → L, BJ → B). */
export const rankOf = (id) => id[0];
/** The suit letter (S H C D), or "" for a joker. */
export const suitOf = (id) => (id[0] === "L" || id[0] === "B" ? "" : id[1]);
/** The suit sign (♠ ♥ ♣ ♦) of a suit letter. */
export const suitSign = (s) => SUIT[s] || s;

/** Card ids sorted by a rank order string (lowest first), then by id. */
export function sortByRank(ids, order) {
  return [...ids].sort((a, b) => order.indexOf(rankOf(a)) - order.indexOf(rankOf(b)) || a.localeCompare(b));
}

/** A joker in words: 大王 / 小王, "Big Joker" / "Small Joker" (one name in texts, as the card's
 *  tooltip and for a screen reader; the catalogues' term.joker.*). */
export const jokerText = (r, lang) => (lang === "zh" ? (r === "B" ? "大王" : "小王") : `${r === "B" ? "Big" : "Small"} Joker`);

/** A card's face for text: ♥10, ♠A, 小王 / Small Joker. */
export function faceText(id, lang) {
  const r = rankOf(id);
  if (r === "L" || r === "B") return jokerText(r, lang);
  return (SUIT[id[1]] || id[1]) + (r === "T" ? "10" : r);
}

/** A rank string (9TJ, 44A, LB, 555+4) for text: 10 for T, jokers named. */
export function ranksText(s, lang) {
  return s.replace(/T/g, "10").replace(/([LB])/g, (r) => ` ${jokerText(r, lang)} `).replace(/\s+/g, " ").trim();
}

/** One card: rank over suit. A joker reads 大王 / 小王 in Chinese; in English BIG or SMALL over a
 *  star (solid for the big joker, hollow for the small one), so the two differ by their words and
 *  their mark, not by colour alone; red for the big joker and black for the small one. In a
 *  fanned hand (overlapping cards) the English word runs down the card's left edge, as JOKER
 *  is printed on a real joker, so the part of the card left in sight shows all of it (across
 *  the card, SMALL was cut to "SMA" by the next card). */
export function cardEl(id, lang, small) {
  const c = el("span", "c" + (small ? " small" : ""));
  const r = rankOf(id);
  c.dataset.card = id;
  if (r === "L" || r === "B") {
    c.classList.add("joker");
    if (lang === "zh") c.append(el("b", "", r === "B" ? "大" : "小"), el("i", "", "王"));
    else {
      c.classList.add("jk-en");
      c.append(el("b", r === "B" ? "jk" : "jk sm", r === "B" ? "BIG" : "SMALL"), el("i", "jk-mark", r === "B" ? "★" : "☆"));
    }
    if (r === "B") c.classList.add("red");
  } else {
    const s = id[1];
    c.append(el("b", "", r === "T" ? "10" : r), el("i", "", SUIT[s] || s));
    if (RED.has(s)) c.classList.add("red");
  }
  // its name holds the visible text ("Big Joker" reads BIG ★)
  c.title = faceText(id, lang);
  c.setAttribute("role", "img");
  c.setAttribute("aria-label", faceText(id, lang));
  return c;
}

export function cardsEl(ids, lang, cls = "", small = true) {
  const d = el("div", "cards" + (cls ? " " + cls : ""));
  for (const id of ids || []) d.append(cardEl(id, lang, small));
  return d;
}

const sortedChars = (s) => [...s].sort().join("");
const PLAY_BODY = /^(?:(cha|gou|play) )?([2-9TJQKALB+]+)$/;
const isPass = (text) => text === "pass" || text.startsWith("pass ");

/** The listed action that plays exactly the ranks of `ids` (a rank string like "99", "cha 77",
 * "gou 7", "44B", "555+4"), compared as multisets of ranks; null when none does. */
export function matchRanks(ids, legal) {
  if (!ids.length) return null;
  const want = sortedChars(ids.map(rankOf).join(""));
  for (const a of legal) {
    const m = PLAY_BODY.exec(a);
    if (m && sortedChars(m[2].replace(/\+/g, "")) === want) return a;
  }
  return null;
}

/** The hint button's order of listed plays (each ``{ranks}``) for a hand of card ids, as the
 * card rooms offer them: first the plays that break no group of the hand (a single 7 before a
 * 5 taken from three 5s), then those that break fewer groups, then those that break a bomb or
 * the rocket, bombs and the rocket themselves last; within a cost the referee's order. */
export function hintOrder(hints, ids) {
  const held = {};
  for (const id of ids) held[rankOf(id)] = (held[rankOf(id)] || 0) + 1;
  const cost = ({ ranks }) => {
    const used = {};
    for (const r of ranks) used[r] = (used[r] || 0) + 1;
    const kinds = Object.keys(used);
    const bomb = (kinds.length === 1 && ranks.length >= 4) || (ranks.length === 2 && /^[LB]{2}$/.test(ranks));
    // a group broken costs 1, a bomb (four of a rank) or the rocket (both jokers) broken 10
    const rocket = held.L && held.B && !!used.L !== !!used.B;
    const broken = kinds.reduce((n, r) => n + (used[r] < (held[r] || 0) ? (held[r] >= 4 ? 10 : 1) : 0), 0);
    return (bomb ? 100 : 0) + (rocket ? 10 : 0) + broken;
  };
  return hints.map((h, i) => [cost(h), i, h]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]);
}

/** The rank string of a listed card play ("+" dropped), or null for a non-card action. */
export function playRanks(a) {
  const m = PLAY_BODY.exec(a);
  return m ? m[2].replace(/\+/g, "") : null;
}

/** The climbing game's rounds from view.plays ([[seat, text, card ids?]]): the entries of the
 * current round (since its lead), or, when view.top is null (the next lead is due), those of
 * the round just over, with stale = true. A round starts with a play that follows another play
 * of the same seat, or enough passes for every seat still in to have passed, or the first play. */
export function roundOf(v, n) {
  const plays = v.plays || [];
  const starts = roundStarts(v, n);
  return { entries: plays.slice(starts.at(-1) || 0), stale: !v.top && plays.length > 0 };
}

/** Where each round of view.plays starts (indices, the first 0). */
function roundStarts(v, n) {
  const plays = v.plays || [];
  // a seat that went out did so with its last play: from then on it is no longer asked
  const outAt = (v.finished || []).map((s) => plays.findLastIndex((p) => p[0] === s && !isPass(p[1])));
  const starts = [];
  let last = null, passes = 0;
  plays.forEach(([s, text], i) => {
    if (isPass(text)) { passes++; return; }
    const active = n - outAt.filter((k) => k >= 0 && k < i).length;
    if (last === null || s === last || passes >= active - 1) starts.push(i);
    last = s;
    passes = 0;
  });
  return starts;
}

/** Every round of view.plays, each a list of [seat, {cards, kind?} | {pass} | {action}]: a 4A4
 *  cha or gou keeps its kind (the list says 叉 / 勾 before the cards); a play the view gives
 *  without its cards keeps its action text, which the list words in the page's language
 *  (cardActionWords: 叉 K K / "Cha K K"). */
export function playRounds(v, n) {
  const plays = v.plays || [];
  const starts = roundStarts(v, n);
  const kindOf = (text) => { const m = /^(cha|gou) /.exec(text); return m ? { kind: m[1] } : {}; };
  return starts.map((a, k) => plays.slice(a, starts[k + 1] ?? plays.length).map(([s, text, cards]) =>
    [s, isPass(text) ? { pass: true } : cards && cards.length ? { cards, ...kindOf(text) } : { action: text }]));
}

/** A climbing game's history for the list (a board's `history`): the bidding (view.bids, each
 *  [seat, action]) as one row headed by catalogue key `head` (叫分 / Bidding) before the first
 *  play, then the rounds numbered from 1. */
export const bidsThenRounds = (head, n) => (v) => {
  const rounds = playRounds(v, n).map((r, k) => Object.assign(r, { no: k + 1 }));
  if (!v.bids || !v.bids.length) return rounds;
  return [Object.assign(v.bids.map(([s, a]) => [s, { bid: a }]), { head }), ...rounds];
};

/** The moves the server made for a seat (msg.autos: [seat, later, why], `later` the seat's own
 *  moves after it) marked in the rounds (`auto`: "timeout" or "trusteeship"), found by counting
 *  each seat's entries back from the end. */
export function markAutos(rounds, autos) {
  if (!autos || !autos.length) return rounds;
  const want = new Map(autos.map(([s, later, why]) => [`${s}/${later}`, why]));
  const later = new Map();
  for (let i = rounds.length - 1; i >= 0; i--) {
    for (let j = rounds[i].length - 1; j >= 0; j--) {
      const [s, p] = rounds[i][j];
      const k = later.get(s) || 0;
      later.set(s, k + 1);
      const why = want.get(`${s}/${k}`);
      if (why && p && typeof p === "object") p.auto = why;
    }
  }
  return rounds;
}

/** A seat's entry of the current (or just finished) round as {cards} / {pass} / {action}. */
export function lastFromPlays(v, s, n) {
  const { entries, stale } = roundOf(v, n);
  let last = null;
  for (const p of entries) if (p[0] === s) last = p;
  if (!last) return null;
  const [, text, cards] = last;
  if (isPass(text)) return { pass: true, stale };
  if (cards && cards.length) return { cards, stale };
  return { action: text, stale };
}

/** A seat's finishing place as a badge, when view.finished (seats in the order they went out)
 * holds it. */
export function placeBadge(v, s, tr) {
  const k = (v.finished || []).indexOf(s);
  return k >= 0 ? [[tr("ct.place", { n: k + 1 }), "out"]] : [];
}

// positions of the other seats, from left to right as the viewer sees them (k: seats after
// the viewer in playing order, so k = 1 is the next to play, on the right)
const POSITIONS = { 2: ["across"], 3: ["left", "right"], 4: ["left", "across", "right"], 5: ["left", "across", "across2", "right"] };

/**
 * Mount a card table. `cfg` (all optional except seats):
 *  seats: number of seats;  cls: the game id (class ct-<cls>);
 *  order: rank order, lowest first ("456789TJQKA23"); null keeps the view's hand order;
 *  sort(ids, view) → the hand in display order (overrides order);
 *  legal(msg) → list of action texts, or a summary {kind, count, actions};
 *  compose(ids, legal, msg) → the action text that plays the selected cards, or null;
 *  need(msg) → {count, action: "bury"} when the view asks for exactly `count` selected cards
 *    sent with the named button, else null;
 *  label(action, T) → a button label (text or nodes) for a non-card action;
 *  isCardAction(action) → true for actions the Play button covers (hidden as buttons);
 *  hints(msg, list) → [{ranks} | {ids} | {text}] plays the hint button cycles through;
 *  badges(view, seat, T) → [text, class] marks for a seat (roles, team, place);
 *  last(view, seat, T) → {cards, stale} / {pass} / {text} (words) / {action} (an action text,
 *    worded by cardActionWords) / null: the seat's play area
 *    (default: its entry of the current round, lastFromPlays);
 *  top(view) → the seat whose play is to beat (marked; default view.top.seat), or null;
 *  info(view, T) → [[key, label, value]] facts for the middle;
 *  piles(view, T) → [[key, label, ids]] card rows (pit, kitty, trick ...);
 *  prompt(msg, T) → a line of text shown above the actions (what to select);
 *  autoPass(msg, legal) → true when the only answer is a pass the board may send by itself;
 *  resultLine(result, view, T) → the game's words for the result ("地主胜 (春天) ×4"), or null;
 *  history(view) → the hand's rounds or tricks for the history list (default: the rounds of
 *    view.plays; none without plays); historyTitle: its catalogue key ("ct.rounds").
 * T is {tr, lang, msg, who, role, brief, me}: tr(key, params) the page's words, who(seat) a seat's
 * name ("你" for the viewer), role(key, seat, params) a message naming a seat by its role, read
 * from key + ".you" when the seat is the viewer's, brief(seat) a seat in few words (a bot by its
 * place), me the seat the table speaks to (the player, or a player reading the game's replay).
 *
 * A summarised set ({kind, count}, see legal) plays the selected cards as the game writes them
 * (compose); cards: true on a summary that lists actions (pass) keeps the Play button too.
 */
export function mountCardTable(root, ctx, cfg) {
  const lang = ctx.lang === "zh" ? "zh" : "en";
  const tr = (key, params) => ctx.t(key, params);
  const n = cfg.seats;
  const box = el("div", "ct ct-" + (cfg.cls || "cards") + " ct-n" + n);
  const histHost = el("div", "ct-history");
  root.replaceChildren(box, histHost);
  let history = null;
  let msg = null, hintIndex = -1, handSig = "";
  let latest = null, browsing = 0;                      // the game in play; the last look back asked
  const back = lookBack(ctx.ask);                       // the positions seen and asked for
  const bidText = cfg.bidText ? (a) => cfg.bidText(a, tr) : null;
  const roundsOf = (v) => (cfg.history ? cfg.history(v) : v && v.plays ? playRounds(v, n) : null);
  const selected = new Set();           // keys "id#copy"
  // a window of another width lays the hand out again (one row where it fits)
  let boxWidth = 0;
  new ResizeObserver(() => {
    if (box.clientWidth === boxWidth) return;
    boxWidth = box.clientWidth;
    const h = box.querySelector("#hand");
    if (h) fitRow(h);
  }).observe(box);
  const autoKey = `ct-autopass-${cfg.cls || "cards"}`;
  let autoPass = localStorage.getItem(autoKey) !== "0";
  // a deal whose declarations may be sent ahead (the server's ``ahead``, shengji's every_card):
  // the choices of this seat's last prompt that offered them, kept while the deal goes on and
  // nobody declares; the one already sent ahead
  let kept = [], keptKey = null, sentAhead = null;
  let passedTurn = null, passTimer = null;

  const viewer = () => (msg.seat === null || msg.seat === undefined ? null : msg.seat);
  // whom the seats are named for: the seat's player, or in a replay a player of the game reading
  // it (ctx.me: "You", Left, Right, as at the live table), else nobody (a spectator: sides)
  const reader = () => viewer() ?? (ctx.me ?? null);
  const base = () => reader() ?? 0;
  function position(s) {
    const k = (s - base() + n) % n;
    return k === 0 ? "me" : POSITIONS[n][n - 1 - k];
  }
  function posLabel(s) {
    let p = position(s);
    if (n === 5 && p.startsWith("across")) p = p === "across" ? "acrossLeft" : "acrossRight";
    if (reader() === null) return tr(`ct.side.${p}`);
    return p === "me" ? tr("ct.you") : tr(`ct.pos.${p}`);
  }
  function rawName(s) {
    const x = String((msg.names && msg.names[s]) || "");
    return x.startsWith("bot:") ? tr("botseat", { bot: x.slice(4) }) : x;     // 机器人（规则型）, never "Bot rule"
  }
  /** A seat's name for texts: "你" for the viewer; a name two seats share gets its position. */
  function who(s) {
    if (s === reader()) return tr("ct.you");
    const nm = rawName(s);
    const twice = (msg.names || []).filter((_, i) => rawName(i) === nm).length > 1;
    return !nm || twice ? posLabel(s) : nm;     // two bots of one kind: 下家, not 机器人（规则型，下家）
  }
  /** A seat named inside a sentence ("{name} cut in", after its first word): the viewer is
   *  "you" there, never "You" ("but Right and you went out"); others as who(). */
  const whoIn = (s) => (s === reader() ? tr("result.you") : who(s));
  /** A seat in the history list: "you", its name, or (a name two seats share) its place. */
  function shortName(s) {
    if (s === reader()) return tr("ct.you");
    const nm = rawName(s);
    return !nm || (msg.names || []).filter((_, i) => rawName(i) === nm).length > 1 ? posLabel(s) : nm;
  }
  /** A message naming a seat by its role ("the digger {name} wins"): the viewer's seat reads
   *  the key's ".you" form instead ("as the digger"), never "the digger You wins". */
  const role = (key, s, params = {}) => (s === reader() ? tr(`${key}.you`, params) : tr(key, { ...params, name: who(s) }));
  /** A seat in a short row (shengji's Declared): "you", a bot or a name two seats share by its
   *  place (上家, 对家), a person by name. */
  function brief(s) {
    if (s === reader()) return tr("ct.you");
    return msg.bots && msg.bots[s] ? posLabel(s) : shortName(s);
  }
  // me: the seat the table speaks to — the player at it, or a player of the game reading its
  // replay (the result says 你赢了 / "You lost" there too, as the seats say 你 / 下家)
  const T = () => ({ tr, lang, msg, who, whoIn, role, brief, me: reader() });

  function handEntries(v) {
    const ids = v.hand || [];
    const sorted = cfg.sort ? cfg.sort(ids, v) : cfg.order ? sortByRank(ids, cfg.order) : [...ids];
    const seen = {};
    return sorted.map((id) => { seen[id] = (seen[id] || 0) + 1; return { id, key: `${id}#${seen[id]}` }; });
  }

  function legalOf() {
    if (!msg || msg.replay || msg.result || viewer() === null) return [];
    if (!(msg.to_act || []).includes(msg.seat)) return [];
    if (cfg.legal) return cfg.legal(msg);
    if (msg.legal === null && msg.legal_count) return { kind: "many", count: msg.legal_count };
    return msg.legal || [];
  }

  function playArea(v, s) {
    let lp = cfg.last ? cfg.last(v, s, T()) : undefined;
    if (lp === undefined) lp = lastFromPlays(v, s, n);
    const top = cfg.top ? cfg.top(v) : v.top ? v.top.seat : null;   // whose play is to beat
    const area = el("div", "lastplay" + (lp && lp.stale ? " stale" : "") + (top === s && lp && !lp.stale ? " top" : ""));
    area.dataset.lastplay = s;
    if (lp && lp.cards && lp.cards.length) area.append(cardsEl(lp.cards, lang, "inline"));
    else if (lp && lp.pass) area.append(el("span", "txt pass", tr("ct.passed")));
    else if (lp && lp.action) area.append(el("span", "txt", ...cardActionWords(lp.action, { t: tr, lang })));
    else if (lp && lp.text) area.append(el("span", "txt", lp.text));
    return area;
  }

  function seatBox(v, s) {
    const me = viewer();
    const acting = (msg.to_act || []).includes(s) && !msg.result;
    const d = el("div", "pl" + (acting ? " act" : "") + (s === me ? " me" : ""));
    d.dataset.seatbox = s;
    d.dataset.pos = position(s);
    const nm = s === me ? rawName(s) : (rawName(s) || posLabel(s));
    const head = el("div", "head", el("span", "pos", posLabel(s)), el("span", "nm", nm));
    for (const [text, cls] of cfg.badges ? cfg.badges(v, s, T()) : []) head.append(el("span", "badge " + (cls || ""), text));
    if (v.counts) {
      const cnt = el("span", "cnt", tr("ct.count", { n: v.counts[s] }));
      const few = v.counts[s] <= 2 && v.counts[s] > 0 && (v.phase === "play" || v.phase === "cha" || v.phase === "gou");
      if (few) cnt.classList.add("few");
      // a climbing game's 报单 / 报双: a seat about to go out is called out in words
      if (few && cfg.alarm && !msg.result) head.append(el("span", "badge alarm", tr(v.counts[s] === 1 ? "ct.alarm1" : "ct.alarm2")));
      head.append(cnt);
    }
    d.append(head, playArea(v, s));
    // replay: every hand; the end of a deal: every seat's cards left, when the game shows them
    const open = msg.views && msg.views[s] && msg.views[s].hand ? msg.views[s].hand
      : msg.result && v.remaining && v.remaining[s] && v.remaining[s].length ? v.remaining[s] : null;
    if (open && s !== me) {
      const ids = cfg.sort ? cfg.sort(open, v) : cfg.order ? sortByRank(open, cfg.order) : open;
      d.append(cardsEl(ids, lang, "open"));
    }
    return d;
  }

  function send(action, extra) {
    clearTimeout(passTimer);
    selected.clear();
    hintIndex = -1;
    ctx.send(action, extra);
    render();
  }

  function resultBox(v) {
    const r = msg.result || v.result;
    if (!r) return null;
    const me = reader();
    const d = el("div", "ct-result");
    d.id = "ct-result";
    const even = (r.returns || []).every((x) => x === r.returns[0]);
    let head;
    // a side that won with nothing scored yet (a resignation) is no draw: "You lost"
    const drawn = even && !((r.winners || []).length && r.winners.length < (r.returns || []).length);
    if (me !== null) head = (r.winners || []).includes(me) ? tr("ct.youWon") : drawn ? tr("ct.drawn") : tr("ct.youLost");
    else head = (r.winners || []).length ? tr("ct.won", { names: r.winners.map(who).join(lang === "zh" ? "、" : ", ") }) : tr("ct.drawn");
    const line = cfg.resultLine ? cfg.resultLine(r, v, T()) : null;
    const reason = r.reason ? ctx.t(`end.${r.reason}`, null, r.reason) : "";
    const why = !reason ? "" : paren(reason);
    d.append(el("div", "headline", head + (line ? ` — ${line}` : why)));
    const scores = el("div", "scores");
    // a drawn deal scores nobody: ±0 each in the neutral colour, whatever the returns are
    // (a 4A4 draw returns ½ to every seat, which is no gain)
    (r.returns || []).forEach((x, s) => {
      const v = drawn ? 0 : Number(x);
      scores.append(el("span", v > 0 ? "plus" : v < 0 ? "minus" : "", `${who(s)}${NBSP}${fmtScore(v, lang)}`));
    });
    d.append(scores);
    return d;
  }

  // the hand by keyboard: ← / → move over the cards, Enter / Space picks a card up or puts it back
  const keys = boardKeys(box, {
    points: () => [...box.querySelectorAll("#hand [data-key]")],
    key: (c) => c.dataset.key,
    label: (c) => c.dataset.name,
    pressed: (c) => selected.has(c.dataset.key),
  });

  // draw the table; the focus stays on the button or card it was on (they are drawn anew)
  function render() { keys.redraw(draw); }

  function draw() {
    const v = msg.view;
    const me = viewer();
    box.replaceChildren();
    box.dataset.seq = msg.seq;
    if (v.phase) box.dataset.phase = v.phase;

    const felt = el("div", "felt");
    for (let k = n - 1; k >= 1; k--) felt.append(seatBox(v, (base() + k) % n));
    const mid = el("div", "mid");
    const info = el("div", "info");
    for (const [key, label, value] of cfg.info ? cfg.info(v, T()) : []) {
      if (value === null || value === undefined || value === "") continue;
      const i = el("span", "", el("em", "", label + " "), String(value));
      i.dataset.info = key;
      i.dataset.value = String(value);
      info.append(i);
    }
    mid.append(info);
    for (const [key, label, ids] of cfg.piles ? cfg.piles(v, T()) : []) {
      if (!ids || !ids.length) continue;
      const row = el("div", "pile", el("span", "lbl", label), cardsEl(ids, lang, "inline"));
      row.dataset.pile = key;
      mid.append(row);
    }
    const res = resultBox(v);
    felt.append(mid);
    if (res) felt.append(res);          // a row of its own across the felt (style.css), not the middle column
    box.append(felt);

    const mine = seatBox(v, base());
    box.append(mine);
    if (me === null) return;
    // the hand is over: the cards stay to be seen, the controls of play (a selection, Clear,
    // Play, auto-pass) go
    const over = !!(msg.result || v.result);
    if (over) selected.clear();

    const entries = handEntries(v);
    const hand = el("div", "cards hand" + (entries.length > 20 ? " dense" : ""));
    hand.id = "hand";
    const legal = legalOf();
    const acting = Array.isArray(legal) ? legal.length > 0 : !!legal;
    for (const { id, key } of entries) {
      const c = cardEl(id, lang, false);
      c.dataset.key = key;
      c.dataset.name = c.getAttribute("aria-label");
      if (selected.has(key)) c.classList.add("sel");
      if (!over) c.onclick = () => { if (selected.has(key)) selected.delete(key); else selected.add(key); render(); };
      hand.append(c);
    }
    mine.append(hand);
    fitRow(hand);
    if (over) return;

    const ids = entries.filter((e) => selected.has(e.key)).map((e) => e.id);
    const prompt = acting && cfg.prompt ? cfg.prompt(msg, T()) : null;
    const need = acting && cfg.need ? cfg.need(msg) : null;
    const line = el("div", "prompt");
    line.id = "prompt";
    // "Follow 1 of ♣ · 1 selected", "choose 8 cards · 3 selected": a separator between each two
    const counts = [need ? tr("ct.select", { n: need.count }) : null, ids.length ? tr("ct.selected", { n: ids.length }) : null];
    line.append([prompt, ...counts].filter(Boolean).join(" · "));
    box.append(line);

    const bar = el("div", "row actions");
    bar.id = "actions";
    const button = (label, action, cls, onclick, disabled) => {
      const b = el("button", cls || "", label);
      b.dataset.action = action;
      b.disabled = !!disabled || !acting;
      b.onclick = onclick || (() => send(action));
      bar.append(b);
      return b;
    };
    const list = Array.isArray(legal) ? legal : (legal.actions || []);
    const cardAction = cfg.isCardAction || ((a) => playRanks(a) !== null);
    const label = (a) => (cfg.label ? cfg.label(a, T()) : isPass(a) ? tr("ct.pass") : a);
    const hints = cfg.hints ? cfg.hints(msg, list)
      : hintOrder(list.filter(cardAction).map((a) => ({ ranks: playRanks(a) })), entries.map((e) => e.id));
    if (!hints.length && msg.hint && acting && !isPass(msg.hint)) hints.push({ text: msg.hint });
    if (need) {
      button(label(need.action), need.action, "primary", () => send(`${need.action} ${ids.join(" ")}`), ids.length !== need.count);
    } else if (acting && (list.some(cardAction) || (!Array.isArray(legal) && (!legal.actions || legal.cards)))) {
      const text = cfg.compose ? cfg.compose(ids, legal, msg) : Array.isArray(legal) ? matchRanks(ids, list) : (ids.length ? ids.join(" ") : null);
      button(tr("ct.play"), "play", "primary", () => send(text), !text);
    }
    if (acting && hints.length) {
      button(tr("ct.hint"), "hint", "", () => {
        hintIndex = (hintIndex + 1) % hints.length;
        selectHint(hints[hintIndex], entries);
        render();
      });
    }
    const aheadOn = !!(cfg.ahead && msg.ahead);
    const declKey = JSON.stringify(msg.view.declarations || []);
    if (!aheadOn || declKey !== keptKey) { kept = []; keptKey = declKey; sentAhead = null; }
    if (aheadOn && acting) kept = list.filter((a) => cfg.ahead(a));
    // a choice of the deal goes ahead: at once when this seat's prompt is open, else (the
    // prompt closed at its hold) at the seat's next prompt where it is legal
    const ahead = (a) => () => { sentAhead = a; send(a, { ahead: true }); };
    for (const a of list) {
      if (cardAction(a)) continue;
      button(label(a), a, isPass(a) ? "" : "opt", aheadOn && cfg.ahead(a) ? ahead(a) : null);
    }
    if (aheadOn && !acting) {
      for (const a of kept) {
        const b = button(label(a), a, "opt", ahead(a));
        b.disabled = a === sentAhead;
        if (a === sentAhead) b.classList.add("sent");
      }
    }
    if (selected.size) {
      const c = el("button", "", tr("ct.clear"));
      c.dataset.action = "clear";
      c.onclick = () => { selected.clear(); render(); };
      bar.append(c);
    }
    if (cfg.autoPass) {
      const auto = el("label", "auto");
      const cb = el("input");
      cb.type = "checkbox";
      cb.id = "autopass";
      cb.checked = autoPass;
      cb.onchange = () => { autoPass = cb.checked; if (!autoPass) clearTimeout(passTimer); localStorage.setItem(autoKey, autoPass ? "1" : "0"); render(); };
      auto.append(cb, " " + tr("ct.autopass"));
      bar.append(auto);
      // a seat in trusteeship is the computer's (it passes too): a pass sent by the page would be
      // the player's own action, and end the trusteeship the player asked for
      if (acting && autoPass && msg.turn !== passedTurn && !entrusted(msg) && cfg.autoPass(msg, list)) {
        passedTurn = msg.turn;
        const allBots = othersAreBots(msg);
        // a private window (4A4's 叉/勾): the same pause whether or not this seat could have
        // answered, so the speed tells nobody; a public turn: a short pause to see the table
        const pause = allBots ? 0 : msg.view.window ? 400 + Math.random() * 800 : 500;
        // other seats answering the same window move seq on, not this seat's turn: the pass
        // is sent with the current seq and this turn
        const turn = msg.turn;
        // (in trusteeship by then: not sent, and sent at the turn's next state if taken back)
        passTimer = setTimeout(() => {
          if (entrusted(msg)) passedTurn = null;
          else if (msg.turn === turn && !msg.result) send("pass");
        }, pause);
      }
    }
    box.append(bar);
  }

  function selectHint(h, entries) {
    selected.clear();
    for (const e of hintCards(h, entries)) selected.add(e.key);
  }

  return {
    update(m) {
      if (m.replay) { show(m); return; }
      latest = m;
      back.seen(m.seq, m.view);
      if (!history || history.atEnd) show(m);        // else the viewer looks at an earlier round
      const rounds = roundsOf(m.view);
      if (rounds) {
        markAutos(rounds, m.autos);
        if (!history) {
          history = mountHistory(histHost, { t: ctx.t, lang, title: tr(cfg.historyTitle || "ct.rounds"), cardsEl, el, bidText,
            onNavigate: (k, atEnd) => { browseTo(k, atEnd); } });
        }
        history.update(rounds, shortName);
        history.setLive(!m.result);
      }
    },
    /** The server's answer to {type: "position", ply}. */
    position(p) { back.position(p); },
    /** The rounds of a view (its tricks as cards by seat), or null: the replay page lists them. */
    rounds: roundsOf,
    /** A bid of the list in words (doudizhu's 1分, 不叫), or null. */
    bidText,
    /** The catalogue key of the list's heading ("ct.rounds", "ct.tricks"). */
    historyTitle: cfg.historyTitle || "ct.rounds",
    /** A seat's name in the list of rounds, as the table shows it (a name two seats share gets
     *  its place at the table). */
    seatName: (s) => (msg ? shortName(s) : String(s)),
    /** A step of the replay's list where a hand has no rounds (it ended in its bidding): who
     *  did what, in words, cards drawn (cardmoves.js). */
    moveEntry: (e, names) => cardMoveEntry(e, names, { t: ctx.t, lang }),
  };

  function show(m) {
    if (!msg || m.seq !== msg.seq) hintIndex = -1;
    msg = m;
    const sig = JSON.stringify(m.view.hand || []);
    if (sig !== handSig) {
      handSig = sig;
      const keys = new Set(handEntries(m.view).map((e) => e.key));
      for (const k of [...selected]) if (!keys.has(k)) selected.delete(k);
    }
    render();
  }

  // ----- looking back: the table after k plays of the hand in play (lookBack) -----------------
  async function browseTo(k, atEnd) {
    const want = ++browsing;
    if (atEnd || !latest) { if (latest) show(latest); return; }
    if (playCount(roundsOf(latest.view)) <= k) { show(latest); return; }
    // a spectator of the hand in play is told no earlier position: the ones it received
    const local = (latest.seat === null || latest.seat === undefined) && !latest.result;
    const at = await back.after(k, latest.seq, (v) => playCount(roundsOf(v)),
      () => want !== browsing || (history && history.atEnd), local, (v) => (v && v.redeals) || 0);
    if (!at) {                 // none received that early: back to the game
      if (local && want === browsing && history && !history.atEnd) history.toEnd();
      return;
    }
    show({ ...latest, view: at.view, seq: at.seq, replay: true, browsing: true, to_act: [], legal: undefined, turn: undefined,
      hint: undefined, result: null });
  }
}

/** A long hand in one row where it fits, as the card rooms fan it: the cards overlap just
 *  enough to fill the row, each still showing its rank and suit (a landlord's 20 cards at a
 *  desktop's width, shengji's 25 and more, baohuang's). Where even that would hide a rank (a
 *  phone, the largest hands), the hand wraps, its cards overlapping less (``dense``). */
export function fitRow(hand) {
  const cards = hand.children;
  hand.classList.remove("fit");
  hand.style.removeProperty("--ov");
  if (cards.length < 2 || !hand.isConnected) return;
  const w = cards[0].getBoundingClientRect().width;
  const cs = getComputedStyle(hand);
  const room = hand.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 1;
  if (cards.length * (w + 2) <= room) { hand.classList.remove("dense"); return; }   // fits side by side
  // the part of each card left in sight: at least the widest rank corner ("10", 大) with a
  // pixel to spare (a phone's 20 cards in one row cut "10" under the J), and more than half
  // (measured as an overlapped card draws it: rank top left, not centred)
  hand.classList.add("fit");
  hand.style.setProperty("--ov", "0px");
  // (an English joker's word, BIG or SMALL, runs down the left edge in a fanned hand: it sets
  // no corner)
  const corner = Math.max(0, ...[...cards].filter((c) => !c.classList.contains("joker")).map((c) => {
    const b = c.querySelector("b");
    return b ? b.getBoundingClientRect().right - c.getBoundingClientRect().left + 1 : 0;
  }));
  hand.classList.remove("fit");
  hand.style.removeProperty("--ov");
  const need = Math.max(w * FIT_SHOWN, corner);
  hand.classList.remove("dense", "rows");
  // one row where that leaves each corner in sight, else the fewest rows that do, the cards
  // shared evenly between them (never a lone card on a row of its own); a raised (selected)
  // card stays in its row
  for (let rows = 1; rows <= 4; rows++) {
    const k = Math.ceil(cards.length / rows);
    const step = k > 1 ? (room - w) / (k - 1) : room;
    if (step < need) continue;
    const ov = step - w >= 2 ? Math.min(2, Math.floor(((room - k * w) / k) * 10) / 10) : Math.floor((step - w) * 10) / 10;
    hand.classList.add("fit");
    if (rows > 1) hand.classList.add("rows");
    hand.style.setProperty("--ov", `${ov}px`);
    return;
  }
  hand.classList.add("dense");
}
/** The least part of a card's width an overlapped hand leaves in sight: its rank ("10") and
 *  suit, and more than half the card, so a tap on a card's middle takes that card. */
const FIT_SHOWN = 0.55;

/** The hand entries ({id, key}, in the hand's order) a hint selects: ranks (the lowest copies
 *  first), card ids or faces, or an action text ("bury 3D 5C ...", "AS AS KS", "99"). */
export function hintCards(h, entries) {
  const free = [...entries], out = [];
  const take = (pred) => { const i = free.findIndex(pred); if (i >= 0) out.push(free.splice(i, 1)[0]); };
  let ids = h.ids, ranks = h.ranks;
  if (h.text) {
    const toks = h.text.split(/\s+/).filter((x) => x && !/^[a-z]{3,}$/.test(x));
    if (toks.every((x) => /^([2-9TJQKA][SHDC]|[LB]J)\d?$/.test(x))) ids = toks;
    else ranks = toks.join("").replace(/\+/g, "");
  }
  if (ids) for (const id of ids) take((e) => e.id === id || e.id.slice(0, 2) === id);
  else for (const r of ranks || "") take((e) => rankOf(e.id) === r);
  return out;
}

/** Whether every other seat is a bot (msg.bots, from the server; else names "bot:..."). */
export function othersAreBots(msg) {
  const n = (msg.names || []).length;
  const bots = msg.bots || (msg.names || []).map((x) => String(x).startsWith("bot:"));
  const others = [...Array(n).keys()].filter((s) => s !== msg.seat);
  return others.length > 0 && others.every((s) => bots[s]);
}

/** Whether the viewer's seat is in trusteeship (托管: asked for, or absent from an event game):
 *  the computer plays it, and a board sends nothing for it by itself (auto-pass). */
export function entrusted(msg) {
  const c = msg && msg.seat !== null && msg.seat !== undefined && msg.clocks ? msg.clocks[msg.seat] : null;
  return !!(c && c.trustee);
}

/** Bids of a bidding phase as a seat's play area: its latest bid, in words. */
export function bidArea(v, s, words) {
  const b = (v.bids || []).filter(([x]) => x === s).pop();
  return b ? { text: words(b[1]), bid: true } : null;
}
