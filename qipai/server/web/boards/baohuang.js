// 保皇 baohuang: five seats, four packs. The candidate accepts or declines the emperor role; the
// emperor declares a card by a button (three copies, or four for 明独); plays are sent as the
// selected card ids (so the guard chooses whether to show the named card). See cardtable.js.
// The experimental rule set 山东保皇 (view.ruleset "sdbh.provisional") is a four-seat table of one
// pack: the board is chosen by the first view, and says "experimental" above the cards.
import { mountCardTable, placeBadge, matchRanks, faceText } from "./cardtable.js";
import { cardMoveEntry } from "./cardmoves.js";

export function mount(root, ctx) {
  let board = null;
  const own = {
    update(msg) {
      if (!board) board = msg.view && msg.view.ruleset === "sdbh.provisional" ? mountShandong(root, ctx) : mountBaohuang(root, ctx);
      board.update(msg);
    },
    moveEntry: (e, names) => cardMoveEntry(e, names, { t: ctx.t, lang: ctx.lang === "zh" ? "zh" : "en" }),
  };
  // the rest (the replay's rounds, the history's title, seat names, looking back) is the table's
  // once the first message has chosen it
  return new Proxy(own, { get: (o, k) => (k in o ? o[k] : board ? board[k] : undefined) });
}

function mountShandong(root, ctx) {
  return mountCardTable(root, ctx, {
    alarm: true,                  // 报单 / 报双 at one or two cards left
    seats: 4, cls: "baohuang-sd", order: "23456789TJQKALB",
    info: (v, { tr, who }) => [
      ["marking", tr("marking.experimental"), tr("sdbh.name")],
      ["start", tr("sdbh.start"), who(v.start)],
      // the §B4 match (deals_per_match): the deal's number and every seat's total so far
      ...(v.match ? [["match", tr("sdbh.match", { deal: v.match.deal, deals: v.match.deals }),
        v.match.totals.map((t, s) => `${who(s)} ${t}`).join(" · ")]] : []),
    ],
    autoPass: (msg, legal) => legal.length === 1 && legal[0] === "pass",
    resultLine: (r, v, { tr }) => {
      const d = r.details || {};
      if (d.totals) return tr("sdbh.totals", { totals: d.totals.join(" / ") });
      return d.points ? tr("sdbh.points", { points: d.points.join(" / ") }) : null;
    },
  });
}

function mountBaohuang(root, ctx) {
  return mountCardTable(root, ctx, {
    seats: 5, cls: "baohuang", order: "3456789TJQKA2LB",
    // a set too long to list (over 5,000 actions) comes summarised ({kind, count}, msg.legal
    // null): the selected cards are sent and the referee judges them; a follower may still pass
    legal: (msg) => (msg.legal === null && msg.legal_count
      ? { kind: "many", count: msg.legal_count, cards: true, actions: msg.view.top ? ["pass"] : [] } : msg.legal || []),
    // a listed set (rank string) is sent as the selected card ids: the same set, these cards
    compose: (ids, legal) => (ids.length && (!Array.isArray(legal) || matchRanks(ids, legal)) ? ids.join(" ") : null),
    label: (a, { tr, lang }) => {
      if (a === "pass" || a.startsWith("pass ")) return tr("ct.pass");
      if (a === "accept") return tr("bh.accept");
      if (a.startsWith("decline")) return tr("bh.decline");
      if (a.startsWith("declare ")) {
        const ids = a.slice(8).split(" ");
        return tr(ids.length === 4 ? "bh.declareAlone" : "bh.declare", { card: faceText(ids[0], lang), n: ids.length });
      }
      return a;
    },
    badges: (v, s, { tr }) => {
      const out = [];
      if (v.emperor === s) out.push([tr("bh.emperor"), "role role-mark crown"]);
      if (v.guard === s) out.push([tr("bh.guard"), "role2"]);
      if (v.candidate === s && v.emperor === null) out.push([tr("bh.candidate"), ""]);
      return out.concat(placeBadge(v, s, tr));
    },
    last: (v, s, T) => {
      if (v.emperor === null || v.emperor === undefined) {
        const e = (v.selection || []).filter(([x]) => x === s).pop();
        return e ? { text: T.tr(e[1].startsWith("accept") ? "bh.accepted" : "bh.declined") } : null;
      }
      return undefined;
    },
    info: (v, { tr, lang, who }) => [
      ["named", tr("bh.named"), v.named_card ? faceText(v.named_card, lang) : null],
      ["mode", tr("bh.mode"), v.ming_du ? tr("bh.mingdu") : v.hidden_du ? tr("bh.hiddendu") : null],
      ["voids", tr("bh.voids"), v.voids || null],
      ["tribute", tr("bh.tribute"), (v.tribute || []).map(([g, r, c]) => `${who(g)} → ${who(r)} ${faceText(c, lang)}`).join(lang === "zh" ? "；" : ", ")],
      ["order", tr("bh.order"), (v.finished || []).map(who).join(" → ")],
    ],
    piles: (v, { tr }) => [["package", tr("bh.package"), v.package], ["revealed", tr("bh.revealed"), v.revealed]],
    autoPass: (msg, legal) => msg.view.phase === "play" && Array.isArray(msg.legal) && legal.length === 1 && (legal[0] === "pass" || legal[0].startsWith("pass ")),
    resultLine: (r, v, { tr }) => {
      const d = r.details || {};
      if (d.emperor === undefined || d.emperor === null) return null;
      return tr((r.winners || []).includes(d.emperor) ? "bh.emperorWins" : "bh.emperorLoses");
    },
  });
}
