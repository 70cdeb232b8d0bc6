// A player's games (their own history, /history, and anyone's profile, /u/<name>): per game the
// game's name, the opponents (each a link to their profile), the result for that player in words
// with the reason ("You won — checkmate", result.js), and the date in the reader's time zone.

import { api, el, lang, seatName, t } from "./app.js";
import { byPopularity, gameName } from "./lobby.js";
import { resultText } from "./result.js";

/** "won" | "lost" | "drawn" for seat `seat` of a stored game (`winners` from the server). */
export function outcomeFor(rec, seat) {
  const winners = rec.winners || [];
  if (!winners.length) return "drawn";
  return winners.includes(seat) ? "won" : "lost";
}

export const localDate = (iso) => {
  const d = new Date(iso);
  return isNaN(d) ? String(iso || "") : d.toLocaleString(lang === "zh" ? "zh-CN" : "en-GB",
    { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
};

// a seat's name: a bot's in words, a person's as a link to the profile
export function playerLink(name, isBot) {
  if (isBot || String(name).startsWith("bot:")) return el("span", { class: "bot-name" }, seatName(name));
  return el("a", { href: `/u/${encodeURIComponent(name)}`, class: "player" }, name);
}

function gamesTable(rows, byId) {
  const body = (rows.length ? rows : [null]).map((r) => {
    if (!r) return el("tr", {}, el("td", { class: "muted", colspan: 5 }, t("none")));
    const seat = r.seat;
    const opponents = r.names.map((n, i) => (i === seat ? null : playerLink(n, r.players && r.players[i] === null)))
      .filter(Boolean);
    const kind = outcomeFor(r, seat);
    return el("tr", { "data-record": r.id, class: `res-${kind}` },
      el("td", {}, gameName(byId[r.game]) || r.game),
      el("td", {}, opponents.flatMap((x, i) => (i ? [", ", x] : [x]))),
      el("td", { class: "outcome", title: r.result ? r.result.text : null },
        el("b", { "data-outcome": kind }, resultText(r.result, { game: r.game, seat, names: r.names, t, lang }))),
      el("td", { class: "muted date" }, el("time", { datetime: r.finished }, localDate(r.finished))),
      el("td", {}, el("a", { href: `/records/${r.id}` }, t("replay"))));
  });
  return el("div", { class: "scroll" }, el("table", { class: "list", id: "history" },
    el("thead", {}, el("tr", {}, el("th", {}, t("game")), el("th", {}, t("hist.opponents")), el("th", {}, t("result")),
      el("th", {}, t("hist.date")), el("th", {}, ""))),
    el("tbody", {}, body)));
}

export async function historyPage(app, { me }) {
  if (!me) { app.replaceChildren(el("a", { href: "/login?next=/history" }, t("needlogin"))); return; }
  const [rows, games] = await Promise.all([api("GET", "/api/records?user=me"), api("GET", "/api/games")]);
  const byId = Object.fromEntries(games.map((g) => [g.id, g]));
  app.replaceChildren(el("h2", {}, t("mygames"), " ", el("a", { href: `/u/${encodeURIComponent(me.username)}`, class: "small" }, t("hist.profile"))),
    el("section", { class: "card-box" }, gamesTable(rows, byId)));
}

export async function profilePage(app, { name }) {
  let prof;
  try { prof = await api("GET", `/api/users/${encodeURIComponent(name)}`); } catch (e) {
    app.replaceChildren(el("h2", {}, name), el("div", { class: "error" }, t("hist.nouser", { name })));
    return;
  }
  const [rows, games] = await Promise.all([api("GET", `/api/records?user=${encodeURIComponent(prof.username)}`), api("GET", "/api/games")]);
  const byId = Object.fromEntries(games.map((g) => [g.id, g]));
  const stat = (k, v) => el("div", { class: "stat", "data-stat": k }, el("b", {}, String(v)), el("span", {}, t(`hist.count.${k}`)));
  const perGame = byPopularity(games).filter((g) => prof.by_game[g.id]).map((g) => {
    const c = prof.by_game[g.id];
    return el("tr", { "data-game": g.id }, el("td", {}, gameName(g)), el("td", {}, c.games), el("td", {}, c.won), el("td", {}, c.lost), el("td", {}, c.drawn));
  });
  app.replaceChildren(
    el("h2", { id: "profile-name" }, prof.username, prof.role === "organizer" ? el("span", { class: "badge" }, t("organizer")) : null),
    el("div", { class: "muted" }, t("hist.joined", { date: localDate(prof.created) })),
    el("section", { class: "card-box stats", id: "record" }, stat("games", prof.games), stat("won", prof.won), stat("lost", prof.lost), stat("drawn", prof.drawn)),
    perGame.length ? el("section", { class: "card-box" }, el("div", { class: "scroll" }, el("table", { class: "list", id: "by-game" },
      el("thead", {}, el("tr", {}, el("th", {}, t("game")), el("th", {}, t("hist.count.games")), el("th", {}, t("hist.count.won")),
        el("th", {}, t("hist.count.lost")), el("th", {}, t("hist.count.drawn")))), el("tbody", {}, perGame)))) : null,
    el("h3", {}, t("hist.recent")),
    el("section", { class: "card-box" }, gamesTable(rows, byId)));
}
