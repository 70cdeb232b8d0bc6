// The alert of a table in a background tab when it is the player's turn (as lichess, pychess
// and OGS do), besides the tab title's "Your turn" (tablefx.js):
// - the tab's icon blinks with a red dot while it is the player's turn and the tab is hidden, and its
//   own icon back once the turn is over or the tab is shown (setting "tabmark", on by default);
// - a desktop notification (the Notification API) when a turn comes while the tab is hidden,
//   only when the player turned it on in /settings, which asks the browser's permission then
//   (setting "notify", off by default). One notification a turn; shown again, the tab closes it.
// window.qipaiNotices counts the notifications made (the browser tests read it).

import { notifyOn, onPrefs, tabMark } from "./prefs.js";

// the site's icon (favicon.svg) with a red dot in its top right corner
const MARKED = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
  + '<circle cx="16" cy="16" r="14" fill="#f4e2b8" stroke="#b22" stroke-width="2"/>'
  + '<text x="16" y="22" font-size="16" text-anchor="middle" fill="#b22">棋</text>'
  + '<circle cx="25" cy="7" r="6.5" fill="#e00" stroke="#fff" stroke-width="1.5"/></svg>');

const notices = (window.qipaiNotices = window.qipaiNotices || { count: 0, last: null });

/** Whether this browser can show desktop notifications at all. */
export const notifySupported = () => typeof window.Notification === "function";

/** The browser's permission to notify: "granted", "denied" or "default" (not asked yet),
 *  "unsupported" without the API. Read from the Permissions API where there is one: headless
 *  Chromium's Notification.permission says "denied" whatever was granted. */
export async function notifyPermission() {
  if (!notifySupported()) return "unsupported";
  try {
    if (navigator.permissions) {
      const state = (await navigator.permissions.query({ name: "notifications" })).state;
      return state === "prompt" ? "default" : state;
    }
  } catch (e) { /* no such permission name here: the API's own word */ }
  return Notification.permission;
}

/** Asks the browser's permission to notify (after the player's click in /settings), without a
 *  question when it was answered before: resolves as notifyPermission does ("default": the
 *  question dismissed). */
export async function askNotify() {
  if (!notifySupported()) return "unsupported";
  try { return await Notification.requestPermission(); } catch (e) { return notifyPermission(); }
}

const hidden = () => document.visibilityState === "hidden";

/** The page's alert: `turn(mine, key, words)` on every state (`mine`: the player's turn now,
 *  `key`: the turn's own id, `words`: {title, body} of its notification). */
export function tabAlert() {
  let mine = false, key = null, words = null, notified = null, shown = null;
  let allowed = "default";       // the browser's permission to notify, as last read
  const readPermission = () => notifyPermission().then((p) => { allowed = p; });
  if (notifyOn()) readPermission();
  const link = () => document.querySelector('link[rel~="icon"]');
  const plain = (link() && link().getAttribute("href")) || "/favicon.ico";

  // while the alert is on the icon blinks, the marked one and the site's own each 1 s (as
  // lichess's): data-marked stays "1" the whole time
  let blink = null;
  function mark() {
    const l = link();
    if (!l) return;
    const on = mine && hidden() && tabMark();
    if (on && !blink) blink = setInterval(() => {
      const b = link();
      if (b) b.setAttribute("href", b.getAttribute("href") === MARKED ? plain : MARKED);
    }, 1000);
    if (!on && blink) { clearInterval(blink); blink = null; }
    const want = on ? MARKED : plain;
    if (l.dataset.marked !== (on ? "1" : "0") || !on) l.setAttribute("href", want);
    l.dataset.marked = on ? "1" : "0";
  }

  function notify() {
    if (!mine || !hidden() || notified === key || !notifyOn() || allowed !== "granted") return;
    notified = key;
    try {
      const n = new Notification(words.title, { body: words.body, tag: "qipai-turn", icon: "/favicon.ico" });
      n.onclick = () => { window.focus(); n.close(); };
      shown = n;
      notices.count += 1;
      notices.last = { title: words.title, body: words.body };
    } catch (e) { /* some browsers notify only from a service worker: the icon and title remain */ }
  }

  function close() {
    if (shown) { shown.close(); shown = null; }
  }

  document.addEventListener("visibilitychange", () => {
    mark();
    if (!hidden()) close();
  });
  onPrefs(() => { mark(); if (notifyOn()) readPermission(); });

  return {
    turn(isMine, turnKey, turnWords) {
      mine = isMine;
      key = turnKey;
      words = turnWords;
      mark();
      if (mine) notify(); else close();
    },
  };
}
