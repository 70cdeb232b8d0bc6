"""The incremental legal-point set (``qipai.games.go.legal``) against a scan of every point.

Random games on small boards (many captures, eyes, ko fights and repetitions) under each ko
rule: at every position the legal points equal those the referee's full check accepts on
every empty point, and the kept facts (sorted empty points, chains in atari, suicide points,
stone counts) equal the ones recomputed from the board.
"""

from __future__ import annotations

import random

import pytest

import qipai
from qipai.games.go.board import EMPTY
from qipai.games.go.coords import PASS
from qipai.games.go.rules import KO_RULES


def scanned_legal(state) -> list[int]:
    board, c = state.board, state.to_move
    return [p for p in range(board.n) if board.color[p] == EMPTY and state.play_hash(p, c) != -1]


@pytest.mark.parametrize("ko_rule", KO_RULES)
@pytest.mark.parametrize("size", [4, 5, 9])
def test_kept_set_equals_a_full_scan(ko_rule, size):
    game = qipai.load("go", board_size=size, ko_rule=ko_rule, max_moves=3 * size * size)
    rng = random.Random(size * 101 + KO_RULES.index(ko_rule))
    positions = 0
    for _ in range(12 if size < 9 else 3):
        state = game.new_state()
        while not state.is_terminal():
            legal = state.legal_points()
            assert legal == scanned_legal(state), (ko_rule, size, state.moves)
            state.legal_set.check()
            positions += 1
            # rarely pass, so that games last and repeat boards
            p = rng.choice(legal) if legal and rng.random() < 0.97 else PASS
            state.play_point(p)
    assert positions > 300


def test_clone_keeps_its_own_set():
    game = qipai.load("go", board_size=5)
    state = game.new_state()
    for text in ("C3", "C2", "B3"):
        state.apply(text)
    copy = state.clone()
    copy.apply("D3")
    assert copy.legal_points() == scanned_legal(copy)
    assert state.legal_points() == scanned_legal(state)
    assert state.board.color != copy.board.color


def test_setup_position_and_handicap_start_right():
    from tests.go_peers import position

    pos = position(5, black=["A2", "B1", "B2"], white=["A3", "B3", "C2", "C1"], to_move="W")
    state = qipai.load("go", board_size=5).new_state(position=pos)
    state.legal_set.check()
    assert state.legal_points() == scanned_legal(state)
    state = qipai.load("go", board_size=19, handicap=9).new_state()
    state.legal_set.check()
    assert state.legal_points() == scanned_legal(state)
