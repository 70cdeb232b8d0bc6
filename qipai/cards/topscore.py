"""A table match decided by the top running score (挖坑, 三打一, ...): a fixed number of deals,
then one more deal at a time while several seats share the top total."""

from __future__ import annotations

from collections.abc import Sequence


class TopScoreMatch:
    """Running totals of ``seats`` seats over at least ``deals`` deals. ``add(returns)`` after
    every deal; ``winner`` is the seat alone on top once ``deals`` deals are played."""

    def __init__(self, seats: int, deals: int) -> None:
        if deals < 1 or seats < 2:
            raise ValueError("a match has at least one deal and two seats")
        self.seats = seats
        self.deals = deals
        self.totals = [0] * seats
        self.played = 0

    def add(self, returns: Sequence[int]) -> None:
        """Add one finished deal's per-seat ``returns``. Raises ``ValueError`` once the match is
        over or for a wrong number of returns."""
        if self.over:
            raise ValueError("the match is over")
        if len(returns) != self.seats:
            raise ValueError(f"a deal has {self.seats} returns")
        for s, r in enumerate(returns):
            self.totals[s] += int(r)
        self.played += 1

    @property
    def winner(self) -> int | None:
        """The seat alone on top after at least ``deals`` deals, else ``None``."""
        if self.played < self.deals:
            return None
        best = max(self.totals)
        leaders = [s for s in range(self.seats) if self.totals[s] == best]
        return leaders[0] if len(leaders) == 1 else None

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def extra(self) -> int:
        """Deals played beyond ``deals`` (tie-break deals)."""
        return max(0, self.played - self.deals)
