"""The action log of a live game: every input the match runner accepted, and the rebuild.

A live table's :class:`JournalRunner` appends one ``actions`` row (:class:`~.models.ActionRow`)
for each input it handles — a seat's move (also a refused one: it counts toward the illegal
limits), resignation, draw offer, acceptance or decline, a referee's or the storage's pause and
resume, an adjudication — and for each deadline that passes (``expire``: the clock's warning,
period, automatic action, skipped turn or loss follows from it), each stamped with the runner's
table time. The row is appended *before* the runner acts on the input, so every message the
input causes is queued behind it and leaves only once the row is committed (see
:mod:`.store`). An input that changes nothing (a stale or duplicate move) is dropped again.

The runner is deterministic given these inputs and their times, so :func:`replay` rebuilds a
game exactly — position, clocks, warnings, events, refused-submission counts, draw offers — by
handing the same inputs to a fresh runner whose players are silent. After a restart the table
appends a ``restart`` row and :func:`restart_turns` gives every seat whose turn was pending
that turn again from the start, with the allowance it had when the turn began (competition.md
§4.7: time lost in an outage is never charged); warnings and strikes already given stay.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from qipai.match import BotPlayer, Entrust, Player, Reclaim
from qipai.match.players import (
    AcceptDraw,
    AcceptTakeback,
    AddTime,
    Adjudicate,
    DeclineDraw,
    DeclineTakeback,
    Disqualify,
    Forfeit,
    Move,
    OfferDraw,
    Pause,
    ProposeTakeback,
    RefereeNote,
    Resign,
    Resume,
)
from qipai.match.runner import GameRunner

#: the clock parts that make a seat's allowance for a turn (restored by :func:`restart_turns`)
ALLOWANCE = ("bank_left", "periods_left", "canadian_moves_left", "canadian_time_left", "cap_off")

_SIMPLE = {Resign: "resign", OfferDraw: "draw_offer", AcceptDraw: "draw_accept",
           DeclineDraw: "draw_decline", Reclaim: "reclaim",
           Entrust: "entrust", ProposeTakeback: "takeback_offer", AcceptTakeback: "takeback_accept",
           DeclineTakeback: "takeback_decline"}
_BY_KIND = {v: k for k, v in _SIMPLE.items()}


def encode(msg: Any) -> tuple[str, str | None, dict[str, Any] | None]:
    """``(kind, action, data)`` of a runner input (see :class:`~.models.ActionRow`)."""
    if isinstance(msg, Move):
        data: dict[str, Any] = {"turn": msg.turn}
        if msg.offer_draw:
            data["offer_draw"] = True
        if msg.ahead:
            data["ahead"] = True
        return "move", str(msg.action), data
    if isinstance(msg, Adjudicate):
        return "adjudicate", msg.text, {"reason": msg.reason, "by": msg.by, "why": msg.why}
    if isinstance(msg, Pause):
        return "pause", None, {"reason": msg.reason, "by": msg.by}
    if isinstance(msg, Resume):
        return "resume", None, {"by": msg.by, "reason": msg.reason}
    if isinstance(msg, AddTime):
        return "add_time", None, {"seat": msg.seat, "ms": msg.ms, "by": msg.by, "reason": msg.reason}
    if isinstance(msg, Disqualify):
        return "disqualify", None, {"seat": msg.seat, "by": msg.by, "reason": msg.reason}
    if isinstance(msg, Forfeit):
        return "forfeit", msg.why, None
    if isinstance(msg, RefereeNote):
        return "note", msg.kind, {"seat": msg.seat, "by": msg.by, "reason": msg.reason,
                                  "data": dict(msg.data)}
    kind = _SIMPLE.get(type(msg))
    return (kind, None, None) if kind else ("other", repr(msg)[:200], None)


def decode(kind: str, action: str | None, data: dict[str, Any] | None) -> Any:
    """The runner input of a logged row (the inverse of :func:`encode`)."""
    data = data or {}
    if kind == "move":
        return Move(action, offer_draw=bool(data.get("offer_draw")), turn=data.get("turn"),
                    ahead=bool(data.get("ahead")))
    if kind == "adjudicate":
        return Adjudicate(action or "", data.get("reason", "adjudication"), data.get("by", ""),
                          data.get("why", ""))
    if kind == "pause":
        return Pause(data.get("reason", ""), data.get("by", ""))
    if kind == "resume":
        return Resume(data.get("by", ""), data.get("reason", ""))
    if kind == "add_time":
        return AddTime(int(data["seat"]), int(data["ms"]), data.get("by", ""), data.get("reason", ""))
    if kind == "disqualify":
        return Disqualify(int(data["seat"]), data.get("by", ""), data.get("reason", ""))
    if kind == "forfeit":
        return Forfeit(action or "engine_failed")
    if kind == "note":
        return RefereeNote(action or "", data.get("seat"), data.get("by", ""), data.get("reason", ""),
                           tuple(sorted((data.get("data") or {}).items())))
    if kind in _BY_KIND:
        return _BY_KIND[kind]()
    return None


class JournalRunner(GameRunner):
    """The match runner of a live table: logs each input before handling it (``log`` is
    ``table.journal``), tells the table after every change, and remembers each seat's
    allowance at the start of its turn. While ``replaying`` it neither logs nor tells."""

    table: Any

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.replaying = False
        self.turn_start: list[dict[str, Any]] = [{} for _ in self.clocks]
        self._depth = 0

    def _mark(self) -> tuple[Any, ...]:
        # a window answer held for its minimum time (GameRunner private_hold) changes _held only,
        # a declaration sent ahead during the deal _ahead only
        return (len(self.state.log), len(self.events), self._turn_counter, tuple(self.illegal),
                self._offer, len(self._held_offer), self.paused_at, self.state.is_terminal(),
                tuple(self._cooldown), len(self._held), self._takeback, len(self.times),
                tuple(sorted(self._ahead.items())))

    def _handle(self, seat: int | None, msg: Any, t: int) -> None:
        if self.replaying:
            return super()._handle(seat, msg, t)
        kind, action, data = encode(msg)
        entry = self.table.journal(kind, seat, action, t, data)
        if kind == "move" and seat is not None:
            self.table.before_move(seat, action)
        before, n, offer = self._mark(), len(self.state.log), (self._offer, self._takeback)
        super()._handle(seat, msg, t)
        if self._mark() == before:
            self.table.unjournal(entry)          # nothing happened: nothing to keep
        elif (self._offer, self._takeback) != offer:
            # an offer opened (it may go out with the offerer's move, after that move's state) or
            # closed: every state message carries the open offer, so send them again
            self.table.changed()
        elif kind == "move" and len(self.state.log) > n:
            applied = self.state.log[n]          # the canonical text the state logged
            entry.op["action"] = applied if isinstance(applied, str) else applied[1]
        return None

    def _expire(self, seat: int, dl: int) -> None:
        if not self.replaying:
            self.table.journal("expire", seat, None, dl, None)
        super()._expire(seat, dl)

    def _sync_turns(self, t: int, acted: int | None) -> None:
        was = [c.running for c in self.clocks]
        self._depth += 1               # answers the runner makes for seats (4A4 windows) sync inside
        try:
            super()._sync_turns(t, acted)
        finally:
            self._depth -= 1
        for s, c in enumerate(self.clocks):
            if c.running and not was[s]:
                self.turn_start[s] = {k: getattr(c, k) for k in ALLOWANCE}
        if not self.replaying and not self._depth:     # one message per change
            self.table.changed()

    def _answered(self, seat: int) -> None:
        # an answer held until the window's minimum time: its seat alone learns its turn is over
        if not self.replaying:
            self.table.send_state(seat)

    def announce(self, event: dict[str, Any]) -> None:
        """Every seat, and the table's spectators, are told of a table event."""
        super().announce(event)
        if not self.replaying:
            self.table.send_spectators(json.dumps({"type": "event", "event": event},
                                                  ensure_ascii=False, separators=(",", ":")))


    def pause(self, t: int, reason: str = "", by: str = "") -> None:
        super().pause(t, reason, by)
        if not self.replaying:
            self.table.changed()                 # the clocks stop

    def add_time(self, t: int, msg: Any) -> None:
        super().add_time(t, msg)
        if not self.replaying:
            self.table.changed()                 # the seat's clock changed

    def resume(self, t: int, by: str = "", reason: str = "") -> None:
        """End a pause (every seat gets the shifted deadlines); a bot whose answer was refused
        during it is asked again."""
        was_paused = self.paused_at is not None
        super().resume(t, by, reason)
        if was_paused and not self.replaying:
            self.table.changed()
            for s, turn in enumerate(self._turn):
                if turn and self.clocks[s].running and (isinstance(self.players[s], BotPlayer)
                                                        or getattr(self.players[s], "automatic", False)):
                    self.players[s].on_turn(self, s, turn)


class Silent(Player):
    """A seat's stand-in while a game is replayed: told nothing, answers nothing."""


def replay(runner: JournalRunner, rows: Iterable[tuple[str, int | None, str | None, int, Any]],
           restore: Callable[[JournalRunner, dict[str, Any]], None]) -> None:
    """Hand the logged inputs ``(kind, seat, action, t, data)`` to ``runner`` again, in order,
    with silent players (its own players are put back afterwards). ``restore`` loads a
    ``snapshot`` row (a game saved by an older version)."""
    players = runner.players
    runner.players = [Silent() for _ in players]
    runner.replaying = True
    try:
        for kind, seat, action, t, data in rows:
            if kind == "start":
                runner.start_time, runner.begun = t, True
                runner._sync_turns(t, acted=None)
            elif kind == "snapshot":
                restore(runner, data)
            elif kind == "expire":
                runner._expire(seat, t)
            elif kind == "restart":
                restart_turns(runner, t)
            else:
                msg = decode(kind, action, data)
                if msg is not None:
                    runner._handle(seat, msg, t)
    finally:
        runner.players = players
        runner.replaying = False


def restart_turns(runner: JournalRunner, t: int) -> None:
    """The server came back at table time ``t`` (§4.7): each pending turn starts again at ``t``
    with the allowance its seat had when that turn began; a referee pause in force goes on
    from ``t``. The decision numbers stay, so answers to them are still valid."""
    if runner.paused_at is not None:
        runner.paused_ms += max(0, t - runner.paused_at)
        runner.paused_at = t
    for s, c in enumerate(runner.clocks):
        if not c.running:
            continue
        for k, v in runner.turn_start[s].items():
            setattr(c, k, v)
        c.t0 = None
        hook = getattr(runner.state, "clock_phase", None)
        c.start_turn(t, hook(s) if callable(hook) else None)
    runner.note(None, {"type": "resumed"})
