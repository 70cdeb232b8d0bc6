// Referees (competition.md §5.7): the console at /events/<id>/referee, and on the event page the
// organizer's form to appoint referees with the link to the console. The console polls
// GET /api/events/<id>/console every second and lists the event's live tables with their clocks
// and warnings; every act goes to POST /api/events/<id>/acts with the written reason, which the
// server records with the referee's name in the event's log and the game's record.

import { api, el, errorText, every, t } from "./app.js";
import { eventName, gameName } from "./lobby.js";
import { eventStatus, roundName } from "./eventstatus.js";
import { LIST_SEP, paren } from "./i18n.js";
import { ask } from "./ask.js";
import { reportList } from "./chat.js";
import { styleSheet } from "./sheet.js";

const css = () => styleSheet("referee");

// ----- on the event page -----------------------------------------------------------------------
/** The referees of event `id`: their names, the organizer's appoint form, the console link. */
export function refereePanel({ id, me }) {
  css();
  const box = el("section", { class: "card-box referees", id: "referees" });
  const err = el("div", { class: "error", role: "alert" });
  async function show() {
    let info;
    try { info = await api("GET", `/api/events/${id}/referees`); } catch (e) { err.textContent = errorText(e); return; }
    const parts = [el("h3", {}, t("ref.referees")),
      el("div", { id: "referee-list" }, info.referees.length ? info.referees.join(LIST_SEP) : el("span", { class: "muted" }, t("ref.none")))];
    if (info.can_appoint) {
      const name = el("input", { id: "referee-name", placeholder: t("ref.username"), "aria-label": t("ref.username"), autocomplete: "off" });
      const add = el("button", { id: "appoint", type: "submit" }, t("ref.appoint"));
      const form = el("form", { class: "row" }, name, add);
      form.onsubmit = async (e) => {
        e.preventDefault();
        try { await api("POST", `/api/events/${id}/referees`, { username: name.value.trim() }); name.value = ""; err.textContent = ""; show(); }
        catch (x) { err.textContent = errorText(x); }
      };
      parts.push(form);
    }
    if (info.can_referee) parts.push(el("a", { class: "button", id: "console-link", href: `/events/${id}/referee` }, t("ref.console")));
    parts.push(err);
    box.replaceChildren(...parts);
  }
  if (me) show(); else box.hidden = true;
  return box;
}

// ----- the console -------------------------------------------------------------------------------
/** mm:ss (h:mm:ss past an hour) of `ms`, never negative. */
function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

// the console's refusals: it stops asking
const REFUSED = new Set(["not_referee", "plays_in_own_event", "no_event"]);

export async function consolePage(app, { me, id }) {
  css();
  const games = await api("GET", "/api/games");
  const byId = Object.fromEntries(games.flatMap((g) => [g.id, ...(g.aliases || [])].map((k) => [k, g])));
  const head = el("div", { class: "event-head" });
  const reason = el("input", { id: "act-reason", maxlength: 500, placeholder: t("ref.reasonph"), "aria-label": t("ref.reason") });
  const err = el("div", { class: "error", role: "alert", id: "act-error" });
  const done = el("div", { class: "muted", role: "status", id: "act-done" });
  const roundBar = el("div", { class: "row" });
  const tables = el("div", { class: "ref-tables", id: "ref-tables" });
  const entrants = el("div", { id: "ref-entrants" });
  const paper = el("div", { id: "ref-paper" });
  const results = el("div", { id: "ref-results" });
  const disputes = el("div", { id: "ref-disputes" });
  const log = el("div", { class: "scroll", id: "ref-log" });
  if (!me) { app.replaceChildren(el("div", { class: "error" }, t("error.not_signed_in"))); return; }
  // one who may not referee the event (an organizer who plays in it: plays_in_own_event) reads
  // why, once, instead of an empty console that says it under every section
  try { await api("GET", `/api/events/${id}/console`); } catch (e) {
    if (!REFUSED.has(e.code)) throw e;
    app.replaceChildren(el("section", { class: "card-box" },
      el("p", { class: "error", role: "alert", id: "ref-refused" }, errorText(e)),
      el("a", { href: `/events/${id}` }, t("events.back"))));
    return;
  }
  app.replaceChildren(head,
    el("section", { class: "card-box ref-bar" }, el("label", { class: "field" }, el("span", {}, t("ref.reason")), reason),
      roundBar, err, done),
    el("section", { class: "card-box" }, el("h3", {}, t("ref.tables")), tables),
    el("section", { class: "card-box" }, el("h3", {}, t("ref.disputes")), disputes),
    reportList({ t, api, errorText, event: id }, every(5000)),
    el("section", { class: "card-box" }, el("h3", {}, t("ref.entrants")), entrants),
    el("section", { class: "card-box" }, el("h3", {}, t("ref.paper")), paper),
    el("section", { class: "card-box" }, el("h3", {}, t("ref.results")), el("p", { class: "muted small" }, t("ref.resultshelp")), results),
    el("section", { class: "card-box" }, el("h3", {}, t("ref.log")), log));

  let data = null, fetchedAt = 0, shownName = null;
  // the button last pressed: a refusal of its act is written next to it (the reason field and
  // the message at the top are far from a table's or an entrant's buttons)
  let pressed = null;
  app.addEventListener("click", (e) => { pressed = e.target.closest("button"); }, true);
  const noteBy = (text) => {
    for (const n of app.querySelectorAll(".act-note")) n.remove();
    if (text && pressed && pressed.isConnected) pressed.after(el("span", { class: "act-note error", role: "alert" }, " ", text));
  };
  reason.addEventListener("input", () => { reason.removeAttribute("aria-invalid"); });
  // the act being sent ({ key, over }: a promise kept when it is answered and the console read
  // again). The same act pressed again meanwhile is a double press: dropped. Another act waits
  // for it, then goes with the reason written for it: it was dropped, and the reason typed for it
  // wiped by the first act's answer, when the console's own reading showed the first act done
  // before its answer came (a slow connection or a loaded machine), and the referee went on.
  let sending = null;
  const needReason = () => {
    if (reason.value.trim()) return false;
    reason.setAttribute("aria-invalid", "true");
    noteBy(t("ref.needreason"));
    err.textContent = "";
    done.textContent = "";
    reason.focus({ preventScroll: true });
    return true;
  };
  /** Send the act `body` with the reason written above; `question` ({text, yes}): an act that
   *  cannot be taken back is asked first (ask.js), once its reason is there. */
  async function act(body, question) {
    const key = JSON.stringify(body);
    if (sending && sending.key === key) return;
    // every act needs its written reason: asked here, by the button, before any request
    if (needReason()) return;
    if (question && !await ask({ ...question, no: t("cancel") })) return;
    while (sending) {
      if (sending.key === key) return;
      await sending.over;
    }
    if (needReason()) return;               // the reason was the act before's, sent and cleared
    let over;
    sending = { key, over: new Promise((ok) => { over = ok; }) };
    const said = reason.value;
    try {
      await api("POST", `/api/events/${id}/acts`, { ...body, reason: said });
      err.textContent = "";
      noteBy(null);
      done.textContent = t("ref.done", { act: t(`ref.act.${body.act}`) });
      if (reason.value === said) reason.value = "";     // not one written since for the next act
      await poll();
    } catch (e) { err.textContent = errorText(e); noteBy(errorText(e)); done.textContent = ""; } finally {
      sending = null;
      over();
    }
  }

  const names = (tb) => tb.names.map((n, i) => n || t("seatno", { n: i + 1 }));     // "seat 2", never "#2"
  // a seat to give time to or warn: a person's first (the one to move, if any), never a bot's by
  // default; a bot's seat stays pickable
  function seatPicker(tb, idBase) {
    const bots = tb.bots || [];
    const people = names(tb).map((_, i) => i).filter((i) => !bots[i]);
    const first = people.find((i) => tb.to_act.includes(i)) ?? people[0] ?? 0;
    return el("select", { "aria-label": t("ref.seat"), "data-seats": idBase },
      names(tb).map((n, i) => el("option", { value: i, selected: i === first || null }, n)));
  }

  // one limit for the whole game (go's 60 minutes, then counted), in words under the seats
  function gameClock(tb) {
    const g = tb.game_limit;
    if (!g) return null;
    const now = tb.paused_at !== null && tb.paused_at !== undefined ? tb.paused_at : tb.now + performance.now() - fetchedAt;
    const left = g.deadline !== undefined ? g.deadline - now : g.limit;
    return el("li", { class: "muted game-clock", "data-game-clock": tb.id },
      t(`clk.gameLimit.${g.then}`, { time: clockText(left), limit: Math.round(g.limit / 60000) }));
  }

  function clocks(tb) {
    // not started: the game waits for its players at the table (the event page's words), each
    // seat's player at the table (or a bot) or not yet
    if (!tb.clocks.length) return el("ul", { class: "ref-clocks" }, el("li", { class: "muted", "data-waiting": "" }, names(tb).join(` ${t("vs")} `), " · ", t("events.seating")),
      names(tb).map((n, i) => {
        const state = seatState(tb, i);
        return el("li", { "data-seat": i, "data-state": state }, el("span", { class: "n" }, n), " ", el("span", { class: "tag" + (state === "seated" ? " ok" : "") }, t(`ref.status.${state}`)));
      }));
    const now = tb.paused_at !== null && tb.paused_at !== undefined ? tb.paused_at : tb.now + performance.now() - fetchedAt;
    return el("ul", { class: "ref-clocks" }, names(tb).map((n, i) => {
      const c = tb.clocks[i] || {};
      // a seat that waits on a clock of a time a move: the time its next move may take
      const perMove = !(c.deadline !== undefined && tb.to_act.includes(i)) && c.bank === undefined && c.move_cap !== undefined;
      const left = c.deadline !== undefined && tb.to_act.includes(i) ? c.deadline - now : perMove ? c.move_cap : c.bank;
      const warn = c.warnings ? el("span", { class: "tag warn", title: t("ref.warnings") }, t("ref.warncount", { n: c.warnings })) : null;
      const strikes = c.strikes ? el("span", { class: "tag warn" }, t("ref.strikes", { n: c.strikes })) : null;
      return el("li", { class: tb.to_act.includes(i) ? "to-act" : null, "data-seat": i },
        el("span", { class: "n" }, n), " ",
        left !== undefined ? el("span", { class: "clock" + (perMove ? " idle" : "") }, clockText(left))
          : el("span", { class: "muted" }, t(tb.game_limit ? "ref.gameLimitOnly" : "ref.noclock")),
        perMove ? el("span", { class: "muted" }, ` ${t("clk.perMove")}`) : null,
        c.bank !== undefined && left !== c.bank ? el("span", { class: "muted bank", title: t("ref.bank") }, paren(clockText(c.bank))) : null,
        // the last period once the bank is spent: sudden death (SD, 最后一次读秒), as at the table
        c.periods === 1 && !c.bank ? el("span", { class: "muted", title: t("clk.lastPeriod.doc") }, ` ${t("clk.lastPeriod")}`)
          : c.periods !== undefined ? el("span", { class: "muted" }, ` ${t("ref.periods", { n: c.periods })}`) : null,
        c.trustee ? el("span", { class: "tag" }, t("ref.trustee")) : null, warn, strikes);
    }), gameClock(tb));
  }

  // a two-seat game's results in words ("alice wins", "drawn game") to pick, another one typed
  // (its notation) after "Other…"; a game of more seats: typed. The same at a live table (seated
  // or not yet), a result entered from paper and a correction. `chosen()` the notation.
  function resultPicker(outcomes, seatNames, attrs, placeholder, size) {
    const result = el("input", { class: "result", placeholder, "aria-label": t("ref.result"), size });
    const pick = outcomes.length ? el("select", { class: "outcome", "aria-label": t("ref.result"), ...attrs },
      el("option", { value: "" }, t("ref.outcome.pick")),
      outcomes.map((o) => el("option", { value: o.text }, o.winners.length ? t("ref.outcome.win", { name: seatNames[o.winners[0]] }) : t("ref.outcome.draw"))),
      el("option", { value: "*" }, t("ref.outcome.other"))) : null;
    if (pick) {
      result.hidden = true;
      pick.onchange = () => { result.hidden = pick.value !== "*"; if (!result.hidden) result.focus(); };
    }
    const chosen = () => (pick && pick.value !== "*" ? pick.value : result.value.trim());
    return { pick, result, chosen };
  }
  // the event's game's results in words (the console's outcomes), for paper and corrections
  let gameOutcomes = [];

  // a seat of a table: "playing" once its game started, else "seated" (its person came to the
  // table, or a bot) or "waiting" (not at the table yet)
  function seatState(tb, i) {
    if (tb.clocks.length) return "playing";
    return (tb.bots || [])[i] || (tb.ready || []).includes(i) ? "seated" : "waiting";
  }
  // an active entrant's state at the round's table (null: no table of theirs)
  function entrantState(e) {
    for (const tb of data.tables) {
      const i = names(tb).indexOf(e.name);
      if (i >= 0) return seatState(tb, i);
    }
    return null;
  }

  function tableCard(tb) {
    const seatA = seatPicker(tb, "time"), secs = el("input", { type: "number", min: 1, max: 3600, value: 60, class: "secs", "aria-label": t("ref.seconds") });
    const seatW = seatPicker(tb, "warn");
    const { pick, result, chosen } = resultPicker(tb.outcomes || [], names(tb), { "data-outcomes": tb.id }, t("ref.resultph"), 8);
    // an act that ends the game in play cannot be taken back: asked first, as disqualifying is
    const btn = (label, attrs, body, final = false) => el("button", { ...attrs, onclick: () => act({ table: tb.id, ...body() },
      final ? { text: t("ref.endask", { what: label, players: names(tb).join(` ${t("vs")} `) }), yes: label } : null) }, label);
    return el("article", { class: "ref-table" + (tb.paused ? " paused" : ""), "data-table": tb.id },
      el("div", { class: "ref-table-head" },
        el("b", {}, gameName(byId[tb.game]) || tb.game), " · ", el("span", { class: "nw" }, roundName(data.event, tb.round)),
        tb.paused ? el("span", { class: "tag paused", "data-paused": "" }, t("ref.paused")) : null,
        tb.replay_of.length ? el("span", { class: "tag" }, t("ref.replayed")) : null,
        " ", el("a", { href: `/tables/${tb.id}`, class: "watch" }, t("watch"))),
      clocks(tb),
      // a game not started has no clock to pause or add to and no result yet: the card says so
      // (a player is warned or penalized in the players' list)
      !tb.clocks.length ? el("p", { class: "muted small", "data-waiting-note": "" }, t("ref.waitingacts")) : el("div", { class: "ref-acts" },
        tb.paused ? btn(t("ref.resume"), { class: "primary", "data-act": "resume" }, () => ({ act: "resume" }))
          : btn(t("ref.pause"), { "data-act": "pause" }, () => ({ act: "pause" })),
        el("span", { class: "grp" }, seatA, secs, el("span", { class: "unit" }, t("ref.secunit")), btn(t("ref.addtime"), { "data-act": "add_time" },
          () => ({ act: "add_time", seat: Number(seatA.value), ms: Math.round(Number(secs.value) * 1000) }))),
        el("span", { class: "grp" }, seatW, btn(t("ref.warn"), { "data-act": "warning" }, () => ({ act: "warning", seat: Number(seatW.value) }))),
        el("span", { class: "grp" }, pick, result, btn(t("ref.adjudicate"), { "data-act": "adjudicate" }, () => ({ act: "adjudicate", result: chosen() }), true),
          tb.count ? btn(t("ref.count"), { "data-act": "count" }, () => ({ act: "adjudicate", result: "count" }), true) : null),
        btn(t("ref.void"), { class: "danger", "data-act": "void" }, () => ({ act: "void" }), true)));
  }

  function entrantRow(e) {
    const kinds = data.penalty_kinds;
    const kind = kinds.length ? el("select", { "aria-label": t("ref.penaltykind") }, kinds.map((k) => el("option", { value: k }, t(`ref.penalty.${k}`, null, k)))) : null;
    // a finished event's entrants are past warnings and penalties
    const out = e.status === "disqualified" || data.event.status === "finished";
    return el("tr", { "data-entrant": e.id },
      el("td", {}, e.name, e.bot ? el("span", { class: "tag" }, t("ref.bot")) : null),
      el("td", { "data-state": e.status === "active" ? entrantState(e) || "active" : e.status },
        data.event.status === "finished" && e.status === "active" ? t("ref.status.done")
          : e.status === "active" && entrantState(e) ? t(`ref.status.${entrantState(e)}`) : t(`ref.status.${e.status}`, null, e.status)),
      el("td", { class: "ref-acts" },
        el("button", { "data-act": "warning", disabled: out || null, onclick: () => act({ act: "warning", entrant: e.id }) }, t("ref.warn")),
        kind ? el("span", { class: "grp" }, kind, el("button", { "data-act": "penalty", disabled: out || null, onclick: () => act({ act: "penalty", entrant: e.id, kind: kind.value }) }, t("ref.penalize"))) : null,
        el("button", { class: "danger", "data-act": "disqualify", disabled: out || null, onclick: () => act({ act: "disqualify", entrant: e.id }, { text: t("ref.dqconfirm", { name: e.name }), yes: t("ref.disqualify") }) }, t("ref.disqualify"))));
  }

  // the players of a game, each name whole ("alice vs bob")
  const players = (seats) => seats.flatMap((n, i) => [i ? ` ${t("vs")} ` : null, el("span", { class: "nm" }, n)]).filter(Boolean);

  function paperRow(g) {
    const { pick, result, chosen } = resultPicker(gameOutcomes, g.seats, { "data-outcomes-game": g.id }, t("ref.resultph"), 10);
    const moves = el("input", { type: "number", min: 0, class: "secs", placeholder: t("ref.moves"), "aria-label": t("ref.moves") });
    const dur = el("input", { class: "secs", placeholder: t("ref.durationph"), "aria-label": t("ref.duration"), size: 6 });
    return el("tr", { "data-game": g.id },
      el("td", {}, roundName(data.event, g.round), " · ", t("events.game", { n: g.number })),
      el("td", {}, players(g.seats)),
      el("td", { class: "ref-acts" }, ...[pick, result, moves, dur].filter(Boolean), el("button", { "data-act": "enter_result", onclick: () => act({
        act: "enter_result", game: g.id, result: chosen(), moves: moves.value === "" ? null : Number(moves.value), duration: dur.value.trim() || null,
      }, { text: t("ref.enterask", { result: pickedWords(pick, chosen()), players: g.seats.join(` ${t("vs")} `) }), yes: t("ref.enter") }) }, t("ref.enter"))));
  }

  // what the referee picked, in the drop-down's words ("alice wins"), else as typed
  const pickedWords = (pick, text) => (pick && pick.value && pick.value !== "*" ? pick.selectedOptions[0].textContent : text || "—");

  /** A finished result (§5.7): confirm it at once, or correct it with the reason above. */
  function resultRow(g) {
    // its own short hint (the notation's example, cut at "result, e.g." in a narrow field, is its title)
    const { pick, result, chosen } = resultPicker(gameOutcomes, g.seats, { "data-correct": g.id }, t("ref.correctph"), 12);
    result.title = t("ref.resultph");
    if (pick) pick.setAttribute("aria-label", t("ref.newresult"));
    const words = !g.result ? "—" : g.winners && g.winners.length ? t("events.won", { name: g.winners }) : t("events.draw");
    const who = g.seats.join(` ${t("vs")} `);
    const fixes = g.corrections.length ? el("div", { class: "muted small" }, t("ref.corrected", { n: g.corrections.length })) : null;
    return el("tr", { "data-result": g.id },
      el("td", {}, roundName(data.event, g.round), " · ", t("events.game", { n: g.number })),
      el("td", {}, players(g.seats)),
      // the result in words ("alice won"), as everywhere else; its notation (what a correction
      // is typed in) only as the words' title, never shown raw ("(B+)")
      el("td", {}, el("b", { title: g.result || null, "data-notation": g.result || null }, words), " ", g.confirmed ? el("span", { class: "tag", "data-confirmed": "" }, t("events.confirmed"))
        : g.standing === "final" ? el("span", { class: "tag", "data-final": "", title: t("events.settledwhy") }, t("events.settled"))
        : el("span", { class: "muted" }, t("events.provisional")), fixes),
      el("td", { class: "ref-acts" },
        // confirming and correcting cannot be taken back: asked first, saying what they do
        g.confirmed || g.standing === "final" ? null : el("button", { "data-act": "confirm", onclick: () => act({ act: "confirm", game: g.id },
          { text: t("ref.confirmask", { players: who, result: words }), yes: t("ref.confirm") }) }, t("ref.confirm")),
        el("span", { class: "grp" }, ...[pick, result].filter(Boolean), el("button", { "data-act": "correct", onclick: () => act({ act: "correct", game: g.id, result: chosen() },
          { text: t("ref.correctask", { players: who, from: words, to: pickedWords(pick, chosen()) }), yes: t("ref.correct") }) }, t("ref.correct")))));
  }

  function disputeRow(d) {
    return el("li", { "data-dispute": d.id, class: d.open ? "open" : "ruled" },
      el("b", {}, d.entrant || d.by), " — ", d.reason, " ", el("span", { class: "muted" }, new Date(d.at).toLocaleTimeString(document.documentElement.lang)),
      d.open ? el("span", { class: "ref-acts" },
        // a ruling is final: asked first
        el("button", { "data-act": "uphold", onclick: () => act({ act: "ruling", dispute: d.id, decision: "upheld" },
          { text: t("ref.upholdask", { name: d.entrant || d.by }), yes: t("ref.uphold") }) }, t("ref.uphold")),
        el("button", { "data-act": "reject", onclick: () => act({ act: "ruling", dispute: d.id, decision: "rejected" },
          { text: t("ref.rejectask", { name: d.entrant || d.by }), yes: t("ref.reject") }) }, t("ref.reject")))
        : el("span", { class: "tag" }, t(`ref.decision.${d.ruling.data.decision}`), " · ", d.ruling.by));
  }

  function what(e) {
    const d = e.data || {};
    const bits = [];
    if (e.entrant) bits.push(e.entrant);
    if (d.players && d.players.length) bits.push(d.players.join(` ${t("vs")} `));
    if (d.ms) bits.push(`+${clockText(d.ms)}`);
    // an adjudication's result in words, as a ruling reads ("result: carol wins", "结果：carol 胜",
    // "result: draw"); its notation only as the words' title
    if (d.result === "count") bits.push(t("ref.count"));
    else if (d.result && d.winners) bits.push(el("span", { class: "ruled", title: d.result }, d.winners.length
      ? t("ref.ruled", { name: d.winners, n: d.winners.length }) : t("ref.ruledDraw")));
    else if (d.result) bits.push(d.result);
    if (d.decision) bits.push(t(`ref.decision.${d.decision}`));
    if (d.kind) bits.push(t(`ref.penalty.${d.kind}`, null, d.kind));
    if (d.scope === "round") bits.push(t("ref.wholeround"));
    if (e.act === "chat_mute" && d.minutes !== undefined) bits.push(t("ref.muteFor", { n: d.minutes }));
    return bits.flatMap((b, i) => (i ? [" · ", b] : [b]));
  }

  function render() {
    const ev = data.event;
    // each part is drawn again only when what it shows changed (the console asks every 0.5 s by
    // default): a button drawn anew between a press's mouse down and up lost the click, and a
    // note by the pressed button (noteBy) stays until the next press
    const changed = (box, shown) => {
      const key = JSON.stringify(shown);
      if (box.dataset.shape === key && box.firstChild) return false;
      box.dataset.shape = key;
      return true;
    };
    if (changed(head, [shownName, ev.name, ev.game, eventStatus(ev)])) {
      head.replaceChildren(el("h2", {}, t("ref.title")), el("div", { class: "muted" },
        el("a", { href: `/events/${id}`, id: "back-to-event" }, shownName || ev.name), ` · ${gameName(byId[ev.game]) || ev.game} · ${eventStatus(ev)}`));
    }
    const anyLive = data.tables.length > 0;
    // no live table: because the event is over, or its round waits for its start
    const none = ev.status === "finished" ? t("ref.nolivefinished")
      : ev.started_round >= ev.current_round && ev.current_round ? t("ref.seating", { n: ev.current_round }) : t("ref.nolive");
    gameOutcomes = data.outcomes || [];
    // the round's pause and resume only where they apply: a table to pause, a paused one to
    // resume (none once the event is over or before its tables sit)
    const canPause = data.tables.some((x) => !x.paused), canResume = data.tables.some((x) => x.paused);
    // the tables whose game waits for its players (no clocks yet) are counted apart: not "live"
    const waiting = data.tables.filter((x) => !x.clocks.length).length, live = data.tables.length - waiting;
    if (changed(roundBar, [canPause, canResume, live, waiting])) {
      roundBar.replaceChildren(...[        // no null among them: replaceChildren would write "null"
        canPause ? el("button", { id: "pause-round", onclick: () => act({ act: "pause" }) }, t("ref.pauseround")) : null,
        canResume ? el("button", { id: "resume-round", onclick: () => act({ act: "resume" }) }, t("ref.resumeround")) : null,
        anyLive ? el("span", { class: "muted", id: "ref-count" }, [live ? t("ref.livecount", { n: live }) : null,
          waiting ? t("ref.waitingcount", { n: waiting }) : null].filter(Boolean).join(" · ")) : null].filter(Boolean));   // none: said once, under the tables' heading
    }
    // keep what a referee is typing: rebuild the cards only when the tables themselves changed
    const shape = JSON.stringify([none, data.tables.map((x) => [x.id, x.paused, x.names, x.count, x.clocks.length > 0])]);
    if (tables.dataset.shape !== shape || !tables.firstChild) {
      tables.dataset.shape = shape;
      tables.replaceChildren(...(anyLive ? data.tables.map(tableCard) : [el("p", { class: "muted" }, none)]));
    } else {
      for (const tb of data.tables) {
        const card = tables.querySelector(`[data-table="${tb.id}"] .ref-clocks`);
        if (card) card.replaceWith(clocks(tb));
      }
    }
    const eshape = JSON.stringify([ev.status, data.entrants.map((e) => [e.id, e.status, e.status === "active" ? entrantState(e) : null])]);
    if (entrants.dataset.shape !== eshape) {
      entrants.dataset.shape = eshape;
      entrants.replaceChildren(el("div", { class: "scroll" }, el("table", { class: "list" }, el("tbody", {}, data.entrants.map(entrantRow)))));
    }
    // a game of a started round with no table yet is being seated, not played on paper (it
    // showed under "Enter result" just after "Start round")
    const onPaper = data.paper.filter((g) => !(ev.started_round >= g.round));
    const pshape = JSON.stringify(onPaper.map((g) => g.id));
    if (paper.dataset.shape !== pshape) {
      paper.dataset.shape = pshape;
      paper.replaceChildren(onPaper.length ? el("div", { class: "scroll" }, el("table", { class: "list" }, el("tbody", {}, onPaper.map(paperRow))))
        : el("p", { class: "muted" }, t("ref.nopaper")));
    }
    const rshape = JSON.stringify(data.results.map((g) => [g.id, g.result, g.confirmed, g.corrections.length]));
    if (results.dataset.shape !== rshape) {
      results.dataset.shape = rshape;
      results.replaceChildren(data.results.length ? el("div", { class: "scroll" }, el("table", { class: "list" }, el("tbody", {}, data.results.map(resultRow))))
        : el("p", { class: "muted" }, t("ref.noresults")));
    }
    if (changed(disputes, data.disputes)) {
      disputes.replaceChildren(data.disputes.length ? el("ul", { class: "ref-disputes" }, data.disputes.map(disputeRow)) : el("p", { class: "muted" }, t("ref.nodisputes")));
    }
    const rows = [...data.log].reverse().filter((e) => e.act !== "dispute");
    const logChanged = changed(log, rows);
    if (logChanged && !rows.length) log.replaceChildren(el("p", { class: "muted", id: "ref-log-empty" }, t("none")));
    else if (logChanged) log.replaceChildren(el("table", { class: "list ref-log" }, el("thead", {}, el("tr", {},
      el("th", {}, t("ref.when")), el("th", {}, t("ref.who")), el("th", {}, t("ref.what")), el("th", {}, t("ref.reason")))),
    el("tbody", {}, rows.map((e) => el("tr", { "data-log": e.act },
      el("td", { class: "muted" }, new Date(e.at).toLocaleTimeString(document.documentElement.lang)),
      el("td", {}, e.data && e.data.auto ? t("ref.byserver") : e.by), el("td", {}, el("b", {}, t(`ref.act.${e.act}`, null, e.act)), " ", what(e)), el("td", {}, e.data && e.data.auto ? t(`ref.auto.${e.data.auto}`, null, e.reason) : e.reason))))));
  }

  async function poll() {
    try {
      data = await api("GET", `/api/events/${id}/console`);
      shownName = shownName || await eventName(data.event);     // a preset's name in the reader's words
      fetchedAt = performance.now();
      render();
    } catch (e) {
      err.textContent = errorText(e);
      if (REFUSED.has(e.code)) clearInterval(timer);
    }
  }
  const timer = setInterval(poll, every(1000));
  await poll();
}

// ----- a player's dispute, from the table page ---------------------------------------------------
/** A "Dispute" button for a seated player at an event table: asks what it is about and files it. */
export function disputeButton({ event, table, status }) {
  css();
  return el("button", { id: "dispute", onclick: async () => {
    const text = await ask({ text: t("ref.disputeask"), yes: t("ref.disputesend"), no: t("cancel"),
      field: { max: 500, required: true, placeholder: t("ref.disputehint") } });
    if (text === null) return;
    try { await api("POST", `/api/events/${event}/disputes`, { table, text }); status(t("ref.disputesent")); }
    catch (e) { status(errorText(e)); }
  } }, t("ref.dispute"));
}
