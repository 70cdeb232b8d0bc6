// The lobby's people: who is online and playing (with a Challenge button by each name), the
// challenges to and from me (accept, decline, cancel; an accepted one opens its table), the
// waiting seeks (Play joins one), and my own seek while it waits ("Looking for an opponent",
// its rating range widening, and a bot offered after a while). Everything polls the server.

import { api, el, errorText, every, ratingMark, t } from "./app.js";
import { byPopularity, clockName, gameName, suitedClocks } from "./lobby.js";
import { paren } from "./i18n.js";

/** Start seeking `game` (rated unless `rated` is false) and follow the seek in `panel`: to the
 *  table once paired, a bot on request. */
// a seek's rating in brackets after its owner's name, "(1500?)" while provisional and why on hover
function seekRating(s) {
  const m = ratingMark({ rating: s.rating, provisional: s.provisional, games: s.rating_games, deviation: s.deviation }, s.provisional_games);
  const [open, close] = paren("|").split("|");
  return el("span", { class: "seek-rating", title: m.why }, open, m.shown, m.said, close);
}

export async function startSeek(panel, body, byId, err) {
  let seek;
  try { seek = await api("POST", "/api/seeks", body); } catch (e) { err.textContent = errorText(e); return; }
  follow(panel, seek, byId, err);
}

let following = null;                  // the id of the own seek this page follows

/** Follow my seek in `panel` until it is paired (then to the table, as lichess does), taken by
 *  a bot or cancelled. The lobby follows an own seek it lists that no panel follows (the page
 *  reloaded, or opened again while the seek waits), so its owner goes to the game all the same. */
function follow(panel, seek, byId, err) {
  following = seek.id;
  const words = el("span", { id: "seek-words" });
  const botBtn = el("button", { id: "seek-bot", hidden: true }, t("lobby.playbot"));
  const cancel = el("button", { id: "seek-cancel" }, t("cancel"));
  panel.replaceChildren(el("div", { class: "seek-panel card-box", role: "status" }, words, " ", botBtn, " ", cancel));
  let timer = null;
  const stop = () => { clearInterval(timer); panel.replaceChildren(); following = null; };
  const show = (s) => {
    if (s.status === "paired" && s.table) { stop(); location.href = `/tables/${s.table}`; return; }
    words.textContent = t("seek.waiting", { game: gameName(byId[s.game]), clock: clockName(s.clock),
      kind: s.rated ? t("lobby.ratedtag") : t("lobby.casual"), range: s.range === null ? t("seek.anyone") : `± ${s.range}`,
      seconds: Math.round(s.waited) });
    botBtn.hidden = !s.offer_bot;
  };
  cancel.onclick = async () => { await api("DELETE", `/api/seeks/${seek.id}`).catch(() => null); stop(); };
  botBtn.onclick = async () => {
    try { const r = await api("POST", `/api/seeks/${seek.id}/bot`); stop(); location.href = `/tables/${r.table}`; } catch (e) { err.textContent = errorText(e); }
  };
  const look = async () => {
    try { show(await api("GET", `/api/seeks/${seek.id}`)); } catch (e) { stop(); if (e.code !== "no_seek") err.textContent = errorText(e); }
  };
  if ("waited" in seek) show(seek); else look();
  timer = setInterval(look, every(1500));
}

/** The clock choices for the game chosen in `gameSel`, drawn into `clockSel`: the game's usual
 *  clock first ("" — the server's default for the game), then the others a person may play on
 *  (the same choices as Create a table). */
function clockChoices(gameSel, clockSel, byId, clocks) {
  const g = byId[gameSel.value];
  clockSel.replaceChildren(el("option", { value: "" }, t("lobby.clockdefault", { words: clockName(g.clock) })),
    ...suitedClocks(g, clocks).filter((id) => id !== g.clock).map((id) => el("option", { value: id }, clockName(id))));
}

// a challenge: the game, its clock and rated or not, carried to the table the challenge makes
function challengeForm(name, games, byId, clocks, err, sent) {
  const pick = el("select", { "aria-label": t("game"), "data-challenge-game": name }, byPopularity(games).map((g) => el("option", { value: g.id }, gameName(g))));
  const clock = el("select", { "aria-label": t("clock"), "data-challenge-clock": name });
  pick.onchange = () => clockChoices(pick, clock, byId, clocks);
  clockChoices(pick, clock, byId, clocks);
  const rated = el("input", { type: "checkbox", checked: true, "data-challenge-rated": name });
  const send = el("button", { class: "primary", "data-send-challenge": name }, t("challenge.send"));
  send.onclick = async () => {
    const settings = { ...(clock.value ? { clock: clock.value } : {}), ...(rated.checked ? { rated: true } : {}) };
    try {
      const c = await api("POST", `/api/challenge/${encodeURIComponent(name)}`, { game: pick.value, settings });
      sent.add(c.id);
      send.disabled = true; send.textContent = t("challenge.sent");
    } catch (e) { err.textContent = errorText(e); }
  };
  return el("span", { class: "challenge-form row" }, pick, clock, el("label", {}, rated, " ", t("lobby.rated")), send);
}

/** A seek with options (game, clock, rated or casual): the quick buttons take the usual clock. */
function seekForm(games, clocks, byId, panel, err) {
  const gameSel = el("select", { id: "seek-game", "aria-label": t("game") }, byPopularity(games).map((g) => el("option", { value: g.id }, gameName(g))));
  const clockSel = el("select", { id: "seek-clock", "aria-label": t("clock") });
  gameSel.onchange = () => clockChoices(gameSel, clockSel, byId, clocks);
  clockChoices(gameSel, clockSel, byId, clocks);
  const rated = el("input", { type: "checkbox", id: "seek-rated", checked: true });
  const go = el("button", { class: "primary", id: "seek-go", onclick: () => startSeek(panel,
    { game: gameSel.value, rated: rated.checked, ...(clockSel.value ? { clock: clockSel.value } : {}) }, byId, err) }, t("seek.find"));
  return el("div", { class: "seek-form row" }, gameSel, clockSel, el("label", {}, rated, " ", t("lobby.rated")), go);
}

/** The lobby's section of people (a card-box), polled every few seconds. */
export function playersBox(me, games, byId, err, clocks) {
  // "Loading…" until the first answers, then the people or "None yet"
  const counts = el("p", { id: "presence-counts", class: "muted" }, t("loading"));
  const who = el("ul", { id: "online", class: "online-list" });
  // challenges to and from the reader: shown by the lobby above the games (lobby.js), where a
  // phone's reader sees one arrive without scrolling past every game
  const incoming = el("div", { id: "challenges", class: "challenges", "aria-live": "polite" });
  const seekList = el("tbody", {}, el("tr", {}, el("td", { class: "muted", colspan: 4 }, t("loading"))));
  const panel = el("div", { id: "seek-panel" });
  const box = el("section", { class: "card-box", id: "people" }, el("h3", {}, t("people.title")), panel,
    me ? seekForm(games, clocks, byId, panel, err) : null, counts, who,
    el("h4", {}, t("seek.open")), el("div", { class: "scroll" }, el("table", { class: "list", id: "seeks" },
      el("thead", {}, el("tr", {}, el("th", {}, t("game")), el("th", {}, t("players")), el("th", {}, t("clock")), el("th", {}, ""))), seekList)));
  const opened = new Set();
  // challenges this page saw waiting for an answer: only their acceptance takes the page to the
  // table (an answer the server still keeps from an earlier visit, a game perhaps already over,
  // leaves the lobby where it is)
  const waiting = new Set();
  // the lists are drawn again only when what they show changed: a button drawn anew at every
  // poll lost a click whose press and release fell on either side of it, and an open challenge
  // form lost the game chosen in it
  let whoShown = null, challengesShown = null;
  const poll = async () => {
    const [pres, seeks, ch] = await Promise.all([api("GET", "/api/presence").catch(() => null), api("GET", "/api/seeks").catch(() => null),
      me ? api("GET", "/api/challenges").catch(() => null) : null]);
    const whoNow = pres && JSON.stringify(pres.players);
    if (pres && whoNow !== whoShown) {
      whoShown = whoNow;
      if (!pres.players.length) who.replaceChildren(el("li", { class: "muted" }, t("none")));
      else who.replaceChildren(...pres.players.map((p) => {
        const li = el("li", { "data-user": p.username }, el("span", { class: "dot", "aria-hidden": "true" }),
          el("a", { href: `/u/${encodeURIComponent(p.username)}`, class: "player" }, p.username), " ",
          // at a private table: playing, with no link (the table is found by its link alone)
          p.playing === true ? el("span", { class: "tag", title: t("people.playingprivate") }, t("people.playing"))
            : p.playing ? el("a", { class: "tag-link", href: `/tables/${p.playing}`, title: t("watch") }, el("span", { class: "tag" }, t("people.playing"))) : null);
        if (me && p.username !== me.username) {
          const btn = el("button", { class: "small", "data-challenge": p.username }, t("challenge.do"));
          btn.onclick = () => { opened.add(p.username); li.append(challengeForm(p.username, games, byId, clocks, err, waiting)); btn.remove(); };
          if (!opened.has(p.username)) li.append(" ", btn);
          else li.append(challengeForm(p.username, games, byId, clocks, err, waiting));
        }
        return li;
      }));
    }
    if (pres) counts.textContent = t("people.counts", { online: pres.online, playing: pres.playing });
    if (ch) {
      for (const c of ch.from_me) waiting.add(c.id);
      const accepted = ch.answered.find((a) => a.status === "accepted" && a.table && waiting.has(a.id));
      if (accepted) { location.href = `/tables/${accepted.table}`; return; }
    }
    const challengesNow = ch && JSON.stringify(ch);
    if (ch && challengesNow !== challengesShown) {
      challengesShown = challengesNow;
      incoming.replaceChildren(...ch.to_me.map((c) => el("div", { class: "challenge", "data-challenge-id": c.id },
        t("challenge.from", { name: c.from, game: gameName(byId[c.game]) || c.game, clock: clockName(c.settings.clock) }),
        c.settings.rated ? el("span", { class: "tag" }, t("lobby.ratedtag")) : null, " ",
        el("button", { class: "primary", "data-accept": c.id, onclick: async () => {
          try { const r = await api("POST", `/api/challenge/${c.id}/accept`); location.href = `/tables/${r.table}`; } catch (e) { err.textContent = errorText(e); }
        } }, t("accept")), " ",
        el("button", { "data-decline": c.id, onclick: () => api("POST", `/api/challenge/${c.id}/decline`).then(poll).catch(() => null) }, t("decline")))),
      ...ch.from_me.map((c) => el("div", { class: "challenge muted", "data-mine": c.id }, t("challenge.waiting", { name: c.to, game: gameName(byId[c.game]) || c.game }), " ",
        el("button", { onclick: () => api("POST", `/api/challenge/${c.id}/cancel`).then(poll).catch(() => null) }, t("cancel")))),
      ...ch.answered.filter((a) => a.status !== "accepted").map((a) => el("div", { class: "challenge muted" }, t(`challenge.${a.status}`, { name: a.to }))));
    }
    if (seeks) {
      const mine = me && !following && seeks.find((s) => s.username === me.username);
      if (mine) follow(panel, mine, byId, err);
      seekList.replaceChildren(...(seeks.length ? seeks : [null]).map((s) => {
        if (!s) return el("tr", {}, el("td", { class: "muted", colspan: 4 }, t("none")));
        const own = me && s.username === me.username;
        return el("tr", { "data-seek": s.id }, el("td", {}, gameName(byId[s.game]) || s.game, " ", el("span", { class: "tag" }, s.rated ? t("lobby.ratedtag") : t("lobby.casual"))),
          el("td", {}, el("a", { href: `/u/${encodeURIComponent(s.username)}` }, s.username), seekRating(s)), el("td", {}, clockName(s.clock)),
          el("td", {}, me && !own ? el("button", { "data-play-seek": s.id, onclick: () => startSeek(panel, { game: s.game, options: s.options, num_seats: s.num_seats, clock: s.clock, rated: s.rated }, byId, err) }, t("seek.play")) : null));
      }));
    }
  };
  return { box, panel, poll, incoming };
}
