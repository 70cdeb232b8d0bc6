// 挖坑 wakeng: three seats, the digger takes the four-card pit and plays alone. Bids (pass,
// bid 1–3) are buttons; plays are rank strings built from the selected cards. See cardtable.js.
import { mountCardTable, lastFromPlays, ranksText } from "./cardtable.js";

const STR = {
  zh: { bid: "叫", nobid: "不叫", digger: "挖坑者", pit: "坑底", bids: "叫分", bidden: "坑", first: "先叫", lead: "首出", pass: "不出" },
  en: { bid: "Bid", nobid: "No bid", digger: "Digger", pit: "Pit", bids: "Bids", bidden: "Bid", first: "First bidder", lead: "First lead", pass: "Pass" },
};
const BID_NAME = { 3: "头挖", 2: "二挖", 1: "烂坑" };

export function mount(root, ctx) {
  const zh = ctx.lang === "zh";
  return mountCardTable(root, ctx, {
    seats: 3, cls: "wakeng", order: "456789TJQKA23", strings: STR,
    label: (a, S, lang, msg) => (a === "pass" ? (msg.view.phase === "bidding" ? S.nobid : S.pass) : a.startsWith("bid ") ? `${S.bid} ${a.slice(4)}` : a),
    badges: (v, s, S) => {
      const out = [];
      if (v.digger === s) out.push([S.digger, "role role-mark"]);
      if (v.first_bidder === s && v.digger === null) out.push([S.first, ""]);
      return out;
    },
    last: (v, s, lang, S) => {
      if (v.phase === "bidding") {
        const b = (v.bids || []).filter(([x]) => x === s).pop();
        return b ? { text: b[1] === "pass" ? S.nobid : `${S.bid} ${b[1].slice(4)}` } : null;
      }
      return lastFromPlays(v, s, lang, S);
    },
    info: (v, S, lang) => [
      ["bid", S.bidden, v.bid ? `${v.bid} (${BID_NAME[v.bid] || ""})` : null],
      ["bids", S.bids, (v.bids || []).map(([s, b]) => `${s}:${b === "pass" ? S.nobid : b.slice(4)}`).join(" ")],
      ["top", S.to_beat, v.top ? `${v.top.seat}: ${ranksText(v.top.play, lang)}` : null],
      ["result", zh ? "结果" : "Result", v.result ? v.result.text : null],
    ],
    piles: (v, S) => [["pit", S.pit, v.pit]],
  });
}
