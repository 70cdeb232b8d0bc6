"""A 4A4 match between two teams (rule file §5, D7): best of three deals, stopping as soon as a
team has won two; after three deals the team with more deal wins advances. Equal wins (0-0 or
1-1): one extra deal; if it is drawn, a second extra deal played with ``first_out_wins`` (the
team of the first player to go out wins it, so it cannot be drawn).

The competition layer runs the same rule as a ``series`` (``s2_4a4``: game points 1 / 0.5 / 0,
early stop, ``max_extra = 2``, ``extra_variant = {2 = "first_out_wins"}``); this class is the
game's own statement of it. Teams are indexed as in the game: 0 = seats 0 and 2, 1 = seats 1
and 3; a deal's outcome is ``Result.details["team"]`` (``None`` for a draw).
"""

from __future__ import annotations

REGULATION = 3


class SeriesScore:
    """Deal outcomes of one match; ``add(team_or_None)`` after each deal."""

    def __init__(self) -> None:
        self.outcomes: list[int | None] = []

    @property
    def wins(self) -> list[int]:
        return [sum(1 for o in self.outcomes if o == t) for t in (0, 1)]

    @property
    def extra(self) -> int:
        """Extra deals played so far."""
        return max(0, len(self.outcomes) - REGULATION)

    def next_options(self) -> dict[str, bool]:
        """The game options of the next deal: ``first_out_wins`` for the second extra deal."""
        return {"first_out_wins": self.extra == 1}

    @property
    def winner(self) -> int | None:
        """The team that advances, or ``None`` while the match goes on."""
        w = self.wins
        played = len(self.outcomes)
        if played <= REGULATION:
            if max(w) >= 2:
                return w.index(max(w))
            if played == REGULATION and w[0] != w[1]:
                return 0 if w[0] > w[1] else 1
            return None
        last = self.outcomes[-1]
        return last                       # an extra deal decides unless drawn

    @property
    def over(self) -> bool:
        return self.winner is not None

    def add(self, team: int | None) -> None:
        """Record a deal won by ``team`` (0 or 1) or drawn (``None``). Raises ``ValueError`` once
        the match is decided, or for a drawn ``first_out_wins`` deal (it cannot be drawn)."""
        if self.over:
            raise ValueError("the match is decided")
        if team not in (0, 1, None):
            raise ValueError(f"a deal is won by team 0 or 1, or drawn (None), not {team!r}")
        if team is None and self.next_options()["first_out_wins"]:
            raise ValueError("the second extra deal cannot be drawn (first_out_wins)")
        self.outcomes.append(team)
