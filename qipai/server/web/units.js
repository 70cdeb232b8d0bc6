// Unit (团体) standings of a meet (competition.md §2.6): each unit's placement points summed over
// the meet's events, champions and runners-up, and the points of each event; shown on the page
// of an event of a meet (refreshed with it) and on the meet's own page /meets/<name>, with the
// CSV export. An event still being played counts as it stands now, its column marked provisional
// (暂定) and a note under the table says the total may change.

import { api, el, errorText, every, t } from "./app.js";
import { eventName, fmtPts } from "./events.js";
import { paren } from "./i18n.js";

/** The unit standings `data` (GET /api/meets/<meet>) as a section; `names`: event id -> the
 *  event's name in the reader's words (eventName). */
export function unitsTable(data, names = {}) {
  const shownName = (e) => names[e.id] || e.name;
  const meet = encodeURIComponent(data.meet);
  const running = data.events.filter((e) => e.status !== "finished");
  return el("section", { class: "card-box units", id: "units" },
    el("h3", {}, t("units.title", { meet: data.meet })),
    el("div", { class: "scroll" }, el("table", { class: "list standings", id: "unit-standings" },
      el("thead", {}, el("tr", {}, el("th", { title: t("events.col.rankhelp") }, "#"), el("th", {}, t("reg.unit")),
        el("th", {}, t("units.points")), el("th", { title: t("units.championshelp") }, t("units.champions")),
        el("th", { title: t("units.runnersuphelp") }, t("units.runnersup")),
        data.events.map((e) => el("th", { "data-event": e.id, class: e.provisional ? "provisional" : null },
          el("a", { href: `/events/${encodeURIComponent(e.id)}`, title: shownName(e) }, shownName(e)),
          e.provisional ? el("span", { class: "muted small", title: t("units.provisionalhelp") }, paren(t("units.provisional"))) : null)))),
      el("tbody", {}, data.units.length ? data.units.map((u) => el("tr", { "data-unit": u.unit },
        el("td", {}, u.rank), el("td", {}, u.unit), el("td", { class: "pts" }, el("b", {}, fmtPts(u.points))),
        el("td", {}, u.champions), el("td", {}, u.runners_up),
        data.events.map((e) => el("td", { "data-event": e.id, class: e.provisional ? "provisional muted" : null },
          e.id in u.by_event ? fmtPts(u.by_event[e.id]) : "–"))))
        : el("tr", {}, el("td", { class: "muted", colspan: 5 + data.events.length }, t("units.none")))))),
    running.length ? el("p", { class: "muted small", id: "units-running" }, t("units.running", { n: running.length })) : null,
    el("p", { class: "small noprint" }, el("a", { href: `/api/meets/${meet}/units.csv`, download: "", title: t("events.csv.title") }, t("units.csv")),
      " · ", el("a", { href: `/meets/${meet}` }, t("units.page"))));
}

/** The page of a meet: its events and its unit standings, refreshed every 2 s. */
export async function meetPage(app, { meet }) {
  const err = el("div", { class: "error", role: "alert" });
  const box = el("div");
  app.replaceChildren(el("div", { class: "event-head" }, el("h2", {}, meet)), err, box);
  const poll = async () => {
    try {
      const data = await api("GET", `/api/meets/${encodeURIComponent(meet)}`);
      const names = Object.fromEntries(await Promise.all(data.events.map(async (e) => [e.id, await eventName(e)])));
      box.replaceChildren(unitsTable(data, names));
      err.textContent = "";
    }
    catch (e) { err.textContent = errorText(e); }
  };
  await poll();
  setInterval(poll, every(2000));
}
