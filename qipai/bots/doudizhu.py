"""The doudizhu rule bot: bids by a simple hand count, then plays the smallest combination that
beats the play on the table, keeps its bombs (and the rocket) unless they finish the hand or
nothing else is left, and never beats its partner's play. Reads only ``view(seat)`` and
``legal_actions(seat)``."""

from __future__ import annotations

from typing import Any

from qipai.bots import register_bot


def hand_strength(ranks: str) -> int:
    """A crude count: big joker 4, small joker 3, each 2 two points, each A one point, each bomb 4."""
    score = 4 * ranks.count("B") + 3 * ranks.count("L") + 2 * ranks.count("2") + ranks.count("A")
    score += 4 * sum(1 for r in set(ranks) if ranks.count(r) == 4)
    return score


class DoudizhuRuleBot:
    """Smallest beating combination, bombs kept; see the module docstring."""

    name = "rule"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed                 # the rule bot is deterministic; the seed is kept for the API

    def choose(self, state: Any, seat: int) -> Any:
        view = state.view(seat)
        actions = state.legal_actions(seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        if view["phase"] == "bidding":
            return self._bid(view, actions)
        return self._play(view, seat, actions)

    def _bid(self, view: dict, actions: list) -> Any:
        strength = hand_strength(view["hand_ranks"])
        texts = {str(a): a for a in actions}
        if "call" in texts:
            return texts["call"] if strength >= 7 else texts["pass"]
        want = 3 if strength >= 10 else 2 if strength >= 7 else 1 if strength >= 4 else 0
        best = max((a for a in actions if getattr(a, "value", 0) and a.value <= want),
                   key=lambda a: a.value, default=None)
        return best if best is not None else texts["pass"]

    def _play(self, view: dict, seat: int, actions: list) -> Any:
        plays = [a for a in actions if str(a) != "pass"]
        can_pass = len(plays) < len(actions)
        remaining = len(view["hand_ranks"])
        finishing = [p for p in plays if p.ncards == remaining]
        if finishing:
            return finishing[0]
        top = view["top"]
        lord = view["landlord"]
        if can_pass and top is not None and seat != lord and top["seat"] != lord:
            return next(a for a in actions if str(a) == "pass")       # partner is winning
        normal = [p for p in plays if not p.is_bomb]
        if normal:
            if top is None:
                return min(normal, key=lambda p: (p.key, -p.ncards, p.counts[::-1]))
            return min(normal, key=lambda p: (p.key, p.counts[::-1]))
        if can_pass:
            return next(a for a in actions if str(a) == "pass")
        return min(plays, key=lambda p: (p.type == "rocket", p.key))


register_bot("doudizhu", "rule", DoudizhuRuleBot)
