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
from qipai.bots.mcts import Searcher
from qipai.bots.search import register_searcher
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


# ----- search (levels 3-5) -------------------------------------------------------------------
_W = CELL[SIZE] - CELL[0]                           # padded-grid width: one row down
_AROUND = (1, -1, _W, -_W, _W + 1, -_W - 1, _W - 1, -_W + 1)


def _fives_along(cells: list[str], c: int, d: int, colour: str, out: set[int]) -> None:
    """Add to ``out`` the empty cells on the line through cell ``c`` (step ``d``, four each
    side) where a ``colour`` stone would make five or more in that direction."""
    for k in range(-4, 5):
        e = c + k * d
        if cells[e] == EMPTY and _run(cells, e, d, colour) >= 5:
            out.add(e)


def _run(cells: list[str], e: int, d: int, colour: str) -> int:
    """Length of the ``colour`` run through cell ``e`` along step ``d``, ``e`` counted."""
    n = 1
    for step in (d, -d):
        i = e + step
        while cells[i] == colour:
            n += 1
            i += step
    return n


def _five_cells(cells: list[str], colour: str) -> set[int]:
    """Every empty cell where a ``colour`` stone makes five or more."""
    out: set[int] = set()
    for c in CELL:
        if cells[c] == colour:
            for d in DIRECTIONS:
                _fives_along(cells, c, d, colour, out)
    return out


class GomokuSearcher(Searcher):
    """Gomoku/renju for MCTS. The tree considers a winning point when there is one, else the
    points that stop the opponent's five, else the :data:`WIDTH` best points by the greedy
    bot's shape score (Black's forbidden points left out under renju). A playout plays on a
    copy of the grid: it wins with a five when it can, blocks the opponent's five, and
    otherwise plays a random point next to a stone, for at most :data:`DEPTH` plies (then a
    draw). Playouts ignore renju's forbidden points (a cheap approximation; the tree does not).
    A progressive bias (:attr:`Searcher.bias`) leans the small searches toward the greedy order.
    The opening choices (swap, offers, claims) are the greedy bot's."""

    game_id = "gomoku"
    WIDTH = 10
    DEPTH = 60
    bias = 1.5                  # follow the greedy bot's order until the playouts overrule it

    def __init__(self) -> None:
        self.greedy = GreedyBot(0)

    def searched(self, state, seat: int) -> bool:
        choices = state.view(seat, forbidden=False)["choices"]
        return not (choices["choose"] or choices["offer"] or choices["claim"] or choices["swap"])

    def candidates(self, state, seat: int) -> list:
        actions = state.legal_actions(seat)
        legal = {a.points[0]: a for a in actions if a.kind == PLACE}
        if not legal:
            return actions
        colour = state.to_move
        other = WHITE if colour == BLACK else BLACK
        # the shape score breaks ties at random: seeded by the position, so that a search
        # does not depend on the searches run before it in the same process
        self.greedy.rng.seed("".join(state.board.cells))
        cands = self.greedy._allowed(state, colour, set(legal))
        wins = [p for p in cands if self.greedy._wins(state, p, colour)]
        if wins:
            return [legal[wins[0]]]
        threats = [p for p in legal if self.greedy._wins(state, p, other)]
        if threats:
            return [legal[p] for p in threats]
        ranked = sorted(cands, key=lambda p: -self.greedy._score(state, p, colour))
        return [legal[p] for p in ranked[:self.WIDTH]]

    def playout(self, state, rng: random.Random) -> list[float]:
        cells = state.board.cells[:]
        colour = state.to_move
        fives = {BLACK: _five_cells(cells, BLACK), WHITE: _five_cells(cells, WHITE)}
        near = [c + d for c in CELL if cells[c] != EMPTY for d in _AROUND if cells[c + d] == EMPTY]
        winner = None
        for _ in range(self.DEPTH):
            other = WHITE if colour == BLACK else BLACK
            if fives[colour]:
                winner = colour
                break
            if fives[other]:
                c = min(fives[other])
            else:
                c = -1
                for _ in range(12):
                    pick = near[rng.randrange(len(near))] if near else -1
                    if pick >= 0 and cells[pick] == EMPTY:
                        c = pick
                        break
                if c < 0:
                    empty = [x for x in CELL if cells[x] == EMPTY]
                    if not empty:
                        break
                    c = rng.choice(empty)
            cells[c] = colour
            fives[BLACK].discard(c)
            fives[WHITE].discard(c)
            for d in DIRECTIONS:
                _fives_along(cells, c, d, colour, fives[colour])
            near.extend(c + d for d in _AROUND if cells[c + d] == EMPTY)
            colour = other
        if winner is None:
            return [0.5, 0.5]
        out = [0.0, 0.0]
        out[state.seat_of(winner)] = 1.0
        return out


register_searcher(GomokuSearcher(), GreedyBot)
