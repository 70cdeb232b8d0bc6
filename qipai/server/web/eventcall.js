// The call to an event game (competition.md §5.6, §4.3): on every page of a signed-in player, a
// banner when one of his event games waits for him (the first game of a match starts when he
// reaches the table), counts down to the next game of his match, or has started (his clock
// runs). From a finished table, and from the lobby or an event page while the game waits for
// him, the page goes to the table by itself in a moment (lichess's way) unless he chooses to
// stay; elsewhere the banner's button does.
import { api, el, every, t, topBanner } from "./app.js";
import { play } from "./sound.js";

const GO_AFTER_MS = 3000;

function clock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** Start watching for ``me``'s event games; ``where()``: the table this page shows, as
 *  ``{ id, over() }``, or null. */
export function watchEventGames(me, where) {
  if (!me) return;
  let banner = null, shownFor = null, going = null, stayed = new Set(), until = 0, game = null;
  // a game waiting for him (not started: no clock runs until he is there) takes him from the
  // lobby or an event page; any game of his, from a finished table; elsewhere the banner asks
  const autoGo = () => {
    const here = where();
    return (!game.started && (location.pathname === "/" || location.pathname.startsWith("/events")))
      || !!(here && here.over());
  };
  const text = () => {
    if (game.started) return t("call.started");
    const left = until - performance.now();
    if (game.hold && game.hold.kind === "between") return t("call.between", { s: Math.max(0, Math.ceil(left / 1000)) });
    return t("call.ready", { left: clock(left) });
  };
  const draw = () => {
    if (!banner || !game) return;
    banner.querySelector(".call-text").textContent = text();
  };
  const check = async () => {
    const games = await api("GET", "/api/me/event-games").catch(() => null);
    if (!games) return;
    const here = where();
    game = games.find((g) => !(here && here.id === g.table)) || null;
    // the event page's own notice already takes him there (events.js): one call, not two
    if (document.getElementById("ready-notice")) game = null;
    if (!game) {
      if (banner) { banner.remove(); banner = null; shownFor = null; }
      if (going) { clearTimeout(going); going = null; }
      return;
    }
    until = performance.now() + ((game.hold && game.hold.in_ms) || 0);
    if (shownFor !== `${game.table}/${game.started}`) {
      shownFor = `${game.table}/${game.started}`;
      if (banner) banner.remove();
      const href = `/tables/${game.table}`;
      const stay = el("button", { id: "call-stay", onclick: () => { clearTimeout(going); going = null; stayed.add(game.table); stay.remove(); } }, t("events.stayhere"));
      // folded to a slim strip by its ✕ (for this call, on every page of the tab: a phone's
      // screen is not given to it while he reads a replay), opened again by a tap on the strip
      const key = `call.folded.${shownFor}`;
      const fold = (on) => {
        banner.classList.toggle("folded", on);
        hide.textContent = on ? "▾" : "✕";
        hide.setAttribute("aria-expanded", on ? "false" : "true");
        if (on) sessionStorage.setItem(key, "1"); else sessionStorage.removeItem(key);
      };
      const hide = el("button", { type: "button", class: "icon-btn call-hide", id: "call-hide", title: t("call.fold"), "aria-label": t("call.fold"),
        onclick: () => fold(!banner.classList.contains("folded")) }, "✕");
      banner = el("div", { class: "call-banner", id: "event-call", role: "alert" },
        el("b", { class: "call-text" }), el("b", { class: "call-short" }, t("call.short")), " ",
        el("a", { class: "button primary", href, id: "call-go" }, t("call.go")), " ",
        autoGo() && !stayed.has(game.table) ? stay : null, hide);
      topBanner(banner);
      if (sessionStorage.getItem(key)) fold(true);
      else play("turn");
      if (going) clearTimeout(going);
      going = autoGo() && !stayed.has(game.table) ? setTimeout(() => { location.href = href; }, GO_AFTER_MS) : null;
    }
    draw();
  };
  check();
  setInterval(check, every(3000));
  setInterval(draw, 1000);
}
