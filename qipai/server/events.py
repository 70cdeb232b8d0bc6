"""Events on the server: the competition layer's director, with its games played at live tables.

An organizer creates an event from a preset with its players (accounts by username, or built-in
bots), which makes the draw and pairs round 1 (:func:`qipai.competition.event.create_event`).
"Start round" seats every pending game of the current round at a live table — people in their
seats, bots in theirs — starting from the game's own seed or deal and clock as the director
stored them. When a table's game ends, its record is stored in the event and the director
advances (the next game of a series, the next deal of a session, the next round's pairings);
new games of a round already started are seated at once, a new round waits for the organizer.
The event pages poll ``GET /api/events/{id}`` for the bracket, pairings and standings.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from fastapi import FastAPI, Request, Response
from pydantic import Field
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from qipai.competition.config import parse_config, preset_data, preset_names
from qipai.competition.event import EventError
from qipai.competition.form import FieldError, check_form
from qipai.competition.meet import units_csv
from qipai.core.errors import QipaiError, why
from qipai.core.pools import release, stop_pool

from . import conduct, eventstart, jsonbody, ratings, walkover
from .bodies import Body
from .chat import is_referee
from .errors import ApiError
from .eventwork import EventWork, run, worker_call, worker_init
from .hub import Hub
from .models import MAX_ROW_ID, EventSeatRow, RecordRow, TableRow, UserRow
from .plaintext import Plain
from .ratelimit import retry_after
from .replays import limit_replays, replay_steps, steps_response
from .tables import LiveTable

log = logging.getLogger("qipai.server")


def checked_form(preset: str, changes: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``(set_fields fields, the form's fields)`` of a form's changes. Errors: bad_field (400:
    ``field``, ``value``, ``valid``), bad_event (400: an unknown preset)."""
    try:
        _, fields, form = check_form(preset, changes)
    except FieldError as e:
        raise ApiError(400, "bad_field", f"{e.field} = {e.value!r} is not accepted: {e}", field=e.field,
                       value=e.value, valid=e.valid or []) from None
    except EventError as e:
        raise ApiError(400, "bad_event", str(e), **why(e, "event.check_fields")) from None
    return fields, form


class NewEvent(Body):
    preset: str
    name: Plain | None = Field(default=None, max_length=200)
    event_id: str | None = Field(default=None, max_length=40)
    # usernames of accounts, or {"id": name, "bot": bot name} for built-in bots
    players: list[str | dict[str, Any]]
    # fields of the preset to change, by dotted path ("game.repetition_rule": "draw_only")
    fields: dict[str, Any] = Field(default_factory=dict, max_length=100)
    meet: Plain | None = Field(default=None, max_length=200)
    # open the event for registration (players join with its code) instead of drawing now
    registration: bool = False
    check_in: bool = False
    # changes made in the organizer's form, by the form's paths (qipai.competition.form)
    form: dict[str, Any] = Field(default_factory=dict, max_length=100)
    # the form's key for one press of "Create event": its repeats (a double click, a retry after
    # an answer lost) make no second event but answer with the first (eventwork.EventWork._once)
    request_key: str | None = Field(default=None, max_length=64)


class EventForm(Body):
    preset: str = Field(max_length=100)
    fields: dict[str, Any] = Field(default_factory=dict, max_length=100)


class Join(Body):
    code: str = Field(max_length=64)
    nonce: str | None = Field(default=None, max_length=64)
    unit: Plain | None = Field(default=None, max_length=200)


class EventService:
    """Seats an event's games at tables and stores their results.

    The database work (:class:`~qipai.server.eventwork.EventWork`: the draw, pairings,
    standings, storing results) runs in a worker process, or a worker thread for a database in
    memory, so no event holds up the live tables; changes of one event run one at a time. Only
    making the live tables of new games happens on the event loop, a table at a time."""

    def __init__(self, hub: Hub, db: sessionmaker[Session]) -> None:
        self.hub = hub
        self.work = EventWork(db, hub)
        url = db.kw["bind"].url
        in_memory = url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:")
        #: the worker process's database URL (None: work in threads of this process)
        self._url = None if in_memory else url.render_as_string(hide_password=False)
        self._pool: ProcessPoolExecutor | None = None
        self._locks: dict[str, asyncio.Lock] = {}     # event id -> one change of it at a time
        self._tasks: set[asyncio.Task[None]] = set()
        hub.on_finish.append(self.table_finished)
        hub.on_no_show.append(self.no_show)

    def _lock(self, event_id: str) -> asyncio.Lock:
        return self._locks.setdefault(event_id, asyncio.Lock())

    async def read(self, method: str, *args: Any) -> Any:
        """A reading method of EventWork, in a thread (short; never queued behind a long change)."""
        return self._answer(await asyncio.to_thread(run, self.work, method, args))

    async def read_json(self, method: str, *args: Any) -> jsonbody.Encoded:
        """:meth:`read`, answered as its JSON body, encoded in the same thread (an event's
        description is large: see :mod:`.jsonbody`)."""
        return jsonbody.Encoded(self._answer(await asyncio.to_thread(run_encoded, self.work, method, args)))

    async def change(self, method: str, *args: Any) -> Any:
        """A writing method of EventWork, in the worker process."""
        if self._url is None:
            return await self.read(method, *args)
        loop = asyncio.get_running_loop()
        try:
            out = await loop.run_in_executor(self._worker(), worker_call, method, args)
        except BrokenProcessPool:           # the worker died (killed): a new one next time
            self._pool = None
            raise ApiError(503, "worker_failed", "the event worker stopped; try again") from None
        return self._answer(out)

    def _worker(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=worker_init, initargs=(self._url, self.hub.settings))
        return self._pool

    def start_worker(self) -> None:
        """Start the worker process now (it starts at the first change otherwise); returns at
        once, the process goes on starting meanwhile. Nothing for a database in memory."""
        if self._url is not None and self._pool is None:
            self._worker().submit(os.getpid)        # the pool starts its process for a task

    @staticmethod
    def _answer(out: tuple[str, Any]) -> Any:
        kind, value = out
        if kind == "error":
            status, code, message, *params = value
            raise ApiError(status, code, message, **(params[0] if params else {}))
        return value

    def close(self) -> None:
        """Stop the worker process (a change it was making is rolled back by the database and
        made again by :meth:`resume` at the next start)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            stop_pool(pool)        # its queues closed: nothing "leaked" for the resource tracker
            del pool
            release()

    # ----- playing -----------------------------------------------------------------------------
    async def start_round(self, event_id: str) -> list[str]:
        """Seat every pending game of the current round that has no table yet; returns the new
        tables' ids. Errors: no_event (404), event_over (409)."""
        async with self._lock(event_id):
            return await self._open(await self.change("start_round", event_id))

    async def _open(self, rows: list[dict[str, Any]]) -> list[str]:
        """Make stored tables live and start their games, yielding to the other tables between
        two of them."""
        for cols in rows:
            if cols["id"] not in self.hub.tables:
                eventstart.begin(self.hub.adopt(TableRow(**cols)))   # §5.6 ready, §4.3 between games
                await asyncio.sleep(0)
        return [cols["id"] for cols in rows]

    def table_finished(self, table: LiveTable, row: RecordRow) -> None:
        """A table's game is over and its record stored: store it in the event and advance it
        (in the worker), then seat what follows in the started rounds."""
        if table.event_id is None or table.event_game is None:
            return
        task = asyncio.get_running_loop().create_task(self._settle(table.event_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def no_show(self, table: LiveTable, seats: list[int]) -> None:
        """``no_show_grace`` ran out at ``table`` with the persons of ``seats`` absent (§5.6,
        :mod:`.walkover`): they are declared absent in the event (in the worker), then the table
        closes unplayed, or its game starts with the absent seats in trusteeship."""
        if table.event_id is None or table.event_game is None:
            return
        task = asyncio.get_running_loop().create_task(self._no_show(table, seats))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _no_show(self, t: LiveTable, seats: list[int]) -> None:
        event_id = t.event_id
        assert event_id is not None
        try:
            async with self._lock(event_id):
                out = await self.change("no_show_table", event_id, t.event_game, seats, t.id)
        except ApiError:
            log.exception("event %s table %s: the no-show could not be declared; the game starts",
                          event_id, t.id)
            out = {"play": True, "trustee": []}
        if out["play"]:
            eventstart.start_absent(t, out["trustee"])
        else:
            await walkover.close_table(t, out["absent"])
        await self._settle(event_id)

    async def _settle(self, event_id: str) -> None:
        """Settle the event (see EventWork.settle), again and again while storage fails."""
        wait = 0.5
        while True:
            async with self._lock(event_id):
                try:
                    await self._open(await self.change("settle", event_id))
                    await self._rated(event_id)
                    return
                except ApiError as e:
                    if e.code == "worker_failed":
                        log.error("event %s: the worker stopped; trying again", event_id)
                    elif e.code != "storage_unavailable":
                        raise
            await asyncio.sleep(wait)
            wait = min(wait * 2, 30.0)

    async def _rated(self, event_id: str) -> None:
        """The event's finished tables kept here take the rating changes their round's end
        applied (:func:`.ratings.rate_round`): a rated event game's table finished with none."""
        waiting = [t for t in (*self.hub.tables.values(), *self.hub.finished.values())
                   if t.event_id == event_id and t.record_id is not None and not t.rating_changes
                   and t.settings.get("rated") is True]
        for t in waiting:
            rid = t.record_id
            t.rating_changes = await self.hub.store.call(lambda s, rid=rid: ratings.changes_of_record(s, rid),
                                                         write=False)

    async def resume(self) -> None:
        """After a (re)start: store the games that finished while the event was not told, and
        seat the pending games of every started round that have no table."""
        for event_id in await self.read("started_events"):
            await self._settle(event_id)


def stored_event_games(s: Session, user_id: int) -> list[dict[str, Any]]:
    """``GET /api/me/event-games`` from the database (any worker of a cluster): the account's
    event tables open or playing, by its seats (``event_seats``), oldest first."""
    q = (select(TableRow).join(EventSeatRow, EventSeatRow.table_id == TableRow.id)
         .where(EventSeatRow.user_id == user_id, TableRow.status.in_(("open", "playing")),
                TableRow.event_id.is_not(None))
         .order_by(TableRow.created, TableRow.id))
    return [{"table": t.id, "event": t.event_id, "round": (t.settings or {}).get("event_round"),
             "started": t.status == "playing",
             "hold": eventstart.stored_hold(t.status, t.seats, t.settings or {})} for t in s.scalars(q)]


def run_encoded(work: EventWork, method: str, args: tuple[Any, ...]) -> tuple[str, Any]:
    """:func:`~.eventwork.run` with a value answered as its JSON body (bytes)."""
    kind, value = run(work, method, args)
    return kind, jsonbody.encode(value) if kind == "ok" else value


def csv_response(text: str, filename: str) -> Response:
    """A CSV download, UTF-8 with a byte order mark: Excel (on Chinese Windows too) reads a
    file without one in the system's code page and shows Chinese names as mojibake."""
    return Response(text.encode("utf-8-sig"), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def add_event_routes(app: FastAPI, hub: Hub, db: sessionmaker[Session],
                     need_user: Callable[[Request], Awaitable[UserRow]],
                     user_of: Callable[[Request], Awaitable[UserRow | None]] | None = None) -> EventService:
    service = EventService(hub, db)

    async def organizer(request: Request) -> UserRow:
        user = await need_user(request)
        if user.role != "organizer":
            raise ApiError(403, "not_organizer", "only an organizer may do this")
        return user

    @app.get("/api/presets", tags=["events"])
    async def presets() -> list[dict[str, Any]]:
        """Event presets (one per event of the rule sheets): name, title, game."""
        out = []
        for name in preset_names():
            try:
                cfg = parse_config(name, preset_data(name))
            except QipaiError:
                continue
            out.append({"name": name, "title": cfg.title, "game": cfg.game_id, "stage": cfg.stage,
                        "seats": cfg.seats})
        return out

    @app.post("/api/events/form", tags=["events"])
    async def event_form(body: EventForm) -> dict[str, Any]:
        """The fields an organizer may change in a preset, with ``fields`` (form paths) changed:
        ``{"preset", "fields": [{"path", "group", "type", "value", "choices", "nullable", "min",
        "label", "params"}]}`` (qipai.competition.form). Errors: bad_field (400, with ``field``,
        ``value`` and ``valid``: the first change refused), bad_event (an unknown preset)."""
        _, form = await asyncio.to_thread(checked_form, body.preset, body.fields)
        return {"preset": body.preset, "fields": form}

    @app.get("/api/events", tags=["events"])
    async def events() -> list[dict[str, Any]]:
        """Every event, newest first: id, name, preset, game, status, created, entrants (a count)."""
        return await service.read_json("listing")

    @app.get("/api/me/event-games", tags=["events"])
    async def my_event_games(request: Request) -> list[dict[str, Any]]:
        """The signed-in account's event games not over on this server: ``[{"table", "event",
        "round", "started", "hold"}]`` (``hold``: what a game not started waits for, see
        :mod:`.eventstart`), for every page to take the player to a game that starts or has
        started (competition.md §5.6). Empty when signed out."""
        user = await user_of(request) if user_of is not None else None
        if user is None:
            return []
        if hub.cluster is not None:       # several workers: the database's, the same on each
            uid = user.id
            return await hub.store.call(lambda s: stored_event_games(s, uid), write=False)
        out = []
        for t in hub.tables.events_of(user.id):      # the index, not every live table
            if t.status in ("finished", "aborted") or t.seat_of(user.id) is None:
                continue
            out.append({"table": t.id, "event": t.event_id, "round": t.event_round,
                        "started": t.runner is not None, "hold": eventstart.hold(t)})
        return out

    @app.post("/api/events", tags=["events"], status_code=201)
    async def new_event(request: Request, body: NewEvent) -> dict[str, Any]:
        """Create an event from a preset with its players (organizers only), with ``form``: the
        changes of the organizer's form (``POST /api/events/form``), and ``fields``: more fields
        by set_fields path. Nothing is made on an error: not_organizer (403), no_user, bad_field,
        bad_event (400)."""
        await organizer(request)
        fields = dict(body.fields)
        if body.form:
            fields = {**(await asyncio.to_thread(checked_form, body.preset, body.form))[0], **fields}
        fields = {**fields, **({"meet": body.meet} if body.meet else {})}
        for path in fields:
            if path == "engines" or str(path).startswith("engines."):
                # engine commands are the server's own (qipai serve --engine), never an event's
                raise ApiError(400, "bad_field", "an event on the server cannot name engine programs; "
                               "the engines a server offers are set by qipai serve --engine",
                               field=path, value=fields[path], valid=[])
        if body.registration:
            made = await service.change("open_entries", body.preset, body.players, body.event_id, body.name,
                                        fields, body.check_in, body.request_key)
        else:
            made = await service.change("create", body.preset, body.players, body.event_id, body.name, fields,
                                        body.request_key)
        return await jsonbody.answer(made, 201)

    @app.get("/api/events/{event_id}/entries", tags=["events"])
    async def entries(request: Request, event_id: str) -> dict[str, Any]:
        """An event in registration, as its organizer sees it: ``{"code", "check_in", "entrants":
        [{"id", "name", "unit", "bot", "status", "nonce"}]}`` (organizers only). Errors:
        not_organizer (403), no_event (404), entries_closed (409)."""
        await organizer(request)
        return await service.read("entries", event_id)

    @app.post("/api/events/{event_id}/join", tags=["events"])
    async def join(request: Request, event_id: str, body: Join) -> dict[str, Any]:
        """Join an event in registration with its code (the signed-in account; ``nonce``: an
        optional registration nonce for the draw, §6.1). Errors: no_event (404), entries_closed
        (409), bad_join (400), rate_limited (429: too many tries at join codes by this account,
        ``Limits.join_account``; counted before the code is checked, so a guess past the limit
        tells nothing)."""
        user = await need_user(request)
        wait = await hub.limits.hit("join_account", str(user.id))
        if wait:
            raise ApiError(429, "rate_limited", "too many tries at join codes; slow down",
                           retry_after=retry_after(wait), what="join")
        await service.change("join", event_id, user.username, body.code, body.nonce, body.unit)
        return await service.read_json("describe", event_id)

    @app.post("/api/events/{event_id}/leave", tags=["events"])
    async def leave(request: Request, event_id: str) -> dict[str, Any]:
        """Leave an event before its draw. Errors as join."""
        user = await need_user(request)
        await service.change("leave", event_id, user.username)
        return await service.read_json("describe", event_id)

    @app.post("/api/events/{event_id}/checkin", tags=["events"])
    async def checkin(request: Request, event_id: str) -> dict[str, Any]:
        """Check in: present for the draw. Errors as join."""
        user = await need_user(request)
        await service.change("check_in", event_id, user.username)
        return await service.read_json("describe", event_id)

    @app.post("/api/events/{event_id}/close", tags=["events"])
    async def close(request: Request, event_id: str) -> dict[str, Any]:
        """Close entries (organizers only): the draw and round 1; the answer has ``no_shows``.
        Errors: not_organizer (403), no_event (404), entries_closed (409), bad_join (400: too
        few entrants)."""
        await organizer(request)
        return await jsonbody.answer(await service.change("close_entries", event_id))

    async def round_hold(request: Request, event_id: str) -> tuple[conduct.RoundHold, str | None]:
        """The viewer's :class:`.conduct.RoundHold`, loaded for ``event_id``, and username."""
        viewer = await user_of(request) if user_of is not None else None
        hold = conduct.RoundHold(hub, service, viewer)
        await hold.load(event_id)
        return hold, viewer.username if viewer is not None else None

    @app.get("/api/events/{event_id}", tags=["events"])
    async def event(request: Request, event_id: str) -> Any:
        """The event: entrants, rounds with matches and games (and their tables), standings.
        A game of a round still being played shows no result, nor its record, to whoever did
        not play it and does not referee (:class:`.conduct.RoundHold`); nor does its match; and
        the standings such a viewer sees are those at the end of the last round finished
        (``standings_after``: that round of the stage; null when the standings are live)."""
        viewer = await user_of(request) if user_of is not None else None
        # the rounds held and the event in one read (EventWork.describe): a result recorded
        # meanwhile (a game's end on another worker, a correction) is in the answer or not,
        # never shown with the rounds of another moment
        referee = await is_referee(hub, event_id, viewer)
        return await service.read_json("describe", event_id,
                                       (referee, viewer.username if viewer is not None else None))

    @app.get("/api/events/{event_id}/games/{game_id}/steps", tags=["events"])
    async def event_game_steps(request: Request, event_id: str, game_id: int) -> dict[str, Any]:
        """Every position of a finished event game (played at a table, by ``qipai event run``,
        or entered with its moves), as ``/api/records/{id}/steps`` gives them: ``{"record":
        {"game", "names", "result", "event", "round", "match", "number"}, "steps": [...]}``.
        Errors: rate_limited (429, :func:`.replays.limit_replays`), no_record (404),
        round_in_play (403: its round is still on and the caller neither played it nor referees,
        :func:`.conduct.hold_round_game`)."""
        await limit_replays(request)
        if not 0 < game_id <= MAX_ROW_ID:
            raise ApiError(404, "no_record", f"no stored game {game_id} in event {event_id!r}")
        got = await service.read("game_record", event_id, game_id)
        viewer = await user_of(request) if user_of is not None else None
        await conduct.hold_round_game(hub, service, event_id, got.get("round"), viewer,
                                      viewer is not None and viewer.username in got.pop("people"))
        record = got.pop("record")
        try:
            steps = await asyncio.to_thread(replay_steps, record)
        except QipaiError as e:
            raise ApiError(409, "cannot_replay", str(e), **why(e, "record.unreplayable")) from None
        head = {**got, "id": None, "game": record["game"]}
        body = await asyncio.to_thread(jsonbody.encode, {"record": head, "steps": steps})
        return await asyncio.to_thread(steps_response, request, body)

    @app.get("/api/events/{event_id}/export/{what}.csv", tags=["events"])
    async def event_export(request: Request, event_id: str, what: str) -> Response:
        """The event's ``pairings``, ``results`` or ``standings`` as CSV (UTF-8, a header row);
        a game or match of a round still being played without its result, as on the event's page.
        Errors: no_event, no_export (404)."""
        hold, name = await round_hold(request, event_id)
        text = await service.read("export", event_id, what,
                                  lambda rnd, names: hold.held_now(event_id, rnd, name in names))
        return csv_response(text, f"{event_id}-{what}.csv")

    @app.get("/api/events/{event_id}/export/games.zip", tags=["events"])
    async def event_games(request: Request, event_id: str) -> Response:
        """Every game of the event in one zip: a file per finished game in its game's own record
        format (PGN, SGF, RIF; qipai JSON for the others) named by round, board and players,
        and ``index.csv``, a row per game (:mod:`.eventfiles`). A game of a round still being
        played is left out for a viewer who neither played it nor referees, as on the event's
        page. Error: no_event (404)."""
        await limit_replays(request)
        hold, name = await round_hold(request, event_id)
        data = await service.read("games_zip", event_id,
                                  lambda rnd, names: hold.held_now(event_id, rnd, name in names))
        return Response(data, media_type="application/zip",
                        headers={"Content-Disposition": f'attachment; filename="{event_id}-games.zip"'})

    @app.get("/api/events/{event_id}/export/trf.txt", tags=["events"])
    async def event_trf(event_id: str) -> Response:
        """The event as FIDE's Tournament Report File (TRF16), for a Swiss or a round robin of
        one stage of a two-player game: the rounds every match of which is over, with the
        standings' ranks at the end of the last of them (:mod:`qipai.competition.trf`).
        Errors: no_event (404), trf_no_draw, trf_pairs, trf_game (``seats``), trf_format (409:
        an event a TRF cannot describe)."""
        text = await service.read("trf", event_id)
        return Response(text.encode("utf-8"), media_type="text/plain; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{event_id}.trf"'})

    @app.get("/api/meets/{meet}", tags=["events"])
    async def meet_units(meet: str) -> dict[str, Any]:
        """Unit standings of a meet: ``{"meet", "events": [...], "units": [{"rank", "unit",
        "points", "champions", "runners_up", "by_event"}]}`` (see qipai.competition.meet).
        Error: no_meet (404)."""
        return await service.read("units", meet)

    @app.get("/api/meets/{meet}/units.csv", tags=["events"])
    async def meet_units_csv(meet: str) -> Response:
        """The unit standings of a meet as CSV. Error: no_meet (404)."""
        text = units_csv(await service.read("units", meet))
        return csv_response(text, "units.csv")

    @app.post("/api/events/{event_id}/start", tags=["events"])
    async def start_round(request: Request, event_id: str) -> dict[str, Any]:
        """Seat the current round's pending games at tables (organizers only)."""
        await organizer(request)
        tables = await service.start_round(event_id)
        return await jsonbody.answer({"tables": tables, "event": await service.read("describe", event_id)})

    return service
