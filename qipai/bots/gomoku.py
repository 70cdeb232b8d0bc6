"""Gomoku/renju bots: ``random`` (generic) and ``greedy``.

``greedy`` looks one stone ahead, in this order: it completes a winning line when it has one;
otherwise it blocks the opponent's winning points (a four); otherwise it plays the point with
the best shape score: its own fours and threes, then the opponent's fours and threes it
blocks, then closeness to the stones. As Black under renju it never plays a forbidden point.
Ties are broken at random (seeded). It also answers the opening steps: it swaps after move 3
when Black's three stones touch, offers its two best non-symmetric points at move 5, picks
the weaker offer as White, and claims a forbidden black stone in ``claim`` mode.
"""

from __future__ import annotations

import random

from qipai.bots import register_bot
from qipai.games.gomoku import openings
from qipai.games.gomoku.board import (
    BLACK,
    CELL,
    DIRECTIONS,
    EMPTY,
    NPOINTS,
    SIZE,
    WHITE,
    line_shape,
)
from qipai.games.gomoku.notation import CHOOSE, CLAIM, PASS, PLACE, SWAP, Action, offer

_SWAP = str.maketrans("xo", "ox")


def _near(board, radius: int = 2) -> list[int]:
    stones = [p for p in range(NPOINTS) if board.get(p) != EMPTY]
    if not stones:
        return [7 * SIZE + 7]
    out = set()
    for s in stones:
        c0, r0 = s % SIZE, s // SIZE
        for dc in range(-radius, radius + 1):
            for dr in range(-radius, radius + 1):
                c, r = c0 + dc, r0 + dr
                if 0 <= c < SIZE and 0 <= r < SIZE and board.get(r * SIZE + c) == EMPTY:
                    out.add(r * SIZE + c)
    return sorted(out)


def _shape(board, p: int, colour: str) -> tuple[bool, int, int]:
    """(makes five or more, fours, threes-candidates) for a ``colour`` stone at ``p``."""
    cells = board.cells
    c = CELL[p]
    win = False
    fours = threes = 0
    for d in DIRECTIONS:
        window = "".join(cells[c - 5 * d:c + 5 * d + 1:d])
        if colour == WHITE:
            window = window.translate(_SWAP)
        five, over, f, t = line_shape(window)
        win = win or five or over
        fours += f
        threes += 1 if t else 0
    return win, fours, threes


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    # ----- helpers -------------------------------------------------------------------------
    def _wins(self, state, p: int, colour: str) -> bool:
        runs = state.board.run_lengths(p, colour)
        rs = state.game.options["ruleset"]
        if rs == "standard" or (rs == "renju" and colour == BLACK):
            return 5 in runs
        return max(runs) >= 5

    def _score(self, state, p: int, colour: str) -> float:
        other = WHITE if colour == BLACK else BLACK
        _, my4, my3 = _shape(state.board, p, colour)
        _, op4, op3 = _shape(state.board, p, other)
        score = 100.0 * my4 + 40.0 * my3 + 60.0 * op4 + 30.0 * op3
        if my4 and my3 or my4 >= 2:
            score += 300.0
        if my3 >= 2:
            score += 150.0
        c, r = p % SIZE, p // SIZE
        score -= 0.5 * max(abs(c - 7), abs(r - 7)) / 7.0
        return score + self.rng.random() * 0.1

    def _allowed(self, state, colour: str, legal: set[int]) -> list[int]:
        cands = [p for p in _near(state.board) if p in legal]
        if not cands:
            cands = sorted(legal)
        if colour == BLACK and state.game.renju:
            ok = [p for p in cands if self._wins(state, p, BLACK) or state.board.forbidden(p) is None]
            cands = ok or cands
        return cands

    # ----- choice ---------------------------------------------------------------------------
    def choose(self, state, seat: int):
        view = state.view(seat, forbidden=False)
        choices = view["choices"]
        board = state.board
        if choices["choose"]:
            pts = [a.points[0] for a in state.legal_actions(seat)]
            return Action(CHOOSE, (min(pts, key=lambda p: self._score(state, p, BLACK)),))
        if choices["offer"]:
            return self._offer(state)
        if choices["claim"]:
            p = state.moves[-1][1]
            b = board.copy()
            b.remove(p)
            if b.forbidden(p) is not None:
                return Action(CLAIM)
        if choices["swap"]:
            blacks = board.stones(BLACK)
            touching = all(any(max(abs(a % SIZE - b2 % SIZE), abs(a // SIZE - b2 // SIZE)) == 1
                               for b2 in blacks if b2 != a) for a in blacks)
            if touching:
                return Action(SWAP)
        actions = state.legal_actions(seat)
        legal = {a.points[0] for a in actions if a.kind == PLACE}
        if not legal:
            passes = [a for a in actions if a.kind == PASS]
            return passes[0] if passes else self.rng.choice(actions)
        colour = state.to_move
        other = WHITE if colour == BLACK else BLACK
        cands = self._allowed(state, colour, legal)
        wins = [p for p in cands if self._wins(state, p, colour)]
        if wins:
            return Action(PLACE, (self.rng.choice(wins),))
        threats = [p for p in legal if self._wins(state, p, other)]
        if threats:
            blocks = [p for p in threats if p in cands] or threats
            return Action(PLACE, (max(blocks, key=lambda p: self._score(state, p, colour)),))
        return Action(PLACE, (max(cands, key=lambda p: self._score(state, p, colour)),))

    def _offer(self, state):
        board = state.board
        stones = {p: board.get(p) for p in range(NPOINTS) if board.get(p) != EMPTY}
        syms = openings.symmetries(stones)
        cands = sorted(_near(board), key=lambda p: -self._score(state, p, BLACK))
        first = cands[0]
        for p in cands[1:]:
            if not any(t[first] == p for t in syms):
                return offer(first, p)
        raise ValueError("no two different points to offer")


register_bot("gomoku", "greedy", GreedyBot)
