// The lobby: a card per game (most played first) with "play a bot now", the form for a table of
// one's own (bots fill the empty seats unless the player says otherwise), and the live list of
// tables. Clocks, bots and rule options are shown in words (clockName, botName, optionName).

import { api, el, errorText, every, gameName, markBadge, seatName, t } from "./app.js";
import { paren } from "./i18n.js";

/** Game ids, most played first (the order of the lobby's cards and of the game picker); games
 *  not named here follow in the order the server lists them. */
export const POPULAR = ["xiangqi", "doudizhu", "go", "mahjong-gb", "gomoku", "shengji", "junqi",
  "chinese-checkers", "wakeng", "baohuang", "fouafour", "sandayi"];

export { gameName };     // (app.js: the catalogues' gamename.<id>)

// an event named after its preset (the preset's title, as `qipai event new` names it) is named
// in the reader's language (the event page, the referee's console); any other name is the
// organizer's own
let presetTitles = null;
export async function eventName(ev) {
  presetTitles = presetTitles || await api("GET", "/api/presets").then((ps) => Object.fromEntries(ps.map((p) => [p.name, p.title]))).catch(() => ({}));
  return presetTitles[ev.preset] === ev.name ? t(`preset.${ev.preset}`, null, ev.name) : ev.name;
}

/** A game id's place in POPULAR (0 the most played); a game not named there comes after them. */
export const popularity = (id) => { const i = POPULAR.indexOf(id); return i < 0 ? POPULAR.length : i; };

export function byPopularity(games) {
  return [...games].sort((a, b) => popularity(a.id) - popularity(b.id));
}

/** A clock preset in words ("10 min + 3 × 30 s byo-yomi"), from the catalogue. */
export const clockName = (id) => t(`clock.${id}`, null, id);
/** The clock presets offered for game `g` at a table where a person sits (/api/games "clocks":
 *  not another game's rule-sheet clock, nor a clock made for games of bots only, "bot_…": 2 s a
 *  move, lost on time — the lobby's tables and seeks always seat their person). */
export const suitedClocks = (g, clocks) => (g.clocks || Object.keys(clocks)).filter((id) => id in clocks && !id.startsWith("bot_"));

/** The options a quick game against a bot starts with: go on 9×9, what a newcomer gets first
 *  on OGS and KGS (a 19×19 game against a bot is an hour; the custom table offers every size). */
const QUICK_OPTIONS = { go: { board_size: 9 } };
const quickTable = (g) => ({ game: g.id, bots: g.seats[0] - 1, bot: g.bot, ...(QUICK_OPTIONS[g.id] ? { options: QUICK_OPTIONS[g.id] } : {}) });

export const botName = (b) => (String(b).startsWith("engine:")
  ? t("bot.engine", { name: String(b).slice(7) }) : t(`bot.${b}`, null, b));

// an option's name and values: the catalogue's words, else the name made readable
const readable = (name) => String(name).replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
export const optionName = (game, o) => t(`option.${game}.${o.name}`, null, readable(o.name));
export const valueName = (game, o, v) => (v === true ? t("yes") : v === false ? t("no")
  : t(`value.${game}.${o.name}.${v}`, null, String(v)) + markWords(o, v));
// a value that makes a rule set not for competition (the option's "marks") says so
const markWords = (o, v) => (o.marks && o.marks[String(v)] ? paren(t(`marking.${o.marks[String(v)]}`)) : "");

// options that count only with another option's value: game -> option -> [other, value]
// (baohuang's deals: only the sdbh.provisional rule set makes a table's game a match of deals)
const ONLY_WITH = { go: { komi: ["scoring", "free_komi"] }, baohuang: { deals_per_match: ["ruleset", "sdbh.provisional"] } };

// options whose value is a seat (0-based in the game, "Seat 1" … in the form), by their count
const SEAT_OPTIONS = { shengji: { dealer: 4, provisional_dealer: 4 } };
// an empty box's words that name another option's value ({value}): a team's level left empty
// is the starting level ("2 (the starting level)")
const EMPTY_FROM = { shengji: { team0_level: "start_level", team1_level: "start_level" } };
/** What an option left empty means, in the game's words (catalogue "optempty.<game>.<name>"):
 *  shengji's dealer box "Hand 1: the first to declare deals", a team's level "2 (the starting
 *  level)"; null for an option whose empty value needs no words. */
export const emptyWords = (game, o, form) => {
  const other = (EMPTY_FROM[game] || {})[o.name];
  const input = other && form ? form.querySelector(`[data-opt="${other}"]`) : null;
  return t(`optempty.${game}.${o.name}`, { value: input ? input.value : "" }, "") || null;
};

function optionInput(game, o) {
  const seats = (SEAT_OPTIONS[game] || {})[o.name];
  if (seats) {       // a seat: picked by its number from 1, "empty" said in the game's words
    return el("select", { "data-opt": o.name }, el("option", { value: "null", selected: true }, emptyWords(game, o) || t("lobby.gamedecides")),
      [...Array(seats).keys()].map((s) => el("option", { value: JSON.stringify(s) }, t("lobby.seatoption", { n: s + 1 }))));
  }
  // an option whose default is null (unset: the game decides) offers "the game decides" first
  const values = o.choices || (o.type === "bool" ? [true, false] : null);
  if (o.default === null && values) {
    return el("select", { "data-opt": o.name }, el("option", { value: "null", selected: true }, t("lobby.gamedecides")),
      values.map((c) => el("option", { value: JSON.stringify(c) }, valueName(game, o, c))));
  }
  if (o.type === "bool") return el("input", { type: "checkbox", "data-opt": o.name, checked: o.default ? true : null });
  if (o.choices) {
    return el("select", { "data-opt": o.name }, o.choices.map((c) => el("option",
      { value: JSON.stringify(c), selected: c === o.default ? true : null }, valueName(game, o, c))));
  }
  // an empty box says what empty means (its placeholder, kept up to date by emptyHints)
  const empty = o.default === null || (Array.isArray(o.default) && !o.default.length);
  return el("input", { "data-opt": o.name, type: o.type === "int" ? "number" : "text", value: Array.isArray(o.default) ? o.default.join(", ") : o.default ?? "", size: 6,
    ...(empty && emptyWords(game, o) ? { "data-empty": "", placeholder: emptyWords(game, o) } : {}) });
}

async function createTable(body, err) {
  try {
    const tb = await api("POST", "/api/tables", body);
    location.href = `/tables/${tb.id}`;
  } catch (e) { err.textContent = errorText(e); err.scrollIntoView({ block: "nearest" }); }   // seen where the form was sent
}

// On a phone (PHONE) the 14 cards would push the open tables a long way down: the box shows a
// row of game chips to swipe through and the picked game's card only (its two buttons), as
// lichess and pychess put the game list and the lobby's tables at the top of a phone's screen.
// The picked game is remembered (localStorage "lobby.game"). On a wider screen every card shows.
const PHONE = "(max-width: 560px)";

function quickPlay(games, me, err, seek) {
  const ordered = byPopularity(games);
  const saved = localStorage.getItem("lobby.game");
  let picked = ordered.some((g) => g.id === saved) ? saved : ordered[0]?.id;
  const pick = (id, user) => {
    picked = id;
    for (const c of grid.children) c.classList.toggle("picked", c.dataset.game === id);
    for (const b of chips.children) {
      b.setAttribute("aria-pressed", b.dataset.pick === id ? "true" : "false");
      if (b.dataset.pick === id) b.scrollIntoView?.({ block: "nearest", inline: "nearest" });
    }
    if (user) localStorage.setItem("lobby.game", id);
  };
  const chips = el("div", { class: "game-chips", role: "group", "aria-label": t("lobby.pickgame") },
    ordered.map((g) => el("button", { type: "button", class: "chip", "data-pick": g.id, "aria-pressed": "false",
      onclick: () => pick(g.id, true) }, gameName(g), markBadge(g.status))));
  const cards = ordered.map((g) => el("div", { class: "game-card", "data-game": g.id },
    el("b", {}, gameName(g), markBadge(g.status)),
    el("span", { class: "desc" }, t(`gamedesc.${g.id}`, null, "")),
    // the seat counts from the fewest ("4/5 players", not "5/4" as the game lists its default first)
    el("span", { class: "muted" }, t("lobby.players", { n: [...g.seats].sort((a, b) => a - b).join("/") })),
    el("button", { class: "primary", "data-quick": g.id, onclick: () => (me
      ? createTable(quickTable(g), err)
      : location.assign(`/signup?next=${encodeURIComponent(`/?play=${g.id}`)}`)) }, t("lobby.playbot")),
    // quick pairing with people: the game's usual clock, rated ("Play a person" beside "Play a bot
    // now"; the players' section below finds an opponent with a chosen clock)
    me ? el("button", { "data-seek-game": g.id, onclick: () => seek({ game: g.id, rated: true }) }, t("seek.person")) : null));
  const grid = el("div", { class: "game-grid" }, cards);
  if (picked) pick(picked, false);
  // back from signing up after "Play a bot now" (next=/?play=GAME): that game's bot table starts
  const asked = new URLSearchParams(location.search).get("play");
  const wanted = me && games.find((g) => g.id === asked);
  if (asked !== null) history.replaceState(null, "", "/");
  if (wanted) createTable(quickTable(wanted), err);
  return el("section", { class: "card-box", id: "play-now" }, el("h3", {}, t("lobby.quick")),
    me ? null : el("p", { class: "muted" }, el("a", { href: "/signup?next=/" }, t("signup")), " · ", el("a", { href: "/login?next=/" }, t("signin")), " — ", t("lobby.signinhint")),
    chips, grid);
}

function customTable(games, clocks, err) {
  const byId = Object.fromEntries(games.map((g) => [g.id, g]));
  const ordered = byPopularity(games);
  const gameSel = el("select", { name: "game" }, ordered.map((g) => el("option", { value: g.id }, gameName(g))));
  const seatsSel = el("select", { name: "num_seats" });
  const botsSel = el("select", { name: "bots" });
  const botSel = el("select", { name: "bot" });
  const clockSel = el("select", { name: "clock" });
  // rated by default, as lichess does for signed-in people; a table with bots is never rated
  const ratedBox = el("input", { type: "checkbox", name: "rated", id: "rated", checked: true });
  const ratedField = el("label", { class: "field rated-field", title: t("lobby.rateddoc") }, el("span", {}, t("lobby.rated")),
    el("span", { class: "row" }, ratedBox, " ", el("small", { class: "muted" }, t("lobby.rateddoc"))));
  // with a bot at the table the box is empty and greyed (the game is not rated); without, it
  // shows the person's own choice again
  let ratedWanted = true;
  ratedBox.onchange = () => { ratedWanted = ratedBox.checked; };
  const ratedFollow = () => { const bots = +botsSel.value > 0; ratedBox.disabled = bots; ratedBox.checked = !bots && ratedWanted; };
  // private (unlisted): the lobby does not list it; the link the table page gives finds it
  const privateBox = el("input", { type: "checkbox", name: "private", id: "private" });
  const privateField = el("label", { class: "field rated-field", title: t("lobby.privatedoc") }, el("span", {}, t("lobby.private")),
    el("span", { class: "row" }, privateBox, " ", el("small", { class: "muted" }, t("lobby.privatedoc"))));
  const opts = el("div", { class: "options" });
  // every seat but the creator's is a bot unless the player says otherwise; the player's choice
  // ("all": fill every free seat, or a number) is kept when the options or the game change, and
  // is cut down only where the seat count makes it impossible (3 bots at a table of 2)
  let botsWanted = "all";
  const fillBots = () => {
    const n = +seatsSel.value;
    const pick = botsWanted === "all" ? n - 1 : Math.min(botsWanted, n - 1);
    botsSel.replaceChildren(...Array.from({ length: n }, (_, i) => el("option", { value: i, selected: i === pick ? true : null },
      i === 0 ? t("lobby.nobots") : i === n - 1 ? t("lobby.allbots", { n: i }) : String(i))));
    ratedFollow();
  };
  const pickBots = () => {
    const n = +seatsSel.value, v = +botsSel.value;
    botsWanted = v > 0 && v === n - 1 ? "all" : v;
    ratedFollow();
  };
  // every seat count the game has, at once (junqi's 4 is 四国军棋): the counts the chosen options
  // allow (a rule set may fix them: /api/games "seats_by_option"), and choosing one the options
  // do not allow picks the option value that does (Seats 4 picks variant siguo)
  const seatsFor = (g) => {
    let seats = g.seats;
    for (const i of opts.querySelectorAll("select[data-opt]")) {
      const alt = (g.seats_by_option || {})[i.dataset.opt];
      if (alt && alt[i.value]) seats = alt[i.value];
    }
    return seats;
  };
  const fillSeats = () => {
    const g = byId[gameSel.value];
    const every = [...new Set([...g.seats, ...Object.values(g.seats_by_option || {}).flatMap((by) => Object.values(by).flat())])].sort((a, b) => a - b);
    const allowed = seatsFor(g);
    const keep = allowed.includes(+seatsSel.value) ? +seatsSel.value : allowed[0];
    seatsSel.replaceChildren(...every.map((n) => el("option", { value: n, selected: n === keep ? true : null }, n)));
    fillBots();
  };
  const pickSeats = () => {
    const g = byId[gameSel.value], n = +seatsSel.value;
    if (!seatsFor(g).includes(n)) {
      for (const [name, by] of Object.entries(g.seats_by_option || {})) {
        const value = Object.keys(by).find((v) => by[v].includes(n));
        const sel = opts.querySelector(`select[data-opt="${name}"]`);
        if (value !== undefined && sel) { sel.value = value; break; }
      }
      onlyWith();
    }
    fillBots();
  };
  const refresh = () => {
    const g = byId[gameSel.value];
    // the levels first (1 random … 5 the strongest search), then any other bot or engine
    const levelOf = Object.fromEntries(Object.entries(g.levels || {}).map(([n, b]) => [b, n]));
    const listed = [...Object.values(g.levels || {}), ...g.bots.filter((b) => !(b in levelOf))];
    botSel.replaceChildren(...listed.map((b) => el("option", { value: b, selected: b === g.bot ? true : null },
      levelOf[b] ? t("lobby.level", { n: levelOf[b], bot: botName(b) }) : botName(b))));
    clockSel.replaceChildren(el("option", { value: "" }, t("lobby.clockdefault", { words: clockName(g.clock) })),
      ...suitedClocks(g, clocks).filter((id) => id !== g.clock).map((id) => el("option", { value: id }, clockName(id))));
    // a lobby table plays one deal: an option of a whole match (match time, deals) is not offered
    opts.replaceChildren(...g.options.filter((o) => !(g.match_options || []).includes(o.name)).map((o) => el("label", { title: t(`optdoc.${g.id}.${o.name}`, null, o.doc), "data-opt-field": o.name },
      optionName(g.id, o) + " ", optionInput(g.id, o))));
    fillSeats();
    onlyWith();
    emptyHints();
  };
  // the empty boxes' words that name another option's value follow it (a team's level: the
  // starting level as typed)
  const emptyHints = () => {
    const g = byId[gameSel.value];
    for (const i of opts.querySelectorAll("input[data-empty]")) {
      const o = g.options.find((x) => x.name === i.dataset.opt);
      i.placeholder = emptyWords(g.id, o, opts) || "";
    }
  };
  opts.addEventListener("input", emptyHints);
  // an option that counts only with another's value is shown only then (go's komi field: with
  // "free komi" scoring; the other scorings give their own komi, named in their words)
  const onlyWith = () => {
    for (const [name, [other, value]] of Object.entries(ONLY_WITH[gameSel.value] || {})) {
      const field = opts.querySelector(`[data-opt-field="${name}"]`), by = opts.querySelector(`[data-opt="${other}"]`);
      if (field && by) field.hidden = by.value !== JSON.stringify(value);
    }
  };
  opts.addEventListener("change", () => { fillSeats(); onlyWith(); });
  gameSel.onchange = refresh;
  seatsSel.onchange = pickSeats;
  botsSel.onchange = pickBots;
  refresh();
  const go = el("button", { class: "primary", id: "create" }, t("create"));
  go.onclick = () => {
    const g = byId[gameSel.value];
    const options = {};
    for (const i of opts.querySelectorAll("[data-opt]")) {
      if (i.closest("[hidden]")) continue;   // counts only with another option's value, not chosen
      const o = g.options.find((x) => x.name === i.dataset.opt);
      let v = i.type === "checkbox" ? i.checked : i.tagName === "SELECT" ? JSON.parse(i.value) : i.value;
      // an empty box of an option whose default is empty says "the game decides": not sent
      if (v === "" && (o.default === null || (Array.isArray(o.default) && !o.default.length))) continue;
      if (o.type === "int" && !o.choices && v !== null) v = parseInt(v, 10);
      if (v !== o.default) options[o.name] = v;
    }
    const settings = clockSel.value ? { clock: clockSel.value } : {};
    if (ratedBox.checked && !ratedBox.disabled) settings.rated = true;
    if (privateBox.checked) settings.private = true;
    createTable({ game: g.id, options, num_seats: +seatsSel.value, settings, bots: +botsSel.value, bot: botSel.value }, err);
  };
  const field = (label, input, wide) => el("label", { class: wide ? "field wide" : "field" }, el("span", {}, label), input);
  return el("section", { class: "card-box" }, el("h3", {}, t("lobby.custom")),
    el("div", { class: "form-grid" }, field(t("game"), gameSel), field(t("seats"), seatsSel), field(t("lobby.botcount"), botsSel),
      field(t("lobby.botkind"), botSel), field(t("clock"), clockSel, true), ratedField, privateField),
    el("details", {}, el("summary", {}, t("options")), opts), el("div", { class: "row" }, go));
}

export async function lobbyPage(app, { me }) {
  const [games, clocks] = await Promise.all([api("GET", "/api/games"), api("GET", "/api/clocks")]);
  // a lobby table plays one game: the options the server sets for it are the form's defaults
  for (const g of games) for (const o of g.options) if (g.lobby_options && o.name in g.lobby_options) o.default = g.lobby_options[o.name];
  const byId = Object.fromEntries(games.map((g) => [g.id, g]));
  const err = el("div", { class: "error", id: "lobby-error", role: "alert" });
  // "Loading…" until the first answer, then the tables or "None yet"
  const list = el("tbody", {}, el("tr", {}, el("td", { class: "muted", colspan: 4 }, t("loading"))));
  const { playersBox, startSeek } = await import("/static/lobbyplayers.js");
  const people = playersBox(me, games, byId, err, clocks);
  const quick = quickPlay(games, me, err, (body) => { startSeek(people.panel, body, byId, err); people.box.scrollIntoView({ block: "nearest" }); });
  const tablesBox = el("section", { class: "card-box", id: "tables-box" }, el("h3", {}, t("tables")), me ? byCode() : null,
    el("div", { class: "scroll" }, el("table", { class: "list", id: "tables" },
      el("thead", {}, el("tr", {}, el("th", {}, t("game")), el("th", {}, t("players")), el("th", {}, t("status")), el("th", {}, ""))),
      list)));
  const parts = [err, people.incoming, quick, people.box];
  if (me) parts.push(customTable(games, clocks, err));
  parts.push(tablesBox);
  app.replaceChildren(...parts);
  // on a phone the open tables come straight after the game picker (in the page's order, so the
  // keyboard and a screen reader meet them there too); on a wide screen they close the page
  const phone = matchMedia(PHONE);
  const arrange = () => { if (quick.isConnected) (phone.matches ? quick.after(tablesBox) : app.append(tablesBox)); };
  arrange();
  phone.addEventListener("change", arrange);
  quick.querySelector('.chip[aria-pressed="true"]')?.scrollIntoView({ block: "nearest", inline: "nearest" });
  // the list is drawn again only when the tables changed (a Sit button drawn anew between a
  // press's mouse down and up lost the click)
  let listed = null;
  const poll = async () => {
    const tables = await api("GET", "/api/tables").catch(() => null);
    if (!tables) return;
    const key = JSON.stringify(tables);
    if (key === listed) return;
    listed = key;
    list.replaceChildren(...(tables.length ? tables : [null]).map((tb) => {
      if (!tb) return el("tr", {}, el("td", { class: "muted", colspan: 4 }, t("none")));
      const seats = tb.seats.flatMap((s, i) => [i ? ` ${t("vs")} ` : "", s ? seatName(s.name) : el("span", { class: "open-seat muted", "data-open-seat": i }, t("seat.open")),
        s && s.bot_account ? el("span", { class: "badge bot-account", title: t("bots.badge.doc") }, t("bots.badge")) : ""]);
      const act = el("td", { class: "actions" });
      const mine = me && tb.seats.some((s) => s && s.user === me.id);
      if (tb.status === "open" && me && !mine) {
        act.append(el("button", { "data-join": tb.id, onclick: async () => {
          try { await api("POST", `/api/tables/${tb.id}/sit`, {}); location.href = `/tables/${tb.id}`; } catch (e) { err.textContent = errorText(e); }
        } }, t("sit")), " ");
      }
      act.append(el("a", { href: `/tables/${tb.id}` }, mine ? t("lobby.mytable") : t("watch")));
      const kind = tableKind(tb, t);
      return el("tr", { "data-table": tb.id }, el("td", {}, gameName(byId[tb.game]) || tb.game, markBadge(tb.marking), kind), el("td", {}, seats),
        el("td", {}, t(`status.${tb.status}`, null, tb.status)), act);
    }));
  };
  await Promise.all([poll(), people.poll()]);
  setInterval(poll, every(2000));
  setInterval(people.poll, every(3000));
}

/** "Join by code": a private table's code (房间号, K7MX-3QPA; case, spaces and dashes do not
 *  matter) takes the reader to its table; a wrong code or too many tries say so beside the box. */
function byCode() {
  const input = el("input", { id: "table-code", name: "code", autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
    maxlength: 16, size: 11, placeholder: "K7MX-3QPA", "aria-label": t("lobby.bycode"), title: t("lobby.codehint") });
  const said = el("div", { class: "error", id: "table-code-error", role: "alert" });
  const form = el("form", { class: "row code-form", id: "code-form" }, el("label", { for: "table-code" }, t("lobby.bycode")), input,
    el("button", { type: "submit", id: "table-code-go" }, t("lobby.codego")));
  form.onsubmit = async (e) => {
    e.preventDefault();
    if (!input.value.trim()) { input.focus(); return; }
    try {
      const r = await api("POST", "/api/tables/by-code", { code: input.value });
      location.href = `/tables/${r.table}`;
    } catch (x) { said.textContent = errorText(x); }
  };
  return el("div", {}, form, said);
}

/** The tag of a table in the lobby's list: an event's game says its event (by name, linked to
 *  the event's page), never casual; a lobby table says rated or casual. */
export function tableKind(tb, t) {
  const rated = el("span", { class: "tag", "data-rated": tb.rated ? "1" : "0" }, tb.rated ? t("lobby.ratedtag") : t("lobby.casual"));
  if (!tb.event) return rated;
  const name = (tb.settings && tb.settings.event_name) || "";
  const tag = el("a", { class: "tag", "data-event-tag": tb.event, href: `/events/${tb.event}`, title: name || t("event") },
    name ? t("lobby.eventtag", { name }) : t("event"));
  return tb.rated ? [tag, " ", rated] : tag;
}
