// Laizi mahjong (赖子麻将) table: the Guobiao mahjong table (boards/mahjong-gb.js) with what this
// game shows of its own: the indicator (皮子) and the laizi (赖子, wild) beside the wall, the laizi
// marked in your hand, each seat's peel and laizi kongs, the buttons 皮子杠 / 赖子杠, the window
// where a played-out laizi can be won on, and each win's pattern (soft or hard), every doubling,
// the points and the money. Words: the catalogues' "mj.*" and "lz.*" entries.
import { mount as mountMahjong, parseTiles } from "./mahjong-gb.js";
import { table } from "../i18n.js";

const L = table("lz");

const LAIZI = {
  info(v, h) {
    const ind = h.el("span", "lz-ind", `${L.indicator} `, h.tileEl(v.indicator, "tiny"));
    ind.dataset.info = "indicator";
    const wild = h.el("span", "lz-ind", `${L.laizi} `, h.tileEl(v.laizi, "tiny wild"));
    wild.dataset.info = "laizi";
    return [ind, wild];
  },
  seatWind: () => null,
  seatExtra(info, h) {
    const out = [];
    const v = h.view();
    for (const [n, tile, word, key] of [[info.peel_kongs, v.indicator, L.peelKongs, "peel"],
      [info.laizi_kongs, v.laizi, L.laiziKongs, "laizi"]]) {
      if (!n) continue;
      const k = h.el("span", "lz-kongs", `${word} `, h.tilesEl(Array(n).fill(tile), "inline", "tiny"));
      k.dataset.kongs = key;
      out.push(k);
    }
    return out;
  },
  handTile: (code, v) => (code === v.laizi ? " wild" : ""),
  actionLabel(kind, tile, h) {
    if (kind === "peel") return [L.peel + " ", h.tileEl(tile, "tiny")];
    if (kind === "laizi") return [L.laiziKong + " ", h.tileEl(tile, "tiny wild")];
    return null;
  },
  claimVerb: (kind) => (kind === "laizi" ? L.playsLaizi : "discarded"),
  hows: { laizi_kong: L.onLaizi },
  words: L,
  unit: () => L.points,
  winner(r, w, h) {
    const { el, S } = h;
    const sc = r.score;
    const tb = el("table", "mj-fans lz-points");
    tb.id = "points";
    tb.dataset.seat = w;
    const pattern = (L.pattern[sc.colour || "none"] || {})[sc.shape || "none"] || sc.pattern;
    const first = el("tr", "", el("td", "", `${pattern} · ${sc.hard ? L.hard : L.soft}`), el("td", "num", `${sc.base} ${L.points}`));
    first.dataset.pattern = sc.pattern;
    tb.append(first);
    for (const x of sc.doublings) {
      const tr = el("tr", "", el("td", "", L.dbl[x.key] || x.name), el("td", "num", `×${x.factor}`));
      tr.dataset.doubling = x.key;
      tb.append(tr);
    }
    const tot = el("tr", "total", el("td", "", S.total), el("td", "num", `${sc.points} ${L.points}`));
    tot.dataset.total = sc.points;
    tb.append(tot);
    return [el("div", "mj-winner", `${h.who(w)}${h.ctx.t("colon")}`, h.handLine(r.hand_text.split("|")[0])), tb];
  },
};

export { parseTiles };

export function mount(root, ctx) {
  return mountMahjong(root, ctx, LAIZI);
}
