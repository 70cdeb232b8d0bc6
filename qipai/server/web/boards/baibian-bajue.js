// 百变八雀 (a proposal, rules/baibian-bajue.md §4): the Guobiao mahjong table (boards/mahjong-gb.js)
// with what this game shows of its own: no winds and no flowers; the bomb (炸弹) as a turn action
// ("bomb 5p", four in hand) and as a claim on the discard ("bomb"), drawn as its four tiles; a
// win's value in points (the tile values of the hand), not fan. The page says "proposal" above
// the table (the table's marking). Words: the catalogues' "mj.*" entries.
import { mount as mountMahjong } from "./mahjong-gb.js";

const BAJUE = {
  info: () => [],
  seatWind: () => null,
  seatExtra: () => [],
  handTile: () => "",
  actionLabel(kind, tile, h) {
    if (kind !== "bomb") return null;
    const v = h.view();
    const t = tile || (v.claim && v.claim.tile);
    return [h.S.bomb + " ", h.tilesEl(Array(4).fill(t), "inline", "tiny")];
  },
  claimVerb: () => "discarded",
  hows: {},
  unit: (h) => h.S.points,
  winner(r, w, h) {
    const { el, S, zh } = h;
    const f = r.fans[String(w)];
    const tb = el("table", "mj-fans");
    tb.id = "fans";
    tb.dataset.seat = w;
    for (const x of f.fans) tb.append(el("tr", "", el("td", "", zh ? x.name : x.en), el("td", "num", x.value)));
    const tot = el("tr", "total", el("td", "", S.total), el("td", "num", `${f.total} ${S.points}`));
    tot.dataset.total = f.total;
    tb.append(tot);
    return [el("div", "mj-winner", `${h.who(w)}${h.ctx.t("colon")}`, h.handLine(f.hand.split("|")[0])), tb];
  },
};

export function mount(root, ctx) {
  return mountMahjong(root, ctx, BAJUE);
}
