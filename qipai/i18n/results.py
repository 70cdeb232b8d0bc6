"""A finished game's result in words, in a reader's language, from the reader's seat.

The terminal's twin of the web client's ``resultText`` (qipai/server/web/result.js): the same
rules, the same catalogue keys, so a person reads the same words on the page and in
``qipai play``. tests/test_result_words.py plays every game to its end and checks both.

    result_words(result, game="xiangqi", seat=0, names=["Ann", "Bob"], lang="zh")
    -> "你赢了 — 将死";  seat=None (a spectator) -> "红胜 — 将死"

``result`` is ``Result.to_json()`` (returns, reason, text, winners, details); ``seat`` the
reader's seat or None (a spectator, a replay: the result is told by side or name); ``names``
the seats' names as people read them; ``view`` the last public view (it gives colours: go's
``black_seat``, gomoku's ``colours``). The record's English ``text`` is never shown. The scores
of a deal are each told with the player's name ("地主胜 ×2：Ann +4 / Bob −2 / Cy −2"); at a card or
tile table a name two seats share (two bots of one kind) takes its place as the board shows it
(上家 / 对家 / 下家 from the reader's seat; 左 / 对面 / 右 for a spectator), never a seat number.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from . import seat_name, seat_names, t

SIGN_MINUS = "\u2212"

#: the reasons that only say the game came to its natural end: not repeated after the headline
NATURAL = frozenset({"out", "finished", "hand_over", "deal_over", "hands_played", "counted", "score",
                     "measure", "point", "entered"})
#: the end reasons said with the seat that lost the game by them ("bob resigned", "bob 认输")
BY_LOSER = frozenset({"resign", "timeout"})
#: games whose result lists every seat's score (a deal's points)
CARD = frozenset({"doudizhu", "shengji", "baohuang", "wakeng", "fouafour", "sandayi", "mahjong-gb",
                  "laizi-mahjong", "baibian-bajue"})


def _num(x: float) -> str:
    """A number as JavaScript's ``String`` writes it: 24.0 -> "24", 2.5 -> "2.5"."""
    x = float(x)
    return str(int(x)) if x.is_integer() else repr(x)


def _is_half(x: float) -> bool:
    return abs(math.fmod(float(x), 1)) == 0.5


def score_text(x: float, lang: str) -> str:
    """A signed score: "+12", "−24" (a minus sign), "±0" (as a table's score panel writes it);
    Chinese writes a half as "2½"."""
    n = float(x)
    whole = math.trunc(abs(n))
    body = (f"{whole or ''}½" if lang == "zh" else _num(abs(n))) if _is_half(n) else _num(abs(n))
    return ("+" if n > 0 else SIGN_MINUS if n < 0 else "±") + body


def margin_text(x: float, lang: str) -> str:
    """A go margin without its sign: "2.5", in Chinese "2½"."""
    n = abs(float(x))
    if _is_half(n) and lang == "zh":
        return f"{math.trunc(n) or ''}½"
    return _num(n)


#: a seat's place around a card or tile table (result.js PLACES): the n-1 others, counted back
#: from the seat before the reader's
PLACES = {3: ("left", "right"), 4: ("left", "across", "right"),
          5: ("left", "acrossLeft", "acrossRight", "right")}


def place_of(s: int, seat: int | None, n: int, lang: str) -> str:
    """Seat ``s``'s place at an ``n``-seat card table seen from ``seat`` ("上家", "Across"), or
    for a spectator (``seat`` None) from the bottom seat 0 ("左", "Left")."""
    k = (s - (seat or 0)) % n
    if k == 0:
        return t("ct.side.me" if seat is None else "ct.you", lang=lang)
    if n not in PLACES:
        return t("result.seat", {"n": s + 1}, lang=lang)
    p = PLACES[n][n - 1 - k]
    return t(f"ct.side.{p}" if seat is None else f"ct.pos.{p}", lang=lang)


#: the mahjong games: a reader without a seat reads a seat by its wind
MAHJONG = frozenset({"mahjong-gb", "laizi-mahjong"})


def wind_of(game: str, s: int, view: dict | None, n: int, lang: str) -> str | None:
    """A mahjong seat by its wind ("东家", "East"), as the table names a seat to a reader without
    one: the view's seat wind, else (no winds in the view, or no view) the dealer's seat East and
    the others in turn; None for another game (result.js windOf)."""
    if game not in MAHJONG or n != 4:
        return None
    seats = (view or {}).get("seats") or []
    info = seats[s] if s < len(seats) and isinstance(seats[s], dict) else {}
    wind = info.get("wind") or "ESWN"[(s - ((view or {}).get("dealer") or 0)) % 4]
    return t("mj.seatOf", {"wind": t(f"mj.wind.{wind}", lang=lang)}, lang=lang)


def paren(s: str, lang: str) -> str:
    """``s`` in brackets after a word: full-width （…） in Chinese, " (…)" in English (i18n.js)."""
    return f"（{s}）" if lang == "zh" else f" ({s})"


def with_note(name: str, note: str, lang: str) -> str:
    """``name`` with ``note`` in brackets after it; a name that already ends in brackets (a
    bot's "机器人（规则型）") takes the note inside them: 机器人（规则型，下家）,
    "Bot (Rule-based, Right)", never two brackets in a row (i18n.js withNote)."""
    if lang == "zh" and name.endswith("）"):
        return f"{name[:-1]}，{note}）"
    if lang != "zh" and name.endswith(")"):
        return f"{name[:-1]}, {note})"
    return name + paren(note, lang)


def _side_of(game: str, seat: int, view: dict | None) -> str | None:
    if game == "xiangqi":
        return "red" if seat == 0 else "black"
    if game == "go":
        bs = view.get("black_seat", 0) if view else 0
        return "black" if seat == bs else "white"
    if game == "gomoku" and view and view.get("colours"):
        return view["colours"][seat]
    return None


def side_word(game: str, s: int, view: dict | None, n: int, lang: str) -> str | None:
    """Seat ``s`` of a board game by its side, as the board names it, for a seat without a
    name: 红方 / 黑方 (Red, Black) in xiangqi, 黑棋 / 白棋 (Black, White) in go and gomoku, the
    seat's direction in junqi (南方, North) and its colour in Chinese checkers (蓝方, Blue);
    None for a game told otherwise (result.js sideWord)."""
    side = _side_of(game, s, view)
    if side:
        key = "result.player.stones" if game in ("go", "gomoku") else "result.player.side"
        return t(key, {"side": t(f"result.side.{side}", lang=lang)}, lang=lang)
    if game == "junqi":
        return t("result.player.side", {"side": t(f"junqi.seatNames.{'luzhan' if n == 2 else 'siguo'}.{s}",
                                                   lang=lang)}, lang=lang)
    if game == "chinese-checkers":
        return t("result.player.side", {"side": t(f"cc.color.{s}", lang=lang)}, lang=lang)
    return None


#: what keeps a score with the words before it ("You lost −2", "Ann −2"): a non-breaking space,
#: so a narrow column never leaves the score alone on the next line (result.js NBSP)
NBSP = "\u00a0"


def level_name(level: int) -> str:
    """A shengji level as the table writes it: 2…10, J, Q, K, A (11…14)."""
    return {11: "J", 12: "Q", 13: "K", 14: "A"}.get(int(level), str(level))


def result_words(result: dict[str, Any] | None, *, game: str, seat: int | None = None,
                 names: Sequence[str] = (), view: dict | None = None, lang: str = "en",
                 brief: bool = False) -> str:
    """The result in words (see the module docstring); "" for no result.

    ``brief``: the line of a player's list of games (history, profile; result.js ``brief``).
    A card or tile game read from a seat says the deal's headline first, then that seat's own
    outcome and score, then the end reason: "地主胜 ×4 — 你输了 −24 · 超时" (the headline is left
    out where it would only list the reader among the winners); other games and readers read
    as without it."""
    if not result:
        return ""

    def tr(key, params=None, default=None):
        return t(key, params, lang=lang, default=default)

    # a built-in bot's or engine's seat (bot:rule) in the reader's language, whoever calls
    # (two bots of one kind told apart by a number: 机器人（规则型）2, seat_names)
    words = [seat_name(x, lang) if x else x for x in names]
    names = seat_names(names, lang)
    d = result.get("details") or {}
    winners = list(result.get("winners") or [])
    returns = list(result.get("returns") or [])
    n = len(returns) or len(names)
    seated = seat is not None and 0 <= seat < n
    reason = result.get("reason")
    reason_words = tr(f"end.{reason}", None, reason.replace("_", " ")) if reason else ""

    # seats around a table: a place tells two apart; a player's list of games (brief) names
    # every seat by its name (a place, 上家 or "Right", is the table's, out of context there)
    list_line = brief and seated
    at_table = game in CARD and n >= 3 and not list_line

    def name_of(s):
        """A seat's name; a name two seats share (two bots of one kind) with its place at a card
        or tile table or its side at a board, else with its seat number; a seat without a name
        by that place or side."""
        if seated and s == seat:        # the reader: 你 / You at the table, 你 / you in a list
            return tr("result.you" if list_line else "ct.you")
        name = names[s] if s < len(names) else ""
        at = None
        if at_table:
            at = (not seated and wind_of(game, s, view, n, lang)) or place_of(
                s, seat if seated else None, n, lang)
        place = at or side_word(game, s, view, n, lang)
        if not name:
            return place or tr("result.seat", {"n": s + 1})
        word = words[s] if s < len(words) else ""
        if list(words).count(word) < 2 or list_line:     # (a history line: "you and Bot (Rule-based) 2")
            return name
        if at:          # two bots of one kind at a table: their places alone (下家, 上家)
            return at
        return with_note(word, place, lang) if place else name

    def side_name(s):
        side = _side_of(game, s, view)
        return tr(f"result.side.{side}", None, side) if side else name_of(s)

    def join(words):
        return ("、" if lang == "zh" else ", ").join(words)

    def listed(seats):
        """The seats' names; the reader is "you" ("you and Bob"), at the table as in a history line."""
        if not seated or seat not in seats:
            return join(name_of(s) for s in seats)
        rest = [name_of(s) for s in seats if s != seat]
        return tr("result.youAnd", {"names": join(rest)}) if rest else tr("result.you")

    def sj_team(seats):
        """A shengji team: "you and Across", "Right and Left" (listed for other counts)."""
        if len(seats) != 2 or (seated and seat in seats):
            return listed(seats)
        return tr("result.sj.pair", {"a": name_of(seats[0]), "b": name_of(seats[1])})

    all_equal = all(x == returns[0] for x in returns)
    draw = all_equal and (not winners or len(winners) == n)
    ranked = game == "chinese-checkers" and d.get("places")
    scored = any(float(x) != 0 for x in returns)        # a deal of a match may score nothing yet
    scores = (" / ".join(tr("result.scoreOf", {"name": name_of(s), "score": score_text(x, lang)})
                         for s, x in enumerate(returns))
              if (n > 2 or game in CARD) and not draw and not ranked and scored else "")

    generic = False                # the headline only lists the winners: a player's "You won" says it
    won_said = False               # the headline says how the hand ended: its reason is not repeated
    if game == "go" and d.get("margin_points") is not None and reason == "counted":
        head = (tr("result.jigo") if draw
                else tr("result.byPoints", {"side": side_name(winners[0]),
                                            "margin": margin_text(d["margin_points"], lang)}))
    elif game == "doudizhu" and d.get("landlord") is not None:
        head = tr("result.landlordWins" if d["landlord"] in winners else "result.farmersWin")
        if d.get("spring"):
            head += paren(tr("result.spring"), lang)
        if d.get("anti_spring"):
            head += paren(tr("result.antiSpring"), lang)
        if (d.get("multiplier") or 0) > 1:
            head += f" ×{d['multiplier']}"
    elif game == "wakeng" and d.get("digger") is not None:
        head = tr("result.diggerWins" if d["digger"] in winners else "result.diggerLoses")
    elif game == "baohuang" and d.get("emperor") is not None and winners and not draw:
        head = tr("result.bh.emperorWins" if d["emperor"] in winners else "result.bh.emperorLoses")
    elif game == "sandayi" and d.get("dealer") is not None and winners and not draw:
        head = tr("result.sdy.dealerWins" if d["dealer"] in winners else "result.sdy.defendersWin")
    elif (game == "shengji" and isinstance(d.get("gains"), list) and winners and max(d["gains"]) > 0
          and isinstance(d.get("levels"), list) and d.get("attack_total") is not None
          and d.get("take_at") is not None):
        # in words a player reads: who goes up, to which level, and the attackers' points against
        # the take-over mark ("Left and Right (declarers) go up 1 level, to 3; the attackers took
        # 45 of the 80 they needed"); the scores after it would only repeat the levels
        key = "result.sj.declarersUp" if d.get("dealer") in winners else "result.sj.attackersUp"
        head = tr(key, {"names": sj_team(winners), "n": max(d["gains"]),
                        "level": level_name(d["levels"][winners[0] % 2]),
                        "points": d["attack_total"], "needed": d["take_at"]})
        scores = ""
    elif game == "shengji" and isinstance(d.get("gains"), list) and winners and max(d["gains"]) > 0:
        side = tr("result.sj.declarers" if d.get("dealer") in winners else "result.sj.attackers")
        head = tr("result.levelsUp", {"side": side, "names": listed(winners), "n": max(d["gains"])})
    elif (game == "shengji" and isinstance(d.get("gains"), list) and d.get("attack_total") is not None
          and winners and not draw and d.get("dealer") not in winners):
        # the attackers took the deal over without a level (80–115 points): said so, or the ±0
        # beside "You won" reads as a mistake
        # and why nobody moved up, with the marks ("enough to take over the deal (80), not to
        # move up a level (120)"; a record before the marks were kept says the outcome alone)
        head = (tr("result.sj.takeOverUpAt", {"points": d["attack_total"], "take": d["take_at"],
                                               "up": d["up_at"]})
                if d.get("take_at") is not None and d.get("up_at") is not None
                else tr("result.sj.takeOver", {"points": d["attack_total"]}))
    elif game == "shengji" and d.get("dealer") is not None and winners and not draw:
        # a deal ended before its count (a resignation): the side that won, without levels
        side = tr("result.sj.declarers" if d["dealer"] in winners else "result.sj.attackers")
        head = tr("result.sj.sideWins", {"side": side})
    elif game in TILES and (won := won_hand(d)) is not None:
        # a mahjong hand won: who won and how, and what the hand was worth ("Bob won by
        # self-draw, 12 fans"); to its winner, how alone ("You won — self-drawn, 12 fans")
        head = tile_win_words(won, seat if seated else None, name_of, listed, lang)
        won_said = True
    elif game == "fouafour" and seated and len(winners) == 2 and n == 4:
        # the partners' side from a seat at the table (a spectator reads the winners' names)
        head = tr("result.faf.usWin" if seat in winners else "result.faf.themWin")
    elif game == "chinese-checkers" and d.get("places") and n > 2 and not draw:
        places = d["places"]
        order = sorted(range(len(places)), key=lambda s: places[s])
        head = " · ".join(tr("result.place", {"place": places[s], "name": name_of(s)}) for s in order)
    elif game in TILES and not draw and (bombs := drawn_with_bombs(d)):
        # 荒庄 with bombs laid: nobody won, the payments are the bombs' (百变八雀 §4.3)
        head = tr("result.mj.drawnBombs", {"bombs": join(name_of(b[0]) for b in bombs)})
        won_said = True
    elif draw and game in TILES and reason == "drawn_hand":
        head = tr("result.mj.drawnHand")       # 荒庄: nobody won before the wall ran out
        won_said = True                        # the headline says why: the reason is not repeated
    elif draw and game == "fouafour" and reason == "out" and (
            why_drawn := faf_drawn_why(d.get("order") or (view or {}).get("finished"), name_of, tr, lang)):
        # 4A4: how the deal came to be drawn (the first out's partner went out last)
        head = tr("result.faf.drawn", {"why": why_drawn})
    elif draw:
        head = tr("result.tie" if game in CARD else "result.draw")
    elif len(winners) == 1 and n == 2:
        head = tr("result.sideWins", {"side": side_name(winners[0])})
    elif winners:
        # "Ann wins", "Ann, Cy win"
        head = tr("result.playersWin", {"names": listed(winners), "n": len(winners)})
        generic = True
    else:
        head = ""

    mine = ""
    if seated:
        if game == "chinese-checkers" and d.get("places") and n > 2 and not draw:
            mine = tr("result.youPlaced", {"place": d["places"][seat]})
        elif draw:
            mine = ""
        elif seat not in winners and game in TILES and _up_on_bombs(d, returns, seat):
            # 百变八雀: a seat that did not win the hand but gained on its bombs lost nothing
            mine = tr("result.youUpOnBombs")
        else:
            mine = tr("result.youWon" if seat in winners else "result.youLost")
    # an agreed draw that a rule scores (junqi's deadlock rule) says what decided it
    decided = (tr(f"end.{d['decided_by']}", None, str(d["decided_by"]).replace("_", " "))
               if d.get("decided_by") else "")
    # a two-player game lost by resigning or on time says who: "You won — bob resigned"
    loser = (1 - winners[0] if reason in BY_LOSER and n == 2 and len(winners) == 1 and not draw
             else None)
    if loser is not None:
        reason_words = (tr(f"end.{reason}You") if seated and loser == seat
                        else tr(f"end.{reason}By", {"name": name_of(loser)}))
    why = " · ".join(x for x in (reason_words if reason and reason not in NATURAL
                                 and not (game == "go" and reason == "counted")
                                 and not (won_said and reason in ("win", "drawn_hand")) else "",
                                 decided) if x)
    if brief and seated and game in CARD:
        # a drawn deal names its reader as a won or lost one does: "平局 — 你打平 ±0" (a drawn
        # mahjong hand's headline says it all: "荒庄——牌墙摸完，无人和牌")
        tied = draw and not won_said
        if tied:
            mine = tr("result.youTied")
        own = (score_text(0, lang) if tied else score_text(returns[seat], lang)
               if seat < len(returns) and not draw and float(returns[seat]) else "")
        me = NBSP.join(x for x in (mine, own) if x)
        top = "" if generic and seat in winners else head
        return _opening(" — ".join(x for x in (top, " · ".join(x for x in (me, why) if x)) if x), lang)
    if mine:
        how = head if ((game == "go" and reason == "counted") or game in CARD
                       or (game == "chinese-checkers" and n > 2)) and not generic else ""
        text = " — ".join(x for x in (mine, " · ".join(x for x in (how, why) if x)) if x)
    else:
        text = " — ".join(x for x in (head, why) if x)
    if scores and game in TILES:
        # a tile table's scores are what each seat paid or won, said so, never after the reason's
        # words as if they were the hand ("winning hand: Ann −20 / …")
        text += f" · {tr('mj.payments')}{tr('colon', None, ': ')}{scores}"
    elif scores:
        text += tr("colon", None, ": ") + scores
    return _opening(text, lang)


#: the tile games: a won hand is told with its winner, how and worth; the scores are payments
TILES = frozenset({"mahjong-gb", "laizi-mahjong", "baibian-bajue"})


def _opening(text: str, lang: str) -> str:
    """A line that opens with the reader's "you" ("you and Bob win, up 2") opens with a capital
    (result.js opening)."""
    you = t("result.you", lang=lang)
    return you[:1].upper() + text[1:] if text.startswith(f"{you} ") else text


def faf_drawn_why(order: Sequence[int] | None, name_of: Any, tr: Any, lang: str) -> str:
    """A 4A4 draw's cause in words (§4.2: both opponents of the first out went out before that
    player's partner): "Across went out first, but Right and you went out before Left"; "" without
    the order of going out (result.js fafDrawnWhy)."""
    if not order or len(order) < 3:
        return ""
    first = order[0]

    def inner(s):
        """The reader inside the sentence is "you" ("but Right and you went out"), never "You"."""
        name = name_of(s)
        return tr("result.you") if name == tr("ct.you") else name

    others = [inner(s) for s in order if (s - first) % 2]
    if len(others) < 2:
        return ""
    joined = ("、" if lang == "zh" else " and ").join(others)
    partner_name = inner((first + 2) % 4)
    return tr("faf.drawnWhy", {"first": name_of(first), "others": joined, "partner": partner_name})


def won_hand(details: dict[str, Any]) -> dict[str, Any] | None:
    """The hand a one-hand tile match ended with when it was won (``details["hands"]``), else
    None (a drawn hand, a match of several hands: its result is the match's)."""
    hands = details.get("hands") or []
    return hands[0] if len(hands) == 1 and isinstance(hands[0], dict) and hands[0].get("winners") else None


def _up_on_bombs(details: dict[str, Any], returns: Sequence[float], seat: int) -> bool:
    """Whether ``seat`` of a one-hand tile match gained (its bombs' bonuses) in a hand with bombs."""
    hands = details.get("hands") or []
    return (len(hands) == 1 and isinstance(hands[0], dict) and bool(hands[0].get("bombs"))
            and seat < len(returns) and float(returns[seat]) > 0)


def drawn_with_bombs(details: dict[str, Any]) -> list | None:
    """The bombs (``[seat, tile]``) of a one-hand tile match whose hand nobody won, when any
    were laid (their bonuses are then the whole payments), else None."""
    hands = details.get("hands") or []
    if len(hands) != 1 or not isinstance(hands[0], dict) or hands[0].get("winners"):
        return None
    return hands[0].get("bombs") or None


def hand_worth(r: dict[str, Any]) -> tuple[int, str] | None:
    """What a won hand was worth and its unit ("fan" or "points"): Guobiao's and Baibian's fan
    total, Laizi's points; None when the hand does not say."""
    fans = r.get("fans") or {}
    w = str((r.get("winners") or [None])[0])
    if isinstance(fans.get(w), dict) and fans[w].get("total") is not None:
        return fans[w]["total"], "point" if fans[w].get("unit") == "points" else "fan"
    score = r.get("score")
    if isinstance(score, dict) and score.get("points") is not None:
        return score["points"], "point"
    return None


def tile_win_words(r: dict[str, Any], seat: int | None, name_of: Any, listed: Any, lang: str) -> str:
    """A won hand in words (result.js tileWinWords): "Bob won on Ann's discard, 12 fans" /
    "Bob和牌，Ann点炮，12 番"; to the winner, "on Ann's discard, 12 fans"."""
    winners = r.get("winners") or []
    how = r.get("how") if r.get("how") in ("self_drawn", "discard", "robbing_kong") else "any"
    params = {"names": listed(winners), "n": len(winners),
              "from": name_of(r["from"]) if r.get("from") is not None else ""}
    if seat is not None and seat in winners:
        said = t(f"result.mjHow.{how}", params, lang=lang) if how != "any" else ""
    elif seat is not None and r.get("from") == seat and how in ("discard", "robbing_kong"):
        said = t(f"result.mjWonYou.{how}", params, lang=lang)     # "won on your discard"
    else:
        said = t(f"result.mjWon.{how}", params, lang=lang)
    worth = hand_worth(r)
    if worth is not None:
        said = ("，" if lang == "zh" else ", ").join(
            x for x in (said, t(f"result.mj.{worth[1]}", {"n": worth[0]}, lang=lang)) if x)
    return said


def mahjong_seat_word(s: int, *, seat: int | None, names: Sequence[str] = (), lang: str = "en") -> str:
    """Seat ``s`` as a mahjong board names it to the reader at ``seat``: 你 / you, else its name,
    else (no name, or one two seats share) its place at the table (下家 / 对家 / 上家; from the
    bottom seat when ``seat`` is None)."""
    if s == seat:
        return t("mj.you", lang=lang)
    k = (s - (seat or 0)) % 4
    place = t("mj.bottom" if k == 0 else ("mj.next", "mj.across", "mj.prev")[k - 1], lang=lang)
    name = names[s] if s < len(names) else ""
    if not name:
        return place
    return place if list(names).count(name) > 1 else name      # two bots of one kind: 下家


def mahjong_payments_line(payments: Sequence[float], *, seat: int | None, names: Sequence[str] = (),
                          lang: str = "en") -> str:
    """A hand's payments in words, seats named as :func:`mahjong_seat_word`
    (得失：你 −19 下家 +57 …)."""
    def who(s):
        return mahjong_seat_word(s, seat=seat, names=names, lang=lang)
    pays = " ".join(f"{who(s)}{NBSP}{score_text(p, lang)}" for s, p in enumerate(payments or []))
    return f"{t('mj.payments', lang=lang)}{t('colon', lang=lang)}{pays}"


def mahjong_hand_lines(r: dict[str, Any], *, seat: int | None, names: Sequence[str] = (),
                       hands_per_match: int = 1, lang: str = "en") -> list[str]:
    """A Guobiao hand's end in words, as the mahjong board words it (boards/mahjong-gb.js
    ``handResult``, the same catalogue keys mj.*), for the terminal:

        第1/4局 · 下家 胡 5m 自摸 (English: "Hand 1/4 · Right wins on 5m self-drawn")
        下家：46m99p [234p] [456s] [567p] + 5m
          和绝张 4
          …
          合计 11 番
        得失：你 −19 下家 +57 对家 −19 上家 −19

    ``r`` is one of ``state.hand_results`` (winners, how, tile, from, offender, fans, payments);
    ``seat`` the reader's seat ("你"), or None; ``names`` the seats' names (none: each seat is
    its place at the table, 下家 / 对家 / 上家, as the board says it). Fans are named in the
    reader's language with their value, their count when more than one, and the total.
    """
    def tr(key, params=None):
        return t(key, params, lang=lang)

    def who(s):
        return mahjong_seat_word(s, seat=seat, names=names, lang=lang)

    def who_in(s):
        """A seat inside a sentence: the reader is "you" there ("discarded by you"), never "You"."""
        return tr("result.you") if seat is not None and s == seat else who(s)

    colon = tr("colon")
    k = hands_per_match
    head = tr("mj.oneHand") if k == 1 else tr("mj.handNo", {"n": r["hand"], "k": k})
    winners = r.get("winners") or []
    if winners:
        hows = {"self_drawn": "mj.byself", "discard": "mj.ondiscard", "robbing_kong": "mj.robbing"}
        how = tr(hows[r["how"]]) if r.get("how") in hows else ""
        them = ('、' if lang == 'zh' else ', ').join(who_in(w) if i else who(w)
                                                    for i, w in enumerate(winners))
        wins = (tr("mj.youWin") if winners == [seat]            # "You win on", not "You wins on"
                else tr("mj.wins", {"who": them, "n": len(winners)}))
        line = f"{head} · {wins} "
        line += " ".join(x for x in (r.get("tile") or "", how) if x)
        if r.get("how") != "self_drawn" and r.get("from") is not None:
            line += paren(f"{tr('mj.from')} {who_in(r['from'])}", lang)
    elif r.get("how") == "penalty":
        line = f"{head} · {tr('mj.penalty')} {who_in(r['offender'])}"
    else:
        line = f"{head} · {tr('mj.drawn')}"
    out = [line]
    for w in winners:
        f = r["fans"][str(w)]
        out.append(f"{who(w)}{colon}{f['hand'].split('|')[0].strip()}")
        for x in f["fans"]:
            times = f" ×{x['count']}" if x["count"] > 1 else ""
            out.append(f"  {x['name'] if lang == 'zh' else x['en']} {x['value']}{times}")
        out.append(f"  {tr('mj.total')} {f['total']} {tr('mj.fan')}")
    out.append(mahjong_payments_line(r.get("payments") or [], seat=seat, names=names, lang=lang))
    return out
