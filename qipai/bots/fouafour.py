"""The 4A4 rule bot. Goes out when one play empties the hand. In a 叉/勾 window it claims unless
the single or 叉 answered is its partner's. Leading: the lowest non-bomb play, the longest
first among plays starting at the same rank (bombs only when nothing else is left). Following:
passes while its partner holds the trick; otherwise the smallest non-bomb play that beats, and
a bomb (the smallest) only when the opponent on top has at most 5 cards left. Reads only
``view(seat)`` and ``legal_actions(seat)``."""

from __future__ import annotations

from typing import Any

from qipai.bots import register_bot


class FouafourRuleBot:
    """See the module docstring. Deterministic; the seed is kept for the bot API."""

    name = "rule"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, state: Any, seat: int) -> Any:
        actions = state.legal_actions(seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        view = state.view(seat)
        passing = next((a for a in actions if str(a) == "pass"), None)
        partner = (seat + 2) % 4
        window = view["window"]
        if window is not None:
            claims = [a for a in actions if a is not passing]
            return claims[0] if claims and window["by"] != partner else passing
        plays = [a for a in actions if a is not passing]
        left = len(view["hand_ranks"])
        for p in plays:
            if p.ncards == left:
                return p
        normal = [p for p in plays if not p.bomb]
        top = view["top"]
        if top is None:
            pool = normal or plays
            return min(pool, key=lambda p: (p.bomb, p.key - p.length + 1, -p.ncards))
        if top["seat"] == partner:
            return passing
        if normal:
            return min(normal, key=lambda p: p.key)
        bombs = [p for p in plays if p.bomb]
        if bombs and view["counts"][top["seat"]] <= 5:
            return min(bombs, key=lambda p: (p.bomb, p.key))
        return passing


register_bot("fouafour", "rule", FouafourRuleBot)
