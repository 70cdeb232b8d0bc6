// The player's settings kept in this browser (localStorage): the colour theme, the sound, the
// board coordinates and the alerts of a table in a background tab (tabalert.js).
// Theme: "light", "dark", or unset = follow the system (prefers-color-scheme), shown on <html>
// as data-theme="light|dark" (theme.css); the header button cycles auto -> dark -> light.
// Sound: "muted" = "1" silences sound.js; the header button toggles it.
// Coordinates: "coords" = "0" hides the coordinates around the xiangqi, go, gomoku and Chinese
// checkers boards (shown by default), set on <html> as data-coords="on|off" (theme.css); each of
// those boards has the switch under it (coordsButton), and a change in one tab reaches the others.
// Alerts: "tabmark" = "0" leaves the tab's icon unmarked on your turn (marked by default);
// "notify" = "1" turns on a desktop notification on your turn (off by default; /settings asks
// the browser's permission when it is turned on).
// Chat: "chat" = "0" hides every chat box but its heading and switch (chat.js; also /settings).
// Xiangqi notation: "xqNotation" = "zh" (炮二平五), "wxf" (C2=5) or "iccs" (h2e2), the move list's
// and replays' words (movetext.js); unset = by the page's language (zh in Chinese, WXF in English).

import { icon } from "./icons.js";

const media = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

/** The stored theme choice: "light", "dark" or "auto". */
export function themeChoice() {
  const v = localStorage.getItem("theme");
  return v === "light" || v === "dark" ? v : "auto";
}

/** The theme in force ("light" or "dark"), set on <html data-theme>. */
export function applyTheme() {
  const c = themeChoice();
  const theme = c === "auto" ? (media && media.matches ? "dark" : "light") : c;
  document.documentElement.dataset.theme = theme;
  return theme;
}
if (media && media.addEventListener) media.addEventListener("change", applyTheme);
applyTheme();

export const muted = () => localStorage.getItem("muted") === "1";

// a setting changed here (the header's buttons, the settings page) or in another tab: every
// control that shows it draws itself again
const CHANGED = "qipai-prefs";
const changed = () => window.dispatchEvent(new Event(CHANGED));
window.addEventListener("storage", (e) => {
  if (e.key === "theme") applyTheme();
  if (["theme", "muted", "coords", "tabmark", "notify", "chat", "xqNotation"].includes(e.key)) changed();
});
/** Calls `f` whenever a setting changes (here or in another tab). */
export const onPrefs = (f) => window.addEventListener(CHANGED, f);

/** Sets the theme choice ("auto", "dark" or "light") and applies it. */
export function setTheme(choice) {
  if (choice === "auto") localStorage.removeItem("theme"); else localStorage.setItem("theme", choice);
  applyTheme();
  changed();
}

/** Turns the sound off (`off` true) or on. */
export function setMuted(off) {
  localStorage.setItem("muted", off ? "1" : "0");
  changed();
}

/** Whether the tab's icon is marked while it is your turn in a hidden tab (on unless turned off). */
export const tabMark = () => localStorage.getItem("tabmark") !== "0";
/** Whether a desktop notification says your turn in a hidden tab (off unless turned on). */
export const notifyOn = () => localStorage.getItem("notify") === "1";

/** Marks the tab's icon on your turn (`on` true) or not. */
export function setTabMark(on) {
  localStorage.setItem("tabmark", on ? "1" : "0");
  changed();
}

/** Turns the desktop notification on your turn on (`on` true) or off. */
export function setNotify(on) {
  localStorage.setItem("notify", on ? "1" : "0");
  changed();
}

/** Shows (`on` true) or hides the boards' coordinates. */
export function setCoords(on) {
  localStorage.setItem("coords", on ? "1" : "0");
  applyCoords();
  changed();
}

/** Whether chat is shown (the "chat" setting; shown unless turned off). */
export const chatShown = () => localStorage.getItem("chat") !== "0";

/** Shows (`on` true) or hides every chat. */
export function setChatShown(on) {
  localStorage.setItem("chat", on ? "1" : "0");
  changed();
}

export const XQ_NOTATIONS = ["zh", "wxf", "iccs"];

/** The xiangqi notation in force: the stored choice, else the language's ("zh" in Chinese,
 *  "wxf" otherwise). */
export function xiangqiNotation(lang) {
  const v = localStorage.getItem("xqNotation");
  return XQ_NOTATIONS.includes(v) ? v : lang === "zh" ? "zh" : "wxf";
}

/** Sets the xiangqi notation ("zh", "wxf" or "iccs"). */
export function setXiangqiNotation(v) {
  localStorage.setItem("xqNotation", v);
  changed();
}

/** The header's two buttons (theme, sound), labelled with `t`. */
export function prefButtons(t) {
  const themeBtn = document.createElement("button");
  themeBtn.type = "button";
  themeBtn.id = "theme";
  themeBtn.className = "icon-btn";
  const soundBtn = document.createElement("button");
  soundBtn.type = "button";
  soundBtn.id = "mute";
  soundBtn.className = "icon-btn";
  const render = () => {
    const c = themeChoice();
    const label = t(`theme.${c}`);
    themeBtn.replaceChildren(icon(c === "auto" ? "auto" : c === "dark" ? "moon" : "sun"));
    themeBtn.title = label;
    themeBtn.setAttribute("aria-label", label);
    themeBtn.dataset.choice = c;
    const m = muted();
    soundBtn.replaceChildren(icon(m ? "soundOff" : "soundOn"));
    soundBtn.title = t(m ? "sound.off" : "sound.on");
    soundBtn.setAttribute("aria-label", t("sound.label"));
    soundBtn.setAttribute("aria-pressed", m ? "false" : "true");
    soundBtn.dataset.muted = m ? "1" : "0";
  };
  themeBtn.onclick = () => setTheme({ auto: "dark", dark: "light", light: "auto" }[themeChoice()]);
  soundBtn.onclick = () => setMuted(!muted());
  onPrefs(render);
  render();
  return [themeBtn, soundBtn];
}

/** Whether the boards show their coordinates (the "coords" setting; shown unless turned off). */
export const coordsShown = () => localStorage.getItem("coords") !== "0";

/** The coordinates setting in force, on <html data-coords="on|off">. */
export function applyCoords() {
  document.documentElement.dataset.coords = coordsShown() ? "on" : "off";
}
applyCoords();
window.addEventListener("storage", (e) => { if (e.key === "coords") applyCoords(); });

/** Coordinates readable at any width: the SVG `svg` draws its texts (`sel`) in its own units,
 *  which a phone's narrow board shrank to about 7 px. Each gets at least `px` screen pixels
 *  (its own size kept when larger), again whenever the board's width changes; then `after()`. */
export function readableText(svg, sel, px, after = null) {
  if (!svg) return;
  const fit = () => {
    const vb = svg.viewBox && svg.viewBox.baseVal;
    const w = svg.getBoundingClientRect().width;
    if (!vb || !vb.width || !w) return;
    const min = (px * vb.width) / w;
    for (const e of svg.querySelectorAll(sel)) {
      // its own size: its font-size attribute or its group's (not a style sheet's, perhaps not
      // loaded yet)
      const own = e.closest("[font-size]");
      if (e.dataset.fs === undefined) e.dataset.fs = parseFloat(own ? own.getAttribute("font-size") : "0") || 0;
      const size = Math.max(+e.dataset.fs, min);
      e.style.fontSize = `${size}px`;
    }
    if (after) after();               // the board places its texts again for their new size
  };
  fit();
  if (!svg._readable && typeof ResizeObserver !== "undefined") {
    svg._readable = new ResizeObserver(fit);
    svg._readable.observe(svg);
  }
}

/** The board's "Coordinates" switch (a toggle button, labelled with `t`): shows or hides the
 *  coordinates of every board and remembers the choice in this browser. */
/** The board's flip switch (data-action="flip-board"): turns the board to the other side and
 *  back; `onFlip(turned)` redraws it (turned: whether it is now the other way round). */
export function flipButton(t, onFlip) {
  const b = document.createElement("button");
  b.type = "button";
  b.dataset.action = "flip-board";
  b.className = "coords-toggle";
  b.textContent = t("board.flip");
  let turned = false;
  b.setAttribute("aria-pressed", "false");
  b.onclick = () => {
    turned = !turned;
    b.setAttribute("aria-pressed", String(turned));
    onFlip(turned);
  };
  return b;
}

export function coordsButton(t) {
  const b = document.createElement("button");
  b.type = "button";
  b.dataset.action = "toggle-coords";
  b.className = "coords-toggle";
  b.textContent = t("coords");
  b.title = t("coords.doc");
  const render = () => {
    b.setAttribute("aria-pressed", coordsShown() ? "true" : "false");
    b.classList.toggle("on", coordsShown());
  };
  b.onclick = () => setCoords(!coordsShown());
  onPrefs(render);
  render();
  return b;
}
