// Drag and drop on a board (xiangqi, junqi, Chinese checkers), by mouse, pen or finger (pointer
// events). A press on one of your pieces that moves a few pixels becomes a drag: the piece is
// selected (its legal targets shown, as after a click), a copy of it follows the pointer, and a
// release on one of the targets makes that move, as clicking the piece and then the target does.
// A release anywhere else (an illegal point, off the board, the pointer lost) cancels it with
// nothing sent. A press released where it started is a plain click: the board's own click
// handler takes it (click-click stays as it was, for the keyboard and screen readers too).
//
// For a finger the board's stylesheet keeps the page from scrolling under a drag: `touch-action:
// none` on the points you may drag from (junqi), on the whole board (xiangqi; Chinese checkers in
// your turn: Chromium reads touch-action on an <svg>, not on the holes inside it).

const SLOP = { mouse: 4, pen: 6, touch: 8 };        // pixels before a press becomes a drag

/**
 * Make the pieces on `host` draggable.
 *   from(target): the key of the point whose piece the press (on element `target`) may drag now
 *                 (your own piece, in your turn, with a legal move), or null;
 *   at(x, y): the key of the point under viewport position (x, y), or null (off the board);
 *   targets(key): the keys of the points a piece on `key` may go to now;
 *   pick(key): show the piece on `key` selected (its targets highlighted);
 *   drop(from, to): make the move (`to` is one of targets(from));
 *   cancel(): the drag ended nowhere: clear the selection;
 *   piece(key): the element of the piece on `key` (its size is the copy's);
 *   ghost(key): a new element that looks like the piece on `key` (the copy under the pointer;
 *               default: a copy of piece(key));
 *   layer: the element the copy is put in (default `host`; never inside a transformed element).
 */
export function dragMoves(host, { from, at, targets, pick, drop, cancel, piece, ghost, layer = host }) {
  let press = null;         // {id, key, x, y, size, kind}: a press on a draggable piece
  let copy = null;          // the piece under the pointer, while dragging
  let swallow = false;      // the click that a mouse's drag ends with is not a click on the board

  function place(x, y) {
    copy.style.left = `${x - press.size.w / 2}px`;
    copy.style.top = `${y - press.size.h / 2}px`;
  }

  function start(e) {
    pick(press.key);
    copy = ghost ? ghost(press.key) : piece(press.key).cloneNode(true);
    copy.classList.add("drag-ghost");
    Object.assign(copy.style, { position: "fixed", width: `${press.size.w}px`, height: `${press.size.h}px`,
      margin: "0", pointerEvents: "none", zIndex: "50", transform: "scale(1.15)" });
    copy.setAttribute("aria-hidden", "true");
    layer.append(copy);
    host.classList.add("dragging");
    place(e.clientX, e.clientY);
  }

  function end() {
    window.removeEventListener("pointermove", move, true);
    window.removeEventListener("pointerup", up, true);
    window.removeEventListener("pointercancel", lost, true);
    if (copy) copy.remove();
    host.classList.remove("dragging");
    const dragged = !!copy;
    copy = null;
    press = null;
    return dragged;
  }

  function move(e) {
    if (!press || e.pointerId !== press.id) return;
    if (press.kind === "mouse" && !(e.buttons & 1)) { lost(e); return; }    // released outside the window
    if (!copy) {
      if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < (SLOP[press.kind] || 6)) return;
      start(e);
    }
    e.preventDefault();
    place(e.clientX, e.clientY);
  }

  function up(e) {
    if (!press || e.pointerId !== press.id) return;
    const key = press.key;
    if (!end()) return;                 // never moved: the click that follows is the board's
    swallow = true;                     // this release's click (if any) was a drag's end
    setTimeout(() => { swallow = false; }, 0);
    const to = at(e.clientX, e.clientY);
    if (to === key) return;             // put back where it was: it stays selected, as a click leaves it
    if (to !== null && targets(key).includes(to)) drop(key, to);
    else cancel();
  }

  function lost(e) {
    if (!press || e.pointerId !== press.id) return;
    if (end()) cancel();
  }

  host.addEventListener("pointerdown", (e) => {
    if (!e.isPrimary || (e.pointerType === "mouse" && e.button !== 0)) return;
    if (press && end()) cancel();       // a press whose release never came here
    const key = from(e.target);
    if (key === null || key === undefined) return;
    const pc = piece(key);
    if (!pc) return;
    const r = pc.getBoundingClientRect();
    press = { id: e.pointerId, key, x: e.clientX, y: e.clientY, kind: e.pointerType, size: { w: r.width, h: r.height } };
    window.addEventListener("pointermove", move, true);
    window.addEventListener("pointerup", up, true);
    window.addEventListener("pointercancel", lost, true);
  });
  host.addEventListener("click", (e) => {
    if (swallow) { swallow = false; e.stopImmediatePropagation(); e.preventDefault(); }
  }, true);
}

/** The point (an element of `selector` inside `host`) under viewport position (x, y), or null. */
export function pointAt(host, x, y, selector) {
  const el = document.elementFromPoint(x, y);
  const pt = el && el.closest(selector);
  return pt && host.contains(pt) ? pt : null;
}
