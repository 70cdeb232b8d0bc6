"""Adversarial tests of the xiangqi referee: inputs and positions chosen to break it.

Each test here was written against a fault (or a rule edge) found by driving the public API;
the engine's own test files cover the ordinary behaviour.
"""

from __future__ import annotations

import pytest

import qipai
from qipai import NotationError

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
