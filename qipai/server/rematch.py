"""Rematch (再来一局): the same game again at a new lobby table, once a lobby game is over
(finished, or aborted after it began: nobody made the first move).

``POST /api/tables/{id}/rematch`` by a player of the finished game: the first such request opens
a new table with the same game, options, clock, rated or not, spectator and bot delays and
number of seats;
in a two-seat game the seats are swapped (the colours change hands, as players expect), in
card and tile games each keeps its seat (the deal decides the roles). The bots of the last game
sit again in their seats, the asker sits in its own, and the seats of the other people are
kept for them (``settings.reserved``: seat -> account; a stranger cannot take them,
``seat_reserved``). Everyone still connected to the old table gets ``{"type": "rematch",
"table": new id, "by": name}``; each of them joins with the same request, which seats it in
its kept seat. Once every seat is taken the game starts as any other. The table's owner may
fill a kept seat with a bot (``/bot`` with the seat, or ``/fill``) if nobody comes.

Errors: not_signed_in (401), not_at_table (403: not a player of that game), no_table (404),
event_table (409: an event seats its own games), not_finished (409), too_many_tables (409),
seat_taken (409: the kept seat was filled meanwhile), table_started (409: the rematch has
started without you).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request

from .errors import ApiError
from .hub import Hub
from .models import UserRow
from .tables import LiveTable

#: the settings a rematch copies (a private table's rematch is private too: unlisted, found by
#: its link, which the players are sent; a rated table's rematch is rated)
COPIED = ("clock", "spectator_delay_ms", "bot_delay_ms", "private", "rated")


def new_seat(old: LiveTable, seat: int) -> int:
    """The seat in the rematch of who sat in ``seat``: swapped in a two-seat game."""
    return 1 - seat if old.num_seats == 2 else seat


async def open_rematch(hub: Hub, old: LiveTable, user: UserRow) -> LiveTable:
    """The rematch table of ``old`` with ``user`` seated (made by the first to ask)."""
    if old.event_id is not None:
        raise ApiError(409, "event_table", "an event seats its own games: no rematch at its tables")
    # a game aborted once begun (nobody made the first move, :mod:`.conduct`) may be played
    # again as one that ended, as lichess offers: a table that never began has nothing to repeat
    if not (old.status == "finished" or (old.status == "aborted" and old.runner is not None)):
        raise ApiError(409, "not_finished", "the game at this table is not over")
    seat = old.seat_of(user.id)
    if seat is None:
        raise ApiError(403, "not_at_table", "only the players of this game may ask for a rematch")
    current = hub.tables.get(old.rematch_id or old.settings.get("rematch") or "")
    if current is None:
        table = await hub.create_table(user.id, old.game_id, dict(old.options),
                                       {k: old.settings[k] for k in COPIED if k in old.settings},
                                       old.num_seats)
        current = hub.tables.get(old.rematch_id or "")
        if current is None:
            return _fill_rematch(old, table, user, seat)
        hub.drop_table(table)          # the other player asked while this table was counted
    if current.seat_of(user.id) is None:
        current.take_seat(user.id, user.username, None, bot_account=bool(user.bot))
    return current


def _fill_rematch(old: LiveTable, table: LiveTable, user: UserRow, seat: int) -> LiveTable:
    reserved = {str(new_seat(old, i)): s["user"] for i, s in enumerate(old.seats)
                if s and "user" in s and s["user"] != user.id}
    table.settings["rematch_of"] = old.id
    if reserved:
        table.settings["reserved"] = reserved
    old.rematch_id = table.id
    old.settings["rematch"] = table.id      # kept with the old table: its page links to the rematch
    old.save_row()
    for i, s in enumerate(old.seats):
        if s and "bot" in s:
            table.add_bot(new_seat(old, i), s["bot"])
    table.take_seat(user.id, user.username, new_seat(old, seat), bot_account=bool(user.bot))
    if table.status == "open":
        table.save_row()
    msg = {"type": "rematch", "table": table.id, "by": user.username}
    for conns in old.conns.values():
        for c in list(conns):
            c.put_json(msg)
    return table


def add_rematch_routes(app: FastAPI, hub: Hub, need_user: Callable[[Request], Awaitable[UserRow]]) -> None:
    @app.post("/api/tables/{table_id}/rematch", tags=["lobby"])
    async def rematch(request: Request, table_id: str) -> dict[str, Any]:
        """The same game again (see :mod:`qipai.server.rematch`): the new table's summary."""
        user = await need_user(request)
        table = await open_rematch(hub, hub.get(table_id), user)
        await hub.store.saved(table.gate)
        return table.summary()
