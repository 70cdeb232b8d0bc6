// Leaderboards (/leaderboard?game=<rating key>&tc=<time class>): the established players of one
// game and time class, best first (provisional ratings are left out, as lichess does), with a
// picker of every board that has ratings.

import { api, el, t } from "./app.js";
import { playerLink } from "./history.js";
import { ratingGameName, tcName } from "./profile.js";

export async function leaderboardPage(app) {
  const [games, all] = await Promise.all([api("GET", "/api/games"), api("GET", "/api/leaderboard")]);
  const byId = Object.fromEntries(games.map((g) => [g.id, g]));
  const q = new URLSearchParams(location.search);
  const boards = all.boards;
  const title = el("h2", {}, t("board.title"));
  if (!boards.length) { app.replaceChildren(title, el("p", { class: "muted", id: "no-boards" }, t("board.empty"))); return; }
  const keyOf = (b) => `${b.game}/${b.time_class}`;
  const wanted = `${q.get("game")}/${q.get("tc")}`;
  const pick = el("select", { id: "board-pick", "aria-label": t("board.pick") }, boards.map((b) =>
    el("option", { value: keyOf(b), selected: keyOf(b) === wanted ? true : null }, `${ratingGameName(b.game, byId)} · ${tcName(b.time_class)}`)));
  const body = el("tbody");
  const show = async () => {
    const [game, tc] = pick.value.split("/");
    history.replaceState(null, "", `/leaderboard?game=${encodeURIComponent(game)}&tc=${tc}`);
    const data = await api("GET", `/api/leaderboard?game=${encodeURIComponent(game)}&time_class=${tc}`);
    body.replaceChildren(...(data.players.length ? data.players.map((p) => el("tr", { "data-player": p.username },
      el("td", { class: "rank" }, p.rank), el("td", {}, playerLink(p.username)), el("td", {}, el("b", {}, p.rating)),
      el("td", { class: "muted" }, `± ${p.deviation}`), el("td", {}, p.games)))
      : [el("tr", {}, el("td", { colspan: 5, class: "muted" }, t("board.noestablished")))]));
  };
  pick.onchange = show;
  app.replaceChildren(title, el("p", { class: "muted" }, t("board.doc")),
    el("section", { class: "card-box" }, el("label", { class: "field" }, el("span", {}, t("board.pick")), pick)),
    el("section", { class: "card-box" }, el("div", { class: "scroll" }, el("table", { class: "list", id: "leaderboard" },
      el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, t("players")), el("th", {}, t("rating.rating")),
        el("th", {}, t("rating.deviation")), el("th", {}, t("rating.games")))), body))));
  await show();
}
