"""Moderators' chat mutes (see :mod:`.chat`, "Mutes"): ``POST /api/chat/mutes`` to mute or
lift, ``GET /api/chat/mutes`` to list the mutes in force, and the muted account's open table
sockets told at once: each has its chat shown closed (or open again after a lift) by a new
``chat_history``, on every worker, without waiting for the person to write a line."""

from __future__ import annotations

import asyncio
import logging
import unicodedata
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from pydantic import Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from qipai.competition.acts import record_act
from qipai.competition.db import EventRow

from .bodies import Body
from .chat import MUTE_MAX_MIN, folded, history, is_referee, mute_in_force
from .errors import ApiError
from .models import MAX_ROW_ID, ChatMuteRow, UserRow, now_iso
from .plaintext import unsafe
from .store import again

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("qipai.server")

#: the account event (a server's own, never sent to an event stream) that a mute of the
#: account was made or lifted: ``{"type": MUTE_CHANGED, "event": event id or None}``
MUTE_CHANGED = "_chat_mute"


def tell_mute_changed(hub: Hub, user_id: int, event_id: str | None) -> None:
    """The mutes of ``user_id`` changed (at ``event_id``'s tables; None: site-wide): every
    worker shows its open table sockets the chat as it now is (:func:`show_mute`)."""
    if hub.cluster is not None:
        hub.cluster.publish_event(user_id, {"type": MUTE_CHANGED, "event": event_id})
    else:
        show_mute(hub, user_id, {"type": MUTE_CHANGED, "event": event_id})


def show_mute(hub: Hub, user_id: int, msg: dict[str, Any]) -> None:
    """An account event (:data:`MUTE_CHANGED`, others are passed over): the sockets of
    ``user_id`` at this worker's tables that the mute reaches (a site-wide mute reaches every
    table, an event's its tables) read the mute in force again and are sent ``chat_history``."""
    if msg.get("type") != MUTE_CHANGED:
        return
    scope = msg.get("event")
    found = [(t, seat, c) for t in list(hub.tables.values()) if scope is None or t.event_id == scope
             for seat, conns in t.conns.items() for c in conns if c.user_id == user_id and not c.closed]
    if found:
        asyncio.get_running_loop().create_task(_show(hub, user_id, found))


async def _show(hub: Hub, user_id: int, found: list) -> None:
    read: dict[str | None, dict[str, str] | None] = {}
    for table, seat, conn in found:
        if table.event_id not in read:
            try:
                read[table.event_id] = await hub.store.call(
                    lambda s, e=table.event_id: mute_in_force(s, user_id, e), write=False)
            except Exception:       # the store is down: the next line written is refused anyway
                log.exception("chat: the mutes of account %s could not be read", user_id)
                return
        conn.chat_mute = read[table.event_id]
        conn.put_json({"type": "chat_history", **history(table, conn, seat)})


class MuteBody(Body):
    """A moderator's mute: the account (``user``, its id), ``minutes`` (0 lifts the mute in
    force), a written ``reason``, and ``event`` for a referee's mute at that event."""

    user: int = Field(ge=1, le=MAX_ROW_ID)      # an id the database can hold
    minutes: int = Field(ge=0, le=MUTE_MAX_MIN)
    reason: str = Field(default="", max_length=500)
    event: str | None = Field(default=None, max_length=40)


def mute_json(r: ChatMuteRow) -> dict[str, Any]:
    return {"id": r.id, "user": r.user_id, "event": r.event_id, "until": r.until, "by": r.by,
            "reason": r.reason, "at": r.at}


def add_mute_routes(app: FastAPI, hub: Hub, need_user: Any) -> None:
    """``POST /api/chat/mutes`` (mute or unmute an account's chat) and ``GET /api/chat/mutes``
    (the mutes in force): see the module docstring, "Mutes"."""
    if hub.cluster is not None:          # a mute made through another worker reaches ours
        hub.cluster.on_event.append(lambda user_id, msg: show_mute(hub, user_id, msg))

    async def need_moderator(event: str | None, user: UserRow) -> None:
        if event is not None:
            if await hub.store.call(lambda s: s.get(EventRow, event) is None, write=False):
                raise ApiError(404, "no_event", f"no event {event!r}")
            if not await is_referee(hub, event, user):
                from .appointments import not_referee
                raise await hub.store.call(lambda s: not_referee(s, event, user), write=False)
        elif user.role != "organizer":
            raise ApiError(403, "not_organizer", "only the organizers mute chat outside an event")

    @app.post("/api/chat/mutes", tags=["chat"], status_code=201)
    async def mute(request: Request, body: MuteBody) -> dict[str, Any]:
        """Mute account ``user``'s chat for ``minutes`` (see the module docstring). Errors:
        not_signed_in (401), reason_required (400), not_referee, plays_in_own_event,
        not_organizer (403), no_event, no_user (404), storage_unavailable (503)."""
        user = await need_user(request)
        await need_moderator(body.event, user)
        reason = " ".join(unicodedata.normalize("NFC", body.reason).split())
        if not folded(reason) or unsafe(reason):     # invisible characters are no reason
            raise ApiError(400, "reason_required", "a mute needs a written reason")
        until = (datetime.now(UTC) + timedelta(minutes=body.minutes)).isoformat(timespec="seconds")
        made: list[int] = []

        def write(s: Session) -> dict[str, Any] | None:
            mine = s.get(ChatMuteRow, made[0]) if made and again() else None
            if mine is not None and mine.by_id == user.id and mine.until == until:
                return mute_json(mine) | {"name": s.get(UserRow, mine.user_id).username}
            target = s.get(UserRow, body.user)
            if target is None:
                return None
            row = ChatMuteRow(user_id=target.id, event_id=body.event, until=until, by_id=user.id,
                              by=user.username, reason=reason, at=now_iso())
            s.add(row)
            s.flush()
            made[:] = [row.id]
            if body.event is not None:
                record_act(s, body.event, "chat_mute", user.username, reason, user_id=user.id,
                           entrant=target.username,
                           data={"user": target.id, "minutes": body.minutes, "until": until})
            return mute_json(row) | {"name": target.username}
        got = await hub.store.call(write)
        if got is None:
            raise ApiError(404, "no_user", "no such account")
        tell_mute_changed(hub, got["user"], body.event)
        return got

    @app.get("/api/chat/mutes", tags=["chat"])
    async def mutes(request: Request, event: str | None = None) -> dict[str, Any]:
        """The mutes in force of ``event`` (for its referees) or the site-wide ones (for the
        organizers), latest first: ``{"mutes": [...]}`` (each with the account's ``name``)."""
        user = await need_user(request)
        await need_moderator(event, user)

        def read(s: Session) -> list[dict[str, Any]]:
            where = ChatMuteRow.event_id == event if event is not None else ChatMuteRow.event_id.is_(None)
            rows = s.scalars(select(ChatMuteRow).where(where).order_by(ChatMuteRow.id.desc())
                             .limit(500)).all()
            now, seen, out = now_iso(), set(), []
            for r in rows:                      # the latest row of each account is in force
                if r.user_id in seen:
                    continue
                seen.add(r.user_id)
                if r.until > now:
                    out.append(mute_json(r) | {"name": s.get(UserRow, r.user_id).username})
            return out
        return {"mutes": await hub.store.call(read, write=False)}
