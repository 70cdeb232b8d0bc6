"""Trusteeship (托管) a player asks for and takes back (competition.md §4.6): ``Entrust`` and
``Reclaim`` at a :class:`~.runner.GameRunner`.
"""

from __future__ import annotations

from qipai.core.game import State

#: ms after a seat's own request for trusteeship (托管) before it may ask again: every request
#: and every taking back is announced to the table, so a seat toggling it would flood the others.
#: Taking the seat back (``Reclaim``, or acting) is never delayed.
ENTRUST_COOLDOWN_MS = 30_000


class Trusteeship:
    """A seat's own requests for trusteeship and its taking the seat back."""

    def _reclaim(self, seat: int, t: int) -> None:
        """The player takes its seat back from trusteeship (§4.6 "resume"). A decision already
        pending is the player's again, timed by its normal deadline (the time used so far in
        it counts). Absent, conceded and disqualified seats cannot leave trusteeship."""
        clock = self.clocks[seat]
        if not clock.trusteeship:
            return self._reply_error(seat, "this seat is not in trusteeship", "not_in_trusteeship")
        self._end_trusteeship(seat, t, "resume")

    def _entrust(self, seat: int, t: int) -> None:
        """The player asks for trusteeship (托管): from now on its decisions are taken by the
        game's default action after ``trustee_delay`` (a decision already pending too), until
        it acts or sends ``Reclaim``. Refused (``trusteeship_unavailable``) in games without a
        default action, where a timeout loses (board games), and (``trusteeship_cooldown``,
        params ``retry_after`` s and ``seconds``) within :data:`ENTRUST_COOLDOWN_MS` of the
        seat's previous request."""
        if type(self.state).default_action is State.default_action:
            return self._reply_error(seat, "this game has no default action to play for a seat",
                                     "trusteeship_unavailable")
        clock = self.clocks[seat]
        if clock.trusteeship:
            return self._reply_error(seat, "this seat is already in trusteeship", "already_in_trusteeship")
        last = self._entrusted_at[seat]
        if last is not None and t - last < ENTRUST_COOLDOWN_MS:
            wait = (last + ENTRUST_COOLDOWN_MS - t) / 1000
            return self._reply_error(seat, f"wait {wait:.0f} s before asking for trusteeship again",
                                     "trusteeship_cooldown",
                                     {"retry_after": round(wait, 2), "seconds": max(1, round(wait))})
        self._entrusted_at[seat] = t
        clock.trusteeship = True
        self._tell(seat, {"t": t, "seat": seat, "type": "trusteeship", "on": True, "why": "request"},
                   record=True)

    def _end_trusteeship(self, seat: int, t: int, why: str) -> None:
        self.clocks[seat].trusteeship = False
        self.clocks[seat].consecutive_timeouts = 0
        self._tell(seat, {"t": t, "seat": seat, "type": "trusteeship", "on": False, "why": why},
                   record=True)
