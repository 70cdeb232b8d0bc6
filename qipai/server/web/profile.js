// A player's profile (/u/<name>): current ratings per game and time class (provisional ones
// marked "?"), the rating-history chart of one rating at a time, games played and results by
// game, the events entered, and recent games with replay links. A player who hides their
// history shows others their ratings only; on their own profile a switch hides or shows it.

import { api, el, lang, notFound, ratingMark, t } from "./app.js";
import { eventStatus } from "./eventstatus.js";
import { byPopularity, gameName } from "./lobby.js";
import { gamesTable, localDate } from "./history.js";
import { ratingChart } from "./ratingchart.js";

/** A rating's game in words: "Chinese checkers", or "Chinese checkers · 3 players" for a
 *  rating kept per seat count ("chinese-checkers.3"). */
export function ratingGameName(key, byId) {
  const [id, seats] = String(key).split(".");
  const name = gameName(byId[id]) || id;
  return seats ? `${name} · ${t("lobby.players", { n: seats })}` : name;
}

export const tcName = (tc) => t(`tc.${tc}`, null, tc);

function ratingsTable(ratings, byId, n) {
  if (!ratings.length) return el("p", { class: "muted", id: "no-ratings" }, t("rating.none"));
  return el("div", {}, el("div", { class: "scroll" }, el("table", { class: "list", id: "ratings" },
    el("thead", {}, el("tr", {}, el("th", {}, t("game")), el("th", {}, t("rating.tc")), el("th", {}, t("rating.rating")),
      el("th", {}, t("rating.games")))),
    el("tbody", {}, ratings.map((r) => el("tr", { "data-rating": `${r.game}/${r.time_class}` },
      el("td", {}, el("a", { href: `/leaderboard?game=${encodeURIComponent(r.game)}&tc=${r.time_class}`, title: t("rating.board") },
        ratingGameName(r.game, byId))),
      el("td", {}, tcName(r.time_class)),
      ((m) => el("td", { title: m.why || `± ${r.deviation}` }, el("b", {}, m.shown), m.said))(ratingMark(r, n)),
      el("td", {}, r.games)))))),
  // a phone has no hover: the "?" said in words under the table
  ratings.some((r) => r.provisional) ? el("p", { class: "muted small", id: "provisional-note" }, t("rating.provnote", { n })) : null);
}

/** The chart's section (null without history); `section.draw()` draws it at the width it has,
 *  so call it once the section is on the page. */
function chartBox(history, byId) {
  if (!history || !history.length) return null;
  const keyOf = (x) => `${x.game}/${x.time_class}`;
  const keys = [...new Set(history.map(keyOf))];
  keys.sort((a, b) => history.filter((h) => keyOf(h) === b).length - history.filter((h) => keyOf(h) === a).length);
  const name = (k) => { const [g, tc] = k.split("/"); return `${ratingGameName(g, byId)} · ${tcName(tc)}`; };
  const pick = el("select", { id: "chart-pick", "aria-label": t("rating.chart") }, keys.map((k) => el("option", { value: k }, name(k))));
  const holder = el("div", { class: "chart-holder" });
  const draw = () => {
    const pts = history.filter((h) => keyOf(h) === pick.value);
    holder.replaceChildren(ratingChart(pts, {
      start: pts[0].before, width: Math.max(300, Math.min(640, holder.clientWidth || 640)), title: t("rating.charttitle", { what: name(pick.value) }),
      label: (p, i) => t("rating.point", { rating: p.after, n: i + 1, date: localDate(p.at) }),
      dateText: (iso) => new Date(iso).toLocaleDateString(lang === "zh" ? "zh-CN" : "en-GB", { month: "short", day: "numeric" }),
    }));
  };
  pick.onchange = draw;
  const section = el("section", { class: "card-box", id: "rating-chart" }, el("h3", {}, t("rating.chart")), keys.length > 1 ? pick : null, holder);
  section.draw = draw;
  return section;
}

// an English place in words: 1st, 2nd, 3rd, 4th... 11th, 12th, 13th, 21st
const ordinal = (n) => n + (n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th");

// an event entered: its player's place when it is over ("3rd of 8", 第3名（共8人）, Champion),
// else its state in the words of every page (eventstatus.js: Round 2 in play; Finished when the
// outcome does not rank the player)
function placeText(e) {
  if (!e.place) return eventStatus(e);
  return e.place === 1 ? t("profile.champion") : t("profile.place", { ord: lang === "zh" ? e.place : ordinal(e.place), of: e.of });
}

function privacySwitch(hidden) {
  const box = el("input", { type: "checkbox", id: "hide-history", checked: hidden ? true : null });
  const note = el("span", { class: "muted", role: "status" });
  box.onchange = async () => {
    try {
      await api("PUT", "/api/me/settings", { hide_history: box.checked });
      note.textContent = t("saved");
    } catch (e) { box.checked = !box.checked; note.textContent = e.message; }
  };
  return el("section", { class: "card-box" }, el("label", { class: "row" }, box, " ", t("profile.hide")), el("div", { class: "muted small" }, t("profile.hidedoc")), note);
}

export async function profilePage(app, { me, name }) {
  let prof;
  try { prof = await api("GET", `/api/users/${encodeURIComponent(name)}`); } catch (e) {
    if (e.status !== 404) throw e;
    notFound(t("hist.nouser", { name }));
    return;
  }
  const mine = me && me.username === prof.username;
  const shut = prof.hidden && !mine;
  const who = encodeURIComponent(prof.username);
  const [games, rated, rows, events] = await Promise.all([api("GET", "/api/games"), api("GET", `/api/users/${who}/ratings`),
    shut ? [] : api("GET", `/api/records?user=${who}`), shut ? [] : api("GET", `/api/users/${who}/events`)]);
  const byId = Object.fromEntries(games.map((g) => [g.id, g]));
  const head = [el("h2", { id: "profile-name" }, prof.username, prof.role === "organizer" ? el("span", { class: "badge" }, t("organizer")) : null),
    el("div", { class: "muted" }, t("hist.joined", { date: localDate(prof.created) }))];
  const ratingsBox = el("section", { class: "card-box" }, el("h3", {}, t("rating.ratings")), ratingsTable(rated.ratings, byId, rated.provisional_games));
  if (shut) {
    app.replaceChildren(...head, el("p", { class: "muted", id: "history-hidden" }, t("profile.hidden", { name: prof.username })), ratingsBox);
    return;
  }
  const stat = (k, v) => el("div", { class: "stat", "data-stat": k }, el("b", {}, String(v)), el("span", {}, t(`hist.count.${k}`)));
  const perGame = byPopularity(games).filter((g) => prof.by_game[g.id]).map((g) => {
    const c = prof.by_game[g.id];
    return el("tr", { "data-game": g.id }, el("td", {}, gameName(g)), el("td", {}, c.games), el("td", {}, c.won), el("td", {}, c.lost), el("td", {}, c.drawn));
  });
  const chart = chartBox(rated.history, byId);
  app.replaceChildren(...[...head,
    mine ? privacySwitch(prof.hidden) : null,
    el("section", { class: "card-box stats", id: "record" }, stat("games", prof.games), stat("won", prof.won), stat("lost", prof.lost), stat("drawn", prof.drawn)),
    ratingsBox,
    chart,
    perGame.length ? el("section", { class: "card-box" }, el("div", { class: "scroll" }, el("table", { class: "list", id: "by-game" },
      el("thead", {}, el("tr", {}, el("th", {}, t("game")), el("th", {}, t("hist.count.games")), el("th", {}, t("hist.count.won")),
        el("th", {}, t("hist.count.lost")), el("th", {}, t("hist.count.drawn")))), el("tbody", {}, perGame)))) : null,
    events.length ? el("section", { class: "card-box", id: "events-entered" }, el("h3", {}, t("profile.events")),
      el("ul", {}, events.map((e) => el("li", { "data-event": e.id }, el("a", { href: `/events/${encodeURIComponent(e.id)}` }, e.name),
        " ", el("span", { class: "muted" }, gameName(byId[e.game]) || e.game, " · ", placeText(e)))))) : null,
    el("h3", {}, t("hist.recent")),
    el("section", { class: "card-box" }, gamesTable(rows, byId, !mine))].filter(Boolean));
  if (chart) chart.draw();
}
