// 4A4 四幺四 fouafour: four seats, partners opposite (0+2 against 1+3). Plays are rank strings
// built from the selected cards; in a 叉 / 勾 window the claim you can make is a button ("叉 7 7",
// "勾 7") beside the decline. When every other seat is asked and your only answer is to pass, the
// board passes for you (auto-pass, a box to untick). See cardtable.js.
import { mountCardTable, placeBadge, ranksText } from "./cardtable.js";

const STR = {
  zh: { cha: "叉", gou: "勾", team: "队", dealer: "庄", out: "出完", window: "可叉/勾", teams: "对家", order: "出完顺序", shown: "亮♥3", decline: "不叉" },
  en: { cha: "Cha", gou: "Gou", team: "team", dealer: "dealer", out: "out", window: "Window", teams: "Partners", order: "Out", shown: "Shown", decline: "Decline" },
};

export function mount(root, ctx) {
  const zh = ctx.lang === "zh";
  return mountCardTable(root, ctx, {
    seats: 4, cls: "fouafour", order: "3456789TJQKA2LB", strings: STR,
    label: (a, S, lang, msg) => {
      if (a === "pass") return msg.view.window ? S.decline : S.pass;
      const m = /^(cha|gou) (\w+)$/.exec(a);
      return m ? `${S[m[1]]} ${ranksText(m[2], lang)}` : a;
    },
    badges: (v, s, S) => {
      const out = [[`${S.team} ${s % 2 ? "B" : "A"}`, s % 2 ? "team1" : "team0"]];
      if (v.dealer === s) out.push([S.dealer, "role"]);
      return out.concat(placeBadge(v, s, S));
    },
    info: (v, S, lang) => [
      ["top", S.to_beat, v.top ? `${v.top.seat}: ${v.top.play.replace(/^(cha|gou) /, (x) => S[x.trim()] + " ").replace(/[2-9TJQKALB]+$/, (r) => ranksText(r, lang))}` : null],
      ["window", S.window, v.window ? `${S[v.window.kind]} ${ranksText(v.window.rank, lang)} (${v.window.by})` : null],
      ["order", S.order, (v.finished || []).join(" → ")],
      ["result", zh ? "结果" : "Result", v.result ? v.result.text : null],
    ],
    // 叉 and 勾 are buttons of their own (the window's claim); plays go by the selected cards
    isCardAction: (a) => /^[2-9TJQKALB]+$/.test(a),
    autoPass: (msg, legal) => !!msg.view.window && legal.length === 1 && legal[0] === "pass",
  });
}
