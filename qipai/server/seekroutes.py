"""The web's ways to a game with people: the seek pool (:mod:`.seeks`), direct challenges
(:mod:`.challenges`, the Bot API's challenges for signed-in people) and presence
(:mod:`.presence`).

* ``POST /api/seeks`` ``{"game", "options", "num_seats", "clock", "rated"}`` — seek a game;
  answers the seek's status (:meth:`.seeks.SeekPool.status`). ``GET /api/seeks/{id}`` — its
  status (the owner polls it: a seek no one asks about expires); once paired, ``table`` is the
  new table. ``DELETE /api/seeks/{id}`` — take it back. ``POST /api/seeks/{id}/bot`` — play a
  bot now instead (a casual table with the game's default bot). ``GET /api/seeks`` — the
  waiting seeks.
* ``POST /api/challenge/{username}``, ``/api/challenge/{id}/accept|decline|cancel`` — as the Bot
  API's; ``GET /api/challenges`` — ``{"to_me": [...], "from_me": [...], "answered": [...]}``,
  the pending challenges and the answers to the account's own (``status``: accepted with its
  ``table``, declined, canceled, expired).
* ``GET /api/presence`` — who is online and playing.

Pairing runs whenever a seek is made or asked about, so no task runs in the background.
"""

from __future__ import annotations

import secrets
import time
from types import SimpleNamespace
from typing import Any

from fastapi import FastAPI, Request
from pydantic import Field
from sqlalchemy import select

from . import ratings
from .bodies import Body
from .challenges import add_challenge_routes, lobby, public
from .errors import ApiError
from .hub import Hub
from .lobbystate import LobbyState
from .models import RatingRow
from .presence import Presence, SharedPresence
from .seeks import Seek, SeekPool
from .tabledefaults import BOARD_CLOCK, DEFAULT_CLOCK, default_bot, refuse_bot_clock


class SeekBody(Body):
    game: str = Field(max_length=40)
    options: dict[str, Any] = {}
    num_seats: int | None = None
    clock: str | None = Field(default=None, max_length=40)
    rated: bool = True


def rating_for(s: Any, user_id: int, game: str, tc: str) -> dict[str, Any]:
    """The player's rating for ``game`` and ``tc`` with its standing (:func:`.ratings.rating_json`:
    ``rating``, ``deviation``, ``games``, ``provisional``); a new player's is the start's."""
    row = s.scalar(select(RatingRow).where(RatingRow.user_id == user_id, RatingRow.game == game,
                                           RatingRow.time_class == tc))
    if row is not None:
        return {**ratings.rating_json(row), "rating": float(row.rating)}    # unrounded, for pairing
    start, deviation = ratings.START["glicko2"][:2]
    return {"rating": start, "deviation": deviation, "games": 0, "provisional": True}


def add_seek_routes(app: FastAPI, hub: Hub, user_of: Any, need_user: Any) -> None:
    pool = SeekPool(time.time)           # wall-clock: another worker may take the pool over
    presence = Presence()
    app.state.seeks = pool
    app.state.presence = presence
    shared = None if hub.cluster is None else SharedPresence(presence, hub.cluster.redis, hub.cluster.name)
    if shared is not None:              # kept in Redis: a new lobby home answers the same list
        hub.cluster.on_home.append(shared.load)

    async def seen(user: Any) -> None:
        if shared is None:
            presence.touch(user.id, user.username)
        else:
            await shared.touch(user.id, user.username)
    challenges, events = app.state.challenges, app.state.bot_events
    state = LobbyState(hub.cluster, pool, challenges)     # kept in Redis with several workers

    async def me(request: Request) -> Any:
        user = await need_user(request)
        await seen(user)
        return user

    async def pair() -> None:
        for group in pool.match():
            secrets.SystemRandom().shuffle(group)             # who sits first is drawn

            async def named(table_id: str, group: list[Seek] = group) -> None:
                # the pairing is kept before the table is stored: a home that dies between the
                # two leaves seeks paired to a table that never was, which the next home finds
                # waiting again (lobbystate.py) — never a game started that nobody knows of
                for s in group:
                    s.table = table_id
                    pool.dirty.add(s.id)
                try:
                    await state.save()
                except Exception:                   # not kept: no table either
                    pool.unpair(group)
                    raise
            first = group[0]
            table = await hub.create_table(None, first.game, first.options,
                                           {"clock": first.clock, "rated": first.rated}, first.num_seats,
                                           named=named)
            for s in group:
                table.take_seat(s.user_id, s.username, None, bot_account=s.bot)
            await hub.store.saved(table.gate)

    @app.post("/api/seeks", tags=["players"], status_code=201)
    async def seek(request: Request, body: SeekBody) -> dict[str, Any]:
        """Seek a game (see the module docstring). Errors: bad_options, bad_seats, bad_clock."""
        user = await me(request)
        clock = body.clock or DEFAULT_CLOCK.get(body.game, BOARD_CLOCK)
        row = hub.new_row(user.id, body.game, lobby(body.game, body.options),
                          {"clock": clock, "rated": body.rated}, body.num_seats)   # checks it all
        refuse_bot_clock(clock, bool(user.bot))
        key = ratings.rating_key(row.game, row.num_seats, hub_seats(row.game, row.options))
        tc = ratings.time_class(clock)
        r = await hub.store.call(lambda s: rating_for(s, user.id, key, tc), write=False)
        s = Seek(id=secrets.token_hex(5), user_id=user.id, username=user.username, rating=float(r["rating"]),
                 provisional=r["provisional"], rating_games=r["games"], deviation=float(r["deviation"]),
                 bot=bool(user.bot),
                 game=row.game, options=row.options, num_seats=row.num_seats, clock=clock,
                 rated=body.rated, created=pool.clock())
        pool.add(s)
        await pair()
        out = pool.status(s.id, user.id) or {}
        await state.save()
        return out

    @app.get("/api/seeks", tags=["players"])
    async def seeks(request: Request) -> list[dict[str, Any]]:
        """The waiting seeks, oldest first, each with its owner's rating and its standing
        (``provisional``, ``rating_games``, ``deviation``; a rating of fewer rated games than
        ``provisional_games`` is provisional)."""
        await pair()
        await state.save()
        return [{**x, "provisional_games": ratings.PROVISIONAL_GAMES} for x in pool.listing()]

    @app.get("/api/seeks/{seek_id}", tags=["players"])
    async def seek_status(request: Request, seek_id: str) -> dict[str, Any]:
        """The status of your seek. Error: no_seek (404)."""
        user = await me(request)
        await pair()
        out = pool.status(seek_id, user.id)
        await state.save()
        if out is None:
            raise ApiError(404, "no_seek", f"no seek {seek_id!r} of yours", id=seek_id)
        return out

    @app.delete("/api/seeks/{seek_id}", tags=["players"])
    async def cancel(request: Request, seek_id: str) -> dict[str, Any]:
        user = await me(request)
        if not pool.cancel(seek_id, user.id):
            raise ApiError(404, "no_seek", f"no waiting seek {seek_id!r} of yours", id=seek_id)
        await state.save()
        return {"ok": True}

    @app.post("/api/seeks/{seek_id}/bot", tags=["players"])
    async def bot_now(request: Request, seek_id: str) -> dict[str, Any]:
        """Stop waiting and play the game's default bot at once (a casual table)."""
        user = await me(request)
        s = pool.waiting.get(seek_id)
        if s is None or s.user_id != user.id:
            raise ApiError(404, "no_seek", f"no waiting seek {seek_id!r} of yours", id=seek_id)
        table = await hub.create_table(user.id, s.game, s.options, {"clock": s.clock}, s.num_seats)
        table.take_seat(user.id, user.username, None, bot_account=bool(user.bot))
        table.fill_bots(default_bot(s.game))
        pool.cancel(seek_id, user.id)
        await hub.store.saved(table.gate)
        await state.save()
        return {"table": table.id}

    @app.get("/api/presence", tags=["players"])
    async def who_is_online(request: Request) -> dict[str, Any]:
        """``{"online", "playing", "players": [{"username", "playing"}]}`` (see
        :mod:`.presence`); asking counts the signed-in asker as online."""
        user = await user_of(request)
        if user is not None:
            await seen(user)
        tables: list[Any] = list(hub.tables.values())
        if hub.cluster is not None:          # the lobby home: the other workers' games too
            tables += [SimpleNamespace(**t) for t in await hub.cluster.lobby()]
        return presence.snapshot(tables)

    # ----- challenges between people (and bot accounts) -------------------------------------
    # (their answers are kept by the challenges themselves, with the pending ones: lobbystate.py)
    async def web_who(request: Request, *scopes: str) -> Any:
        user = await me(request)
        return SimpleNamespace(user_id=user.id, username=user.username, bot=bool(getattr(user, "bot", False)))

    add_challenge_routes(app, hub, web_who, events, challenges, prefix="/api", seek=False)

    @app.get("/api/challenges", tags=["players"])
    async def my_challenges(request: Request) -> dict[str, Any]:
        """Your pending challenges and the recent answers to those you made."""
        user = await me(request)
        challenges.expire(events)
        await challenges.saved()
        return {"to_me": [public(c) for c in challenges.by_id.values() if c["to_id"] == user.id],
                "from_me": [public(c) for c in challenges.by_id.values() if c["from_id"] == user.id],
                "answered": challenges.answered(user.id)}


def hub_seats(game_id: str, options: dict[str, Any]) -> int:
    """The usual seat count of ``game_id`` with ``options`` (a rating's key, :mod:`.ratings`)."""
    from qipai.core import load

    return load(game_id, **options).seat_counts()[0]
