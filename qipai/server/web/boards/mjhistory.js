// The hand's story at a mahjong table (the Guobiao, laizi and 百变八雀 boards): each seat's turn
// in words, tiles drawn as the table draws them — "东家 摸牌 · 打出 [5筒]", "你 摸 [3万] · 暗杠
// [3万]", "南家 碰 [白白白] · 打出 [9条]", "西家 自摸 [5筒] · 24 番". It is read from the view's
// `log` (qipai/tiles/handlog.py), which the server writes for each seat: another seat's draws
// and concealed kongs come without their tiles, and no claim-window answer (a pass) is in it,
// so the list tells nobody who could have claimed. Rows are turns (a seat's steps until another
// seat acts), listed by cardhistory.js's list with its navigation, each step its own (a click
// shows the table right after it).
//
//   turnsOf(view) -> [[seat, entry], ...] per turn, or null (a view without a log)
//   turnFormat(h) -> (turn, i, who) -> Node   (h: the board's helpers; h.L the laizi words)
//   turnPart(h) -> (turn, m, who) -> Node     step m of a turn (the list's step: the first one
//                                             with the seat's name)

import { paren } from "../i18n.js";

const TILE_KINDS = new Set(["discard", "flower", "add", "peel", "laizi", "bomb"]);

export function turnsOf(v) {
  if (!v || !Array.isArray(v.log)) return null;
  const out = [];
  for (const e of v.log) {
    const turn = out[out.length - 1];
    const prev = turn && turn[turn.length - 1][1];
    // a seat's steps stay one row, till it wins (a second winner of one discard has its own)
    if (turn && e.s !== undefined && prev.s === e.s && prev.k !== "win") turn.push([e.s, e]);
    else out.push([[e.s, e]]);
  }
  return out;
}

/** The words of one step (strings and nodes). */
export function stepWords(e, h) {
  const { S, tileEl, tilesEl, parseTiles } = h;
  const L = S.log;
  const tiles = () => tilesEl(parseTiles(e.t), "inline", "tiny");
  if (e.k === "draw") return e.t ? [L.draws + " ", tileEl(e.t, "tiny")] : [L.draws];
  if (e.k === "ckong") return e.t ? [L.ckong + " ", tilesEl(Array(4).fill(e.t), "inline", "tiny")] : [L.ckong];
  if (e.k === "chow" || e.k === "pung" || e.k === "kong" || (e.k === "bomb" && e.from !== undefined)) return [L[e.k] + " ", tiles()];
  if (TILE_KINDS.has(e.k)) return [L[e.k] + " ", tileEl(e.t, "tiny" + (e.k === "laizi" ? " wild" : ""))];
  if (e.k === "win") {
    const how = { robbing_kong: S.robbing, laizi_kong: h.L ? h.L.onLaizi : null }[e.how];
    const out = [(e.how === "self_drawn" ? L.selfdrawn : L.win) + " "];
    if (e.t) out.push(tileEl(e.t, "tiny"));
    if (how) out.push(paren(how, h.zh ? "zh" : "en"));
    if (e.fans !== undefined) out.push(` · ${h.ctx.t("mj.log.fans", { n: e.fans })}`);
    if (e.points !== undefined) out.push(` · ${e.points}${h.zh ? "" : " "}${h.unit()}`);
    return out;
  }
  if (e.k === "drawn") return [S.drawn];
  if (e.k === "penalty") return [L.penalty];
  return [h.ctx.t("mv.other")];
}

/** A turn as one row of the list: its number, the seat's name, its steps. */
export function turnFormat(h) {
  const { el } = h;
  return (turn, i, who) => {
    const row = el("div", "mj-turn", el("span", "n", String(i + 1)));
    const s = turn[0][0];
    if (s !== undefined && s !== null) row.append(el("span", "who", who(s)));
    turn.forEach(([, e], j) => {
      const step = el("span", "mj-step" + (e.k === "win" ? " win" : ""), ...stepWords(e, h));
      step.dataset.step = e.k;
      if (j) row.append(el("span", "sep", "·"));
      row.append(step);
    });
    return row;
  };
}

/** One step of a turn as a step of the list: the seat's name before its first one. */
export function turnPart(h) {
  const { el } = h;
  return (turn, m, who) => {
    const [s, e] = turn[m];
    const step = el("span", "mj-step" + (e.k === "win" ? " win" : ""), ...stepWords(e, h));
    step.dataset.step = e.k;
    return m === 0 && s !== undefined && s !== null ? el("span", "mj-part", el("span", "who", who(s)), step) : step;
  };
}
