// 保皇 baohuang: five seats, four packs. The candidate accepts or declines the emperor role; the
// emperor declares a card by a button (three copies, or four for 明独); plays are sent as the
// selected card ids (so the guard chooses whether to show the named card). See cardtable.js.
import { mountCardTable, placeBadge, matchRanks, faceText } from "./cardtable.js";

const STR = {
  zh: {
    accept: "当皇帝", decline: "不当", declare: "亮", emperor: "皇帝", guard: "保子", candidate: "候选",
    named: "名牌", mode: "方式", mingdu: "明独", hiddendu: "暗独", package: "底包", revealed: "亮出的牌",
    selection: "选皇帝", tribute: "进贡", order: "出完顺序", jiefeng: "接风", voids: "重发", pass: "不出",
  },
  en: {
    accept: "Accept", decline: "Decline", declare: "Declare", emperor: "Emperor", guard: "Guard", candidate: "Candidate",
    named: "Named card", mode: "Mode", mingdu: "open alone (明独)", hiddendu: "alone, hidden (暗独)", package: "Package", revealed: "Revealed",
    selection: "Selection", tribute: "Tribute", order: "Out", jiefeng: "Jiefeng", voids: "Redeals", pass: "Pass",
  },
};

export function mount(root, ctx) {
  const zh = ctx.lang === "zh";
  return mountCardTable(root, ctx, {
    seats: 5, cls: "baohuang", order: "3456789TJQKA2LB", strings: STR,
    // a listed set (rank string) is sent as the selected card ids: the same set, these cards
    compose: (ids, legal) => (matchRanks(ids, legal) ? ids.join(" ") : null),
    label: (a, S, lang) => {
      if (a === "pass" || a.startsWith("pass ")) return S.pass;
      if (a === "accept") return S.accept;
      if (a.startsWith("decline")) return S.decline;
      if (a.startsWith("declare ")) {
        const ids = a.slice(8).split(" ");
        return `${S.declare} ${faceText(ids[0], lang)} ×${ids.length}${ids.length === 4 ? " " + S.mingdu : ""}`;
      }
      return a;
    },
    badges: (v, s, S) => {
      const out = [];
      if (v.emperor === s) out.push([S.emperor, "role role-mark crown"]);
      if (v.guard === s) out.push([S.guard, "role2"]);
      if (v.candidate === s) out.push([S.candidate, ""]);
      return out.concat(placeBadge(v, s, S));
    },
    info: (v, S, lang) => [
      ["named", S.named, v.named_card ? faceText(v.named_card, lang) : null],
      ["mode", S.mode, v.ming_du ? S.mingdu : v.hidden_du ? S.hiddendu : null],
      ["selection", S.selection, v.emperor === null ? (v.selection || []).map((e) => `${e[0]}:${e[1].startsWith("accept") ? S.accept : S.decline}`).join(" ") : null],
      ["voids", S.voids, v.voids || null],
      ["tribute", S.tribute, (v.tribute || []).map(([g, r, c]) => `${g}→${r} ${faceText(c, lang)}`).join(", ")],
      ["order", S.order, (v.finished || []).join(" → ")],
      ["jiefeng", S.jiefeng, v.jiefeng ?? null],
      ["result", zh ? "结果" : "Result", v.result ? v.result.text : null],
    ],
    piles: (v, S) => [["package", S.package, v.package], ["revealed", S.revealed, v.revealed]],
  });
}
