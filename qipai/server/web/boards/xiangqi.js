// Xiangqi board: click or drag a piece, legal targets highlighted, last move and check marked,
// flipped for Black (seat 1, also while it looks back through the move list). The files are
// numbered as on a printed board: 九 … 一 along Red's side from Red's left, 1 … 9 along Black's
// side from Black's right; the English page numbers Red's files 9 … 1, as its WXF moves (C2=5) do. Each side's captures are shown by it. Squares carry
// data-sq="<ICCS square>" (a0 .. i9).
import { boardKeys } from "../boardkeys.js";
import { dragMoves, pointAt } from "../dragmove.js";
import { t } from "../i18n.js";
import { coordsButton, flipButton } from "../prefs.js";

const FILES = "abcdefghi";
const NAMES = { K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵", k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒" };
const CN = "一二三四五六七八九";
const FULL = { K: 1, A: 2, B: 2, N: 2, R: 2, C: 2, P: 5 };       // one side's pieces at the start
const ORDER = "RNCBAPK";

function gridSvg() {
  // 9 files x 10 ranks of intersections; cell centres at (x + .5) / 9, (y + .5) / 10
  const X = (f) => ((f + 0.5) * 100) / 9, Y = (r) => ((r + 0.5) * 100) / 10;
  let d = "";
  for (let r = 0; r < 10; r++) d += `M${X(0)} ${Y(r)}H${X(8)}`;
  for (let f = 0; f < 9; f++) {
    if (f === 0 || f === 8) d += `M${X(f)} ${Y(0)}V${Y(9)}`;
    else d += `M${X(f)} ${Y(0)}V${Y(4)}M${X(f)} ${Y(5)}V${Y(9)}`;
  }
  d += `M${X(3)} ${Y(0)}L${X(5)} ${Y(2)}M${X(5)} ${Y(0)}L${X(3)} ${Y(2)}M${X(3)} ${Y(7)}L${X(5)} ${Y(9)}M${X(5)} ${Y(7)}L${X(3)} ${Y(9)}`;
  return `<svg class="grid" viewBox="0 0 100 100" preserveAspectRatio="none"><path d="${d}" stroke="#6b4a1a" stroke-width=".35" fill="none" vector-effect="non-scaling-stroke"/>` +
    `<text x="50" y="50.8" font-size="4" text-anchor="middle" fill="#6b4a1a">楚 河　　　漢 界</text></svg>`;
}

export function mount(root, ctx) {
  const div = (cls) => Object.assign(document.createElement("div"), { className: cls });
  const wrap = div("xq-wrap");
  const capTop = div("xq-cap top"), capBottom = div("xq-cap bottom");
  for (const c of [capTop, capBottom]) c.setAttribute("role", "group");   // a named group (its aria-label lists the pieces)
  const filesTop = div("xq-files top"), filesBottom = div("xq-files bottom");
  const box = div("xq");
  // the display switches under the board (the file numbers: the coordinates setting)
  const toggles = div("row board-toggles");
  // the flip button: the board from the other side (a replay opens from the reader's own side)
  const flipBtn = flipButton(t, (on) => { turned = on; if (msg) { flipped = !flipped; build(); paint(); } });
  toggles.append(coordsButton(t), flipBtn);
  wrap.append(capTop, filesTop, box, filesBottom, capBottom, toggles);
  root.replaceChildren(wrap);
  let msg = null, sel = null, flipped = false, turned = false;
  const squares = {};

  function pos(name) {
    const f = FILES.indexOf(name[0]), r = +name[1];
    const col = flipped ? 8 - f : f, row = flipped ? r : 9 - r;
    return [col, row];
  }

  // file numbers as each side reads them: Red counts 一 .. 九 from its right (file i .. a),
  // Black 1 .. 9 from its right (file a .. i); in English Red's are 1 .. 9 too (WXF)
  function labels() {
    const red = [...FILES].map((_, f) => (ctx.lang === "zh" ? CN[8 - f] : String(9 - f))), black = [...FILES].map((_, f) => String(f + 1));
    const [top, bottom] = flipped ? [red.slice().reverse(), black.slice().reverse()] : [black, red];
    filesTop.replaceChildren(...top.map((x) => Object.assign(document.createElement("span"), { textContent: x })));
    filesBottom.replaceChildren(...bottom.map((x) => Object.assign(document.createElement("span"), { textContent: x })));
    filesTop.dataset.side = flipped ? "red" : "black";
    filesBottom.dataset.side = flipped ? "black" : "red";
  }

  // what each side has taken: the other side's pieces missing from the board
  function captures() {
    const left = {};
    for (const row of msg.view.board) for (const ch of row) if (ch !== ".") left[ch] = (left[ch] || 0) + 1;
    const taken = (upper) => {
      const out = [];
      for (const k of ORDER) {
        const p = upper ? k : k.toLowerCase();
        for (let i = (left[p] || 0); i < FULL[k]; i++) out.push(p);
      }
      return out;
    };
    const row = (host, pieces) => {
      host.replaceChildren(...pieces.map((p) => {
        const e = document.createElement("span");
        e.className = "cp " + (p === p.toUpperCase() ? "r" : "b");
        e.textContent = NAMES[p];
        e.dataset.piece = p;
        return e;
      }));
      const label = ctx.t ? ctx.t("moves.captured", null, "Captured") : "Captured";
      host.title = label;
      host.setAttribute("aria-label", `${label}${t("colon")}${pieces.map((p) => NAMES[p]).join(" ")}`);
    };
    // Red took Black's pieces (lower case), Black took Red's
    const byRed = taken(false), byBlack = taken(true);
    row(flipped ? capTop : capBottom, byRed);
    row(flipped ? capBottom : capTop, byBlack);
  }

  function build() {
    box.innerHTML = gridSvg();
    labels();
    for (let r = 0; r < 10; r++) for (let f = 0; f < 9; f++) {
      const name = FILES[f] + r;
      const sq = document.createElement("div");
      sq.className = "sq";
      sq.dataset.sq = name;
      const [c, row] = pos(name);
      sq.style.left = `${(c * 100) / 9}%`;
      sq.style.top = `${(row * 100) / 10}%`;
      box.append(sq);
      squares[name] = sq;
    }
  }

  const myTurn = () => msg && !msg.replay && msg.seat !== null && msg.to_act.includes(msg.seat) && !msg.result && msg.status !== "aborted";
  const targets = (from) => (msg.view.legal_moves || []).filter((m) => m.slice(0, 2) === from).map((m) => m.slice(2));
  const mine = (p) => p && (msg.seat === 0 ? p === p.toUpperCase() : p === p.toLowerCase());

  function pieceAt(name) {
    const f = FILES.indexOf(name[0]), r = +name[1];
    const ch = msg.view.board[9 - r][f];
    return ch === "." ? null : ch;
  }

  function paint() {
    const v = msg.view;
    const lm = v.last_move;
    const kingLetter = v.turn === 0 ? "K" : "k";
    const tg = sel ? targets(sel) : [];
    for (const [name, sq] of Object.entries(squares)) {
      const p = pieceAt(name);
      sq.replaceChildren();
      if (p) {
        const pc = document.createElement("div");
        pc.className = "pc " + (p === p.toUpperCase() ? "r" : "b");
        pc.textContent = NAMES[p];
        pc.dataset.piece = p;
        sq.append(pc);
      }
      sq.classList.toggle("last", !!lm && (lm.slice(0, 2) === name || lm.slice(2) === name));
      sq.classList.toggle("last-from", !!lm && lm.slice(0, 2) === name);
      sq.classList.toggle("last-to", !!lm && lm.slice(2) === name);
      sq.classList.toggle("sel", sel === name);
      sq.classList.toggle("target", tg.includes(name));
      sq.classList.toggle("check", !!v.in_check && p === kingLetter);
    }
    captures();
    keys.refresh();
  }

  function choose(name) {
    if (!myTurn()) return;
    if (sel && targets(sel).includes(name)) {
      const mv = sel + name;
      sel = null;
      paint();
      ctx.send(mv);
      return;
    }
    sel = mine(pieceAt(name)) && targets(name).length ? name : null;
    paint();
  }

  // the keyboard: arrows move over the points, Enter / Space picks a piece or its target
  const T = (k, p) => (ctx.t ? ctx.t(k, p) : k);
  const keys = boardKeys(box, {
    points: () => Object.keys(squares).sort((a, b) => pos(a)[1] - pos(b)[1] || pos(a)[0] - pos(b)[0]).map((n) => squares[n]),
    key: (el) => el.dataset.sq,
    label(el) {
      const name = el.dataset.sq, p = pieceAt(name);
      const base = p ? T("kb.point", { point: name, what: T(`xq.piece.${p === p.toUpperCase() ? "r" : "b"}${p.toUpperCase()}`) })
        : T("kb.empty", { point: name });
      return el.classList.contains("target") ? `${base} · ${T("kb.canMove")}` : base;
    },
    pressed: (el) => sel === el.dataset.sq,
    // the label names the piece with its side ("e0：红帅"): its character again would repeat it
    shown: false,
    activate: (el) => choose(el.dataset.sq),
    start: () => sel || (msg && msg.view.last_move ? msg.view.last_move.slice(2) : null),
  });

  // click a piece and then a target, or drag the piece to the target
  box.addEventListener("click", (e) => {
    const sq = e.target.closest(".sq");
    if (sq) choose(sq.dataset.sq);
  });
  dragMoves(box, {
    from(el) {
      const sq = el.closest(".sq");
      return sq && myTurn() && mine(pieceAt(sq.dataset.sq)) && targets(sq.dataset.sq).length ? sq.dataset.sq : null;
    },
    at: (x, y) => pointAt(box, x, y, ".sq")?.dataset.sq ?? null,
    targets: (name) => (myTurn() ? targets(name) : []),
    pick(name) { sel = name; paint(); },
    drop(from, to) { sel = from; choose(to); },
    cancel() { sel = null; paint(); },
    piece: (name) => squares[name] && squares[name].querySelector(".pc"),
  });

  return {
    // the seat strip's mark of a seat's side: Red (seat 0) or Black, a disc of its colour
    seatMark(i) {
      const d = document.createElement("i");
      d.className = `xq-side ${i === 0 ? "r" : "b"}`;
      d.setAttribute("role", "img");
      d.setAttribute("aria-label", T(i === 0 ? "red" : "black"));
      d.title = T(i === 0 ? "red" : "black");
      return d;
    },
    update(m) {
      msg = m;
      // Black's player sees the board from Black's side, at the table and in the game's replay
      const flip = ((!m.replay || m.browsing) ? m.seat === 1 : ctx.me === 1) !== turned;
      if (flip !== flipped || !Object.keys(squares).length) { flipped = flip; build(); }
      if (!myTurn()) sel = null;
      box.dataset.seq = m.seq;
      paint();
    },
  };
}
