"""Match scoring over several doudizhu deals (rule file §5).

* ``first_to_100`` (seed 000, D7): after each completed deal, a player with at least +100 and
  strictly more than each other player wins. When the match clock expires (:meth:`MatchScore.time_up`)
  the deal in progress is finished and the strict leader wins; a shared lead plays on, one deal
  at a time.
* ``five_deals`` (seed 002, D8): after 5 non-void deals the strict leader advances; a shared lead
  plays one more deal at a time.
* ``fixed_n`` (D9): the same after ``match_deals`` deals (default 10).

Void deals never reach the match: a redeal happens inside the deal's state; under
``no_bid = "end"`` the scoreless deal is ignored here.
"""

from __future__ import annotations

from collections.abc import Sequence

from qipai.core.rng import DealRng

from .game import Doudizhu, DoudizhuState, draw_deal

EVENT_POINTS = {1: 5, 2: 3}     # seed 002: champion 5, runner-up 3, every other entrant 1


def event_points(place: int) -> int:
    """Seed 002's event points for a final place (1 = champion)."""
    return EVENT_POINTS.get(place, 1)


class MatchScore:
    """Running totals of a match. ``kind`` is the game's ``match`` option."""

    def __init__(self, kind: str = "first_to_100", deals: int = 10, target: int = 100,
                 seats: int = 3) -> None:
        if kind not in ("first_to_100", "five_deals", "fixed_n"):
            raise ValueError(f"unknown match kind {kind!r}")
        self.kind = kind
        self.deals = 5 if kind == "five_deals" else deals
        self.target = target
        self.totals = [0] * seats
        self.played = 0
        self.clock_expired = False

    @classmethod
    def for_game(cls, game: Doudizhu) -> MatchScore:
        return cls(game.options["match"], game.options["match_deals"])

    def add(self, returns: Sequence[int]) -> None:
        """Add one finished deal's returns (a scoreless void deal is not counted)."""
        if not any(returns):
            return
        for s, r in enumerate(returns):
            self.totals[s] += r
        self.played += 1

    def time_up(self) -> None:
        """The match clock expired (first_to_100): the current deal is the last unless tied."""
        self.clock_expired = True

    def _strict_leader(self) -> int | None:
        best = max(self.totals)
        leaders = [s for s, t in enumerate(self.totals) if t == best]
        return leaders[0] if len(leaders) == 1 else None

    def winner(self) -> int | None:
        """The seat that has won the match, or ``None`` while it goes on."""
        leader = self._strict_leader()
        if self.kind == "first_to_100":
            if leader is not None and (self.totals[leader] >= self.target or self.clock_expired):
                return leader
            return None
        if self.played >= self.deals:
            return leader
        return None

    def standings(self) -> list[int]:
        """Seats from highest to lowest total (ties keep seat order)."""
        return sorted(range(len(self.totals)), key=lambda s: -self.totals[s])


class Match:
    """Deals of one match with the first-bidder rotation of §2.4 (classic: by lot for the first
    deal, then the seat after the previous deal's first bidder, redeals included)."""

    def __init__(self, game: Doudizhu, seed: int | str) -> None:
        self.game = game
        self.seed = seed
        self.score = MatchScore.for_game(game)
        self.states: list[DoudizhuState] = []

    def next_state(self) -> DoudizhuState:
        prev = self.states[-1].first_bidder if self.states else None
        rng = DealRng(f"{self.seed}/{len(self.states)}")
        state = self.game.new_state(deal=draw_deal(rng, self.game.options["deal"], prev))
        self.states.append(state)
        return state

    def record(self, state: DoudizhuState) -> int | None:
        """Score a finished deal; returns the match winner if decided."""
        self.score.add(state.returns())
        return self.score.winner()
