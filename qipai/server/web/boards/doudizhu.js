// 斗地主 doudizhu: three seats; bids (不叫, 1–3 分, 叫地主) are buttons, each seat's bid shown in
// its place; then the landlord (地主) against the two farmers (农民): plays are the selected
// cards (the listed play with those ranks), the round's plays drawn as cards, the kitty once
// revealed, base, bombs and multiplier, and the result in words. See cardtable.js.
import { mountCardTable, lastFromPlays, bidArea, bidsThenRounds } from "./cardtable.js";
import { paren } from "../i18n.js";

const ORDER = "3456789TJQKA2LB";

function bidWords(a, tr) {
  if (a === "pass") return tr("ddz.nobid");
  if (a === "call") return tr("ddz.call");
  if (a.startsWith("bid ")) return tr("ddz.bid", { n: a.slice(4) });
  return a;
}

export function mount(root, ctx) {
  return mountCardTable(root, ctx, {
    alarm: true,                  // 报单 / 报双 at one or two cards left
    seats: 3, cls: "doudizhu", order: ORDER,
    label: (a, { tr, msg }) => (msg.view.phase === "play" ? (a === "pass" ? tr("ct.pass") : a) : bidWords(a, tr)),
    badges: (v, s, { tr }) => (v.landlord === null || v.landlord === undefined ? []
      : v.landlord === s ? [[tr("ddz.landlord"), "role role-mark"]] : [[tr("ddz.farmer"), "farmer"]]),
    // the bidding in words before the first play (叫分：alice 1分 · 机器人 不叫 …), then the rounds
    history: bidsThenRounds("ddz.bids", 3),
    bidText: (a, tr) => bidWords(a, tr),
    last: (v, s, { tr }) => (v.phase === "bidding" ? bidArea(v, s, (a) => bidWords(a, tr)) : lastFromPlays(v, s, 3)),
    info: (v, { tr }) => {
      const mult = v.result && v.result.details && v.result.details.multiplier !== undefined ? v.result.details.multiplier : 2 ** (v.bombs || 0);
      return [["base", tr("ddz.base"), v.base || "–"], ["multiplier", tr("ddz.multiplier"), "×" + mult],
        ["bombs", tr("ddz.bombs"), v.bombs || 0]];
    },
    piles: (v, { tr }) => [["kitty", tr("ddz.kitty"), v.kitty ? [...v.kitty].sort((a, b) => ORDER.indexOf(a[0]) - ORDER.indexOf(b[0])) : null]],
    autoPass: (msg, legal) => msg.view.phase === "play" && legal.length === 1 && legal[0] === "pass",
    resultLine: (r, v, { tr }) => {
      const d = r.details || {};
      if (d.landlord === undefined || d.landlord === null) return null;
      const lord = (r.winners || []).includes(d.landlord);
      const extra = d.spring ? paren(tr("ddz.spring")) : d.anti_spring ? paren(tr("ddz.antispring")) : "";
      return tr(lord ? "ddz.lordWins" : "ddz.farmersWin") + extra + (d.multiplier > 1 ? ` ×${d.multiplier}` : "");   // ×1 says nothing
    },
  });
}
