// Registration (报名) on the event page (competition.md §2.1, §5.6, §6.1). While entries are open:
// the players who have joined (and who has checked in), a player's join form (the join link
// /events/<id>?join=<code> fills in the code), leave and check-in buttons, and for the organizer
// the join link and code, the entries with their units and the button that closes entries (who
// has not checked in is left out, a no-show) and makes the draw. Once drawn: every entrant's draw
// number, the commitment published before the draw, the no-shows, and once the event is over the
// secret that lets anyone re-check the draw (`qipai verify`).

import { api, copyText, el, errorText, t } from "./app.js";
import { ask } from "./ask.js";

/** A button that copies `text` (copyText), else asks the
 *  reader to copy it by hand; `said` the line that tells which. */
function copyButton(text, id, key, said) {
  return el("button", { type: "button", class: "small", id, onclick: async () => {
    said.textContent = t((await copyText(text)) ? "reg.copied" : "reg.copybyhand");
  } }, t(key));
}

const statusText = (s) => t(`reg.status.${s}`, null, s);

// an entrant's column: a pair event's entrants are pairs
export const entrantHeader = (ev) => t(ev && ev.pairs ? "events.col.pair" : "events.col.player");

function entriesTable(list, organizer, ev) {
  return el("div", { class: "scroll" }, el("table", { class: "list", id: "entries" },
    el("thead", {}, el("tr", {}, el("th", {}, entrantHeader(ev)), el("th", {}, t("reg.unit")), el("th", {}, t("status")))),
    el("tbody", {}, list.length ? list.map((e) => el("tr", { "data-entrant": e.id, "data-status": e.status },
      el("td", {}, e.name || e.id, e.bot ? el("span", { class: "tag" }, t("reg.bot")) : null),
      el("td", {}, e.unit || ""), el("td", {}, statusText(e.status),
        organizer && e.nonce ? el("span", { class: "tag", title: t("reg.noncehelp") }, t("reg.nonce")) : null)))
      : el("tr", {}, el("td", { class: "muted", colspan: 3 }, t("reg.nobody"))))));
}

/** The registration part of the page of event `ev` (status "registration"); `refresh` reloads. */
export async function registrationPanel(ev, me, refresh) {
  const err = el("div", { class: "error", role: "alert", id: "reg-error" });
  const done = el("div", { class: "muted", role: "status", id: "reg-done" });
  const act = (path, body, then) => async () => {
    try { const out = await api("POST", `/api/events/${ev.id}/${path}`, body ? body() : undefined); err.textContent = ""; if (then) then(out); await refresh(); }
    catch (e) { err.textContent = errorText(e); }
  };
  const parts = [el("h3", {}, t("reg.title")),
    el("p", {}, ev.check_in ? t("reg.opencheckin") : t("reg.open"))];
  const mine = me && ev.entrants.find((e) => e.id === me.username);
  if (!me) {
    const next = encodeURIComponent(location.pathname + location.search);
    parts.push(el("p", {}, el("a", { href: `/signup?next=${next}` }, t("signup")), " · ",
      el("a", { href: `/login?next=${next}` }, t("signin")), " — ", t("reg.signin")));
  } else if (mine) {
    parts.push(el("p", { id: "my-entry" }, el("b", {}, mine.status === "checked_in" && ev.check_in ? t("reg.youin") : t("reg.youentered"))),
      el("div", { class: "row" },
        ev.check_in && mine.status !== "checked_in"
          ? el("button", { class: "primary", id: "check-in", onclick: act("checkin") }, t("reg.checkin")) : null,
        // leaving gives up the entry (and a check-in): asked first, as closing the entries is
        el("button", { id: "leave-event", onclick: async () => {
          if (await ask({ text: t("reg.leaveask"), yes: t("reg.leave"), no: t("cancel") })) await act("leave")();
        } }, t("reg.leave"))));
  } else {
    const code = el("input", { id: "join-code", value: new URLSearchParams(location.search).get("join") || "", autocomplete: "off", "aria-label": t("reg.code") });
    const unit = el("input", { id: "join-unit", maxlength: 200, "aria-label": t("reg.unit") });
    parts.push(el("form", { class: "form-grid", id: "join-form", onsubmit: (e) => { e.preventDefault(); act("join", () => ({ code: code.value.trim(), unit: unit.value.trim() || null }))(); } },
      el("label", { class: "field" }, el("span", {}, t("reg.code")), code),
      el("label", { class: "field" }, el("span", {}, t("reg.unitopt")), unit),
      el("div", { class: "row" }, el("button", { class: "primary", id: "join-event", type: "submit" }, t("reg.join")))));
  }
  let list = ev.entrants;
  if (me && me.role === "organizer") {
    try {
      const info = await api("GET", `/api/events/${ev.id}/entries`);
      list = info.entrants;
      const link = `${location.origin}/events/${ev.id}?join=${info.code}`;
      // the link and the code each on its own line with a copy button (the code never broken
      // across lines: a player types it)
      const said = el("span", { class: "muted", role: "status", id: "join-copied" });
      parts.push(el("div", { class: "join-link" },
        el("div", { class: "row" }, el("span", {}, t("reg.link")), " ", el("a", { href: link, id: "join-link" }, link),
          copyButton(link, "join-link-copy", "reg.copylink", said)),
        el("div", { class: "row" }, el("span", {}, t("reg.codeis")), " ", el("code", { id: "join-code-shown" }, info.code),
          copyButton(info.code, "join-code-copy", "reg.copycode", said), said)));
      const waiting = list.filter((e) => e.status !== "checked_in").map((e) => e.id);
      parts.push(el("div", { class: "row" }, el("button", { class: "primary", id: "close-entries", onclick: async () => {
        // it cannot be taken back: asked first, as resigning is (saying who is left out, if anyone)
        const text = waiting.length && ev.check_in ? t("reg.closeconfirm", { names: waiting }) : t("reg.closeask");
        if (!await ask({ text, yes: t("reg.close"), no: t("cancel") })) return;
        act("close", null, (out) => { done.textContent = out.no_shows.length ? t("reg.noshows", { names: out.no_shows }) : ""; })();
      } }, t("reg.close"))));
    } catch (e) { err.textContent = errorText(e); }
  }
  parts.push(el("h4", {}, t("reg.entries", { n: list.length })), entriesTable(list, me && me.role === "organizer", ev), done, err);
  return el("section", { class: "card-box", id: "registration" }, parts);
}

/** The draw of a running or finished event: draw numbers, the commitment, the no-shows. */
export function drawPanel(ev, open = false) {
  const rows = [...ev.entrants].sort((a, b) => a.draw - b.draw);
  const units = rows.some((e) => e.unit);
  const ratings = rows.some((e) => e.rating !== null && e.rating !== undefined);
  const seeded = ev.seeded ? Math.min(ev.seeded, rows.length) : 0;
  return el("details", { class: "card-box", id: "draw", open: open || null },
    el("summary", {}, el("b", {}, t("reg.draw"))),
    el("p", { class: "muted small" }, t("reg.drawhelp")),
    el("div", { class: "commitment" }, t("reg.commitment"), " ", el("code", { id: "commitment" }, ev.commitment)),
    ev.secret ? el("div", { class: "commitment" }, t("reg.secret"), " ", el("code", { id: "secret" }, ev.secret)) : null,
    seeded ? el("p", { id: "seeded-note" }, t("reg.seeded", { n: seeded })) : null,
    el("div", { class: "scroll" }, el("table", { class: "list", id: "draw-numbers" },
      el("thead", {}, el("tr", {}, el("th", {}, t("reg.drawno")), el("th", {}, entrantHeader(ev)),
        units ? el("th", {}, t("reg.unit")) : null, ratings ? el("th", {}, t("reg.rating")) : null)),
      el("tbody", {}, rows.map((e) => el("tr", { "data-draw": e.draw, "data-seeded": e.draw <= seeded ? "" : null },
        el("td", {}, e.draw, e.draw <= seeded ? el("span", { class: "tag" }, t("reg.seed")) : null), el("td", {}, e.name || e.id,
          e.status === "disqualified" ? el("span", { class: "tag dq" }, t("events.disqualified")) : null),
        units ? el("td", {}, e.unit || "") : null, ratings ? el("td", {}, e.rating ?? "") : null))))),
    ev.no_shows && ev.no_shows.length ? el("p", { id: "no-shows" }, t("reg.noshows", { names: ev.no_shows })) : null);
}
