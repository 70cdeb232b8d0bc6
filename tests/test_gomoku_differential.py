"""Differential test against the ``renju`` package from PyPI (its referee's forbidden-point test).

On random positions, every empty point gets the same verdict (forbidden or not, and the kind)
from qipai and from ``renju.check_forbid.get_foul_type``. The long run (20,000+ positions) is
``benchmarks/renju_differential.py``; this is a quick sample of the same generator.
"""

from __future__ import annotations

import random

import pytest

from qipai.games.gomoku.board import NPOINTS, Board

renju_peer = pytest.importorskip("renju.check_forbid")

KINDS = {0: None, 1: "double_three", 2: "double_four", 3: "overline"}


def random_position(rng: random.Random) -> tuple[Board, list[list[int]]]:
    """A random board (varied stone counts and spreads) and the peer's grid ``[col][row]``
    with 1 = black, 2 = white."""
    board = Board()
    grid = [[0] * 15 for _ in range(15)]
    nb = rng.randint(4, 50)
    nw = rng.randint(nb // 3, nb)
    spread = rng.choice((2.0, 3.0, 4.5, 100.0))
    placed = 0
    while placed < nb + nw:
        if spread > 50:
            p = rng.randrange(NPOINTS)
        else:
            c = min(14, max(0, round(rng.gauss(7, spread))))
            r = min(14, max(0, round(rng.gauss(7, spread))))
            p = r * 15 + c
        if board.get(p) != ".":
            continue
        colour = "x" if placed < nb else "o"
        board.place(p, colour)
        grid[p % 15][p // 15] = 1 if colour == "x" else 2
        placed += 1
    return board, grid


def compare(board: Board, grid) -> list[tuple[int, str | None, str | None]]:
    """The points where the two verdicts differ: ``(point, qipai, peer)``."""
    out = []
    for p in board.empties():
        ours = board.forbidden(p)
        theirs = KINDS[renju_peer.get_foul_type(grid, p % 15, p // 15)]
        if ours != theirs:
            out.append((p, ours, theirs))
    return out


def test_same_verdicts_as_the_renju_package():
    rng = random.Random(7)
    points = forbidden = 0
    for _ in range(40):
        board, grid = random_position(rng)
        assert compare(board, grid) == []
        points += len(board.empties())
        forbidden += len(board.forbidden_points())
    assert points > 6000 and forbidden > 40
