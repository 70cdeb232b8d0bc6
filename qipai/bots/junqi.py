"""Junqi bots: ``random`` (generic) and ``greedy``.

``greedy`` reads only ``state.view(seat)``, the public board geometry and its legal actions.

* Layout: among the offered layouts, the one with the most mines next to the flag.
* Play, one move ahead, best score first (ties broken at random, seeded):
  a revealed enemy flag is taken at once; an attack on an unmoved piece on an enemy
  headquarters (a possible flag) is tried with a junior officer; attacks prefer officers of
  middle rank, keep the commander and the bombs for pieces that have moved (not mines),
  and send engineers at unmoved back-row pieces (possible mines); a quiet move scores the
  distance it gains towards the nearest enemy headquarters.
* Memory: from the public history it keeps, for enemy pieces, the lowest rank they can have
  (a piece that beat one of its officers outranks it) and never attacks such a piece with an
  officer it outranks or equals, but sends a bomb at it when it is a 38 or more.
"""

from __future__ import annotations

import random
from collections import deque

from qipai.bots import register_bot
from qipai.games.junqi.board import Board
from qipai.games.junqi.notation import Layout, Move

_DIST: dict[tuple[str, int], list[int]] = {}


def enemy_hq_distance(board: Board, seat: int, teams: list[int]) -> list[int]:
    """Per point, the number of connections to the nearest headquarters of an opposing seat
    (pieces ignored)."""
    key = (board.variant, seat)
    if key not in _DIST:
        start = [p for p in range(board.n)
                 if board.hq[p] and board.area[p] >= 0 and teams[board.area[p]] != teams[seat]]
        dist = [10**6] * board.n
        todo = deque(start)
        for p in start:
            dist[p] = 0
        while todo:
            u = todo.popleft()
            for v in board.steps[u]:
                if dist[v] > dist[u] + 1:
                    dist[v] = dist[u] + 1
                    todo.append(v)
        _DIST[key] = dist
    return _DIST[key]


class GreedyBot:
    """One-move-ahead junqi bot (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.seen = 0                      # history entries already read
        self.lo: dict[str, int] = {}       # enemy piece's point -> lowest rank it can have
        self.mine_at: dict[str, str] = {}  # own pieces (point -> code) at the last look

    def _learn(self, view: dict, seat: int) -> None:
        """Read the new public history entries (see the module docstring)."""
        history = view["history"]
        if len(history) < self.seen:      # a new game
            self.seen, self.lo, self.mine_at = 0, {}, {}
        lo, mine = self.lo, self.mine_at
        for who, text in history[self.seen:]:
            if "-" not in text:
                continue
            move, _, outcome = text.partition(":")
            frm, to = move.split("-")
            if who == seat:
                code = mine.pop(frm, None)
                if not outcome or outcome == "win":
                    lo.pop(to, None)
                    if code is not None:
                        mine[to] = code
                elif outcome == "lose" and code is not None and code.isdecimal():
                    lo[to] = max(lo.get(to, 0), int(code) + 1)
                else:
                    lo.pop(to, None)
                continue
            known = lo.pop(frm, 0)
            code = mine.get(to)
            if outcome == "win" and code is not None:
                mine.pop(to)
                lo[to] = max(known, int(code) + 1) if code.isdecimal() else known
            elif outcome in ("both", "flag"):
                mine.pop(to, None)
                lo.pop(to, None)
            elif outcome == "lose":
                pass
            elif known and (who - seat) % 2:
                lo[to] = known
        self.seen = len(history)
        enemy = {x["point"] for x in view["pieces"] if (x["seat"] - seat) % 2}
        for p in [p for p in lo if p not in enemy]:
            del lo[p]
        self.mine_at = {x["point"]: x["piece"] for x in view["pieces"] if x["seat"] == seat}

    def choose(self, state, seat: int):
        actions = state.legal_actions(seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        if isinstance(actions[0], Layout):
            return self._layout(state.board, actions)
        return self._move(state, seat, actions)

    def _layout(self, board: Board, actions: list[Layout]) -> Layout:
        def guarded(layout: Layout) -> int:
            pieces = dict(e.split("=") for e in layout.text.split())
            flag = next(board.point(p) for p, c in pieces.items() if c == "F")
            return sum(pieces.get(board.names[q]) == "M" for q in board.steps[flag])
        best = max(guarded(a) for a in actions)
        return self.rng.choice([a for a in actions if guarded(a) == best])

    def _move(self, state, seat: int, actions: list[Move]) -> Move:
        board: Board = state.board
        view = state.view(seat)
        self._learn(view, seat)
        at = {x["point"]: x for x in view["pieces"]}
        teams = [s % 2 for s in range(len(view["seats"]))]
        dist = enemy_hq_distance(board, seat, teams)
        best, score_best = [], None
        for m in actions:
            s = self._score(board, at, m, dist, self.lo.get(m.to, 0)) + self.rng.random() * 0.5
            if score_best is None or s > score_best + 1e-9:
                best, score_best = [m], s
            elif abs(s - score_best) <= 1e-9:
                best.append(m)
        return self.rng.choice(best)

    @staticmethod
    def _score(board: Board, at: dict, m: Move, dist: list[int], known: int) -> float:
        mine = at[m.frm]["piece"]
        target = at.get(m.to)
        p, q = board.point(m.frm), board.point(m.to)
        if target is None:
            gain = dist[p] - dist[q]
            return 2.0 * gain - (1.0 if mine in ("40", "39", "B") else 0.0)
        if target["piece"] == "F":
            return 10_000.0
        moved = target["moved"]
        r = board.local[q][0] if board.local[q] else 0
        if mine == "B":
            if known >= 38:
                return 30.0 + known
            return 4.0 if moved else -5.0
        rank = int(mine)
        if known > rank or (known and known == rank and rank < 38):
            return -20.0
        if board.hq[q] and not moved:
            return 40.0 - rank          # a possible flag: probe with a junior officer
        if mine == "32":
            return 15.0 if (not moved and r >= 5) else 1.0
        if rank >= 39:
            return 8.0 if moved else -4.0
        return 6.0 + (rank - 33)
        # ranks 33..38 attack readily, the stronger the more


register_bot("junqi", "greedy", GreedyBot)
