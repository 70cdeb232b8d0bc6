"""The referees' HTTP routes (competition.md §5.7): appointments, the console, the public log,
the acts, and a player's confirmations and disputes. What they do is :class:`.referee.Referees`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from sqlalchemy.orm import Session, sessionmaker

from . import roundacts
from .appointments import Appointment
from .errors import ApiError
from .events import EventService
from .hub import Hub
from .models import UserRow
from .referee import ActBody, Referees
from .resultacts import ConfirmBody, DisputeBody


def add_referee_routes(app: FastAPI, hub: Hub, db: sessionmaker[Session], service: EventService,
                       need_user: Callable[[Request], Awaitable[UserRow]],
                       user_of: Callable[[Request], Awaitable[UserRow | None]]) -> Referees:
    refs = Referees(hub, db, service)
    roundacts.add_internal_routes(app, hub, refs.table_json)

    @app.get("/api/events/{event_id}/referees", tags=["referees"])
    async def referees(request: Request, event_id: str) -> dict[str, Any]:
        """The event's referees, and whether the caller may act (``can_referee``) or appoint
        (``can_appoint``, the organizers)."""
        await refs._event(event_id)
        user = await user_of(request)
        return {"referees": await refs.referee_names(event_id),
                "can_referee": await refs.may_act(event_id, user),
                "can_appoint": bool(user and user.role == "organizer")}

    @app.post("/api/events/{event_id}/referees", tags=["referees"], status_code=201)
    async def appoint(request: Request, event_id: str, body: Appointment) -> dict[str, Any]:
        """Appoint an account referee of the event (organizers only). Errors: not_organizer
        (403), no_event (404), no_user (400), already_referee (409), plays_in_event (409: an
        entrant of the event, :func:`plays_in`)."""
        user = await need_user(request)
        if user.role != "organizer":
            raise ApiError(403, "not_organizer", "only an organizer may do this")
        return {"referees": await refs.appoint(event_id, user, body.username)}

    @app.delete("/api/events/{event_id}/referees/{username}", tags=["referees"])
    async def dismiss(request: Request, event_id: str, username: str) -> dict[str, Any]:
        """Withdraw an appointment (organizers only). Errors: not_organizer (403), not_a_referee (404)."""
        user = await need_user(request)
        if user.role != "organizer":
            raise ApiError(403, "not_organizer", "only an organizer may do this")
        return {"referees": await refs.dismiss(event_id, user, username)}

    @app.get("/api/events/{event_id}/console", tags=["referees"])
    async def console(request: Request, event_id: str) -> dict[str, Any]:
        """The referee console's data (organizers and the event's referees; 403 not_referee)."""
        await refs.need_referee(event_id, await need_user(request))
        return await refs.console(event_id)

    @app.get("/api/events/{event_id}/log", tags=["referees"])
    async def event_log(event_id: str) -> list[dict[str, Any]]:
        """The event's public log of referee acts and disputes, oldest first."""
        await refs._event(event_id)
        return await refs.log(event_id)

    @app.post("/api/events/{event_id}/acts", tags=["referees"])
    async def act(request: Request, event_id: str, body: ActBody) -> dict[str, Any]:
        """One referee act (see :mod:`qipai.server.referee`). Errors: not_referee (403),
        bad_act, reason_required, bad_seat, bad_time, bad_result, cannot_count, bad_penalty,
        bad_decision (400), no_table, no_entrant, no_game, no_dispute (404), not_playing,
        already_paused, not_paused, no_live_tables, nothing_to_add, already_disqualified,
        game_finished, game_at_table, dispute_ruled, event_refused, event_over (409)."""
        return await refs.act(event_id, await need_user(request), body)

    @app.post("/api/events/{event_id}/confirmations", tags=["referees"])
    async def confirm(request: Request, event_id: str, body: ConfirmBody) -> dict[str, Any]:
        """A player confirms the result of their game (``game``, or the ``table`` it was played
        at); it is confirmed once every player of it has (competition.md §5.7). Returns
        ``{"game", "confirmed", "confirmed_by", "waiting"}``."""
        return await refs.confirm(event_id, await need_user(request), body)

    @app.post("/api/events/{event_id}/disputes", tags=["referees"], status_code=201)
    async def dispute(request: Request, event_id: str, body: DisputeBody) -> dict[str, Any]:
        """A seated player disputes the game at ``table`` (during it or up to 10 minutes after)."""
        return await refs.dispute(event_id, await need_user(request), body)

    return refs
