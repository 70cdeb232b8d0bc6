// Gomoku / renju board (五子棋 / 连珠): click an intersection to place a stone. Marks the last
// stone, the winning line, the points the opening limits the next stone to, and, on request
// (the "forbidden points" toggle), Black's forbidden points as given by the referee's view.
// The opening choices are buttons: swap (三手可交换), offer two fifth moves and choose one
// (五手两打), claim a forbidden stone, pass. Everything shown comes from `view(seat)`
// (docs/games/gomoku.md); the rules are never re-implemented here: an illegal click is sent
// and the referee's refusal is shown. Intersections carry data-pt="<point>" (a1 .. o15).
import { boardKeys, stoneLabel } from "../boardkeys.js";
import { paren, t, table } from "../i18n.js";
import { coordsButton, readableText } from "../prefs.js";

const COLS = "abcdefghijklmno";
const SIZE = 15;
const STARS = ["d4", "d12", "h8", "l4", "l12"];

// the board's own words: the catalogue's "gomoku.*" entries (qipai/i18n/<lang>.json)
const W = table("gomoku");

const col = (name) => COLS.indexOf(name[0]);
const row = (name) => +name.slice(1) - 1;              // 0 = row 1 (Black's side, at the bottom)
const index = (name) => row(name) * SIZE + col(name);  // board order of the notation

function gridSvg() {
  // intersections at 1..15 in a 16 x 16 box; the margin holds the coordinates
  let d = "";
  for (let i = 1; i <= SIZE; i++) d += `M1 ${i}H${SIZE}M${i} 1V${SIZE}`;
  const stars = STARS.map((p) => `<circle cx="${col(p) + 1}" cy="${SIZE - row(p)}" r=".12"/>`).join("");
  // lower-case letters, as the move list, the move box and renju records write a point (h8)
  const letters = [...COLS].map((c, i) => `<text x="${i + 1}" y="15.82">${c}</text>`).join("");
  // the row numbers end well short of column a's stones (radius .45 round x = 1) and of the
  // ring a last or winning stone wears (3 px), never under them
  const numbers = Array.from({ length: SIZE }, (_, r) => `<text x=".36" y="${SIZE - r + 0.12}" text-anchor="end" font-size=".32"${r >= 9 ? ' textLength=".34" lengthAdjust="spacingAndGlyphs"' : ""}>${r + 1}</text>`).join("");
  return `<svg class="grid" viewBox="0 0 16 16"><path d="${d}" stroke="#4a3410" stroke-width=".045" fill="none"/>` +
    `<g fill="#4a3410">${stars}</g><g class="coord" font-size=".42" text-anchor="middle" fill="#4a3410">${letters}${numbers}</g></svg>`;
}

export function mount(root, ctx) {
  const lang = ctx.lang === "zh" ? "zh" : "en";
  const tr = (k, vars = {}) => (W[k] ?? k).replace(/\{(\w+)\}/g, (_, v) => vars[v]);
  const pref = (k, d) => { const v = localStorage.getItem("gomoku." + k); return v === null ? d : v === "1"; };

  const div = (cls, id) => {
    const d = document.createElement("div");
    d.className = cls;
    if (id) d.id = id;
    return d;
  };
  const wrap = div("gm"), info = div("gm-info", "gm-info"), board = div("gm-board");
  const hint = div("gm-hint", "gm-hint"), actions = div("row gm-actions", "gm-actions"), toggles = div("row gm-toggles");
  board.innerHTML = gridSvg();
  // the coordinates at least 10.5 px high at a phone's width (they were 7); a row number of two
  // figures keeps its width (textLength, narrowed a little), clear of column a's stones
  readableText(board.querySelector("svg.grid"), ".coord text", 10.5);
  wrap.append(info, board, hint, actions, toggles);
  root.replaceChildren(wrap);

  const points = {};
  for (let r = 0; r < SIZE; r++) for (let c = 0; c < SIZE; c++) {
    const name = COLS[c] + (r + 1);
    const pt = document.createElement("div");
    pt.className = "pt";
    pt.dataset.pt = name;
    pt.style.left = `${((c + 0.5) * 100) / 16}%`;
    pt.style.top = `${((SIZE - 1 - r + 0.5) * 100) / 16}%`;
    board.append(pt);
    points[name] = pt;
  }

  const coords = coordsButton(t);       // the coordinates switch, one for the board's life
  let msg = null, picked = [], warned = null;
  let showForbidden = pref("forbidden", false), showNumbers = pref("numbers", false);

  const v = () => msg.view;
  const myTurn = () => msg && !msg.replay && msg.seat !== null && msg.seat !== undefined
    && (msg.to_act || []).includes(msg.seat) && !v().result && msg.status !== "aborted";
  const colourName = (c) => tr(c);
  const stoneAt = (name) => v().board[SIZE - 1 - row(name)][col(name)];

  function button(action, label, onclick, extra = {}) {
    const b = document.createElement("button");
    b.dataset.action = action;
    b.textContent = label;
    b.onclick = onclick;
    for (const [k, val] of Object.entries(extra)) if (val !== undefined && val !== null) b.setAttribute(k, val);
    return b;
  }

  function toggle(key, label, on, set) {
    const b = button("toggle-" + key, label, () => { set(!on()); localStorage.setItem("gomoku." + key, on() ? "1" : "0"); paint(); });
    b.setAttribute("aria-pressed", on() ? "true" : "false");
    b.className = "coords-toggle" + (on() ? " on" : "");     // the board's switches look alike
    return b;
  }

  function rulesText(o) {
    const parts = [tr(o.ruleset)];
    const op = tr("opening_" + o.opening);
    if (op) parts.push(op + (o.opening_name ? ` ${o.opening_name}` : ""));
    if (o.ruleset === "renju") parts.push(tr("handling_" + o.forbidden_handling));
    return parts.join(" · ");
  }

  function paintInfo() {
    const view = v();
    const names = msg.names || [];
    info.replaceChildren();
    const seats = document.createElement("div");
    seats.className = "gm-seats";
    view.colours.forEach((c, s) => {
      const span = document.createElement("span");
      span.className = `gm-seat ${c}` + ((view.to_act || []).includes(s) && !view.result && !msg.result && msg.status !== "aborted" ? " act" : "");
      span.dataset.seat = s;
      span.dataset.colour = c;
      span.dataset.seatbox = s;          // the seat's box: on a phone the table puts its rating and clock after the name
      const dot = document.createElement("i");          // the stone's colour, drawn (no symbol font needed)
      dot.className = `gm-dot ${c === "black" ? "b" : "w"}`;
      dot.setAttribute("aria-hidden", "true");
      const nm = names[s] ? [" ", Object.assign(document.createElement("span"), { className: "nm", textContent: names[s] })] : [];
      span.replaceChildren(dot, colourName(c), ...nm);
      seats.append(span);
    });
    const line = document.createElement("div");
    line.className = "gm-line";
    const parts = [];
    if (msg.seat !== null && msg.seat !== undefined && !msg.replay) parts.push(tr("you", { c: colourName(view.colours[msg.seat]) }));
    const r = view.result || msg.result;      // a replay's last view of a resigned game holds none
    if (r) {
      const who = r.text === "B+" ? "black" : r.text === "W+" ? "white" : null;
      parts.push(who ? tr("winLine", { c: colourName(who), r: tr(r.reason) }) : tr("drawLine", { r: tr(r.reason) }));
    } else if (msg.status !== "aborted") parts.push(tr("turnLine", { c: colourName(view.to_move), n: view.move_number }));
    // an aborted game is nobody's to move: the status line above the board says it was aborted
    const text = parts.join(" · ");
    line.textContent = text;
    const rules = document.createElement("div");
    rules.className = "gm-rules muted";
    rules.textContent = rulesText(view.options);
    info.append(seats, line, rules);
  }

  function paint() {
    const view = v();
    const live = !view.result && msg.status !== "aborted";      // an aborted game shows no next stone
    const order = {};
    for (const s of view.stones) order[s.point] = s.n;
    const forbidden = showForbidden && live && view.forbidden ? view.forbidden : {};
    const area = live && view.area && view.area.length < SIZE * SIZE ? new Set(view.area) : null;
    const offered = new Set(view.choices.choose || []);
    const win = new Set(view.result && view.result.details && view.result.details.line ? view.result.details.line : []);
    const foul = view.result && view.result.details ? view.result.details.point : null;
    board.classList.toggle("numbers", showNumbers);
    board.classList.toggle("clickable", myTurn());
    for (const [name, pt] of Object.entries(points)) {
      const ch = stoneAt(name);
      pt.replaceChildren();
      pt.className = "pt";
      pt.removeAttribute("title");
      if (ch === "x" || ch === "o") {
        const st = document.createElement("div");
        st.className = "st " + (ch === "x" ? "b" : "w");
        if (order[name]) st.textContent = order[name];
        pt.append(st);
      }
      if (name === view.last_move) pt.classList.add("last");
      if (win.has(name)) pt.classList.add("win");
      if (name === foul) pt.classList.add("foul");
      if (forbidden[name]) {
        pt.classList.add("forbidden");
        pt.title = tr(forbidden[name]);
        pt.dataset.kind = forbidden[name];
      } else delete pt.dataset.kind;
      if (area && area.has(name) && ch === ".") pt.classList.add("area");
      if (offered.has(name)) pt.classList.add("offered");
      if (picked.includes(name)) pt.classList.add("picked");
      if (warned === name) pt.classList.add("warn");
    }
    board.dataset.seq = msg.seq;
    paintInfo();
    paintActions();
    keys.refresh();
  }

  function paintActions() {
    const view = v();
    const ch = view.choices;
    const over = !!view.result || msg.status === "aborted";      // no hint of a next move after the end
    actions.replaceChildren();
    let text = "";
    if (warned && view.forbidden && view.forbidden[warned]) text = tr("warnLoss", { p: warned, k: tr(view.forbidden[warned]) });
    else if (!over && view.phase === "offer") text = tr("phaseOffer");
    else if (!over && view.phase === "choose") text = tr("phaseChoose", { a: ch.choose[0], b: ch.choose[1] });
    else if (!over && ch.swap) text = tr("swapHint");
    else if (!over && ch.claim) text = tr("claimHint");
    else if (!over && view.area && view.area.length > 1) text = tr("areaHint");
    hint.textContent = text;
    if (myTurn()) {
      if (ch.swap) actions.append(button("swap", tr("swap"), () => ctx.send("swap"), { class: "primary" }));
      if (ch.offer) {
        const ready = picked.length === 2;
        const sorted = [...picked].sort((a, b) => index(a) - index(b));
        actions.append(
          button("offer", tr("offer") + (ready ? paren(sorted.join(", ")) : ""), () => { if (ready) ctx.send("offer:" + sorted.join(",")); },
            { class: "primary", disabled: ready ? null : "" }),
          button("clear", tr("clear"), () => { picked = []; paint(); }, { disabled: picked.length ? null : "" }));
      }
      for (const p of ch.choose || []) actions.append(button("choose:" + p, tr("choose", { p }), () => ctx.send("choose:" + p), { class: "primary" }));
      if (ch.claim) actions.append(button("claim_forbidden", tr("claim"), () => ctx.send("claim_forbidden")));
      if (ch.pass) actions.append(button("pass", tr("pass"), () => ctx.send("pass")));
    }
    toggles.replaceChildren();
    const o = view.options;
    if (o.ruleset === "renju" && o.forbidden_handling !== "claim") {
      toggles.append(toggle("forbidden", tr("forbidden"), () => showForbidden, (x) => { showForbidden = x; warned = null; }));
    }
    toggles.append(toggle("numbers", tr("numbers"), () => showNumbers, (x) => { showNumbers = x; }), coords);
  }

  function click(name) {
    if (!myTurn()) return;
    const view = v();
    if (view.phase === "choose") {
      if ((view.choices.choose || []).includes(name)) ctx.send("choose:" + name);
      return;
    }
    if (stoneAt(name) !== ".") return;
    if (view.phase === "offer") {
      picked = picked.includes(name) ? picked.filter((p) => p !== name) : [...picked, name].slice(-2);
      paint();
      return;
    }
    const kind = showForbidden && view.forbidden ? view.forbidden[name] : null;
    if (kind && view.options.forbidden_handling === "loss" && warned !== name) {
      warned = name;          // a forbidden stone would lose at once: ask for a second click
      paint();
      return;
    }
    warned = null;
    ctx.send(name);
  }

  board.addEventListener("click", (e) => {
    const pt = e.target.closest(".pt");
    if (pt) click(pt.dataset.pt);
  });

  // the keyboard: arrows move over the intersections, Enter / Space places a stone there
  const keys = boardKeys(board, {
    points: () => Object.values(points),
    key: (el) => el.dataset.pt,
    label(el) {
      const base = stoneLabel(t, el.dataset.pt, el.querySelector(".st"), el.classList.contains("last"));
      return el.title ? `${base} · ${el.title}` : base;
    },
    pressed: (el) => el.classList.contains("picked"),
    start: () => (msg && v().last_move) || "h8",
  });

  return {
    update(m) {
      const seqChanged = !msg || m.seq !== msg.seq;
      msg = m;
      if (seqChanged || !myTurn()) { picked = []; warned = null; }
      paint();
    },
  };
}
