// How a move-list entry of a board game reads (the entries come from the server, see
// qipai/server/movetext.py: {seat, text} and, for xiangqi, zh and wxf; junqi layouts are
// {seat, kind: "layout"}). moveFormat(game, t, lang) gives the `format` of movelist.js and
// the numbering that suits the game.

import { xiangqiNotation } from "./prefs.js";

const OUTCOME = ["win", "lose", "both", "flag"];

// Chinese checkers' cell names (qipai/games/chinese_checkers/board.py CELL_NAMES): with S at the
// bottom, column a..z without i from the left (hole q,r in column 2q + r + 12), row 1 at S's tip
// to 17 at N's (row 9 - r); the centre 0,0 is n9
export const CC_COLUMNS = "abcdefghjklmnopqrstuvwxyz";
export const ccCell = (hole) => {
  const [q, r] = hole.split(",").map(Number);
  return `${CC_COLUMNS[2 * q + r + 12]}${9 - r}`;
};

// the acts that are no placement, each a word in the list and a sentence in the status
// ("alice passed", not "alice played pass"): their `said` is the catalogue key of the sentence
const COMMON = { resign: "resign", timeout: "timeout", pass: "pass" };
function commonAct(text) {
  if (COMMON[text]) return COMMON[text];
  return text && text.startsWith("forfeit") ? "forfeit" : null;
}
function commonEntry(text, t, cls) {
  const act = commonAct(text);
  return act ? { text: t(`moves.${act}`, null, act), said: `moves.said.${act}`, ...(cls ? { cls } : {}) } : null;
}

// go's dead-stone marking steps: no moves, listed in words without a move number
const GO_MARKING = new Set(["dead", "alive", "done", "resume"]);

const FORMATS = {
  xiangqi: (e, t, lang) => {
    // the notation chosen in the settings (by default the language's): 炮二平五, C2=5 or h2e2;
    // the other two on hover
    const kind = xiangqiNotation(lang);
    const forms = { zh: e.zh, wxf: e.wxf, iccs: e.text };
    const text = forms[kind] || e.text;
    const title = ["zh", "wxf", "iccs"].filter((k) => k !== kind && forms[k])
      .map((k) => (k === "iccs" ? `ICCS ${e.text}` : forms[k])).join(" · ");
    return { text, title, cls: e.seat === 0 ? "red" : "black" };
  },
  go: (e, t, lang, seats, blackSeat) => {
    const [kind, pt] = e.text.split(" ");
    // a submission or a wish to play on, made by each side in turn: said by whom (its colour)
    const by = e.seat === blackSeat() ? "Black" : "White";
    const word = commonEntry(e.text, t);
    if (word) return word;
    const said = `moves.said.${kind}`, cls = "ml-aside";
    if (kind === "dead") return { text: t("moves.dead", { point: pt }, `dead ${pt}`), said, point: pt, cls };
    if (kind === "alive") return { text: t("moves.alive", { point: pt }, `alive ${pt}`), said, point: pt, cls };
    if (kind === "done") return { text: t(`moves.done${by}`, null, `${by} submitted dead stones`), said, cls };
    if (kind === "resume") return { text: t(`moves.resume${by}`, null, `${by} chose to play on`), said, cls };
    return { text: e.text };
  },
  gomoku: (e, t) => {
    const x = e.text;
    const word = commonEntry(x, t);
    if (word) return word;
    if (x === "swap") return { text: t("moves.swap", null, "swap") };
    if (x === "claim_forbidden") return { text: t("moves.claim", null, "claims forbidden") };
    if (x.startsWith("offer:")) return { text: t("moves.offer", { points: x.slice(6).split(",").join(" ") }, x) };
    if (x.startsWith("choose:")) return { text: t("moves.choose", { point: x.slice(7) }, x) };
    return { text: x };
  },
  "chinese-checkers": (e, t) => {
    const word = commonEntry(e.text, t, `cc${e.seat}`);
    if (word) return word;
    // every hole of the move by its cell name, each landing of a jump chain too; q,r on hover
    const holes = e.text.split(">");
    const cells = e.cells || holes.map(ccCell);
    return { text: cells.join(" → "), title: holes.join(" → "), cls: `cc${e.seat} cc-move` };
  },
  junqi: (e, t, lang, seats) => {
    // a seat's layout, in the list's setup row: the seat's name (南, 北; 四国: 南 东 北 西)
    if (e.kind === "layout") {
      const name = t(`junqi.seatNames.${seats === 4 ? "siguo" : "luzhan"}.${e.seat}`, null, String(e.seat));
      return { text: name, title: t("moves.laidOut", { name }, `${name} layout`), said: "moves.said.layout", cls: `s${e.seat} ml-layout` };
    }
    const word = commonEntry(e.text, t, `s${e.seat}`);
    if (word) return word;
    const [move, outcome] = e.text.split(":");
    const [a, b] = move.split("-");
    const out = OUTCOME.includes(outcome) ? " " + t(`moves.outcome.${outcome}`, null, outcome) : "";
    // the tooltip: the move as typed (e3-e4), without the outcome's code (win, lose, both)
    return { text: `${a}–${b}${out}`, title: move, cls: `s${e.seat} jq-move` };
  },
};

const WIDTH = { go: "6.4em", "chinese-checkers": "8.6em", junqi: "7.4em", gomoku: "4.8em" };

/** {format(entry, i), numbering, cellWidth, setup, aside, side} for `game`'s move list with `seats` players
 *  (`setup`: which entries are the opening setup, junqi's layouts, listed apart from the moves;
 *  `blackSeat()`: go's seat of Black, from the view's black_seat, 0 until a view says). */
export function moveFormat(game, t, lang, seats = 2, blackSeat = () => 0) {
  const f = FORMATS[game] || ((e) => ({ text: e.text || "" }));
  // two players taking turns: a row a move number, Red / Black or Black / White in two columns
  const numbering = game === "xiangqi" || game === "gomoku" || (game === "junqi" && seats === 2) ? "pairs" : "each";
  const setup = game === "junqi" ? (e) => !!e && e.kind === "layout" : null;
  // entries that are no move (go's dead-stone marking): in the list in words, without a number
  const aside = game === "go" ? (e) => !!e && GO_MARKING.has(String(e.text || "").split(" ")[0])
    // gomoku's opening acts that place no stone (a swap of colours, two fifth stones offered)
    : game === "gomoku" ? (e) => !!e && (e.text === "swap" || String(e.text || "").startsWith("offer:")) : null;
  // go: Black's moves in one column and White's in the other (a handicap game's White first)
  const side = game === "go" && seats === 2 ? (e) => (e && e.seat !== undefined && e.seat !== blackSeat() ? 1 : 0) : null;
  // go: a marking round (every dead / alive mark and both submissions) is one entry of the list
  const fold = game === "go" ? (e) => !!e && GO_ROUND.has(String(e.text || "").split(" ")[0]) : null;
  const foldText = game === "go" ? (run) => markingRound(run, t, lang, blackSeat()) : null;
  return { format: (e) => f(e, t, lang, seats, blackSeat), numbering, cellWidth: WIDTH[game], setup, aside, side, fold, foldText };
}

// the steps of one go marking round, listed as one entry
const GO_ROUND = new Set(["dead", "alive", "done"]);

/** A go marking round's steps (`run`: {seat, text} entries "dead D7", "alive D7", "done") in
 *  one line: the stones each side marked dead by the end of the round, "Marked dead: D7, E5"
 *  when both sides' marks are the same, "Marked dead: Black D7 · White none" when not. */
export function markingRound(run, t, lang, blackSeat = 0) {
  const marks = [new Set(), new Set()];
  for (const e of run) {
    const [kind, pt] = String(e.text).split(" ");
    const m = marks[e.seat === 1 ? 1 : 0];
    if (kind === "dead") m.add(pt); else if (kind === "alive") m.delete(pt);
  }
  const sep = lang === "zh" ? "、" : ", ";
  const words = (s) => (s.size ? [...s].sort().join(sep) : t("moves.markedNone", null, "none"));
  const same = marks[0].size === marks[1].size && [...marks[0]].every((p) => marks[1].has(p));
  if (same) return t("moves.markedDead", { points: words(marks[0]) }, "");
  const b = blackSeat === 1 ? 1 : 0;
  return t("moves.markedDeadEach", { black: words(marks[b]), white: words(marks[1 - b]) }, "");
}
