"""Chinese checkers bots: ``random`` (generic) and ``greedy``.

``greedy`` plays the move that brings a marble nearest to the far corner of its target camp
(the largest drop in hex distance to that corner), reading only the public board of
``state.view(seat)`` and ``state.legal_actions(seat)``. Between equal gains it prefers the
marble farthest behind, then a seeded random choice. Before an anti-stalling checkpoint
(§4.3: 5/8/10 marbles out of home after own moves 20/25/30) it first moves marbles toward
the edge of its home when the steps they need nearly equal the moves left, and it never
brings a marble back into home. It passes
only when it must.
"""

from __future__ import annotations

import math
import random

from qipai.bots import register_bot
from qipai.bots.ismcts import PolicySearcher
from qipai.bots.search import register_searcher
from qipai.games.chinese_checkers.board import CAMPS, NHOLES, TIP, distance, parse_hole
from qipai.games.chinese_checkers.rules import CHECKPOINTS


class GreedyBot:
    """One-move look-ahead racing bot (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state, seat: int):
        actions = state.legal_actions(seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        if len(actions) == 1:
            return actions[0]
        view = state.view(seat)
        tip = TIP[view["targets"][seat]]
        depth = _depths(view["camps"][seat])
        urgent = self._urgent(view, seat, depth)
        best, best_key = [], None
        for a in actions:
            before = distance(a.start, tip)
            out = depth.get(a.start, 0) - depth.get(a.dest, 0)
            key = (out if urgent else min(out, 0), before - distance(a.dest, tip), before)
            if best_key is None or key > best_key:
                best, best_key = [a], key
            elif key == best_key:
                best.append(a)
        return self.rng.choice(best)

    @staticmethod
    def _urgent(view, seat: int, depth: dict[int, int]) -> bool:
        """True when the marbles the next checkpoint needs out of home need (in steps) about
        as many moves as are left before it."""
        opts = view["options"]
        if not opts["anti_stalling"]:
            return False
        done, out = view["moves"][seat], view["outside_home"][seat]
        at, need = next(((a, n) for a, n in sorted(CHECKPOINTS.items()) if done < a), (None, 10))
        if at is None:
            if not opts["keep_out_after_30"]:
                return False
            at = done + 1
        if need <= out:
            return False
        home = sorted(depth[parse_hole(h)] for h in view["marbles"][seat] if parse_hole(h) in depth)
        return sum(home[:need - out]) + 1 >= at - done


_DEPTHS: dict[str, dict[int, int]] = {}


def _depths(camp: str) -> dict[int, int]:
    """Steps (on an empty board) from each hole of ``camp`` to the nearest hole outside it."""
    if camp not in _DEPTHS:
        inside = set(CAMPS[camp])
        outside = [h for h in range(NHOLES) if h not in inside]
        _DEPTHS[camp] = {h: min(distance(h, x) for x in outside) for h in inside}
    return _DEPTHS[camp]


register_bot("chinese-checkers", "greedy", GreedyBot)


# ----- search (levels 3-5) -------------------------------------------------------------------
_TO_TIP: dict[str, list[int]] = {}


def _to_tip(camp: str) -> list[int]:
    """Hex distance of every hole to the far corner of ``camp``."""
    if camp not in _TO_TIP:
        _TO_TIP[camp] = [distance(h, TIP[camp]) for h in range(NHOLES)]
    return _TO_TIP[camp]


def move_keys(state, seat: int, actions: list) -> list[tuple[int, int]]:
    """How good each move looks to the search: (the drop in distance to the target corner, plus
    2 for leaving home before own move 30 and minus 4 for coming back into it; the distance of
    the marble moved, so that the one farthest behind goes first); a pass is worst."""
    d = _to_tip(state.targets[seat])
    home = _HOMES[state.camps[seat]]
    early = state.moves[seat] < 30
    out = []
    for a in actions:
        path = a.path
        if not path:
            out.append((-99, 0))
            continue
        start, dest = path[0], path[-1]
        gain = d[start] - d[dest]
        if start in home:
            if early and dest not in home:
                gain += 2
        elif dest in home:
            gain -= 4
        out.append((gain, d[start]))
    return out


_HOMES = {name: frozenset(holes) for name, holes in CAMPS.items()}


def race_values(state) -> list[float]:
    """Per-seat values in [0, 1] of an unfinished race: each seat's total hex distance of its
    marbles to its target's far corner, against the mean of the others', through a logistic
    curve (10 steps behind is worth about 0.27)."""
    dist = [0] * state.num_seats
    tips = [_to_tip(t) for t in state.targets]
    for h, o in enumerate(state.board):
        if 0 <= o < state.num_seats:
            dist[o] += tips[o][h]
    n = len(dist)
    return [1 / (1 + math.exp((dist[s] - (sum(dist) - dist[s]) / (n - 1)) / 10)) for s in range(n)]


class ChineseCheckersSearcher(PolicySearcher):
    """Chinese checkers for MCTS (perfect information): a node considers the 12 moves that look
    best by :func:`move_keys`; a playout plays the best-looking move (one move in ten random)
    for 10 plies, then :func:`race_values`."""

    game_id = "chinese-checkers"
    rule_bot = GreedyBot
    max_plies = 10
    width = 12

    def candidates(self, state, seat: int):
        actions = state.legal_actions(seat)
        if len(actions) <= self.width:
            return actions
        keys = move_keys(state, seat, actions)
        order = sorted(range(len(actions)), key=keys.__getitem__, reverse=True)
        return [actions[i] for i in order[:self.width]]

    def policy(self, state, seat: int, rng: random.Random):
        actions = state.legal_actions(seat)
        if rng.random() < self.epsilon:
            return rng.choice(actions)
        keys = move_keys(state, seat, actions)
        return actions[max(range(len(actions)), key=keys.__getitem__)]

    def evaluate(self, state) -> list[float]:
        return race_values(state)


register_searcher(ChineseCheckersSearcher(), GreedyBot)
