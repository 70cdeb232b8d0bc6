"""Xiangqi FEN reading and writing, and the validity checks of rules/xiangqi.md section 6."""

from __future__ import annotations

import pytest

import qipai
from qipai import NotationError
from qipai.games.xiangqi import START_FEN, board_to_fen, parse_fen


def load(fen: str, **options):
    return qipai.load("xiangqi", **options).new_state(position=fen)


def field_of(fen: str, **options) -> str:
    with pytest.raises(NotationError) as e:
        load(fen, **options)
    return e.value.field


def test_start_round_trip():
    pos = parse_fen(START_FEN)
    assert board_to_fen(*pos) == START_FEN
    assert load(START_FEN).fen() == START_FEN


def test_red_to_move_as_r_and_alternative_letters():
    st = load("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r - - 0 1")
    assert st.fen() == START_FEN


def test_trailing_fields_are_optional():
    assert load(START_FEN.split()[0]).fen() == START_FEN
    st = load(START_FEN.split()[0] + " b")
    assert st.turn == 1 and st.fen().split()[1] == "b"


def test_counters_are_kept():
    st = load("4k4/9/9/p8/9/9/9/9/9/3K5 b - - 17 42")
    assert st.no_capture == 17 and st.move_number == 42
    st.apply("e9e8")
    assert st.fen().endswith("w - - 18 43")


@pytest.mark.parametrize("fen, field", [
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w - - 0 1", "board"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C11/9/RNBAKABNR w - - 0 1", "rank 2"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C/9/RNBAKABNR w - - 0 1", "rank 2"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1X1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "rank 3"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1", "side to move"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1", "no-capture counter"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 0", "move number"),
    ("", "board"),
])
def test_malformed_fields_are_named(fen, field):
    assert field_of(fen) == field


@pytest.mark.parametrize("fen, field, words", [
    ("4k4/9/9/9/9/9/9/9/9/K8 w - - 0 1", "rank 0", "palace"),              # king off its palace
    ("4k4/9/9/9/9/9/9/9/3A5/4K4 w - - 0 1", "rank 1", "advisor"),          # advisor on d1
    ("4k4/9/9/9/9/9/9/9/9/1B2K4 w - - 0 1", "rank 0", "elephant"),         # elephant on b0
    ("4k4/9/9/9/2B6/9/9/9/9/4K4 w - - 0 1", "rank 5", "elephant"),         # elephant over the river
    ("4k4/9/9/9/9/9/9/P8/9/4K4 w - - 0 1", "rank 2", "pawn"),              # red pawn on rank 2
    ("4k4/9/9/9/9/1P7/9/9/9/4K4 w - - 0 1", "rank 4", "pawn"),             # red pawn b4
    ("4k4/9/9/9/9/9/1P7/9/9/4K4 w - - 0 1", "rank 3", "pawn"),             # red pawn b3
    ("4k4/9/9/1p7/9/9/9/9/9/3K5 w - - 0 1", "rank 6", "pawn"),             # black pawn b6
    ("4k4/p8/9/9/9/9/9/9/9/3K5 w - - 0 1", "rank 8", "pawn"),              # black pawn on rank 8
    ("4k4/9/9/9/9/9/9/9/9/3KK4 w - - 0 1", "board", "kings"),               # two red kings
    ("3k5/9/9/9/9/9/9/9/9/9 w - - 0 1", "board", "no king"),
    ("4k4/9/9/RRR6/9/9/9/9/9/3K5 w - - 0 1", "board", "rooks"),
    ("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "board", "face"),
    ("5k3/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1", "side to move", "check"),   # Black in check
])
def test_unreachable_positions_are_refused(fen, field, words):
    with pytest.raises(NotationError, match=words) as e:
        load(fen)
    assert e.value.field == field


def test_too_many_pieces_for_one_side():
    # 17 red pieces: the full army plus a sixth pawn
    fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/P8/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    with pytest.raises(NotationError) as e:
        load(fen)
    assert e.value.field == "board"


def test_king_capture_mode_accepts_facing_kings_and_a_check_on_the_side_not_to_move():
    assert not load("3k5/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1", end_rule="king_capture").is_terminal()
    st = load("5k3/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1", end_rule="king_capture")
    assert st.turn == 0


def test_validation_can_be_switched_off_but_kings_are_required():
    game = qipai.load("xiangqi")
    st = game.new_state(position="4k4/9/9/9/9/9/9/P8/9/4K4 w - - 0 1", validate=False)
    assert st.piece_at(18) == "P"
    with pytest.raises(NotationError):
        game.new_state(position="9/9/9/9/9/9/9/9/9/4K4 w - - 0 1", validate=False)


def test_fen_round_trip_on_played_games():
    st = load(START_FEN)
    for mv in ("h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "e2e6", "c7e6"):
        st.apply(mv)
        again = load(st.fen())
        assert again.fen() == st.fen()
        assert again.board == st.board and again.turn == st.turn
