"""Results in words, for every game and every reader.

Every game qipai ships (and its variants with another shape of result: seat counts, colours,
bidding, rule sets) is played to its end by random legal moves from several seeds, and also
ended by resignation, by a forfeit on time and by an agreed draw where the game has them. The
result is worded (qipai.i18n.results, the terminal's twin of the page's result.js) for every
seat and a spectator, in Chinese and English, and the words must read as a person's:
no unfilled {placeholder}, no code (a snake_case word), no ASCII letter in Chinese beyond the
players' names, no "You wins" / "the digger You" grammar, plural forms right, and the viewer
who won reads that they won (each variant played once per test process, when a test first asks for
it, not at import). ``stored_results()`` is also the list the browser test words
through the page (tests/e2e/test_e2e_result_words.py), which must say the same.
"""

from __future__ import annotations

import functools
import random
import re

import pytest

import qipai
from qipai.core.errors import IllegalAction
from qipai.core.registry import _MODULES
from qipai.i18n.results import CARD, mahjong_hand_lines, result_words, score_text

NAMES = {2: ["Ann", "Bob"], 3: ["Ann", "Bob", "Cy"], 4: ["Ann", "Bob", "Cy", "Di"],
         5: ["Ann", "Bob", "Cy", "Di", "Ed"], 6: ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]}

#: (game, options, seats): every game, and its variants whose results are shaped otherwise
VARIANTS = [
    ("xiangqi", {}, 2),
    ("xiangqi", {"end_rule": "king_capture", "no_capture_plies": 20}, 2),
    ("go", {"board_size": 5}, 2),
    ("go", {"board_size": 5, "colours": "nigiri", "scoring": "cn2017_komi_3_75"}, 2),
    ("gomoku", {"ruleset": "freestyle"}, 2),
    ("gomoku", {"ruleset": "renju", "opening": "swap3"}, 2),
    ("junqi", {"variant": "luzhan", "no_capture_moves": 20}, 2),
    ("junqi", {"variant": "siguo", "no_capture_moves": 20}, 4),
    ("chinese-checkers", {"max_moves": 60}, 2),
    ("chinese-checkers", {"max_moves": 60, "ranking": "full"}, 3),
    ("chinese-checkers", {"max_moves": 60}, 6),
    ("doudizhu", {}, 3),
    ("doudizhu", {"bidding": "none"}, 3),
    ("doudizhu", {"no_bid": "end"}, 3),
    ("wakeng", {}, 3),
    ("fouafour", {}, 4),
    ("sandayi", {}, 4),
    ("shengji", {}, 4),
    ("baohuang", {}, 5),
    ("baohuang", {"ruleset": "sdbh.provisional"}, 4),
    ("mahjong-gb", {}, 4),
    ("laizi-mahjong", {"hands_per_match": 1}, 4),
    ("baibian-bajue", {"hands_per_match": 1}, 4),
]
SEEDS = (1, 2, 3)
MAX_STEPS = 1500


def _new(game_id, options, seats, seed):
    game = qipai.load(game_id, **options)
    try:
        return game.new_state(seed=seed, num_seats=seats)
    except TypeError:
        return game.new_state(seed=seed)


def _play(state, rng, steps):
    for _ in range(steps):
        if state.is_terminal():
            return
        seat = rng.choice(state.to_act)
        state.apply(rng.choice(state.legal_actions(seat)), seat=seat)


def _view(state, seat=None):
    try:
        return state.view(seat)
    except Exception:               # a view a spectator may not take: colours come from seat 0
        return state.view(0)


def _entry(label, game_id, state, seats):
    """A stored result: its game, Result JSON, the public view and each seat's view."""
    return {"label": label, "game": game_id, "result": state.result.to_json(), "view": _view(state),
            "views": [_view(state, s) for s in range(seats)], "seats": seats}


@functools.cache
def variant_results(index):
    """The ends of ``VARIANTS[index]``, as :func:`_entry` dicts, played once per process when
    first asked for (not at import: every test process imports the module to collect it)."""
    game_id, options, seats = VARIANTS[index]
    out = []
    for seed in SEEDS:
        rng = random.Random(f"{game_id}{options}{seed}")
        state = _new(game_id, options, seats, seed)
        _play(state, rng, MAX_STEPS)
        if not state.is_terminal():
            state.forfeit(state.to_act[0], "max_moves")
        out.append(_entry(f"{game_id}/{seats}{options}#{seed}:played", game_id, state, seats))
    for end, steps in (("resign", 0), ("resign", 12), ("timeout", 12), ("draw", 12)):
        state = _new(game_id, options, seats, 9)
        _play(state, random.Random(9), steps)
        if state.is_terminal():
            continue
        try:
            if end == "draw":
                state.agree_draw()
            else:
                state.forfeit(state.to_act[-1], end)
        except IllegalAction:           # a game without that ending (no draws in card games)
            continue
        _play(state, random.Random(9), MAX_STEPS)   # three or more seats: the others play on
        while not state.is_terminal():
            state.forfeit(state.to_act[0], "max_moves")
        out.append(_entry(f"{game_id}/{seats}{options}:{end}@{steps}", game_id, state, seats))
    return out


def results_of(variant):
    """The stored results of one of :data:`VARIANTS`."""
    return variant_results(VARIANTS.index(variant))


def stored_results():
    """The ends of every variant, as :func:`_entry` dicts (each variant played once per
    process)."""
    return [entry for variant in VARIANTS for entry in results_of(variant)]


def variant_id(variant):
    game_id, options, seats = variant
    return f"{game_id}/{seats}{options}"


#: words a reader must never see: a code with an underscore, a template field, bad grammar
CODE = re.compile(r"\b[a-z]+_[a-z_]+\b")
WON = {"en": ("You won", "Your place: 1"), "zh": ("你赢了", "你获得第1名")}
RECORD = re.compile(r"forfeit by|\b\d+-\d+\b|\((resign|timeout)\)")
FIELD = re.compile(r"\{\w+(\|[\w.+-]+)?\}")
BAD_EN = [re.compile(p) for p in (
    r"\bYou wins\b", r"\bYou loses\b", r"\b(the|a) \w+ You\b", r"\bYou (is|has)\b",
    r"\b1 points\b", r"(?<!, )(?<!\+ )(?<!and )\b(Ann|Bob|Cy|Di|Ed|Flo|seat \d+) win\b", r"\bYou, ",
)]
BAD_ZH = [re.compile(p) for p in (r"者你", r"你胜", r"你负", r"家你")]


def check_words(text, lang, names, label):
    """Assert ``text`` reads as a person's words in ``lang`` (see the module docstring)."""
    assert text, label
    assert not FIELD.search(text), f"{label}: unfilled placeholder in {text!r}"
    assert not CODE.search(text), f"{label}: a code in {text!r}"
    assert "None" not in text and "undefined" not in text and "null" not in text, f"{label}: {text!r}"
    if lang == "zh":
        rest = text
        for nm in names:
            rest = rest.replace(nm, "")
        assert not re.search(r"[A-Za-z]", rest), f"{label}: English in the Chinese result {text!r}"
        for bad in BAD_ZH:
            assert not bad.search(text), f"{label}: {text!r}"
    else:
        for bad in BAD_EN:
            assert not bad.search(text), f"{label}: {text!r}"


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_every_reader_reads_the_result_in_words(variant):
    for entry in results_of(variant):
        _read_in_words(entry)


def _read_in_words(entry):
    label, game, result, view, seats = (entry[k] for k in ("label", "game", "result", "view", "seats"))
    names = NAMES[seats]
    for lang in ("zh", "en"):
        spectator = result_words(result, game=game, seat=None, names=names, view=view, lang=lang)
        check_words(spectator, lang, names, f"{label} {lang} spectator")
        assert not RECORD.search(spectator), f"{label}: the record's text shown as it is: {spectator!r}"
        for seat in range(seats):
            text = result_words(result, game=game, seat=seat, names=names, view=view, lang=lang)
            check_words(text, lang, names, f"{label} {lang} seat {seat}")
            drawn = not result["winners"] or len(result["winners"]) == seats
            if seat in result["winners"] and not drawn:
                assert text.startswith(WON[lang]), f"{label} {lang} seat {seat}: {text!r}"
        # a table of one person and bots of one kind: the bots are told apart, never "Bot, Bot win"
        bots = ["Ann"] + ["Bot"] * (seats - 1)
        for seat in (None, 0):
            text = result_words(result, game=game, seat=seat, names=bots, view=view, lang=lang)
            check_words(text, lang, ["Ann", "Bot"], f"{label} {lang} bots seat {seat}")
            assert not re.search(r"\bBot[,、] ?Bot\b", text), f"{label} {lang}: {text!r}"


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v[0] in CARD], ids=variant_id)
def test_a_history_line_says_the_sides_and_the_players_own_result(variant):
    """A player's list of games (brief): a card or tile deal's headline by its sides, then the
    player's own outcome and score, in words, in both languages; the seat that won reads it."""
    for entry in results_of(variant):
        _history_line(entry)


def _history_line(entry):
    game, result, seats = entry["game"], entry["result"], entry["seats"]
    names = NAMES[seats]
    drawn = not result["winners"] or len(result["winners"]) == seats
    for lang in ("zh", "en"):
        for seat in range(seats):
            text = result_words(result, game=game, seat=seat, names=names, lang=lang, brief=True)
            check_words(text, lang, names, f"{entry['label']} {lang} brief seat {seat}")
            assert not RECORD.search(text), text
            if not drawn:
                mine = WON[lang][0] if seat in result["winners"] else ("You lost", "你输了")[lang == "zh"]
                assert mine in text, f"{entry['label']} {lang} seat {seat}: {text!r}"
            own = result["returns"][seat]
            if not drawn and own:
                assert f"{mine}\u00a0{score_text(own, lang)}" in text, text     # one line


def test_a_history_line_in_the_issues_words():
    """"地主胜 — 你输了 −24": the side that won, then the reader's own result; a deal stored before
    results kept their details (no landlord) falls back to the winner's name."""
    ddz = {"returns": [48, -24, -24], "winners": [0], "reason": "out", "text": "+48 -24 -24",
           "details": {"landlord": 0, "multiplier": 2}}
    names = ["Ann", "Bob", "Cy"]
    assert result_words(ddz, game="doudizhu", seat=1, names=names, lang="zh", brief=True) \
        == "地主胜 ×2 — 你输了\u00a0−24"
    assert result_words(ddz, game="doudizhu", seat=0, names=names, lang="en", brief=True) \
        == "Landlord wins ×2 — You won\u00a0+48"
    timeout = {**ddz, "reason": "timeout"}
    assert result_words(timeout, game="doudizhu", seat=2, names=names, lang="zh", brief=True) \
        == "地主胜 ×2 — 你输了\u00a0−24 · 超时"
    old = {"returns": [48, -24, -24], "winners": [0], "reason": "out", "text": "+48 -24 -24"}
    assert result_words(old, game="doudizhu", seat=1, names=names, lang="zh", brief=True) \
        == "Ann 胜 — 你输了\u00a0−24"     # a Latin name set off from Chinese by a space
    assert result_words(old, game="doudizhu", seat=0, names=names, lang="en", brief=True) \
        == "You won\u00a0+48"
    wk = {"returns": [-6, 3, 3], "winners": [1, 2], "reason": "out", "details": {"digger": 0}}
    assert result_words(wk, game="wakeng", seat=1, names=names, lang="zh", brief=True) \
        == "挖坑者负 — 你赢了\u00a0+3"
    bh = {"returns": [2, -2, -2, -2, 4], "winners": [0, 4], "reason": "finished",
          "details": {"emperor": 4, "guard": 0}}
    assert result_words(bh, game="baohuang", seat=1, names=NAMES[5], lang="en", brief=True) \
        == "Emperor's side wins — You lost\u00a0−2"
    sdy = {"returns": [-15, 5, 5, 5], "winners": [1, 2, 3], "reason": "set", "details": {"dealer": 0}}
    assert result_words(sdy, game="sandayi", seat=0, names=NAMES[4], lang="zh", brief=True) \
        == "闲家胜 — 你输了\u00a0−15 · " + i18n_t("end.set", "zh")
    sj = {"returns": [0, 0, 0, 0], "winners": [1, 3], "reason": "resign", "details": {"dealer": 1}}
    assert result_words(sj, game="shengji", seat=0, names=NAMES[4], lang="zh", brief=True) \
        == "庄家方胜 — 你输了 · " + i18n_t("end.resign", "zh")
    faf = {"returns": [0, 1, 0, 1], "winners": [1, 3], "reason": "out", "details": {"team": 1}}
    assert result_words(faf, game="fouafour", seat=1, names=NAMES[4], lang="en", brief=True) \
        == "Your side wins — You won\u00a0+1"
    assert result_words(faf, game="fouafour", seat=2, names=NAMES[4], lang="zh", brief=True) \
        == "对方胜 — 你输了"
    # a drawn 4A4 deal returns ½ to every seat: its reader is named as in a won or lost deal,
    # with no gain (it said only "平局" / "Tie")
    tie = {"returns": [0.5, 0.5, 0.5, 0.5], "winners": [], "reason": "out", "details": {}}
    assert result_words(tie, game="fouafour", seat=0, names=NAMES[4], lang="zh", brief=True) \
        == "平局 — 你打平\u00a0±0"
    assert result_words(tie, game="fouafour", seat=2, names=NAMES[4], lang="en", brief=True) \
        == "Tie — You tied\u00a0±0"
    # a board game's line is the same as everywhere: "你赢了 — 将死"
    xq = {"returns": [1, 0], "winners": [0], "reason": "checkmate", "text": "1-0"}
    assert result_words(xq, game="xiangqi", seat=0, names=["a", "b"], lang="zh", brief=True) \
        == "你赢了 — 将死"


def i18n_t(key, lang):
    from qipai import i18n
    return i18n.t(key, lang=lang)


def test_a_record_keeps_the_results_winners_and_details():
    """Record.from_state keeps the result's winners and details (what a history line words); a
    record stored without them reads and replays as before."""
    import json

    from qipai.core.record import Record, replay

    state = _new("doudizhu", {}, 3, 1)
    _play(state, random.Random(1), MAX_STEPS)
    data = json.loads(state.to_record(seats=NAMES[3]).dumps())
    assert data["result"]["winners"] == list(state.result.winners)
    assert data["result"]["details"]["landlord"] == state.result.details["landlord"]
    assert replay(Record.from_json(data)).result == state.result
    old = {**data, "result": {k: data["result"][k] for k in ("text", "reason", "returns")}}
    back = Record.from_json(old)
    assert back.result == old["result"] and replay(back).result == state.result


def test_every_end_kind_is_met():
    """The list covers what it claims: resignations, forfeits on time and draws were worded."""
    reasons = {r["result"]["reason"] for r in stored_results()}
    assert {"resign", "timeout", "agreement"} <= reasons
    # games registered by test modules (tests/match_games.py, test_core) are not the project's
    real = {gid for gid, module in _MODULES.items() if module.startswith("qipai.")}
    assert {g for g, *_ in VARIANTS} == real


def test_known_wordings():
    """The issue's own examples, and the plural forms of a go margin."""
    go = {"returns": [1, -1], "winners": [0], "reason": "counted", "text": "B+2.5",
          "details": {"margin_points": 2.5}}
    assert result_words(go, game="go", seat=None, names=["a", "b"], view={"black_seat": 0}, lang="zh") \
        == "黑胜 2½ 目"
    assert result_words(go, game="go", seat=None, names=["a", "b"], view={"black_seat": 0}, lang="en") \
        == "Black wins by 2.5 points"
    one = {**go, "details": {"margin_points": 1}}
    assert result_words(one, game="go", seat=None, names=["a", "b"], view={"black_seat": 0}, lang="en") \
        == "Black wins by 1 point"
    xq = {"returns": [1, -1], "winners": [0], "reason": "checkmate", "text": "1-0"}
    assert result_words(xq, game="xiangqi", seat=0, names=["a", "b"], lang="zh") == "你赢了 — 将死"
    assert result_words(xq, game="xiangqi", seat=0, names=["a", "b"], lang="en") == "You won — checkmate"
    ddz = {"returns": [-24, 12, 12], "winners": [0], "reason": "out", "text": "-24 12 12",
           "details": {"landlord": 0, "spring": True, "multiplier": 4}}
    assert result_words(ddz, game="doudizhu", seat=None, names=["a", "b", "c"], lang="zh") \
        == "地主胜（春天） ×4：a\u00a0−24 / b\u00a0+12 / c\u00a0+12"
    # a history line keeps its score with its words (a narrow column broke "You lost / −24")
    lord = {**ddz, "returns": [24, -12, -12]}
    assert result_words(lord, game="doudizhu", seat=1, names=["a", "b", "c"], lang="en", brief=True) \
        == "Landlord wins (spring) ×4 — You lost\u00a0−12"
    timeout = {"returns": [-1, 1], "winners": [1], "reason": "timeout", "text": "forfeit by 0"}
    assert result_words(timeout, game="xiangqi", seat=0, names=["a", "b"], lang="en") \
        == "You lost — you ran out of time"


def test_a_resignation_or_a_timeout_says_who():
    """"You won — resignation" did not say who resigned: the words name the seat that lost by it,
    to both players and to a spectator, in both languages."""
    resign = {"returns": [1, 0], "winners": [0], "reason": "resign", "text": "B+R",
              "details": {"black_seat": 0}}
    for game in ("go", "xiangqi", "gomoku", "junqi", "chinese-checkers"):
        assert result_words(resign, game=game, seat=0, names=["alice", "bob"], lang="en") \
            == "You won — bob resigned", game
        assert result_words(resign, game=game, seat=0, names=["alice", "bob"], lang="zh") \
            == "你赢了 — bob 认输", game
        assert result_words(resign, game=game, seat=1, names=["alice", "bob"], lang="en") \
            == "You lost — you resigned", game
        assert result_words(resign, game=game, seat=1, names=["alice", "bob"], lang="zh") \
            == "你输了 — 你认输", game
        assert result_words(resign, game=game, seat=None, names=["alice", "bob"], lang="en") \
            .endswith(" — bob resigned"), game
    timeout = {"returns": [0, 1], "winners": [1], "reason": "timeout", "text": "W+T"}
    assert result_words(timeout, game="xiangqi", seat=1, names=["alice", "bob"], lang="zh") \
        == "你赢了 — alice 超时"


def test_a_board_seat_without_a_name_is_named_by_its_side():
    """A seat with no name reads as its side on the board (红方, 黑棋, 南方, 蓝方), never as
    a seat number (1 号座), and two seats sharing a name are told apart by their sides."""
    win = {"returns": [1, -1], "winners": [0], "reason": "resign", "text": "1-0"}
    said = {(g, lang): result_words(win, game=g, seat=None, names=["", ""], view=view, lang=lang)
            for g, view in (("xiangqi", None), ("go", {"black_seat": 1}), ("junqi", None),
                            ("gomoku", {"colours": ["white", "black"]}))
            for lang in ("zh", "en")}
    assert said[("xiangqi", "zh")].startswith("红胜") and said[("go", "zh")].startswith("白胜")
    four = {"returns": [1, -1, -1, 1], "winners": [0, 3], "reason": "resign", "text": ""}
    siguo = result_words(four, game="junqi", seat=None, names=["", "", "", ""], lang="zh")
    assert siguo.startswith("南方、西方"), siguo
    cc = {"returns": [1, -1, -1], "winners": [0], "reason": "resign", "text": ""}
    three = result_words(cc, game="chinese-checkers", seat=None, names=["", "", ""], lang="en")
    assert three.startswith("Red"), three
    twins = result_words(win, game="gomoku", seat=None, names=["bot", "bot"],
                         view={"colours": ["black", "white"]}, lang="zh")
    assert twins.startswith("黑胜"), twins
    xq = result_words(four, game="junqi", seat=None, names=["a", "a", "b", "c"], lang="zh")
    assert xq.startswith("a（南方）、c"), xq
    for text in (*said.values(), siguo):
        assert "号座" not in text and "seat" not in text, text


def test_every_score_of_a_deal_says_whose_it_is():
    """A many-seat game's scores are each labelled with the player's name, in the seats' order;
    bots of one kind are named by their place at the table alone as the board shows it (上家 /
    下家 from the reader's seat, 左 / 右 for a spectator; no bracket inside the line), never by a
    seat number."""
    labelled = 0
    for entry in stored_results():
        game, result, seats = entry["game"], entry["result"], entry["seats"]
        for names in (NAMES[seats], ["Ann"] + ["Bot"] * (seats - 1)):
            for lang in ("zh", "en"):
                for seat in (None, 0, seats - 1):
                    text = result_words(result, game=game, seat=seat, names=names, view=entry["view"],
                                        lang=lang)
                    head, colon, tail = text.rpartition(i18n_colon(lang))
                    if not colon or not re.search(r"[+−]\d", tail):
                        continue
                    labelled += 1
                    parts = tail.split(" / ")
                    assert len(parts) == seats, f"{entry['label']}: {text!r}"
                    for s, part in enumerate(parts):
                        assert re.fullmatch(r".+\u00a0(±0|[+−][\d½.]+)", part), f"{entry['label']}: {text!r}"
                        shared = game in CARD and seats >= 3 and names.count(names[s]) > 1
                        # the reader is 你 / You, as the table's score panel says it
                        own = {"zh": "你", "en": "You"}[lang] if s == seat else names[s]
                        assert shared or part.startswith(own), f"{entry['label']} seat {s}: {text!r}"
                        assert not (shared and re.search(r"[（(]", part)), f"{entry['label']}: {text!r}"
                    if game in CARD:
                        assert not re.search(r"seat \d|号座", text), f"{entry['label']} {lang}: {text!r}"
                        assert len(set(parts)) == len(parts) or len(set(result["returns"])) < seats
    assert labelled > 200
    # the issue's doudizhu, and two bots of one kind (by their places alone) as a farmer and a
    # spectator read them
    ddz = {"returns": [24, -12, -12], "winners": [0], "reason": "out",
           "details": {"landlord": 0, "multiplier": 4}}
    bots = ["Ann", "机器人", "机器人"]
    assert result_words(ddz, game="doudizhu", seat=1, names=bots, lang="zh") \
        == "你输了 — 地主胜 ×4：Ann\u00a0+24 / 你\u00a0−12 / 下家\u00a0−12"
    assert result_words(ddz, game="doudizhu", seat=None, names=bots, lang="zh") \
        == "地主胜 ×4：Ann\u00a0+24 / 右\u00a0−12 / 左\u00a0−12"
    assert result_words(ddz, game="doudizhu", seat=0, names=["Ann", "Bot", "Bot"], lang="en") \
        == "You won — Landlord wins ×4: You\u00a0+24 / Right\u00a0−12 / Left\u00a0−12"
    # two bots of one kind whose name has brackets: their places alone, no bracket in a bracket
    kinds = ["Ann", "机器人（规则型）", "机器人（规则型）"]
    assert result_words(ddz, game="doudizhu", seat=0, names=kinds, lang="zh").endswith(
        "下家\u00a0−12 / 上家\u00a0−12")
    assert result_words(ddz, game="doudizhu", seat=0, names=["Ann", "Bot (Greedy)", "Bot (Greedy)"],
                        lang="en").endswith("Right\u00a0−12 / Left\u00a0−12")


def i18n_colon(lang):
    from qipai import i18n
    return i18n.t("colon", lang=lang)


def test_the_terminal_words_a_forfeit_from_its_codes():
    """The terminal's result line after a forfeit: the page's words in the terminal's language,
    not the record's "… forfeit by 2"."""
    from qipai import i18n
    from qipai.games.terminal import result_line

    state = qipai.load("baohuang").new_state(seed=4)
    state.forfeit(2, "timeout")
    assert "forfeit by" in state.result.text
    try:
        i18n.use("zh")
        zh = result_line(state, 2, ["甲", "乙", "你", "丁", "戊"])
        i18n.use("en")
        en = result_line(state, 2, ["Ann", "Bob", "You", "Di", "Ed"])
    finally:
        i18n.use("en")
    assert zh.startswith("你输了 — ") and "超时" in zh and "forfeit" not in zh
    assert en.startswith("You lost — ") and "time out" in en and "forfeit" not in en
    check_words(zh, "zh", ["甲", "乙", "丁", "戊"], "terminal zh")
    check_words(en, "en", ["Ann", "Bob", "Di", "Ed"], "terminal en")


def gb_hands(hands=1, want=3):
    """Finished Guobiao games (``hands`` hands each) with a winner in their last hand, played by
    random legal moves that take every win offered: ``want`` finished states."""
    out = []
    for seed in range(200):
        state = qipai.load("mahjong-gb", hands_per_match=hands).new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.to_act[0]
            acts = state.legal_actions(seat)
            wins = [a for a in acts if str(a).startswith("win")]
            state.apply(wins[0] if wins else rng.choice(acts), seat=seat)
        if state.hand_results[-1]["winners"]:
            out.append(state)
        if len(out) == want:
            return out
    raise AssertionError("no won hand in 200 seeds")


def test_the_terminal_words_a_mahjong_hand_as_the_board_does():
    """A Guobiao hand's end in the terminal: the board's words (catalogue mj.*), each fan in the
    reader's language with its value, the total in fan, the payments by place at the table; no
    seat number, no code, no "name = total" line."""
    import io

    from rich.console import Console

    from qipai import i18n
    from qipai.games.mahjong_gb.play import _report

    for state in gb_hands(hands=4, want=2):
        for r in state.hand_results:
            for lang in ("zh", "en"):
                for seat in (0, 2, None):
                    lines = mahjong_hand_lines(r, seat=seat, hands_per_match=4, lang=lang)
                    text = "\n".join(lines)
                    if r["winners"]:     # a win in words, not the Win button's label
                        won = r" wins? on " if lang == "en" else "胡 "       # (to the winner: You win on)
                        assert re.search(won + r["tile"], lines[0]) and " Win " not in lines[0], lines[0]
                    assert not CODE.search(text) and not FIELD.search(text), text
                    assert not re.search(r"seat|号位|=", text), text
                    assert lines[0].startswith(i18n.t("mj.handNo", {"n": r["hand"], "k": 4}, lang=lang))
                    assert lines[-1].startswith(i18n.t("mj.payments", lang=lang) + i18n.t("colon", lang=lang))
                    for w in r["winners"]:
                        for x in r["fans"][str(w)]["fans"]:
                            name = x["name"] if lang == "zh" else x["en"]
                            said = f"  {name} {x['value']}"
                            assert any(line.startswith(said) for line in lines), text
                        total, fan = r["fans"][str(w)]["total"], i18n.t("mj.fan", lang=lang)
                        assert f"  {i18n.t('mj.total', lang=lang)} {total} {fan}" in lines
                    if lang == "zh":        # fans, totals and payments: no English (hands are notation)
                        worded = [x for x in lines if x.startswith("  ")] + [lines[-1]]
                        assert not re.search(r"[A-Za-z]", "".join(worded)), text
                    if seat is not None:
                        assert i18n.t("mj.you", lang=lang) in lines[-1]
                # the terminal prints exactly these lines
                console = Console(file=io.StringIO(), width=200, record=True)
                try:
                    i18n.use(lang)
                    _report(r, console, 1, 4)
                finally:
                    i18n.use("en")
                assert console.export_text().splitlines() == mahjong_hand_lines(r, seat=1, hands_per_match=4,
                                                                                 lang=lang)


def test_chinese_game_names_use_full_width_brackets():
    """A Chinese game name puts its aside in full-width brackets (4A4（四幺四）), never ASCII ones."""
    names = {gid: qipai.load(gid).name_zh for gid in _MODULES}
    assert names["fouafour"] == "4A4（四幺四）"
    for gid, name in names.items():
        assert not re.search(r"[()]", name), (gid, name)


@pytest.mark.parametrize("game_id", ["laizi-mahjong", "baibian-bajue"])
def test_the_terminal_names_mahjong_players_and_words_payments(game_id):
    """The laizi and 百变八雀 terminals end a hand as the board does: the winner and each bomb's
    owner by their place at the table (你 / 下家 …), the payments in words (得失：你 −5 下家 +15 …),
    never a seat number or a raw list."""
    import importlib
    import io

    from rich.console import Console

    from qipai import i18n
    from qipai.bots import make_bot
    from qipai.i18n.results import mahjong_payments_line

    report = importlib.import_module(f"qipai.games.{game_id.replace('-', '_')}.play").report
    results = []
    for seed in range(3):
        s = qipai.load(game_id, hands_per_match=1).new_state(seed=seed)
        bots = {k: make_bot(game_id, "rule", seed * 4 + k) for k in range(4)}
        while not s.is_terminal():
            seat = s.to_act[0]
            s.apply(bots[seat].choose(s, seat), seat=seat)
        results += s.hand_results
    assert any(r["winners"] for r in results)
    for r in results:
        for lang in ("zh", "en"):
            console = Console(file=io.StringIO(), width=200, record=True)
            try:
                i18n.use(lang)
                report(r, console, 1)
            finally:
                i18n.use("en")
            lines = console.export_text().splitlines()
            text = "\n".join(lines)
            assert not re.search(r"seat|号位|\[-?\d+, ", text), text
            if not r["winners"] and not any(r["payments"]):      # a drawn hand may say only that
                continue
            assert lines[-1].strip() == mahjong_payments_line(r["payments"], seat=1, lang=lang), text
            assert i18n.t("mj.you", lang=lang) in lines[-1]
            if r["winners"]:
                k = (r["winners"][0] - 1) % 4
                place = ("mj.you", "mj.next", "mj.across", "mj.prev")[k]
                assert i18n.t(place, lang=lang) in lines[0], text


def test_a_mahjong_payment_lost_takes_the_minus_sign():
    """The payments line writes a loss with the minus sign (U+2212), as every other score: 得失：你 −19 …"""
    from qipai.i18n.results import mahjong_payments_line
    line = mahjong_payments_line([-19, 57, -19, -19], seat=0, lang="zh")
    assert line == "得失：你\u00a0−19 下家\u00a0+57 对家\u00a0−19 上家\u00a0−19"
    assert mahjong_payments_line([-8, 0, 8, 0], seat=0, lang="en").endswith(
        "You\u00a0−8 Right\u00a0±0 Across\u00a0+8 Left\u00a0±0")


def test_a_won_mahjong_hand_says_who_won_how_its_worth_and_the_payments():
    """A one-hand mahjong table's result: the winner, how (self-drawn, whose discard), the fan
    total, then each seat's payment under its label; never the reason's "winning hand" with the
    scores after it as if they were the hand ("winning hand: alice −23 / …")."""
    names = ["alice", "bob", "cy", "dan"]
    for state in gb_hands(hands=1, want=3):
        r = state.result.to_json()
        hand = r["details"]["hands"][0]
        w, total = hand["winners"][0], hand["fans"][str(hand["winners"][0])]["total"]
        loser = next(s for s in range(4) if s != w)
        # the reader is You among the payments and "your" discard, as the table says it
        pays = " / ".join(f"{'You' if s == loser else names[s]}\u00a0{score_text(x, 'en')}"
                          for s, x in enumerate(r["returns"]))
        whose = "your" if hand.get("from") == loser else f"{names[hand.get('from') or 0]}’s"
        how = ("by self-draw" if hand["how"] == "self_drawn" else
               f"on {whose} discard" if hand["how"] == "discard" else
               f"by robbing {whose} kong")
        en = result_words(r, game="mahjong-gb", seat=loser, names=names, lang="en")
        assert en == f"You lost — {names[w]} won {how}, {total} fans · Payments: {pays}", en
        mine = result_words(r, game="mahjong-gb", seat=w, names=names, lang="en")
        assert mine.startswith("You won — ") and f", {total} fans · Payments: " in mine, mine
        zh = result_words(r, game="mahjong-gb", seat=None, names=names, lang="zh")
        zh_how = ("自摸和牌" if hand["how"] == "self_drawn" else f"和牌，{names[hand['from']]} 点炮"
                  if hand["how"] == "discard" else f"抢 {names[hand['from']]} 的杠和牌")
        spectator = " / ".join(f"{names[s]}\u00a0{score_text(x, 'zh')}" for s, x in enumerate(r["returns"]))
        assert zh == f"{names[w]} {zh_how}，{total} 番 · 得失：{spectator}", zh
        for text in (en, mine, zh):
            assert "winning hand" not in text and "和牌：" not in text, text


@pytest.mark.parametrize("game", ["mahjong-gb", "laizi-mahjong", "baibian-bajue"])
def test_a_drawn_mahjong_hand_is_worded_as_the_wall_running_out(game):
    """荒庄: a hand nobody won is no "Tie — drawn hand" (a card game's word); it says the wall
    ran out, once, to every seat and a spectator."""
    r = {"text": "0 0 0 0", "reason": "drawn_hand", "returns": [0, 0, 0, 0], "winners": [], "details": {}}
    said = {"en": "Drawn hand — the wall ran out, nobody won", "zh": "荒庄——牌墙摸完，无人和牌"}
    for lang, words in said.items():
        for seat in (None, 0, 3):
            for brief in (False, True):
                got = result_words(r, game=game, seat=seat, names=list("abcd"), lang=lang, brief=brief)
                assert got == words


def test_bots_of_one_kind_are_told_apart_by_a_number_in_a_history_line():
    """A lobby table filled with bots of one kind: a history line read "Bot (Greedy) won on
    Bot (Greedy)'s discard" (机器人（贪心）和牌，机器人（贪心）点炮); each is numbered in seat order."""
    from qipai.i18n import seat_names

    assert seat_names(["ann", "bot:greedy", "bot:greedy", "bot:rule", None], "en") \
        == ["ann", "Bot (Greedy) 1", "Bot (Greedy) 2", "Bot (Rule-based)", ""]
    assert seat_names(["bot:rule"] * 3, "zh") == [f"机器人（规则型）{n}" for n in (1, 2, 3)]
    mj = {"returns": [-8, 16, -8, 0], "winners": [1], "reason": "win",
          "details": {"hands": [{"winners": [1], "how": "discard", "from": 2}]}}
    names = ["ann", "bot:greedy", "bot:greedy", "bot:greedy"]
    for lang in ("en", "zh"):
        text = result_words(mj, game="mahjong-gb", seat=0, names=names, lang=lang, brief=True)
        one, two = seat_names(names, lang)[1:3]
        assert one in text and two in text, text


def test_a_history_line_names_the_players_never_their_places():
    """A shengji deal in a player's list of games: the winning side by its players' names, the
    player as "you" ("Declarers (you and Rule bot) win"), never by their places at the table
    ("Declarers (Right, Left) win": Right of whom, on a history page?), also where two bots of
    one kind share a name."""
    sj = {"returns": [2, -2, 2, -2], "winners": [0, 2], "reason": "hand_over",
          "details": {"dealer": 0, "gains": [2, 0, 2, 0]}}
    bots = ["Ann", "bot:rule", "bot:rule", "bot:rule"]
    assert result_words(sj, game="shengji", seat=0, names=bots, lang="en", brief=True) \
        .startswith("You and Bot (Rule-based) 2 win, up 2 (Declarers) — You won")
    assert result_words(sj, game="shengji", seat=0, names=bots, lang="zh", brief=True) \
        .startswith("你和机器人（规则型）2胜，升2级（庄家方） — 你赢了")
    lost = result_words(sj, game="shengji", seat=1, names=bots, lang="en", brief=True)
    assert lost.startswith("Ann, Bot (Rule-based) 2 win, up 2 (Declarers) — You lost"), lost
    # never a bracket inside a bracket (a bot's name is "Bot (Rule-based)")
    for lang in ("en", "zh"):
        for seat in range(4):
            text = result_words(sj, game="shengji", seat=seat, names=bots, lang=lang, brief=True)
            assert not re.search(r"[（(][^）)]*[（(]", text), text
    for seat in range(4):
        for lang in ("en", "zh"):
            text = result_words(sj, game="shengji", seat=seat, names=NAMES[4], lang=lang, brief=True)
            places = [i18n_t(f"ct.pos.{p}", lang) for p in ("left", "right", "across")]
            assert not any(p in text for p in places), text
    # at the table (not brief) the places stay: the board names the seats so
    assert "Right" in result_words(sj, game="shengji", seat=1, names=bots, lang="en")


def test_a_mahjong_hand_won_by_the_reader_says_you_win():
    """The hand's headline to its winner: "One hand · You win on 5m", "一局 · 你胡" (it said
    "You wins on"); to the others, "Left wins on"."""
    for st in gb_hands(hands=1, want=2):
        r = st.hand_results[-1]
        w = r["winners"][0]
        assert " · You win on " in mahjong_hand_lines(r, seat=w, hands_per_match=1, lang="en")[0]
        assert " · 你胡 " in mahjong_hand_lines(r, seat=w, hands_per_match=1, lang="zh")[0]
        other = mahjong_hand_lines(r, seat=(w + 1) % 4, hands_per_match=1, lang="en")[0]
        assert " wins on " in other and "You win" not in other, other


def test_a_drawn_hand_paid_by_its_bombs_says_so():
    """百变八雀: a hand nobody won where bombs were laid is no bare "You lost · payments": the line
    says the wall ran out and that the payments are the bombs' bonuses, and whose bombs."""
    hand = {"hand": 1, "winners": [], "how": "drawn", "bombs": [[2, "5p"], [3, "E"]],
            "bomb_payments": [-20, -20, 20, 20], "payments": [-20, -20, 20, 20]}
    r = {"text": "-20 -20 20 20", "reason": "hands_played", "returns": [-20, -20, 20, 20],
         "winners": [2, 3], "details": {"hands": [hand]}}
    names = ["alice", "bob", "cy", "dan"]
    zh = result_words(r, game="baibian-bajue", seat=0, names=names, lang="zh")
    assert zh == ("你输了 — 荒庄——无人和牌，得失是炸弹的奖励（cy、dan） · "
                  "得失：你\u00a0−20 / bob\u00a0−20 / cy\u00a0+20 / dan\u00a0+20"), zh
    en = result_words(r, game="baibian-bajue", seat=None, names=names, lang="en")
    assert en.startswith("Drawn hand — nobody won; the payments are the bombs’ (cy, dan)"), en


#: 百变八雀, a hand won by seat 1 on seat 3's discard, after seat 0 laid a bomb: seat 0 ends +30
BOMB_WON = {"text": "30 212 -10 -232", "reason": "hands_played", "returns": [30, 212, -10, -232],
            "winners": [1], "details": {"hands": [
                {"hand": 1, "winners": [1], "how": "discard", "from": 3, "bombs": [[0, "5s"]],
                 "bomb_payments": [30, -10, -10, -10], "payments": [30, 212, -10, -232]}]}}


def test_a_seat_up_on_its_bombs_in_a_hand_it_did_not_win_is_no_loser():
    """百变八雀: the headline said "你输了" beside the reader's own +30 (a bomb's bonuses in a hand
    another seat won); it says the reader did not win the hand but gained on its bombs. A seat
    that paid still reads "You lost"."""
    names = ["alice", "bob", "cy", "dan"]
    zh = result_words(BOMB_WON, game="baibian-bajue", seat=0, names=names, lang="zh")
    assert zh.startswith("你未和牌，但炸弹得分 — ") and "你输了" not in zh, zh
    en = result_words(BOMB_WON, game="baibian-bajue", seat=0, names=names, lang="en")
    assert en.startswith("You did not win the hand but gained on your bombs — "), en
    assert result_words(BOMB_WON, game="baibian-bajue", seat=2, names=names, lang="en").startswith("You lost")
    assert result_words(BOMB_WON, game="baibian-bajue", seat=1, names=names, lang="en").startswith("You won")
    brief = result_words(BOMB_WON, game="baibian-bajue", seat=0, names=names, lang="zh", brief=True)
    assert "你未和牌，但炸弹得分\u00a0+30" in brief, brief


def test_a_drawn_4a4_deal_says_how_it_was_drawn():
    """4A4: a drawn deal read "Result: Tie" and "Drawn (went out)", which says nothing of what
    happened; it says who went out first and that both opponents went out before the partner."""
    r = {"text": "draw", "reason": "out", "returns": [0.5] * 4, "winners": [],
         "details": {"outcome": "draw", "team": None, "order": [2, 1, 3]}}
    en = result_words(r, game="fouafour", seat=1, names=["alice", "b1", "b2", "b3"], lang="en")
    assert en == "Drawn: b2 went out first, but you and b3 both went out before alice", en
    zh = result_words(r, game="fouafour", seat=1, names=["甲", "乙", "丙", "丁"], lang="zh")
    assert zh == "平局：丙先出完，但你、丁都在甲之前出完", zh


def test_a_shengji_take_over_without_a_level_says_why_nobody_scored():
    """升级: the attackers with 85 points take the deal over and nobody goes up; the end said
    "你赢了 — 闲家方胜" beside ±0 for everyone. It says the attackers' points, that they take
    the deal over and that nobody moves up."""
    r = {"text": "attackers 85", "reason": "hand_over", "returns": [0, 0, 0, 0], "winners": [1, 3],
         "details": {"dealer": 0, "gains": [0, 0], "attack_total": 85, "levels": ["2", "2"]}}
    zh = result_words(r, game="shengji", seat=1, names=NAMES[4], lang="zh")
    assert zh == "你赢了 — 闲家得85分：上台坐庄，无人升级", zh
    en = result_words(r, game="shengji", seat=0, names=NAMES[4], lang="en")
    assert en == "You lost — Attackers scored 85: they take over the deal, nobody moves up", en
    # with the marks the hand was scored by (take_at, up_at), why nobody moved up: a win with
    # ±0 for everyone read as a mistake to a newcomer
    marks = {**r, "details": {**r["details"], "take_at": 80, "up_at": 120}}
    zh = result_words(marks, game="shengji", seat=1, names=NAMES[4], lang="zh")
    assert zh == "你赢了 — 闲家得85分：够80分上台坐庄，不到120分不升级，本局无人升级", zh
    en = result_words(marks, game="shengji", seat=0, names=NAMES[4], lang="en")
    assert en == ("You lost — Attackers scored 85: enough to take over the deal (80), not to move up a "
                  "level (120)"), en


def test_a_latin_name_is_set_off_from_chinese_by_a_space():
    """A name in Latin letters meets Chinese with a space ("carol 胜", as Chinese sites write
    mixed names); numbers, a template's own spacing and English text are left as they are."""
    from qipai.i18n import t
    assert t("events.won", {"name": "carol"}, lang="zh") == "carol 胜"
    assert t("events.won", {"name": "小明"}, lang="zh") == "小明胜"
    assert t("events.won", {"name": "bob2"}, lang="zh") == "bob2 胜"
    assert t("aborted.by", {"name": "Ann"}, lang="zh").startswith("Ann 中止了")
    assert t("ct.won", {"names": "Ann、Bob"}, lang="zh") == "Ann、Bob 胜"
    assert t("events.won", {"name": "carol"}, lang="en") == "carol won"
    ddz = {"returns": [48, -24, -24], "winners": [0], "reason": "out"}
    assert result_words(ddz, game="doudizhu", names=["carol", "dan", "e"], lang="zh").startswith("carol 胜：")


def test_a_shengji_hand_says_who_goes_up_to_which_level_and_the_points_against_the_mark():
    """A counted shengji hand in a player's words: the team that goes up, by how much and to
    which level, and the attackers' points against the take-over mark the score table sets
    (not "Right, Left win, up 1 (Declarers): You ±0 / Right +1 …" beside stale levels)."""
    r = {"returns": [0, 1, 0, 1], "winners": [1, 3], "reason": "hand_over",
         "details": {"dealer": 3, "gains": [0, 1], "levels": [2, 3], "attack_total": 45, "take_at": 80}}
    en = result_words(r, game="shengji", seat=0, names=NAMES[4], lang="en")
    assert en == "You lost — Bob and Di (declarers) go up 1 level, to 3; " \
        "the attackers took 45 of the 80 they needed", en
    zh = result_words(r, game="shengji", seat=0, names=NAMES[4], lang="zh")
    assert zh == "你输了 — Bob 和 Di（庄家方）升1级，升到3；闲家得45分，不足上台所需的80分", zh
    up = {"returns": [2, 0, 2, 0], "winners": [0, 2], "reason": "hand_over",
          "details": {"dealer": 3, "gains": [2, 0], "levels": [13, 3], "attack_total": 165, "take_at": 80}}
    assert result_words(up, game="shengji", seat=0, names=NAMES[4], lang="en") \
        == "You won — you and Cy (attackers) take over and go up 2 levels, to K; " \
        "they took 165 (80 needed to take over)"
    assert "上台并升2级" in result_words(up, game="shengji", seat=0, names=NAMES[4], lang="zh")


def test_a_shengji_hand_result_carries_the_take_over_mark():
    """The engine's result names the points that take the deal over in its score table."""
    from qipai.games.shengji.scoring import take_over_at
    assert [take_over_at(t) for t in ("t000", "t002", "t_titanic", "t_one_deck")] == [80, 80, 120, 40]


def test_the_reader_named_inside_a_sentence_is_you_in_lower_case():
    """"(discarded by You)": the reader's seat is "You" as a seat's label, but inside a sentence
    it is "you" ("discarded by you", "but Right and you went out before Left")."""
    r = next(st.hand_results[-1] for st in gb_hands(hands=1, want=6)
             if st.hand_results[-1]["how"] == "discard")
    line = mahjong_hand_lines(r, seat=r["from"], hands_per_match=1, lang="en")[0]
    assert "discarded by you)" in line and "by You" not in line, line
    assert "你" in mahjong_hand_lines(r, seat=r["from"], hands_per_match=1, lang="zh")[0]
    faf = {"returns": [0.5] * 4, "winners": [], "reason": "out", "details": {"order": [1, 0, 2, 3]}}
    text = result_words(faf, game="fouafour", seat=0, names=NAMES[4], lang="en")
    assert "but you and Left both went out before Left" not in text
    assert " you " in text and " You " not in text, text


def test_a_shengji_hand_keeps_the_marks_it_was_scored_by():
    """The take-over mark and the level-up mark of each score table, kept in a hand's details
    (``take_at``, ``up_at``) for the words above: 80 and 120 with two decks, 120 and 180 with
    three, 40 and 60 with one."""
    from qipai.games.shengji.scoring import level_up_at, take_over_at

    tables = ("t000", "t002", "t003", "t_titanic", "t_one_deck")
    marks = {t: (take_over_at(t), level_up_at(t)) for t in tables}
    assert marks == {"t000": (80, 120), "t002": (80, 120), "t003": (80, 120), "t_titanic": (120, 180),
                     "t_one_deck": (40, 60)}
