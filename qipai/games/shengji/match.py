"""A match of 升级: hands chained by their results (rules/shengji.md §4.5, §4.6, §5).

:class:`Match` keeps both teams' levels, the next dealer and each team's attacking totals, builds
each hand's state with that context (options ``team0_level``, ``team1_level``, ``dealer``), and
decides the winner: a team meeting ``target`` after a hand, or at time-out (:meth:`Match.time_up`,
the hand in progress is finished first) the higher level, ties by ``timeout_tiebreak``
(``dealer_team``: the team on stage for the next hand; ``attack_points``: the larger sum of its S
over the hands it attacked, then the team on stage). Referee-entered count errors (s000: three
disqualify) and follow errors (s002: three lose the match) are counted over the match.
"""

from __future__ import annotations

from typing import Any

import qipai

from .state import ShengjiState, team_of

HAND_OPTIONS = ("team0_level", "team1_level", "dealer")


class Match:
    """One match. ``options`` are the game options (profile and overrides) without the hand
    context; ``seed`` seeds every hand (hand k uses ``f"{seed}/{k}"``)."""

    def __init__(self, seed: int | str, **options: Any) -> None:
        bad = [k for k in options if k in HAND_OPTIONS]
        if bad:
            raise ValueError(f"{bad[0]!r} is set by the match, not given")
        self.seed = seed
        self.options = options
        game = qipai.load("shengji", **options)
        self.rules = game.options
        start = self.rules["start_level"]
        self.levels = [start, start]
        self.dealer: int | None = None
        self.hands: list[ShengjiState] = []
        self.attack_sums = [0, 0]
        self.count_errors = [0, 0]
        self.follow_errors = [0, 0]
        self.clock_expired = False
        self.minutes = 0.0
        self.winner: int | None = None
        self.reason = ""

    def next_state(self) -> ShengjiState:
        """The next hand's state, dealt from the match seed. Raises ``RuntimeError`` when the
        match is over."""
        if self.winner is not None:
            raise RuntimeError("the match is over")
        game = qipai.load("shengji", **self.options, team0_level=self.levels[0],
                          team1_level=self.levels[1], dealer=self.dealer)
        state = game.new_state(seed=f"{self.seed}/{len(self.hands)}")
        self.hands.append(state)
        return state

    def record(self, state: ShengjiState) -> int | None:
        """Apply a finished hand; returns the winning team (0 = seats 0+2, 1 = seats 1+3) once
        the match is decided, else ``None``."""
        d = state.result.details
        if "forfeit_team" in d:
            return self._decide(1 - d["forfeit_team"], "forfeit")
        self.levels = list(d["levels"])
        self.dealer = d["next_dealer"]
        self.attack_sums[d["attackers"]] += d["attack_total"]
        for t in (0, 1):
            self.count_errors[t] += d["count_errors"][t]
            self.follow_errors[t] += d["follow_errors"][t]
        for t in (0, 1):
            if self.rules["sanctions"] == "s000" and self.count_errors[t] >= 3:
                return self._decide(1 - t, "count_errors")
            if self.rules["sanctions"] == "s002" and self.follow_errors[t] >= 3:
                return self._decide(1 - t, "follow_errors")
        if d["match_winner"] is not None:
            return self._decide(d["match_winner"], "target")
        if self.clock_expired:
            return self._decide(self._timeout_winner(), "time")
        return None

    def time_up(self) -> None:
        """The match clock expired (§5.2): the hand in progress is the last one."""
        self.clock_expired = True
        if self.hands and not self.hands[-1].is_terminal():
            return
        if self.hands and self.winner is None:
            self._decide(self._timeout_winner(), "time")

    def elapsed(self, minutes: float) -> None:
        """Add ``minutes`` of match time; past ``time_limit_min`` the clock has expired."""
        self.minutes += minutes
        if self.minutes >= self.rules["time_limit_min"] and not self.clock_expired:
            self.time_up()

    def on_stage(self) -> int:
        """The team that deals the next hand (台上)."""
        return team_of(self.dealer) if self.dealer is not None else 0

    def _timeout_winner(self) -> int:
        a, b = self.levels
        if a != b:
            return 0 if a > b else 1
        if self.rules["timeout_tiebreak"] == "attack_points" and self.attack_sums[0] != self.attack_sums[1]:
            return 0 if self.attack_sums[0] > self.attack_sums[1] else 1
        return self.on_stage()

    def _decide(self, team: int, reason: str) -> int:
        self.winner, self.reason = team, reason
        return team

    def play(self, bots: list[Any], max_hands: int = 200) -> int | None:
        """Play hands with ``bots`` (one per seat, ``choose(state, seat)``) until the match is
        decided or ``max_hands`` hands are played; returns the winning team or ``None``."""
        for _ in range(max_hands):
            state = self.next_state()
            while not state.is_terminal():
                seat = state.current_player
                state.apply(bots[seat].choose(state, seat), seat)
            if self.record(state) is not None:
                return self.winner
        return None
