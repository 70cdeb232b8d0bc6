"""A 挖坑 match at one table (rule file §5): ``deals_per_match`` deals (20 by default), then one
more deal at a time until one player's total is strictly above both others' (D6); that player
advances, the other two are eliminated.

The competition layer runs the same rule as a ``session`` (``s4_wakeng``: ``end = {deals =
20}``, ``ties = {extra_deals = {eligible = "all"}}``); this class is the game's own statement of
it, for scripts, bots and tests.
"""

from __future__ import annotations

from collections.abc import Sequence

from .game import SEATS, Wakeng


class MatchScore:
    """Running totals of one table. ``add(returns)`` after every deal; ``over`` and ``winner``
    tell when it is decided."""

    def __init__(self, deals: int = 20) -> None:
        if deals < 1:
            raise ValueError("a match has at least one deal")
        self.deals = deals
        self.totals = [0] * SEATS
        self.played = 0

    @classmethod
    def for_game(cls, game: Wakeng) -> MatchScore:
        return cls(game.options["deals_per_match"])

    def add(self, returns: Sequence[int]) -> None:
        """Add one finished deal's returns. Raises ``ValueError`` once the match is over."""
        if self.over:
            raise ValueError("the match is over")
        if len(returns) != SEATS:
            raise ValueError(f"a deal has {SEATS} returns")
        for s, r in enumerate(returns):
            self.totals[s] += r
        self.played += 1

    @property
    def winner(self) -> int | None:
        """The seat that advances: after at least ``deals`` deals, the strict leader."""
        if self.played < self.deals:
            return None
        best = max(self.totals)
        leaders = [s for s in range(SEATS) if self.totals[s] == best]
        return leaders[0] if len(leaders) == 1 else None

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def extra_deals(self) -> int:
        """Deals played beyond ``deals`` (tie-break deals, D6)."""
        return max(0, self.played - self.deals)
