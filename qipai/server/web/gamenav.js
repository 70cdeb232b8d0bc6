// The move list of a live table and of a replay, wired to the board: movelist.js draws the
// list and reads the keys, this module finds the positions.
//
// Live (tablePage): const nav = liveNav({ host, game, seats, t, lang, send, show });
//   nav.state(msg) -> true when the page should draw msg (the viewer follows the game), false
//                     while the viewer looks at an earlier position;
//   nav.position(msg) takes the server's answer to {type: "position", ply};
//   nav.toEnd() shows the game in play again (the page calls it when the player moves).
// Positions the page has received are kept; older ones are asked for once, after a short
// pause, so holding an arrow key does not flood the socket. An earlier position is drawn as
// a replay (nothing clickable) with `browsing: true`, so a board keeps the viewer's side at
// the bottom.
//
// Replay (recordPage): replayNav({ host, game, steps, names, t, lang, show, entry }) lists the
// steps' moves (their `move`; for games without a move list the board's entry(e), else
// "name: action").

import { createMoveList } from "./movelist.js";
import { moveFormat } from "./movetext.js";

export function liveNav({ host, game, seats, t, lang, send, show }) {
  let last = null;
  const { format, numbering, cellWidth, setup, aside, side, fold, foldText } = moveFormat(game, t, lang, seats, () => (last && last.view && last.view.black_seat) || 0);
  let entries = [], asked = null, timer = null, syncing = false;
  const views = new Map();          // ply -> view of this seat
  const ml = createMoveList(host, { t, format, numbering, cellWidth, setup, aside, side, fold, foldText, live: true, onNavigate });

  function browse(ply) {
    return { ...last, view: views.get(ply), seq: ply, replay: true, browsing: true, to_act: [], legal: undefined,
      turn: undefined, result: null, draw_offer: undefined };
  }

  function onNavigate(ply, atEnd) {
    if (!last) return;
    if (atEnd) { show(last); return; }
    if (views.has(ply)) { show(browse(ply)); return; }
    clearTimeout(timer);
    timer = setTimeout(() => { asked = ply; send({ type: "position", ply }); }, 150);
  }

  return {
    state(msg) {
      last = msg;
      for (const k of [...views.keys()]) if (k > msg.ply) views.delete(k);   // taken back
      views.set(msg.ply, msg.view);
      const m = msg.moves;
      if (m) {
        if (m.from <= entries.length) {
          entries = entries.slice(0, m.from).concat(m.list);
          syncing = false;
        } else if (!syncing) {   // a gap: ask for the whole list once
          syncing = true;
          send({ type: "sync" });
        }
        ml.setMoves(entries);
      }
      ml.setLive(!msg.result);
      return ml.atEnd;
    },
    position(msg) {
      views.set(msg.ply, msg.view);
      if (msg.ply === asked && ml.ply === msg.ply && !ml.atEnd) show(browse(msg.ply));
    },
    toEnd() { if (!ml.atEnd) ml.go(ml.length); },
    get atEnd() { return ml.atEnd; },
  };
}

export function replayNav({ host, game, steps, names, seats, t, lang, show, entry }) {
  const listed = steps.length > 1 && steps[1].move;
  const end = steps[steps.length - 1].public;
  const own = moveFormat(game, t, lang, seats, () => (end && end.black_seat) || 0);
  // a game without a move list: the board words its steps (entry(e) -> Node), else "name: action"
  const format = listed ? own.format : entry
    || ((e) => ({ text: `${names[e.seat] ?? ""}${names[e.seat] ? t("colon") : ""}${e.text}` }));
  const entries = steps.slice(1).map((s) => s.move || { seat: s.seat, text: s.action });
  const ml = createMoveList(host, { t, format, numbering: listed ? own.numbering : "each", cellWidth: listed ? own.cellWidth : "14em",
    setup: listed ? own.setup : null, aside: listed ? own.aside : null, side: listed ? own.side : null,
    fold: listed ? own.fold : null, foldText: listed ? own.foldText : null, live: false, onNavigate: (ply) => show(ply) });
  ml.setMoves(entries);
  return ml;
}
