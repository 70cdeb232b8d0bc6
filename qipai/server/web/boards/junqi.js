// Junqi (军棋) board, both variants: 陆战棋 luzhan (2 seats, 60 points) and 四国军棋 siguo
// (4 seats, 129 points). Drawn from view(seat) only: stations, railways, roads, camps (行营) and
// headquarters (大本营); your own pieces with their ranks, the others' face down ("?"); the board
// turned so the viewer's area is at the bottom (the flip switch under it turns it round).
//
// Layout phase: the offered layouts as buttons, swap two of your pieces by clicking them or by
// dragging one onto the other (the
// pieces that may trade places with the selected one are highlighted: flag on a headquarters,
// mines in the last two rows, no bomb in the front row), then submit the full layout text.
// Play phase: click one of your pieces, then one of its destinations (taken from the legal
// actions the server sent), or drag it there; the last move and its combat outcome are marked.
//
// Points carry data-pt="<point name>" (a1 .. e12, or S31 / C22); a piece inside is .jq-pc with
// data-piece="<code or ?>" and data-seat. The geometry below mirrors qipai/games/junqi/board.py
// for drawing only: every move the board sends is one the server listed as legal.

import { boardKeys } from "../boardkeys.js";
import { dragMoves, pointAt } from "../dragmove.js";
import { paren, t, table } from "../i18n.js";
import { flipButton } from "../prefs.js";

// the board's own words: the catalogue's "junqi.*" entries (qipai/i18n/<lang>.json)
const W = table("junqi");

// piece codes (§8) -> Chinese rank, one-character face (siguo), English short and full names
const PIECES = {
  40: ["司令", "司", "Cmdr", "Commander"], 39: ["军长", "军", "Corps", "Corps commander"],
  38: ["师长", "师", "Div", "Division commander"], 37: ["旅长", "旅", "Brig", "Brigadier"],
  36: ["团长", "团", "Regt", "Colonel"], 35: ["营长", "营", "Bn", "Major"],
  34: ["连长", "连", "Coy", "Captain"], 33: ["排长", "排", "Plt", "Lieutenant"],
  32: ["工兵", "工", "Eng", "Engineer"], B: ["炸弹", "炸", "Bomb", "Bomb"],
  M: ["地雷", "雷", "Mine", "Landmine"], F: ["军旗", "旗", "Flag", "Flag"],
};
const CODES = ["40", "39", "38", "37", "36", "35", "34", "33", "32", "B", "M", "F"];
const COUNTS = { 40: 1, 39: 1, 38: 2, 37: 2, 36: 2, 35: 2, 34: 3, 33: 3, 32: 3, B: 2, M: 3, F: 1 };
const CAMPS = new Set(["2,2", "2,4", "3,3", "4,2", "4,4"]);
const HQS = new Set(["6,2", "6,4"]);

// ----- geometry ------------------------------------------------------------------------------
// Every point: {name, seat (-1 centre), r, c (local, or null), x, y (drawing units, y down,
// South at the bottom)}; lines: the railway lines as point-name lists; roads: point-name pairs.

function luzhanGeometry() {
  const cols = "abcde", pts = [];
  const DX = 20, DY = 11.5, GAP = 9, TOP = 6;
  for (let row = 1; row <= 12; row++) for (let ci = 0; ci < 5; ci++) {
    const seat = row <= 6 ? 0 : 1;
    const [r, c] = seat === 0 ? [7 - row, ci + 1] : [row - 6, 5 - ci];
    const y = TOP + (12 - row) * DY + (row <= 6 ? GAP : 0);
    pts.push({ name: cols[ci] + row, seat, r, c, x: 10 + ci * DX, y });
  }
  const lines = [
    Array.from({ length: 10 }, (_, i) => "a" + (i + 2)), Array.from({ length: 10 }, (_, i) => "e" + (i + 2)),
    ...[6, 7, 2, 11].map((r) => [...cols].map((c) => c + r)), ["c6", "c7"],
  ];
  const h = 2 * TOP + 11 * DY + GAP;
  return { pts, lines, w: 100, h, tile: [15.5, 8.6], camp: [7.2, 4.6], hqLabel: 2.6,
    mountains: [{ x: 30, y: TOP + 5.5 * DY + GAP / 2 }, { x: 70, y: TOP + 5.5 * DY + GAP / 2 }] };
}

function siguoGeometry() {
  const seats = "SENW", pts = [];
  const xy = { S: (r, c) => [5 + c, 6 - r], N: (r, c) => [11 - c, 10 + r], E: (r, c) => [10 + r, 5 + c], W: (r, c) => [6 - r, 11 - c] };
  const U = 6;      // drawing units per grid step
  const at = (gx, gy) => [U * (gx + 0.5), U * (16 - gy + 0.5)];
  [...seats].forEach((s, seat) => {
    for (let r = 1; r <= 6; r++) for (let c = 1; c <= 5; c++) {
      const [x, y] = at(...xy[s](r, c));
      pts.push({ name: `${s}${r}${c}`, seat, r, c, x, y });
    }
  });
  for (let i = 1; i <= 3; i++) for (let j = 1; j <= 3; j++) {
    const [x, y] = at(6 + 2 * (i - 1), 6 + 2 * (j - 1));
    pts.push({ name: `C${i}${j}`, seat: -1, r: null, c: null, x, y });
  }
  const side = (s, c) => [5, 4, 3, 2, 1].map((r) => `${s}${r}${c}`);     // back to front
  const row = (s, r) => [1, 2, 3, 4, 5].map((c) => `${s}${r}${c}`);
  const rev = (a) => [...a].reverse();
  const lines = [
    [...side("S", 1), "C11", "C12", "C13", ...rev(side("N", 5))],
    [...side("S", 5), "C31", "C32", "C33", ...rev(side("N", 1))],
    ["S13", "C21", "C22", "C23", "N13"],
    [...side("W", 5), "C11", "C21", "C31", ...rev(side("E", 1))],
    [...side("W", 1), "C13", "C23", "C33", ...rev(side("E", 5))],
    ["W13", "C12", "C22", "C32", "E13"],
    ...[...seats].flatMap((s) => [row(s, 1), row(s, 5)]),
    [...side("S", 1), ...rev(side("W", 5))], [...side("S", 5), ...rev(side("E", 1))],
    [...side("N", 5), ...rev(side("W", 1))], [...side("N", 1), ...rev(side("E", 5))],
  ];
  return { pts, lines, w: 17 * U, h: 17 * U, tile: [5.1, 4.3], camp: [2.6, 2.6], hqLabel: 1.3, mountains: [] };
}

function geometry(variant) {
  const g = variant === "siguo" ? siguoGeometry() : luzhanGeometry();
  g.variant = variant === "siguo" ? "siguo" : "luzhan";
  g.by = Object.fromEntries(g.pts.map((p) => [p.name, p]));
  for (const p of g.pts) { p.camp = p.r !== null && CAMPS.has(`${p.r},${p.c}`); p.hq = p.r !== null && HQS.has(`${p.r},${p.c}`); }
  const key = (a, b) => (a < b ? `${a}|${b}` : `${b}|${a}`);
  g.railPairs = new Set();
  for (const line of g.lines) for (let i = 0; i + 1 < line.length; i++) g.railPairs.add(key(line[i], line[i + 1]));
  // roads: orthogonal neighbours of one area that are not a railway pair, and camp diagonals
  const roads = new Set();
  const local = {};
  for (const p of g.pts) if (p.seat >= 0) local[`${p.seat}:${p.r},${p.c}`] = p.name;
  for (const p of g.pts) {
    if (p.seat < 0) continue;
    for (const [dr, dc] of [[0, 1], [1, 0]]) {
      const q = local[`${p.seat}:${p.r + dr},${p.c + dc}`];
      if (q && !g.railPairs.has(key(p.name, q))) roads.add(key(p.name, q));
    }
    if (p.camp) for (const dr of [-1, 1]) for (const dc of [-1, 1]) {
      const q = local[`${p.seat}:${p.r + dr},${p.c + dc}`];
      if (q) roads.add(key(p.name, q));
    }
  }
  g.roads = [...roads].map((k) => k.split("|"));
  return g;
}

// the viewer's rotation: luzhan turns 180° for North; siguo turns the viewer's area to the bottom;
// the flip switch (`flip`) turns it 180° more
function rotate(g, seat, x, y, flip) {
  const cx = g.w / 2, cy = g.h / 2;
  let dx = x - cx, dy = y - cy;
  const turns = (seat === null || seat === undefined ? 0 : g.variant === "luzhan" ? seat * 2 : seat) + (flip ? 2 : 0);
  // one quarter turn brings the area on the right (East) to the bottom (screen y grows downwards)
  for (let i = 0; i < turns % 4; i++) [dx, dy] = [-dy, dx];
  return [cx + dx, cy + dy];
}

// may `code` start on local (r, c) (§4)? camps start empty, the flag on a headquarters, mines in
// the last two rows, no bomb in the front row
function allowed(p, code) {
  if (p.camp) return false;
  if (code === "F") return p.hq;
  if (code === "M") return p.r >= 5;
  if (code === "B") return p.r !== 1;
  return true;
}

function parseLayout(text) {
  const out = {};
  for (const e of text.trim().split(/\s+/)) {
    const [pt, code] = e.split("=");
    if (pt && code) out[pt] = code.toUpperCase();
  }
  return out;
}

const MOVE_RE = /^([A-Za-z]\d+)-([A-Za-z]\d+)(?::(win|lose|both|flag))?$/;

// ----- the board -------------------------------------------------------------------------------
export function mount(root, ctx) {
  const S = W;
  const box = document.createElement("div");
  box.className = "jq";
  const info = document.createElement("div");
  info.className = "jq-info";
  info.id = "jq-info";
  const board = document.createElement("div");
  board.className = "jq-board";
  board.id = "jq-board";
  const note = document.createElement("div");
  note.className = "jq-note";
  note.id = "jq-note";
  const panel = document.createElement("div");
  panel.className = "row jq-actions";
  panel.id = "jq-actions";
  const legend = document.createElement("details");
  legend.className = "jq-legend";
  const lost = document.createElement("div");
  lost.className = "jq-lost";
  lost.id = "jq-lost";
  // the flip switch under the board: the board from the other side
  const toggles = document.createElement("div");
  toggles.className = "row board-toggles";
  toggles.append(flipButton(t, (on) => { turned = on; if (g) { build(turnedFor); paint(); } }));
  box.append(info, panel, board, toggles, lost, note, legend);
  root.replaceChildren(box);

  let msg = null, g = null, turnedFor, sel = null, warn = "", turned = false;
  let draft = null, draftChoice = 0, draftKey = null;      // layout being prepared: point -> code
  const cells = {};

  // the key: each piece's face as the board shows it (四国军棋's one character first), its name
  // and how many; open on an English page (the faces are Chinese characters, as xiangqi's are)
  const keyOf = (variant) => {
    legend.innerHTML = `<summary>${S.pieces}</summary>` + CODES.map((c) =>
      `<span class="jq-leg" data-leg="${c}">${variant === "siguo" ? `<b class="jq-face">${PIECES[c][1]}</b> ` : ""}<b>${PIECES[c][0]}</b>${ctx.lang === "zh" ? "" : ` ${PIECES[c][3]}`}${paren(c)} ×${COUNTS[c]}</span>`).join("");
    legend.open = ctx.lang !== "zh";
  };
  keyOf("luzhan");

  function build(seat) {
    const [tw, th] = g.tile;
    let svg = `<svg class="jq-lines" viewBox="0 0 ${g.w} ${g.h}">`;
    const P = (n) => rotate(g, seat, g.by[n].x, g.by[n].y, turned);
    const sw = g.variant === "luzhan" ? 0.35 : 0.2;
    for (const [a, b] of g.roads) {
      const [x1, y1] = P(a), [x2, y2] = P(b);
      svg += `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" class="road" stroke-width="${sw}"/>`;
    }
    for (const k of g.railPairs) {
      const [a, b] = k.split("|");
      const [x1, y1] = P(a), [x2, y2] = P(b);
      let d = `M${x1} ${y1}L${x2} ${y2}`;
      if (x1 !== x2 && y1 !== y2) {       // a siguo corner arc: bend round the empty corner
        const cx = g.w / 2, cy = g.h / 2;
        const mx = Math.abs(x1 - cx) > Math.abs(x2 - cx) ? x1 : x2, my = Math.abs(y1 - cy) > Math.abs(y2 - cy) ? y1 : y2;
        d = `M${x1} ${y1}Q${mx} ${my} ${x2} ${y2}`;
      }
      svg += `<path d="${d}" class="rail" stroke-width="${sw * 4}"/><path d="${d}" class="rail-tie" stroke-width="${sw * 2.2}" stroke-dasharray="${sw * 3} ${sw * 3}"/>`;
    }
    for (const p of g.pts) {
      const [x, y] = P(p.name);
      if (p.camp) svg += `<ellipse cx="${x}" cy="${y}" rx="${g.camp[0]}" ry="${g.camp[1]}" class="camp"/>`;
      else if (p.hq) svg += `<rect x="${x - tw / 2}" y="${y - th / 2}" width="${tw}" height="${th}" rx="${th / 2}" class="hq"/><text x="${x}" y="${y + g.hqLabel / 3}" font-size="${g.hqLabel}" class="hq-label">${S.hq}</text>`;
      else svg += `<rect x="${x - tw / 2}" y="${y - th / 2}" width="${tw}" height="${th}" rx="${th / 8}" class="${p.seat < 0 ? "station centre" : "station"}"/>`;
    }
    for (const m of g.mountains) {
      const [x, y] = rotate(g, seat, m.x, m.y, turned);
      svg += `<text x="${x}" y="${y + 1.2}" font-size="3.4" class="mountain">${S.mountain}</text>`;
    }
    board.innerHTML = svg + "</svg>";
    board.style.aspectRatio = `${g.w} / ${g.h}`;
    board.dataset.variant = g.variant;
    for (const p of g.pts) {
      const d = document.createElement("div");
      const [x, y] = P(p.name);
      d.className = "jq-pt" + (p.camp ? " camp" : "") + (p.hq ? " hq" : "");
      d.dataset.pt = p.name;
      d.style.left = `${(x * 100) / g.w}%`;
      d.style.top = `${(y * 100) / g.h}%`;
      d.style.width = `${(tw * 100) / g.w}%`;
      d.style.height = `${(th * 100) / g.h}%`;
      d.onclick = () => choose(p.name);
      board.append(d);
      cells[p.name] = d;
    }
  }

  // ----- what the viewer sees -----------------------------------------------------------------
  const me = () => (msg.replay && !msg.browsing ? null : msg.seat);
  const layoutPhase = () => msg.view.phase === "layout";
  const acting = () => !msg.replay && msg.seat !== null && msg.seat !== undefined && (msg.to_act || []).includes(msg.seat) && !msg.result && !msg.view.result && msg.status !== "aborted";
  const drafting = () => acting() && layoutPhase();
  const playing = () => acting() && msg.view.phase === "play";

  // point -> {seat, piece, moved}: the view's pieces; a replay shows each piece as its owner saw
  // it; while laying out, the draft stands on the board
  function pieces() {
    const out = {};
    if (msg.replay && Array.isArray(msg.views)) {
      for (const p of msg.view.pieces || []) out[p.point] = p;
      msg.views.forEach((v, s) => { for (const p of (v && v.pieces) || []) if (p.seat === s) out[p.point] = p; });
    } else for (const p of msg.view.pieces || []) out[p.point] = p;
    if (drafting() && draft) for (const [pt, code] of Object.entries(draft)) out[pt] = { point: pt, seat: msg.seat, piece: code, moved: false };
    return out;
  }

  function moves() {
    const m = {};
    if (!playing()) return m;
    for (const a of msg.legal || []) {
      const hit = MOVE_RE.exec(a);
      if (hit) (m[hit[1]] = m[hit[1]] || []).push(hit[2]);
    }
    return m;
  }

  function lastMove() {
    const h = msg.view.history || [];
    if (!h.length) return null;
    const [seat, text] = h[h.length - 1];
    const hit = MOVE_RE.exec(text);
    return hit ? { seat, from: hit[1], to: hit[2], outcome: hit[3] || null, text } : { seat, text };
  }

  function swapPartners(a) {
    if (!draft || !draft[a]) return [];
    return Object.keys(draft).filter((b) => b !== a && draft[b] !== draft[a] && allowed(g.by[b], draft[a]) && allowed(g.by[a], draft[b]));
  }

  function face(piece) {
    const [zh, one, en] = PIECES[piece] || ["", "", ""];
    // 四国军棋's small pieces: the one-character face in both languages (the code, 32 for an
    // engineer, said nothing; the two-player board shows the same characters)
    if (g.variant === "siguo") return one;
    return ctx.lang === "zh" ? zh : `${zh}<small>${en}</small>`;
  }

  function seatName(s) { return (S.seatNames[g.variant] || [])[s] || String(s); }

  // ----- painting -----------------------------------------------------------------------------
  function paint() {
    const v = msg.view;
    const ps = pieces();
    const mv = moves();
    const lm = lastMove();
    const targets = sel ? (drafting() ? swapPartners(sel) : mv[sel] || []) : [];
    for (const [name, d] of Object.entries(cells)) {
      const p = ps[name];
      d.replaceChildren();
      d.className = "jq-pt" + (g.by[name].camp ? " camp" : "") + (g.by[name].hq ? " hq" : "");
      if (p) {
        const pc = document.createElement("div");
        const mine = p.seat === me();
        pc.className = `jq-pc s${p.seat}` + (p.piece === "?" ? " back" : "") + (mine ? " mine" : "") + (p.moved ? " moved" : "");
        pc.dataset.piece = p.piece;
        pc.dataset.seat = p.seat;
        if (p.piece !== "?") {
          pc.innerHTML = face(p.piece);
          pc.title = pieceName(p.piece);
        }
        d.append(pc);
        if ((drafting() && mine) || mv[name]) d.classList.add("can-move");
      }
      if (sel === name) d.classList.add("sel");
      if (targets.includes(name)) d.classList.add("target");
      if (lm && lm.from === name) d.classList.add("last-from");
      if (lm && lm.to === name) {
        d.classList.add("last-to");
        if (lm.outcome) {
          d.classList.add("combat", "combat-" + lm.outcome);
          const b = document.createElement("span");
          b.className = "jq-badge";
          b.dataset.outcome = lm.outcome;
          b.textContent = S.badge[lm.outcome];
          d.append(b);
        }
      }
    }
    paintInfo(v, lm);
    paintLost(v, ps);
    paintPanel(v);
    keys.refresh();
  }

  const pieceName = (piece) => (PIECES[piece] ? PIECES[piece][ctx.lang === "zh" ? 0 : 3] : t("kb.hidden"));

  // the keyboard: arrows move to the nearest point that way, Enter / Space picks a piece or its target
  const keys = boardKeys(board, {
    points: () => Object.values(cells),
    key: (d) => d.dataset.pt,
    label(d) {
      const pc = d.querySelector(".jq-pc");
      const base = pc ? t("kb.point", { point: d.dataset.pt, what: `${seatName(+pc.dataset.seat)} ${pieceName(pc.dataset.piece)}` })
        : t("kb.empty", { point: d.dataset.pt });
      return d.classList.contains("target") ? `${base} · ${t("kb.canMove")}` : base;
    },
    pressed: (d) => d.classList.contains("sel"),
    start: () => sel,
    shown: false,           // the label names the piece in the page's language
  });

  function paintInfo(v, lm) {
    info.replaceChildren();
    const names = msg.names || [];
    (v.seats || []).forEach((_, s) => {
      const span = document.createElement("span");
      span.className = `jq-seat s${s}` + (v.to_move === s && !msg.result && !v.result && msg.status !== "aborted" ? " to-move" : "") + (v.eliminated && v.eliminated[s] ? " out" : "");
      span.dataset.seatinfo = s;
      span.dataset.seatbox = s;          // the seat's box: on a phone the table puts its rating and clock after the name
      const nm = document.createElement("span");
      nm.className = "nm";
      nm.textContent = `${names[s] || ""}${s === me() ? paren(S.you) : ""}`;
      // each fact whole on its line (a phone wrapped 布阵中 as 布阵 / 中)
      // a game aborted in its layout: a seat that did not lay out is not still laying out
      const notDone = msg.status === "aborted" ? S.notLaidOut : S.notReady;
      const facts = [v.phase === "layout" ? (v.layout_done && v.layout_done[s] ? S.ready : notDone) : `${S.attacks} ${(v.attacks || [])[s] ?? 0}`];
      if (v.flag_revealed && v.flag_revealed[s]) facts.push(S.revealed);
      if (v.eliminated && v.eliminated[s]) facts.push(S.out);
      span.replaceChildren(`${seatName(s)} `, nm, ...facts.flatMap((f) => {
        const b = document.createElement("span");
        b.className = "jq-fact";
        b.textContent = f;
        return [" · ", b];
      }));
      info.append(span);
    });
    const line = document.createElement("span");
    line.className = "jq-last";
    line.id = "jq-last";
    if (lm) {
      line.dataset.outcome = lm.outcome || "";
      const what = lm.from ? `${lm.from}–${lm.to}${lm.outcome ? ` · ${S.outcome[lm.outcome]}` : ""}`
        : lm.text === "resign" ? S.resign : lm.text === "timeout" ? S.timeout : lm.text.startsWith("forfeit") ? S.forfeit : lm.text;
      line.textContent = `${S.last}${t("colon")}${seatName(lm.seat)} ${what}`;
    }
    if (v.phase === "play") {
      const q = document.createElement("span");
      q.className = "jq-quiet";
      q.textContent = `${S.quiet} ${v.quiet}/${v.quiet_limit}`;
      info.append(line, q);
    } else info.append(line);
  }

  // pieces each army has lost: by name where the viewer knows them (its own, or every army in a
  // replay), else how many
  function paintLost(v, ps) {
    lost.replaceChildren();
    if (v.phase === "layout") return;
    const label = ctx.t ? ctx.t("moves.lost", null, "Lost") : "Lost";
    (v.seats || []).forEach((_, s) => {
      const left = {}, known = [];
      let n = 0;
      for (const p of Object.values(ps)) if (p.seat === s) { n++; if (p.piece !== "?") left[p.piece] = (left[p.piece] || 0) + 1; }
      const total = Object.values(COUNTS).reduce((a, b) => a + b, 0);
      const seen = Object.values(left).reduce((a, b) => a + b, 0) === n;     // every piece's rank is shown
      if (seen) for (const c of CODES) for (let i = left[c] || 0; i < COUNTS[c]; i++) known.push(c);
      const line = document.createElement("div");
      line.className = `jq-lost-row s${s}`;
      line.dataset.lost = s;
      line.append(`${seatName(s)}${msg.names && msg.names[s] ? " " + msg.names[s] : ""} · ${label} ${total - n}`);
      for (const c of known) {
        const e = document.createElement("span");
        e.className = `jq-lost-pc s${s}`;
        e.textContent = PIECES[c][ctx.lang === "zh" ? 0 : 2];
        e.title = ctx.lang === "zh" ? PIECES[c][0] : `${PIECES[c][0]} ${PIECES[c][3]}`;
        line.append(e);
      }
      lost.append(line);
    });
  }

  function paintPanel(v) {
    panel.replaceChildren();
    note.textContent = warn;
    if (msg.replay || msg.seat === null || msg.seat === undefined || v.phase !== "layout" || v.result
      || msg.status === "aborted") return;      // aborted in the layout: nothing is awaited
    if (!drafting()) { note.textContent = S.layoutDone; return; }
    (msg.legal || []).forEach((text, i) => {
      const b = document.createElement("button");
      b.textContent = `${S.offered} ${i + 1}`;
      b.dataset.layout = i;
      if (i === draftChoice) b.classList.add("on");
      b.onclick = () => { draftChoice = i; draft = parseLayout(text); sel = null; warn = ""; paint(); };
      panel.append(b);
    });
    const submit = document.createElement("button");
    submit.className = "primary";
    submit.dataset.action = "submit";
    submit.textContent = S.submit;
    submit.onclick = () => { if (draft) { sel = null; ctx.send(layoutText()); } };
    panel.append(submit);
    if (!warn) note.textContent = S.swapHint;
  }

  // the layout text in the area's local order (front row first, left to right)
  function layoutText() {
    const pts = Object.keys(draft).sort((a, b) => g.by[a].r - g.by[b].r || g.by[a].c - g.by[b].c);
    return pts.map((p) => `${p}=${draft[p]}`).join(" ");
  }

  function choose(name) {
    if (!msg) return;
    warn = "";
    if (drafting()) {
      if (!draft || !draft[name]) { sel = null; paint(); return; }
      if (sel === null || sel === name) { sel = sel === name ? null : name; paint(); return; }
      if (swapPartners(sel).includes(name)) {
        [draft[sel], draft[name]] = [draft[name], draft[sel]];
        sel = null;
      } else if (draft[sel] === draft[name]) sel = name;
      else { warn = S.cannotSwap; sel = null; }
      paint();
      return;
    }
    if (!playing()) return;
    const mv = moves();
    if (sel && (mv[sel] || []).includes(name)) {
      const action = `${sel}-${name}`;
      sel = null;
      paint();
      ctx.send(action);
      return;
    }
    sel = mv[name] ? name : null;
    paint();
  }

  // a piece is dragged to its target as it is clicked and then the target: a move in the play,
  // a swap while laying out
  dragMoves(board, {
    from(el) {
      const d = el.closest(".jq-pt");
      if (!d || !msg) return null;
      const name = d.dataset.pt;
      return (drafting() ? draft && draft[name] : playing() && moves()[name]) ? name : null;
    },
    at: (x, y) => pointAt(board, x, y, ".jq-pt")?.dataset.pt ?? null,
    targets: (name) => (drafting() ? swapPartners(name) : moves()[name] || []),
    pick(name) { sel = name; warn = ""; paint(); },
    drop(from, to) { sel = from; choose(to); },
    cancel() { sel = null; paint(); },
    piece: (name) => cells[name] && cells[name].querySelector(".jq-pc"),
  });

  return {
    update(m) {
      msg = m;
      const variant = m.view.variant || "luzhan";
      const seat = me();
      if (!g || g.variant !== variant || turnedFor !== seat) {
        if (!g || g.variant !== variant) keyOf(variant);
        g = geometry(variant);
        turnedFor = seat;
        build(seat);
      }
      // a new set of offered layouts (a new game at this board) starts a new draft
      const key = drafting() ? (m.legal || []).join("/") : null;
      if (key !== draftKey) {
        draftKey = key;
        draftChoice = 0;
        draft = key && m.legal.length ? parseLayout(m.legal[0]) : null;
      }
      if (!acting()) sel = null;
      if (sel && !drafting() && !moves()[sel]) sel = null;
      // a refused swap is said while the layout is drafted: not once it is sent (the play's board
      // note, and the game's end, never keep it)
      if (!drafting()) warn = "";
      board.dataset.seq = m.seq;
      board.dataset.phase = m.view.phase;
      paint();
    },
  };
}

