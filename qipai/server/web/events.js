// Events: the list (organizers create one from a preset with its players) and one event's page
// (pairings by round with their tables and records, standings, outcome), refreshed every 2 s,
// with the event's chat with its referees (chat.js).
import { eventChat } from "./chat.js";
import { errorText } from "./i18n.js";
import { icon } from "./icons.js";

export async function page(app, ctx) {
  const { t, api, el, me, id } = ctx;
  if (id) return eventPage(app, ctx, id);
  const list = el("tbody");
  const box = el("div", { class: "card-box" });
  if (me && me.role === "organizer") {
    const presets = await api("GET", "/api/presets");
    const sel = el("select", { name: "preset" }, presets.map((p) => el("option", { value: p.name, title: p.title }, `${p.name} — ${p.title}`)));
    const name = el("input", { name: "name", placeholder: t("name") });
    const players = el("textarea", { name: "players", rows: 5, placeholder: "alice\nbob\nbot1 greedy" });
    const err = el("div", { class: "error" });
    const go = el("button", { class: "primary", id: "create-event" }, t("create"));
    go.onclick = async () => {
      const list = players.value.split("\n").map((l) => l.trim()).filter(Boolean).map((l) => {
        const [pid, bot] = l.split(/\s+/);
        return bot ? { id: pid, bot } : pid;
      });
      try {
        const ev = await api("POST", "/api/events", { preset: sel.value, name: name.value || null, players: list });
        location.href = `/events/${ev.id}`;
      } catch (e) { err.textContent = e.message; }
    };
    box.append(el("h3", {}, t("event")), el("div", { class: "row" }, el("label", {}, t("preset") + " ", sel), name),
      el("label", {}, t("players") + " (" + t("username") + " / name bot)", el("br"), players), el("div", { class: "row" }, go), err);
  }
  app.replaceChildren(box, el("div", { class: "card-box" }, el("h3", {}, t("events")), el("table", { class: "list" }, list)));
  const rows = await api("GET", "/api/events");
  list.replaceChildren(...(rows.length ? rows : [null]).map((e) => e ? el("tr", { "data-event": e.id },
    el("td", {}, el("a", { href: `/events/${e.id}` }, e.name)), el("td", {}, e.game), el("td", {}, e.preset),
    el("td", {}, `${e.entrants} ${t("players")}`), el("td", {}, e.status)) : el("tr", {}, el("td", { class: "muted" }, t("none")))));
}

async function eventPage(app, ctx, id) {
  const { t, api, el, me } = ctx;
  const head = el("div");
  const controls = el("div", { class: "row" });
  const err = el("div", { class: "error" });
  const rounds = el("div");
  const standings = el("div");
  app.replaceChildren(head, controls, err, standings, rounds, eventChat({ t, api, id, me, errorText }));
  let last = null;
  const render = (ev) => {
    head.replaceChildren(el("h2", {}, ev.name), el("div", { class: "muted" }, `${ev.preset} · ${ev.game} · ${ev.stage} · ${ev.status}`,
      ev.outcome && ev.outcome.champion ? el("span", { class: "champion" }, " · ", icon("trophy", t("champion")), " ", ev.outcome.champion) : null));
    controls.replaceChildren();
    if (me && me.role === "organizer" && ev.status === "running") {
      controls.append(el("button", { class: "primary", id: "start-round", onclick: async () => {
        try { render((await api("POST", `/api/events/${id}/start`)).event); err.textContent = ""; } catch (e) { err.textContent = e.message; }
      } }, `${t("startround")} ${ev.current_round}`));
    }
    standings.replaceChildren();
    if (ev.standings) {
      standings.append(el("h3", {}, t("standings")), el("table", { class: "list", id: "standings" }, el("tbody", {},
        ev.standings.map((s) => el("tr", {}, el("td", {}, s.rank), el("td", {}, s.id), el("td", {}, s.points))))));
    }
    const gameLink = (g) => el("span", {}, " ", g.record ? el("a", { href: `/records/${g.record}` }, g.result || "#")
      : g.table ? el("a", { href: `/tables/${g.table}` }, t("watch")) : el("span", { class: "muted" }, g.status));
    const matchRow = (m) => el("tr", {}, el("td", {}, m.entrants.join(` ${t("vs")} `)), el("td", {}, m.status),
      el("td", {}, m.games.map(gameLink)));
    rounds.replaceChildren(el("h3", {}, t("pairings")), ...ev.rounds.map((r) => el("div", { class: "card-box", "data-round": r.round },
      el("b", {}, `${t("round")} ${r.round}`), el("table", { class: "list" }, el("tbody", {}, r.matches.map(matchRow))))));
  };
  const poll = async () => {
    try { last = await api("GET", `/api/events/${id}`); render(last); } catch (e) { err.textContent = e.message; }
  };
  await poll();
  setInterval(poll, 2000);
}
