"""Refusals of a typed move read in the reader's words: where a player types moves (the terminal,
the table page's move box), the Chinese refusal names cards in Chinese (红桃A, 小王, not AH or
AL) and says what to type only as the thing to type, after 输入 ("叫分请输入 bid 1、bid 2 或
bid 3", not "叫分写作 'bid 1'"). The English refusals name cards as the table's faces read
(♥A, Small Joker: as the table names them), not as codes either."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import qipai
from qipai import i18n
from qipai.core.errors import IllegalAction
from qipai.tiles.tile import parse_tiles
from tests.refusals import playout_turns, refusals_at

BOARD = {"xiangqi", "go", "gomoku", "chinese-checkers", "junqi"}
CARD_GAMES = [g.id for g in qipai.games() if g.id not in BOARD and not g.id.startswith("test-")]
#: what a player may type at a card or tile table, right or wrong for the moment
TYPED = ["AL", "LB", "33", "3", "KK", "AH", "HA", "7H", "7H0", "LJ", "BJ", "LJ1", "AS AS", "10H",
         "bury AH KH QH JH TH 9H", "bury C1 C2", "trump X", "trump H", "declare 7H", "declare 2H 2H",
         "declare LJ BJ", "bid 1", "bid 65", "bid 9", "pass", "pass AH", "accept", "accept 3", "decline x",
         "play AH", "5m", "chow 4m", "pung 5p", "discard 5m", "kong 5m", "win", "333444+56", "456",
         "gou", "cha", "gou 5", "@@"]
#: a card in the games' codes: a face (AH, TH0, 10S), a joker (LJ, BJ1), a play in ranks with a
#: letter rank (AL, JBB, 6789T, AA; a single J, Q, K or A is how Chinese players name a rank too)
CODE = re.compile(r"(?<![A-Za-z0-9])"
                  r"(?:(?:10|[2-9TJQKA])[SHDC]\d?|[LB]J\d?|[2-9TJQKALB]*[TLB][2-9TJQKALB]*"
                  r"|[2-9JQKA]*[JQKA][2-9JQKA]*[2-9JQKA])(?![A-Za-z0-9])")
#: a template's field worded as cards
CARD_FIELD = re.compile(r"\{(\w+)\|cards\}")
#: what a message shows as the thing to type: from 输入 to the end of its bracket or sentence
TO_TYPE = re.compile(r"输入[^）。]*")
#: the Guobiao mahjong board: its English tile faces carry the suit words (SUIT_EN)
MAHJONG_JS = Path(qipai.__file__).parent / "server" / "web" / "boards" / "mahjong-gb.js"
#: Chinese refusals that quote a record's or a referee's syntax (results entered by hand), not
#: a player's move
RECORD_SYNTAX = {"baohuang.baohuang_result_five_signed", "doudizhu.doudizhu_result_three_signed",
                 "wakeng.wakeng_result_three_signed", "fouafour.fouafour_result_not",
                 "shengji.recorded_shengji_ending_forfeit", "go.forced_count_reason_arbiter"}


def test_cards_are_worded_in_both_languages():
    words = i18n.card_words
    assert words("9H TH0 JH", "zh") == "红桃9、红桃10、红桃J"
    assert words("AL", "zh") == "A 小王" and words("LJ1 BJ", "zh") == "小王、大王"
    assert words("10S", "zh") == "黑桃10" and words("334", "zh") == "3 3 4"
    assert words("AH KH", "en") == "♥A, ♠K".replace("♠", "♥")
    assert words("AL", "en") == "A Small Joker" and words("LJ1 BJ", "en") == "Small Joker, Big Joker"
    assert words("TS 333+4", "en") == "♠10, 3 3 3 + 4"
    assert i18n.t("refusal.not_in_hand", {"cards": "AH LJ"}, lang="zh") == "你手里没有：红桃A、小王"
    assert i18n.t("refusal.not_in_hand", {"cards": "AH LJ"}, lang="en") == "not in your hand: ♥A, Small Joker"


def test_tiles_are_worded_in_both_languages():
    """Mahjong tiles in a refusal ({name|tiles}) read by their names, never as codes."""
    words = i18n.tile_words
    assert words("5m E 345p", "zh") == "五万、东风、三筒、四筒、五筒"
    assert words("C F P f1 f8", "zh") == "红中、发财、白板、春、菊"
    assert words("5m 1s E", "en") == "5 crak, 1 bam, East wind"
    # one English vocabulary: a refusal names a suit by the word its tile face carries
    faces = re.search(r"SUIT_EN = \{ m: \"(\w+)\", p: \"(\w+)\", s: \"(\w+)\" \}", MAHJONG_JS.read_text())
    assert words("2m 3p 4s", "en") == "2 {}, 3 {}, 4 {}".format(*faces.groups())
    assert words("P f3", "en") == "White dragon, Autumn 3"
    assert words("xx", "en") == "xx"                  # what is no tile stays as written
    for game_id in ("mahjong-gb", "laizi-mahjong", "baibian-bajue"):
        game = qipai.load(game_id)
        state = game.new_state(seed=3)
        hand = parse_tiles(state.view(state.to_act[0])["seats"][state.to_act[0]]["hand"])
        missing = next(t for t in ("9p", "1s", "5m", "8s") if parse_tiles(t)[0] not in hand)
        with pytest.raises(IllegalAction) as e:
            state.apply(f"discard {missing}", seat=state.to_act[0])
        assert e.value.text("zh") == "你手里没有" + words(missing, "zh")
        assert e.value.text("en").lower() == "you do not hold " + words(missing, "en").lower()


def _refusals(game_id):
    """(typed text, refusal) of every text of TYPED refused on the way of two seeded playouts (each
    refusal leaving the state as it was)."""
    out = {}
    for state, seat in playout_turns(qipai.load(game_id), 250):
        if seat is not None:
            for text, e in refusals_at(state, [(text, seat) for text in TYPED], ignore=(ValueError,)):
                out.setdefault((e.code, text), e)
    return out


@pytest.mark.parametrize("game_id", CARD_GAMES)
def test_a_typed_moves_refusal_names_cards_in_words(game_id):
    """Seeded playouts of every card and tile game, each text of TYPED tried at every turn: the
    Chinese refusal holds no card code but what the player typed and what it says to type, and
    no quoted English syntax; in the English one every card it names ({name|cards}) is in words
    (what it shows as the thing to type, "card ids look like 7H0", is the notation itself)."""
    bad = []
    for (code, typed), e in _refusals(game_id).items():
        if code in RECORD_SYNTAX:
            continue
        text = TO_TYPE.sub(" ", e.text("zh"))
        # a code the player typed may be echoed ("看不懂 HA")
        codes = [m.group(0) for m in CODE.finditer(text) if m.group(0) not in typed.upper()]
        if codes or "'" in text:
            bad.append((code, typed, e.text("zh")))
        named = " ".join(i18n.card_words(e.params[f], "en") for f in CARD_FIELD.findall(
            i18n.catalogue("en").get(f"refusal.{code}", "")) if f in e.params)
        if [m.group(0) for m in CODE.finditer(named) if m.group(0) not in typed.upper()]:
            bad.append((code, typed, e.text("en")))
    assert bad == []


def test_no_chinese_refusal_quotes_english_syntax():
    """A Chinese refusal shows a thing to type after 输入, never in quotes as if it were words
    (the record and referee syntaxes of RECORD_SYNTAX aside, and the record readers' reasons,
    which quote a record file's own field names: 'game', 'actions', 'Match <n>')."""
    zh = json.loads((Path(i18n.__file__).parent / "zh.json").read_text(encoding="utf-8"))
    quoted = [k for k, v in zh.items() if k.startswith("refusal.") and re.search(r"'[^']*[A-Za-z][^']*'", v)
              and k.removeprefix("refusal.").removesuffix(".other") not in RECORD_SYNTAX
              and not k.startswith("refusal.record.")]     # a record reader names the file's own fields
    assert quoted == []


CARD_SPACES = ("baohuang.", "doudizhu.", "fouafour.", "sandayi.", "shengji.", "wakeng.", "sdbh.", "card.",
               "tile.", "mahjong", "laizi-mahjong.", "baibian-bajue.", "notation.", "not_in_hand")


def test_no_chinese_card_refusal_writes_a_card_code_but_as_the_thing_to_type():
    """Every Chinese refusal of a card or tile game, its fields taken out: a card code stands
    only after 输入 (the thing to type), never in the words (the record syntaxes aside)."""
    zh = json.loads((Path(i18n.__file__).parent / "zh.json").read_text(encoding="utf-8"))
    bad = []
    for key, template in zh.items():
        code = key.removeprefix("refusal.").removesuffix(".other")
        if not key.startswith("refusal.") or not code.startswith(CARD_SPACES) or code in RECORD_SYNTAX:
            continue
        words = TO_TYPE.sub(" ", re.sub(r"\{[^}]*\}", " ", template))
        if CODE.search(words):
            bad.append((key, template))
    assert bad == []
