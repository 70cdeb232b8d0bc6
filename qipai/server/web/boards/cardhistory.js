// The hand's history at a card table: each round (climbing games: from a lead until every other
// seat passed) or trick a row of cards by seat, in the shared move list (movelist.js) with its
// keys; each play (a bid, a pass, a declaration) is a step of its own, as a board game's move:
// ← → step one play, a click on a play (or Home End) shows the table as it was right after it;
// End (or the last play) goes back to the game.
//
//   const h = mountHistory(host, { t, lang, title, cardsEl, el, onNavigate });
//   h.update(rounds, who)  // rounds: [[seat, {cards, kind?} | {pass} | {text} | {action}], ...] per
//                          // round or trick ({action}: an action text, worded by cardActionWords;
//                          // kind: 4A4's cha or gou);
//                          // who(seat): the seat's name
//   onNavigate(j, atEnd)   // show the table after j plays (playCount) (atEnd: the game in play)
//
//   replayHistory(host, { t, lang, title, cardsEl, el, steps, count, rounds, who, show })
//   lists the plays of a finished hand for its replay page: a click shows the last step whose
//   view holds that many plays (count(step)).
//
// A table whose rows are no cards (the mahjong tables' turns) gives `parts(row)` (its steps,
// [seat, ...] each), `part(row, m, who) -> Node` (step m in words), `head(row, k)` (the row's
// number) and, for a row that starts something (a hand of a match), `groupTitle(row, k)`.
//
//   const back = lookBack(ask)   // the positions of the hand in play this seat has seen or asks
//   back.seen(seq, view); back.position(msg)  // a view received; the answer to {type: "position"}
//   back.after(k, seq, count, stale, local, deal) -> {seq, view} | null: the table after k plays

import { createMoveList } from "../movelist.js";
import { cardActionWords } from "./cardmoves.js";

// a round may carry `head` (the catalogue key of a row that is no round, as doudizhu's bidding,
// listed before the first play) and `no` (its number when such a row comes first); a bid is
// {bid: action} and is worded by bidText(action)
/** The words of a server move's mark in the list, by why (Timeouts.auto_marks). */
const AUTO_MARKS = { timeout: "ct.autoTimeout", trusteeship: "ct.autoTrustee" };

/** One play of a round in the list: who, then the cards (or the bid, the pass, the words). */
function playNode({ t, lang, cardsEl, el, bidText }, who, s, p) {
  const e = el("span", "ct-round-play", el("span", "who", who(s)));
  if (p.kind) e.append(el("span", "txt", t(`faf.${p.kind}`)));       // 4A4's cha / gou
  if (p.cards && p.cards.length) e.append(cardsEl(p.cards, lang, "inline"));
  else if (p.bid !== undefined) e.append(el("span", "txt", bidText ? bidText(p.bid) : p.bid));
  else if (p.action) e.append(el("span", "txt", ...cardActionWords(p.action, { t, lang })));
  else e.append(el("span", "txt", p.pass ? t("ct.passed") : p.text || ""));
  // a move the server made (the clock ran out, or the computer plays the seat: 托管); any
  // other reason (a claim window closing by itself) is no move of the seat's: no mark
  const mark = AUTO_MARKS[p.auto];
  if (mark) e.append(el("span", "auto", t(mark)));
  return e;
}

/** The parts of a row: its plays ([seat, play] each), or a board's own (opts.parts). */
const partsOf = (opts, round) => (opts.parts ? opts.parts(round) : round);

/** The steps of the list: each play of each row (a row with none, as shengji's deal, one step
 *  of its own, `m` -1), {k, m, round, seat}. */
function itemsOf(opts, rounds) {
  const out = [];
  rounds.forEach((round, k) => {
    const parts = partsOf(opts, round);
    if (!parts.length) out.push({ k, m: -1, round });
    parts.forEach((p, m) => out.push({ k, m, round, seat: p[0] }));
  });
  return out;
}

/** How many plays `rounds` hold (the table after play j: the last position holding j of them). */
export function playCount(rounds, parts = null) {
  return (rounds || []).reduce((n, r) => n + (parts ? parts(r) : r).length, 0);
}

/** The move list's options of a card history: each play a step of its own, a row a round
 *  (trick) as cards by seat; the plays of a row that is no round (the bidding's, `head`) are
 *  set aside, so the counter counts the plays of the rounds, and says the row's name while
 *  one of its steps is shown. */
function listOptions(opts, whoOf) {
  const { t, el } = opts;
  const head = (round, k) => (opts.head ? opts.head(round, k) : round.head ? t(round.head) : String(round.no ?? k + 1));
  const format = (e) => {
    if (e.m < 0) return el("span", "txt", e.round.head ? t(e.round.head) : "");
    const part = partsOf(opts, e.round)[e.m];
    return opts.part ? opts.part(e.round, e.m, whoOf()) : playNode(opts, whoOf(), part[0], part[1]);
  };
  return { t, title: opts.title, numbering: "none", format, group: (e) => e.k, groupHead: (e) => head(e.round, e.k),
    groupTitle: opts.groupTitle ? (e) => opts.groupTitle(e.round, e.k) : null, groupClass: (e) => (opts.rowClass || "ct-round") + (e.round.head ? " ct-bids" : ""),
    aside: (e) => !!(e && e.round.head), asideWhere: (e) => t(e.round.head) };
}

export function mountHistory(host, opts) {
  let ml = null, who = (s) => String(s), sig = "";
  const options = listOptions(opts, () => who);
  return {
    update(rounds, names) {
      if (names) who = names;
      if (!ml) ml = createMoveList(host, { ...options, live: true, onNavigate: opts.onNavigate });
      // the list redraws when its length changes; a play that changes in place (a mark added)
      // is taken off and put back
      const next = JSON.stringify(rounds);
      if (next === sig) return;
      const items = itemsOf(opts, rounds);
      if (items.length && items.length === ml.length) ml.setMoves(items.slice(0, -1));
      sig = next;
      ml.setMoves(items);
    },
    setLive(v) { if (ml) ml.setLive(v); },
    toEnd() { if (ml && !ml.atEnd) ml.go(ml.length); },
    get atEnd() { return !ml || ml.atEnd; },
    destroy() { if (ml) ml.destroy(); },
  };
}

/** The replay's list: `rounds` of the hand's last step, a step a play; a click (or ← →) shows
 *  the table right after that play: the step at which the views come to hold that many plays
 *  (count(step)) — the last time they do, as a deal nobody bid on is dealt again and its bids
 *  are gone; Home the game's first step, End (the last play) its final one. */
export function replayHistory(host, opts) {
  const { steps, count, rounds, show } = opts;
  const items = itemsOf(opts, rounds);
  const rise = new Map();                    // d -> the last step whose view holds d plays first
  for (let i = 1, prev = count(steps[0]); i < steps.length; i++) {
    const now = count(steps[i]);
    for (let d = Math.floor(prev) + 1; d <= now; d++) rise.set(d, i);
    prev = now;
  }
  const stepOf = [0];
  let done = 0;
  for (let j = 1; j <= items.length; j++) {
    if (items[j - 1].m >= 0) done++;
    stepOf.push(j === items.length ? steps.length - 1 : rise.get(done) ?? stepOf[j - 1]);
  }
  const ml = createMoveList(host, { ...listOptions(opts, () => opts.who), live: false, onNavigate: (j) => show(stepOf[j]) });
  ml.setMoves(items);
  return ml;
}

// The table after k plays of the hand in play: the last position whose view holds k plays,
// found by halving [0, seq] (views hold more rounds as the hand goes on). A deal nobody bid on
// is dealt again and its bids are gone, so the count falls at a redeal: `deal(view)` numbers
// the deals of the hand (doudizhu's and sandayi's `redeals`), and a position of an earlier
// deal than the one at `seq` counts as before the first play of that one (the search never
// lands in a deal that was thrown in). The views this page received are kept by seq; a
// missing one is asked of the server ({type: "position", ply}).
export function lookBack(ask) {
  const seen = new Map(), waiting = new Map();          // seq -> view of this seat; ply -> resolve
  function viewAt(ply) {
    if (seen.has(ply)) return Promise.resolve(seen.get(ply));
    return new Promise((resolve) => {
      waiting.set(ply, resolve);
      if (ask) ask({ type: "position", ply });
    });
  }
  return {
    seen(seq, view) { seen.set(seq, view); },
    position(p) {
      seen.set(p.ply, p.view);
      const wait = waiting.get(p.ply);
      if (wait) { waiting.delete(p.ply); wait(p.view); }
    },
    // count(view): the rounds a view holds; stale(): the viewer went on meanwhile (null);
    // local: only the views received (a spectator of a game in play, whom the server tells no
    // earlier position): the latest of them of the deal at `hi` that holds at most k rounds;
    // deal(view): the deal's number in the hand (none: one deal)
    async after(k, hi, count, stale, local = false, deal = () => 0) {
      const now = deal(await viewAt(hi));
      if (stale()) return null;
      // -1: a deal thrown in before this one (its bids are not this deal's plays)
      const plays = (v) => (deal(v) < now ? -1 : count(v));
      if (local) {
        let best = -1;
        for (const [seq, v] of seen) if (seq <= hi && seq > best && deal(v) === now && count(v) <= k) best = seq;
        return best < 0 || stale() ? null : { seq: best, view: seen.get(best) };
      }
      let lo = 0;                          // plays(lo) <= k < plays(hi), plays rising with seq
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        const v = await viewAt(mid);
        if (stale()) return null;
        if (plays(v) <= k) lo = mid; else hi = mid;
      }
      const view = await viewAt(lo);
      return stale() ? null : { seq: lo, view };
    },
  };
}
