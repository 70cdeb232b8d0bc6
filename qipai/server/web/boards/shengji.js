// 升级 / 拖拉机 shengji: four seats, partners opposite (0+2 against 1+3). Declarations (亮主 /
// 反主) are buttons from the view's list; the dealer selects as many cards as the kitty holds and
// buries them; leads and follows are the selected faces ("AS AS KS"). The view only summarises the
// long legal sets ({kind: "bury", count: 8}, {kind: "follow", count, suit}): the board asks for
// that many cards and the referee judges the rest. Your hand keeps the referee's order (trumps
// first). See cardtable.js.
import { mountCardTable, faceText } from "./cardtable.js";

const STR = {
  zh: {
    declare: "亮", nodeclare: "不亮", bury: "扣底", dealer: "庄", team: "队", levels: "级", level: "打",
    trump: "主", notrump: "无主", points: "闲家得分", penalty: "罚分", tricks: "墩", winning: "大",
    kittyShown: "翻底", buried: "底牌", captured: "分牌", lead: "请出牌", follow: (n, s) => `跟${n}张 ${s}`,
    trumps: "主牌", decls: "亮主", lastTrick: "上一墩", failed: "甩牌失败", after: "本局后",
  },
  en: {
    declare: "Declare", nodeclare: "Pass", bury: "Bury", dealer: "dealer", team: "team", levels: "Levels", level: "Level",
    trump: "Trump", notrump: "no trump", points: "Attackers", penalty: "Penalty", tricks: "Tricks", winning: "Winning",
    kittyShown: "Kitty turned", buried: "Kitty", captured: "Point cards", lead: "Lead", follow: (n, s) => `Follow ${n} of ${s}`,
    trumps: "trumps", decls: "Declared", lastTrick: "Last trick", failed: "Failed throw", after: "After the hand",
  },
};
const SUIT = { S: "♠", H: "♥", C: "♣", D: "♦" };
const LEVEL = (n) => ({ 11: "J", 12: "Q", 13: "K", 14: "A" }[n] || String(n));

// the latest failed throw: who, the cards tried, the card(s) played instead, the points lost
function lastThrow(v, lang) {
  const f = (v.failed_throws || []).at(-1);
  if (!f) return null;
  const faces = (ids) => ids.map((x) => faceText(x, lang)).join(" ");
  return `${f.seat}: ${faces(f.attempted)} → ${faces(f.forced)}${f.penalty ? ` (−${f.penalty})` : ""}`;
}

// the hand's scoring once it is over: the attackers' total (with the kitty) and both levels
function afterHand(v, S) {
  const d = v.result && v.result.details;
  if (!d || !d.levels) return null;
  return `${S.points} ${d.attack_total} · A ${LEVEL(d.levels[0])} · B ${LEVEL(d.levels[1])}`;
}

export function mount(root, ctx) {
  const zh = ctx.lang === "zh";
  const summary = (msg) => msg.view.legal;
  return mountCardTable(root, ctx, {
    seats: 4, cls: "shengji", order: null, strings: STR,
    legal: (msg) => {
      const l = summary(msg);
      if (!l) return [];
      return l.kind === "declaration" ? l.actions : l;
    },
    need: (msg) => {
      const l = summary(msg);
      return l && l.kind === "bury" ? { count: l.count, action: "bury" } : null;
    },
    compose: (ids, legal) => {
      if (!ids.length) return null;
      if (legal.kind === "follow" && ids.length !== legal.count) return null;
      return ids.join(" ");
    },
    isCardAction: () => false,
    label: (a, S, lang) => {
      if (a === "pass") return S.nodeclare;
      if (a === "bury") return S.bury;
      if (a.startsWith("declare ")) return `${S.declare} ${a.slice(8).split(" ").map((f) => faceText(f, lang)).join(" ")}`;
      return a;
    },
    badges: (v, s, S) => {
      const out = [[`${S.team} ${s % 2 ? "B" : "A"}`, s % 2 ? "team1" : "team0"]];
      if (v.dealer === s) out.push([S.dealer, "role"]);
      if (v.winning === s && (v.trick || []).length) out.push([S.winning, "out"]);
      return out;
    },
    // the seat's cards in the current trick; between tricks, in the last trick
    last: (v, s) => {
      const cur = (v.trick || []).find(([x]) => x === s);
      if (cur) return { cards: cur[1] };
      if (!(v.trick || []).length && v.last_trick) {
        const p = v.last_trick.plays.find(([x]) => x === s);
        if (p) return { cards: p[1] };
      }
      return null;
    },
    top: (v) => ((v.trick || []).length ? v.winning : v.last_trick ? v.last_trick.winner : null),
    info: (v, S, lang) => [
      ["levels", S.levels, `A ${LEVEL(v.levels[0])} · B ${LEVEL(v.levels[1])}`],
      ["level", S.level, LEVEL(v.level)],
      ["trump", S.trump, v.trump ? (v.trump === "NT" ? S.notrump : (SUIT[v.trump] || v.trump) + (v.trump_name ? ` (${v.trump_name})` : "")) : null],
      ["declared", S.decls, (v.declarations || []).map((d) => `${d.seat}: ${d.cards.map((f) => faceText(f, lang)).join(" ")}`).join(", ")],
      ["throw", S.failed, lastThrow(v, lang)],
      ["points", S.points, v.attacker_points],
      ["penalty", S.penalty, v.penalty || null],
      ["tricks", S.tricks, v.tricks_played || null],
      ["result", zh ? "结果" : "Result", v.result ? v.result.text : null],
      ["after", S.after, afterHand(v, S)],
    ],
    piles: (v, S) => [["kitty_shown", S.kittyShown, v.kitty_shown], ["buried", S.buried, v.buried],
      ["captured", S.captured, v.captured]],
    prompt: (msg, S, lang) => {
      const l = summary(msg);
      if (!l || msg.result || !(msg.to_act || []).includes(msg.seat)) return null;
      if (l.kind === "lead") return S.lead;
      if (l.kind === "follow") return S.follow(l.count, l.suit === "TRUMP" ? S.trumps : SUIT[l.suit] || l.suit);
      return null;
    },
  });
}
