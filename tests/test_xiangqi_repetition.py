"""Repetition rules of rules/xiangqi.md section 4.3 (and the project's ``none``)."""

from __future__ import annotations

import pytest

import qipai
from qipai import IllegalAction
from qipai.games.xiangqi.repetition import CHASE, CHECK, IDLE

PERPETUAL_CHECK = "4k4/9/9/4P4/9/9/9/9/R8/3K1R3 w - - 0 1"
PERPETUAL_CHECK_MOVES = "a1a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9".split()
KNIGHT_DANCE = "b0c2 b9c7 c2b0 c7b9 b0c2 b9c7 c2b0 c7b9".split()
# a red rook follows a black cannon along rank 7 between c7 and g7
CHASE_LOOP = "g2c2 c7g7 c2g2 g7c7 g2c2 c7g7 c2g2 g7c7".split()


def play(fen: str | None, moves: list[str], **options):
    st = qipai.load("xiangqi", **options).new_state(position=fen)
    for i, mv in enumerate(moves):
        assert not st.is_terminal(), f"ended before ply {i + 1}: {st.result}"
        st.apply(mv)
    return st


# ----- axf_simplified (default) -----------------------------------------------------------

def test_8_12_perpetual_check_loses():
    st = play(PERPETUAL_CHECK, PERPETUAL_CHECK_MOVES[:-1])
    assert not st.is_terminal()
    st.apply(PERPETUAL_CHECK_MOVES[-1])
    assert (st.result.text, st.result.reason, st.returns()) == ("0-1", "repetition_loss", [0.0, 1.0])
    assert st.repetition_classes() == [IDLE, CHECK] * 4


def test_8_13_repetition_without_violation_is_a_draw():
    st = play(None, KNIGHT_DANCE[:4])
    assert not st.is_terminal()                 # second occurrence: nothing happens
    st = play(None, KNIGHT_DANCE)
    assert (st.result.text, st.result.reason) == ("1/2-1/2", "repetition_draw")
    assert st.returns() == [0.5, 0.5]


def test_perpetual_chase_of_an_unprotected_piece_loses():
    st = play("4k4/9/2c6/9/9/9/9/6R2/9/3K5 w - - 0 1", CHASE_LOOP)
    assert (st.result.text, st.result.reason) == ("0-1", "repetition_loss")
    assert st.repetition_classes() == [CHASE, IDLE] * 4


def test_chasing_a_protected_piece_is_not_a_chase():
    # a black rook on a7 protects the cannon on both c7 and g7
    st = play("4k4/9/r1c6/9/9/9/9/6R2/9/3K5 w - - 0 1", CHASE_LOOP)
    assert (st.result.text, st.result.reason) == ("1/2-1/2", "repetition_draw")
    assert set(st.repetition_classes()) == {IDLE}


def test_horse_or_cannon_chasing_a_protected_rook_still_chases():
    # a red cannon (screens: the pawns c3, g3) follows a black rook protected by the rook a7
    loop = "g2c2 c7g7 c2g2 g7c7 g2c2 c7g7 c2g2 g7c7".split()
    st = play("4k4/9/r1r6/9/9/9/2P3P2/6C2/9/3K5 w - - 0 1", loop)
    assert (st.result.text, st.result.reason) == ("0-1", "repetition_loss")
    assert st.repetition_classes() == [CHASE, IDLE] * 4


def test_same_kind_that_can_capture_back_is_not_chased():
    # rook against rook on an open file: the black rook could take the red one back
    st = play("4k4/9/2r6/9/9/9/9/6R2/9/3K5 w - - 0 1", CHASE_LOOP)
    assert (st.result.text, st.result.reason) == ("1/2-1/2", "repetition_draw")


def test_an_attack_that_existed_before_the_move_is_not_new():
    # the red rook sits on rank 7 and keeps attacking the cannon that shuttles along it;
    # the cannon is attacked before every red move, so red's moves are not chases
    st = play("4k4/9/2c3R2/9/9/9/9/9/9/3K5 w - - 0 1", "g7h7 c7b7 h7g7 b7c7 g7h7 c7b7 h7g7 b7c7".split())
    assert st.result.reason == "repetition_draw"


def test_verdict_table():
    from qipai.games.xiangqi.repetition import verdict

    # (red's classes, black's classes) -> loser (None = draw)
    cases = [
        (([CHECK, CHECK], [IDLE, IDLE]), 0),
        (([IDLE, IDLE], [CHECK, CHECK]), 1),
        (([CHECK, CHECK], [CHECK, CHECK]), None),
        (([CHECK, CHECK], [CHASE, CHASE]), 0),          # the checker loses
        (([CHASE, CHECK], [IDLE, IDLE]), 0),            # checks and chases count as chasing
        (([CHASE, IDLE], [IDLE, IDLE]), None),
        (([CHASE, CHASE], [CHASE, IDLE]), 0),
        (([CHASE, CHASE], [CHASE, CHASE]), None),
        (([IDLE, IDLE], [IDLE, IDLE]), None),
        (([CHECK, IDLE], [IDLE, IDLE]), None),
    ]
    for (red, black), loser in cases:
        kinds = [k for pair in zip(red, black) for k in pair]
        movers = [0, 1] * len(red)
        assert verdict(kinds, movers) == loser, (red, black)


def test_pawn_attacks_are_not_chases():
    # the crossed red pawn attacks the lone black horse d7 from d6 every other move
    st = play("4k4/9/3n5/4P4/9/9/9/9/9/3K5 w - - 0 1", "e6d6 e9f9 d6e6 f9e9 e6d6 e9f9 d6e6 f9e9".split())
    assert (st.result.text, st.result.reason) == ("1/2-1/2", "repetition_draw")
    assert set(st.repetition_classes()) == {IDLE}


# ----- seed000_same_move ------------------------------------------------------------------

def test_seed000_third_occurrence_has_no_effect_and_the_same_move_is_banned():
    st = play(None, KNIGHT_DANCE, repetition_rule="seed000_same_move")
    assert not st.is_terminal()
    assert "b0c2" not in {str(m) for m in st.legal_moves()}
    before = (st.fen(), list(st.log))
    with pytest.raises(IllegalAction, match="third time"):
        st.apply("b0c2")
    assert (st.fen(), st.log) == before
    st.apply("b0a2")
    assert not st.is_terminal()


def test_seed000_side_in_check_is_exempt():
    st = play(PERPETUAL_CHECK, PERPETUAL_CHECK_MOVES, repetition_rule="seed000_same_move")
    assert not st.is_terminal() and st.in_check()
    # black's e9e8 repeats its moves two and four turns back, but black is in check
    assert "e9e8" in {str(m) for m in st.legal_moves()}
    st.apply("e9e8")
    # red is not in check: a9a8 a third time in a row is refused
    assert "a9a8" not in {str(m) for m in st.legal_moves()}
    with pytest.raises(IllegalAction):
        st.apply("a9a8")


def test_seed000_every_move_banned_is_a_draw():
    # the red king shuttles f0-f1 (e0/e1 are covered by the rook e5, f2 by the rook i2)
    fen = "3k5/9/9/9/4r4/9/9/8r/9/5K3 w - - 0 1"
    st = play(fen, "f0f1 d9d8 f1f0 d8d9 f0f1 d9d8 f1f0".split(), repetition_rule="seed000_same_move")
    assert not st.is_terminal()
    st.apply("d8d9")
    assert (st.result.text, st.result.reason) == ("1/2-1/2", "repetition_draw")


def test_seed000_does_not_adjudicate_perpetual_check():
    st = play(PERPETUAL_CHECK, PERPETUAL_CHECK_MOVES, repetition_rule="seed000_same_move")
    assert not st.is_terminal()


# ----- draw_only and none -----------------------------------------------------------------

def test_draw_only_draws_perpetual_check():
    st = play(PERPETUAL_CHECK, PERPETUAL_CHECK_MOVES, repetition_rule="draw_only")
    assert (st.result.text, st.result.reason) == ("1/2-1/2", "repetition_draw")


def test_none_never_adjudicates_repetition():
    st = play(PERPETUAL_CHECK, PERPETUAL_CHECK_MOVES * 1 + "e9e8 a9a8 e8e9 a8a9".split() * 3,
              repetition_rule="none")
    assert not st.is_terminal()
    st = play(None, KNIGHT_DANCE * 5, repetition_rule="none")
    assert not st.is_terminal() and st.no_capture == 40
