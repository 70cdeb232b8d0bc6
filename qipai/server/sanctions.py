"""A referee's sanctions on a player (competition.md §2.7, §5.7): a ``warning`` (announced and
recorded), a ``penalty`` of the preset's ledger (:func:`qipai.competition.penalties.penalize`;
a forfeited deal in play stops its table) and ``disqualify`` (out of the event; its game in play
lost, or its seat in trusteeship). A part of :class:`~.referee.Referees`."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from qipai.competition import event as event_ops
from qipai.competition.penalties import penalize
from qipai.core.errors import QipaiError, why, why_and
from qipai.match.players import Disqualify, RefereeNote

from .errors import ApiError

if TYPE_CHECKING:
    from .models import UserRow
    from .referee import ActBody

Out = dict[str, Any]


class Sanctions:
    """Warnings, penalties, disqualifications: a part of :class:`~.referee.Referees`."""

    async def _act_warning(self, event_id: str, user: UserRow, body: ActBody, reason: str) -> Out:
        if body.table is not None:
            t = self._table(event_id, body.table)
            seat = self._seat(t, body.seat)
            entrant = t.seats[seat]["name"]
        else:
            entrant = (await self._entrant(event_id, body.entrant)).entrant_id
            at = await self._seat_of(event_id, entrant)
            t, seat = at if at else (None, None)
        if t is not None:
            t.runner.submit(None, RefereeNote("warning", seat, user.username, reason))
        entry = await self._record(event_id, user, "warning", reason, table_id=t.id if t else None,
                                   game_id=t.event_game if t else None, seat=seat, entrant=entrant)
        return {"act": "warning", "id": entry, "table": t.id if t else None}

    async def _act_penalty(self, event_id: str, user: UserRow, body: ActBody, reason: str) -> Out:
        e = await self._entrant(event_id, body.entrant)
        at = await self._seat_of(event_id, e.entrant_id)
        log = self._act(user, "penalty", reason, table_id=at[0].id if at else None)
        async with self.service._lock(event_id):
            try:
                out = await asyncio.to_thread(penalize, self.db, event_id, e.entrant_id, body.kind or "",
                                              reason, log=log)
            except QipaiError as err:
                raise ApiError(400, "bad_penalty", str(err),
                               **why_and(err, "event.penalty_refused", kind=body.kind or "")) from None
        if at is not None:
            t, seat = at
            t.runner.submit(None, RefereeNote("penalty", seat, user.username, reason,
                                              (("kind", body.kind), ("effect", out["effect"]))))
            if body.kind == "deal_forfeit" and out.get("game") == t.event_game:
                # the event scored the deal in play as lost: the table's deal stops here (its
                # record keeps the penalty), and the event seats the next deal
                await asyncio.sleep(0)
                await self.void_table(t, {"table": t.id, "by": user.username, "reason": reason,
                                          "penalty": body.kind}, status="forfeited")
        await self.service._settle(event_id)
        return {"act": "penalty", "id": log.id, **out}

    async def _act_disqualify(self, event_id: str, user: UserRow, body: ActBody, reason: str) -> Out:
        e = await self._entrant(event_id, body.entrant)
        if e.status == "disqualified":
            raise ApiError(409, "already_disqualified", f"{e.entrant_id} is already disqualified",
                           entrant=e.entrant_id)
        at = await self._seat_of(event_id, e.entrant_id)
        log = self._act(user, "disqualify", reason, table_id=at[0].id if at else None)
        async with self.service._lock(event_id):
            try:
                await asyncio.to_thread(event_ops.disqualify, self.db, event_id, e.entrant_id, log=log)
            except QipaiError as err:
                raise ApiError(409, "event_refused", str(err), **why(err, "event.not_now")) from None
        if at is not None:               # the game in play: lost, or the seat in trusteeship
            t, seat = at
            t.runner.submit(None, Disqualify(seat, user.username, reason))
        await self.service._settle(event_id)
        return {"act": "disqualify", "id": log.id, "table": at[0].id if at else None}

