// Events: the list (organizers create one from a preset with its players) and one event's page,
// refreshed every 2 s: a knockout's bracket, the standings of the other formats with every
// tie-break column, the pairings of each round with each match's score and winner, each game's
// result with its replay (or its live table), and for a signed-in entrant the link to their own
// game at the top; with the event's chat with its referees (chat.js).

import { api, el, errorText, t } from "./app.js";
import { eventChat } from "./chat.js";
import { localDate } from "./history.js";
import { icon } from "./icons.js";
import { gameName } from "./lobby.js";
import { refereePanel } from "./referee.js";

// an event named after its preset (the preset's title, as `qipai event new` names it) is named
// in the reader's language; any other name is the organizer's own
let presetTitles = null;
async function eventName(ev) {
  presetTitles = presetTitles || await api("GET", "/api/presets").then((ps) => Object.fromEntries(ps.map((p) => [p.name, p.title]))).catch(() => ({}));
  return presetTitles[ev.preset] === ev.name ? t(`preset.${ev.preset}`, null, ev.name) : ev.name;
}

const trophy = () => el("span", { class: "trophy" }, icon("trophy"));

/** 1.5 -> "1½", 0.5 -> "½", 2 -> "2" (game points of a series). */
export function fmtPts(x) {
  if (x === null || x === undefined) return "";
  const whole = Math.trunc(x), half = Math.abs(x - whole) === 0.5;
  const text = !half ? String(Math.round(x * 100) / 100) : (whole === 0 ? (x < 0 ? "-" : "") : String(whole)) + "½";
  return text.replace("-", "−");           // a minus sign, not a hyphen (scores of −1 exist)
}

const dash = "–";

export async function page(app, ctx) {
  if (ctx.id) return eventPage(app, ctx, ctx.id);
  return listPage(app, ctx);
}

// ----- the list and the create form ----------------------------------------------------------
async function listPage(app, { me }) {
  const games = await api("GET", "/api/games");
  const byId = Object.fromEntries(games.flatMap((g) => [g.id, ...(g.aliases || [])].map((k) => [k, g])));   // tiaoqi too
  const list = el("tbody");
  const parts = [];
  if (me && me.role === "organizer") {
    const presets = await api("GET", "/api/presets");
    const sel = el("select", { name: "preset" }, presets.map((p) => el("option", { value: p.name, title: p.title },
      t(`preset.${p.name}`, null, p.title))));
    const name = el("input", { name: "name", placeholder: t("events.nameph") });
    const players = el("textarea", { name: "players", rows: 5, placeholder: t("events.playersph") });
    const err = el("div", { class: "error", role: "alert" });
    const go = el("button", { class: "primary", id: "create-event" }, t("events.create"));
    go.onclick = async () => {
      const entries = players.value.split("\n").map((l) => l.trim()).filter(Boolean).map((l) => {
        const [pid, bot] = l.split(/\s+/);
        return bot ? { id: pid, bot } : pid;
      });
      try {
        const ev = await api("POST", "/api/events", { preset: sel.value, name: name.value || null, players: entries });
        location.href = `/events/${ev.id}`;
      } catch (e) { err.textContent = errorText(e); }
    };
    parts.push(el("section", { class: "card-box", id: "new-event" }, el("h3", {}, t("events.new")),
      el("div", { class: "form-grid" }, el("label", { class: "field" }, el("span", {}, t("preset")), sel),
        el("label", { class: "field" }, el("span", {}, t("name")), name)),
      el("label", { class: "field" }, el("span", {}, t("events.playershelp")), players),
      el("div", { class: "row" }, go), err));
  }
  parts.push(el("section", { class: "card-box" }, el("h3", {}, t("events")), el("div", { class: "scroll" },
    el("table", { class: "list", id: "event-list" }, el("thead", {}, el("tr", {}, el("th", {}, t("name")), el("th", {}, t("game")),
      el("th", {}, t("players")), el("th", {}, t("status")), el("th", {}, t("events.created")))), list))));
  app.replaceChildren(...parts);
  const rows = await api("GET", "/api/events");
  for (const e of rows) e.shown = await eventName(e);
  list.replaceChildren(...(rows.length ? rows : [null]).map((e) => e ? el("tr", { "data-event": e.id },
    el("td", {}, el("a", { href: `/events/${e.id}` }, e.shown)), el("td", {}, gameName(byId[e.game]) || e.game),
    el("td", {}, t("events.entrants", { n: e.entrants })), el("td", {}, t(`status.${e.status}`, null, e.status)),
    el("td", { class: "muted" }, localDate(e.created))) : el("tr", {}, el("td", { class: "muted", colspan: 5 }, t("none")))));
}

// ----- one event -----------------------------------------------------------------------------
function roundName(ev, rnd) {
  if (ev.stage === "knockout") {
    const total = Math.ceil(Math.log2(Math.max(2, ev.entrants.length)));
    const left = total - rnd;
    if (left === 0) return t("events.final");
    if (left === 1) return t("events.semifinal");
    if (left === 2) return t("events.quarterfinal");
  }
  // a table knockout's length depends on the tables' results: its final is known once played
  if (ev.stage === "table_knockout" && ev.status === "finished" && rnd === ev.rounds.length) return t("events.final");
  return t("events.round", { n: rnd });
}

// the entrants of a match with each one's score: game points of a series, the session's total
// (a series still being played: its games so far, a win 1 and a draw ½ each)
function sides(m) {
  const r = m.result || {};
  const done = m.games.filter((g) => g.status === "finished");
  const sofar = (name) => done.reduce((n, g) => n + (g.winner_entrants.length ? (g.winner_entrants[0] === name ? 1 : 0) : 0.5), 0);
  return m.entrants.map((name, i) => ({
    name, win: m.winner !== null && m.winner === name,
    score: m.kind === "series" && r.points ? fmtPts(r.points[i])
      : m.kind === "series" && done.length ? fmtPts(sofar(name))
        : m.kind === "session" && r.totals ? fmtPts(r.totals[i]) : "",
  }));
}

function bracket(ev) {
  // a knockout of pairs has log2(entrants) rounds, drawn ahead as empty boxes; a table knockout
  // shows the rounds made so far
  const total = ev.stage === "knockout" ? Math.ceil(Math.log2(Math.max(2, ev.entrants.length))) : ev.rounds.length;
  const cols = [];
  for (let rnd = 1; rnd <= Math.max(total, ev.rounds.length); rnd++) {
    const found = ev.rounds.find((r) => r.round === rnd);
    const expect = Math.max(1, 2 ** (total - rnd));
    const boxes = found ? found.matches.map((m) => matchBox(m, rnd))
      : Array.from({ length: expect }, () => el("div", { class: "bm tbd" }, el("div", { class: "bs muted" }, t("events.tbd")), el("div", { class: "bs muted" }, t("events.tbd"))));
    cols.push(el("div", { class: "bcol", "data-bracket-round": rnd }, el("div", { class: "bhead" }, roundName(ev, rnd)), el("div", { class: "bbody" }, boxes)));
  }
  if (ev.champion) {
    cols.push(el("div", { class: "bcol champion-col" }, el("div", { class: "bhead" }, t("champion")),
      el("div", { class: "bbody" }, el("div", { class: "bm champ" }, trophy(), " ", el("b", {}, ev.champion)))));
  }
  return el("div", { class: "bracket", id: "bracket", role: "group", "aria-label": t("events.bracket") }, cols);
}

function matchBox(m, rnd) {
  const attrs = { class: `bm ${m.kind} ${m.status}`, "data-match": `${rnd}.${m.index}` };
  if (m.kind === "bye") {
    return el("div", attrs, el("div", { class: "bs win" }, el("span", { class: "n" }, m.entrants[0] || "—"), el("span", { class: "tag" }, t("events.bye"))),
      el("div", { class: "bs muted" }, el("span", { class: "n" }, t("events.byeline"))));
  }
  return el("div", attrs, sides(m).map((s) => el("div", { class: "bs" + (s.win ? " win" : "") },
    el("span", { class: "n" }, s.name), el("span", { class: "sc" }, s.score))));
}

const HEADERS = { points: "events.col.points", buchholz_cut1: "events.col.buchholz_cut1", buchholz: "events.col.buchholz",
  sb: "events.col.sb", wins: "events.col.wins", measure: "events.col.measure", byes: "events.col.byes" };

// an entrant's name: a person's links to their profile, a bot's is plain
function who(ev, name, bold = false) {
  const person = ev.entrants.some((e) => e.id === name && !e.bot);
  const inner = person ? el("a", { href: `/u/${encodeURIComponent(name)}`, class: "player" }, name) : name;
  return el(bold ? "b" : "span", {}, inner);
}

function standingsTable(ev, me) {
  const rows = ev.standings;
  const cols = Object.keys(HEADERS).filter((k) => rows.length && k in rows[0]);
  const anyLot = rows.some((s) => s.lot);
  return el("section", { class: "card-box" }, el("h3", {}, t("standings")), el("div", { class: "scroll" },
    el("table", { class: "list standings", id: "standings" },
      el("thead", {}, el("tr", {}, el("th", { title: t("events.col.rankhelp") }, "#"), el("th", {}, t("events.col.player")),
        cols.map((k) => el("th", { title: t(HEADERS[k] + "help") }, t(HEADERS[k]))))),
      el("tbody", {}, rows.map((s) => el("tr", { "data-entrant": s.id, class: me && me.username === s.id ? "me" : null },
        el("td", {}, s.rank, s.lot ? el("span", { class: "lot", title: t("events.lothelp") }, "*") : null),
        el("td", {}, who(ev, s.id), s.disqualified ? el("span", { class: "tag dq", "data-dq": "" }, t("events.disqualified")) : null),
        cols.map((k) => el("td", {}, fmtPts(s[k])))))))),
    anyLot ? el("div", { class: "muted small", id: "lot-note" }, "* ", t("events.lothelp")) : null);
}

function gameCell(ev, g, me) {
  const mine = me && g.seats.includes(me.username);
  const label = el("span", { class: "gno" }, t("events.game", { n: g.number }));
  let what;
  if (g.status === "finished") {
    const words = g.source === "forfeit" ? t("events.forfeit")
      : g.winners.length ? t("events.won", { name: g.winners.join(", ") }) : t("events.draw");
    const href = g.record ? `/records/${g.record}` : g.replay ? `/events/${ev.id}/games/${g.id}` : null;
    what = [el("span", {}, words, g.result && g.source !== "forfeit" ? el("span", { class: "muted" }, ` (${g.result})`) : null),
      href ? el("a", { href, class: "replay", "data-replay": g.id }, t("replay")) : null];
  } else if (g.table) {
    what = [el("span", { class: "live" }, t("events.inplay")),
      el("a", { href: `/tables/${g.table}`, class: mine ? "play" : "watch", "data-play": mine ? g.id : null }, mine ? t("events.play") : t("watch"))];
  } else {
    what = [el("span", { class: "muted" }, t("events.waiting"))];
  }
  return el("div", { class: "game", "data-game": g.id }, label, " ", what.filter(Boolean).flatMap((x, i) => (i ? [" · ", x] : [x])));
}

function matchRow(ev, m, me) {
  let ss = sides(m);
  const meIn = me && ss.findIndex((s) => s.name === me.username);
  if (meIn > 0) ss = [ss[meIn], ...ss.filter((_, i) => i !== meIn)];      // the reader's side first
  let headline;
  if (m.kind === "bye") headline = el("span", {}, el("b", {}, m.entrants[0] || "—"), " ", el("span", { class: "tag" }, t("events.bye")));
  else if (ss.length === 2) {
    // "2–1"; with a negative score "1 : −1", which a dash would make hard to read
    const sep = /−/.test(ss[0].score + ss[1].score) ? " : " : dash;
    const score = ss[0].score !== "" ? ` ${ss[0].score}${sep}${ss[1].score} ` : ` ${t("vs")} `;
    headline = el("span", {}, who(ev, ss[0].name, ss[0].win), score, who(ev, ss[1].name, ss[1].win));
  } else headline = el("span", {}, ss.flatMap((s, i) => [i ? ", " : "", who(ev, s.name, s.win), s.score ? ` ${s.score}` : ""]));
  let verdict = "";
  if (m.status === "finished" && m.kind !== "bye") {
    const knockout = ev.stage === "knockout" || ev.stage === "table_knockout";
    const none = knockout ? t("events.nowinner") : t("events.drawn");
    if (meIn !== null && meIn !== false && meIn >= 0) {
      verdict = m.winner === me.username ? t("events.youwon") : m.winner ? t("events.youlost") : none;
    } else verdict = m.winner ? t(knockout ? "events.winner" : "events.won", { name: m.winner }) : none;
  }
  return el("tr", { "data-match": `${m.index}`, class: meIn !== null && meIn !== false && meIn >= 0 ? "me" : null },
    el("td", { class: "match" }, headline, verdict ? el("div", { class: "verdict" }, verdict) : null),
    el("td", { class: "games" }, m.games.map((g) => gameCell(ev, g, me))));
}

async function eventPage(app, { me }, id) {
  const games = await api("GET", "/api/games");
  const byId = Object.fromEntries(games.flatMap((g) => [g.id, ...(g.aliases || [])].map((k) => [k, g])));   // tiaoqi too
  const head = el("div", { class: "event-head" });
  const mine = el("div", { id: "my-game" });
  const controls = el("div", { class: "row" });
  const err = el("div", { class: "error", role: "alert" });
  const body = el("div");
  app.replaceChildren(head, mine, controls, err, body, refereePanel({ id, me }), eventChat({ t, api, id, me, errorText }));
  let name = null;
  let readyBefore = null;              // whether the reader had a game to play at the last look
  const shownTitle = document.title;
  const render = (ev) => {
    const status = t(`status.${ev.status}`, null, ev.status);
    head.replaceChildren(el("h2", {}, name || ev.name), el("div", { class: "muted" },
      `${gameName(byId[ev.game]) || ev.game} · ${t(`stage.${ev.stage}`, null, ev.stage)} · ${t("events.entrants", { n: ev.entrants.length })} · `,
      el("span", { id: "event-status" }, status)),
      ev.champion ? el("div", { class: "champion", id: "champion" }, trophy(), " ", t("events.championis", { name: ev.champion })) : "");
    // the signed-in entrant's live game, first thing on the page
    mine.replaceChildren();
    if (me) {
      for (const r of ev.rounds) for (const m of r.matches) for (const g of m.games) {
        if (g.status === "pending" && g.table && g.seats.includes(me.username)) {
          mine.append(el("a", { class: "button primary", href: `/tables/${g.table}`, id: "play-link" },
            t("events.playyours", { round: roundName(ev, r.round), n: g.number })));
        }
      }
      // a game of mine seated while the page was open: the tab's title says so
      const ready = mine.childElementCount > 0;
      if (ready && readyBefore === false) document.title = `${t("events.ready")} · qipai`;
      if (!ready && readyBefore) document.title = shownTitle;
      readyBefore = ready;
    }
    controls.replaceChildren();
    if (me && me.role === "organizer" && ev.status === "running") {
      const n = ev.current_round;
      const started = ev.started_round >= n;
      controls.append(el("button", { class: "primary", id: "start-round", disabled: started ? true : null, onclick: async () => {
        try { render((await api("POST", `/api/events/${id}/start`)).event); err.textContent = ""; } catch (e) { err.textContent = errorText(e); }
      } }, started ? t("events.underway", { n }) : t("events.startround", { n })));
    }
    const parts = [];
    if (ev.stage === "knockout" || ev.stage === "table_knockout") {
      parts.push(el("section", { class: "card-box" }, el("h3", {}, t("events.bracket")), el("div", { class: "scroll" }, bracket(ev))));
    }
    if (ev.standings) parts.push(standingsTable(ev, me));
    parts.push(el("h3", {}, t("pairings")), ...[...ev.rounds].reverse().map((r) => el("section", { class: "card-box", "data-round": r.round },
      el("b", {}, roundName(ev, r.round)),
      el("div", { class: "scroll" }, el("table", { class: "list pairings" }, el("tbody", {}, r.matches.map((m) => matchRow(ev, m, me))))))));
    body.replaceChildren(...parts);
  };
  let timer = null;
  const poll = async () => {
    try {
      const ev = await api("GET", `/api/events/${id}`);
      name = name || await eventName(ev);
      render(ev);
      if (ev.status !== "running" && timer) { clearInterval(timer); timer = null; }
    } catch (e) { err.textContent = errorText(e); }
  };
  await poll();
  timer = setInterval(poll, 2000);
}
