// Chinese checkers board (跳棋): the six-pointed star of 121 holes drawn in SVG, each seat's
// marbles in its own colour, home camps tinted, turned so that the viewer's home camp is at the
// bottom (spectators and replays: seat 0's camp S at the bottom; the flip switch turns it round).
// Click one of your marbles, then one of its highlighted destinations, or drag the marble there;
// the destinations are exactly the legal actions the server
// sent (`msg.legal`: "q,r>q,r" steps and "q,r>...>q,r" jump chains), so a click never sends an
// illegal move. The last move is drawn as its path, start ringed and end marked. "pass" is a
// button when the server offers it. Everything shown comes from `view(seat)`
// (docs/games/chinese-checkers.md, section View); no rule is re-implemented here.
//
// Holes are SVG groups <g class="h" data-hole="q,r">; a marble inside is <circle class="mb"
// data-owner="<seat>">. Selected: .sel, destinations: .target, last move: .last-from/.last-to.

import { boardKeys } from "../boardkeys.js";
import { dragMoves, pointAt } from "../dragmove.js";
import { paren, t, table } from "../i18n.js";
import { CC_COLUMNS, ccCell } from "../movetext.js";
import { coordsButton, flipButton, readableText } from "../prefs.js";

// the board's own words: the catalogue's "cc.*" entries (qipai/i18n/<lang>.json)
const W = table("cc");

const COLORS = ["#d32f2f", "#1e5bd6", "#2e9d3a", "#f2b705", "#8a3fc2", "#2b2b2b"];
const SQ3 = Math.sqrt(3) / 2;
const OPPOSITE = { N: "S", S: "N", NE: "SW", SW: "NE", SE: "NW", NW: "SE" };

// the star: the union of the triangles q, r, s >= -4 and q, r, s <= 4 (axial q, r; s = -q - r)
const HOLES = [];
for (let r = -8; r <= 8; r++) for (let q = -8; q <= 8; q++) {
  const s = -q - r;
  if ((q >= -4 && r >= -4 && s >= -4) || (q <= 4 && r <= 4 && s <= 4)) HOLES.push([q, r]);
}
const ON = new Set(HOLES.map(([q, r]) => `${q},${r}`));
function campOf(q, r) {
  const s = -q - r;
  if (r <= -5) return "N";
  if (q >= 5) return "NE";
  if (s <= -5) return "SE";
  if (r >= 5) return "S";
  if (q <= -5) return "SW";
  if (s >= 5) return "NW";
  return null;
}
// the three corner holes of each camp (its triangle)
const CORNERS = {
  N: [[4, -8], [0, -4], [4, -4]], NE: [[8, -4], [4, -4], [4, 0]], SE: [[4, 4], [4, 0], [0, 4]],
  S: [[-4, 8], [0, 4], [-4, 4]], SW: [[-8, 4], [-4, 4], [-4, 0]], NW: [[-4, -4], [-4, 0], [0, -4]],
};

const NS = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs = {}) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}
const fmt = (x) => x.toFixed(3);

export function mount(root, ctx) {
  const lang = ctx.lang === "zh" ? "zh" : "en";
  const S = W;
  const tr = (k, vars = {}) => ctx.t(`cc.${k}`, vars);     // through t: plural forms too

  const div = (cls, id) => Object.assign(document.createElement("div"), { className: cls, id: id || "" });
  const wrap = div("cc"), info = div("cc-info", "cc-info"), note = div("cc-note", "cc-note");
  const actions = div("row cc-actions", "cc-actions");
  const svg = svgEl("svg", { class: "cc-board", id: "cc-board", viewBox: "-7.2 -7.9 14.4 15.8", role: "group", "aria-label": S.board });
  const coords = coordsButton(t);      // the coordinates switch, at the end of the actions' row
  // ... and the flip switch: the board turned round (the opposite camp at the bottom)
  const flip = flipButton(t, (on) => { turned = on; if (msg) { turn(); paint(); } });
  wrap.append(info, svg, note, actions);
  root.replaceChildren(wrap);

  let msg = null, angle = null, sel = null, sentSeq = null, turned = false;
  const groups = {};          // "q,r" -> <g>
  let pathLayer = null;

  // ----- geometry: axial (q, r) -> screen, turned by `angle` ----------------------------
  function xy(q, r) {
    const x = q + r / 2, y = r * SQ3;
    const c = Math.cos(angle), s = Math.sin(angle);
    return [x * c - y * s, x * s + y * c];
  }
  const parse = (h) => h.split(",").map(Number);

  function angleFor(camp) {
    // the turn that brings `camp`'s centre straight below the board's centre
    const pts = HOLES.filter(([q, r]) => campOf(q, r) === camp);
    let x = 0, y = 0;
    for (const [q, r] of pts) { x += q + r / 2; y += r * SQ3; }
    return Math.PI / 2 - Math.atan2(y, x);
  }

  function build() {
    svg.replaceChildren();
    const v = msg.view;
    // the board: both big triangles, padded by a thick round stroke
    const tri = (pts) => pts.map(([q, r]) => xy(q, r).map(fmt).join(",")).join(" ");
    for (const t of [[[-4, -4], [-4, 8], [8, -4]], [[4, 4], [4, -8], [-8, 4]]]) {
      svg.append(svgEl("polygon", { points: tri(t), class: "cc-star" }));
    }
    // home camps tinted with their seat's colour, targets outlined in it
    (v.camps || []).forEach((camp, seat) => {
      svg.append(svgEl("polygon", { points: tri(CORNERS[camp]), class: "cc-camp", fill: COLORS[seat], "data-camp": camp }));
    });
    (v.targets || []).forEach((camp, seat) => {
      svg.append(svgEl("polygon", { points: tri(CORNERS[camp]), class: "cc-goal", stroke: COLORS[seat] }));
    });
    // the lines between neighbouring holes
    let d = "";
    for (const [q, r] of HOLES) {
      for (const [dq, dr] of [[1, 0], [0, 1], [-1, 1]]) {
        if (!ON.has(`${q + dq},${r + dr}`)) continue;
        const [x1, y1] = xy(q, r), [x2, y2] = xy(q + dq, r + dr);
        d += `M${fmt(x1)} ${fmt(y1)}L${fmt(x2)} ${fmt(y2)}`;
      }
    }
    svg.append(svgEl("path", { d, class: "cc-lines" }));
    pathLayer = svgEl("g", { class: "cc-path" });
    svg.append(pathLayer);
    rulers();
    for (const [q, r] of HOLES) {
      const name = `${q},${r}`;
      const [x, y] = xy(q, r);
      const g = svgEl("g", { class: "h", "data-hole": name, transform: `translate(${fmt(x)} ${fmt(y)})` });
      const title = svgEl("title");
      title.textContent = ccCell(name);
      g.append(svgEl("circle", { class: "hit", r: "0.5" }), svgEl("circle", { class: "hole", r: "0.2" }), title);
      svg.append(g);
      groups[name] = g;
    }
  }

  // the cell names on the board's edges (movetext.js ccCell): the column letters above and below,
  // the row numbers at both sides, when the board stands with S or N at the bottom (its columns
  // upright); a board turned to another camp names each hole on hover only
  function rulers() {
    const turn = Math.abs(Math.sin(angle)) < 1e-6 ? Math.cos(angle) : 0;    // 1 (S below), -1 (N below), 0
    if (!turn) return;
    const g = svgEl("g", { class: "cc-rulers", "aria-hidden": "true", "font-size": "0.34" });
    const label = (x, y, text) => {
      const e = svgEl("text", { x: fmt(x * turn), y: fmt(y * turn), "text-anchor": "middle", "dominant-baseline": "central" });
      e.textContent = text;
      g.append(e);
    };
    const top = 8 * SQ3 + 0.72;
    [...CC_COLUMNS].forEach((c, i) => { label((i - 12) / 2, -top, c); label((i - 12) / 2, top, c); });
    for (let r = -8; r <= 8; r++) { label(-6.8, r * SQ3, String(9 - r)); label(6.8, r * SQ3, String(9 - r)); }
    svg.append(g);
    readableText(svg, ".cc-rulers text", 11);       // at least 11 px on a phone (they were 7-8)
  }

  const myTurn = () => msg && !msg.replay && msg.seat !== null && msg.seat !== undefined &&
    (msg.to_act || []).includes(msg.seat) && !msg.result && msg.status !== "aborted";
  const legal = () => (myTurn() && Array.isArray(msg.legal) ? msg.legal : []);
  // destination -> the action text, for the marble on `from`
  function targets(from) {
    const out = {};
    for (const a of legal()) {
      const parts = a.split(">");
      if (parts.length >= 2 && parts[0] === from) out[parts[parts.length - 1]] = a;
    }
    return out;
  }

  function owners() {
    const own = {};
    (msg.view.marbles || []).forEach((list, seat) => { for (const h of list) own[h] = seat; });
    return own;
  }

  // why a seat is out, from the view's eliminations: resigned, out of time, stalled in its home
  function outWords(v, seat) {
    const e = (v.eliminated || []).find((x) => x.seat === seat);
    const why = e ? e.reason : "";
    return why === "resign" ? S.outResign : why === "timeout" || why === "timeouts" ? S.outTimeout
      : why === "stalling" ? S.outStalling : S.outOther;
  }

  function paintInfo(own) {
    const v = msg.view;
    const places = msg.result && msg.result.details ? msg.result.details.places : null;
    const names = msg.names || [];
    info.replaceChildren();
    const seats = document.createElement("div");
    seats.className = "cc-seats";
    for (let seat = 0; seat < v.players; seat++) {
      const chip = document.createElement("span");
      chip.className = "cc-seat" + ((v.to_act || []).includes(seat) && !msg.result && msg.status !== "aborted" ? " act" : "");
      chip.dataset.seatInfo = seat;
      chip.dataset.seatbox = seat;       // the seat's box: on a phone the table puts its rating and clock after the name
      chip.title = tr("campTitle", { h: S.campLong[v.camps[seat]], t: S.campLong[v.targets[seat]] });
      const dot = document.createElement("span");
      dot.className = "cc-dot";
      dot.style.background = COLORS[seat];
      const who = document.createElement("div");
      who.className = "cc-name";
      who.append(dot, Object.assign(document.createElement("span"), { className: "nm",
        textContent: (names[seat] || S.color[seat]) + (seat === msg.seat ? paren(S.you) : "") }));
      const status = v.status ? v.status[seat] : "playing";
      // as a player reads them: "South · 8 moves · 0 of 10 home", and why a seat is out in words
      const parts = [S.side[v.camps[seat]], tr("nMoves", { n: v.moves[seat] }), tr("nHome", { n: v.in_target[seat] })];
      if (status === "finished") parts.push(S.finished);
      if (status === "out") parts.push(outWords(v, seat));
      if (places && v.players > 2) parts.push(tr("place", { p: places[seat] }));
      // each part stays on one line (a narrow chip wraps between parts, never inside 已出局)
      const small = document.createElement("small");
      parts.forEach((x, i) => {
        if (i) small.append(" · ");
        small.append(Object.assign(document.createElement("span"), { className: "nw", textContent: x }));
      });
      chip.append(who, small);
      seats.append(chip);
    }
    const rules = document.createElement("div");
    rules.className = "cc-rules muted";
    const rule = v.options?.jump_rule;
    rules.textContent = tr("rulesLine", { n: v.round, rule: S.jump[rule] || rule || "" });
    if (S.jumpHow[rule]) rules.title = S.jumpHow[rule];      // what the rule means, on hover
    info.append(seats, rules);
  }

  function paint() {
    const v = msg.view;
    const own = owners();
    const tg = sel ? targets(sel) : {};
    const movable = new Set(legal().map((a) => a.split(">")[0]));
    svg.classList.toggle("myturn", myTurn());
    const lm = typeof v.last_move === "string" && v.last_move.includes(">") ? v.last_move.split(">") : null;
    for (const [name, g] of Object.entries(groups)) {
      const seat = own[name];
      let mb = g.querySelector(".mb");
      if (seat === undefined) { if (mb) mb.remove(); }
      else {
        if (!mb) { mb = svgEl("circle", { class: "mb", r: "0.4" }); g.insertBefore(mb, g.querySelector("title")); }
        mb.setAttribute("fill", COLORS[seat]);
        mb.dataset.owner = seat;
      }
      g.classList.toggle("sel", sel === name);
      g.classList.toggle("target", name in tg);
      g.classList.toggle("movable", movable.has(name));
      g.classList.toggle("last-from", !!lm && lm[0] === name);
      g.classList.toggle("last-to", !!lm && lm[lm.length - 1] === name);
    }
    // the last move's path (every landing of a jump chain)
    pathLayer.replaceChildren();
    if (lm) {
      const pts = lm.map((h) => xy(...parse(h)).map(fmt).join(",")).join(" ");
      pathLayer.append(svgEl("polyline", { points: pts, class: "cc-last" }));
    }
    // the note under the board and the pass button
    actions.replaceChildren(coords, flip);
    let text = "";
    if (v.last_move === "pass") text = S.lastPass;
    else if (v.last_move === "timeout") text = S.lastTimeout;
    if (myTurn()) {
      const acts = legal();
      if (acts.includes("pass") && sentSeq !== msg.seq) {
        const b = document.createElement("button");
        b.className = "primary";
        b.dataset.action = "pass";
        b.textContent = S.pass;
        b.onclick = () => send("pass");
        coords.before(b);
      }
      if (sentSeq === msg.seq) text = S.sent;
      else if (sel) text = tr("chosen", { h: ccCell(sel), n: Object.keys(tg).length });
      else if (acts.length && acts.every((a) => !a.includes(">"))) text = S.noMoves;
      else text = S.pick;
    }
    note.textContent = text;
    paintInfo(own);
    keys.refresh();
  }

  function send(action) {
    if (!myTurn() || sentSeq === msg.seq) return;
    sentSeq = msg.seq;
    sel = null;
    ctx.send(action);
    paint();
  }

  function choose(name) {
    if (!myTurn() || sentSeq === msg.seq) return;
    if (sel) {
      const tg = targets(sel);
      if (name in tg) { send(tg[name]); return; }
    }
    sel = sel !== name && Object.keys(targets(name)).length ? name : null;
    paint();
  }

  svg.addEventListener("click", (e) => {
    const g = e.target.closest && e.target.closest("[data-hole]");
    if (g) choose(g.dataset.hole);
  });
  // or drag the marble to one of its destinations
  dragMoves(svg, {
    from(el) {
      const g = el.closest && el.closest("[data-hole]");
      return g && msg && sentSeq !== msg.seq && Object.keys(targets(g.dataset.hole)).length ? g.dataset.hole : null;
    },
    at: (x, y) => pointAt(svg, x, y, "[data-hole]")?.dataset.hole ?? null,
    targets: (name) => (sentSeq === msg.seq ? [] : Object.keys(targets(name))),
    pick(name) { sel = name; paint(); },
    drop(from, to) { sel = from; choose(to); },
    cancel() { sel = null; paint(); },
    piece: (name) => groups[name] && groups[name].querySelector(".mb"),
    // a marble of its colour, in a small picture of its own (the board is one SVG)
    ghost(name) {
      const pic = svgEl("svg", { viewBox: "-0.45 -0.45 0.9 0.9", class: "cc-ghost" });
      pic.append(svgEl("circle", { class: "mb", r: "0.4", fill: groups[name].querySelector(".mb").getAttribute("fill") }));
      return pic;
    },
    layer: wrap,
  });

  // the keyboard: arrows move to the nearest hole that way, Enter / Space picks a marble or its target
  const keys = boardKeys(svg, {
    points: () => Object.values(groups),
    key: (g) => g.dataset.hole,
    label(g) {
      const name = g.dataset.hole, mb = g.querySelector(".mb");
      const base = mb ? t("kb.point", { point: ccCell(name), what: t("kb.marble", { colour: S.color[mb.dataset.owner] }) })
        : t("kb.empty", { point: ccCell(name) });
      return g.classList.contains("target") ? `${base} · ${t("kb.canMove")}` : base;
    },
    pressed: (g) => sel === g.dataset.hole,
    activate: (g) => choose(g.dataset.hole),
    start: () => sel || (typeof msg?.view.last_move === "string" && msg.view.last_move.includes(">") ? msg.view.last_move.split(">").pop() : null),
  });

  // the board turned so the viewer's home camp is at the bottom (or the opposite one, flipped);
  // data-home names the camp at the bottom
  function turn() {
    const v = msg.view;
    const seat = (!msg.replay || msg.browsing) && msg.seat !== null && msg.seat !== undefined ? msg.seat : 0;
    const home = (v.camps && v.camps[seat]) || "S", bottom = turned ? OPPOSITE[home] : home;
    const a = angleFor(bottom);
    if (a !== angle || !Object.keys(groups).length) {
      angle = a;
      for (const k of Object.keys(groups)) delete groups[k];
      build();
    }
    svg.dataset.home = bottom;
  }

  return {
    update(m) {
      msg = m;
      turn();
      svg.dataset.seq = m.seq;
      if (!myTurn()) sel = null;
      if (sel && !(sel in Object.fromEntries(legal().map((x) => [x.split(">")[0], 1])))) sel = null;
      paint();
    },
    /** The table refused the move sent: the board takes clicks again, and its note no longer
     *  says "sent" (the refusal is said by the page). */
    refused() {
      if (!msg || sentSeq !== msg.seq) return;
      sentSeq = null;
      paint();
    },
  };
}
