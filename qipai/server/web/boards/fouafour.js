// 4A4 四幺四 fouafour: four seats, partners opposite. Plays are rank strings built from the
// selected cards; in a 叉 / 勾 window the claim you can make is a button ("叉 7 7", "勾 7") beside
// the decline. Where the only answer is to pass — a window you cannot claim in, or a play you
// cannot beat (要不起) — the board passes for you (auto-pass, a box to untick); in a window the
// server answers for a seat that cannot claim and closes every window on one schedule, so
// nobody learns who could claim. See cardtable.js.
import { mountCardTable, placeBadge, ranksText } from "./cardtable.js";
import { fafDrawnWhy } from "../result.js";

export function mount(root, ctx) {
  return mountCardTable(root, ctx, {
    alarm: true,                  // 报单 / 报双 at one or two cards left
    seats: 4, cls: "fouafour", order: "3456789TJQKA2LB",
    label: (a, { tr, lang, msg }) => {
      if (a === "pass") return msg.view.window ? tr("faf.decline") : tr("ct.pass");
      const m = /^(cha|gou) (\w+)$/.exec(a);
      // the claim said in words ("Cut in: 7 7 (cha)", "叉 7 7")
      return m ? tr(`faf.${m[1]}Play`, { cards: ranksText(m[2], lang) }) : a;
    },
    badges: (v, s, { tr, me }) => {
      const out = [];
      if (v.dealer === s) out.push([tr("faf.dealer"), "role"]);
      if (me !== null && me !== undefined && s === (me + 2) % 4) out.push([tr("ct.partner"), "team0"]);   // partners sit opposite
      return out.concat(placeBadge(v, s, tr));
    },
    info: (v, { tr, lang, who }) => [
      ["window", tr("faf.window"), v.window ? tr(`faf.windowOpen.${v.window.kind}`, { rank: ranksText(v.window.rank, lang), name: who(v.window.by) }) : null],
      ["order", tr("faf.order"), (v.finished || []).map(who).join(" → ")],
    ],
    // 叉 and 勾 are buttons of their own (the window's claim); plays go by the selected cards
    isCardAction: (a) => /^[2-9TJQKALB]+$/.test(a),
    autoPass: (msg, legal) => legal.length === 1 && legal[0] === "pass",
    resultLine: (r, v, { tr, who, me, lang }) => {
      const w = r.winners || [];
      // a drawn deal says how it came about (§4.2): who went out first, and the two opponents out
      // before that player's partner
      if (!w.length) return fafDrawnWhy(r.details && r.details.order ? r.details.order : v.finished, who, tr, lang);
      // the headline says "You won": the line names the partner ("with Bob"), never "You + Bob win"
      const others = w.filter((s) => s !== me);
      if (others.length < w.length) return others.length ? tr("faf.withPartner", { names: others.map(who).join(" + ") }) : null;
      if (me === null || me === undefined) return null;       // a spectator's headline names the winners
      return tr("faf.teamWins", { names: w.map(who).join(" + "), n: w.length });
    },
  });
}
