// A card game's action in words for the replay's list of steps (used where a hand has no
// rounds to list, e.g. a game that ended in its bidding): "bid 3" reads 叫 3 分 / "bids 3",
// "declare 6H1 6H2" reads 亮 [♥6][♥6], a play of ranks (333+2) its ranks, cards as the table
// draws them. Every action kind of doudizhu, wakeng, baohuang, 4A4, shengji and sandayi.
//
//   cardMoveEntry(e, names, { t, lang }) -> Node   (e: {seat, text})

import { cardsEl, el, ranksText, suitSign } from "./cardtable.js";

const CARD_ID = /^(?:[2-9TJQKA][SHCD]|[LB]J)\d?$/;
const RANKS = /^[2-9TJQKALB+]+$/;

/** The words (strings and nodes) of one action text. */
export function cardActionWords(text, { t, lang }) {
  const [kind, ...rest] = String(text || "").split(" ");
  const cards = (ids) => cardsEl(ids, lang, "inline");
  if (kind === "pass") return [rest[0] === "jiefeng" ? t("mv.jiefeng") : t("ct.passed")];
  if (kind === "bid") return [t("mv.bid", { n: rest[0] })];
  if (kind === "accept") return [t("mv.accept")];
  if (kind === "decline") return rest.length ? [t("mv.declineAdd") + " ", cards(rest)] : [t("mv.decline")];
  if (kind === "declare") return [t("mv.declare") + " ", cards(rest)];
  if (kind === "bury") return [t("mv.bury") + " ", cards(rest)];
  // a no-trump deal says so in words ("names no trump", not "names trump no trump")
  if (kind === "trump") return [rest[0] === "N" ? t("mv.notrump") : t("mv.trump", { suit: suitSign(rest[0]) })];
  if (kind === "cha" || kind === "gou") return [t(`faf.${kind}`) + " " + ranksText(rest.join(""), lang)];
  if (kind === "resign") return [t("moves.resign")];
  if (kind === "timeout") return [t("moves.timeout")];
  if (kind === "play" && rest.length) return cardActionWords(rest.join(" "), { t, lang });   // "play 33": its cards
  const parts = [kind, ...rest];
  if (parts.every((p) => CARD_ID.test(p))) return [cards(parts)];
  // a play of ranks, each rank apart (TT reads "10 10", 333+2 "3 3 3 + 2")
  if (parts.length === 1 && RANKS.test(kind)) return [[...kind].map((r) => (r === "+" ? "+" : ranksText(r, lang))).join(" ")];
  return [t("mv.other")];
}

export function cardMoveEntry(e, names, ctx) {
  return el("span", "ct-move", el("b", "", names[e.seat] ?? ""), " ", ...cardActionWords(e.text, ctx));
}
