// Guobiao mahjong (国标麻将) table: your hand (the drawn tile set apart), every seat's discards,
// exposed sets and flowers, the wind of the round and the wall count; claim buttons (胡 碰 杠 吃,
// 过) when the last discard or added kong can be claimed; the hand's fans, payments and every
// revealed hand when it ends. Tiles carry data-tile="<code>" (1m..9m 1p..9p 1s..9s E S W N C F P,
// flowers f1..f8).
//
// Your own turn: click a tile to raise it, click it again (or 打出 / Discard) to discard it.
// Every other seat answers every discard at once; when your only answer is to pass, the board
// passes for you (auto-pass, a box to untick) — at once when every other seat is a bot, else
// after a short random pause so the speed of the answer tells nobody that you could not claim.
// Every action the board sends is one the server listed as legal for this seat.

// the verb of the open claim window: a discard, an added kong, a concealed kong (robbable only
// with the option rob_concealed_kong_for_13_orphans)
import { el as cardEl, entrusted, othersAreBots } from "./cardtable.js";
import { lookBack, mountHistory, playCount, replayHistory } from "./cardhistory.js";
import { turnPart, turnsOf } from "./mjhistory.js";
import { boardKeys } from "../boardkeys.js";
import { paren, table } from "../i18n.js";
import { fmtScore, NBSP } from "../result.js";

const CLAIM_VERB = { discard: "discarded", rob: "added", rob_concealed: "ckongs" };

// the board's words: the catalogues' "mj.*" entries in the page's language (i18n.js table)
const W = table("mj");

const HONOR_ZH = { E: "东", S: "南", W: "西", N: "北", C: "中", F: "发", P: "白" };
const HONOR_EN = { E: "E", S: "S", W: "W", N: "N", C: "Red", F: "Green", P: "White" };
const SUIT_ZH = { m: "万", p: "筒", s: "条" };
const SUIT_EN = { m: "crak", p: "dot", s: "bam" };
const FLOWER_ZH = "春夏秋冬梅兰竹菊";
// the flowers in English (the catalogues' tile.flower.N: "Spring 1"); on the face, as sets sold
// in English print them, the character with its number (春 over 1): no word fits a phone's tile
// whole, and a cut one ("Wtr") reads as nothing
const FLOWER_EN = ["Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo", "Chrysanthemum"];
const HONOR_LONG_EN = { E: "East wind", S: "South wind", W: "West wind", N: "North wind", C: "Red dragon", F: "Green dragon", P: "White dragon" };

/** A tile's name as a screen reader says it: 5筒 / 5 dot, 东 / East wind, 梅 / Plum 5. */
export function tileName(code, zh) {
  if (code[0] === "f") return zh ? FLOWER_ZH[+code[1] - 1] || code : FLOWER_EN[+code[1] - 1] ? `${FLOWER_EN[+code[1] - 1]} ${code[1]}` : code;
  if (code.length === 2) return zh ? `${code[0]}${SUIT_ZH[code[1]]}` : `${code[0]} ${SUIT_EN[code[1]]}`;
  return zh ? HONOR_ZH[code] || code : HONOR_LONG_EN[code] || code;
}
/** A tile's face: its character or rank and, under it, its word in the page's language; its
 *  whole name (tileName) its title. */
export function tileFace(code, zh, extra = "") {
  const t = cardEl("span", "mj-t" + (extra ? " " + extra : ""));
  if (!code) { t.classList.add("back"); return t; }
  t.dataset.tile = code;
  if (code[0] === "f") {
    t.classList.add("flower");
    // its number under it in English (the code "f6" is no word): 兰 over 6; 花 in Chinese; the
    // whole name ("Orchid 6") its title
    t.append(cardEl("b", "", FLOWER_ZH[+code[1] - 1] || code), cardEl("i", "", zh ? "花" : code.slice(1)));
  } else if (code.length === 2) {
    t.classList.add("s-" + code[1]);
    t.append(cardEl("b", "", code[0]), cardEl("i", "", zh ? SUIT_ZH[code[1]] : SUIT_EN[code[1]]));
  } else {
    t.classList.add("honor", "h-" + code);
    t.append(cardEl("b", "", HONOR_ZH[code]));
    if (!zh) t.append(cardEl("i", "", HONOR_EN[code]));
  }
  t.title = tileName(code, zh);
  return t;
}

const ORDER = [..."mps"].flatMap((s) => [1, 2, 3, 4, 5, 6, 7, 8, 9].map((r) => `${r}${s}`)).concat([..."ESWNCFP"]);

/** Split a tile string of the hand notation ("245m34p7sWCF", "f1f6") into tile codes. */
export function parseTiles(text) {
  const out = [];
  let digits = "";
  for (let i = 0; i < (text || "").length; i++) {
    const ch = text[i];
    if (ch >= "1" && ch <= "9") digits += ch;
    else if ("mps".includes(ch)) { for (const d of digits) out.push(d + ch); digits = ""; }
    else if (ch === "f" && text[i + 1]) { out.push("f" + text[i + 1]); i++; }
    else if ("ESWNCFP".includes(ch)) out.push(ch);
  }
  return out;
}

const sortTiles = (ts) => [...ts].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));

// what Guobiao mahjong puts where another mahjong (boards/laizi-mahjong.js) puts its own: the
// round's wind, each seat's wind and flowers, the verbs of its claim windows, each winner's fans
const GUOBIAO = {
  info: (v, h) => [h.el("span", "", `${h.S.round} ${h.windName(v.prevalent)}`)],
  seatWind: (info, h) => h.windName(info.wind),
  seatExtra: (info, h) => (info.flowers ? [h.tilesEl(parseTiles(info.flowers), "flowers", "tiny")] : []),
  handTile: () => "",
  actionLabel: () => null,
  claimVerb: (kind) => CLAIM_VERB[kind] || "discarded",
  hows: {},
  unit: (h) => h.S.points,
  winner(r, w, h) {
    const { el, S, zh } = h;
    const f = r.fans[String(w)];
    const tb = el("table", "mj-fans");
    tb.id = r.winners.length === 1 ? "fans" : `fans-${w}`;
    tb.dataset.seat = w;
    const head = el("tr", "head");
    for (const [k, num] of [["colFan", false], ["colValue", true], ["colTimes", true], ["colPoints", true]]) {
      const th = el("th", num ? "num" : "", S[k]);
      th.scope = "col";
      head.append(th);
    }
    tb.append(head);
    for (const x of f.fans) {
      const tr = el("tr", "", el("td", "", zh ? x.name : x.en), el("td", "num", x.value),
        el("td", "num", x.count > 1 ? `×${x.count}` : ""), el("td", "num", x.value * x.count));
      tr.dataset.fan = x.no;
      tr.dataset.name = x.name;          // the fan's name in the result notation
      tb.append(tr);
    }
    const tot = el("tr", "total", el("td", "", S.total), el("td", ""), el("td", ""), el("td", "num", `${f.total} ${S.fan}`));
    tot.dataset.total = f.total;
    tb.append(tot);
    return [el("div", "mj-winner", `${h.who(w)}${h.ctx.t("colon")}`, h.handLine(f.hand.split("|")[0])), tb];
  },
};

/** The mahjong table; ``variant`` (default Guobiao) says what a game shows of its own. */
export function mount(root, ctx, variant = GUOBIAO) {
  const S = { ...W, handNo: (n, k) => (k === 1 ? W.oneHand : ctx.t("mj.handNo", { n, k })) };
  const zh = ctx.lang === "zh";
  const box = document.createElement("div");
  box.className = "mj";
  const histHost = document.createElement("div");
  histHost.className = "mj-history";
  root.replaceChildren(box, histHost);
  let msg = null;               // the position drawn (the game in play, or an earlier one looked at)
  let latest = null;            // the game in play
  let history = null, browsing = 0;
  const back = lookBack(ctx.ask);
  let picked = null;            // index of the raised tile in the rendered hand
  let sentAt = null;            // the position (seq) this seat's move was sent in: nothing more to click till the table answers
  let autoPass = localStorage.getItem("mj-autopass") !== "0";
  let passedTurn = null;        // the turn auto-passed (so it is sent once)
  let passTimer = null;

  const el = (tag, cls, ...kids) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    for (const k of kids.flat()) if (k !== null && k !== undefined && k !== false) e.append(k instanceof Node ? k : String(k));
    return e;
  };
  const windName = (w) => (W.wind && W.wind[w]) || w;
  // a seat in texts: "you", else its player's name; a name two seats share (bots) gets the
  // seat's place at the table (right, across, left; a spectator sees seat 0 at the bottom)
  const rawName = (s) => {
    const x = String((msg.names && msg.names[s]) || "");
    return x.startsWith("bot:") ? ctx.t("botseat", { bot: x.slice(4) }) : x;   // the bot's kind in words
  };
  // the reader: the seat's player, who reads 你, 下家, 对家, 上家; a reader without a seat (a
  // spectator, a replay) reads each seat by its wind (东家, 南家 ...) as the replay's result line
  // does (result.js), never a screen side such as 下方
  const reader = () => msg.seat ?? null;
  const seatWind = (s) => {
    const info = msg.view && msg.view.seats ? msg.view.seats[s] : null;
    // a mahjong without seat winds in its view (laizi): the dealer's seat is East, then in turn
    const w = info && info.wind ? info.wind : "ESWN"[(s - ((msg.view && msg.view.dealer) ?? 0) + 4) % 4];
    return ctx.t("mj.seatOf", { wind: windName(w) });
  };
  const place = (s) => {
    const me = reader();
    if (me === null) return seatWind(s);
    const k = (s - me + 4) % 4;
    return k === 0 ? S.you : [S.next, S.across, S.prev][k - 1];
  };
  const who = (s) => {
    if (s === reader()) return S.you;
    const nm = rawName(s);
    const twice = (msg.names || []).filter((_, i) => rawName(i) === nm).length > 1;
    return !nm || twice ? place(s) : nm;       // two bots of one kind: 下家, not 机器人（贪心，下家）
  };
  // a seat named inside a sentence: the reader is "you" there ("discarded by you"), never "You"
  const whoIn = (s) => (s === reader() ? ctx.t("result.you") : who(s));

  const tileEl = (code, extra = "") => tileFace(code, zh, extra);

  function tilesEl(codes, cls = "", extra = "") {
    const d = el("div", "mj-row" + (cls ? " " + cls : ""));
    for (const c of codes) d.append(tileEl(c, extra));
    return d;
  }

  function meldEl(m) {
    const d = el("span", "mj-meld" + (m.concealed ? " concealed" : ""));
    d.dataset.meld = m.kind;
    if (!m.tiles) { for (let i = 0; i < 4; i++) d.append(tileEl(null, "small")); return d; }
    let marked = false;
    parseTiles(m.tiles).forEach((c, i, all) => {
      const hidden = m.concealed && m.kind === "kong" && (i === 0 || i === all.length - 1);
      const t = tileEl(hidden ? null : c, "small");
      if (!marked && m.claimed === c) { t.classList.add("claimed-in"); marked = true; }
      d.append(t);
    });
    return d;
  }

  // a seat's public part: winds, score, counts, flowers, sets and discards
  function seatBox(v, s, label) {
    const info = v.seats[s];
    const acting = (msg.to_act || []).includes(s) && !msg.result;
    const d = el("div", "mj-pl" + (acting ? " act" : "") + (s === msg.seat ? " me" : ""));
    d.dataset.seatbox = s;
    const wind = variant.seatWind(info, helpers);
    const head = el("div", "mj-head",
      wind ? el("span", "wind", wind) : null, " ", label ? el("span", "muted", label + " ") : null,
      el("span", "nm", rawName(s) || place(s)), s === v.dealer ? el("span", "dealer", " " + S.dealerMark) : null,
      // its own item of the wrapping head: a narrow box puts it on the next line whole, never a
      // line that starts with "·"
      el("span", "mj-counts", `${S.score}${NBSP}${fmtScore(info.score, ctx.lang)} · ${ctx.t("mj.tileCount", { n: info.concealed_count })}`));
    for (const x of variant.seatExtra(info, helpers, s)) head.append(" ", x);
    d.append(head);
    const views = msg.views;      // replay: each seat's own view, with its concealed kongs
    const own = views && views[s] ? views[s].seats[s] : info;
    const melds = el("div", "mj-melds");
    melds.dataset.melds = s;
    for (const m of own.melds) melds.append(meldEl(m));
    d.append(melds);
    if (views && views[s] && views[s].seats[s].hand && s !== msg.seat) {       // replay: every hand
      d.append(tilesEl(parseTiles(views[s].seats[s].hand), "mj-open", "small"));
    }
    if (msg.browsing && s === msg.seat && info.hand) {     // an earlier position: your hand then
      d.append(tilesEl(sortTiles(parseTiles(info.hand)), "mj-open", "small"));
    }
    const disc = el("div", "mj-row mj-discards");
    disc.dataset.discards = s;
    info.discards.forEach((x, i) => {
      const pending = v.claim && v.claim.kind === "discard" && v.claim.from === s && i === info.discards.length - 1;
      disc.append(tileEl(x.tile, "small" + (x.claimed ? " claimed" : "") + (pending ? " pending" : "")));
    });
    d.append(disc);
    return d;
  }

  function send(action) {
    clearTimeout(passTimer);
    picked = null;
    sentAt = latest ? latest.seq : msg.seq;
    ctx.send(action);
    render();         // the hand and the buttons stop taking clicks (a second tap sent a second, refused move)
  }

  function button(label, action, cls = "") {
    const b = el("button", cls, ...[label].flat());
    b.dataset.action = action;
    b.onclick = () => send(action);
    return b;
  }

  function actionLabel(a) {
    const [kind, tile] = a.split(" ");
    const own = variant.actionLabel(kind, tile, helpers);
    if (own) return own;
    if (kind === "chow") {
      const b = el("span", "", S.chow, " ");
      b.append(tilesEl(parseTiles(tile), "inline", "tiny"));
      return b;
    }
    if (kind === "kong" && tile) return [S.ckong + " ", tileEl(tile, "tiny")];
    if (kind === "add") return [S.add + " ", tileEl(tile, "tiny")];
    // a claim on the open discard (or added kong): the tiles the claim makes, drawn
    const claimed = msg.view.claim && msg.view.claim.tile;
    const times = { pung: 3, kong: 4, win: 1 }[kind];
    if (claimed && times && msg.view.phase !== "turn") {
      return [S[kind] + " ", tilesEl(Array(times).fill(claimed), "inline", "tiny")];
    }
    if (kind === "win") return msg.view.phase === "turn" ? S.selfdraw : S.win;
    return S[kind] || a;
  }

  function myArea(v, me) {
    const info = v.seats[me];
    const d = seatBox(v, me, S.you);
    const legal = msg.replay ? [] : (v.legal || msg.legal || []);
    const acting = !msg.replay && (msg.to_act || []).includes(me) && !msg.result && sentAt !== msg.seq;
    const discards = new Set(legal.filter((a) => a.startsWith("discard ")).map((a) => a.slice(8)));
    let hand = parseTiles(info.hand);
    let drawn = info.drawn || null;
    if (drawn) {
      const i = hand.lastIndexOf(drawn);
      if (i >= 0) hand.splice(i, 1); else drawn = null;
    }
    hand = sortTiles(hand);
    const tiles = drawn ? [...hand, drawn] : hand;
    const row = el("div", "mj-row mj-hand");
    row.id = "hand";
    tiles.forEach((c, i) => {
      const t = tileEl(c, (i === picked ? "picked" : "") + (drawn && i === tiles.length - 1 ? " drawn" : "")
        + variant.handTile(c, v));
      t.dataset.i = i;
      if (acting && discards.has(c)) {
        t.classList.add("can");
        t.onclick = () => {
          if (picked === i) send(`discard ${c}`);
          else { picked = i; render(); }
        };
      }
      row.append(t);
    });
    d.append(row);

    const bar = el("div", "row mj-actions");
    bar.id = "actions";
    if (acting && v.phase === "turn") {
      const pickedTile = picked !== null ? tiles[picked] : null;
      const dis = el("button", "primary", S.discard);
      dis.dataset.action = "discard";
      dis.disabled = !(pickedTile && discards.has(pickedTile));
      dis.onclick = () => send(`discard ${pickedTile}`);
      bar.append(dis);
      for (const a of legal) if (!a.startsWith("discard")) bar.append(button(actionLabel(a), a, a === "win" ? "win" : ""));
      if (!pickedTile) bar.append(el("span", "muted", S.pick));
    } else if (acting) {
      const claims = legal.filter((a) => a !== "pass");
      for (const a of claims) bar.append(button(actionLabel(a), a, a === "win" ? "win" : "claim"));
      if (legal.includes("pass")) bar.append(button(S.pass, "pass"));
    }
    const auto = el("label", "mj-auto");
    const cb = el("input");
    cb.type = "checkbox";
    cb.id = "autopass";
    cb.checked = autoPass;
    cb.onchange = () => { autoPass = cb.checked; if (!autoPass) clearTimeout(passTimer); localStorage.setItem("mj-autopass", autoPass ? "1" : "0"); render(); passIfOnly(); };
    auto.append(cb, " " + S.autopass);
    bar.append(auto);
    d.append(bar);
    return d;
  }

  // a claim window where this seat's only answer is to pass: the board passes (auto-pass), also
  // while the viewer looks at an earlier turn of the list
  function passIfOnly() {
    const m = latest;
    // a seat in trusteeship is the computer's: a pass from the page would end it (cardtable.js)
    if (!m || m.result || !autoPass || m.turn === passedTurn || m.seat === null || m.seat === undefined || entrusted(m)) return;
    if (m.view.phase === "turn" || !(m.to_act || []).includes(m.seat) || sentAt === m.seq) return;
    if ((m.view.legal || m.legal || []).some((a) => a !== "pass")) return;
    passedTurn = m.turn;
    const turn = m.turn;
    passTimer = setTimeout(() => {
      if (entrusted(latest)) passedTurn = null;          // sent at the next state if taken back
      else if (latest.turn === turn && !latest.result) send("pass");
    }, othersAreBots(m) ? 0 : 400 + Math.random() * 800);
  }

  function handResult(r, open) {
    const d = el("details", "mj-result");
    d.open = open;
    d.dataset.hand = r.hand;
    const hows = { self_drawn: S.byself, discard: S.ondiscard, robbing_kong: S.robbing, ...variant.hows };
    const title = r.winners.length
      ? `${S.handNo(r.hand, msg.view.hands_per_match)} · ${r.winners.length === 1 && r.winners[0] === reader() ? ctx.t("mj.youWin")
        : ctx.t("mj.wins", { who: r.winners.map((w, i) => (i ? whoIn(w) : who(w))).join(zh ? "、" : ", "), n: r.winners.length })} `
      : r.how === "penalty"
        ? `${S.handNo(r.hand, msg.view.hands_per_match)} · ${S.penalty} ${who(r.offender)}`
        : `${S.handNo(r.hand, msg.view.hands_per_match)} · ${S.drawn}`;
    const sum = el("summary", "", title);
    if (r.tile) sum.append(tileEl(r.tile, "tiny"), " ", hows[r.how] || r.how,
      r.how !== "self_drawn" ? paren(`${S.from} ${whoIn(r.from)}`) : "");
    d.append(sum);
    for (const w of r.winners) d.append(...variant.winner(r, w, helpers));
    // the bombs laid in the hand (百变八雀): whose, as four tiles, and what they were paid
    if ((r.bombs || []).length) {
      const bombs = el("span", "mj-bomb-list");
      for (const [s, t] of r.bombs) bombs.append(el("span", "mj-bomb", `${who(s)} `, tilesEl(Array(4).fill(t), "inline", "tiny")), " ");
      d.append(el("div", "mj-bombs", el("span", "label", `${S.bomb}${ctx.t("colon")}`), " ", bombs));
      if (r.bomb_payments && r.winners.length) {
        const paid = el("span", "mj-pays");
        r.bomb_payments.forEach((p, s) => paid.append(el("span", p > 0 ? "plus" : p < 0 ? "minus" : "", `${who(s)}${NBSP}${fmtScore(p, ctx.lang)}`), " "));
        d.append(el("div", "mj-pay", el("span", "label", `${ctx.t("mj.bombPayments")}${ctx.t("colon")}`), " ", paid));
      }
    }
    // the four payments in a grid (four in a row, two by two on a phone): never one alone on a line
    const pays = el("span", "mj-pays");
    r.payments.forEach((p, s) => pays.append(el("span", p > 0 ? "plus" : p < 0 ? "minus" : "", `${who(s)}${NBSP}${fmtScore(p, ctx.lang)}`), " "));
    d.append(el("div", "mj-pay", el("span", "label", `${S.payments}${ctx.t("colon")}`), " ", pays));
    if (r.revealed) {
      const rv = el("div", "mj-revealed");
      for (let s = 0; s < 4; s++) rv.append(el("div", "", el("span", "nm", who(s) + ctx.t("colon")), handLine(r.revealed[String(s)] || "")));
      d.append(el("div", "muted", S.revealed), rv);
    }
    return d;
  }

  // a hand in the one-line notation: concealed tiles, [sets], (concealed kongs), "+ tile", flowers
  function handLine(text) {
    const d = el("span", "mj-line");
    let plus = null;              // "+ tile" (the winning tile) wraps as one, never "+" alone
    for (const tok of text.trim().split(/\s+/)) {
      if (!tok) continue;
      if (tok === "+") { plus = el("span", "mj-plus", "+"); d.append(plus); continue; }
      const host = plus || d;
      plus = null;
      if (tok[0] === "[" || tok[0] === "(") {
        const m = el("span", "mj-meld" + (tok[0] === "(" ? " concealed" : ""));
        for (const c of parseTiles(tok)) m.append(tileEl(c, "tiny"));
        host.append(m);
      } else host.append(tilesEl(parseTiles(tok), "inline", "tiny"));
    }
    return d;
  }

  // what a variant's hooks may use
  const helpers = { el, tileEl, tilesEl, handLine, parseTiles, who, windName, S, zh, ctx, view: () => msg.view,
    L: variant.words, unit: () => variant.unit(helpers) };

  function show(m) {
    msg = m;
    box.dataset.seq = m.seq;
    render();
  }

  // ----- the hand's list (mjhistory.js): a click shows the table right after that step --------
  // views of an earlier hand of the match count as none of this hand's steps
  const turnCount = (v, hand) => (v.hand !== hand ? -1 : playCount(turnsOf(v)));
  async function browseTo(k, atEnd) {
    const want = ++browsing;
    if (atEnd || !latest) { if (latest) show(latest); return; }
    const hand = latest.view.hand;
    if (turnCount(latest.view, hand) <= k) { show(latest); return; }
    // a spectator of the hand in play is told no earlier position: the ones it received
    const local = (latest.seat === null || latest.seat === undefined) && !latest.result;
    const at = await back.after(k, latest.seq, (v) => turnCount(v, hand), () => want !== browsing || history.atEnd, local);
    if (!at) {                 // none received that early: back to the game
      if (local && want === browsing && !history.atEnd) history.toEnd();
      return;
    }
    show({ ...latest, view: at.view, seq: at.seq, replay: true, browsing: true, to_act: [], legal: undefined,
      turn: undefined, result: null });
  }
  const listTitle = () => ctx.t("mj.log.title");

  // the hand by keyboard: ← / → move over the tiles, Enter / Space raises a tile (again: discards it)
  const keys = boardKeys(box, {
    points: () => [...box.querySelectorAll("#hand .mj-t")],
    key: (t) => t.dataset.i,
    label: (t) => t.title,
    pressed: (t) => t.classList.contains("picked"),
  });

  // draw the table; the focus stays on the button or tile it was on (they are drawn anew)
  function render() { keys.redraw(draw); }

  function draw() {
    const v = msg.view;
    const me = msg.seat === undefined ? null : msg.seat;
    box.replaceChildren();
    box.dataset.phase = v.phase;
    const info = el("div", "mj-info", ...variant.info(v, helpers),
      el("span", "", S.handNo(v.hand, v.hands_per_match)),
      el("span", "", `${S.dealer} ${who(v.dealer)}`));
    const wall = el("span", "", `${S.wall} ${v.wall}`);
    wall.dataset.info = "wall";
    info.append(wall);
    box.append(info);
    if (v.claim && !msg.result) {
      const c = el("div", "mj-claim" + (me !== null && (msg.to_act || []).includes(me) ? " mine" : ""),
        `${who(v.claim.from)} ${S[variant.claimVerb(v.claim.kind)] || variant.claimVerb(v.claim.kind)} `,
        tileEl(v.claim.tile, "small"));   // a concealed kong's tile is null: shown face down
      c.id = "claim";
      box.append(c);
    }
    const others = el("div", "mj-others");
    const rel = [S.next, S.across, S.prev];
    const order = me === null ? [0, 1, 2, 3] : [3, 2, 1].map((k) => (me + k) % 4);   // left, across, right
    for (const s of order) others.append(seatBox(v, s, me === null ? "" : rel[(s - me + 3) % 4]));
    box.append(others);
    if (me !== null && !msg.replay) box.append(myArea(v, me));
    else if (me !== null) box.append(seatBox(v, me, S.you));
    const results = v.results || [];
    if (results.length) {
      const last = results[results.length - 1];
      const fresh = msg.result || msg.replay || v.seats.every((x) => x.discards.length === 0);
      box.append(handResult(last, !!fresh));
    }
  }

  return {
    /** A seat as the table names it in texts (the replay's list of steps names seats by it). */
    seatName: (s) => who(s),
    /** A step of the replay's list: who did what, the tiles drawn ("东家 打出 [5筒]"). */
    moveEntry(e, names) {
      const [kind, tile] = String(e.text || "").split(" ");
      const own = tile ? variant.actionLabel(kind, tile, helpers) : null;   // laizi's peel, a bomb
      const what = own ? own
        : kind === "discard" && tile ? [S.discard + " ", tileEl(tile, "tiny")]
        : kind === "chow" && tile ? [S.chow + " ", tilesEl(parseTiles(tile), "inline", "tiny")]
        : (kind === "kong" || kind === "add") && tile ? [(kind === "kong" ? S.ckong : S.add) + " ", tileEl(tile, "tiny")]
        : kind === "resign" || kind === "timeout" ? [ctx.t(`moves.${kind}`)]
        : [S[kind] || ctx.t("mv.other")];
      return el("span", "mj-move" + (kind === "pass" ? " muted" : ""), el("b", "", names[e.seat] ?? ""), " ", ...what);
    },
    /** The table refused the move sent: the hand takes clicks again. */
    refused() {
      if (sentAt === null || !msg) return;
      sentAt = null;
      render();
    },
    update(m) {
      if (m.replay) { show(m); return; }            // a replay's step
      const prev = latest;
      if (!prev || m.seq !== prev.seq || m.view.phase !== prev.view.phase) picked = null;
      if (!prev || m.seq !== prev.seq) sentAt = null;
      if (!prev || m.turn !== prev.turn) clearTimeout(passTimer);
      latest = m;
      back.seen(m.seq, m.view);
      if (!history || history.atEnd) show(m);      // else the viewer looks at an earlier turn
      passIfOnly();
      const turns = turnsOf(m.view);
      if (turns) {
        if (!history) history = mountHistory(histHost, { t: ctx.t, title: listTitle(), part: turnPart(helpers), rowClass: "mj-turn", onNavigate: browseTo });
        history.update(turns, who);
        history.setLive(!m.result);
      }
    },
    /** The server's answer to {type: "position", ply}. */
    position(p) { back.position(p); },
    /** The replay page's list of the hand's turns (the last hand of a match), each seat's draws
     *  and concealed kongs with their tiles (the replay shows every hand); null without a log. */
    replayList(host, steps, showStep) {
      const open = (st) => ({ ...st.public, log: (st.public.log || []).map((e, i) => (e.t || e.s === undefined ? e
        : (((st.views || [])[e.s] || {}).log || [])[i] || e)) });
      // every hand of the match, each as its last step holds it (a view's log is its own hand's):
      // a match of several hands lists them one after another, each headed by its number
      const ends = [], deals = new Set();
      steps.forEach((st, i) => {
        if (ends.length && steps[ends[ends.length - 1]].public.hand === st.public.hand) ends[ends.length - 1] = i;
        else { ends.push(i); if (i) deals.add(st); }
      });
      const rows = [], plays = new Map();
      let done = 0;
      for (const i of ends) {
        const hand = steps[i].public.hand;
        (turnsOf(open(steps[i])) || []).forEach((turn, j) => rows.push({ turn, j, hand }));
        plays.set(hand, done);
        done += playCount(turnsOf(steps[i].public));
      }
      if (!rows.length) return null;
      const per = steps[steps.length - 1].public.hands_per_match;
      const several = ends.length > 1;
      const part = turnPart(helpers);
      // the steps of the list a step's table shows done: the earlier hands' and its own hand's; a
      // later hand's first step (its deal, with the flowers laid out at once) counts a hair more
      // than the last hand's end, so a click on that hand's last step shows its win, on the new
      // hand's first steps its deal
      const count = (st) => (plays.get(st.public.hand) || 0) + (deals.has(st) ? 0.5 : playCount(turnsOf(st.public)));
      return replayHistory(host, { t: ctx.t, title: listTitle(), steps, rounds: rows, who, show: showStep, count, el,
        parts: (r) => r.turn, part: (r, m, name) => part(r.turn, m, name), head: (r) => String(r.j + 1), rowClass: "mj-turn",
        groupTitle: (r) => (several && r.j === 0 ? el("span", "mj-hand-no", S.handNo(r.hand, per)) : null) });
    },
  };
}
