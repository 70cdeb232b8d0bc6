"""The 挖坑 rule bot. Bidding: a hand count (each 3 three points, each 2 two, each A one, each
four-of-a-kind two) bids 3 from 11, 2 from 8, 1 from 5, never below what is already bid.
Play: go out when one play empties the hand; otherwise lead the lowest straight or group of the
lowest rank held (longest straight first), follow with the smallest beating play, and do not
beat a partner (the other opponent of the digger). Reads only ``view(seat)`` and
``legal_actions(seat)``."""

from __future__ import annotations

from typing import Any

from qipai.bots import register_bot


def hand_strength(ranks: str) -> int:
    """Points of a rank string: 3 -> 3, 2 -> 2, A -> 1, and 2 per rank held four times."""
    score = 3 * ranks.count("3") + 2 * ranks.count("2") + ranks.count("A")
    return score + 2 * sum(1 for r in set(ranks) if ranks.count(r) == 4)


class WakengRuleBot:
    """See the module docstring. Deterministic; the seed is kept for the bot API."""

    name = "rule"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, state: Any, seat: int) -> Any:
        actions = state.legal_actions(seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        view = state.view(seat)
        if view["phase"] == "bidding":
            strength = hand_strength(view["hand_ranks"])
            want = 3 if strength >= 11 else 2 if strength >= 8 else 1 if strength >= 5 else 0
            bids = [a for a in actions if getattr(a, "value", 0) and a.value <= want]
            return max(bids, key=lambda a: a.value) if bids else actions[0]
        plays = [a for a in actions if str(a) != "pass"]
        passing = [a for a in actions if str(a) == "pass"]
        left = len(view["hand_ranks"])
        for p in plays:
            if p.ncards == left:
                return p
        top = view["top"]
        digger = view["digger"]
        if top is None:
            return min(plays, key=lambda p: (p.key - p.length + 1, -p.ncards))
        if passing and seat != digger and top["seat"] != digger:
            return passing[0]                   # the partner holds the trick
        if plays:
            return min(plays, key=lambda p: p.key)
        return passing[0]


register_bot("wakeng", "rule", WakengRuleBot)
