"""A referee's acts on a running game (competition.md §4.7, §5.7): pause and resume (the clocks
freeze and the pause is not charged), added time, disqualification.
"""

from __future__ import annotations

from qipai.core.game import State

from .players import AddTime, Disqualify


class RefereeActs:
    """The referee's acts on a :class:`~.runner.GameRunner` (they come as seat None's messages)."""

    def pause(self, t: int, reason: str = "", by: str = "") -> None:
        """Referee pause at ``t``: clocks freeze (see :meth:`resume`). A second pause is ignored."""
        if self.paused_at is not None:
            return
        self.paused_at = t
        self.note(None, {"type": "pause", **({"reason": reason} if reason else {}),
                         **({"by": by} if by else {})})

    def add_time(self, t: int, msg: AddTime) -> None:
        """A referee's added time (:class:`AddTime`): announced with where it went; nothing
        happens (and nothing is announced) when the seat's clock has nothing to add to."""
        if not 0 <= msg.seat < len(self.clocks) or self.state.is_terminal():
            return
        clock = self.clocks[msg.seat]
        if clock.running and self.paused_at is None:
            dl = clock.deadline()
            if dl is not None and t > dl:
                return                       # too late: the deadline has passed
        where = clock.add_time(msg.ms)
        if where is None:
            return
        self.note(msg.seat, {"type": "time_added", "ms": msg.ms, "to": where,
                             **({"by": msg.by} if msg.by else {}),
                             **({"reason": msg.reason} if msg.reason else {})})

    def disqualify(self, t: int, msg: Disqualify) -> None:
        """See :class:`Disqualify`."""
        seat = msg.seat
        if not 0 <= seat < len(self.clocks) or self.state.is_terminal():
            return
        card = type(self.state).default_action is not State.default_action
        self.note(seat, {"type": "disqualified", "effect": "trusteeship" if card else "loss",
                         **({"by": msg.by} if msg.by else {}),
                         **({"reason": msg.reason} if msg.reason else {})})
        if card:
            self.absent.add(seat)
            self.clocks[seat].trusteeship = True
            return
        if self.clocks[seat].running:
            self.clocks[seat].cancel_turn(t)
        self._turn[seat] = 0
        self._lose(seat, "disqualification", t)

    def resume(self, t: int, by: str = "", reason: str = "") -> None:
        """End the referee pause at ``t``: every running turn's T0 (and cap and period starts)
        moves by the pause length, so no seat is charged for it (§4.7)."""
        if self.paused_at is None:
            return
        length = t - self.paused_at
        for c in self.clocks:
            c.shift(length)
        if self._private_since is not None:
            self._private_since += length
        self.paused_ms += length
        self.paused_at = None
        self.note(None, {"type": "resume", "paused": length, **({"by": by} if by else {}),
                         **({"reason": reason} if reason else {})})
