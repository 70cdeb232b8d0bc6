// 挖坑 wakeng: three seats, the digger (挖坑者) takes the four-card pit and plays alone. Bids (不叫,
// 叫 1–3) are buttons, each seat's bid shown in its place; plays are rank strings built from the
// selected cards, drawn as the cards laid. See cardtable.js.
import { mountCardTable, lastFromPlays, bidArea, bidsThenRounds } from "./cardtable.js";
import { paren } from "../i18n.js";

const bidWords = (a, tr) => (a === "pass" ? tr("wk.nobid") : a.startsWith("bid ") ? tr("wk.bid", { n: a.slice(4) }) : a);

export function mount(root, ctx) {
  return mountCardTable(root, ctx, {
    alarm: true,                  // 报单 / 报双 at one or two cards left
    seats: 3, cls: "wakeng", order: "456789TJQKA23",
    label: (a, { tr, msg }) => (msg.view.phase === "bidding" ? bidWords(a, tr) : a === "pass" ? tr("ct.pass") : a),
    badges: (v, s, { tr }) => {
      const out = [];
      if (v.digger === s) out.push([tr("wk.digger"), "role role-mark"]);
      if (v.first_bidder === s && v.digger === null) out.push([tr("wk.first"), ""]);
      return out;
    },
    // the bidding in words before the first play (叫分：alice 叫 1 · 机器人 不叫), then the rounds
    // (the list showed "no moves yet" under a bid on the table)
    history: bidsThenRounds("wk.bids", 3),
    bidText: (a, tr) => bidWords(a, tr),
    last: (v, s, { tr }) => (v.phase === "bidding" ? bidArea(v, s, (a) => bidWords(a, tr)) : lastFromPlays(v, s, 3)),
    info: (v, { tr }) => [
      ["bid", tr("wk.pitBid"), v.bid ? v.bid + paren(tr(`wk.bidname.${v.bid}`)) : null],
    ],
    piles: (v, { tr }) => [["pit", tr("wk.pit"), v.pit]],
    autoPass: (msg, legal) => msg.view.phase === "play" && legal.length === 1 && legal[0] === "pass",
    resultLine: (r, v, { role }) => {
      const d = r.details || {};
      if (d.digger === undefined || d.digger === null) return null;
      return role(d.digger_wins ? "wk.diggerWins" : "wk.diggerLoses", d.digger);
    },
  });
}
