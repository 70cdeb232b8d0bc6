"""Go bots: ``random`` (uniform among moves that do not fill its own eyes) and ``greedy``
(capture the most stones; otherwise save its own chain in atari; otherwise as ``random``).

Both read only ``state.view``-level facts (the board, legal moves), pass when no move is left
and, in the dead-stone phase, mark the dead stones the referee's proposer suggests, then
submit.
"""

from __future__ import annotations

import random

from qipai.bots import register_bot
from qipai.games.go.board import diagonals
from qipai.games.go.coords import PASS
from qipai.games.go.rules import Mark, moves_table


def fills_own_eye(board, p: int, c: int) -> bool:
    """An empty point whose neighbours are all ``c`` and whose diagonals hold at most one
    opposing stone (none on the edge): a real eye of ``c``."""
    color = board.color
    if any(color[q] != c for q in board.nbr[p]):
        return False
    diag = diagonals(board.size)[p]
    bad = sum(1 for q in diag if color[q] == 3 - c)
    return bad == 0 if len(diag) < 4 else bad <= 1


def _marking_action(state, seat: int):
    proposal = set(state.dead_proposal())
    marks = state.marks[seat]
    size = state.size
    for p in sorted(proposal - marks):
        return Mark("dead", p, size)
    for p in sorted(marks - proposal):
        return Mark("alive", p, size)
    return Mark("done", PASS, size)


class RandomGoBot:
    """Uniform among legal plays that do not fill its own eye; passes when none is left."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def candidates(self, state) -> list[int]:
        c = state.to_move
        board = state.board
        return [p for p in state.legal_points() if not fills_own_eye(board, p, c)]

    def choose(self, state, seat: int):
        if state.phase == "marking":
            return _marking_action(state, seat)
        pts = self.candidates(state)
        table = moves_table(state.size)
        return table[self.rng.choice(pts)] if pts else table[-1]


class GreedyGoBot(RandomGoBot):
    """Capture first (the play capturing most stones), then escape atari, then random."""

    name = "greedy"

    def choose(self, state, seat: int):
        if state.phase == "marking":
            return _marking_action(state, seat)
        pts = self.candidates(state)
        table = moves_table(state.size)
        if not pts:
            return table[-1]
        board = state.board
        c = state.to_move
        best, best_n = [], 0
        for p in pts:
            n = board.would_capture(p, c)
            if n > best_n:
                best, best_n = [p], n
            elif n == best_n and n:
                best.append(p)
        if best:
            return table[self.rng.choice(best)]
        # extend a chain in atari when that gives it more than one liberty
        saves = []
        for p in pts:
            for q in board.nbr[p]:
                if board.color[q] == c and len(board.libs[board.head[q]]) == 1:
                    after = set(board.libs[board.head[q]]) | {x for x in board.nbr[p]
                                                              if board.color[x] == 0}
                    after.discard(p)
                    if len(after) >= 2:
                        saves.append(p)
                        break
        return table[self.rng.choice(saves or pts)]


register_bot("go", "random", RandomGoBot)
register_bot("go", "greedy", GreedyGoBot)
