// The hand's history at a card table: each round (climbing games: from a lead until every other
// seat passed) or trick, as cards by seat, in the shared move list (movelist.js) with its keys.
// A click on a round (or ← → Home End) shows the table as it was when that round ended, as the
// board games show an earlier position; End (or the last round) goes back to the game.
//
//   const h = mountHistory(host, { t, lang, title, cardsEl, el, onNavigate });
//   h.update(rounds, who)  // rounds: [[seat, {cards, kind?} | {pass} | {text} | {action}], ...] per
//                          // round or trick ({action}: an action text, worded by cardActionWords;
//                          // kind: 4A4's cha or gou);
//                          // who(seat): the seat's name
//   onNavigate(k, atEnd)   // show the table after k rounds (atEnd: the game in play)
//
//   replayHistory(host, { t, lang, title, cardsEl, el, steps, count, rounds, who, show })
//   lists the rounds of a finished hand for its replay page: a click shows the step at which
//   the round ended (count(step) = how many rounds a step's view holds).
//
// A table whose rounds are no cards (the mahjong tables' turns) gives both its own
// `format(round, i, who) -> Node`.
//
//   const back = lookBack(ask)   // the positions of the hand in play this seat has seen or asks
//   back.seen(seq, view); back.position(msg)  // a view received; the answer to {type: "position"}
//   back.after(k, seq, count, stale, local) -> {seq, view} | null: the table after k rounds

import { createMoveList } from "../movelist.js";
import { cardActionWords } from "./cardmoves.js";

// a round may carry `head` (the catalogue key of a step that is no round, as doudizhu's bidding,
// listed before the first play) and `no` (its number when such a step comes first); a bid is
// {bid: action} and is worded by bidText(action)
/** The words of a server move's mark in the list, by why (Timeouts.auto_marks). */
const AUTO_MARKS = { timeout: "ct.autoTimeout", trusteeship: "ct.autoTrustee" };

function roundFormat({ t, lang, cardsEl, el, bidText }, who) {
  return (round, i) => {
    const row = el("div", "ct-round" + (round.head ? " ct-bids" : ""), el("span", "n", round.head ? t(round.head) : String(round.no ?? i + 1)));
    for (const [s, p] of round) {
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
      row.append(e);
    }
    return row;
  };
}

/** The move list's options of a card history: a step that is no round (the bidding's row,
 *  `head`) is set aside, so the counter counts the rounds as their rows number them ("2 / 6"
 *  on trick 2), and says the step's name while it is shown. */
const notRounds = (t) => ({ aside: (r) => !!(r && r.head), asideWhere: (r) => t(r.head) });

function formatOf(opts, who) {
  return opts.format ? (round, i) => opts.format(round, i, who) : roundFormat(opts, who);
}

export function mountHistory(host, opts) {
  let ml = null, who = (s) => String(s), sig = "";
  const format = formatOf(opts, (s) => who(s));
  return {
    update(rounds, names) {
      if (names) who = names;
      if (!ml) ml = createMoveList(host, { t: opts.t, title: opts.title, numbering: "none", live: true, format, onNavigate: opts.onNavigate, ...notRounds(opts.t) });
      // the list redraws when its length changes; the round in play grows in place, so it is
      // taken off and put back
      const next = JSON.stringify(rounds);
      if (next === sig) return;
      if (rounds.length && rounds.length === ml.length) ml.setMoves(rounds.slice(0, -1));
      sig = next;
      ml.setMoves(rounds);
    },
    setLive(v) { if (ml) ml.setLive(v); },
    toEnd() { if (ml && !ml.atEnd) ml.go(ml.length); },
    get atEnd() { return !ml || ml.atEnd; },
    destroy() { if (ml) ml.destroy(); },
  };
}

export function replayHistory(host, opts) {
  const { steps, count, rounds, show } = opts;
  // the step that shows the table after k rounds: the last one whose view holds k rounds (k = 0:
  // before the first lead); after the last round, the final step
  const stepOf = [];
  for (let k = 0; k <= rounds.length; k++) {
    let at = 0;
    steps.forEach((s, i) => { if (count(s) <= k) at = i; });
    stepOf.push(k === rounds.length ? steps.length - 1 : at);
  }
  const ml = createMoveList(host, { t: opts.t, title: opts.title, numbering: "none", live: false,
    format: formatOf(opts, opts.who), onNavigate: (k) => show(stepOf[k]), ...notRounds(opts.t) });
  ml.setMoves(rounds);
  return ml;
}

// The table after k rounds of the hand in play: the last position whose view holds k rounds,
// found by halving [0, seq] (views hold more rounds as the hand goes on). The views this page
// received are kept by seq; a missing one is asked of the server ({type: "position", ply}).
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
    // earlier position): the latest of them that holds at most k rounds
    async after(k, hi, count, stale, local = false) {
      if (local) {
        let best = -1;
        for (const [seq, v] of seen) if (seq <= hi && seq > best && count(v) <= k) best = seq;
        return best < 0 || stale() ? null : { seq: best, view: seen.get(best) };
      }
      let lo = 0;                          // count(lo) <= k < count(hi)
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        const v = await viewAt(mid);
        if (stale()) return null;
        if (count(v) <= k) lo = mid; else hi = mid;
      }
      const view = await viewAt(lo);
      return stale() ? null : { seq: lo, view };
    },
  };
}
