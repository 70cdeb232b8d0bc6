"""A 保皇 match at one table of five (``rules/baohuang.md`` §5, D11).

The match is a run of deals between the same five seats. Each deal after the first starts with
the tribute owed from the previous completed deal (§4.4): :meth:`Match.next_state` passes the
previous deal's ``Result.details["tribute_basis"]`` to ``new_state`` as
``deal={"previous": basis}``. A deal that ended without a basis (agreed draw, a forfeit before
the guard was named) owes no tribute.

Length: ``deals_per_match`` completed deals when that option is set; otherwise the organizer's
clock (``time_limit_min``): :meth:`MatchScore.time_up` marks the deal in progress as the last.
Either way a shared top total plays on, one deal at a time, until exactly one seat leads.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .game import SEATS, Baohuang, BaohuangState


class MatchScore:
    """Running totals of a match (individual deal scores, §4.3)."""

    def __init__(self, deals: int | None = None, time_limit_min: int = 90, seats: int = SEATS) -> None:
        self.deals = deals
        self.time_limit_min = time_limit_min
        self.totals = [0] * seats
        self.played = 0
        self.clock_expired = False

    def add(self, returns: Sequence[int]) -> None:
        """Add one completed deal's returns."""
        for s, r in enumerate(returns):
            self.totals[s] += r
        self.played += 1

    def time_up(self) -> None:
        """The match clock ran out: the deal in progress is the last one unless the top is shared."""
        self.clock_expired = True

    def elapsed(self, minutes: float) -> bool:
        """Tell the match how long it has run; at ``time_limit_min`` the clock has run out (no new
        deal starts; ignored when ``deals_per_match`` fixes the length). Returns whether it has."""
        if self.deals is None and minutes >= self.time_limit_min:
            self.time_up()
        return self.clock_expired

    def leader(self) -> int | None:
        """The seat with the strictly highest total, or ``None`` when the top is shared."""
        best = max(self.totals)
        top = [s for s, t in enumerate(self.totals) if t == best]
        return top[0] if len(top) == 1 else None

    def winner(self) -> int | None:
        """The match winner once the match is over, else ``None``."""
        over = self.played >= self.deals if self.deals is not None else self.clock_expired
        return self.leader() if over and self.played else None

    def standings(self) -> list[int]:
        """Seats from the highest total to the lowest (ties keep seat order)."""
        return sorted(range(len(self.totals)), key=lambda s: -self.totals[s])


class Match:
    """Deals of one match; deal ``i`` is seeded ``f"{seed}/{i}"`` and carries the tribute."""

    def __init__(self, game: Baohuang, seed: int | str) -> None:
        self.game = game
        self.seed = seed
        self.score = MatchScore(game.options["deals_per_match"], game.options["time_limit_min"])
        self.states: list[BaohuangState] = []

    def basis(self) -> dict[str, Any] | None:
        """The tribute basis of the last finished deal (``None`` before the first or after a
        deal that owes none)."""
        if not self.states or self.states[-1].result is None:
            return None
        return self.states[-1].result.details.get("tribute_basis")

    def next_state(self) -> BaohuangState:
        basis = self.basis()
        deal = {"previous": basis} if basis is not None else None
        state = self.game.new_state(seed=f"{self.seed}/{len(self.states)}", deal=deal)
        self.states.append(state)
        return state

    def record(self, state: BaohuangState) -> int | None:
        """Score a finished deal; returns the match winner once decided."""
        self.score.add(state.returns())
        return self.score.winner()
