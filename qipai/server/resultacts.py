"""Results on the server's side of referees (competition.md §5.7): a seated player disputes a
game (during it or within :data:`APPEAL_WINDOW_S` after it) or confirms its result; a referee
rules on a dispute (act ``ruling``), enters the result of a game played on paper
(``enter_result``), confirms a result at once or corrects it (``confirm`` and ``correct`` of
``POST /api/events/{id}/acts``). Confirmations and corrections are
:mod:`qipai.competition.results`, which records each one in the event's log in the same
transaction as its change; a correction then seats whatever it made to play (a knockout round
paired again, a series' next game). A part of :class:`~.referee.Referees`."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from pydantic import Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from qipai.competition import event as event_ops
from qipai.competition.db import GameRow
from qipai.competition.results import APPEAL_WINDOW_S, confirm_result, correct_result
from qipai.core.errors import QipaiError, why, why_and
from qipai.match.players import RefereeNote

from .bodies import Body
from .errors import ApiError
from .models import RecordRow, TableRow, UserRow, row_by_id
from .ratelimit import retry_after

if TYPE_CHECKING:
    from .referee import ActBody

DECISIONS = ("upheld", "rejected")
Out = dict[str, Any]


class DisputeBody(Body):
    table: str = Field(max_length=20)
    text: str = Field(default="", max_length=500)


class ConfirmBody(Body):
    table: str | None = Field(default=None, max_length=20)
    game: int | None = None


def record_finished(s: Session, record_id: int) -> float | None:
    """When the game of the record ``record_id`` ended (unix seconds), if it is stored."""
    from datetime import datetime

    row = s.get(RecordRow, record_id)
    return datetime.fromisoformat(row.finished).timestamp() if row is not None else None


class ResultActs:
    """Disputes, confirmations and corrections: a part of :class:`~.referee.Referees`."""

    async def _event_game(self, event_id: str, game: Any) -> int:
        """``game`` checked as a game of the event. Errors: no_game (404)."""
        def check(s: Session) -> int:
            g = row_by_id(s, GameRow, game)
            if g is None or g.match.event_id != event_id:
                raise ApiError(404, "no_game", f"event {event_id!r} has no game {game!r}", game=game)
            return g.id
        return await self.hub.store.call(check, write=False)

    async def _act_confirm(self, event_id: str, user: UserRow, body: ActBody, reason: str) -> dict[str, Any]:
        gid = await self._event_game(event_id, body.game)
        async with self.service._lock(event_id):
            try:
                out = await asyncio.to_thread(confirm_result, self.db, event_id, gid, user.username,
                                              referee=True, reason=reason, user_id=user.id)
            except QipaiError as err:
                raise ApiError(409, "event_refused", str(err), **why(err, "event.not_now")) from None
        return {"act": "confirm", **out}

    async def _act_correct(self, event_id: str, user: UserRow, body: ActBody, reason: str) -> dict[str, Any]:
        gid = await self._event_game(event_id, body.game)

        def seated(s: Session) -> set[int]:
            return set(s.scalars(select(TableRow.event_game).where(TableRow.event_game.is_not(None))))
        async with self.service._lock(event_id):
            busy = await self.hub.store.call(seated, write=False)
            try:
                text = (body.result or "").strip()
                out = await asyncio.to_thread(correct_result, self.db, event_id, gid, text, by=user.username,
                                              reason=reason, moves=body.moves, user_id=user.id, seated=busy)
            except QipaiError as err:
                raise ApiError(409, "event_refused", str(err), **why(err, "event.not_now")) from None
        await self.service._settle(event_id)          # seats what the correction made to play
        return {"act": "correct", **out}

    async def confirm(self, event_id: str, user: UserRow, body: ConfirmBody) -> dict[str, Any]:
        """A player confirms the result of their game, named by ``body.game`` or by the table it
        was played at. Errors: no_table, no_game (404), event_refused (409: not their game, not
        finished, already confirmed)."""
        await self._event(event_id)
        gid = body.game
        if body.table is not None:
            t = self.hub.tables.get(body.table) or self.hub.finished.get(body.table)
            if t is None or t.event_id != event_id:
                raise ApiError(404, "no_table", f"no table {body.table!r} in event {event_id!r}")
            gid = t.event_game
        gid = await self._event_game(event_id, gid)
        async with self.service._lock(event_id):
            try:
                return await asyncio.to_thread(confirm_result, self.db, event_id, gid, user.username,
                                               user_id=user.id)
            except QipaiError as err:
                raise ApiError(409, "event_refused", str(err), **why(err, "event.not_now")) from None

    async def dispute(self, event_id: str, user: UserRow, body: DisputeBody) -> dict[str, Any]:
        """A seated player's dispute on the game at ``body.table`` (§5.7): while it is on, or
        within :data:`APPEAL_WINDOW_S` after it ends. Errors: no_table (404), not_seated
        (403), reason_required (400), dispute_closed (409), rate_limited (429:
        ``Limits.dispute_account``)."""
        await self._event(event_id)
        t = self.hub.tables.get(body.table) or self.hub.finished.get(body.table)
        if t is None or t.event_id != event_id:
            raise ApiError(404, "no_table", f"no table {body.table!r} in event {event_id!r}")
        seat = t.seat_of(user.id)
        if seat is None:
            raise ApiError(403, "not_seated", "only a player seated at this table may file a dispute")
        text = body.text.strip()
        if not text:
            raise ApiError(400, "reason_required", "say what the dispute is about")
        live = t.runner is not None and t.status == "playing" and not t.runner.state.is_terminal()
        ended = self.finished_at.get(t.id)
        if ended is None and not live and t.record_id is not None:
            # the game ended on another worker, now stopped (or before a restart): its record says when
            ended = await self.hub.store.call(lambda s: record_finished(s, t.record_id), write=False)
        if not live and (ended is None or time.time() - ended > APPEAL_WINDOW_S):
            raise ApiError(409, "dispute_closed", f"disputes are taken during the game and up to "
                           f"{APPEAL_WINDOW_S // 60} minutes after it", minutes=APPEAL_WINDOW_S // 60)
        wait = await self.hub.limits.hit("dispute_account", str(user.id))
        if wait:           # each dispute is announced at the table: no flooding the opponents
            raise ApiError(429, "rate_limited", "too many disputes; a referee has your earlier ones",
                           retry_after=retry_after(wait))
        if live:
            t.runner.submit(None, RefereeNote("dispute", seat, user.username, text))
        game = t.event_game or t.settings.get("voided_game")
        entry = await self._record(event_id, user, "dispute", text, table_id=t.id, game_id=game, seat=seat,
                                   entrant=t.seats[seat]["name"])
        return {"id": entry, "table": t.id}

    async def _act_ruling(self, event_id: str, user: UserRow, body: ActBody, reason: str) -> Out:
        if body.decision not in DECISIONS:
            raise ApiError(400, "bad_decision", f"a ruling is one of {', '.join(DECISIONS)}",
                           valid=", ".join(DECISIONS))
        log = await self.log(event_id)
        dispute = next((x for x in log if x["act"] == "dispute" and x["id"] == body.dispute), None)
        if dispute is None:
            raise ApiError(404, "no_dispute", f"no dispute {body.dispute!r} in this event")
        if any(x["act"] == "ruling" and x["data"].get("dispute") == body.dispute for x in log):
            raise ApiError(409, "dispute_ruled", "this dispute has been ruled on")
        t = self.hub.tables.get(dispute["table"] or "")
        if t is not None and t.runner is not None and not t.runner.state.is_terminal():
            t.runner.submit(None, RefereeNote("ruling", dispute["seat"], user.username, reason,
                                              (("decision", body.decision), ("dispute", body.dispute))))
        entry = await self._record(event_id, user, "ruling", reason, table_id=dispute["table"],
                                   game_id=dispute["game"], seat=dispute["seat"], entrant=dispute["entrant"],
                                   data={"dispute": body.dispute, "decision": body.decision})
        return {"act": "ruling", "id": entry}

    async def _act_enter_result(self, event_id: str, user: UserRow, body: ActBody, reason: str) -> Out:
        gid = body.game

        def check(s: Session) -> None:
            g = row_by_id(s, GameRow, gid)
            if g is None or g.match.event_id != event_id:
                raise ApiError(404, "no_game", f"event {event_id!r} has no game {gid!r}", game=gid)
            if g.status != "pending":
                raise ApiError(409, "game_finished", f"game {gid} already has a result", game=gid)
            if s.scalar(select(TableRow.id).where(TableRow.event_game == gid)) is not None:
                raise ApiError(409, "game_at_table", f"game {gid} is played at a live table: adjudicate "
                               "it there", game=gid)
        await self.hub.store.call(check, write=False)
        log = self._act(user, "enter_result", reason)
        async with self.service._lock(event_id):
            try:
                await asyncio.to_thread(event_ops.enter_result, self.db, event_id, gid,
                                        (body.result or "").strip(), body.moves, body.duration, log=log)
            except QipaiError as err:
                raise ApiError(400, "bad_result", str(err),
                               **why_and(err, "unreadable", result=body.result or "", game=gid)) from None
        await self.service._settle(event_id)
        return {"act": "enter_result", "id": log.id, "game": gid}
