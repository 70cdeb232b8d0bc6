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

import random

from qipai.bots import register_bot
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
