"""The finished games' routes: the lists of records (everyone's, a player's history), a
player's public profile, one record, its replay steps and its downloads in every format the
game writes.

Privacy (:mod:`.profiles`, :mod:`.privacy`): a game with a player who hides their history is
shown only to the players of that game (in no list of anyone else's, and 404 ``no_record`` by its
id); the hiding player's profile shows others only their ratings (``hidden: true``) and their
history answers 403 ``history_hidden``. A game of a private table is in no list of anyone else's
either; by its id it is shown to its players and to a request that names its table
(``?table=<table id>``, the table's link), else 404 ``no_record``.

An event game whose round is still being played (:class:`.conduct.RoundHold`) answers 403
``round_in_play`` by its id, and is left out of the lists and a player's profile, to whoever did
not play it and does not referee the event."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import Response
from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from qipai.core import Record
from qipai.core.errors import QipaiError, why

from . import auth, exports, jsonbody, ratings
from .errors import ApiError
from .models import PlayerSettingsRow, RecordPlayer, RecordRow, TableRow, row_by_id
from .privacy import hidden_from, viewable
from .replays import StepsCache, limit_replays, replay_steps, steps_response


def result_winners(result: dict[str, Any] | None) -> list[int]:
    """The seats that won a stored game: its ``winners``, or for a record stored before they
    were kept, the seats with the highest return when the returns are not all equal."""
    if not result:
        return []
    if "winners" in result:
        return list(result["winners"])
    returns = result.get("returns") or []
    if not returns or len(set(returns)) == 1:
        return []
    return [i for i, r in enumerate(returns) if r == max(returns)]


async def table_hidden(store: Any, table: Any, viewer_id: int | None) -> bool:
    """Is the finished game at live ``table`` (a :class:`~.tables.LiveTable`) hidden from
    ``viewer_id`` (None: signed out)? The same rule as its record's (:func:`hidden_from`): a
    player of it hides their history and the viewer did not play in it. A game not yet over is
    never hidden (it is watched live); once over, its table answers as its record does, or its
    summary and a spectator's socket would tell who played and how it ended."""
    if table.status != "finished":
        return False
    players = {s["user"] for s in table.seats if s and s.get("user") is not None}
    if not players or viewer_id in players:
        return False

    def hiding(s: Session) -> bool:
        return bool(s.scalar(select(exists().where(PlayerSettingsRow.user_id.in_(players),
                                                   PlayerSettingsRow.hide_history.is_(True)))))
    return await store.call(hiding, write=False)


def event_of_record(s: Session, record_ids: list[int]) -> dict[int, tuple[str, int | None]]:
    """The event and round of each event game among ``record_ids`` (by its table)."""
    if not record_ids:
        return {}
    q = (select(RecordRow.id, TableRow.event_id, TableRow.settings)
         .join(TableRow, TableRow.id == RecordRow.table_id)
         .where(RecordRow.id.in_(record_ids), TableRow.event_id.is_not(None)))
    return {rid: (eid, (settings or {}).get("event_round")) for rid, eid, settings in s.execute(q)}


def add_record_routes(app: FastAPI, store: Any, user_of: Any, holds: Any = None) -> None:
    """Add the ``/api/records`` and ``/api/users`` routes to ``app``. ``store``: the hub's
    :class:`~.store.Store`; ``user_of``: the request's signed-in user or None; ``holds``:
    ``user -> RoundHold`` (:class:`.conduct.RoundHold`), which event games the user may not see
    while their round is on."""

    async def unheld(viewer: Any, rows: list[tuple[int, list[int], Any]]) -> list[Any]:
        """Of ``rows`` (record id, its players' ids, what to keep), those ``viewer`` may see
        now: an event game :class:`.conduct.RoundHold` holds is left out."""
        if holds is None:
            return [x for _, _, x in rows]
        events = await store.call(lambda s: event_of_record(s, [r for r, _, _ in rows]), write=False)
        if not events:
            return [x for _, _, x in rows]
        hold = holds(viewer)
        return [x for rid, players, x in rows
                if not await hold.held(*events.get(rid, (None, None)),
                                       viewer is not None and viewer.id in (players or ()))]
    def record_json(row: RecordRow, full: bool = False) -> dict[str, Any]:
        out = {"id": row.id, "table": row.table_id, "game": row.game, "names": row.names,
               "players": row.players, "result": row.result, "finished": row.finished,
               "winners": result_winners(row.result)}
        if isinstance(row.result, dict) and row.result.get("unrated"):
            # made rated, not counted (:meth:`.hub.Hub.finish_table`): why, as the table says it
            out["unrated"] = {"reason": row.result["unrated"], "min": ratings.MIN_PLIES_PER_SEAT}
        if full:
            out["record"] = row.record
        return out

    async def get_record(request: Request, record_id: int, table: str | None = None) -> RecordRow:
        """The record ``record_id`` if the viewer may see it; ``table``: the id of the table it
        was played at, as the table's link gives it (the key to a private table's record)."""
        viewer = await user_of(request)
        key = table[:40] if table else None

        def read(s: Session) -> tuple[RecordRow | None, TableRow | None]:
            row = row_by_id(s, RecordRow, record_id)
            if row is None or not viewable(s, row, viewer.id if viewer else None, key):
                return None, None
            return row, (s.get(TableRow, row.table_id) if row.table_id else None)
        row, table = await store.call(read, write=False)
        if row is None:
            raise ApiError(404, "no_record", f"no record {record_id}")
        if holds is not None and table is not None and table.event_id is not None:
            await holds(viewer).refuse(table.event_id, (table.settings or {}).get("event_round"),
                                       viewer is not None and viewer.id in row.players)
        return row

    @app.get("/api/records", tags=["records"])
    async def records(request: Request, user: str | None = None, game: str | None = None,
                      limit: int = 50) -> list[dict[str, Any]]:
        """Finished games, newest first; ``user=me`` or a username for one player's history."""
        limit = max(1, min(limit, 500))
        viewer = await user_of(request)
        if user == "me" and viewer is None:
            raise ApiError(401, "not_signed_in", "sign in first")
        q = (select(RecordRow).where(~hidden_from(viewer.id if viewer else None))
             .order_by(RecordRow.id.desc()).limit(limit))

        def read(s: Session) -> list[tuple[int, list[int], dict[str, Any]]]:
            query = q
            if user:
                found = viewer if user == "me" else auth.find_user(s, user)
                if found is None:
                    raise ApiError(404, "no_user", f"no user {user!r}")
                if (viewer is None or viewer.id != found.id) and ratings.hides_history(s, found.id):
                    raise ApiError(403, "history_hidden", f"{found.username} keeps their history "
                                   "private", username=found.username)
                query = (query.add_columns(RecordPlayer.seat)
                         .join(RecordPlayer, RecordPlayer.record_id == RecordRow.id)
                         .where(RecordPlayer.user_id == found.id))
                if game:
                    query = query.where(RecordRow.game == game)
                # the player's seat in each game, so a page can say won, lost or drawn
                return [(r.id, r.players, {**record_json(r), "seat": seat})
                        for r, seat in s.execute(query).all()]
            if game:
                query = query.where(RecordRow.game == game)
            return [(r.id, r.players, record_json(r)) for r in s.scalars(query).all()]
        return await unheld(viewer, await store.call(read, write=False))

    @app.get("/api/users/{username}", tags=["records"])
    async def profile(request: Request, username: str) -> dict[str, Any]:
        """A player's public profile: ``{"username", "created", "role", "hidden": false,
        "games", "won", "lost", "drawn", "by_game": {game id: {"games", "won", "lost",
        "drawn"}}}`` counted over the player's finished games (a game with no winner is drawn; a
        game another seat won is lost). A player who hides their history is shown to others as
        ``{"username", "created", "role", "hidden": true}``. Error: no_user (404)."""
        viewer = await user_of(request)

        def read(s: Session) -> tuple[dict[str, Any], list[tuple[int, list[int], Any]] | None]:
            found = auth.find_user(s, username) if len(username) <= 64 else None
            if found is None:
                raise ApiError(404, "no_user", f"no user {username!r}")
            hides = ratings.hides_history(s, found.id)
            head = {"username": found.username, "created": found.created, "role": found.role,
                    "hidden": hides}
            if hides and (viewer is None or viewer.id != found.id):
                return head, None
            rows = s.execute(select(RecordRow.id, RecordRow.players, RecordRow.game, RecordRow.result,
                                    RecordPlayer.seat)
                             .join(RecordPlayer, RecordPlayer.record_id == RecordRow.id)
                             .where(RecordPlayer.user_id == found.id,
                                    ~hidden_from(viewer.id if viewer else None))).all()
            return head, [(rid, players, (game_id, result, seat))
                          for rid, players, game_id, result, seat in rows]
        head, rows = await store.call(read, write=False)
        if rows is None:
            return head
        total = {"games": 0, "won": 0, "lost": 0, "drawn": 0}
        by_game: dict[str, dict[str, int]] = {}
        for game_id, result, seat in await unheld(viewer, rows):
            winners = result_winners(result)
            kind = "drawn" if not winners else ("won" if seat in winners else "lost")
            for bucket in (total, by_game.setdefault(game_id, dict.fromkeys(total, 0))):
                bucket["games"] += 1
                bucket[kind] += 1
        return {**head, **total, "by_game": by_game}

    @app.get("/api/records/{record_id}", tags=["records"])
    async def record(request: Request, record_id: int, table: str | None = None) -> dict[str, Any]:
        """One finished game: its summary, the full ``record`` and ``ratings``, the rating
        change of each rated player (``[{"user", "before", "after"}]``, empty when not rated).
        ``table``: the table's id, which shows a private table's game to the holder of its link."""
        row = await get_record(request, record_id, table)
        changes = await store.call(lambda s: ratings.changes_of_record(s, record_id), write=False)
        return {**record_json(row, full=True), "ratings": changes}

    @app.get("/api/records/{record_id}/steps", tags=["records"])
    async def steps(request: Request, record_id: int, table: str | None = None) -> dict[str, Any]:
        """Every position of a finished game for the replay page: per ply, the spectator view
        (``public``) and each seat's view (the game is over, so hidden cards may be shown) as
        its patch on it (``seen``, :func:`.replays.view_patch`); gzipped for a client that
        takes it. In a board game
        each step after the first has ``move``, its move-list entry (:mod:`.movetext`). Errors:
        rate_limited (429, :func:`.replays.limit_replays`), no_record (404). ``table``: as for
        the record."""
        await limit_replays(request)
        row = await get_record(request, record_id, table)
        # a long game is long work, and its answer megabytes: both off the event loop, once
        # per record (a finished record's moves never change)
        steps = await cache.get((row.id, len(row.record.get("actions") or ())),
                                lambda: jsonbody.encode(replay_steps(row.record)))
        head = jsonbody.encode(record_json(row))
        body = b'{"record":' + head + b',"steps":' + steps + b"}"
        return await asyncio.to_thread(steps_response, request, body)

    cache = app.state.steps_cache = StepsCache()

    @app.get("/api/records/{record_id}/download", tags=["records"])
    async def download(request: Request, record_id: int, format: str = "json",
                       table: str | None = None) -> Response:
        """The record as qipai JSON (``format=json``), in the game's own format
        (``format=native``: PGN for xiangqi, SGF for go, ...) or in any format the game writes
        (``format=pgn-chinese``, ``rif``, ...; listed as ``formats`` by ``/api/games``).
        ``table``: as for the record."""
        row = await get_record(request, record_id, table)
        if format == "native":
            format = exports.native_format(row.game) or ""
            if not format:
                raise ApiError(404, "no_native_format", f"{row.game} has no other record format")
        if format not in exports.formats(row.game):
            raise ApiError(400, "bad_format", f"{row.game} records download as: "
                           f"{', '.join(exports.formats(row.game))} or native")
        try:
            text, ext, media = await asyncio.to_thread(exports.download, Record.from_json(row.record),
                                                       format)
        except (ValueError, QipaiError) as e:
            raise ApiError(409, "cannot_export", str(e), **why(e, "record.unfinished")) from None
        return Response(text, media_type=media, headers={
            "Content-Disposition": f'attachment; filename="qipai-{row.id}.{ext}"'})
