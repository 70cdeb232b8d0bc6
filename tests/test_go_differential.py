"""Go against OpenSpiel's ``go``: identical legal moves at every position, identical scores.

Matching options: ``ko_rule = simple_ko`` (OpenSpiel forbids only the immediate ko retake; a
play that repeats an earlier whole board ends its game as a draw, which our positional superko
forbids: checked), ``end_procedure = all_alive`` (Tromp-Taylor counting), ``free_komi`` with
OpenSpiel's komi, ``max_moves`` = OpenSpiel's ``max_game_length`` (2 x points).
"""

from __future__ import annotations

import pytest

from tests.go_peers import lockstep_game

pytest.importorskip("pyspiel")


def test_800_random_9x9_games():
    superko = 0
    for seed in range(800):       # benchmarks/go.py --diff N plays more, on 19x19
        # an integer komi half the time, so that exact draws are compared too
        out = lockstep_game(9, seed, komi=7.0 if seed % 2 else 7.5)
        superko += out["superko"]
    assert superko < 8


@pytest.mark.parametrize("size,games", [(19, 6), (13, 10), (5, 100)])
def test_other_sizes(size, games):
    for seed in range(games):
        lockstep_game(size, 10_000 + seed, komi=6.5 if size != 5 else 0.0)


@pytest.mark.parametrize("handicap", [2, 5, 9])
def test_handicap_games(handicap):
    for seed in range(2):
        lockstep_game(19, 20_000 + seed, handicap=handicap)
