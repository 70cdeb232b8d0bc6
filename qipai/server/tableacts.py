"""A referee's acts on a live table (competition.md §5.7): ``pause`` / ``resume`` (one table, or
the whole round on every worker: :mod:`.roundacts`), ``add_time``, ``adjudicate`` and ``void``
(the game seated again at a new table). Each is an input of the table's match runner and is
recorded by :meth:`~.referee.Referees._record` (or passed to the event's operation as its
:class:`~qipai.competition.acts.Act`). A part of :class:`~.referee.Referees`."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from qipai.competition import event as event_ops
from qipai.core.errors import IllegalAction, QipaiError, why, why_and
from qipai.match.players import AddTime, Adjudicate

from . import roundacts
from .errors import ApiError
from .store import Call
from .walkover import mark_void

if TYPE_CHECKING:
    from .models import UserRow
    from .referee import ActBody
    from .tables import LiveTable

Out = dict[str, Any]
#: the longest time a referee adds at once (ms)
MAX_ADD_MS = 3_600_000


class TableActs:
    """Acts on a live table: a part of :class:`~.referee.Referees`."""

    async def _act_pause(self, event_id: str, user: UserRow, body: ActBody, reason: str,
                         resume: bool = False) -> dict[str, Any]:
        if body.table is not None:
            t = self.hub.tables.get(body.table)
            if t is None or t.event_id != event_id or not t.nonce_open():
                t = self._table(event_id, body.table)     # a game on, or being dealt
            if ("held_pause" in t.settings if t.runner is None else t.runner.paused_at is not None) != resume:
                raise (ApiError(409, "not_paused", "the table is not paused") if resume else
                       ApiError(409, "already_paused", "the table is already paused"))
            ids, unreached = roundacts.submit_round([t], resume, user.username, reason), []
        else:                 # the whole round: every live table not already so, on every worker
            ids, unreached = await roundacts.act_everywhere(self.hub, event_id, resume, user.username, reason)
            if not ids and not unreached:
                raise ApiError(409, "no_live_tables", "no live table of the event to "
                               + ("resume" if resume else "pause"))
        act = "resume" if resume else "pause"
        data: dict[str, Any] = {"tables": ids, "scope": "table" if body.table else "round"}
        if unreached:
            data["unreached"] = unreached
        entry = await self._record(event_id, user, act, reason, table_id=body.table, data=data)
        return {"act": act, "id": entry, "tables": ids, **({"unreached": unreached} if unreached else {})}

    async def _act_resume(self, event_id: str, user: UserRow, body: ActBody, reason: str) -> Out:
        return await self._act_pause(event_id, user, body, reason, resume=True)

    async def _act_add_time(self, event_id: str, user: UserRow, body: ActBody, reason: str) -> Out:
        t = self._table(event_id, body.table)
        seat = self._seat(t, body.seat)
        ms = body.ms
        if ms is None or isinstance(ms, bool) or not 0 < ms <= MAX_ADD_MS:
            raise ApiError(400, "bad_time", f"time added is 1 to {MAX_ADD_MS} ms", max=MAX_ADD_MS)
        clock = t.runner.clocks[seat]
        if clock.bank_left is None and not clock.running:
            raise ApiError(409, "nothing_to_add", "this seat's clock has no bank and no turn running "
                           "to add time to")
        if clock.spec.untimed:
            raise ApiError(409, "nothing_to_add", "this table has no clock")
        t.runner.submit(None, AddTime(seat, ms, user.username, reason))
        entry = await self._record(event_id, user, "add_time", reason, table_id=t.id,
                                   game_id=t.event_game, seat=seat, entrant=t.seats[seat]["name"],
                                   data={"ms": ms})
        return {"act": "add_time", "id": entry, "table": t.id}

    async def _act_adjudicate(self, event_id: str, user: UserRow, body: ActBody, reason: str) -> Out:
        t = self._table(event_id, body.table)
        text = (body.result or "").strip()
        st = t.runner.state
        data: dict[str, Any] = {"result": text}
        if text == "count":
            if not callable(getattr(st, "forced_count", None)):
                raise ApiError(400, "cannot_count", f"{t.game_id} has no forced count", game=t.game_id)
        else:
            try:
                trial = st.clone()
                trial.end_by_result_text(text, "arbiter")
                # the log says the result in words ("carol won"): its winners by name, beside
                # the notation the act was given
                data["winners"] = [t.seats[w]["name"] for w in trial.result.winners if t.seats[w]]
            except IllegalAction as e:
                raise ApiError(400, "bad_result", f"cannot read result {text!r} for {t.game_id}: {e.reason}",
                               **why_and(e, "unreadable", result=text, game=t.game_id,
                                         names=[s["name"] if s else None for s in t.seats])) from None
        t.runner.submit(None, Adjudicate(text, "arbiter", user.username, reason))
        entry = await self._record(event_id, user, "adjudicate", reason, table_id=t.id,
                                   game_id=t.event_game, data=data)
        return {"act": "adjudicate", "id": entry, "table": t.id}

    async def _act_void(self, event_id: str, user: UserRow, body: ActBody, reason: str) -> Out:
        stopped = await self._stopped(event_id, body.table)
        t = stopped or self._table(event_id, body.table)
        gid = t.event_game
        note = {"table": t.id, "by": user.username, "reason": reason}
        log = self._act(user, "void", reason, table_id=t.id)
        async with self.service._lock(event_id):     # no settling in between: seated once
            try:
                await asyncio.to_thread(event_ops.void_game, self.db, event_id, gid, note, log=log)
            except QipaiError as e:
                raise ApiError(409, "event_refused", str(e), **why(e, "event.not_now")) from None
            if stopped is None:
                await self.void_table(t, note)
            else:
                await self._void_stopped(t, note)
        await self.service._settle(event_id)       # seats the game again at a new table
        new = next((x.id for x in self.live_tables(event_id) if x.event_game == gid), None)
        return {"act": "void", "id": log.id, "table": t.id, "replay": new}

    async def _stopped(self, event_id: str, table_id: str | None) -> LiveTable | None:
        """The event's table ``table_id`` if its game was stopped without a result by a fault
        of the server (status ``aborted``: a row of its action log the database refused,
        :meth:`.hub.Hub.stop_refused`; an event table is aborted for nothing else) and it still
        holds its event game, which only a referee's ``void`` lets go of; else None."""
        if not table_id or table_id in self.hub.tables:
            return None
        t = await self.hub.load_finished(table_id)
        if t is None or t.event_id != event_id or t.status != "aborted" or t.event_game is None:
            return None
        return t

    async def _void_stopped(self, t: LiveTable, note: dict[str, Any]) -> None:
        """:meth:`void_table` of a table whose game already stopped (:meth:`_stopped`): its row
        alone is written (status ``void``, its event game let go of), its action log as it was."""
        settings = {**t.settings, "voided": note, "voided_game": t.event_game}
        entry = self.hub.store.append(t.gate, Call(mark_void, t.id, "void", settings))
        await t.gate.wait(entry.tag)
        t.status, t.settings, t.event_game = "void", settings, None

    async def void_table(self, t: LiveTable, note: dict[str, Any], status: str = "void") -> None:
        """Stop ``t``'s game without a result at the table: its action log keeps a ``void`` row,
        the table's status becomes ``status`` (``void``: the event seats the game again;
        ``forfeited``: the event has scored it) and it lets go of its event game, and its
        connections are told (the table's new status)."""
        r = t.runner
        assert r is not None
        t.journal("void", None, None, r.time.now(), note)
        r.note(None, {"type": status, **note})
        t.status = status
        if t.task is not None and not t.task.done():
            t.task.cancel()
        settings = {**t.settings, "voided": note, "voided_game": t.event_game}
        t.settings = settings

        entry = self.hub.store.append(t.gate, Call(mark_void, t.id, status, settings))
        await t.gate.wait(entry.tag)
        self.hub.tables.pop(t.id, None)
        self.hub.remember_finished(t)
        t.event_game = None
        t.broadcast_lobby()

