// qipai web client: one small module, no build step. Pages: lobby, sign in/up, table (live
// play over a WebSocket), history, replay, events. Each game's board is its own module in
// /static/boards/<game id>.js exporting mount(root, ctx) -> {update(msg)}; a game without one
// uses boards/generic.js.

import { lang, t, errorText, endText, paren, seatName, seatNames, sentence } from "./i18n.js";
import { icon } from "./icons.js";
import { prefButtons } from "./prefs.js";
import { entrusted, tableExtras } from "./tablefx.js";
import { liveNav, replayNav } from "./gamenav.js";
import { abortedText, resultText, TABLE_GAMES, unratedText } from "./result.js";
import { disputeButton } from "./referee.js";
import { ask } from "./ask.js";
import { keyHelpOn } from "./keyhelp.js";

export { lang, t, errorText, endText, seatName };

/** Put a banner at the top of the page, after the Skip to content link (the first Tab stop of
 *  every page stays that link). */
export function topBanner(node) {
  const skip = document.querySelector("body > .skip-link");
  if (skip) skip.after(node); else document.body.prepend(node);
}

export function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "class") e.className = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined && k !== false) e.append(k instanceof Node ? k : String(k));
  return e;
}

/** The badge of a game or rule set that is not for competition ("experimental", "proposal"):
 *  declared by the game (/api/games "status", an option's "marks", a table's "marking"). */
/** Copies `text` to the clipboard: the Clipboard API where the browser gives it to the page (a
 *  secure origin whose page has focus), else the older copy command on a hidden field (a server
 *  reached over plain http on a LAN has no Clipboard API). Resolves true when either copied. */
export async function copyText(text) {
  try { await navigator.clipboard.writeText(text); return true; } catch { /* the older command */ }
  const box = el("textarea", { readonly: true, "aria-hidden": "true", style: "position:fixed;top:0;left:-9999px;opacity:0" });
  box.value = text;
  const was = document.activeElement;
  document.body.append(box);
  box.select();
  let done = false;
  try { done = document.execCommand("copy"); } catch { done = false; }
  box.remove();
  if (was && was.focus) was.focus();
  return done;
}

export function markBadge(marking) {
  return marking ? el("span", { class: `badge marking marking-${marking}`, "data-marking": marking,
    title: t(`marking.${marking}.doc`) }, ` ${t(`marking.${marking}`)}`) : null;    // a space: read "百变八雀 提案", not "百变八雀提案"
}

// how often the pages ask the server for changes: the server's ``page_poll_ms`` (its
// <meta name="qipai-poll-ms">, 2000 by default) sets the lobby's and event pages' 2 s; every
// other refresh keeps its proportion to it (the referee's 1 s is half of it)
const POLL_MS = Number(document.querySelector('meta[name="qipai-poll-ms"]')?.content) || 2000;
export function every(ms) { return Math.max(50, Math.round(ms * POLL_MS / 2000)); }

export async function api(method, path, body) {
  const r = await fetch(path, {
    method, credentials: "same-origin",
    headers: body !== undefined ? { "Content-Type": "application/json" } : {},
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const data = r.headers.get("content-type")?.includes("json") ? await r.json() : await r.text();
  if (!r.ok) throw Object.assign(new Error(data.message || r.statusText), { status: r.status }, data);
  return data;
}

let me = null;
const app = document.getElementById("app");

/** A game's one name in the reader's language (the catalogues' gamename.<id>, as every page and
 *  the terminal name it); `g` is a game of /api/games, or null. */
/** The tab's title: what the page shows, then the site ("Xiangqi · qipai", "My games · qipai"), so
 *  open tabs can be told apart; nothing for the bare site name. */
export function pageTitle(...words) {
  document.title = [...words.filter(Boolean), "qipai"].join(" · ");
}

export function gameName(g) { return g ? t(`gamename.${g.id}`, null, lang === "zh" ? g.name_zh : g.name_en) : ""; }

// ----- header ------------------------------------------------------------------------------
async function header() {
  document.documentElement.lang = lang;
  for (const n of document.querySelectorAll("[data-i18n]")) n.textContent = t(n.dataset.i18n);
  if (!header.keys) { header.keys = true; keyHelpOn(t); }      // "?": the keyboard's shortcuts
  const langBtn = document.getElementById("lang");
  menuButton();
  if (!document.getElementById("theme")) langBtn.before(...prefButtons(t));
  langBtn.textContent = lang === "zh" ? "EN" : "中文";
  langBtn.onclick = () => { localStorage.setItem("lang", lang === "zh" ? "en" : "zh"); location.reload(); };
  me = (await api("GET", "/api/me")).user;
  const who = document.getElementById("who");
  who.replaceChildren();
  if (me) {
    who.append(el("a", { id: "me", href: `/u/${encodeURIComponent(me.username)}` }, me.username, me.role === "organizer" ? icon("star", t("organizer")) : null), " ",
      el("a", { id: "my-bots", href: "/account/bots" }, t("bots.nav")), " ",
      el("a", { id: "my-settings", href: "/settings" }, t("settings.nav")), " ",
      el("button", { onclick: async () => { await api("POST", "/api/logout"); session.postMessage("signed-out"); location.href = "/"; } }, t("signout")));
    watchSession();
  } else {
    who.append(el("a", { href: "/login" }, t("signin")), " / ", el("a", { href: "/signup" }, t("signup")));
  }
}

// The header's menu button: on a narrow screen (theme.css, max-width 900px) the nav and the
// account links fold into a panel under the header, opened by this button and closed by it, by
// Escape (focus back on the button) or by a click elsewhere; on a wide screen the button is not
// shown and the header is one row as it always was. The current page's link is aria-current.
function menuButton() {
  const btn = document.getElementById("menu-btn"), header = btn.closest("header");
  for (const a of header.querySelectorAll("nav a")) {
    const here = a.getAttribute("href") === "/" ? location.pathname === "/" : location.pathname.startsWith(a.getAttribute("href"));
    if (here) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
  }
  btn.setAttribute("aria-label", t("menu"));
  btn.title = t("menu");
  if (btn.dataset.ready) return;
  btn.dataset.ready = "1";
  btn.replaceChildren(icon("menu"));
  btn.hidden = false;
  const open = (on) => { header.classList.toggle("menu-open", on); btn.setAttribute("aria-expanded", on ? "true" : "false"); };
  btn.onclick = () => open(btn.getAttribute("aria-expanded") !== "true");
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && header.classList.contains("menu-open")) { open(false); btn.focus(); }
  });
  document.addEventListener("click", (e) => { if (!header.contains(e.target)) open(false); });
}

// A tab stays signed in only while its session does: signing out in another tab (told at once
// over a BroadcastChannel) or elsewhere (checked when the tab comes back into view) turns the
// page into a notice with a way to sign in again, instead of a page whose buttons all fail.
const session = "BroadcastChannel" in window ? new BroadcastChannel("qipai-session") : { postMessage() {} };
function signedOut() {
  if (document.body.classList.contains("signed-out")) return;
  document.body.classList.add("signed-out");
  app.inert = true;
  const next = location.pathname + location.search;
  topBanner(el("div", { class: "signed-out-banner", id: "signed-out", role: "alert" }, t("signedout.text"), " ",
    el("a", { href: `/login?next=${encodeURIComponent(next)}` }, t("signedout.again"))));
  const who = document.getElementById("who");
  who.replaceChildren(el("a", { href: `/login?next=${encodeURIComponent(next)}` }, t("signin")));
}
function watchSession() {
  session.onmessage = (e) => { if (e.data === "signed-out") signedOut(); };
  const check = async () => {
    if (document.visibilityState !== "visible" || !me) return;
    const now = await api("GET", "/api/me").catch(() => null);
    if (now && (!now.user || now.user.id !== me.id)) signedOut();
  };
  document.addEventListener("visibilitychange", check);
  window.addEventListener("focus", check);
}

// ----- sign in / up ------------------------------------------------------------------------
// Where to go after signing in: `next` only when it is a path of this site (one leading "/",
// not "//" or "/" and a backslash, no scheme, and still this origin once the browser has
// parsed it, which drops tabs and newlines, reads a backslash as "/" and removes "." and ".."
// segments: "/.//elsewhere" parses to the path "//elsewhere", refused too); anything else goes
// to the lobby. The answer is the parsed absolute URL, never a relative one the browser could
// read again another way. So ?next=javascript:... never runs and ?next=http://elsewhere/
// never leaves.
export function safeNext(next) {
  if (typeof next !== "string" || !/^\/(?![\/\\])/.test(next)) return "/";
  try {
    const url = new URL(next, location.origin);
    return url.origin === location.origin && !url.pathname.startsWith("//") ? url.href : "/";
  } catch { return "/"; }
}

function authPage(kind) {
  const next = new URLSearchParams(location.search).get("next");
  if (kind === "signin" && me && next !== null) { location.replace(safeNext(next)); return; }   // already signed in
  const err = el("div", { class: "error" });
  const u = el("input", { name: "username", autocomplete: "username", required: true });
  const p = el("input", { name: "password", type: "password", autocomplete: kind === "signup" ? "new-password" : "current-password", required: true });
  if (kind === "signup") { p.minLength = 8; p.maxLength = 200; u.minLength = 2; u.maxLength = 32; }
  // each label above its field, the rules of a new account under them, a link to the other form
  const field = (label, input, hint) => el("label", { class: "field" }, el("span", {}, label), input,
    hint ? el("small", { class: "muted" }, hint) : null);
  const other = kind === "signup" ? "signin" : "signup";
  // a field the browser refuses says why in the page's language (the browser's own bubble speaks
  // the browser's): the rule under the field, or that it is empty
  const says = (input, hint) => {
    input.oninvalid = () => input.setCustomValidity(input.validity.valueMissing || !hint ? t("auth.required") : hint);
    input.oninput = () => input.setCustomValidity("");
  };
  says(u, kind === "signup" ? t("auth.usernamehint") : null);
  says(p, kind === "signup" ? t("auth.passwordhint") : null);
  const submit = el("button", { class: "primary", type: "submit" }, t(kind));
  const form = el("form", { class: "stack auth-form" },
    field(t("username"), u, kind === "signup" ? t("auth.usernamehint") : null),
    field(t("password"), p, kind === "signup" ? t("auth.passwordhint") : null),
    submit, err,
    el("p", { class: "muted", id: "auth-switch" }, t(`auth.to${other}`), " ",
      el("a", { href: `/${other === "signin" ? "login" : "signup"}${location.search}` }, t(other))));
  // the password hash takes the server a moment: the button says the form is on its way and
  // cannot send it twice
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    if (submit.disabled) return;
    submit.disabled = true;
    form.setAttribute("aria-busy", "true");
    submit.textContent = t("auth.sending");
    try {
      await api("POST", kind === "signup" ? "/api/signup" : "/api/login", { username: u.value, password: p.value });
      location.href = safeNext(next);
    } catch (e) {
      err.textContent = errorText(e);
      submit.disabled = false;
      form.removeAttribute("aria-busy");
      submit.textContent = t(kind);
    }
  };
  app.replaceChildren(el("h2", {}, t(kind)), form);
  // the first account of a fresh server becomes its organizer: said before it is made
  if (kind === "signup") {
    api("GET", "/api/signup").then((info) => {
      if (info && info.first_organizer && form.isConnected)
        form.before(el("p", { class: "notice", id: "first-organizer" }, t("auth.firstorganizer")));
    }).catch(() => {});
  }
}

// ----- live table --------------------------------------------------------------------------
export async function loadBoard(game) {
  try { return await import(`/static/boards/${game}.js`); } catch (e) { return await import("/static/boards/generic.js"); }
}

// what else the clock is: byo-yomi periods left, a Canadian block, the warnings and strikes
// given, trusteeship (competition.md §4.3) while the game goes on (`over`: no one plays a seat
// of a finished game, so no "played by the computer" under the result); the first-move note
// comes after them, parted by a dot or a line of its own (never "0:28 3 byo-yomi periods")
function clockNotes(c, over = false) {
  if (!c) return null;
  const notes = [];
  // the last byo-yomi period once the bank is spent is sudden death (OGS "SD", 最后一次读秒):
  // never "1 byo-yomi period", which reads as one more to come; with the bank left the periods
  // still to come are counted ("1 byo-yomi period" after the bank)
  const lastPeriod = c.periods === 1 && !c.bank;
  if (lastPeriod) notes.push(el("abbr", { class: "sudden-death", title: t("clk.lastPeriod.doc") }, t("clk.lastPeriod")));
  else if (c.periods !== undefined) notes.push(t("clk.periods", { n: c.periods }));
  if (c.canadian) notes.push(t("clk.canadian", { moves: c.canadian[0], time: fmtMs(c.canadian[1]) }));
  if (c.warnings) notes.push(t("clk.warnings", { n: c.warnings }));
  // the warnings that may still be given before the overrun that loses (competition.md WARN{max})
  if (c.warnings_left !== undefined && !over) notes.push(c.warnings_left ? t("clk.warningsLeft", { n: c.warnings_left }) : t("clk.lastWarning"));
  if (c.strikes) notes.push(t("clk.strikes", { n: c.strikes }));
  if (c.trustee && !over) notes.push(t("clk.trustee"));
  // each note whole on its line ("3 byo-yomi periods", "读秒 3 次"): a narrow seat wraps between them
  return notes.length ? el("span", { class: "clock-notes" }, notes.flatMap((n, i) => [i ? " · " : null, el("span", { class: "nw" }, n)])) : null;
}

// go's dead-stone phase is no turn: both sides mark at once, so never "Your turn" but what to do
// (mark, then submit), what the seat waits for once it submitted, and to a spectator what happens
export function markingText(msg) {
  if (msg.seat === null) return t("go.status.markingWatch");
  const mk = msg.view.marking || {};
  return t(mk.submitted && mk.submitted[msg.seat] ? "go.status.markingWait" : "go.status.marking");
}

// m:ss; with `tenths`, under 10 s the tenths too ("0:09.4"), as a running low clock shows them
function fmtMs(ms, tenths = false) {
  if (ms === null || ms === undefined) return "";
  ms = Math.max(0, ms);
  if (tenths && ms < 10000) return `0:0${(Math.floor(ms / 100) / 10).toFixed(1)}`;
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

async function tablePage(id) {
  let info = await api("GET", `/api/tables/${id}`).catch(() => null);
  if (info) pageTitle(t(`gamename.${info.game}`, null, info.game));
  // the seats, a named region (on a phone two to a row, theme.css)
  const seatsBox = el("div", { class: "seats", role: "region", "aria-label": t("seats") });
  const status = el("div", { class: "status", id: "status" });
  // a spectator of a hidden-information game sees it some seconds late (spectator_delay_ms): said at
  // once, so the first seconds' empty table is not taken for a broken page
  const watchNote = el("p", { class: "muted small", id: "watch-delay", role: "note", hidden: true });
  // one limit for the whole game (go's "60 minutes for the game, then counted"), in words
  const gameClock = el("p", { class: "game-clock", id: "game-clock", hidden: true });
  const boardRoot = el("div", { id: "board" });
  const side = el("div", { class: "side", id: "side" });     // the move list (board games)
  const controls = el("div", { class: "row", id: "controls" });
  const err = el("div", { class: "error", id: "error" });
  // this seat's refused moves so far and at how many the game is lost (from the state: a reload keeps it)
  const illegalNote = el("p", { class: "muted small", id: "illegal-count", role: "status", hidden: true });
  const fx = tableExtras({ t, lang, errorText, send: (obj) => send(obj), move: (a, extra) => ctx.send(a, extra), api, me, id, event: info && info.event, game: info && info.game, rerender: () => renderControls() });
  // a rule set that is not for competition says so above the table
  const marking = info && info.marking ? el("p", { class: "marking-note", id: "marking" }, markBadge(info.marking), " ",
    t(`marking.${info.marking}.doc`)) : null;
  // a private table: the lobby does not list it, so its link is the way in (the invite box);
  // drawn by renderPrivate (whole while seats are free, one line once the game is on)
  const unlisted = info && info.settings && info.settings.private ? el("div", { class: "muted small", id: "private-note", role: "note" }) : null;
  // what is played at a waiting table, as the lobby's list says it: "Xiangqi · 10 min + 3 × 30 s
  // byo-yomi · casual" (a private table is in no list: its page is the only place to read it)
  const kindLine = el("p", { class: "table-kind", id: "table-kind", hidden: true });
  let privateDrawn = null;      // whether the private note is drawn whole (renderPrivate)
  let inviteBox = null;         // the invite row, drawn once: what its copy button said stays
  app.replaceChildren(el("div", { class: "table-layout" },
    el("div", { class: "table-main" }, marking, unlisted, kindLine, seatsBox, gameClock, status, watchNote, fx.boardText, boardRoot, controls, fx.entry, fx.note, err, illegalNote),
    el("aside", { class: "table-side" }, side, fx.chat)));
  // the move list: beside the board, above the chat; on a narrow screen right under the board
  const narrow = matchMedia("(max-width: 820px)");
  const placeMoves = () => { if (narrow.matches) boardRoot.after(side); else app.querySelector(".table-side")?.prepend(side); };
  narrow.addEventListener("change", placeMoves);
  placeMoves();
  if (!info) { notFound(t("notfound.table")); return; }
  renderPrivate(); renderKind();      // at once, from the summary: before the socket's first word
  const mod = await loadBoard(info.game);
  let last = null, ws = null, board = null, nav = null, receivedAt = 0, socketSeat, closedForGood = false, backoff = 500;
  const send = (obj) => { if (ws && ws.readyState === 1) ws.send(JSON.stringify(obj)); };
  // "turn" (when the state gave one) keeps an answer valid while other seats answer the same
  // discard at once (their moves change seq, not this seat's pending decision)
  // a move (by the board or typed) brings the board back to the game when the move list was
  // looking at an earlier position
  // ask(obj) sends a message of another type (a card table asks for earlier positions)
  const ctx = { t, lang, send: (action, extra) => { if (nav) nav.toEnd(); send({ type: "move", seq: last ? last.seq : 0, action, seat: last ? last.seat : null, turn: last ? last.turn : undefined, ...extra }); },
    ask: (obj) => send(obj),
    // a go table's score estimate of the board as it stands (GET; the board shows it), the
    // table's event (a player of an event game is offered none) and the error's words
    estimate: () => api("GET", `/api/tables/${id}/estimate`), event: info && info.event, errorText };

  // whether each seat's player has the table open (the server's "presence"; null: a bot, an
  // empty seat): a dot after the name, green or hollow, with its words for a screen reader and
  // as a tooltip; none once the game is over
  let online = [];
  function presenceDot(i) {
    const on = online[i];
    if (on === null || on === undefined || (last && last.result)) return null;
    const names = last && last.names ? last.names : info.seats.map((s) => (s ? seatName(s.name) : ""));
    const words = t(on ? "presence.on" : "presence.off", { name: names[i] || "" });
    return el("span", { class: `presence-dot ${on ? "on" : "off"}`, "data-online": on ? "1" : "0", role: "img", "aria-label": words, title: words });
  }
  // a seat's rating and clock (what the strip shows after the name), and whether it is to act
  function seatParts(i) {
    const c = last && last.clocks ? last.clocks[i] : {};
    const acting = last && last.to_act && last.to_act.includes(i);
    let left = null;
    // a referee's pause: the countdown stands where the pause began
    const now = last && last.paused_at !== undefined ? last.paused_at : last && last.now + (performance.now() - receivedAt);
    let perMove = false;
    // before a seat's first move its main time stands (lobby games, as on lichess): the bank,
    // not ticking, and the time left for that first move beside it
    const first = c && c.first_move && acting && c.deadline !== undefined && !(last && last.result);
    if (first) left = c.bank !== undefined ? c.bank : null;
    else if (c && c.deadline !== undefined && acting) left = c.deadline - now;
    else if (c && c.bank !== undefined) left = c.bank;
    // a seat that waits, on a clock of a time a move: the time its next move may take; after
    // the end it stays, stopped (as lichess keeps the final clocks), at 0:00 for a seat that
    // lost on time
    else if (c && c.move_cap !== undefined) {
      const res = last && last.result;
      left = res && res.reason === "timeout" && !(res.winners || []).includes(i) ? 0 : c.move_cap;
      perMove = true;
    }
    const clock = left !== null ? el("span", { class: "clock" + (acting && !first && left < 10000 ? " low" : "") + (perMove || first ? " idle" : ""),
      title: perMove ? t("clk.perMove") : null }, fmtMs(left, acting && !first)) : null;
    const firstNote = first ? el("span", { class: "clock-notes first-move" + (c.deadline - now < 10000 ? " low" : "") },
      // junqi's first decision is its layout: "lay out within 2:58"
      t(last.view && last.view.phase === "layout" ? "clk.firstLayout" : "clk.firstMove", { time: fmtMs(c.deadline - now) })) : null;
    // the first-move countdown last: a line of its own on a phone (theme.css), after a dot beside
    // the clock's notes on a wide screen (style.css)
    return { acting, parts: [presenceDot(i), seatRating(info, i), clock,
      perMove ? el("span", { class: "clock-notes" }, t("clk.perMove")) : null, clockNotes(c, !!(last && last.result)), firstNote] };
  }
  // A card or tile table, and a board game that names its seats on the board (go, gomoku, junqi,
  // chinese checkers), shows each seat once, at every width: its board draws a box per seat
  // ([data-seatbox], with the name in .nm), which takes the seat's rating and clock after the
  // name, and the strip is hidden (xiangqi's board names no seat: the strip stays). A board that
  // draws itself anew loses them: they are put back at once (before the screen is painted).
  const seatBoxes = (n) => {
    if (!board || !n) return null;
    const boxes = Array.from({ length: n }, (_, i) => boardRoot.querySelector(`[data-seatbox="${i}"]`));
    return boxes.every(Boolean) ? boxes : null;
  };
  function seatsOnBoard(boxes) {
    boxes.forEach((box, i) => {
      let slot = box.querySelector(".seat-extra");
      if (!slot) {
        slot = el("span", { class: "seat-extra" });
        const nm = box.querySelector(".nm");
        if (nm) nm.after(slot); else (box.querySelector(".head, .mj-head") || box).append(slot);
      }
      const [dot, ...rest] = seatParts(i).parts;
      slot.replaceChildren(...rest.filter(Boolean));
      // a card or tile table's seat: the presence dot inside the name's box, after its text, so a
      // narrow seat that wraps its head never leaves the dot alone on a line (theme.css)
      const nm = box.querySelector(".ct .nm, .mj-head .nm");
      for (const old of box.querySelectorAll(".nm > .presence-dot")) old.remove();
      if (dot && nm) nm.append(dot); else if (dot) slot.prepend(dot);
    });
  }
  new MutationObserver(() => {
    const boxes = seatBoxes((last && last.names ? last.names : info.seats).length);
    if (boxes && boxes.some((x) => !x.querySelector(".seat-extra"))) renderSeats();
  }).observe(boardRoot, { childList: true, subtree: true });

  function renderGameClock() {
    const g = last && !last.result ? last.game_limit : null;
    gameClock.hidden = !g;
    if (!g) return;
    const now = last.paused_at !== undefined ? last.paused_at : last.now + (performance.now() - receivedAt);
    const left = g.deadline !== undefined ? g.deadline - now : g.limit;
    gameClock.classList.toggle("low", left < 60000);
    gameClock.textContent = t(`clk.gameLimit.${g.then}`, { time: fmtMs(left), limit: Math.round(g.limit / 60000) });
  }

  function renderSeats() {
    renderGameClock();
    const names = last && last.names ? last.names : info.seats.map((s) => (s ? seatName(s.name) : t("seat.open")));
    const boxes = seatBoxes(names.length);
    seatsBox.hidden = !!boxes;
    for (const x of boardRoot.querySelectorAll(".seat-extra")) if (!boxes) x.remove();
    if (boxes) { seatsBox.replaceChildren(); seatsOnBoard(boxes); return; }
    seatsBox.replaceChildren(...names.map((n, i) => {
      const { acting, parts } = seatParts(i);
      // the board's mark of the seat's side (xiangqi: a red or black disc), the name and the
      // presence dot kept together on one line: a long name is cut short ("…"), whole in its
      // tooltip, so the strip stays one line at 1280 px and a seat's name one line on a phone
      const [dot, ...rest] = parts;
      const who = el("span", { class: "seat-who" }, board && board.seatMark ? board.seatMark(i) : null,
        el("span", { class: "seat-nm", title: n }, n), dot);
      return el("span", { class: "seat" + (acting ? " to-act" : ""), "data-seat": i }, who, ...rest);
    }));
  }
  // the clocks count: twice a second, ten times while a running clock is under 10 s (its tenths)
  let seatsDrawn = 0;
  setInterval(() => {
    if (!last || last.status !== "playing") return;
    const low = !!app.querySelector(".clock.low");
    if (low || performance.now() - seatsDrawn >= 500) { seatsDrawn = performance.now(); renderSeats(); }
  }, 100);

  // a private table's note: while a seat is free, what private means, its code and a copy
  // button; once the seats are full (the game on, and after it) one line with the code, its
  // meaning in the tooltip: the board comes first on a phone
  function renderPrivate() {
    if (!unlisted) return;
    const whole = info.status === "open" && info.seats.some((s) => s === null);
    if (privateDrawn === whole) return;
    privateDrawn = whole;
    const code = info.settings.code;
    if (whole) unlisted.replaceChildren(el("p", {}, t("table.private")), code ? tableCode(code) : null);
    else {
      unlisted.replaceChildren(el("p", { id: "private-line", title: t("table.private") },
        code ? t("table.privateline", { code: `${code.slice(0, 4)}-${code.slice(4)}` }) : t("table.privateshort")));
    }
    unlisted.classList.toggle("one-line", !whole);
  }

  // the game, its clock and rated or casual, while the table waits for its players (an event's
  // game names its event instead: the event's page says the rest)
  function renderKind() {
    kindLine.hidden = !(info.status === "open" && !info.event);
    if (kindLine.hidden) return;
    const s = info.settings || {};
    const parts = [t(`gamename.${info.game}`, null, info.game), s.clock ? t(`clock.${s.clock}`, null, s.clock) : null,
      t(info.rated ? "lobby.ratedtag" : "lobby.casual")];
    kindLine.textContent = parts.filter(Boolean).join(" · ");
  }

  function renderControls() {
    renderPrivate();
    renderKind();
    controls.replaceChildren();
    if (closedForGood) return;
    if (info.status === "open" && info.event) {
      // an event game not started (competition.md §5.6, §4.3): what it waits for, no clock runs
      const h = info.hold;
      const waitText = !h ? t("hold.starting")
        : h.kind === "between" ? t("call.between", { s: Math.ceil(h.in_ms / 1000) })
          : t("hold.ready", { left: fmtMs(h.in_ms) });
      controls.append(el("div", { class: "ready-notice", id: "hold-notice", role: "status" }, waitText));
      controls.append(el("a", { href: `/events/${info.event}`, id: "event-link" }, t("events.back")));
      return;
    }
    if (info.status === "open") {
      const free = info.seats.some((s) => s === null);
      const mine = me && info.seats.some((s) => s && s.user === me.id);
      // a seat this viewer may take: free and not kept for another player of the last game (a
      // rematch), and no person under a clock made for bots alone (the server refuses both)
      const kept = (info.settings && info.settings.reserved) || {};
      const clock = info.settings && info.settings.clock;
      const mayTake = info.seats.some((s, i) => s === null && (kept[i] === undefined || (me && kept[i] === me.id)))
        && !(me && !me.bot && typeof clock === "string" && clock.startsWith("bot_"));
      if (me && !mine && mayTake) controls.append(el("button", { class: "primary", id: "sit", onclick: () => act(`/api/tables/${id}/sit`) }, t("sit")));
      // bots are seated by the table's owner or a seated player (the server refuses anyone
      // else): a viewer is not offered the buttons
      if (me && free && (mine || info.owner === me.id)) controls.append(el("button", { id: "addbot", onclick: () => act(`/api/tables/${id}/bot`) }, t("addbot")),
        el("button", { id: "fill", onclick: () => act(`/api/tables/${id}/fill`) }, t("fillbots")));
      if (mine) controls.append(el("button", { onclick: () => act(`/api/tables/${id}/leave`) }, t("leave")));
      if (free) controls.append(invite());
      return;
    }
    if (last && last.seat !== null && last.status === "playing" && !last.result) {
      const mine = last.clocks && last.clocks[last.seat];
      if (mine && mine.trustee && !mine.held) controls.append(el("button", { id: "takeback", class: "primary", onclick: () => send({ type: "resume" }) }, t("takeback")));
      // before both sides moved, a lobby game of two may be aborted: it counts for nobody
      if (last.abortable) {
        controls.append(el("button", { id: "abort", onclick: async () => {
          if (await ask({ text: t("abort.ask"), yes: t("abort"), no: t("cancel") })) send({ type: "abort" });
        } }, t("abort")));
      }
      // resigning asks first, in the page's language (ask.js), as a pass at go does
      controls.append(el("button", { id: "resign", onclick: async () => {
        if (await ask({ text: t("resign.ask"), yes: t("resign"), no: t("cancel") })) send({ type: "resign" });
      } }, t("resign")));
      // a house bot never answers a draw offer: none offered to it
      const botOpposite = (info.seats || []).some((s, i) => i !== last.seat && s && s.bot);
      if (info.num_seats === 2 && !botOpposite) {
        if (last.draw_offer !== undefined && last.draw_offer !== last.seat) {
          controls.append(el("span", {}, t("drawoffer")), el("button", { id: "draw-accept", onclick: () => send({ type: "draw_accept" }) }, t("accept")),
            el("button", { id: "draw-decline", onclick: () => send({ type: "draw_decline" }) }, t("decline")));
        } else if (!fx.offered()) controls.append(el("button", { id: "draw", onclick: () => send({ type: "draw_offer" }) }, t("offerdraw")));
      }
      // a takeback (casual two-seat board tables): asked for, or answered, like a draw offer
      if (last.takeback !== undefined && last.takeback !== last.seat) {
        controls.append(el("span", { id: "takeback-offer", role: "status" }, t("takeback.received")),
          el("button", { id: "takeback-accept", class: "primary", onclick: () => send({ type: "takeback_accept" }) }, t("accept")),
          el("button", { id: "takeback-decline", onclick: () => send({ type: "takeback_decline" }) }, t("decline")));
      } else if (last.takeback === last.seat) {
        controls.append(el("span", { id: "takeback-sent", class: "muted", role: "status" }, t("takeback.sent")));
      } else if (last.takeback_allowed) {
        controls.append(el("button", { id: "propose-takeback", onclick: () => send({ type: "takeback_offer" }) }, t("takeback.propose")));
      }
    }
    // a private table's record is shown by its id only with the table's link (?table=): its key
    const key = info.settings && info.settings.private ? `?table=${encodeURIComponent(id)}` : "";
    if (last && last.record) controls.append(el("a", { href: `/records/${last.record}${key}`, id: "record-link" }, t("replay")), ratingNote(last.record, key));
    // a table made rated whose game did not count: said, with why ("fewer than 2 moves each")
    if (last && last.result && last.unrated) controls.append(el("span", { id: "not-rated", class: "muted" }, unratedText(last.unrated, t)));
    if (info.event) controls.append(el("a", { href: `/events/${info.event}`, id: "event-link" }, t("events.back")));
    if (info.event && last && last.seat !== null) controls.append(disputeButton({ event: info.event, table: id, status: (text) => { err.textContent = text; } }));
    controls.append(...fx.controls(last, info));
  }

  // a private table's code (房间号, shown K7MX-3QPA): typed in the lobby's "Join by code" box it
  // finds the table as the link does; a button copies it (copyText)
  function tableCode(code) {
    const words = `${code.slice(0, 4)}-${code.slice(4)}`;
    const said = el("span", { role: "status", id: "code-said" });
    const shown = el("b", { id: "table-code", class: "table-code" }, words);
    const copy = el("button", { type: "button", class: "small", id: "code-copy", onclick: async () => {
      if (await copyText(words)) said.textContent = t("invite.codecopied");
      else { getSelection().selectAllChildren(shown); said.textContent = t("invite.selectcode"); }
    } }, t("invite.copycode"));
    return el("div", { id: "code-box" }, el("p", { class: "row" }, el("span", {}, t("table.code")), shown, copy, said),
      el("p", {}, t("table.codedoc")));
  }

  // an open table's link for a friend (at that address they can sit): selectable by hand, and
  // a button that copies it (copyText), else selects it for copying by hand. Made once and put
  // back at each drawing of the controls (the open table's page redraws them at every poll),
  // so that "Link copied" stays, even when a redraw comes between the click and the copy
  function invite() {
    if (inviteBox) return inviteBox;
    const url = `${location.origin}/tables/${id}`;
    const said = el("span", { class: "muted", role: "status", id: "invite-said" });
    const field = el("input", { readonly: true, value: url, name: "invite", "aria-label": t("invite.link"), onfocus: (e) => e.target.select() });
    const copy = el("button", { type: "button", id: "invite-copy", onclick: async () => {
      if (await copyText(url)) said.textContent = t("invite.copied");
      else { field.focus(); field.select(); said.textContent = t("invite.select"); }
    } }, t("invite.copy"));
    inviteBox = el("div", { class: "row invite", id: "invite" }, el("span", {}, t("invite.label")), field, copy, said);
    return inviteBox;
  }

  async function act(path) {
    try { info = await api("POST", path, {}); err.textContent = ""; renderSeats(); renderControls(); seatCheck(); }
    catch (e) { err.textContent = errorText(e); }
  }

  let nonceSent = null;
  let watchDelay = 0;            // s a spectator sees the play late (hello's delay_ms; hidden cards)
  function onMessage(msg) {
    if (Array.isArray(msg.names)) msg.names = msg.names.map(seatName);   // bots' seats in words
    if (fx.onMessage(msg, last)) return;
    if (msg.type === "hello" && msg.seat === null && msg.delay_ms > 0) {
      watchDelay = Math.round(msg.delay_ms / 1000);
      watchNote.textContent = t("watch.delay", { seconds: watchDelay });
      watchNote.hidden = false;
    }
    if (msg.type === "presence") { online = msg.online; renderSeats(); return; }
    if (msg.type === "hello" || msg.type === "table") {
      info = msg.table;
      if (msg.type === "hello") socketSeat = msg.seat;
      seatCheck();
      if (!last || info.status === "void" || info.status === "forfeited" || info.status === "walkover") {
        renderSeats(); renderControls();
        // playing with no state yet: the deal waits for the seats' nonces (§6.1, a few seconds);
        // a spectator of hidden cards sees the game its delay late: it has begun, not "starting"
        status.textContent = !last && info.status === "playing" && watchDelay
          ? t("watch.started", { seconds: watchDelay })
          : t(!last && info.status === "playing" ? "playing.starting"
            : info.status === "open" && info.event ? "hold.notstarted" : info.status);
        if (!last && info.status === "aborted") sayAborted(info.settings && info.settings.aborted);
      }
      return;
    }
    if (msg.type === "commitment") {   // §6.1: this seat's nonce, 16 fresh random bytes, once
      if (nonceSent === msg.commitment) return;
      nonceSent = msg.commitment;
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      send({ type: "nonce", nonce: Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("") });
      return;
    }
    if (msg.type === "error") {
      // one message: the refusal says the count (refusedText), the standing count note waits
      // until it is gone (the next state clears a refusal on the page, a move made one under the box)
      if (msg.illegal) { illegalNote.textContent = t("illegal.count", msg.illegal); illegalNote.hidden = true; }
      const refused = refusedText(msg);
      if (!fx.typedRefusal(refused)) err.textContent = refused;   // a typed move's: under its box
      if (board && board.refused) board.refused(); return; }
    if (msg.type === "position") { if (nav) nav.position(msg); else if (board && board.position) board.position(msg); return; }
    if (msg.type === "event") {
      if (msg.event.type === "trusteeship") send({ type: "sync" });
      if (msg.event.type === "aborted") {   // the game ends without a result: say why, drop its controls
        info.status = "aborted";
        info.settings = { ...(info.settings || {}), aborted: msg.event };
        if (last) {                           // nobody is to act any more: the board takes no move
          last = { ...last, status: "aborted", to_act: [], result: null, aborted: msg.event };
          if (board && (!nav || nav.state(last))) board.update(last);
        }
        renderSeats(); renderControls();
        sayAborted(msg.event);
      }
      return;
    }
    if (msg.type !== "state") return;
    err.textContent = "";
    last = msg; receivedAt = performance.now();
    info.status = msg.status;
    if (!board) board = mod.mount(boardRoot, ctx);
    illegalNote.hidden = !(msg.illegal && !msg.result) || fx.refusalShown();
    illegalNote.textContent = msg.illegal ? t("illegal.count", msg.illegal) : "";
    if (msg.moves && !nav) {
      nav = liveNav({ host: side, game: info.game, seats: (msg.names || []).length, t, lang, send, show: (m) => board.update(m) });
      app.classList.add("with-moves");
    }
    if (!nav || nav.state(msg)) board.update(msg);
    renderSeats(); renderControls();
    const mine = msg.seat !== null && msg.to_act.includes(msg.seat);
    status.dataset.seq = msg.seq;
    // the result in words; the record's own text ("0-1", "forfeit by 2") is never shown to a person
    if (msg.status === "aborted") { sayAborted(msg.aborted); return; }
    if (msg.result) status.textContent = `${t("result")}${t("colon")}` + resultText(msg.result, { game: info.game, seat: msg.seat, names: (msg.names || []).map(seatName), view: msg.view, t, lang });
    else if (msg.paused_at !== undefined) status.textContent = t("ref.tablepaused");
    else if (msg.view && msg.view.phase === "marking") status.textContent = markingText(msg);
    else if (entrusted(msg)) status.textContent = t("yourturn.entrusted");   // not "your turn": the computer plays the seat
    else status.textContent = msg.seat === null ? t("spectator") : (mine ? t("yourturn") : t("waiting"));
    status.className = "status" + (msg.result ? " over" : "");
  }

  // an aborted game (nobody made the first move, the table idle, a move the server could not
  // save) in the same words on every page, live or opened later: no result, who did not move
  function sayAborted(why) {
    status.textContent = abortedText(why || (info.settings && info.settings.aborted), (last && last.names) || (info.seats || []).map((s) => (s && s.name) || ""), t,
      !!(last && last.view && last.view.phase === "layout"));
    status.className = "status over";
  }

  // Only the page's current socket is heard. One it replaced (reconnect) may still deliver what
  // was queued, and its close comes later: heard, its close opened a second socket, the server
  // then closed the older of the two as replaced (4409), and the page took that for good —
  // no resign button and no record link for the rest of the game.
  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const sock = ws = new WebSocket(`${proto}://${location.host}/ws/tables/${id}`);
    sock.onopen = () => { if (sock === ws) { backoff = 500; send({ type: "presence" }); } };   // who is at the table, and each change
    sock.onmessage = (e) => { if (sock === ws) onMessage(JSON.parse(e.data)); };
    sock.onclose = (e) => {
      if (sock !== ws) return;
      // 4401 signed out, 4403 refused, 4404 no table, 4409 replaced by a newer connection,
      // 4410 table closed: reconnecting would not help (4429, too fast or too slow, does)
      if (e.code === 4401 && me && e.reason === "signed_out") signedOut();
      if (e.code === 4410 && info.status === "aborted") return;   // said already (sayAborted); a rematch stays offered
      if (e.code >= 4400 && e.code !== 4429) {
        // closed for good: said as a sentence, and nothing left to press (resign, offer a draw)
        closedForGood = true;
        status.textContent = sentence(t(`close.${e.reason}`, null, e.reason || String(e.code)));
        renderControls();
        return;
      }
      status.textContent = t("reconnecting"); setTimeout(connect, backoff); backoff = Math.min(backoff * 2, 8000);
    };
  }
  hereTable = { id, over: () => info.status === "finished" || !!(last && (last.result || last.record)) };
  connect();
  renderSeats(); renderControls();
  // A socket is a seat's or a spectator's from its opening (its hello says which): one opened
  // before this person sat down (or left) is opened again, to be sent what the seat is sent
  // (the nonce's commitment, the seat's view). The page's seat is read from the table alone
  // — not from the start seen by polling, which may come before the socket tells it (the
  // socket's messages wait for their writes): reopening then, the page had two sockets.
  function seatCheck() {
    // the socket's hello to come, or the page closed for good (another tab has the seat)
    if (socketSeat === undefined || closedForGood || !me || !info.seats) return;
    const i = info.seats.findIndex((s) => s && s.user === me.id);
    if ((i < 0 ? null : i) !== socketSeat) reconnect();
  }
  // the socket of the page in place of the one it has (whose close is then not heard)
  function reconnect() {
    const old = ws;
    socketSeat = undefined;
    connect();
    if (old) old.close();
  }
  // while the table is open, follow it (someone may sit down); a reply that comes after the
  // start was known (from the socket, or from another reply) is old news
  const follow = setInterval(async () => {
    if (info.status !== "open") { clearInterval(follow); return; }
    const fresh = await api("GET", `/api/tables/${id}`).catch(() => null);
    if (!fresh || info.status !== "open") return;
    info = fresh;
    if (!last || info.event) { renderSeats(); renderControls(); }
    seatCheck();
  }, every(1500));
}

// ----- replay -------------------------------------------------------------------------
// a person's rating for the table's game and time class, after their name ("1523?" provisional)
const seatRatings = new Map();
function seatRating(info, i) {
  const s = info.seats[i], board = info.rating_board;
  if (!s || s.user === undefined || s.bot_account || !board) return null;
  const span = el("span", { class: "seat-rating muted", "data-rating-of": s.name, "data-game": board.game, "data-time-class": board.time_class });
  if (!seatRatings.has(s.name)) readRating(s.name);
  seatRatings.get(s.name).then((r) => fillRating(span, r));
  return span;
}

function readRating(name) {
  const got = api("GET", `/api/users/${encodeURIComponent(name)}/ratings`).catch(() => null);
  seatRatings.set(name, got);
  return got;
}

function fillRating(span, r) {
  const mine = r && r.ratings.find((x) => x.game === span.dataset.game && x.time_class === span.dataset.timeClass);
  // the number alone, muted, as game sites show it after a name (brackets took a narrow seat
  // box's room: the Chinese full-width ones most), and what it is on hover
  const m = ratingMark(mine, r ? r.provisional_games : 0);
  span.replaceChildren(m.shown, m.said || "");
  span.title = m.why || t("rating.rating");
}

/** A rating as game sites show it: "1523", or "1523?" while provisional — fewer rated games
 *  than `n` (the server's /api/users/<name>/ratings `provisional_games`) or a deviation still
 *  high (ratings.py); `r` null: no rated game yet (the starting 1500, provisional). Returns
 *  `shown`, the number (hidden from a screen reader when provisional), `said` (null, or the
 *  screen reader's words: the number and why it is provisional) and `why` (null, or that
 *  reason for a title: "Provisional rating: fewer than 5 rated games (2 so far)"). */
export function ratingMark(r, n) {
  if (r && !r.provisional) return { shown: el("span", { class: "rating-shown" }, String(r.rating)), said: null, why: null };
  const rating = r ? r.rating : 1500;
  const why = !r || r.games < n ? t("rating.provgames", { n, games: r ? r.games : 0 }) : t("rating.provuncertain", { deviation: r.deviation });
  return { shown: el("span", { class: "rating-shown", "aria-hidden": "true" }, `${rating}?`),
    said: el("span", { class: "sr-only" }, `${rating}${t("colon")}${why}`), why };
}

// the rating change of each rated player of a finished game ("ann 1500 → 1523 (+23)"), from its record
const ratingNotes = new Map();
function ratingNote(record, key = "") {
  const span = el("span", { id: "rating-change", class: "muted" });
  if (!ratingNotes.has(record)) ratingNotes.set(record, api("GET", `/api/records/${record}${key}`).catch(() => null));
  ratingNotes.get(record).then((rec) => {
    // the seats' ratings read again: their badges show the new rating, as this line does
    for (const r of (rec && rec.ratings) || []) {
      const name = rec.names[rec.players.indexOf(r.user)];
      readRating(name).then((got) => document.querySelectorAll(`[data-rating-of="${CSS.escape(name)}"]`).forEach((sp) => fillRating(sp, got)));
    }
    const lines = ((rec && rec.ratings) || []).map((r) => {
      const d = r.after - r.before;
      return `${rec.names[rec.players.indexOf(r.user)]}${t("colon")}${t("rating.change", { before: r.before, after: r.after })}${paren(`${d >= 0 ? "+" : "−"}${Math.abs(d)}`)}`;
    });
    span.textContent = lines.join(" · ");
  });
  return span;
}

/** `base` (a view) with `patch` applied, [[path, value]] sets and [[path]] deletes (replays.py
 *  view_patch); only the objects along a path are copied, the rest shared with `base`. */
function patched(base, patch) {
  let out = base;
  for (const [path, ...value] of patch) {
    if (!path.length) { out = value[0]; continue; }
    const copy = (x) => (Array.isArray(x) ? x.slice() : { ...x });
    out = copy(out);
    let node = out;
    for (const k of path.slice(0, -1)) node = node[k] = copy(node[k]);
    const k = path[path.length - 1];
    if (!value.length) delete node[k]; else node[k] = value[0];
  }
  return out;
}

// `id` a stored record's id, or null for an event game's replay read from `stepsUrl`; a private
// table's record is read with its table's id, the page's `?table=` (privacy.py)
/** A game's day in the reader's language and time zone, "12月6日" / "Dec 6" (with the year when
 * it is not this year's), or "" without a date. */
export function dayOf(iso) {
  const d = new Date(iso || "");
  if (!iso || isNaN(d)) return "";
  const opts = { month: "short", day: "numeric", ...(d.getFullYear() !== new Date().getFullYear() ? { year: "numeric" } : {}) };
  return d.toLocaleDateString(lang === "zh" ? "zh-CN" : "en-US", opts);
}

export async function recordPage(id, stepsUrl = null) {
  const table = new URLSearchParams(location.search).get("table");
  const key = table ? `table=${encodeURIComponent(table)}` : "";
  stepsUrl = stepsUrl || `/api/records/${id}/steps${key ? `?${key}` : ""}`;
  // a long game's steps take a moment to come: say so rather than show a blank page
  app.replaceChildren(el("p", { class: "muted", id: "replay-loading", role: "status" }, t("loading")));
  const data = await api("GET", stepsUrl);
  // each seat's view comes as its patch on the spectator view (replays.py view_patch)
  for (const s of data.steps) s.views = (s.seen || []).map((p) => patched(s.public, p));
  data.record.names = data.record.names.map(seatName);
  const games = await api("GET", "/api/games");
  const rec = data.record;
  const g = games.find((x) => x.id === rec.game);
  pageTitle(t("replay"), g ? gameName(g) : rec.game);
  const mod = await loadBoard(rec.game);
  const boardRoot = el("div", { id: "board" });
  const side = el("div", { class: "side", id: "side" });
  const info = el("div", { id: "replay-status", hidden: true });     // the ply shown (tests read it)
  // a player of the game reads its replay from their own seat: "You", Left, Right as at the table
  const mine = me && Array.isArray(rec.players) ? rec.players.indexOf(me.id) : -1;
  const board = mod.mount(boardRoot, { t, lang, send: () => {}, replay: true, me: mine >= 0 ? mine : null });
  const last = data.steps.length - 1;
  // the result told to that player too ("你输了 — 地主胜", the seats 上家 / 下家) where the board
  // names the seats from the reader's (a card or tile table); a mahjong replay names the others
  // by their winds (东家 …), as its board does
  const reader = mine >= 0 && TABLE_GAMES.has(rec.game) ? mine : null;
  const outcome = rec.result ? resultText(rec.result, { game: rec.game, seat: reader, names: rec.names || [], view: data.steps[last].public, t, lang, winds: true }) : "";
  const show = (i) => {
    const s = data.steps[i];
    info.dataset.ply = i;
    // the last step with the game's result: a resigned or timed-out game's view does not hold it,
    // and a board would say whose move it is
    board.update({ replay: true, seat: null, view: s.public, views: s.views, to_act: [], seq: i,
      result: i === last ? rec.result : null, names: rec.names });
  };
  app.classList.add("with-moves");
  // (no null among them: replaceChildren would write it as the text "null" — an event game's
  // replay has no downloads)
  app.replaceChildren(...[
    // "象棋 · alice 对 bob · 12月6日": the game, its players and its day (the reader's local
    // date); the record's site-wide number only in the address and the downloads
    el("h2", { class: "replay-title" }, g ? gameName(g) : rec.game, " · ",
      el("span", { class: "replay-players" }, seatNames(rec.names).join(` ${t("vs")} `)),
      ...(dayOf(rec.finished) ? [" · ", el("time", { class: "replay-date", datetime: rec.finished }, dayOf(rec.finished))] : [])),
    outcome ? el("div", { class: "status over", id: "replay-result" }, `${t("result")}${t("colon")}${outcome}`) : null,
    rec.unrated ? el("p", { class: "muted", id: "replay-not-rated" }, unratedText(rec.unrated, t)) : null,
    el("div", { class: "play-area" }, boardRoot, side), info,
    id ? el("div", { class: "row" }, t("download") + t("colon"), el("a", { href: `/api/records/${id}/download?format=json${key ? `&${key}` : ""}` }, "JSON"),
      g && g.export ? el("a", { href: `/api/records/${id}/download?format=native${key ? `&${key}` : ""}` }, g.export.toUpperCase()) : null) : null].filter(Boolean));
  show(last);
  const rounds = board.rounds ? board.rounds(data.steps[last].public) : null;
  // a mahjong table: the hand's turns in words, tiles drawn (boards/mjhistory.js)
  if (board.replayList && board.replayList(side, data.steps, show)) return;
  if (rounds && rounds.length) {
    // a card game: its rounds (tricks) as cards by seat, each play a step; a click on a play
    // shows the table right after it
    const { replayHistory, playCount } = await import("/static/boards/cardhistory.js");
    const { cardsEl, el: node } = await import("/static/boards/cardtable.js");
    const who = (s) => (board.seatName ? board.seatName(s) : rec.names[s] ?? "");
    replayHistory(side, { t, lang, title: t(board.historyTitle || "ct.rounds"), cardsEl, el: node, steps: data.steps, rounds, who, show, bidText: board.bidText,
      count: (s) => playCount(board.rounds(s.public)) });
  } else {
    // each seat as the board names it (You, a name, or Left / Right for bots of one name)
    const names = board.seatName ? rec.names.map((_, s) => board.seatName(s)) : rec.names;
    const entry = board.moveEntry ? (e) => board.moveEntry(e, names) : null;
    replayNav({ host: side, game: rec.game, steps: data.steps, names: rec.names, seats: rec.names.length, t, lang, show, entry });
  }
}

// ----- router --------------------------------------------------------------------------------
// the table the page shows (eventcall.js: a call to another table of mine takes me from a
// finished one, never from a game in play)
let hereTable = null;
async function route() {
  await header();
  const at = location.pathname.match(/^\/tables\/([\w-]+)$/);
  if (at) hereTable = { id: at[1], over: () => false };     // until the table page says more
  if (me) import("/static/eventcall.js").then((m) => m.watchEventGames(me, () => hereTable));
  const p = location.pathname;
  let m;
  // the tab's title from the address; a page that knows more (a table's game, an event's name,
  // a player) says it once it has read it
  const titled = [["/", "lobby"], ["/login", "signin"], ["/signup", "signup"], ["/history", "history"], ["/settings", "settings.title"],
    ["/account/bots", "bots.title"], ["/leaderboard", "board.nav"], ["/events", "events"]].find(([at]) => at === p);
  if (titled) pageTitle(t(titled[1]));
  else if ((m = p.match(/^\/u\/([^/]+)$/))) pageTitle(decodeURIComponent(m[1]));
  else if (/^\/events\/[^/]+\/referee$/.test(p)) pageTitle(t("ref.title"));
  else if (p.startsWith("/events/")) pageTitle(t("events"));
  else if (p.startsWith("/records/")) pageTitle(t("replay"));
  if (p === "/") return (await import("/static/lobby.js")).lobbyPage(app, { me });
  if (p === "/login") return authPage("signin");
  if (p === "/signup") return authPage("signup");
  if (p === "/history") return (await import("/static/history.js")).historyPage(app, { me });
  if ((m = p.match(/^\/u\/([^/]+)$/))) return (await import("/static/profile.js")).profilePage(app, { me, name: decodeURIComponent(m[1]) });
  if (p === "/settings") return (await import("/static/settings.js")).settingsPage(app, { me });
  if (p === "/account/bots") return (await import("/static/botaccount.js")).botsPage(app, { me });
  if (p === "/leaderboard") return (await import("/static/leaderboard.js")).leaderboardPage(app, { me });
  if ((m = p.match(/^\/tables\/([\w-]+)$/))) return tablePage(m[1]);
  if ((m = p.match(/^\/records\/(\d+)$/))) return recordPage(m[1]);
  if ((m = p.match(/^\/events\/([^/]+)\/games\/(\d+)$/))) return recordPage(null, `/api/events/${m[1]}/games/${m[2]}/steps`);
  if ((m = p.match(/^\/events\/([^/]+)\/referee$/))) return (await import("/static/referee.js")).consolePage(app, { me, id: decodeURIComponent(m[1]) });
  if ((m = p.match(/^\/meets\/([^/]+)$/))) return (await import("/static/units.js")).meetPage(app, { me, meet: decodeURIComponent(m[1]) });
  if (p === "/events" || p.startsWith("/events/")) {
    const ev = await import("/static/events.js");
    return ev.page(app, { me, id: p.split("/")[2] });
  }
  notFound(t("notfound.page"));
}

// a page or table that is not there (never a bare "404"): what happened, and the way on, alone
// on the page (no "Loading…" or panels left beside it); `words` the text (a catalogue key's, or a
// refusal's errorText), `back` the way on ([href, key], the lobby unless told)
export function notFound(words, back = ["/", "notfound.lobby"]) {
  app.replaceChildren(el("div", { class: "card-box", id: "not-found", role: "alert" }, el("h2", {}, words),
    el("p", {}, el("a", { href: back[0], class: "button primary", id: "not-found-back" }, t(back[1])))));
}

/** A refusal in words; a refused move that counts toward the game's illegal-move limit says
 *  how many so far and at how many the game is lost (rules/xiangqi.md §4.4). */
function refusedText(msg) {
  const words = errorText(msg);
  if (!msg.illegal) return words;
  return words + (lang === "zh" ? "。" : ". ") + t("illegal.count", msg.illegal);
}

// a page that could not be shown (an unknown record, a refused read): the refusal in words and the
// way back, in place of whatever the page had begun to show ("Loading…")
route().catch((e) => { notFound(errorText(e)); });
