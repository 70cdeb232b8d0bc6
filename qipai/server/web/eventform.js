// The organizer's form for a new event: a preset, then every field of it that may change (the
// game and its rule options, each stage's clock, the format, the points tables) shown with the
// preset's values in words. Each change goes to the server (POST /api/events/form), which
// answers with the fields as they now are, or refuses the change naming the field and the values
// it accepts; nothing is created until "Create event", which the server checks the same way.
// "Open for registration" makes an event players join with its code (registration.js).

import { api, el, errorText, lang, t } from "./app.js";
import { botName, clockName, gameName, optionName, popularity, valueName } from "./lobby.js";

const GROUPS = ["event", "game", "clock", "format", "points"];

/** A knockout round's name ("final", "round_2") in words. */
function roundWord(r) {
  const n = /^round_(\d+)$/.exec(r || "");
  return n ? t("events.round", { n: n[1] }) : t(`events.${r}`, null, r);
}

/** A field's name in words. */
function label(f) {
  if (f.label === "option") return optionName(f.params.game, { name: f.params.option });
  if (f.params.round) return t(`field.${f.label}`, { ...f.params, round: roundWord(f.params.round) }, `${roundWord(f.params.round)}${t("colon")}${f.label}`);
  return t(`field.${f.label}`, f.params);
}

/** A field's value in words. */
function valueText(f, v, byId) {
  if (v === null || v === undefined || v === "") return t("field.unset");
  if (f.label === "option") return valueName(f.params.game, { name: f.params.option }, v);
  if (f.type === "bool") return v ? t("yes") : t("no");
  if (f.group === "clock") return clockName(v);
  if (f.path === "game.id") {          // an alias (a game with a ruleset) by its own name, else its game's
    if (!byId[v]) return v;
    return byId[v].id === v ? gameName(byId[v]) : t(`gamealias.${v}`, null, gameName(byId[v]));
  }
  if (f.path === "stage.kind" || /^then\.\d+\.kind$/.test(f.path)) return t(`stage.${v}`, null, v);
  if (f.type === "order") {            // a tie-break order: each name in words, "lot" last
    return Array.isArray(v) ? [...v, "lot"].map((x) => t(`tiebreak.${x}`, null, x)).join(" → ") : t(`tiebreak.${v}`, null, String(v));
  }
  // a later stage's field reads its values as the first stage's does ("then.series.tiebreak")
  if (f.choices) return t(`fieldvalue.${f.label.replace(/^then\./, "")}.${v}`, null, String(v));
  return String(v);
}

function input(f, byId) {
  const attrs = { "data-path": f.path, id: `f-${f.path.replace(/\W/g, "-")}` };
  if (f.type === "bool") return el("input", { ...attrs, type: "checkbox", checked: f.value ? true : null });
  if (f.type === "order") return orderInput(f, attrs);
  if (f.choices) {
    // the games by their names in the reader's words (an alphabet, or pinyin order in Chinese)
    const choices = f.path === "game.id"
      ? [...f.choices].sort((a, b) => valueText(f, a, byId).localeCompare(valueText(f, b, byId), lang === "zh" ? "zh-CN" : "en"))
      : f.choices;
    const values = f.nullable ? [null, ...choices] : choices;
    return el("select", attrs, values.map((c) => el("option",
      { value: JSON.stringify(c), selected: c === f.value ? true : null }, valueText(f, c, byId))));
  }
  const num = f.type === "int" || f.type === "number" || f.type === "float";
  // a list (shengji's must-play levels) is written as JSON: [10, 13]
  const value = f.type === "list" ? JSON.stringify(f.value ?? []) : f.value ?? "";
  return el("input", { ...attrs, type: num ? "number" : "text", step: num && f.type !== "int" ? "any" : null,
    min: f.min ?? null, value, placeholder: f.nullable ? t("field.unset") : null, size: 6 });
}

/** A tie-break order: the tie-breaks in use, first first, each movable up or left out, and those
 *  left out, each to be put back at the end; the lot always decides last. A change sets the
 *  list's value and fires "change". */
function orderInput(f, attrs) {
  const box = el("div", { ...attrs, class: "order-field" });
  const set = (order) => { box.dataset.value = JSON.stringify(order); box.dispatchEvent(new Event("change")); };
  const order = f.value || [];
  const name = (x) => t(`tiebreak.${x}`, null, x);
  box.dataset.value = JSON.stringify(order);
  box.append(el("ol", {}, order.map((x, i) => el("li", { "data-tiebreak": x }, el("span", {}, name(x)), " ",
    el("button", { type: "button", class: "small", "data-up": x, disabled: i === 0 ? true : null, title: t("form.moveup"),
      onclick: () => set([...order.slice(0, i - 1), x, order[i - 1], ...order.slice(i + 1)]) }, "↑"),
    el("button", { type: "button", class: "small", "data-drop": x, title: t("form.leaveout"),
      onclick: () => set(order.filter((y) => y !== x)) }, "✕"))),
    el("li", { class: "muted" }, name("lot"))));
  const left = f.choices.filter((x) => !order.includes(x));
  if (left.length) {
    box.append(el("div", { class: "row small" }, el("span", { class: "muted" }, t("form.putback")), ...left.map((x) =>
      el("button", { type: "button", class: "small", "data-add": x, onclick: () => set([...order, x]) }, `+ ${name(x)}`))));
  }
  return box;
}

function read(f, node) {
  if (f.type === "bool") return node.checked;
  if (f.type === "order") return JSON.parse(node.dataset.value);
  if (node.tagName === "SELECT") return JSON.parse(node.value);
  const raw = node.value.trim();
  if (raw === "") return f.nullable ? null : raw;
  if (f.type === "int" && /^-?\d+$/.test(raw)) return parseInt(raw, 10);
  if ((f.type === "number" || f.type === "float") && Number.isFinite(Number(raw))) return Number(raw);
  if (f.type === "list") { try { return JSON.parse(raw); } catch { return raw; } }
  return raw;
}

/** The refusal of a field in words: the field, the value, the values it accepts. */
function refusal(e, fields, byId) {
  const f = fields.find((x) => x.path === e.field);
  if (!f) return errorText(e);
  const params = { field: label(f), value: valueText(f, e.value, byId) };
  if (e.valid && e.valid.length) return t("form.bad", { ...params, valid: e.valid.map((v) => valueText(f, v, byId)) });
  if (f.min !== null && f.min !== undefined && (f.type === "int" || f.type === "number")) return t("form.badmin", { ...params, min: f.min });
  return t("form.badhere", params);
}

/** The words a bot is typed by in the players box: its name in words as the help shows it
 *  ("随机（最容易）"), that name without its note in brackets ("随机", "Random"), its code. */
const botWords = (b) => [...new Set([botName(b), botName(b).replace(/\s*[（(][^（()）]*[)）]\s*$/, ""), b])].filter(Boolean);

/** The bots of a refusal in words, as the form's help lists them (never their codes). */
const botsSaid = (bots) => bots.map(botName).join(lang === "zh" ? "、" : "; ");

/** A line of the players box: a username, or a name, then a bot by its name in words (as the
 *  help shows it: "bot1 Rule-based", "机器人1 规则型") or by its code, then a rating (for a seeded
 *  draw), each optional. */
export function playerLine(line, bots) {
  const [pid, ...words] = line.split(/\s+/);
  const rest = words.join(" ");
  const named = bots.flatMap((b) => botWords(b).map((w) => [w, b])).sort((x, y) => y[0].length - x[0].length)
    .find(([w]) => rest.toLowerCase() === w.toLowerCase() || rest.toLowerCase().startsWith(w.toLowerCase() + " "));
  let bot = named ? named[1] : null;
  const after = named ? rest.slice(named[0].length).trim() : rest;
  const rating = /^\d+$/.test(after) ? +after : null;
  if (!named && after && rating === null) {     // an unknown bot: the server names what it refuses
    bot = words.find((x) => !/^\d+$/.test(x));
    const r = words.find((x) => /^\d+$/.test(x));
    return { id: pid, bot, ...(r ? { rating: +r } : {}) };
  }
  return bot || rating !== null ? { id: pid, ...(bot ? { bot } : {}), ...(rating !== null ? { rating } : {}) } : pid;
}

// the fields that say what an event is, in this order, before any other changed field
const SUMMARY = ["stage.kind", "stage.rounds", "match.series.scheduled", "match.series.tiebreak",
  "match.session.end.deals", "match.session.end.target.score_at_least", "then.0.kind"];

/** A changed form in words: "round robin; Games per match: 1; When a match ends level: …" (the
 *  format by its name, the other fields as "Label: value"; fields left unset are left out). */
export function summary(fields, changes, byId) {
  const at = (p) => fields.find((f) => f.path === p);
  const paths = [...SUMMARY, ...Object.keys(changes).filter((p) => !SUMMARY.includes(p))];
  const parts = paths.map(at).filter((f) => f && f.value !== null && f.value !== undefined && f.value !== "")
    .map((f) => (f.path === "stage.kind" ? valueText(f, f.value, byId) : `${label(f)}${t("colon")}${valueText(f, f.value, byId)}`));
  return parts.join(lang === "zh" ? "；" : "; ");
}

export async function newEventForm(presets, games, made = () => {}) {
  const byId = Object.fromEntries(games.flatMap((g) => [g.id, ...(g.aliases || [])].map((k) => [k, g])));
  // a preset in the page's words only (its own title mixes languages: "(双升, pairs)"); the presets
  // of the most played games first (the lobby's order: a new event is a xiangqi one unless changed).
  // The box names a preset by its game and rule set ("Xiangqi (rules 2)", what fits a phone's
  // width); what the event is follows under it, whole
  const rank = (p) => popularity((byId[p.game] || {}).id || p.game);      // an alias by its game
  const ranked = [...presets].sort((a, b) => rank(a) - rank(b));
  const words = (p) => t(`preset.${p.name}`, null, p.title);
  const head = (text) => text.split(/[:：]/)[0];
  const sel = el("select", { name: "preset" }, ranked.map((p) => el("option", { value: p.name, title: words(p) }, head(words(p)))));
  const about = el("small", { class: "muted", id: "preset-about" });
  // what the event is: the preset's own words while nothing is changed; once a field is, the
  // form's values as they now are (the format, games or deals a match, how a level match ends,
  // and every changed field), never the preset's words that no longer hold
  const describe = () => {
    if (Object.keys(changes).length && fields.length) { about.textContent = summary(fields, changes, byId); return; }
    const p = ranked.find((x) => x.name === sel.value);
    const text = p ? words(p) : "";
    about.textContent = text.slice(head(text).length + 1).trim();
  };
  const name = el("input", { name: "name", placeholder: t("events.nameph") });
  const meet = el("input", { name: "meet", placeholder: t("events.meetph") });
  const players = el("textarea", { name: "players", rows: 5 });
  // the players' help names the event's game's bots, the example line one of them (a card game's
  // "rule" bot is no xiangqi bot)
  const playersHelp = el("span", {});
  const botsHelp = el("small", { class: "muted", id: "event-bots" });
  const helpBots = () => {
    const at = fields.find((f) => f.path === "game.id");
    const g = at && byId[at.path in changes ? changes[at.path] : at.value];
    if (!g || !g.bots || !g.bots.length) return;
    const bot = botName(g.bots.includes(g.bot) ? g.bot : g.bots[0]);
    playersHelp.textContent = t("events.playershelp", { bot });
    players.placeholder = t("events.playersph", { bot });
    // a bot's name may hold a comma ("Search, level 3"): English lists them with semicolons
    botsHelp.textContent = t("events.botsof", { bots: botsSaid(g.bots) });
  };
  const gameBots = () => {
    const at = fields.find((f) => f.path === "game.id");
    const g = at && byId[at.path in changes ? changes[at.path] : at.value];
    return (g && g.bots) || [];
  };
  const open = el("input", { type: "checkbox", name: "registration" });
  const checkIn = el("input", { type: "checkbox", name: "check_in", disabled: true });
  open.onchange = () => { checkIn.disabled = !open.checked; if (!open.checked) checkIn.checked = false; };
  const box = el("div", { id: "event-fields" });
  const err = el("div", { class: "error", role: "alert", id: "new-event-error" });
  let fields = [];
  let changes = {};
  let shown = null;            // the field whose refusal is shown

  // a check's answer redraws every field: the field the organizer is in (a number being typed
  // while the last change was checked) keeps its focus and what was typed, not yet sent
  const typing = () => {
    const n = document.activeElement;
    if (!n || !box.contains(n) || !n.dataset.path) return null;
    // typed and not sent: a value the last change already sent is drawn as the server reads it
    const typed = n.tagName === "INPUT" && n.type !== "checkbox" && n.value !== n.defaultValue
      && !(n.dataset.path in changes && String(changes[n.dataset.path]) === n.value);
    const at = { path: n.dataset.path, value: typed ? n.value : null };
    try { at.caret = [n.selectionStart, n.selectionEnd]; } catch { at.caret = null; }
    return at;
  };
  const resume = (at) => {
    const n = at && box.querySelector(`[data-path="${CSS.escape(at.path)}"]`);
    if (!n) return;
    if (at.value !== null && n.value !== at.value) n.value = at.value;
    n.focus();
    if (at.caret && at.caret[0] !== null) {
      try { n.setSelectionRange(...at.caret); } catch { /* a box without a caret position */ }
    } else if (n.tagName === "INPUT" && n.type !== "checkbox") {
      const v = n.value; n.value = ""; n.value = v;     // a number box: the caret after its text
    }
  };
  const render = () => {
    const at = typing();
    drawFields();
    resume(at);
  };
  const drawFields = () => {
    box.replaceChildren(...GROUPS.map((g) => {
      const mine = fields.filter((f) => f.group === g);
      if (!mine.length) return null;
      return el("fieldset", { class: "fields", "data-group": g }, el("legend", {}, t(`field.group.${g}`)),
        mine.map((f) => {
          const node = input(f, byId);
          node.onchange = () => change(f, read(f, node));
          const changed = f.path in changes;
          // an order's buttons are not one control a label could name
          // a changed field says so in words (a coloured label alone read as an error)
          return el(f.type === "order" ? "div" : "label", { class: "field" + (changed ? " changed" : "") + (f.type === "order" ? " wide" : ""), "data-field": f.path },
            el("span", {}, label(f), changed ? el("small", { class: "changed-tag" }, ` · ${t("form.changed")}`) : null),
            node,
            // a clock made for bots: a person loses every game on it (a round with a person is refused)
            f.group === "clock" && String(f.value).startsWith("bot_") ? el("small", { class: "field-warn", "data-bot-clock": "" }, t("form.botclock")) : null,
            el("span", { class: "field-error error", "data-error-for": f.path }));
        }));
    }).filter(Boolean));
  };
  const showError = (e) => {
    // a bot the game does not have: the bots it has by their names, as the help says them
    const why = (e.params && e.params.why) || e.refusal || e.code;     // error.bad_event: {why|refusal}
    if ((why === "event.unknown_bot" || why === "event.member_bot") && gameBots().length) {
      e = { ...e, params: { ...(e.params || {}), valid: botsSaid(gameBots()) } };
    }
    // a players line that is neither an account nor a bot: which one
    const text = e.code === "bad_field" ? refusal(e, fields, byId)
      : e.code === "no_user" && e.params && e.params.name ? t("events.noaccount", { name: e.params.name }) : errorText(e);
    err.textContent = text;
    shown = e.code === "bad_field" ? e.field : null;
    for (const n of box.querySelectorAll("[data-error-for]")) n.textContent = n.dataset.errorFor === shown ? text : "";
    for (const n of box.querySelectorAll("[data-path]")) n.toggleAttribute("aria-invalid", n.dataset.path === shown);
  };
  let loading = Promise.resolve(true);  // the last change's check, which "Create event" waits for
  const load = () => (loading = check());
  let asked = 0;                        // checks answer out of order: only the newest is drawn
  const check = async () => {
    const mine = ++asked;
    try {
      const answer = (await api("POST", "/api/events/form", { preset: sel.value, fields: changes })).fields;
      if (mine !== asked) return loading;
      fields = answer;
      render();
      describe();
      helpBots();
      err.textContent = "";
      shown = null;
      return true;
    } catch (e) {
      if (mine !== asked) return loading;
      showError(e); return false;
    }
  };
  const change = async (f, v) => {
    if (f.path === "game.id") {            // another game: the old game's options go
      changes = Object.fromEntries(Object.entries(changes).filter(([k]) => !k.startsWith("game.")));
    }
    changes[f.path] = v;
    await load();
  };
  sel.onchange = async () => { changes = {}; describe(); await load(); };

  const go = el("button", { class: "primary", id: "create-event" }, t("events.create"));
  const busy = el("span", { class: "muted", id: "create-busy", role: "status" });
  const working = (on) => {
    go.disabled = on;
    go.toggleAttribute("aria-busy", on);
    busy.textContent = on ? t("events.creating") : "";
  };
  // one press makes one event: the button is off while the form's last change is checked (a field
  // left by pressing the button is sent first) and while the event is made, which may take seconds
  // (the server's event worker may be starting); the form's key goes with each request, so a
  // repeat (a retry after an answer lost, a second press) answers with the event already made
  // (POST /api/events request_key), never a second one
  const requestKey = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
  const send = async (body) => {
    for (let tries = 1; ; tries++) {
      try { return await api("POST", "/api/events", body); } catch (e) {
        // no answer (the connection dropped, the server restarting): ask again, the same key
        if (e.code || e.status || tries >= 3) throw e;
        await new Promise((ok) => setTimeout(ok, 500 * tries));
      }
    }
  };
  go.onclick = async () => {
    if (go.disabled) return;
    working(true);
    if (!(await loading)) { working(false); return; }     // the change was refused: its reason shows by its field
    const entries = players.value.split("\n").map((l) => l.trim()).filter(Boolean).map((l) => playerLine(l, gameBots()));
    // an event of another game than its preset's is not named after the preset
    let title = name.value.trim() || null;
    if (!title && "game.id" in changes) {
      const at = (p) => fields.find((f) => f.path === p);
      title = `${valueText(at("game.id"), changes["game.id"], byId)} · ${valueText(at("stage.kind"), at("stage.kind").value, byId)}`;
    }
    const body = { preset: sel.value, name: title, players: entries, form: changes,
      meet: meet.value.trim() || null, registration: open.checked, check_in: checkIn.checked, request_key: requestKey };
    let ev;
    try { ev = await send(body); } catch (e) { working(false); showError(e); return; }
    // made: the button stays off, the list shows it, and the page goes to it
    busy.textContent = t("events.opening", { name: ev.name || ev.id });
    made(ev);
    location.assign(`/events/${encodeURIComponent(ev.id)}`);
  };
  const reset = el("button", { type: "button", id: "reset-fields", onclick: async () => { changes = {}; await load(); } }, t("form.reset"));
  describe();
  await load();
  return el("section", { class: "card-box", id: "new-event" }, el("h3", {}, t("events.new")),
    el("div", { class: "form-grid" }, el("label", { class: "field wide" }, el("span", {}, t("preset")), sel, about),
      el("label", { class: "field" }, el("span", {}, t("name")), name),
      el("label", { class: "field" }, el("span", {}, t("events.meet")), meet)),
    el("details", { id: "event-settings", open: true }, el("summary", {}, t("form.settings")),
      el("p", { class: "muted small" }, t("form.help")), box, el("div", { class: "row" }, reset)),
    el("label", { class: "field" }, playersHelp, players, botsHelp),
    el("div", { class: "row" }, el("label", {}, open, " ", t("events.openentries")),
      el("label", {}, checkIn, " ", t("events.needcheckin"))),
    el("div", { class: "row" }, go, busy), err);
}
