"""Guobiao mahjong bot ``fast``: wins when it can, otherwise discards toward the fastest hand.

Reads only ``state.view(seat)`` and ``state.legal_actions(seat)``. A discard is chosen by
(1) keeping the most winning tiles when one discard leaves the hand ready (tenpai), else
(2) throwing the least connected tile: pairs and pungs, neighbours within one or two ranks
count for a tile; isolated honors and terminals go first. Claims other than a win are passed,
concealed kongs are declared (they cost nothing). Deterministic except for seeded tie-breaks.
"""

from __future__ import annotations

import random

from qipai.bots import register_bot
from qipai.tiles.shapes import waits
from qipai.tiles.tile import NUM_KINDS, parse_tiles


def _value(c: list[int], t: int) -> float:
    v = 0.0
    n = c[t]
    if n >= 2:
        v += 4 + 2 * (n - 2)
    if t < 27:
        r = t % 9
        for d, w in ((1, 2.0), (2, 1.0)):
            if r - d >= 0 and c[t - d]:
                v += w
            if r + d <= 8 and c[t + d]:
                v += w
        if r in (0, 8):
            v -= 0.3
    else:
        v -= 0.5
    return v


def choose_discard(counts: list[int], options: list[int], rng: random.Random) -> int:
    """The discard (a kind in ``options``) that leaves the best hand of ``counts``."""
    best = None
    best_key = None
    for t in options:
        counts[t] -= 1
        w = waits(counts)
        live = sum(4 - counts[k] for k in w)
        key = (1 if w else 0, live, -_value(counts, t) if not w else 0, rng.random())
        counts[t] += 1
        if best_key is None or key > best_key:
            best, best_key = t, key
    return best


class FastBot:
    name = "fast"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state, seat: int):
        actions = state.legal_actions(seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        for a in actions:
            if a.kind == "win":
                return a
        kongs = [a for a in actions if a.kind == "kong" and a.tile is not None]
        if kongs:
            return kongs[0]
        discards = [a for a in actions if a.kind == "discard"]
        if not discards:
            return next(a for a in actions if a.kind == "pass")
        view = state.view(seat)
        counts = [0] * NUM_KINDS
        for t in parse_tiles(view["seats"][seat]["hand"]):
            counts[t] += 1
        t = choose_discard(counts, [a.tile for a in discards], self.rng)
        return next(a for a in discards if a.tile == t)


register_bot("mahjong-gb", "fast", FastBot)
register_bot("mahjong-gb", "greedy", FastBot)
