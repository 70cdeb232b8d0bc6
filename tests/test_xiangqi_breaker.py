"""Adversarial tests of the xiangqi referee: inputs and positions chosen to break it.

Each test here was written against a fault (or a rule edge) found by driving the public API;
the engine's own test files cover the ordinary behaviour.
"""

from __future__ import annotations

import pytest

import qipai
from qipai import IllegalAction, NotationError
from qipai.games.xiangqi import Move

K_ONLY = "4k4/9/9/9/9/9/9/9/9/3K5"


def load(fen: str, **options):
    return qipai.load("xiangqi", **options).new_state(position=fen)


# ----- FEN: digits outside ASCII ------------------------------------------------------------

@pytest.mark.parametrize(("fen", "field"), [
    ("4k4/9/9/9/9/9/9/9/9/3K4\u00b2 w - - 0 1", "rank 0"),          # superscript two
    ("4k4/9/9/9/9/9/9/9/9/3K4\u0665 w - - 0 1", "rank 0"),          # Arabic-Indic five
    ("4k4/9/9/9/9/9/9/9/9/3K4\uff15 w - - 0 1", "rank 0"),          # full-width five
    (K_ONLY + " w - - \u00b2 1", "no-capture counter"),
    (K_ONLY + " w - - \u0663 1", "no-capture counter"),
    (K_ONLY + " w - - \uff10 1", "no-capture counter"),
    (K_ONLY + " w - - 0 \u0661", "move number"),
    (K_ONLY + " w - - 0 \u00b9", "move number"),
])
def test_non_ascii_digits_in_a_fen_are_refused_naming_the_field(fen, field):
    with pytest.raises(NotationError) as e:
        load(fen)
    assert e.value.field == field


def test_cli_moves_with_a_superscript_digit_reports_an_error_without_traceback():
    from typer.testing import CliRunner

    from qipai.cli import app

    out = CliRunner().invoke(app, ["moves", "xiangqi", "4k4/9/9/9/9/9/9/9/9/3K4\u00b2 w"])
    assert out.exit_code != 0
    assert not isinstance(out.exception, ValueError)
    assert "rank 0" in out.output


# ----- actions that are not moves -----------------------------------------------------------

@pytest.mark.parametrize("action", [
    Move("a", "b"), Move(25.0, 22.0), (25.0, 22.0), Move(None, 22), (True, 5), Move(25, False),
    Move(-1, 5), Move(0, 90), ("h2", "e2"),
])
def test_a_move_with_bad_squares_is_refused_and_changes_nothing(action):
    state = qipai.load("xiangqi").new_state()
    before = (state.fen(), list(state.log), list(state.history), state.result)
    with pytest.raises(IllegalAction) as e:
        state.apply(action)
    assert "0..89" in e.value.reason or "not a xiangqi move" in e.value.reason
    str(e.value)                                       # the message itself must not fail
    assert (state.fen(), list(state.log), list(state.history), state.result) == before
    assert state.legal_moves()                          # the state still works


def test_move_text_of_bad_squares_does_not_raise():
    assert str(Move(25, 22)) == "h2e2"
    assert "a" in str(Move("a", "b")) and "Move" in str(Move(7, 95))


@pytest.mark.parametrize(("fen", "field"), [
    (K_ONLY + " w - - " + "9" * 5000 + " 1", "no-capture counter"),
    (K_ONLY + " w - - 0 " + "9" * 5000, "move number"),
])
def test_a_counter_too_long_for_int_is_a_notation_error(fen, field):
    with pytest.raises(NotationError) as e:
        load(fen)
    assert e.value.field == field


# ----- repetition: where the rule file's chase differs from fuller AXF engines ---------------

def play(fen: str, moves: str, **options):
    state = load(fen, **options)
    for mv in moves.split():
        state.apply(mv)
    return state


def test_chasing_a_different_unprotected_piece_each_move_is_perpetual_chase():
    # the red rook swings d2-f2-d2, attacking the unprotected advisor d9, then f9, then d9 ...
    st = play("1n1a1ab2/2N1k4/4b4/2p1p1p2/9/2P3p2/4P4/3R5/9/2B1KAB2 w - - 0 1",
              "d2f2 b9a7 f2d2 a7b9 d2f2 b9a7 f2d2 a7b9")
    assert st.repetition_classes() == ["chase", "idle"] * 4
    assert (st.result.text, st.result.reason) == ("0-1", "repetition_loss")


def test_alternating_check_and_chase_is_perpetual_chase():
    # a7a9 attacks the unprotected advisor f9, a9a7 checks along rank 7, and again
    st = play("5a3/4k4/R8/2p5p/6p2/7NP/2P6/9/4A4/4KA3 w - - 0 1",
              "a7a9 e8e7 a9a7 e7e8 a7a9 e8e7 a9a7 e7e8")
    assert st.repetition_classes() == ["chase", "idle", "check", "idle"] * 2
    assert (st.result.text, st.result.reason) == ("0-1", "repetition_loss")
    # draw_only and none see the same moves as a plain repetition, or nothing at all
    assert play("5a3/4k4/R8/2p5p/6p2/7NP/2P6/9/4A4/4KA3 w - - 0 1",
                "a7a9 e8e7 a9a7 e7e8 a7a9 e8e7 a9a7 e7e8",
                repetition_rule="draw_only").result.reason == "repetition_draw"
    assert play("5a3/4k4/R8/2p5p/6p2/7NP/2P6/9/4A4/4KA3 w - - 0 1",
                "a7a9 e8e7 a9a7 e7e8 a7a9 e8e7 a9a7 e7e8",
                repetition_rule="none").result is None
