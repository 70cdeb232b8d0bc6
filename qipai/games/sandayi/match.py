"""A 三打一 match at one table (rules/sandayi.md §5): ``hands`` counted hands (20 by default;
redealt all-pass deals are inside a hand and never count), then one more hand at a time until
exactly one seat has the top score.

The next hand's first bidder is the previous dealer (§2.3): start it with
``new_state(seed=..., deal={"first_bidder": result.details["next_first_bidder"]})``;
:meth:`MatchScore.next_deal` gives that object. The competition layer can run the same rule as
a score session (``end = {deals = 20}``, ``ties = {extra_deals = {eligible = "all"}}``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from qipai.cards.topscore import TopScoreMatch

from .game import SEATS, Sandayi


class MatchScore(TopScoreMatch):
    """Running match scores of one table (they start at 0 and may be negative); ``hands`` is the
    match length, ``dealer`` the last hand's dealer."""

    def __init__(self, hands: int = 20) -> None:
        super().__init__(SEATS, hands)
        self.hands = hands
        self.dealer: int | None = None

    @classmethod
    def for_game(cls, game: Sandayi) -> MatchScore:
        return cls(game.options["hands"])

    def add(self, returns: Sequence[int], dealer: int | None = None) -> None:
        """Add one finished hand's ``returns`` (and its ``dealer``, the next first bidder).
        Raises ``ValueError`` once the match is over or for a wrong number of returns."""
        super().add(returns)
        self.dealer = dealer

    def next_deal(self) -> dict[str, Any] | None:
        """The ``deal`` argument of the next hand: ``None`` for hand 1 (first bidder by 3D),
        else ``{"first_bidder": previous dealer}``."""
        return None if self.dealer is None else {"first_bidder": self.dealer}

    @property
    def extra_hands(self) -> int:
        """Hands played beyond ``hands`` (sudden-death tie-break hands)."""
        return self.extra


def play_match(game: Sandayi, choose: Any, seed: int | str = 0, limit: int = 200) -> MatchScore:
    """Play a whole match with ``choose(state, seat) -> action`` for every seat, hand ``k`` dealt
    from seed ``f"{seed}:{k}"``. Stops after ``limit`` hands (raises ``RuntimeError`` if still
    tied then)."""
    score = MatchScore.for_game(game)
    while not score.over:
        if score.played >= limit:
            raise RuntimeError(f"match still tied after {limit} hands")
        state = game.new_state(seed=f"{seed}:{score.played}", deal=score.next_deal())
        while not state.is_terminal():
            seat = state.current_player
            state.apply(choose(state, seat), seat)
        score.add(state.returns(), state.result.details["next_first_bidder"])
    return score
