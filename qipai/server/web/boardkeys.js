// Keyboard play on a board or a hand (the WAI-ARIA "roving tabindex"): one point of the board
// (or one card of the hand) is in the tab order; the arrow keys move the focus to the nearest
// point that way on the screen — so it works on square, hex and junqi boards, flipped or not —
// Home / End to the first / last, and Enter or Space acts on the focused point as a click does.
// The arrows move on the board only while the board was reached by the keyboard: after a
// click on a point they go on stepping through the move list.
// Every point is a button with a name that says what is there. A board that redraws its points
// calls refresh() after each paint: the focus stays on the point with the same key.

import { t } from "./i18n.js";

const DIRS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

function centre(el) {
  const r = el.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}

/** The nearest of `els` from `from` in direction [dx, dy] (screen coordinates), or null. */
function nearest(from, els, [dx, dy]) {
  const [x0, y0] = centre(from);
  let best = null, score = Infinity;
  for (const el of els) {
    if (el === from) continue;
    const [x, y] = centre(el);
    const along = (x - x0) * dx + (y - y0) * dy;
    if (along < 2) continue;
    const across = Math.abs((x - x0) * dy) + Math.abs((y - y0) * dx);
    const s = along + 2.5 * across;
    if (s < score) { score = s; best = el; }
  }
  return best;
}

// how the page was last used: a point focused right after a key (Tab) was reached by keyboard
let lastInput = "pointer";
window.addEventListener("keydown", () => { lastInput = "key"; }, true);
window.addEventListener("pointerdown", () => { lastInput = "pointer"; }, true);

/**
 * Make the points of `host` reachable by keyboard.
 *   points(): the point elements, in reading order;
 *   key(el): a stable name of a point (kept across redraws);
 *   label(el): its accessible name (what is there, in the page's language);
 *   activate(el): what Enter / Space does (default: a click on it);
 *   start(): the key of the point to start on (the selected piece, the last move ...);
 *   pressed(el): whether the point is selected (aria-pressed), optional;
 *   shown: false when label(el) already says all the point shows (junqi's piece faces hold
 *          both languages' names: adding them would run "South Brigadier 旅长Brig" together).
 * Returns { refresh() }.
 */
export function boardKeys(host, { points, key, label, activate, start, pressed, shown: withShown = true }) {
  let current = null;       // key of the point in the tab order
  let inside = false;       // the focus was on a point (kept over a redraw that removes it)
  let byKeys = false;       // ... and it came there by the keyboard (Tab, the arrows)
  const act = activate || ((el) => el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true })));

  function refresh() {
    const els = points();
    if (!els.length) return;
    let cur = els.find((e) => key(e) === current);
    if (!cur && start) { const k = start(); cur = k != null ? els.find((e) => key(e) === k) : null; }
    if (!cur) cur = els[Math.floor(els.length / 2)];
    current = key(cur);
    for (const e of els) {
      e.setAttribute("role", "button");
      e.tabIndex = e === cur ? 0 : -1;
      // the name holds what the point shows (a move number, a piece's character) as well
      const name = label(e), shown = withShown ? e.textContent.replace(/\s+/g, " ").trim() : "";
      e.setAttribute("aria-label", shown && !name.includes(shown) ? `${name} ${shown}` : name);
      if (pressed) e.setAttribute("aria-pressed", pressed(e) ? "true" : "false");
    }
    const active = document.activeElement;
    if (inside && (!active || active === document.body) && cur.isConnected) cur.focus({ preventScroll: true });
  }

  function move(to) {
    const els = points();
    for (const e of els) e.tabIndex = e === to ? 0 : -1;
    current = key(to);
    to.focus({ preventScroll: false });
  }

  host.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const els = points();
    const el = els.includes(e.target) ? e.target : null;
    if (!el) return;
    // a point focused by a click (not by the keyboard) leaves the arrows to the move list
    if ((DIRS[e.key] || e.key === "Home" || e.key === "End") && !byKeys) return;
    let to = null;
    if (DIRS[e.key]) to = nearest(el, els, DIRS[e.key]) || el;
    else if (e.key === "Home") to = els[0];
    else if (e.key === "End") to = els[els.length - 1];
    else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      e.stopPropagation();
      act(el);
      return;
    } else return;
    e.preventDefault();
    e.stopPropagation();          // the arrows move on the board, not through the move list
    move(to);
  });
  host.addEventListener("focusin", (e) => {
    if (!points().includes(e.target)) return;
    inside = true;
    byKeys = lastInput === "key";
    current = key(e.target);
    cursorHint(byKeys);
  });
  host.addEventListener("focusout", (e) => {
    if (e.relatedTarget && !points().includes(e.relatedTarget)) inside = false;
    if (!e.relatedTarget || !points().includes(e.relatedTarget)) cursorHint(false);
  });
  /** Draw the host anew with `draw()`; the focus stays on the button (data-action or id) or
   *  point it was on, though they are new elements. */
  function redraw(draw) {
    const a = document.activeElement;
    const again = a && host.contains(a) ? (a.dataset.action ? `[data-action="${a.dataset.action}"]` : a.id ? `#${a.id}` : null) : null;
    draw();
    if (again && !host.contains(document.activeElement)) {
      const e = host.querySelector(again);
      if (e && !e.disabled) e.focus({ preventScroll: true });
    }
    refresh();
  }
  return { refresh, redraw };
}

/** The keyboard cursor (the outlined point a key focused) says what it is: a note at the foot
 *  of the window while it is on the board, the board's keys in words (an outlined empty point
 *  alone read as a stray blue square). Fixed, so the page does not move when it comes. */
function cursorHint(on) {
  let note = document.getElementById("kb-cursor-hint");
  if (!on) { if (note) note.remove(); return; }
  if (!note) {
    note = document.createElement("div");
    note.id = "kb-cursor-hint";
    note.className = "kb-cursor-hint";
    note.setAttribute("aria-hidden", "true");     // a reader hears each point's name instead
    document.body.append(note);
  }
  note.textContent = t("kb.cursor");
}

/** A stone's point as a screen reader says it: "D4: black stone · the last move", "D4, empty". */
export function stoneLabel(t, name, stone, last) {
  const base = stone ? t("kb.point", { point: name, what: t(stone.classList.contains("b") ? "kb.stone.black" : "kb.stone.white") })
    : t("kb.empty", { point: name });
  return last ? `${base} · ${t("kb.last")}` : base;
}
