// A player's games (their own history, /history, and the profile's list, profile.js): per game the
// game's name, the opponents (each a link to their profile), the result for that player in words
// with the reason ("You won — checkmate"; a card deal by its sides and the player's own score,
// "地主胜 ×4 — 你输了 −24": result.js, brief), and the date in the reader's time zone. A game
// stored before results kept their details (the landlord ...) says who won by name instead.

import { api, el, lang, seatName, t } from "./app.js";
import { seatNames } from "./i18n.js";
import { gameName } from "./lobby.js";
import { resultText, unratedText } from "./result.js";

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
export function playerLink(name, isBot, words) {
  if (isBot || String(name).startsWith("bot:")) return el("span", { class: "bot-name" }, words || seatName(name));
  return el("a", { href: `/u/${encodeURIComponent(name)}`, class: "player" }, name);
}

/** The games of `rows`, each result told from its player's side (`other`: a profile of someone
 *  else than the reader: "Won", not "You won"). */
export function gamesTable(rows, byId, other = false) {
  const body = (rows.length ? rows : [null]).map((r) => {
    if (!r) return el("tr", {}, el("td", { class: "muted", colspan: 5 }, t("none")));
    const seat = r.seat;
    // bots of one kind told apart by a number (seatNames): "机器人（规则型）2"
    const shown = seatNames(r.names);
    const opponents = r.names.map((n, i) => (i === seat ? null : playerLink(n, r.players && r.players[i] === null, shown[i])))
      .filter(Boolean);
    const kind = outcomeFor(r, seat);
    return el("tr", { "data-record": r.id, class: `res-${kind}` },
      el("td", { class: "game" }, gameName(byId[r.game]) || r.game),
      el("td", { class: "opponents" }, opponents.flatMap((x, i) => (i ? [lang === "zh" ? "、" : ", ", x] : [x]))),
      el("td", { class: "outcome" },
        el("b", { "data-outcome": kind }, resultText(r.result, { game: r.game, seat, names: r.names.map(seatName), t, lang, brief: true, other })),
        // made rated, not counted (too short ...): said under the result
        r.unrated ? el("div", { class: "muted small not-rated" }, unratedText(r.unrated, t)) : null),
      el("td", { class: "muted date" }, el("time", { datetime: r.finished }, localDate(r.finished))),
      el("td", { class: "actions" }, el("a", { href: `/records/${r.id}` }, t("replay"))));
  });
  return el("div", { class: "scroll" }, el("table", { class: "list", id: "history" },
    el("thead", {}, el("tr", {}, el("th", {}, t("game")), el("th", {}, t("hist.opponents")), el("th", {}, t("result")),
      el("th", {}, t("hist.date")), el("th", {}, ""))),
    el("tbody", {}, body)));
}

export async function historyPage(app, { me }) {
  if (!me) {       // a guest: what the page is, and the two ways in
    app.replaceChildren(el("h2", {}, t("mygames")), el("section", { class: "card-box", id: "need-account" },
      el("p", {}, t("needlogin")), el("div", { class: "row" },
        el("a", { href: "/login?next=/history", class: "button primary" }, t("signin")),
        el("a", { href: "/signup?next=/history" }, t("signup")))));
    return;
  }
  const [rows, games] = await Promise.all([api("GET", "/api/records?user=me"), api("GET", "/api/games")]);
  const byId = Object.fromEntries(games.map((g) => [g.id, g]));
  app.replaceChildren(el("h2", {}, t("mygames"), " ", el("a", { href: `/u/${encodeURIComponent(me.username)}`, class: "small" }, t("hist.profile"))),
    el("section", { class: "card-box" }, gamesTable(rows, byId)));
}
