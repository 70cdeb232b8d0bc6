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

import logging
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from qipai.competition.config import parse_config, preset_data, preset_names
from qipai.competition.db import EventRow, GameRow
from qipai.competition.event import Director, EventError, create_event
from qipai.core.errors import QipaiError

from .errors import ApiError
from .models import RecordRow, UserRow
from .tables import Hub, LiveTable

log = logging.getLogger("qipai.server")


class NewEvent(BaseModel):
    preset: str
    name: str | None = Field(default=None, max_length=200)
    event_id: str | None = Field(default=None, max_length=40)
    # usernames of accounts, or {"id": name, "bot": bot name} for built-in bots
    players: list[str | dict[str, Any]]


class EventService:
    """Seats an event's games at tables and stores their results."""

    def __init__(self, hub: Hub, db: sessionmaker[Session]) -> None:
        self.hub = hub
        self.db = db
        self.started: dict[str, int] = {}        # event id -> highest round the organizer started
        hub.on_finish.append(self.table_finished)

    # ----- creating and reading ------------------------------------------------------------
    def create(self, body: NewEvent) -> str:
        players: list[dict[str, Any]] = []
        with self.db() as s:
            for p in body.players:
                entry = {"id": p} if isinstance(p, str) else dict(p)
                if not entry.get("bot"):
                    if s.scalar(select(UserRow.id).where(UserRow.username == entry.get("id"))) is None:
                        raise ApiError(400, "no_user", f"no account {entry.get('id')!r} to register")
                players.append(entry)
        try:
            return create_event(self.db, body.preset, players, event_id=body.event_id, name=body.name)
        except (EventError, QipaiError) as e:
            raise ApiError(400, "bad_event", str(e)) from None

    def tables_of(self, event_id: str) -> dict[int, LiveTable]:
        """Live (and recently finished) tables of the event, by event game id."""
        out = {}
        for t in list(self.hub.tables.values()) + list(self.hub.finished.values()):
            if t.event_id == event_id and "event_game" in t.settings:
                out[t.settings["event_game"]] = t
        return out

    def describe(self, event_id: str) -> dict[str, Any]:
        with self.db() as s:
            ev = s.get(EventRow, event_id)
            if ev is None:
                raise ApiError(404, "no_event", f"no event {event_id!r}")
            d = Director(s, ev)
            seated = self.tables_of(event_id)
            records = dict(s.execute(select(RecordRow.table_id, RecordRow.id)
                                     .where(RecordRow.table_id.in_([t.id for t in seated.values()]))).all())
            rounds: dict[int, list[dict[str, Any]]] = {}
            for m in d.matches():
                games = []
                for g in m.games:
                    t = seated.get(g.id)
                    games.append({"id": g.id, "number": g.number, "status": g.status,
                                  "seats": [d.seat_player(g, i)[0] for i in range(len(g.seats))],
                                  "result": (g.result or {}).get("text"),
                                  "table": t.id if t else None,
                                  "record": records.get(t.id) if t else None})
                rounds.setdefault(m.round, []).append({
                    "index": m.index, "kind": m.kind, "status": m.status,
                    "entrants": [d.name(x) for x in m.entrants], "result": m.result, "games": games})
            standings = None
            if d.stage not in ("knockout", "table_knockout"):
                standings = d.standings()
            return {"id": ev.id, "name": ev.name, "preset": ev.preset, "game": ev.game, "status": ev.status,
                    "commitment": ev.commitment, "created": ev.created, "stage": d.stage,
                    "current_round": d.current_round(), "started_round": self.started.get(ev.id, 0),
                    "entrants": [{"id": e.entrant_id, "name": e.name, "bot": e.bot, "draw": e.draw,
                                  "status": e.status} for e in ev.entrants],
                    "rounds": [{"round": r, "matches": ms} for r, ms in sorted(rounds.items())],
                    "standings": standings, "outcome": ev.outcome}

    # ----- playing -----------------------------------------------------------------------------
    def start_round(self, event_id: str) -> list[str]:
        """Seat every pending game of the current round that has no table yet; returns table ids."""
        with self.db() as s:
            ev = s.get(EventRow, event_id)
            if ev is None:
                raise ApiError(404, "no_event", f"no event {event_id!r}")
            if ev.status != "running":
                raise ApiError(409, "event_over", "the event is finished")
            d = Director(s, ev)
            rnd = d.current_round()
            self.started[event_id] = max(self.started.get(event_id, 0), rnd)
            return self._seat_pending(s, d, ev, rnd)

    def _seat_pending(self, s: Session, d: Director, ev: EventRow, upto: int) -> list[str]:
        seated = self.tables_of(ev.id)
        users = {u.username: u.id for u in s.scalars(select(UserRow))}
        out = []
        for g in d.pending_games():
            if g.match.round > upto or g.id in seated:
                continue
            out.append(self._seat(d, ev, g, users).id)
        return out

    def _seat(self, d: Director, ev: EventRow, g: GameRow, users: dict[str, int]) -> LiveTable:
        game = d.game_for(g)
        state = d.new_state(game, g)
        settings = {"clock": g.spec.get("clock") or "none"}
        extra = {"event_game": g.id, "origin": {"seed": state.seed, "deal": state.deal}}
        table = self.hub.create_table(None, game.id, dict(game.options), settings,
                                      num_seats=state.num_seats, event_id=ev.id, extra=extra)
        for i in range(len(g.seats)):
            name, bot = d.seat_player(g, i)
            if bot:
                table.seats[i] = {"bot": bot, "name": name}
            elif name in users:
                table.seats[i] = {"user": users[name], "name": name}
            else:                 # an entrant without an account is played by the default bot
                table.seats[i] = {"bot": "random", "name": name}
        table.start()
        return table

    def table_finished(self, table: LiveTable, row: RecordRow) -> None:
        """Store a finished event game in the event and advance it; seat what follows in the
        same round."""
        gid = table.settings.get("event_game")
        if table.event_id is None or gid is None:
            return
        try:
            with self.db() as s:
                g = s.get(GameRow, gid)
                ev = s.get(EventRow, table.event_id)
                if g is None or ev is None or g.status != "pending":
                    return
                d = Director(s, ev)
                state = table.runner.state
                d._store(g, state, row.record, "played", row.record.get("meta", {}).get("duration", 0))
                s.flush()
                d.advance()
                s.commit()
                if ev.status == "running":
                    d = Director(s, ev)
                    self._seat_pending(s, d, ev, self.started.get(ev.id, 0))
        except QipaiError:
            log.exception("event %s: storing game %s failed", table.event_id, gid)


def add_event_routes(app: FastAPI, hub: Hub, db: sessionmaker[Session],
                     need_user: Callable[[Request], UserRow]) -> EventService:
    service = EventService(hub, db)

    def organizer(request: Request) -> UserRow:
        user = need_user(request)
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

    @app.get("/api/events", tags=["events"])
    async def events() -> list[dict[str, Any]]:
        with db() as s:
            rows = s.scalars(select(EventRow).order_by(EventRow.created.desc())).all()
            return [{"id": e.id, "name": e.name, "preset": e.preset, "game": e.game, "status": e.status,
                     "created": e.created, "entrants": len(e.entrants)} for e in rows]

    @app.post("/api/events", tags=["events"], status_code=201)
    async def new_event(request: Request, body: NewEvent) -> dict[str, Any]:
        """Create an event from a preset with its players (organizers only). Errors:
        not_organizer (403), no_user, bad_event (400)."""
        organizer(request)
        return service.describe(service.create(body))

    @app.get("/api/events/{event_id}", tags=["events"])
    async def event(event_id: str) -> dict[str, Any]:
        """The event: entrants, rounds with matches and games (and their tables), standings."""
        return service.describe(event_id)

    @app.post("/api/events/{event_id}/start", tags=["events"])
    async def start_round(request: Request, event_id: str) -> dict[str, Any]:
        """Seat the current round's pending games at tables (organizers only)."""
        organizer(request)
        tables = service.start_round(event_id)
        return {"tables": tables, "event": service.describe(event_id)}

    return service
