// A finished game's result in words, in the page's language, for every game:
//
//   import { resultText } from "/static/result.js";
//   resultText(result, { game, seat, names, view, t, lang, brief })
//     -> "你赢了 — 将死" / "You won — checkmate", "黑胜 2½ 目" / "Black wins by 2.5 points",
//        "地主胜 (春天) ×4: −24 / +12 / +12"
//
// `result` is Result.to_json() (returns, reason, text, winners, details); `seat` the viewer's
// seat (null for a spectator or a replay: the result is then told by side); `names` the seats'
// names; `view` the last view (it gives colours: go's black_seat, gomoku's colours); `t` the
// page's t(key, params, fallback) from i18n.js. The end reason is the catalogue's end.<reason>.
// The scores of a deal are each told with the player's name: "地主胜 ×2：Ann +4 / Bob −2 / Cy −2".

import { numberShared, paren, seatName, withNote } from "./i18n.js";

const SIGN_MINUS = "\u2212";

/** A score with its sign, the minus a true minus sign (U+2212): "+36", "−8", "±0" (as a table's
 *  score panel writes it); a half as ½ in Chinese. */
export function fmtScore(x, lang) {
  const n = Number(x);
  const half = Math.abs(n % 1) === 0.5;
  const whole = Math.trunc(Math.abs(n));
  const body = half ? (lang === "zh" ? `${whole || ""}½` : `${Math.abs(n)}`) : String(Math.abs(n));
  return (n > 0 ? "+" : n < 0 ? SIGN_MINUS : "±") + body;
}

/** A go margin without its sign: "2.5", in Chinese "2½". */
export function margin(x, lang) {
  const n = Math.abs(Number(x));
  if (n % 1 === 0.5 && lang === "zh") return `${Math.trunc(n) || ""}½`;
  return String(n);
}

// the reasons that only say the game came to its natural end: not repeated after the headline
export const NATURAL = new Set(["out", "finished", "hand_over", "deal_over", "hands_played", "counted", "score", "measure", "point", "entered"]);
// the end reasons said with the seat that lost the game by them ("bob resigned", "bob 认输")
export const BY_LOSER = new Set(["resign", "timeout"]);
// games told by sides with colours (seat -> side key)
function sideOf(game, seat, view) {
  if (game === "xiangqi") return seat === 0 ? "red" : "black";
  if (game === "go") {
    const bs = view && view.black_seat !== undefined ? view.black_seat : 0;
    return seat === bs ? "black" : "white";
  }
  if (game === "gomoku" && view && view.colours) return view.colours[seat];
  return null;
}

// a board game's seat by its side, for a seat without a name: 红方 / 黑方 in xiangqi, 黑棋 / 白棋 in
// go and gomoku, the direction in junqi, the colour in chinese checkers (results.py side_word)
function sideWord(game, s, view, n, tr) {
  const side = sideOf(game, s, view);
  if (side) return tr(game === "go" || game === "gomoku" ? "result.player.stones" : "result.player.side", { side: tr(`result.side.${side}`) });
  if (game === "junqi") return tr("result.player.side", { side: tr(`junqi.seatNames.${n === 2 ? "luzhan" : "siguo"}.${s}`) });
  if (game === "chinese-checkers") return tr("result.player.side", { side: tr(`cc.color.${s}`) });
  return null;
}

// what keeps a score with the words before it ("You lost −2"): a non-breaking space, so a narrow
// column never leaves the score alone on the next line (results.py NBSP)
export const NBSP = "\u00a0";

// `brief`: the line of a player's list of games (history, profile): a card or tile game read from
// a seat says the deal's headline, then that seat's own outcome and score, then the end reason,
// "地主胜 ×4 — 你输了 −24 · 超时" (as qipai/i18n/results.py result_words(brief=True)).
// `winds`: a reader's mahjong replay names the other seats by their winds (东家), as its board does.
// `other`: `seat` is not the reader's (someone else's profile): "Won", "Lost", never "You won"
export function resultText(result, { game, seat = null, names = [], view = null, t, lang = "en", brief = false, winds = false, other = false } = {}) {
  if (!result) return "";
  const tr = t || ((k, p, f) => f ?? k);
  // a built-in bot's or engine's seat (bot:rule) in the reader's language, whoever calls
  // (two bots of one kind told apart by a number: 机器人（规则型）2, numberShared)
  const words = names.map((x) => botWords(x, tr));
  names = numberShared(words, tr);
  const d = result.details || {};
  const winners = result.winners || [];
  const returns = result.returns || [];
  const n = returns.length || names.length;
  const seated = seat !== null && seat !== undefined && seat >= 0 && seat < n;
  const reason = result.reason;
  const reasonWords = reason ? tr(`end.${reason}`, null, reason.replace(/_/g, " ")) : "";
  // a seat's name; a name two seats share (two bots of one kind) with its place at a card or tile
  // table as the board shows it (上家, 对家; for a spectator 左, 右), else with its seat number
  // (a spectator reads a mahjong seat by its wind, 东家, as the table names it)
  // (a player's list of games names every seat by its name: a place, 上家 or "Right", is the
  // table's, out of context on a history page)
  const listLine = brief && seated;
  const place = TABLE_GAMES.has(game) && n >= 3 && !listLine ? (s) => ((!seated || (winds && s !== seat)) && windOf(game, s, view, n, tr)) || placeOf(s, seated ? seat : null, n, tr) : null;
  // a board game's seat without a name by its side (红方, 黑棋, 南方: sideWord)
  const where = (s) => (place && place(s)) || sideWord(game, s, view, n, tr);
  const nameOf = (s) => {
    // the reader: 你 / You at the table (as its score panel), 你 / you in a list of games
    if (seated && !other && s === seat) return tr(listLine ? "result.you" : "ct.you");
    if (!names[s]) return where(s) || tr("result.seat", { n: s + 1 }, `seat ${s + 1}`);
    // (a history line: two bots of one kind by their name alone, "you and Bot (Rule-based)")
    if (words.filter((x) => x === words[s]).length < 2 || listLine) return names[s];
    // at a card or tile table two bots of one kind are their places alone (下家, 上家): the line
    // stays short, without brackets inside brackets ("庄家方（下家、上家）胜")
    if (place && place(s)) return place(s);
    return where(s) ? withNote(words[s], where(s), lang) : names[s];
  };
  const sideName = (s) => {
    const side = sideOf(game, s, view);
    return side ? tr(`result.side.${side}`, null, side) : nameOf(s);
  };
  const join = (words) => words.join(lang === "zh" ? "、" : ", ");
  // the reader is "you" ("you and Bob"), at the table as in a history line; the others by name
  const list = (seats) => {
    if (!seated || other || !seats.includes(seat)) return join(seats.map(nameOf));
    const rest = seats.filter((s) => s !== seat).map(nameOf);
    return rest.length ? tr("result.youAnd", { names: join(rest) }) : tr("result.you");
  };
  const allEqual = returns.every((x) => x === returns[0]);
  const draw = allEqual && (winners.length === 0 || winners.length === n);     // nobody, or everybody, won
  // the scores of a card deal or of more than two players (a ranking says it already)
  const ranked = game === "chinese-checkers" && d.places;
  const scored = returns.some((x) => Number(x) !== 0);      // a deal of a match may score nothing yet
  const scores = (n > 2 || TABLE_GAMES.has(game)) && !draw && !ranked && scored
    ? returns.map((x, s) => tr("result.scoreOf", { name: nameOf(s), score: fmtScore(x, lang) })).join(" / ") : "";

  // the game's own headline
  let head = "";
  const known = (x) => x !== undefined && x !== null;
  let generic = false;                 // the headline only lists the winners: a player's "You won" says it
  let wonSaid = false;                 // the headline says how the hand ended: its reason is not repeated
  let sjWords = false;                 // a shengji headline that says the levels: no scores after it
  if (game === "go" && known(d.margin_points) && reason === "counted") {
    head = draw ? tr("result.jigo", null, "Draw (jigo)")
      : tr("result.byPoints", { side: sideName(winners[0]), margin: margin(d.margin_points, lang) }, "");
  } else if (game === "doudizhu" && (known(d.landlord) || (view && known(view.landlord)))) {
    // a record's result keeps no details: its last position names the landlord
    const lord = known(d.landlord) ? d.landlord : view.landlord;
    head = tr(winners.includes(lord) ? "result.landlordWins" : "result.farmersWin");
    if (d.spring) head += paren(tr("result.spring"), lang);
    if (d.anti_spring) head += paren(tr("result.antiSpring"), lang);
    if (d.multiplier > 1) head += ` ×${d.multiplier}`;
  } else if (game === "wakeng" && (known(d.digger) || (view && known(view.digger)))) {
    const digger = known(d.digger) ? d.digger : view.digger;       // a record's result: from its last position
    head = tr(winners.includes(digger) ? "result.diggerWins" : "result.diggerLoses");
  } else if (game === "baohuang" && known(d.emperor) && winners.length && !draw) {
    head = tr(winners.includes(d.emperor) ? "result.bh.emperorWins" : "result.bh.emperorLoses");
  } else if (game === "sandayi" && known(d.dealer) && winners.length && !draw) {
    head = tr(winners.includes(d.dealer) ? "result.sdy.dealerWins" : "result.sdy.defendersWin");
  } else if (game === "shengji" && Array.isArray(d.gains) && winners.length && Math.max(...d.gains) > 0
    && Array.isArray(d.levels) && known(d.attack_total) && known(d.take_at)) {
    // in words a player reads: who goes up, to which level, and the attackers' points against the
    // take-over mark ("Left and Right (declarers) go up 1 level, to 3; the attackers took 45 of
    // the 80 they needed"); the scores after it would only repeat the levels (results.py)
    const team = winners.length === 2 && !(seated && winners.includes(seat))
      ? tr("result.sj.pair", { a: nameOf(winners[0]), b: nameOf(winners[1]) }) : list(winners);
    head = tr(winners.includes(d.dealer) ? "result.sj.declarersUp" : "result.sj.attackersUp", {
      names: team, n: Math.max(...d.gains), level: levelName(d.levels[winners[0] % 2]),
      points: d.attack_total, needed: d.take_at,
    });
    sjWords = true;
  } else if (game === "shengji" && Array.isArray(d.gains) && winners.length && Math.max(...d.gains) > 0) {
    // the team in words with its players, no bracket inside a bracket when a player is a bot
    // ("机器人（规则型）"): "甲、丙胜，升1级（庄家方）"
    const side = tr(winners.includes(d.dealer) ? "result.sj.declarers" : "result.sj.attackers");
    head = tr("result.levelsUp", { side, names: list(winners), n: Math.max(...d.gains) });
  } else if (game === "shengji" && Array.isArray(d.gains) && known(d.attack_total) && winners.length && !draw && !winners.includes(d.dealer)) {
    // the attackers took the deal over without a level (80–115 points): said so, or the ±0 beside
    // "You won" reads as a mistake
    // and why nobody moved up, with the marks (results.py)
    head = known(d.take_at) && known(d.up_at)
      ? tr("result.sj.takeOverUpAt", { points: d.attack_total, take: d.take_at, up: d.up_at })
      : tr("result.sj.takeOver", { points: d.attack_total });
  } else if (game === "shengji" && known(d.dealer) && winners.length && !draw) {
    // a deal ended before its count (a resignation): the side that won, without levels
    head = tr("result.sj.sideWins", { side: tr(winners.includes(d.dealer) ? "result.sj.declarers" : "result.sj.attackers") });
  } else if (TILES.has(game) && wonHand(d)) {
    // a mahjong hand won: who won and how, and what the hand was worth ("Bob won by self-draw,
    // 12 fans"); to its winner, how alone ("You won — self-drawn, 12 fans")
    head = tileWinWords(wonHand(d), seated ? seat : null, nameOf, list, tr, lang, !other);
    wonSaid = true;
  } else if (game === "fouafour" && seated && winners.length === 2 && n === 4) {
    // the partners' side from a seat at the table (a spectator reads the winners' names)
    head = tr(winners.includes(seat) ? "result.faf.usWin" : "result.faf.themWin");
  } else if (game === "chinese-checkers" && d.places && n > 2 && !draw) {
    const order = [...d.places.keys()].sort((a, b) => d.places[a] - d.places[b]);
    head = order.map((s) => tr("result.place", { place: d.places[s], name: nameOf(s) })).join(" · ");
  } else if (TILES.has(game) && !draw && drawnWithBombs(d)) {
    // 荒庄 with bombs laid: nobody won, the payments are the bombs' (百变八雀 §4.3)
    head = tr("result.mj.drawnBombs", { bombs: join(drawnWithBombs(d).map((b) => nameOf(b[0]))) });
    wonSaid = true;
  } else if (draw && TILES.has(game) && reason === "drawn_hand") {
    head = tr("result.mj.drawnHand");           // 荒庄: nobody won before the wall ran out
    wonSaid = true;                              // the headline says why: the reason is not repeated
  } else if (draw && game === "fouafour" && reason === "out" && fafDrawnWhy(d.order || (view && view.finished), nameOf, tr, lang)) {
    // 4A4: how the deal came to be drawn (the first out's partner went out last)
    head = tr("result.faf.drawn", { why: fafDrawnWhy(d.order || (view && view.finished), nameOf, tr, lang) });
  } else if (draw) {
    head = tr(TABLE_GAMES.has(game) ? "result.tie" : "result.draw");
  } else if (winners.length === 1 && n === 2) {
    head = tr("result.sideWins", { side: sideName(winners[0]) });
  } else if (winners.length) {
    head = tr("result.playersWin", { names: list(winners), n: winners.length });   // "Ann wins", "Ann, Cy win"
    generic = true;
  }

  // the viewer's own outcome first
  let mine = "";
  if (seated) {
    const who = other ? "they" : "you";
    if (game === "chinese-checkers" && d.places && n > 2 && !draw) mine = tr(`result.${who}Placed`, { place: d.places[seat] });
    else if (draw) mine = "";
    else if (winners.includes(seat)) mine = tr(`result.${who}Won`);
    // 百变八雀: a seat that did not win the hand but gained on its bombs lost nothing
    else if (TILES.has(game) && upOnBombs(d, returns, seat)) mine = tr(`result.${who}UpOnBombs`);
    else mine = tr(`result.${who}Lost`);
  }
  // an agreed draw that a rule scores (junqi's deadlock rule) says what decided it
  const decided = d.decided_by ? tr(`end.${d.decided_by}`, null, String(d.decided_by).replace(/_/g, " ")) : "";
  // a two-player game lost by resigning or on time says who: "You won — bob resigned", "你赢了 — bob 认输"
  const loser = BY_LOSER.has(reason) && n === 2 && winners.length === 1 && !draw ? 1 - winners[0] : null;
  const lostBy = loser === null ? "" : seated && !other && loser === seat ? tr(`end.${reason}You`, null, "")
    : tr(`end.${reason}By`, { name: nameOf(loser) }, "");
  const why = [reason && !NATURAL.has(reason) && !(game === "go" && reason === "counted") && !(wonSaid && (reason === "win" || reason === "drawn_hand")) ? lostBy || reasonWords : "", decided]
    .filter(Boolean).join(" · ");
  if (brief && seated && TABLE_GAMES.has(game)) {
    // a drawn deal names its reader as a won or lost one does: "平局 — 你打平 ±0" (a drawn
    // mahjong hand's headline says it all: "荒庄——牌墙摸完，无人和牌")
    const tied = draw && !wonSaid;
    if (tied) mine = tr(`result.${other ? "they" : "you"}Tied`);
    const own = tied ? fmtScore(0, lang) : !draw && Number(returns[seat]) ? fmtScore(returns[seat], lang) : "";
    const me = [mine, own].filter(Boolean).join(NBSP);
    const top = generic && winners.includes(seat) ? "" : head;
    return opening([top, [me, why].filter(Boolean).join(" · ")].filter(Boolean).join(" — "), tr);
  }
  let text;
  if (mine) {
    // "You won — checkmate"; a counted go game or a card deal says how: "You won — Black wins by 2.5 points"
    const how = ((game === "go" && reason === "counted") || TABLE_GAMES.has(game) || (game === "chinese-checkers" && n > 2)) && !generic ? head : "";
    text = [mine, [how, why].filter(Boolean).join(" · ")].filter(Boolean).join(" — ");
  } else {
    text = [head, why].filter(Boolean).join(" — ");
  }
  // a tile table's scores are what each seat paid or won, said so, never after the reason's words
  // as if they were the hand ("winning hand: Ann −20 / …")
  if (sjWords) return opening(text, tr);
  if (scores && TILES.has(game)) text += ` · ${tr("mj.payments")}${tr("colon", null, ": ")}${scores}`;
  else if (scores) text += `${tr("colon", null, ": ")}${scores}`;   // "：" in Chinese
  return opening(text, tr);
}

/** A 4A4 draw's cause in words (§4.2: both opponents of the first out went out before that
 *  player's partner): "Across went out first, but Right and you went out before Left"; null
 *  without the order of going out (qipai/i18n/results.py faf_drawn_why). */
export function fafDrawnWhy(order, who, tr, lang) {
  if (!order || order.length < 3) return null;
  const first = order[0];
  // the reader inside the sentence is "you" ("but Right and you went out"), never "You"
  const inner = (s) => (who(s) === tr("ct.you") ? tr("result.you") : who(s));
  const others = order.filter((s) => (s - first) % 2 !== 0).map(inner);
  if (others.length < 2) return null;
  return tr("faf.drawnWhy", { first: who(first), others: others.join(lang === "zh" ? "、" : " and "), partner: inner((first + 2) % 4) });
}

/** A shengji level as the table writes it: 2…10, J, Q, K, A (11…14; results.py level_name). */
export function levelName(n) {
  return { 11: "J", 12: "Q", 13: "K", 14: "A" }[n] || String(n);
}

/** A line that opens with the reader's "you" ("you and Bob win, up 2") opens with a capital. */
function opening(text, tr) {
  const you = tr("result.you");
  return text.startsWith(`${you} `) ? you.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** A seat's name in the language of `tr` (as i18n.js seatName in the page's): a built-in bot's
 *  seat ("bot:rule") in words, an engine's ("engine:fsf") as "Engine fsf", others as they are. */
function botWords(name, tr) {
  const s = String(name ?? "");
  let m = /^bot:(\w+)$/.exec(s);
  if (m) return tr("botseat", { bot: m[1] }, s);
  m = /^engine:(.+)$/.exec(s);
  return m ? tr("bot.engine", { name: m[1] }, s) : name;
}

/** Why a game of a table made rated did not count, in words ("Not rated: fewer than 2 moves
 *  each"); `u` is the table's or the record's `unrated` ({reason, min}). */
export function unratedText(u, t) {
  return u.reason === "too_short" ? t("rating.notRatedShort", { n: u.min }) : t("rating.notRated");
}

/** Why a game was aborted, in words: it counts for nobody ("Game aborted: alice did not make the
 *  first move in time; it counts for nobody"). `why` is the table's settings.aborted or the
 *  `aborted` event ({reason, seat}); `names` the seats' names; `layout` whether the game stopped
 *  in junqi's layout (its first decision: "did not lay out in time"). */
export function abortedText(why, names, t, layout = false) {
  const reason = (why && why.reason) || "table_closed";
  const seat = why ? why.seat : undefined;
  if (reason === "no_first_move" && seat !== undefined && seat !== null && names[seat]) {
    return t(layout ? "aborted.noLayoutBy" : "aborted.noFirstMoveBy", { name: seatName(names[seat]) });
  }
  if (reason === "aborted" && seat !== undefined && seat !== null && names[seat]) return t("aborted.by", { name: seatName(names[seat]) });
  return t(["no_first_move", "storage_refused", "aborted"].includes(reason) ? `close.${reason}` : "close.table_closed");
}

// the tile games: a won hand is told with its winner, how and worth; the scores are payments
const TILES = new Set(["mahjong-gb", "laizi-mahjong", "baibian-bajue"]);

// the hand a one-hand tile match ended with when it was won, else null (results.py won_hand)
// the bombs ([seat, tile]) of a one-hand tile match nobody won, when any were laid (results.py drawn_with_bombs)
function drawnWithBombs(d) {
  const hands = d.hands || [];
  if (hands.length !== 1 || !hands[0] || (hands[0].winners || []).length) return null;
  return (hands[0].bombs || []).length ? hands[0].bombs : null;
}

// whether `seat` of a one-hand tile match gained (its bombs' bonuses) in a hand with bombs
// (results.py _up_on_bombs)
function upOnBombs(d, returns, seat) {
  const hands = d.hands || [];
  return hands.length === 1 && !!hands[0] && (hands[0].bombs || []).length > 0 && Number(returns[seat]) > 0;
}

function wonHand(d) {
  const hands = d.hands || [];
  return hands.length === 1 && hands[0] && (hands[0].winners || []).length ? hands[0] : null;
}

// what a won hand was worth: [total, "fan" | "point"] (Laizi's points), or null (results.py hand_worth)
function handWorth(r) {
  const f = (r.fans || {})[String((r.winners || [])[0])];
  if (f && f.total !== undefined && f.total !== null) return [f.total, f.unit === "points" ? "point" : "fan"];
  if (r.score && r.score.points !== undefined && r.score.points !== null) return [r.score.points, "point"];
  return null;
}

// a won hand in words: "Bob won on Ann's discard, 12 fans" / "Bob和牌，Ann点炮，12 番"; to the
// winner, "on Ann's discard, 12 fans" (results.py tile_win_words)
function tileWinWords(r, seat, nameOf, list, tr, lang, mine = true) {
  const winners = r.winners || [];
  const how = ["self_drawn", "discard", "robbing_kong"].includes(r.how) ? r.how : "any";
  const params = { names: list(winners), n: winners.length, from: r.from !== undefined && r.from !== null ? nameOf(r.from) : "" };
  const said = seat !== null && winners.includes(seat) ? (how !== "any" ? tr(`result.mjHow.${how}`, params) : "")
    : mine && seat !== null && r.from === seat && (how === "discard" || how === "robbing_kong") ? tr(`result.mjWonYou.${how}`, params)
      : tr(`result.mjWon.${how}`, params);
  const worth = handWorth(r);
  return [said, worth ? tr(`result.mj.${worth[1]}`, { n: worth[0] }) : ""].filter(Boolean).join(lang === "zh" ? "，" : ", ");
}

// a seat's place around a card or tile table, as the board names it: from the reader's seat
// (上家 / 对家 / 下家), or for a spectator from the bottom seat 0 (左 / 对面 / 右)
const PLACES = { 3: ["left", "right"], 4: ["left", "across", "right"], 5: ["left", "acrossLeft", "acrossRight", "right"] };
function placeOf(s, seat, n, tr) {
  const k = (s - (seat ?? 0) + n) % n;
  if (k === 0) return tr(seat === null ? "ct.side.me" : "ct.you");
  const p = PLACES[n] ? PLACES[n][n - 1 - k] : null;
  return p ? tr(seat === null ? `ct.side.${p}` : `ct.pos.${p}`) : tr("result.seat", { n: s + 1 });
}

// a mahjong seat by its wind (东家 / East), as the table names a seat to a reader without one: the
// view's seat wind, else (a view without winds, or none) the dealer's seat East and so on in turn
const MAHJONG = new Set(["mahjong-gb", "laizi-mahjong"]);
function windOf(game, s, view, n, tr) {
  if (!MAHJONG.has(game) || n !== 4) return null;
  const info = view && view.seats ? view.seats[s] : null;
  const w = info && info.wind ? info.wind : "ESWN"[(s - ((view && view.dealer) ?? 0) + 4) % 4];
  return tr("mj.seatOf", { wind: tr(`mj.wind.${w}`) });
}

/** The card and tile games: their tables name the seats from the reader's (上家, 下家). */
export const TABLE_GAMES = new Set(["doudizhu", "shengji", "baohuang", "wakeng", "fouafour", "sandayi", "mahjong-gb", "laizi-mahjong", "baibian-bajue"]);
