// Chat: a table's (over its WebSocket) and an event's with its referees (over HTTP). Lines are
// plain text: every line is put in the page with textContent, never as markup. The server
// decides who may write and read (competition.md §5.8, docs/server.md "Chat"); this module
// shows what it is given and says why writing is off.

import { icon } from "./icons.js";
import { ask } from "./ask.js";
import { chatShown, onPrefs, setChatShown } from "./prefs.js";
import { localTime } from "./i18n.js";

// the people this browser's reader muted (account ids), kept in the browser: their lines are not
// shown in any chat until unmuted (the server knows nothing of it; a report is what reaches it)
const MUTED_KEY = "chatMuted";
function mutedSet() {
  try { return new Set(JSON.parse(localStorage.getItem(MUTED_KEY) || "[]").map(String)); } catch { return new Set(); }
}
function saveMuted(set) { localStorage.setItem(MUTED_KEY, JSON.stringify([...set])); }

function node(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function timeOf(iso) {
  const d = new Date(iso);
  const locale = document.documentElement.lang === "zh" ? "zh-CN" : "en-GB";
  return isNaN(d) ? "" : d.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" });
}

/** The chat box: a list of lines, a text field and a send button. `opts`: {t, errorText,
 *  send(text) -> sends it, title, id, quick, me, report, moderate}; `quick`: phrases (in the page's
 *  language) sent by one click each (快捷语: a greeting, good luck, a good move, good game), off
 *  with the chat. With `me` (the signed-in reader) each line of another person has two small
 *  buttons: report it (`report(line, reason)`, after asking the reason in the page) and mute its
 *  writer (in this browser: their lines are hidden, a button above the lines unmutes). With
 *  `moderate` (a function answering the moderator's `mute(line, minutes, reason)` when the
 *  reader may mute others' chat here, else null: asked again at each drawing) a third button
 *  mutes the writer's chat for everyone, for the minutes chosen in the heading's list.
 *  The heading's switch (`.chat-switch`, the "chat" setting of prefs.js, also on /settings)
 *  hides everything but the heading, in every chat box of the browser (as lichess's).
 *  Returns {root, reset(chat), add(line), refused(msg), setOpen(open, reason), redraw()}. */
export function chatBox(opts) {
  const { t } = opts;
  const root = node("section", "chat card-box");
  root.id = opts.id || "chat";
  root.setAttribute("aria-label", opts.title || t("chat.title"));
  const head = node("h3", "chat-head");
  head.append(icon("chat"), " ", opts.title || t("chat.title"));
  // the reader's switch: chat shown or hidden (every chat box of this browser)
  const toggle = node("button", "chat-switch small");
  toggle.type = "button";
  const offNote = node("p", "chat-off muted", t("chat.off"));
  // a moderator's mute length, in minutes
  const minutes = node("select", "chat-timeout-minutes");
  minutes.setAttribute("aria-label", t("chat.timeout.minutes"));
  for (const m of [15, 60, 1440, 10080]) minutes.append(new Option(t("ref.muteFor", { n: m }), String(m)));
  minutes.hidden = true;
  head.append(minutes, toggle);
  const list = node("ol", "chat-lines");
  list.setAttribute("aria-live", "polite");
  list.setAttribute("aria-label", t("chat.lines"));
  list.tabIndex = 0;
  const form = node("form", "chat-form");
  const input = document.createElement("input");
  input.type = "text";
  input.name = "chat";
  input.maxLength = 300;
  input.autocomplete = "off";
  input.setAttribute("aria-label", t("chat.placeholder"));
  input.placeholder = t("chat.placeholder");
  const sendBtn = node("button", "chat-send");
  sendBtn.type = "submit";
  sendBtn.setAttribute("aria-label", t("chat.send"));
  sendBtn.title = t("chat.send");
  sendBtn.append(icon("send"));
  const note = node("div", "chat-note muted");
  note.setAttribute("role", "status");
  form.append(input, sendBtn);
  const quick = node("div", "chat-quick row");
  quick.setAttribute("role", "group");
  quick.setAttribute("aria-label", t("chat.quick"));
  for (const text of opts.quick || []) {
    const b = node("button", "small", text);
    b.type = "button";
    b.dataset.quick = text;
    b.onclick = async () => { if (open) { note.textContent = ""; await opts.send(text); } };
    quick.append(b);
  }
  const mutedBar = node("div", "chat-muted row");
  mutedBar.hidden = true;
  const body = node("div", "chat-body");
  body.id = `${root.id}-body`;
  toggle.setAttribute("aria-controls", body.id);
  body.append(mutedBar, list, form, ...(opts.quick ? [quick] : []), note);
  root.append(head, offNote, body);
  const showPref = () => {
    const on = chatShown();
    body.hidden = !on;
    offNote.hidden = on;
    root.dataset.chat = on ? "on" : "off";
    toggle.textContent = t(on ? "chat.hide" : "chat.show");
    toggle.setAttribute("aria-expanded", on ? "true" : "false");
  };
  toggle.onclick = () => setChatShown(!chatShown());
  onPrefs(showPref);
  showPref();
  let open = true;
  let lines = [];                 // every line given, muted or not (a mute can be undone)
  const me = opts.me || null;
  const isMuted = (line) => line.user != null && mutedSet().has(String(line.user));

  const lineNode = (line) => {
    const li = node("li", `chat-line role-${line.role}` + (line.audience !== "all" ? ` aud-${line.audience}` : ""));
    const who = node("b", "chat-who", line.name);
    if (line.role === "referee") who.append(" ", node("span", "chat-tag", t("chat.referee")));
    else if (line.role === "spectator") who.append(" ", node("span", "chat-tag", t("chat.spectator")));
    const tm = node("time", "chat-time muted", timeOf(line.at));
    if (line.at) tm.dateTime = line.at;
    // a quick phrase (line.phrase, the server's mark) in the reader's language, whoever sent it
    const said = line.phrase ? t(`chat.quick.${line.phrase}`, null, line.text) : line.text;
    li.append(tm, " ", who, node("span", "chat-sep", t("colon")), node("span", "chat-text", said));
    if (line.audience === "referees") li.append(" ", node("span", "chat-tag", t("chat.toReferees")));
    // its report and mute buttons float at the right of its first line: put before the text, as
    // a float after it drops below a line that has no room left, looking like the next message's
    if (me && line.user != null && line.user !== me.id) li.prepend(lineActions(line));
    return li;
  };
  // a small button of a line: its words (`key` with the writer's name) as label and tooltip
  function actButton(cls, key, line, iconName, onclick) {
    const b = node("button", `${cls} icon-button`);
    b.type = "button";
    b.title = t(key, { name: line.name });
    b.setAttribute("aria-label", b.title);
    b.append(icon(iconName));
    b.onclick = onclick;
    return b;
  }
  const failed = (e) => { note.textContent = opts.errorText ? opts.errorText(e) : e.message; };
  function lineActions(line) {
    const span = node("span", "chat-acts");
    const report = actButton("chat-report", "chat.report", line, "flag", async () => {
      const reason = await ask({ text: t("chat.report.ask", { name: line.name, text: line.text }), yes: t("chat.report.send"),
        no: t("cancel"), field: { max: 300, placeholder: t("chat.report.hint") } });
      if (reason === null) return;
      try { await opts.report(line, reason); note.textContent = t("chat.report.sent"); report.disabled = true; }
      catch (e) { failed(e); }
    });
    const mute = actButton("chat-mute", "chat.mute", line, "block", () => {
      const m = mutedSet(); m.add(String(line.user)); saveMuted(m); redraw(); mutedBar.querySelector("button")?.focus();
    });
    span.append(report, mute);
    // a moderator's: the writer's chat muted for everyone, for the minutes of the heading's list
    const moderate = opts.moderate ? opts.moderate() : null;
    if (moderate) span.append(actButton("chat-timeout", "chat.timeout", line, "soundOff", async () => {
      const n = Number(minutes.value);
      const reason = await ask({ text: t("chat.timeout.ask", { name: line.name }) + " " + t("ref.muteFor", { n }),
        yes: t("chat.timeout.send"), no: t("cancel"), field: { max: 500, required: true } });
      if (reason === null) return;
      try { const got = await moderate(line, n, reason); note.textContent = t("chat.timeout.done", { name: line.name, until: localTime(got.until) }); }
      catch (e) { failed(e); }
    }));
    return span;
  }
  // the muted writers of the lines given, each with a button that unmutes them
  function drawMuted() {
    const m = mutedSet();
    const names = new Map();
    for (const l of lines) if (l.user != null && m.has(String(l.user))) names.set(String(l.user), l.name);
    mutedBar.replaceChildren(...[...names].map(([uid, name]) => {
      const b = node("button", "small chat-unmute", t("chat.unmute", { name }));
      b.type = "button";
      b.dataset.unmute = uid;
      b.onclick = () => { const s = mutedSet(); s.delete(uid); saveMuted(s); redraw(); input.focus(); };
      return b;
    }));
    mutedBar.hidden = names.size === 0;
  }
  function redraw() {
    minutes.hidden = !(opts.moderate && opts.moderate());
    list.replaceChildren(...lines.filter((l) => !isMuted(l)).map(lineNode));
    if (!list.children.length) list.append(node("li", "chat-empty muted", t("chat.none")));
    drawMuted();
    scroll();
  }
  const scroll = () => { list.scrollTop = list.scrollHeight; };

  let reopen = 0;                 // the timer that opens the box again when a mute ends
  // `mute`: the reason "muted"'s {until, mute_reason} (a mute in force: the box says until
  // when, and why, and opens again by itself at its end)
  function setOpen(isOpen, reason, max, mute) {
    open = isOpen;
    input.disabled = sendBtn.disabled = !isOpen;
    input.placeholder = t(isOpen ? "chat.placeholder" : "chat.placeholderClosed");
    for (const b of quick.children) b.disabled = !isOpen;
    if (max) input.maxLength = max;
    clearTimeout(reopen);
    root.dataset.closed = isOpen ? "" : reason || "other";
    if (!isOpen && reason === "muted" && mute && mute.until) {
      const why = mute.mute_reason ? "chat.closed.mutedWhy" : "chat.closed.muted";
      note.textContent = t(why, { until: localTime(mute.until), reason: mute.mute_reason });
      const left = new Date(mute.until) - Date.now();
      if (left > 0 && left < 2 ** 31) reopen = setTimeout(() => setOpen(true), left + 1000);
      return;
    }
    note.textContent = isOpen ? "" : t(`chat.closed.${reason || "other"}`);
  }
  function reset(chat) {
    lines = [...(chat.lines || [])];
    redraw();
    setOpen(chat.open, chat.reason, chat.max, chat);
  }
  function add(line) {
    lines.push(line);
    if (lines.length > 200) lines.shift();
    if (isMuted(line)) { drawMuted(); return; }
    const empty = list.querySelector(".chat-empty");
    if (empty) empty.remove();
    list.append(lineNode(line));
    while (list.children.length > 200) list.firstChild.remove();
    scroll();
  }
  function refused(msg) {
    note.textContent = opts.errorText ? opts.errorText(msg) : msg.message;
    if (msg.error === "chat_closed") setOpen(false, msg.reason);
    if ((msg.code || msg.error) === "chat_muted") {
      const p = msg.params || msg;
      setOpen(false, "muted", null, { until: p.until, mute_reason: p.mute_reason });
    }
  }
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!open || !text) return;
    note.textContent = "";
    const ok = await opts.send(text);
    if (ok !== false) input.value = "";
  };
  return { root, reset, add, refused, setOpen, input, redraw };
}

/** The table's chat, fed by the table page's socket messages: call onMessage(msg) with every
 *  message; it answers true for the ones it took (hello's chat, chat, chat_history, chat
 *  refusals). `send(obj)` sends on the socket. */
export function tableChat({ t, errorText, send, me, api, table, event, referee }) {
  const quick = [1, 2, 3, 4].map((i) => t(`chat.quick.${i}`));
  const report = (line, reason) => api("POST", "/api/chat/reports", { table, user: line.user, at: line.at, text: line.text, reason });
  // a moderator mutes a writer's chat: an event's referee (`referee()`) at its table, for the
  // event; an organizer at a lobby table, everywhere
  const mute = (line, minutes, reason) => api("POST", "/api/chat/mutes", { user: line.user, minutes, reason, ...(event ? { event } : {}) });
  const moderate = () => ((event ? referee && referee() : me && me.role === "organizer") ? mute : null);
  const box = chatBox({ t, errorText, quick, me, report, moderate, send: (text) => send({ type: "chat", text }) });
  const CHAT_ERRORS = new Set(["chat_empty", "chat_too_long", "chat_bad_text", "chat_closed", "not_signed_in",
    "chat_link", "chat_repeated", "chat_muted"]);
  let lastSent = 0;
  const wrapped = box.root.querySelector("form");
  wrapped.addEventListener("submit", () => { lastSent = Date.now(); });
  box.root.querySelector(".chat-quick").addEventListener("click", () => { lastSent = Date.now(); });
  function onMessage(msg) {
    if (msg.type === "hello" && msg.chat) { box.reset(msg.chat); return false; }
    if (msg.type === "chat_history") { box.reset(msg); return true; }
    if (msg.type === "chat") { box.add(msg.line); return true; }
    if (msg.type === "error" && (CHAT_ERRORS.has(msg.error) || (msg.error === "rate_limited" && Date.now() - lastSent < 3000))) {
      box.refused(msg);
      return true;
    }
    return false;
  }
  return { root: box.root, onMessage, redraw: box.redraw };
}

/** An event's chat with its referees (HTTP, refreshed every `every` ms while the page is
 *  shown). `ctx`: {t, errorText, api, id, me, onReferee}: `onReferee(bool)` is told whether the
 *  reader referees the event (who may mute a writer's chat there) whenever that changes. */
export function eventChat(ctx, every = 3000) {
  const { t, api, id, me } = ctx;
  let referee = false;
  const box = chatBox({
    t, errorText: ctx.errorText, id: "event-chat", title: t("chat.eventTitle"), me,
    moderate: () => (referee ? (line, minutes, reason) => api("POST", "/api/chat/mutes", { user: line.user, minutes, reason, event: id }) : null),
    report: (line, reason) => api("POST", "/api/chat/reports", { event: id, user: line.user, at: line.at, text: line.text, reason }),
    send: async (text) => {
      try { await api("POST", `/api/events/${id}/chat`, { text }); await load(); return true; }
      catch (e) { box.refused(e); return false; }
    },
  });
  let shown = "";
  async function load() {
    try {
      const data = await api("GET", `/api/events/${id}/chat`);
      const key = JSON.stringify(data.lines) + data.referee;
      if (Boolean(data.referee) !== referee) { referee = Boolean(data.referee); if (ctx.onReferee) ctx.onReferee(referee); }
      if (key !== shown) {
        shown = key;
        box.reset({ ...data, reason: data.open ? null : data.reason || "not_signed_in" });
      }
      const note = box.root.querySelector(".chat-note");
      if (data.open && !data.referee && !note.textContent) note.textContent = t("chat.eventHint");
    } catch { /* the next refresh tries again */ }
  }
  load();
  const timer = setInterval(() => { if (!document.body.contains(box.root)) clearInterval(timer); else load(); }, every);
  if (!me) box.setOpen(false, "not_signed_in");
  return box.root;
}

/** The reported chat lines a referee or an organizer reads (GET /api/chat/reports): an event's
 *  (`event`: its id, for its referees) or the lobby tables' (no `event`, for the organizers),
 *  newest first, refreshed every `every` ms while shown. `ctx`: {t, api, errorText, event}.
 *  Each line's text is put in the page as text. */
export function reportList(ctx, every = 5000) {
  const { t, api } = ctx;
  const root = node("section", "card-box chat-reports");
  root.id = "chat-reports";
  const head = node("h3", "", t(ctx.event ? "chat.reports.event" : "chat.reports.lobby"));
  const list = node("ul", "chat-report-list");
  const note = node("p", "muted small");
  root.append(head, list, note);
  let shown = "";
  async function load() {
    try {
      const data = await api("GET", ctx.event ? `/api/chat/reports?event=${encodeURIComponent(ctx.event)}` : "/api/chat/reports");
      const key = JSON.stringify(data.reports);
      if (key === shown) return;
      shown = key;
      note.textContent = data.reports.length ? "" : t("chat.reports.none");
      list.replaceChildren(...data.reports.map((r) => {
        const li = node("li", "chat-report-item");
        li.dataset.report = r.id;
        const tm = node("time", "chat-time muted", timeOf(r.at));
        tm.dateTime = r.at;
        const where = r.channel.startsWith("table:") ? node("a", "small", t("chat.reports.table")) : null;
        if (where) where.href = `/tables/${r.channel.slice(6)}`;
        li.append(tm, " ", node("b", "chat-who", r.line.name), node("span", "chat-sep", t("colon")), node("span", "chat-text", r.line.text),
          node("div", "muted small", t("chat.reports.by", { name: r.reporter }) + (r.reason ? t("colon") + r.reason : "")));
        if (where) li.lastChild.append(" ", where);
        return li;
      }));
    } catch (e) { note.textContent = ctx.errorText ? ctx.errorText(e) : e.message; }
  }
  load();
  const timer = setInterval(() => { if (!document.body.contains(root)) clearInterval(timer); else load(); }, every);
  return root;
}
