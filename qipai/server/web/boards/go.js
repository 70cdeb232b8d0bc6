// Go (围棋) board: click an intersection to play, the last move ringed, captures counted, and
// after two passes the dead-stone phase — click a chain to mark it dead (or back alive), take the
// referee's proposal, submit; the marks of both players are shown, equal marks count the board,
// different ones resume play. Intersections carry data-pt="<GTP point>" (A1 bottom left,
// columns without I); stones are .stone.b / .stone.w inside them.
//
// Every action the board sends is one the server listed as legal for this seat, so a click can
// never count as an illegal submission. In the dead-stone phase both players act at once; a mark
// sent against a state the other player has just changed is ignored by the server (stale seq),
// so wanted marks are kept in a queue and sent again, one at a time, until the view shows them.

import { boardKeys, stoneLabel } from "../boardkeys.js";
import { paren, t, table, lang } from "../i18n.js";
import { margin as marginText } from "../result.js";
import { ask } from "../ask.js";
import { coordsButton, readableText } from "../prefs.js";

// the board's own words: the catalogue's "go.*" entries (qipai/i18n/<lang>.json)
const W = table("go");

const STARS = { 19: [3, 9, 15], 13: [3, 6, 9], 9: [2, 4, 6], 7: [3], 5: [2] };

/** The komi as the players' own tradition says it (go.md §4.3): in points in English ("Komi 7.5",
 *  as OGS and lichess show it), in the stones Black gives in Chinese, half the points ("黑贴 3¾ 子"
 *  for 7.5, "黑贴 4 子" for seed 002's 8); the view's komi is in points (B − W). */
export function komiText(komi) {
  const k = Number(komi);
  if (!Math.round(Math.abs(k) * 4)) return t("go.komiNone");
  return t(k > 0 ? "go.komiBlack" : "go.komiWhite", { komi: Math.abs(k) });
}

/** The komi in points, for a count line whose verdict is in points: one unit on the line
 *  ("黑贴 8 目 → 白胜 89 目", never "黑贴 4 子 → 白胜 89 目"; "Komi 8" in English as before). */
export function komiPoints(komi) {
  const k = Number(komi);
  if (!Math.round(Math.abs(k) * 4)) return t("go.komiNonePoints");
  return t(k > 0 ? "go.komiBlackPoints" : "go.komiWhitePoints", { komi: marginText(Math.abs(k), lang) });
}

export function mount(root, ctx) {
  const S = W;
  const box = document.createElement("div");
  box.className = "go";
  const grid = document.createElement("div");
  grid.className = "go-board";
  grid.id = "goban";
  const info = document.createElement("div");
  info.className = "go-info";
  const note = document.createElement("div");
  note.className = "go-note";
  note.id = "go-note";
  const buttons = document.createElement("div");
  buttons.className = "row go-actions";
  buttons.id = "go-actions";
  box.append(info, grid, note, buttons);
  // the display switch (the coordinates) at the end of the buttons' row, in a replay too
  const coords = coordsButton(t);
  root.replaceChildren(box);
  // a click on the board while the estimate shows takes the estimate away (and plays nothing)
  grid.addEventListener("click", (e) => {
    if (!est) return;
    e.stopPropagation();
    dismissEstimate();
  }, true);

  let msg = null, size = 0, cols = "";
  const pts = {};
  let wants = [];          // [{action, done(view) -> bool}] marks still to be sent, in order
  // the score estimate asked for during play (the server's, of the board as it stands): shown
  // as the owners' shading until the next move or a click; est.moves is the move it is of
  let est = null, estAsking = false;
  let sentKey = null;      // "seq|action" of the last send (one send per state)

  // ----- geometry ----------------------------------------------------------------------
  const nameOf = (c, r) => cols[c] + (size - r);           // r: row from the top
  const stoneAt = (c, r) => msg.view.board[r][c];          // "X", "O" or "."

  function build() {
    size = msg.view.size;
    cols = msg.view.columns;
    const n = size, u = 100 / (n + 1);
    let d = "";
    for (let i = 1; i <= n; i++) d += `M${u} ${i * u}H${n * u}M${i * u} ${u}V${n * u}`;
    let svg = `<svg class="lines" viewBox="0 0 100 100" preserveAspectRatio="none"><path d="${d}" stroke="#3b2a12" stroke-width=".6" vector-effect="non-scaling-stroke" fill="none"/>`;
    // the star points: 19 x 19 nine, a smaller board its four corner points and the centre
    const stars = STARS[n] || [], mid = stars[Math.floor(stars.length / 2)];
    for (const a of stars) for (const b of stars) if (n >= 19 || stars.length < 3 || (a === mid) === (b === mid)) svg += `<circle cx="${(a + 1) * u}" cy="${(b + 1) * u}" r="${Math.min(1.1, u / 7)}" fill="#3b2a12"/>`;
    // the letters as large as the margin allows (19 x 19 at 390 px: about 8.5 px, they were 6)
    const fs = Math.min(3.2, u * 0.46), e = u * 0.3;
    svg += `<g class="coord">`;
    for (let i = 0; i < n; i++) {
      const x = (i + 1) * u;
      svg += `<text x="${x}" y="${e}" font-size="${fs}" text-anchor="middle" dominant-baseline="middle">${cols[i]}</text>`;
      svg += `<text x="${x}" y="${100 - e}" font-size="${fs}" text-anchor="middle" dominant-baseline="middle">${cols[i]}</text>`;
      // a row number of two figures is held to half a point's width (narrowed a little when a
      // phone's readable size would make it wider), short of the first column's stones
      const fit = n - i >= 10 ? ` textLength="${u * 0.5}" lengthAdjust="spacingAndGlyphs"` : "", s = u * 0.28;
      svg += `<text x="${s}" y="${x}" font-size="${fs}" text-anchor="middle" dominant-baseline="middle"${fit}>${n - i}</text>`;
      svg += `<text x="${100 - s}" y="${x}" font-size="${fs}" text-anchor="middle" dominant-baseline="middle"${fit}>${n - i}</text>`;
    }
    grid.innerHTML = svg + "</g></svg>";
    readableText(grid.querySelector("svg.lines"), ".coord text", 10.5);   // not 7 px on a phone
    grid.style.setProperty("--u", `${u}%`);
    for (const k of Object.keys(pts)) delete pts[k];
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
      const p = document.createElement("div");
      p.className = "pt";
      p.dataset.pt = nameOf(c, r);
      p.style.left = `${(c + 0.5) * u}%`;
      p.style.top = `${(r + 0.5) * u}%`;
      p.addEventListener("click", () => clicked(c, r));
      grid.append(p);
      pts[p.dataset.pt] = p;
    }
  }

  // ----- state helpers -----------------------------------------------------------------
  const seat = () => msg.seat;
  const live = () => msg && !msg.replay && msg.seat !== null && msg.seat !== undefined && !msg.result && msg.status !== "aborted";
  const acting = () => live() && (msg.to_act || []).includes(msg.seat);
  const phase = () => msg.view.phase;
  const legal = () => msg.legal || msg.view.legal_moves || [];
  const myMarks = (v) => new Set(v.marking ? v.marking.marks[seat()] : []);

  // the chain through (c, r): every stone of its colour connected to it (display and marking only)
  function chain(c, r) {
    const colour = stoneAt(c, r), out = [], seen = new Set([c + "," + r]), stack = [[c, r]];
    while (stack.length) {
      const [x, y] = stack.pop();
      out.push(nameOf(x, y));
      for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const a = x + dx, b = y + dy;
        if (a < 0 || b < 0 || a >= size || b >= size || seen.has(a + "," + b) || stoneAt(a, b) !== colour) continue;
        seen.add(a + "," + b);
        stack.push([a, b]);
      }
    }
    return out;
  }
  function chains() {
    const done = new Set(), out = [];
    for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) {
      if (stoneAt(c, r) === "." || done.has(nameOf(c, r))) continue;
      const ch = chain(c, r);
      ch.forEach((p) => done.add(p));
      out.push(ch);
    }
    return out;
  }
  // the legal "<kind> <point>" action naming this chain (the referee names a chain by one stone)
  function chainAction(kind, stones) {
    const set = new Set(stones);
    return legal().find((a) => a.startsWith(kind + " ") && set.has(a.slice(kind.length + 1))) || null;
  }

  // ----- sending -----------------------------------------------------------------------
  function want(action, done) { wants.push({ action, done }); pump(); }
  function pump() {
    if (!acting() || phase() !== "marking") { wants = []; return; }
    const v = msg.view;
    wants = wants.filter((w) => !w.done(v));
    if (!wants.length) return;
    const w = wants[0];
    if (!legal().includes(w.action)) { wants.shift(); pump(); return; }
    const key = `${msg.seq}|${w.action}`;
    if (key === sentKey) return;
    sentKey = key;
    ctx.send(w.action);
  }
  function markChain(stones, dead) {
    const action = chainAction(dead ? "dead" : "alive", stones);
    if (!action) return;
    want(action, (v) => stones.every((p) => myMarks(v).has(p) === dead));
  }

  function clicked(c, r) {
    if (!acting()) return;
    const name = nameOf(c, r);
    if (phase() === "play") {
      if (legal().includes(name)) ctx.send(name);
      return;
    }
    if (phase() !== "marking" || stoneAt(c, r) === ".") return;
    markChain(chain(c, r), !myMarks(msg.view).has(name));
  }

  function useProposal() {
    const prop = new Set(msg.view.marking.proposal), mine = myMarks(msg.view);
    for (const ch of chains()) {
      const dead = ch.every((p) => prop.has(p));
      if (ch.every((p) => mine.has(p)) !== dead) markChain(ch, dead);
    }
  }
  function clearMarks() {
    const mine = myMarks(msg.view);
    for (const ch of chains()) if (ch.some((p) => mine.has(p))) markChain(ch, false);
  }

  // ----- painting ----------------------------------------------------------------------
  const colourName = (c) => (c === "black" ? S.black : c === "white" ? S.white : "");

  function paint() {
    const v = msg.view;
    const mark = v.marking;
    const me = seat();
    const other = me === 0 || me === 1 ? 1 - me : null;
    const m0 = new Set(mark ? mark.marks[me ?? 0] : []);
    const m1 = new Set(mark ? mark.marks[other ?? 1] : []);
    const prop = new Set(mark ? mark.proposal : []);
    // the owner of every point: at the end from the count, while marking from the reader's own
    // marks (a spectator's: Black's), so both players check the count before they agree
    const estimating = showingEstimate();
    const owners = estimating ? est.ownership
      : mark && mark.ownership ? mark.ownership[me === 0 || me === 1 ? me : v.black_seat] : v.ownership;
    const estDead = new Set(estimating ? est.dead : []);
    grid.classList.toggle("estimate", estimating);
    const deadEnd = new Set(v.dead || []);
    const canPlay = acting() && phase() === "play";
    const playable = new Set(canPlay ? legal() : []);
    grid.classList.toggle("myturn", canPlay);
    grid.classList.toggle("marking", acting() && phase() === "marking");
    grid.dataset.ghost = v.colour === "white" ? "w" : "b";
    for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) {
      const name = nameOf(c, r), p = pts[name], s = stoneAt(c, r);
      p.replaceChildren();
      if (s !== ".") {
        const st = document.createElement("div");
        st.className = "stone " + (s === "X" ? "b" : "w");
        p.append(st);
      }
      p.classList.toggle("legal", playable.has(name));
      p.classList.toggle("last", v.last_move === name);
      p.classList.toggle("captured", (v.last_captures || []).includes(name));
      p.classList.toggle("dead-mine", m0.has(name));
      p.classList.toggle("dead-theirs", m1.has(name));
      p.classList.toggle("proposal", prop.has(name) && !m0.has(name));
      p.classList.toggle("dead", deadEnd.has(name));
      p.classList.toggle("est-dead", estDead.has(name));
      const own = owners ? owners[r][c] : ".";
      p.classList.toggle("own-b", own === "X" && s !== "X");
      p.classList.toggle("own-w", own === "O" && s !== "O");
    }
    keys.refresh();
  }

  // the keyboard: arrows move over the intersections, Enter / Space plays (or marks a chain)
  const keys = boardKeys(grid, {
    points: () => Object.values(pts),
    key: (el) => el.dataset.pt,
    label(el) {
      const base = stoneLabel(t, el.dataset.pt, el.querySelector(".stone"), el.classList.contains("last"));
      return el.classList.contains("dead-mine") || el.classList.contains("dead") ? `${base} · ${t("go.dead")}` : base;
    },
    start: () => (msg && msg.view.last_move && pts[msg.view.last_move] ? msg.view.last_move : null),
  });

  function span(text, attrs = {}) {
    const e = document.createElement("span");
    for (const [k, val] of Object.entries(attrs)) e.dataset[k] = val;
    e.textContent = text;
    return e;
  }

  function renderInfo() {
    const v = msg.view;
    info.replaceChildren();
    const names = msg.names || [];
    const bs = v.black_seat, ws = 1 - bs;
    const player = (colour, s) => {
      // the seat's box (on a phone the table puts its rating and clock after the name)
      const e = span("", { player: colour, seatbox: s });
      const dot = document.createElement("i");
      dot.className = "dot " + (colour === "black" ? "b" : "w");
      const nm = names[s] ? [" ", Object.assign(span(names[s]), { className: "nm" })] : [];
      // the captures whole with their "·" (as junqi's seat facts): a narrow box wraps "· 提子 0"
      // onto the next line, never the dot left at the end of the name's line
      const caps = Object.assign(span(`·\u00a0${S.captures}\u00a0`), { className: "nw" });
      caps.append(span(String(v.captures[colour]), { cap: colour }));
      e.append(dot, colourName(colour), ...nm, " ", caps);
      if (v.phase === "play" && v.to_move === colour && !msg.result && msg.status !== "aborted") e.classList.add("to-move");
      return e;
    };
    info.append(player("black", bs), player("white", ws), span(komiText(v.komi), { info: "komi" }), span(`${S.moves} ${v.moves}`, { info: "moves" }));
    if (v.colour && !msg.replay) info.append(span(`${S.you}${colourName(v.colour)}`, { info: "you" }));
  }

  function renderNote() {
    const v = msg.view;
    note.replaceChildren();
    note.className = "go-note";
    if (v.phase === "marking") {
      const mk = v.marking;
      note.dataset.phase = "marking";
      const a = [...mk.marks[0]].sort().join(","), b = [...mk.marks[1]].sort().join(",");
      const same = a === b;
      note.append(span(S.marking), document.createElement("br"));
      for (const s of [0, 1]) {
        const colour = s === v.black_seat ? "black" : "white";
        note.append(span(`${colourName(colour)}${t("colon")}${mk.marks[s].length ? mk.marks[s].join(" ") : "—"}${paren(mk.submitted[s] ? S.submitted : S.notSubmitted)}`, { marks: s }), " ");
      }
      // equal marks end the game only once both are submitted: till then no green "agree"
      // beside a side that has not submitted
      const both = mk.submitted[0] && mk.submitted[1];
      note.append(document.createElement("br"), span(same ? (both ? S.agree : S.agreeWaiting) : S.differ, { agree: same ? "yes" : "no" }));
      if (mk.proposal.length) note.append(" · ", span(`${S.proposalNote}${t("colon")}${mk.proposal.join(" ")}`, { proposal: "" }));
      note.classList.add(same ? (both ? "agree" : "agree-waiting") : "differ");
      // the count the reader's marks give (a spectator's: Black's), as the shading shows it
      if (mk.count) {
        const s = v.seat === 0 || v.seat === 1 ? v.seat : v.black_seat;
        const n = mk.count[s], margin = n.black - n.white - v.komi;
        const verdict = margin ? t("result.byPoints", { side: margin > 0 ? S.black : S.white, margin: marginText(margin, lang) }) : S.draw;
        const words = v.seat === s ? t("go.countMine", { black: n.black, white: n.white, verdict })
          : t("go.countSeat", { side: S.black, black: n.black, white: n.white, verdict });
        note.append(document.createElement("br"), span(words, { count: "" }));
      }
    } else if (v.phase === "over" && v.score) {
      note.dataset.phase = "over";
      const d = v.result && v.result.details ? v.result.details : {};
      const margin = d.margin_points;
      let verdict = S.draw;
      // "Black wins by 2.5 points" / "黑胜 2½ 目", as the result line says it
      if (margin) verdict = t("result.byPoints", { side: margin > 0 ? S.black : S.white, margin: marginText(margin, lang) });
      note.append(span(`${S.score}${t("colon")}${S.black} ${v.score.black} · ${S.white} ${v.score.white} · ${komiPoints(v.komi)} → ${verdict}`, { score: "" }));
      if (v.dead && v.dead.length) note.append(document.createElement("br"), span(`${S.dead}${t("colon")}${v.dead.join(" ")}`, { dead: "" }));
      if (d.marks_disagreed) note.append(document.createElement("br"), span(S.disagreed));
    } else if (v.phase === "play") {
      note.dataset.phase = "play";
      if (showingEstimate()) {
        // "Estimate: White ahead by about 5.5 (Black 40 · White 41 · Komi 7.5)"
        const m = est.margin, side = m > 0 ? S.black : S.white;
        const words = Math.abs(m) < 0.25 ? S.estimateEven : t("go.estimateAhead", { side, margin: marginText(Math.abs(m), lang) });
        note.append(span(words, { estimate: m > 0 ? "black" : m < 0 ? "white" : "even" }),
          span(paren(`${S.black} ${est.black} · ${S.white} ${est.white} · ${komiPoints(v.komi)}`), { estimateCount: "" }));
        return;
      }
      if (v.disagreements > 0 && v.passes === 0 && !msg.replay) note.append(span(S.resumed, { resumed: "" }));
      if (v.passes === 1) note.append(span(passNote(v), { passes: "1" }));
    }
  }

  // who passed last (in play, one pass stands: the side not to move), said from the reader's
  // side: "You passed", "Your opponent passed", or to a spectator "Black passed"
  function passNote(v) {
    const passer = v.to_move === "black" ? "white" : "black";
    if (msg.replay || !v.colour) return t("go.sidePassed", { side: colourName(passer) });
    return passer === v.colour ? S.youPassed : S.opponentPassed;
  }

  // a pass asks first (a misclick would hand the opponent the chance to end play)
  async function pass() {
    if (!acting() || !legal().includes("pass")) return;
    const sure = await ask({ text: msg.view.passes === 1 ? S.passAskEnd : S.passAsk, yes: S.pass, no: t("cancel") });
    if (sure && acting() && phase() === "play" && legal().includes("pass")) ctx.send("pass");
  }

  // Submit asks first while the two sides' marks differ: submitted so, they resume play, and a
  // second disagreement counts every stone alive (rules §4.2), as OGS asks before a disputed accept
  const marksDiffer = (v) => [...v.marking.marks[0]].sort().join() !== [...v.marking.marks[1]].sort().join();
  async function submit() {
    const v = msg.view;
    if (!acting() || phase() !== "marking") return;
    if (marksDiffer(v)) {
      const sure = await ask({ text: v.disagreements > 0 ? S.submitDiffersLast : S.submitDiffers, yes: S.done, no: t("cancel") });
      if (!sure || !acting() || phase() !== "marking") return;
    }
    want("done", (w) => w.phase !== "marking" || w.marking.submitted[seat()]);
  }

  // ----- the score estimate ------------------------------------------------------------
  // offered during play to the players and spectators; at an event's table to spectators only
  // (an analysis aid in a tournament game, which OGS too withholds from its players)
  const mayEstimate = () => msg && !msg.replay && ctx.estimate && !msg.result && msg.status !== "aborted"
    && msg.view.phase === "play" && !(ctx.event && (msg.seat === 0 || msg.seat === 1));
  const showingEstimate = () => !!(est && msg && msg.view.phase === "play" && est.moves === msg.view.moves);
  function dismissEstimate() {
    est = null;
    if (msg) { paint(); renderNote(); renderButtons(); }
  }
  async function askEstimate() {
    if (showingEstimate()) { dismissEstimate(); return; }
    if (estAsking || !mayEstimate()) return;
    estAsking = true;
    renderButtons();
    const moves = msg.view.moves;
    try {
      const got = await ctx.estimate();
      // kept only while the board is still the one it is of (a move in between dismisses it)
      est = got && got.moves === moves && msg.view.moves === moves ? got : null;
    } catch (e) {
      est = null;
      note.replaceChildren(span(ctx.errorText ? ctx.errorText(e) : String(e.message || e), { estimateError: "" }));
    } finally {
      estAsking = false;
    }
    paint();
    if (est) renderNote();
    renderButtons();
  }

  function renderButtons() {
    buttons.replaceChildren(coords);
    let estBtn = null;
    if (mayEstimate()) {
      const b = estBtn = document.createElement("button");
      const on = showingEstimate();
      b.textContent = on ? S.estimateHide : S.estimate;
      b.dataset.action = "estimate";
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.disabled = estAsking;
      b.onclick = askEstimate;
      coords.before(b);
    }
    if (!live()) return;
    const act = acting();
    const btn = (label, id, onclick, primary) => {
      const b = document.createElement("button");
      b.textContent = label;
      b.dataset.action = id;
      b.disabled = !act;
      if (primary) b.className = "primary";
      b.onclick = onclick;
      (estBtn || coords).before(b);
      return b;
    };
    if (phase() === "play") {
      btn(S.pass, "pass", pass);
    } else if (phase() === "marking") {
      btn(S.proposal, "proposal", useProposal);
      btn(S.clear, "clear", clearMarks);
      btn(S.done, "done", submit, true);
      if (legal().includes("resume")) btn(S.resume, "resume", () => want("resume", (v) => v.phase !== "marking"));
    }
  }

  return {
    update(m) {
      msg = m;
      if (est && (m.view.phase !== "play" || m.view.moves !== est.moves)) est = null;   // the next move dismisses it
      if (m.view.size !== size || m.view.columns !== cols) build();
      box.dataset.seq = m.seq;
      box.dataset.phase = m.view.phase;
      paint();
      renderInfo();
      renderNote();
      renderButtons();
      pump();
    },
  };
}
