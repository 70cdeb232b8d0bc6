"""WXF and Chinese move text: reading, writing, resolution by legality, errors, round trips."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import qipai
from qipai import IllegalAction
from qipai.games.xiangqi import Move
from qipai.games.xiangqi.notation import looks_like_move, parse_move, to_chinese, to_wxf

GAME = qipai.load("xiangqi")


def state(fen: str | None = None, *moves: str):
    s = GAME.new_state(position=fen)
    for m in moves:
        s.apply(m)
    return s


def mv(text: str) -> Move:
    return Move.parse(text)


# ----- rules/xiangqi.md §6 and §8 case 16 -------------------------------------------------------

TWO_ROOKS = "5k3/9/9/4R4/9/9/4R4/9/9/3K5 w - - 0 1"      # red rooks e6 and e3


@pytest.mark.parametrize("fen, before, iccs, wxf", [
    (None, (), "h2e2", "C2=5"),
    (None, (), "b0c2", "H8+7"),
    (None, (), "i0i1", "R1+1"),
    (None, ("h2e2",), "h9g7", "H8+7"),
    (None, ("h2e2",), "b7e7", "C2=5"),
    (TWO_ROOKS, (), "e6d6", "R+=6"),
    (TWO_ROOKS, (), "e3e5", "R-+2"),
])
def test_wxf_examples(fen, before, iccs, wxf):
    s = state(fen, *before)
    assert to_wxf(s, mv(iccs)) == wxf
    assert parse_move(s, wxf) == mv(iccs)


@pytest.mark.parametrize("fen, before, iccs, chinese", [
    (None, (), "h2e2", "炮二平五"),
    (None, (), "b0c2", "马八进七"),
    (None, ("h2e2",), "h9g7", "马8进7"),
    (TWO_ROOKS, (), "e6e8", "前车进二"),
    (TWO_ROOKS, (), "e3e1", "后车退二"),
])
def test_chinese_examples(fen, before, iccs, chinese):
    s = state(fen, *before)
    assert to_chinese(s, mv(iccs)) == chinese
    assert parse_move(s, chinese) == mv(iccs)


def test_traditional_and_fullwidth_output():
    s = state(None, "h2e2")
    assert to_chinese(s, mv("h9g7"), traditional=True) == "馬8進7"
    assert to_chinese(s, mv("h9g7"), traditional=True, fullwidth=True) == "馬８進７"
    assert to_chinese(state(TWO_ROOKS), mv("e3e4"), traditional=True) == "後車進一"


@pytest.mark.parametrize("text", ["马８进７", "馬8進7", "馬８進７", "马８進7", "H8+7", "N8+7", "h8+7",
                                  "马八进七", "  马8进7 ", "1... 马8进7", "1. 马8进7"])
def test_black_horse_every_spelling(text):
    # Digit style and character set do not matter: the side to move is known.
    assert parse_move(state(None, "h2e2"), text) == mv("h9g7")


@pytest.mark.parametrize("text", ["炮二平五", "炮2平5", "炮２平５", "砲二平五", "包二平五", "C2=5", "C2.5",
                                  "c2=5", "1. 炮二平五", "1.C2=5", "1. h2e2"])
def test_red_cannon_every_spelling(text):
    assert parse_move(state(), text) == mv("h2e2")


def test_apply_accepts_every_notation():
    s = state()
    s.apply("炮二平五")
    s.apply("马８进７")
    s.apply("H2+3")
    s.apply("車９平８")
    assert s.log == ["h2e2", "h9g7", "h0g2", "i9h9"]


def test_synonyms_for_elephant_and_horse():
    s = state()
    assert parse_move(s, "E3+5") == parse_move(s, "B3+5") == parse_move(s, "相三进五") == mv("g0e2")
    assert parse_move(state(None, "h2e2"), "象7进5") == mv("g9e7")
    assert parse_move(s, "N2+3") == parse_move(s, "H2+3") == mv("h0g2")


def test_tandem_pieces_written_front_and_back():
    s = state("4k4/9/9/2C6/9/9/2C6/9/9/3K5 w - - 0 1")   # red cannons c6 and c3
    assert parse_move(s, "前炮进三") == parse_move(s, "C++3") == mv("c6c9")
    assert parse_move(s, "後炮進二") == parse_move(s, "C-+2") == mv("c3c5")
    assert parse_move(s, "後炮平四") == mv("c3f3")
    assert parse_move(s, "炮前平四") == mv("c6f6")   # piece name first, as some old scores write it
    assert to_wxf(s, mv("c3c2")) == "C--1"
    assert parse_move(s, "C--1") == mv("c3c2")
    assert to_chinese(s, mv("c3c2")) == "后炮退一"
    s = state("4k4/9/2C6/9/9/9/9/2C6/9/3K5 w - - 0 1")     # red cannons c7 and c2
    assert parse_move(s, "後炮進三") == parse_move(s, "C-+3") == mv("c2c5")
    assert to_chinese(s, mv("c2c5"), traditional=True) == "後炮進三"


def test_front_rook_from_the_data_spelling():
    s = state("4k4/9/9/9/1R7/9/9/1R7/9/3K5 w - - 0 1")   # red rooks b5 and b2
    assert parse_move(s, "前車進二") == mv("b5b7")
    assert parse_move(s, "後車進二") == mv("b2b4")


# ----- under-specified text resolved by legality ------------------------------------------------

def test_cannon_on_file_eight_only_one_can_go():
    # Red cannons b4 and b2; a red pawn on c4 blocks b4 -> e4, so 炮八平五 can only be b2e2.
    s = state("4k4/9/9/9/9/1CP6/9/1C7/9/3K5 w - - 0 1")
    assert parse_move(s, "炮八平五") == mv("b2e2")
    assert parse_move(s, "C8=5") == mv("b2e2")
    with pytest.raises(IllegalAction, match="no legal move matches"):
        parse_move(s, "前炮平五")


def test_two_advisors_on_file_four_direction_decides():
    # Black advisors d9 and d7: forward from d9 reaches e8; forward from d7 would leave the palace.
    s = state("3a1k3/9/3a5/9/9/9/9/9/9/R3K4 b - - 0 1")  # a red rook, else drawn at once
    assert parse_move(s, "士４進５") == mv("d9e8")
    assert parse_move(s, "士4退5") == mv("d7e8")
    assert to_chinese(s, mv("d9e8"), traditional=True, fullwidth=True) == "後士進５"


def test_two_pieces_that_both_fit_are_ambiguous():
    with pytest.raises(IllegalAction, match="ambiguous") as e:
        parse_move(state(TWO_ROOKS), "车五平六")
    assert "e6d6" in e.value.reason and "e3d3" in e.value.reason


def test_illegal_candidate_is_not_chosen():
    # The horse on b0 cannot go to d1 (leg blocked by the elephant on c0), so no move fits.
    with pytest.raises(IllegalAction, match="no legal move matches") as e:
        parse_move(state(), "马八进六")
    assert "b0d1" in e.value.reason and "c0" in e.value.reason    # the referee's reason is passed on


# ----- pawns --------------------------------------------------------------------------------------

THREE_PAWNS = "3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1"          # red pawns c7 c6 c5 (file 7)
FOUR_PAWNS = "3k5/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1"         # c8 c7 c6 c5
FIVE_PAWNS = "2P2k3/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1"      # c9 .. c5
TWO_FILES = "3k5/9/2P3P2/2P3P2/6P2/9/9/9/9/4K4 w - - 0 1"        # c7 c6 (file 7); g7 g6 g5 (file 3)
BLACK_THREE = "4k4/9/9/9/9/6p2/6p2/6p2/9/3K5 b - - 0 1"           # black pawns g4 g3 g2 (file 7)


@pytest.mark.parametrize("fen, iccs, wxf, chinese", [
    (THREE_PAWNS, "c7d7", "P+=6", "前兵平六"),
    (THREE_PAWNS, "c6d6", "P7=6", "中兵平六"),
    (THREE_PAWNS, "c5b5", "P-=8", "后兵平八"),
    (FOUR_PAWNS, "c8c9", "+++1", "前兵进一"),
    (FOUR_PAWNS, "c7d7", "P+=6", "二兵平六"),
    (FOUR_PAWNS, "c6d6", "P-=6", "三兵平六"),
    (FOUR_PAWNS, "c5b5", "--=8", "后兵平八"),
    (FIVE_PAWNS, "c7d7", "P7=6", "三兵平六"),
    (FIVE_PAWNS, "c6d6", "P-=6", "四兵平六"),
    (TWO_FILES, "c7d7", "7+=6", "前七平六"),
    (TWO_FILES, "c6b6", "7-=8", "后七平八"),
    (TWO_FILES, "g7f7", "3+=4", "前三平四"),
    (TWO_FILES, "g6f6", "33=4", "中三平四"),
    (TWO_FILES, "g5h5", "3-=2", "后三平二"),
    (BLACK_THREE, "g2f2", "P+=6", "前卒平6"),
    (BLACK_THREE, "g3h3", "P7=8", "中卒平8"),
    (BLACK_THREE, "g4f4", "P-=6", "后卒平6"),
])
def test_tandem_pawns(fen, iccs, wxf, chinese):
    s = state(fen)
    assert to_wxf(s, mv(iccs)) == wxf
    assert to_chinese(s, mv(iccs)) == chinese
    assert parse_move(s, wxf) == mv(iccs)
    assert parse_move(s, chinese) == mv(iccs)


def test_pawn_alternative_spellings():
    s = state(FOUR_PAWNS)
    assert parse_move(s, "一兵进一") == mv("c8c9")      # ordinal 1 = the foremost
    assert parse_move(s, "四兵平八") == mv("c5b5")
    s = state(TWO_FILES)
    assert parse_move(s, "前兵七平六") == mv("c7d7")    # position, piece and file
    assert parse_move(s, "7+.6") == mv("c7d7")
    assert parse_move(s, "33.4") == mv("g6f6")


# ----- errors -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["", "xyz", "炮二平", "炮二平十", "马八跳七", "C2=0", "C2=55", "Q2=5",
                                  "78=6", "+-=6", "车车进一"])
def test_unreadable_text(text):
    with pytest.raises(IllegalAction, match="not a move"):
        parse_move(state(), text)
    assert not looks_like_move(text)


@pytest.mark.parametrize("text", ["马五进七", "车一平一", "相三进四", "兵七平六", "H8+6", "前车进一", "K5+2"])
def test_readable_but_no_legal_move(text):
    s = state()
    with pytest.raises(IllegalAction, match="no legal move matches"):
        parse_move(s, text)
    assert looks_like_move(text)


@pytest.mark.parametrize("text, reason", [
    ("马五进七", "Red has no horse on file 5"),
    ("前车进一", "Red has no rook sharing a file with another"),
    ("车一平一", "no Red rook on file 1 can move that way"),
])
def test_reason_names_the_missing_piece(text, reason):
    with pytest.raises(IllegalAction) as e:
        parse_move(state(), text)
    assert reason in e.value.reason


def test_refused_text_leaves_state_unchanged():
    s = state()
    fen = s.fen()
    with pytest.raises(IllegalAction):
        s.apply("马五进七")
    assert s.fen() == fen and s.log == []


# ----- round trips --------------------------------------------------------------------------------

ROUND_TRIP_STARTS = [
    None,
    # every pawn already across the river, so tandem pawns appear quickly
    "3k5/9/9/P1P1P1P1P/9/9/p1p1p1p1p/9/9/4K4 w - - 0 1",
    "r1bakab1r/9/1cn3nc1/4p4/p1p3p1p/P1P3P1P/4P4/1CN3NC1/9/R1BAKAB1R w - - 0 1",
    FIVE_PAWNS, TWO_FILES, BLACK_THREE,
]


def _check_all_moves(s) -> int:
    n = 0
    for m in s.legal_moves():
        for written in (to_wxf(s, m), to_chinese(s, m), to_chinese(s, m, traditional=True, fullwidth=True)):
            assert parse_move(s, written) == m, (s.fen(), str(m), written)
            n += 1
    return n


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), start=st.sampled_from(ROUND_TRIP_STARTS),
       plies=st.integers(0, 90))
def test_round_trip_random_positions(seed, start, plies):
    rng = random.Random(seed)
    s = state(start)
    for _ in range(plies):
        if s.is_terminal():
            break
        if rng.random() < 0.1:
            _check_all_moves(s)
        s.apply(rng.choice(s.legal_moves()))
    if not s.is_terminal():
        assert _check_all_moves(s) > 0


@pytest.mark.parametrize("text, zh", [
    ("马八进六", "没有合法着法符合 马八进六（b0d1：马不能这样走（蹩马腿（c0）））"),
    ("马五进七", "没有合法着法符合 马五进七（红方在第 5 路没有马）"),
    ("前车进一", "没有合法着法符合 前车进一（红方没有同一路的两个车）"),
    ("车一平一", "没有合法着法符合 车一平一（红方第 1 路的车不能这样走）"),
])
def test_no_legal_move_reason_reads_in_chinese(text, zh):
    """Why no legal move fits is worded from the catalogue, the referee's own reason too: no
    English inside a Chinese refusal ("e2 holds an own piece", "Red has no horse on file 5")."""
    with pytest.raises(IllegalAction) as e:
        parse_move(state(), text)
    assert e.value.text("zh") == zh
