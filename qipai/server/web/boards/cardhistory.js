// The hand's history at a card table: each round (climbing games: from a lead until every other
// seat passed) or trick, as cards by seat, in the shared move list (movelist.js) with its keys
// (← → Home End move the highlight). A live table only: a replay lists its steps itself.
//
//   const h = mountHistory(host, { t, lang, title, cardsEl, el });   // cardtable.js's drawing
//   h.update(rounds, who)  // rounds: [[seat, {cards} | {pass} | {text}], ...] per round / trick;
//                          // who(seat): the seat's name

import { createMoveList } from "../movelist.js";

export function mountHistory(host, { t, lang, title, cardsEl, el }) {
  let ml = null, who = (s) => String(s), sig = "";
  const format = (round, i) => {
    const row = el("div", "ct-round", el("span", "n", String(i + 1)));
    for (const [s, p] of round) {
      const e = el("span", "ct-round-play", el("span", "who", who(s)));
      if (p.cards && p.cards.length) e.append(cardsEl(p.cards, lang, "inline"));
      else e.append(el("span", "txt", p.pass ? t("ct.passed") : p.text || ""));
      row.append(e);
    }
    return row;
  };
  return {
    update(rounds, names) {
      if (names) who = names;
      if (!ml) ml = createMoveList(host, { t, title, numbering: "none", live: false, format });
      // the list redraws when its length changes; the round in play grows in place, so it is
      // taken off and put back
      const next = JSON.stringify(rounds);
      if (next === sig) return;
      if (rounds.length && rounds.length === ml.length) ml.setMoves(rounds.slice(0, -1));
      sig = next;
      ml.setMoves(rounds);
    },
    destroy() { if (ml) ml.destroy(); },
  };
}
