// Events: the list (organizers create one from a preset with its players) and one event's page,
// refreshed every 2 s: a knockout's bracket, the standings of the other formats with every
// tie-break column, the pairings of each round with each match's score and winner, each game's
// result with its replay (or its live table), and for a signed-in entrant the link to their own
// game at the top; with the event's chat with its referees (chat.js).

import { ask } from "./ask.js";
import { api, el, errorText, every, lang, notFound, pageTitle, t } from "./app.js";
import { eventStatus, roundName } from "./eventstatus.js";
import { eventChat, reportList } from "./chat.js";
import { localDate } from "./history.js";
import { icon } from "./icons.js";
import { eventName, gameName } from "./lobby.js";
import { refereePanel } from "./referee.js";
import { newEventForm } from "./eventform.js";
import { drawPanel, entrantHeader, registrationPanel } from "./registration.js";
import { unitsTable } from "./units.js";
import { endText, LIST_SEP } from "./i18n.js";
import { BY_LOSER, NATURAL } from "./result.js";
import { play } from "./sound.js";

export { eventName };

const trophy = () => el("span", { class: "trophy" }, icon("trophy"));

/** 1.5 -> "1½", 0.5 -> "½", 2 -> "2" (game points of a series). */
export function fmtPts(x) {
  if (x === null || x === undefined) return "";
  const whole = Math.trunc(x), half = Math.abs(x - whole) === 0.5;
  const text = !half ? String(Math.round(x * 100) / 100) : (whole === 0 ? (x < 0 ? "-" : "") : String(whole)) + "½";
  return text.replace("-", "−");           // a minus sign, not a hyphen (scores of −1 exist)
}

const dash = "–";
/** ms between "your game is ready" and going to the table: time to read it, or to stay. */
const GO_AFTER_MS = 2000;

export async function page(app, ctx) {
  if (ctx.id) return eventPage(app, ctx, ctx.id);
  return listPage(app, ctx);
}

// ----- the list and the create form ----------------------------------------------------------
async function listPage(app, { me }) {
  const games = await api("GET", "/api/games");
  const byId = Object.fromEntries(games.flatMap((g) => [g.id, ...(g.aliases || [])].map((k) => [k, g])));   // tiaoqi too
  const list = el("tbody");
  // the events first (as the lists of lichess and OGS), then an organizer's form to make one,
  // reached from a link beside the list's title
  const organizer = me && me.role === "organizer";
  const parts = [];
  parts.push(el("section", { class: "card-box" }, el("h3", {}, t("events"), organizer ? " " : null,
    organizer ? el("a", { href: "#new-event", class: "small", id: "to-new-event" }, t("events.new")) : null), el("div", { class: "scroll" },
    el("table", { class: "list", id: "event-list" }, el("thead", {}, el("tr", {}, el("th", {}, t("name")), el("th", {}, t("game")),
      el("th", {}, t("players")), el("th", {}, t("status")), el("th", {}, t("events.created")))), list))));
  // an event made from the form: the list shows it at once, while the page goes to it
  if (organizer) parts.push(await newEventForm(await api("GET", "/api/presets"), games, () => fill().catch(() => {})));
  // the organizers are the site's admins: the lines reported at lobby tables come to them
  if (organizer) parts.push(reportList({ t, api, errorText }, every(5000)));
  app.replaceChildren(...parts);
  await fill();
  async function fill() {
    const rows = await api("GET", "/api/events");
    for (const e of rows) e.shown = await eventName(e);
    list.replaceChildren(...(rows.length ? rows : [null]).map((e) => e ? el("tr", { "data-event": e.id },
      el("td", {}, el("a", { href: `/events/${e.id}` }, e.shown)), el("td", {}, gameName(byId[e.game]) || e.game),
      el("td", {}, t(e.pairs ? "events.pairs" : "events.entrants", { n: e.entrants })), el("td", { class: "event-state" }, eventStatus(e)),
      el("td", { class: "muted" }, localDate(e.created))) : el("tr", {}, el("td", { class: "muted", colspan: 5 }, t("none")))));
  }
}

// ----- one event -----------------------------------------------------------------------------
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
  // printed, the bracket is scaled to fit one landscape page: about 11 boxes a column fit as they are, under the event's name
  const rows = Math.max(...cols.map((c) => c.querySelectorAll(".bm").length));
  return el("div", { class: "bracket", id: "bracket", role: "group", "aria-label": t("events.bracket"),
    style: `--bfit: ${Math.min(1, 11 / Math.max(1, rows)).toFixed(3)}` }, cols);
}

function matchBox(m, rnd) {
  const attrs = { class: `bm ${m.kind} ${m.status}`, "data-match": `${rnd}.${m.index}` };
  if (m.kind === "bye") {
    return el("div", attrs, el("div", { class: "bs win" }, el("span", { class: "n" }, m.entrants[0] || "—"), el("span", { class: "tag" }, t("events.bye"))),
      el("div", { class: "bs muted" }, el("span", { class: "n" }, t("events.byeline"))));
  }
  // a side absent when the match was declared a no-show (§5.6) is marked in its box, as in the
  // match's row and the standings
  const absent = m.absent || [];
  return el("div", attrs, sides(m).map((s) => el("div", { class: "bs" + (s.win ? " win" : "") },
    el("span", { class: "n" }, s.name, absent.includes(s.name) ? noShowTag() : null), el("span", { class: "sc" }, s.score))));
}

function noShowTag() {
  return el("span", { class: "tag", "data-noshow": "", title: t("events.noshowhelp") }, t("events.noshowtag"));
}

const HEADERS = { points: "events.col.points", buchholz_cut1: "events.col.buchholz_cut1", buchholz: "events.col.buchholz",
  sb: "events.col.sb", wins: "events.col.wins", measure: "events.col.measure", byes: "events.col.byes", direct: "events.col.direct" };

// the columns in the order the tie-breaks are asked: a round robin asks the direct encounter
// right after the points, a Swiss system after the wins; the direct encounter shows only where
// it was asked (the entrants it had to separate)
function columns(rows) {
  if (!rows.length) return [];
  const have = Object.keys(HEADERS).filter((k) => k in rows[0] && k !== "direct");
  if (!rows.some((r) => r.direct !== null && r.direct !== undefined)) return have;
  const after = "buchholz" in rows[0] ? "wins" : "points";
  const i = have.indexOf(after);
  return [...have.slice(0, i + 1), "direct", ...have.slice(i + 1)];
}

// an entrant's name: a person's links to their profile, a bot's is plain
function who(ev, name, bold = false) {
  const entrant = ev.entrants.find((e) => e.id === name);
  const inner = entrant && !entrant.bot ? el("a", { href: `/u/${encodeURIComponent(name)}`, class: "player" }, name) : name;
  // a disqualified entrant is marked wherever named (§2.7)
  const dq = entrant && entrant.status === "disqualified" ? el("span", { class: "tag dq", "data-dq": "" }, t("events.disqualified")) : null;
  // one absent when no_show_grace ran out (§5.6) is marked too, in the standings as everywhere
  const ns = entrant && entrant.no_shows ? noShowTag() : null;
  return el(bold ? "b" : "span", {}, inner, dq, ns);
}

function standingsTable(ev, me) {
  const rows = ev.standings;
  const cols = columns(rows);
  // a place the lot decided: the server marks only a tie whose results are all in (before a
  // game, or mid-round while some of the tied still play, the order is not yet the lot's word)
  const lot = (s) => !!s.lot;
  const anyLot = rows.some(lot);
  // while a round is played its results are held (the organizer and referees see them live):
  // the standings are those at the end of the round before, and say so
  const after = ev.standings_after;
  const asOf = after == null ? null : el("p", { class: "muted small", id: "standings-after" },
    after > 0 ? t("events.standingsafter", { n: after }) : t("events.standingsbefore"));
  return el("section", { class: "card-box" }, el("h3", {}, t("standings")), asOf, el("div", { class: "scroll" },
    el("table", { class: "list standings", id: "standings" },
      el("thead", {}, el("tr", {}, el("th", { title: t("events.col.rankhelp") }, "#"), el("th", {}, entrantHeader(ev)),
        cols.map((k) => el("th", { title: t(HEADERS[k] + "help") }, t(HEADERS[k]))))),
      el("tbody", {}, rows.map((s) => el("tr", { "data-entrant": s.id, class: me && me.username === s.id ? "me" : null },
        el("td", {}, s.rank, lot(s) ? el("span", { class: "lot", title: t("events.lothelp") }, "*") : null),
        el("td", {}, who(ev, s.id)),
        cols.map((k) => el("td", {}, fmtPts(s[k])))))))),
    anyLot ? el("div", { class: "muted small", id: "lot-note" }, "* ", t("events.lothelp")) : null);
}

// a game's line: its number and the result (or where it is), then what there is to do with it
// (Replay, the confirmation; Watch or Play) as a group of its own, set apart by space, no "·": a
// dot between them started the line a narrow screen wrapped ("· 复盘 · [确认成绩]")
function gameCell(ev, m, g, me) {
  const mine = me && g.seats.includes(me.username);
  const label = el("span", { class: "gno" }, t("events.game", { n: g.number }));
  let what;
  if (g.status === "finished") {
    // who won, how it ended in words where it is more than the game's natural end ("alice won —
    // resignation"); the words alone, not the result's notation ("1-0") after them
    // a result entered by the referee from paper says so, not its reason ("unknown")
    // a two-player game resigned or lost on time says who ("alice won — bob resigned")
    const loser = BY_LOSER.has(g.reason) && g.seats.length === 2 && g.winners.length === 1 && g.seats.includes(g.winners[0])
      ? g.seats.find((x) => !g.winners.includes(x)) : null;
    const how = g.source === "entered" ? t("events.enteredbyref")
      : g.source !== "forfeit" && loser ? ` — ${t(`end.${g.reason}By`, { name: loser })}`
      : g.source !== "forfeit" && g.reason && !NATURAL.has(g.reason) && g.reason !== "unknown" ? ` — ${endText(g.reason)}` : "";
    const words = (g.source === "forfeit" ? (g.reason === "no_show" && m.absent && m.absent.length ? t("events.forfeitnoshow", { names: m.absent }) : t("events.forfeit"))
      : g.winners.length ? t("events.won", { name: g.winners }) : t("events.draw")) + how;
    const href = g.record ? `/records/${g.record}` : g.replay ? `/events/${ev.id}/games/${g.id}` : null;
    what = [el("span", { class: "result-words" }, words),
      href ? el("a", { href, class: "replay", "data-replay": g.id }, t("replay")) : null, confirmation(ev, g, me)];
  } else if (g.table) {
    // a table waiting for its players: not "in play" before its game starts
    what = [g.seating ? el("span", { class: "muted", "data-seating": "" }, t("events.seating")) : el("span", { class: "live" }, t("events.inplay")),
      el("a", { href: `/tables/${g.table}`, class: mine ? "play" : "watch", "data-play": mine ? g.id : null }, mine ? t("events.play") : t("watch"))];
  } else {
    what = [el("span", { class: "muted" }, t("events.waiting"))];
  }
  const [first, ...acts] = what.filter(Boolean);
  return el("div", { class: "game", "data-game": g.id }, label, " ", first,
    acts.length ? [" ", el("span", { class: "game-acts" }, acts)] : null,
    g.corrections && g.corrections.length ? el("ul", { class: "corrections small" }, g.corrections.map((c) => el("li", { "data-correction": "" },
      t("events.correctedby", { by: c.by, from: c.from || "—", to: c.to || "—" }), c.reason ? `: ${c.reason}` : ""))) : null);
}

/** §5.7: a finished result is provisional until every player of it (or a referee) confirms it,
 *  or it is final (g.standing: the appeal window closed, or bots and engines played it);
 *  a player of the game confirms it here: in a pair event, for the pair (a partner's
 *  confirmation is the pair's, g.confirmed_by lists entrants). */
function confirmation(ev, g, me) {
  if (g.source === "forfeit") return null;
  if (g.confirmed) return el("span", { class: "tag", "data-confirmed": "" }, t("events.confirmed"));
  // no longer open to dispute: the appeal window has closed, or no player of it plays in person
  if (g.standing === "final") return el("span", { class: "tag", "data-final": "", title: t("events.settledwhy") }, t("events.settled"));
  const seat = me ? g.seats.indexOf(me.username) : -1;
  const mine = seat >= 0;
  const entrant = mine ? (g.entrants || g.seats)[seat] ?? me.username : null;
  if (!mine || g.confirmed_by.includes(entrant)) {
    const partner = mine && entrant !== me.username;      // a pair: one member confirmed for both
    return el("span", { class: "muted", "data-provisional": "" },
      mine ? t(partner ? "events.pairconfirmed" : "events.youconfirmed", { pair: entrant }) : t("events.provisional"));
  }
  const out = el("span", {});
  out.append(el("button", { class: "small", "data-confirm": g.id, onclick: async () => {
    // a confirmation cannot be taken back: asked first, saying the result confirmed
    const words = g.winners.length ? t("events.won", { name: g.winners }) : t("events.draw");
    if (!await ask({ text: t("events.confirmask", { result: words }), yes: t("events.confirm"), no: t("cancel") })) return;
    try {
      await api("POST", `/api/events/${encodeURIComponent(ev.id)}/confirmations`, { game: g.id });
      out.replaceChildren(el("span", { class: "muted", "data-provisional": "" },
        entrant !== me.username ? t("events.pairconfirmed", { pair: entrant }) : t("events.youconfirmed")));
    } catch (e) { out.append(el("span", { class: "error" }, " ", errorText(e))); }
  } }, t("events.confirm")));
  return out;
}

function matchRow(ev, m, me, final = false) {
  // the sides in the match's own order (the draw's), as the bracket lists them; the reader's
  // row is marked instead of their side put first (which made "alice vs bob" a box "bob, alice")
  const ss = sides(m);
  const meIn = me && ss.findIndex((s) => s.name === me.username);
  let headline;
  if (m.kind === "bye") headline = el("span", {}, el("b", {}, m.entrants[0] || "—"), " ", el("span", { class: "tag" }, t("events.bye")));
  else if (ss.length === 2) {
    // "2–1"; with a negative score "1 : −1", which a dash would make hard to read
    const sep = /−/.test(ss[0].score + ss[1].score) ? " : " : dash;
    const score = ss[0].score !== "" ? ` ${ss[0].score}${sep}${ss[1].score} ` : ` ${t("vs")} `;
    headline = el("span", {}, who(ev, ss[0].name, ss[0].win), score, who(ev, ss[1].name, ss[1].win));
  } else headline = el("span", {}, ss.flatMap((s, i) => [i ? LIST_SEP : "", who(ev, s.name, s.win), s.score ? ` ${s.score}` : ""]));
  let verdict = "";
  if (m.status === "finished" && m.kind !== "bye") {
    const knockout = ev.stage === "knockout" || ev.stage === "table_knockout";
    const none = knockout ? t("events.nowinner") : t("events.drawn");
    if (meIn !== null && meIn !== false && meIn >= 0) {
      verdict = m.winner === me.username ? t("events.youwon") : m.winner ? t("events.youlost") : none;
    } else if (knockout && final && m.winner) verdict = t("events.winsevent", { name: m.winner });   // not "goes through"
    else verdict = m.winner ? t(knockout ? "events.winner" : "events.won", { name: m.winner }) : none;
    // §5.6: a match the no-show rule decided says so, in words
    const r = m.result || {};
    const absent = m.absent || [];
    const noshow = r.decided_by === "walkover" ? t("events.walkover", { names: absent })
      : r.decided_by === "double_no_show" ? t("events.bothabsent")
        : r.ended_by === "no_show" ? (m.winner ? t("events.walkover", { names: absent }) : t("events.allabsent")) : null;
    if (noshow) verdict = m.winner ? `${verdict} — ${noshow}` : noshow;
  }
  return el("tr", { "data-match": `${m.index}`, class: meIn !== null && meIn !== false && meIn >= 0 ? "me" : null },
    el("td", { class: "match" }, headline, verdict ? el("div", { class: "verdict" }, verdict) : null),
    el("td", { class: "games" }, m.games.map((g) => gameCell(ev, m, g, me))));
}

// printing the page (print.css), or its bracket alone on one landscape page: the page opened
// with ?print=bracket shows the bracket alone and prints itself once drawn
const bracketOnly = new URLSearchParams(location.search).get("print") === "bracket";
if (bracketOnly) {
  document.body.dataset.print = "bracket";
  document.head.append(el("style", { id: "print-size" }, "@page { size: A4 landscape; margin: 8mm; }"));
}

function printButtons(ev) {
  const knockout = ev.stage === "knockout" || ev.stage === "table_knockout";
  return el("span", { class: "row noprint" }, el("button", { id: "print-page", onclick: () => window.print() }, icon("print"), " ", t("events.print")),
    knockout ? el("a", { class: "button", id: "print-bracket", href: `/events/${encodeURIComponent(ev.id)}?print=bracket`, target: "_blank" }, t("events.printbracket")) : null);
}

function exportLinks(ev) {
  const link = (what) => el("a", { href: `/api/events/${encodeURIComponent(ev.id)}/export/${what}.csv`, download: "", "data-export": what, title: t("events.csv.title") }, t(`events.csv.${what}`));
  return el("span", { class: "noprint csv-links" }, t("events.csv"), lang === "zh" ? "" : " ", link("pairings"), " · ", link("results"), " · ", link("standings"));
}

// every game the viewer may replay in one zip (PGN, SGF, RIF or JSON, with an index), and FIDE's
// report file (TRF) for a Swiss or round robin of a two-player game: a rating officer's files
function gameLinks(ev) {
  const base = `/api/events/${encodeURIComponent(ev.id)}/export`;
  const games = ev.rounds.some((r) => r.matches.some((m) => m.games.some((g) => g.replay)));
  if (!games && !ev.trf) return null;
  const zip = games ? el("a", { href: `${base}/games.zip`, download: "", "data-export": "games", title: t("events.games.title") }, t("events.games.zip")) : null;
  const trf = ev.trf ? el("a", { href: `${base}/trf.txt`, download: "", "data-export": "trf", title: t("events.trf.title") }, t("events.trf")) : null;
  return el("span", { class: "noprint game-links" }, t("events.games"), lang === "zh" ? "" : " ", zip, zip && trf ? " · " : null, trf);
}

async function eventPage(app, { me }, id) {
  const games = await api("GET", "/api/games");
  const byId = Object.fromEntries(games.flatMap((g) => [g.id, ...(g.aliases || [])].map((k) => [k, g])));   // tiaoqi too
  const head = el("div", { class: "event-head" });
  const mine = el("div", { id: "my-game" });
  const controls = el("div", { class: "row" });
  const err = el("div", { class: "error", role: "alert" });
  const body = el("div", { class: "bracket-host" });
  let first;
  try { first = await api("GET", `/api/events/${id}`); } catch (e) {
    if (e.code !== "no_event") throw e;
    // an unknown id: the refusal and the way to the list, without the event's panels and chat
    notFound(errorText(e), ["/events", "events.tolist"]);
    return;
  }
  app.replaceChildren(head, mine, controls, err, body, refereePanel({ id, me }), eventChat({ t, api, id, me, errorText }, every(3000)));
  let name = null;
  let readyBefore = null;              // whether the reader had a game to play at the last look
  let going = null;                    // the timer that takes the reader to a game just seated
  let shownTitle = document.title;
  let regShown = null;                 // what the registration part shows (redrawn when it changes)
  let shown = null;                    // the event as last drawn: a poll that brings nothing new draws nothing
  const render = async (ev) => {
    // redrawing an unchanged event would reset the reader's place (a bracket scrolled sideways on
    // a phone, a text selected) every poll; a meet's unit table comes from elsewhere and is redrawn
    const seen = JSON.stringify(ev);
    if (seen === shown && !ev.meet) return;
    shown = seen;
    // a running event in words of where it is: the round waiting for its start, or in play
    const status = eventStatus(ev);
    const open = ev.rounds.flatMap((r) => r.matches.flatMap((m) => m.games)).filter((g) => g.standing === "provisional").length;
    if (document.title === shownTitle) { pageTitle(name || ev.name); shownTitle = document.title; }
    // the game, the format, the entrants and where the event is: only the parts there are, "·" between
    const facts = [gameName(byId[ev.game]) || ev.game, ev.stage ? t(`stage.${ev.stage}`, null, ev.stage) : null,
      t(ev.pairs ? "events.pairs" : "events.entrants", { n: ev.entrants.length }), status ? el("span", { id: "event-status" }, status) : null].filter(Boolean);
    head.replaceChildren(el("h2", {}, name || ev.name), el("div", { class: "muted", id: "event-facts" },
      facts.flatMap((x, i) => (i ? [" · ", x] : [x]))),
      ev.champion ? el("div", { class: "champion", id: "champion" }, trophy(), " ", t("events.championis", { name: ev.champion })) : "",
      // competition.md §5.7: results are provisional until their appeal window closes; an
      // event over with such results names its champion and standings provisionally
      ev.status === "finished" && open > 0 ? el("div", { class: "muted", id: "provisional-note" }, t("events.provisionalend", { n: open })) : "");
    if (ev.status === "registration") {
      const now = JSON.stringify(ev.entrants);
      if (now !== regShown) {
        regShown = now;
        body.replaceChildren(await registrationPanel(ev, me, poll));
      }
      return;
    }
    // the signed-in entrant's live game, first thing on the page
    if (me) {
      const links = [];
      for (const r of ev.rounds) for (const m of r.matches) for (const g of m.games) {
        if (g.status === "pending" && g.table && g.seats.includes(me.username)) {
          links.push(el("a", { class: "button primary", href: `/tables/${g.table}`, id: "play-link" },
            t("events.playyours", { round: roundName(ev, r.round), n: g.number })));
        }
      }
      // a game of mine seated while the page was open (the organizer started the round): the
      // tab's title says so, a sound and an alert, and the page goes to the table in a moment
      // (lichess's way) unless the player chooses to stay
      const ready = links.length > 0;
      if (ready && readyBefore === false) {
        document.title = `${t("events.ready")} · qipai`;
        play("turn");
        const stay = el("button", { id: "stay-here", onclick: () => { clearTimeout(going); going = null; notice.remove(); } }, t("events.stayhere"));
        const notice = el("div", { class: "ready-notice", role: "alert", id: "ready-notice" }, el("b", {}, t("events.ready")), " ", t("events.goingtotable"), " ", stay);
        going = setTimeout(() => { location.href = links[0].getAttribute("href"); }, GO_AFTER_MS);
        mine.replaceChildren(notice, ...links);
      } else if (!mine.querySelector("#ready-notice") || !ready) {
        if (!ready && going) { clearTimeout(going); going = null; }
        mine.replaceChildren(...links);
      } else mine.replaceChildren(mine.querySelector("#ready-notice"), ...links);
      if (!ready && readyBefore) document.title = shownTitle;
      readyBefore = ready;
    }
    controls.replaceChildren(...[printButtons(ev), exportLinks(ev), gameLinks(ev)].filter(Boolean));
    if (me && me.role === "organizer" && ev.status === "running") {
      const n = ev.current_round;
      const started = ev.started_round >= n;
      controls.prepend(el("button", { class: "primary", id: "start-round", disabled: started ? true : null, onclick: async () => {
        if (!await ask({ text: t("events.startask", { n }), yes: t("events.startround", { n }), no: t("cancel") })) return;
        try { await render((await api("POST", `/api/events/${id}/start`)).event); err.textContent = ""; } catch (e) { err.textContent = errorText(e); }
      } }, started ? t("events.underway", { n }) : t("events.startround", { n })));
    }
    const parts = [];
    if (ev.stage === "knockout" || ev.stage === "table_knockout") {
      parts.push(el("section", { class: "card-box bracket-box" }, el("h3", {}, t("events.bracket")), el("div", { class: "scroll" }, bracket(ev))));
    }
    if (ev.standings) parts.push(standingsTable(ev, me));
    if (ev.meet) {                          // the meet's unit standings, as live as the event
      const units = await api("GET", `/api/meets/${encodeURIComponent(ev.meet)}`).catch(() => null);
      if (units) {
        const names = Object.fromEntries(await Promise.all(units.events.map(async (e) => [e.id, await eventName(e)])));
        parts.push(unitsTable(units, names));
      }
    }
    parts.push(drawPanel(ev, body.querySelector("#draw")?.open));   // kept open across refreshes
    parts.push(el("h3", {}, t("pairings")), ...[...ev.rounds].reverse().map((r) => el("section", { class: "card-box", "data-round": r.round },
      el("b", {}, roundName(ev, r.round)),
      el("div", { class: "scroll" }, el("table", { class: "list pairings" }, el("tbody", {}, r.matches.map((m) => matchRow(ev, m, me, roundName(ev, r.round) === t("events.final")))))))));
    // each scrolled part (the bracket, a round's pairings) keeps its sideways place across a redraw
    const scrolled = [...body.querySelectorAll(".scroll")].map((b) => b.scrollLeft);
    body.replaceChildren(...parts);
    body.querySelectorAll(".scroll").forEach((b, i) => { if (scrolled[i]) b.scrollLeft = scrolled[i]; });
  };
  let timer = null;
  let ended = false;
  const poll = async () => {
    try {
      const ev = first || await api("GET", `/api/events/${id}`);
      first = null;
      name = name || await eventName(ev);
      await render(ev);
      ended = ev.status === "finished";
      if (ended && timer) { clearInterval(timer); timer = null; }
    } catch (e) { err.textContent = errorText(e); }
  };
  await poll();
  if (!ended) timer = setInterval(poll, every(2000));     // a finished event changes no more
  if (bracketOnly) setTimeout(() => window.print(), 300);
}
