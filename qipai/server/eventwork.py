"""The database side of events on the server, run away from the event loop.

Making an event (the draw, round 1's pairings, hundreds of games written), storing a result and
pairing the next round (a Swiss round of 1,024 entrants takes tens of seconds) are long
computations. :class:`EventWork` does them with blocking database sessions; the server runs it
in a worker process of its own (:func:`worker_init` / :func:`worker_call`, so it shares no
interpreter lock with the live tables and runs at a lower priority), or in a thread when the
database lives in the server's memory. It only writes the database: new tables come back as
plain column values (:data:`qipai.server.hub.TABLE_COLUMNS`), made live by the event loop.

Restart safety lives in two columns: ``events.started_round`` (the organizer's latest "start
round": its games are seated as they come) and ``tables.event_game`` (the table of each event
game; unique, so no game is ever seated twice).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from qipai.competition import registration as reg
from qipai.competition.db import EntrantRow, EventRow, GameRow
from qipai.competition.event import Director, EventError, create_event
from qipai.competition.meet import EXPORTS, event_csv, unit_standings
from qipai.competition.results import result_states
from qipai.core import Record
from qipai.core.errors import QipaiError, why
from qipai.core.record import replay

from . import eventstart, ratings, walkover
from .auth import username_key
from .config import Settings
from .errors import ApiError
from .eventphase import phase
from .hub import Hub, insert_tables, row_values
from .models import EventRefereeRow, EventRequestRow, EventSeatRow, RecordRow, TableRow, UserRow
from .store import UNAVAILABLE, storage_error

log = logging.getLogger("qipai.server")

#: a "Create event" press waits this long (s) for the same press being made elsewhere (_claim)
CLAIM_WAIT = 20.0
#: ... and takes over a claim unfilled this long (s): its maker stopped midway
CLAIM_STALE = 300.0
CLAIM_POLL = 0.2

#: how much lower than the server's the worker process's CPU priority is (``nice``)
WORKER_NICE = 5


#: what an event's page shows of a game's result (left out while :class:`.conduct.RoundHold` holds it)
GAME_RESULT = {"result": None, "reason": None, "winners": [], "winner_entrants": [], "confirmed": False,
               "standing": None, "confirmed_by": [], "corrections": [], "replay": False, "record": None}


def held_results(ev: dict[str, Any], held: Callable[[int, bool], bool], name: str | None) -> dict[str, Any]:
    """The event ``ev`` (as described) without the results held from the viewer ``name``
    (``held(round, played)``: whether a game of that round is, ``played``: the viewer played
    it): a game's result and record, and its match's result when the viewer played none of the
    match's games."""
    for rnd in ev["rounds"]:
        for m in rnd["matches"]:
            played = any(name is not None and name in g["seats"] for g in m["games"])
            if held(rnd["round"], played):
                m.update(result=None, winner=None)
            for g in m["games"]:
                if held(rnd["round"], name is not None and name in g["seats"]):
                    g.update(GAME_RESULT)
    return ev


class EventWork:
    """Reads and writes events in the database (blocking; the caller picks the thread or
    process). ``hub`` only checks and builds new table rows (:meth:`Hub.new_row`)."""

    def __init__(self, db: sessionmaker[Session], hub: Hub) -> None:
        self.db = db
        self.hub = hub

    # ----- creating and reading ----------------------------------------------------------------
    # ----- registration (qipai.competition.registration) ---------------------------------------
    def open_entries(self, preset: str, players: list[str | dict[str, Any]], event_id: str | None,
                     name: str | None, fields: dict[str, Any] | None, check_in: bool,
                     request_key: str | None = None) -> dict[str, Any]:
        """Open an event for registration; returns it as :meth:`describe` shows it, with its join
        ``code``; once per ``request_key`` (:meth:`_once`). Errors: no_user, bad_event (400)."""
        entries = self._entries(players)

        def make() -> str:
            try:
                return reg.open_registration(self.db, preset, event_id=event_id, name=name, fields=fields,
                                             check_in=check_in, players=entries)[0]
            except (EventError, QipaiError) as e:
                raise ApiError(400, "bad_event", str(e), **why(e, "event.check_fields")) from None
        made = self._once(request_key, make)
        return {**self.describe(made), "code": reg.registration(self.db, made)["code"]}

    def _once(self, request_key: str | None, make: Any) -> str:
        """The event made for the organizer's form ``request_key`` (a press of "Create event" and
        its repeats: a double click, an answer lost on the way, a second press on a page that
        seemed stuck, the same request sent again after a restart or to another worker of a
        cluster), else ``make()``'s: one event per key. The key is kept in the database
        (``event_requests``): claimed before the event is made, given its event once made, let go
        if the making fails (the form, mended, may be sent again with its key)."""
        if not request_key:
            return make()
        done = self._claim(request_key)
        if done is not None:
            return done
        try:
            made = make()
        except BaseException:
            with self.db() as s:
                s.execute(delete(EventRequestRow).where(EventRequestRow.request_key == request_key,
                                                        EventRequestRow.event_id.is_(None)))
                s.commit()
            raise
        with self.db() as s:
            s.execute(update(EventRequestRow).where(EventRequestRow.request_key == request_key)
                      .values(event_id=made))
            s.commit()
        return made

    def _claim(self, request_key: str) -> str | None:
        """The event the press ``request_key`` made already, or None once this process has claimed
        the key to make it. A press being made elsewhere is waited for (:data:`CLAIM_WAIT`; then
        event_in_making, 409); a claim left unfilled for :data:`CLAIM_STALE` (its maker stopped
        midway) is taken over."""
        deadline = time.monotonic() + CLAIM_WAIT
        key = EventRequestRow.request_key == request_key
        while True:
            now = time.time()
            with self.db() as s:
                row = s.get(EventRequestRow, request_key)
                if row is not None and row.event_id is not None:
                    return row.event_id
                if row is None:
                    s.add(EventRequestRow(request_key=request_key, event_id=None, claimed=now))
                    try:
                        s.commit()
                        return None
                    except IntegrityError:        # claimed at the same moment elsewhere
                        s.rollback()
                        continue
                if now - row.claimed > CLAIM_STALE:
                    # one taker: the claim read is replaced only if nobody replaced it first
                    taken = s.execute(update(EventRequestRow).where(
                        key, EventRequestRow.event_id.is_(None), EventRequestRow.claimed == row.claimed)
                        .values(claimed=now)).rowcount
                    s.commit()
                    if taken:
                        return None
                    continue
            if time.monotonic() > deadline:
                raise ApiError(409, "event_in_making", "this event is still being made by an earlier "
                               "press of the form; it is listed among the events once made")
            time.sleep(CLAIM_POLL)

    def entries(self, event_id: str) -> dict[str, Any]:
        """The organizer's view of the entries (with the join code). Errors: no_event (404),
        entries_closed (409)."""
        return self._registration(reg.registration, event_id)

    def join(self, event_id: str, username: str, code: str, nonce: str | None, unit: str | None) -> None:
        """Register account ``username``. Errors: no_event (404), entries_closed (409),
        bad_join (400: a wrong code, a bad nonce, an entrant the event refuses), referees_event
        (409: a referee of the event does not play in it, :func:`.appointments.plays_in`)."""
        with self.db() as s:
            uid = s.scalar(select(UserRow.id).where(UserRow.username == username))
            if uid is not None and s.get(EventRefereeRow, (event_id, uid)) is not None:
                raise ApiError(409, "referees_event", f"{username} referees this event: a referee of "
                               "an event cannot play in it", username=username)
        self._registration(reg.join, event_id, {"id": username, "unit": unit or None}, code, nonce)

    def leave(self, event_id: str, username: str) -> None:
        """Take ``username`` off the entries. Errors as :meth:`join`."""
        self._registration(reg.leave, event_id, username)

    def check_in(self, event_id: str, username: str) -> None:
        """``username`` is present for the draw. Errors as :meth:`join`."""
        self._registration(reg.check_in, event_id, username)

    def close_entries(self, event_id: str) -> dict[str, Any]:
        """Make the draw and pair round 1; returns the event and ``no_shows``. Errors as
        :meth:`join` (bad_join: too few entrants)."""
        out = self._registration(reg.close_entries, event_id)
        return {**self.describe(event_id), "no_shows": out["no_shows"]}

    def _registration(self, fn: Any, event_id: str, *args: Any) -> Any:
        with self.db() as s:
            ev = s.get(EventRow, event_id)
            if ev is None:
                raise ApiError(404, "no_event", f"no event {event_id!r}")
            if ev.status != "registration":
                raise ApiError(409, "entries_closed", f"entries to event {event_id} are closed")
        try:
            return fn(self.db, event_id, *args)
        except EventError as e:
            raise ApiError(400, "bad_join", str(e), **why(e, "event.not_accepted")) from None

    def _entries(self, players: list[str | dict[str, Any]]) -> list[dict[str, Any]]:
        """The players an organizer names: accounts as sign-in finds them (ALICE is alice), under
        their own names, or bots; a pair (``{"id", "members": [two accounts]}``) under its own
        name, its members accounts. Error: no_user (400, ``name`` the missing account)."""
        entries: list[dict[str, Any]] = []
        with self.db() as s:
            def account(name: Any) -> str:
                found = (s.scalar(select(UserRow.username).where(UserRow.username_key == username_key(name)))
                         if isinstance(name, str) else None)
                if found is None:
                    raise ApiError(400, "no_user", f"no account {name!r} to register", name=str(name))
                return found

            for p in players:
                entry = {"id": p} if isinstance(p, str) else dict(p)
                if entry.get("bot"):
                    pass
                elif isinstance(entry.get("members"), list):
                    entry["members"] = [account(m) for m in entry["members"]]
                else:
                    entry["id"] = account(entry.get("id"))
                entries.append(entry)
        return entries

    def create(self, preset: str, players: list[str | dict[str, Any]], event_id: str | None,
               name: str | None, fields: dict[str, Any] | None = None,
               request_key: str | None = None) -> dict[str, Any]:
        """Register the players (account usernames, or ``{"id", "bot"}``), make the draw and pair
        round 1; returns the event as :meth:`describe` shows it; once per ``request_key``
        (:meth:`_once`). Errors: no_user, bad_event."""
        entries = self._entries(players)

        def make() -> str:
            try:
                return create_event(self.db, preset, entries, event_id=event_id, name=name, fields=fields)
            except (EventError, QipaiError) as e:
                raise ApiError(400, "bad_event", str(e), **why(e, "event.check_fields")) from None
        return self.describe(self._once(request_key, make))

    def export(self, event_id: str, what: str, held: Any = None) -> str:
        """One of the event's CSV exports (qipai.competition.meet.event_csv; ``held``: see
        there). Errors: no_event, no_export (404)."""
        if what not in EXPORTS:
            raise ApiError(404, "no_export", f"no export {what!r}; valid: {', '.join(EXPORTS)}")
        with self.db() as s:
            ev = s.get(EventRow, event_id)
            if ev is None:
                raise ApiError(404, "no_event", f"no event {event_id!r}")
            return event_csv(Director(s, ev), what, held)

    def units(self, meet: str) -> dict[str, Any]:
        """The unit standings of ``meet``. Error: no_meet (404)."""
        try:
            return unit_standings(self.db, meet)
        except KeyError:
            raise ApiError(404, "no_meet", f"no event belongs to the meet {meet!r}") from None

    def listing(self) -> list[dict[str, Any]]:
        """Every event, newest first, with its number of entrants and where it is (a running
        one's stage, latest round and whether it has begun: eventphase.py)."""
        with self.db() as s:
            counts = dict(s.execute(select(EntrantRow.event_id, func.count(EntrantRow.id))
                                    .group_by(EntrantRow.event_id)).all())
            rows = s.scalars(select(EventRow).order_by(EventRow.created.desc())).all()
            return [{"id": e.id, "name": e.name, "preset": e.preset, "game": e.game, "status": e.status,
                     "created": e.created, "entrants": counts.get(e.id, 0),
                     "pairs": (e.config or {}).get("entrants") == "pairs",
                     "meet": (e.config or {}).get("meet"), **phase(s, e)} for e in rows]

    @staticmethod
    def _seated(s: Session, event_id: str) -> dict[int, tuple[str, int | None]]:
        """The event's games that have a table: event game id -> (table id, record id)."""
        q = (select(TableRow.event_game, TableRow.id, TableRow.record_id)
             .where(TableRow.event_id == event_id, TableRow.event_game.is_not(None)))
        return {gid: (tid, rid) for gid, tid, rid in s.execute(q)}

    def describe(self, event_id: str, viewer: tuple[bool, str | None] | None = None) -> dict[str, Any]:
        """The event as ``GET /api/events/{id}`` shows it: in full, or to ``viewer``
        (``(referees, username)``, username None when signed out). A viewer who does not referee
        the event sees no result of a game of a round still held (:class:`~.conduct.RoundHold`,
        :meth:`~qipai.competition.director.Director.held_rounds`) that he did not play, nor of its
        match unless he played in it, and the standings at the end of the last round finished
        (``standings_after``: that round, 0 when none of the stage is). The rounds held are read
        with the event, in one read: an answer never shows a result that the rounds read a moment
        before or after would hold, nor holds one that an answer before it showed. Error:
        no_event (404)."""
        with self.db() as s:
            ev = s.get(EventRow, event_id)
            if ev is None:
                raise ApiError(404, "no_event", f"no event {event_id!r}")
            if ev.status == "registration":      # no draw yet: the list of who has joined
                return {"id": ev.id, "name": ev.name, "preset": ev.preset, "game": ev.game,
                        "status": ev.status, "meet": (ev.config or {}).get("meet"),
                        "pairs": (ev.config or {}).get("entrants") == "pairs",
                        "commitment": ev.commitment, "created": ev.created, "stage": None,
                        "secret": None, "current_round": 0, "started_round": 0, "begun": False,
                        "check_in": ev.config["registration"]["check_in"],
                        "entrants": [{"id": e.entrant_id, "name": e.name, "bot": e.bot, "draw": None,
                                      "status": e.status, "unit": e.unit} for e in ev.entrants],
                        "rounds": [], "standings": None, "standings_after": None, "outcome": None}
            d = Director(s, ev)
            held = set() if viewer is None or viewer[0] else set(d.held_rounds())
            seated = self._seated(s, event_id)
            states = result_states(d, seated)
            rounds: dict[int, list[dict[str, Any]]] = {}
            absent: dict[int, int] = {}          # draw number -> matches it was absent from
            for m in d.matches():
                games = []
                for g in m.games:
                    table, record = seated.get(g.id, (None, None))
                    res = g.result or {}
                    seats = [d.seat_player(g, i)[0] for i in range(len(g.seats))]
                    games.append({"id": g.id, "number": g.number, "status": g.status, "seats": seats,
                                  # the entrant each seat plays for (a pair's name for its members)
                                  "entrants": [d.name(x) if x in d.by_draw else None for x in g.seats],
                                  "result": res.get("text"), "reason": res.get("reason"),
                                  "winners": [seats[w] for w in res.get("winners", ())
                                              if 0 <= w < len(seats)],
                                  "winner_entrants": [d.name(x) for x in res.get("winner_draws", ())
                                                      if x in d.by_draw],
                                  "source": g.source,
                                  # §5.7: who confirmed the result, and its corrections (who, why)
                                  "confirmed": bool(res.get("confirmed")),
                                  # confirmed, final (no longer open to dispute) or provisional
                                  "standing": states.get(g.id),
                                  "confirmed_by": res.get("confirmed_by") or [],
                                  "corrections": res.get("corrections") or [],
                                  # a played or entered game keeps its record: its replay is
                                  # /events/{id}/games/{game id} (or the live table's record)
                                  "replay": g.status == "finished" and g.source in ("played", "entered"),
                                  "table": table, "record": record})
                result = m.result
                winner = (result or {}).get("winner")
                for x in m.absent or ():
                    absent[x] = absent.get(x, 0) + 1
                rounds.setdefault(m.round, []).append({
                    "index": m.index, "kind": m.kind, "status": m.status,
                    # entrants declared absent (§5.6: a walkover, both absent, a seat in trusteeship)
                    "absent": [d.name(x) for x in m.absent or () if x in d.by_draw],
                    "entrants": [d.name(x) for x in m.entrants], "result": result,
                    "winner": d.name(winner) if winner in d.by_draw else None, "games": games})
            standings, after = None, d.held_through() if held else None
            if not d.format.knockout:
                standings = d.standings(after)
            champion = (ev.outcome or {}).get("champion")
            out = {"id": ev.id, "name": ev.name, "preset": ev.preset, "game": ev.game, "status": ev.status,
                   "meet": (ev.config or {}).get("meet"),
                   # entrants are pairs of two accounts (partnership games): counted as pairs
                   "pairs": (ev.config or {}).get("entrants") == "pairs",
                   "commitment": ev.commitment, "created": ev.created, "stage": d.stage,
                   # §6.1: the event's secret (all its draws, lots, seats and deals) once it ends
                   "secret": ev.secret if ev.status == "finished" else None,
                   "current_round": d.current_round(), "started_round": ev.started_round or 0,
                   # the latest round begun (eventphase.py), the words of the event's state
                   "begun": phase(s, ev, d)["begun"],
                   "entrants": [{"id": e.entrant_id, "name": e.name, "bot": e.bot, "draw": e.draw,
                                 "status": e.status, "unit": e.unit, "rating": e.rating,
                                 "no_shows": absent.get(e.draw, 0) if e.draw is not None else 0}
                                for e in ev.entrants],
                   # draw numbers 1..seeded went by rating (§2.1 draw: seeded)
                   "seeded": d.full.seeded,
                   # left out at the close of entries for not checking in (§5.6)
                   "no_shows": ((ev.config or {}).get("registration") or {}).get("no_shows", []),
                   "rounds": [{"round": r, "matches": ms} for r, ms in sorted(rounds.items())],
                   "standings": standings, "outcome": ev.outcome, "champion": champion,
                   "standings_after": None if after is None else max(after - d.round0, 0)}
            if held:
                name = viewer[1] if viewer is not None else None
                held_results(out, lambda rnd, played: rnd in held and not played, name)
            return out

    def game_record(self, event_id: str, game_id: int) -> dict[str, Any]:
        """The stored record of event game ``game_id`` (played at a table, by ``qipai event
        run`` or entered by hand) with its seats' names and result, as the replay page reads it:
        ``{"event", "game", "names", "result", "record"}``. Error: no_record (404)."""
        with self.db() as s:
            g = s.get(GameRow, game_id)
            ev = s.get(EventRow, event_id)
            if g is None or ev is None or g.match.event_id != event_id or not g.record:
                raise ApiError(404, "no_record", f"no stored game {game_id} in event {event_id!r}")
            d = Director(s, ev, g.match.stage)
            names = [d.seat_player(g, i)[0] for i in range(len(g.seats))]
            return {"event": event_id, "game": g.id, "round": g.match.round, "match": g.match.index,
                    "number": g.number, "names": names, "record": g.record,
                    "result": g.record.get("result") or g.result}

    def held_rounds(self, event_id: str) -> list[int]:
        """The rounds of the running event whose games are shown to their players and the
        referees alone (competition.md §6.5, :class:`~.conduct.RoundHold`): those still being
        played for the first time (:meth:`~qipai.competition.director.Director.held_rounds`)."""
        with self.db() as s:
            ev = s.get(EventRow, event_id)
            return [] if ev is None else Director(s, ev).held_rounds()

    def in_round(self, event_id: str, rnd: int, username: str) -> bool:
        """Whether ``username`` plays a match of round ``rnd`` of the running event that is not
        over (competition.md §6.5: such a player may not watch the round's other tables, also
        between two games of the match, when it sits at no live table)."""
        with self.db() as s:
            ev = s.get(EventRow, event_id)
            if ev is None or ev.status != "running":
                return False
            d = Director(s, ev)
            for m in d.matches(rnd):
                if m.status == "finished":
                    continue
                for x in m.entrants:
                    e = d.by_draw.get(x)
                    if e is not None and (e.entrant_id == username or
                                          any(p.get("id") == username for p in e.members or ())):
                        return True
            return False

    # ----- playing -----------------------------------------------------------------------------
    def start_round(self, event_id: str) -> list[dict[str, Any]]:
        """Mark the current round started and store a table for each of its pending games that
        has none; returns those tables' columns. Errors: no_event (404), event_over (409).
        (The event's row is locked until the commit: workers of a cluster change an event one
        after the other.)"""
        with self.db() as s:
            ev = s.get(EventRow, event_id, with_for_update=True)
            if ev is None:
                raise ApiError(404, "no_event", f"no event {event_id!r}")
            if ev.status == "registration":
                raise ApiError(409, "entries_open", "entries are still open: close them first (the draw)")
            if ev.status != "running":
                raise ApiError(409, "event_over", "the event is finished")
            d = Director(s, ev)
            self._refuse_bot_clock(s, d, ev)
            ev.started_round = max(ev.started_round or 0, d.current_round())
            rows = self._seat_pending(s, d, ev)
            s.commit()           # the started round and its tables, together
            return rows

    def no_show_table(self, event_id: str, game_id: int, seats: list[int], table_id: str) -> dict[str, Any]:
        """§5.6: the persons of ``seats`` never came to ``table_id`` (event game ``game_id``)
        within the grace: :func:`.walkover.declare_absent`."""
        return walkover.declare_absent(self.db, event_id, game_id, seats, table_id)

    @staticmethod
    def _refuse_bot_clock(s: Session, d: Director, ev: EventRow) -> None:
        """A clock made for bots (``bot_default_board``: 2 s a move, lost on time) is refused for
        a round where a person plays: nobody plays a move in 2 s all game. Error: bot_clock (409,
        ``clock``, ``people``: the persons seated)."""
        rnd = d.current_round()
        games = [g for g in d.pending_games() if g.match.round == rnd
                 and str(g.spec.get("clock") or "").startswith("bot_")]
        names = {d.seat_player(g, i)[0]: str(g.spec["clock"]) for g in games
                 for i in range(len(g.seats)) if d.seat_player(g, i)[1] is None}
        if not names:
            return
        people = sorted(s.scalars(select(UserRow.username).where(UserRow.username.in_(names),
                                                                  UserRow.bot.is_(False))))
        if people:
            clock = names[people[0]]
            raise ApiError(409, "bot_clock", f"the clock {clock!r} is for events of bots only, and "
                           f"{', '.join(people)} play in person: change the event's clock",
                           clock=clock, people=", ".join(people))

    def settle(self, event_id: str) -> list[dict[str, Any]]:
        """Store in the event every game whose table has finished while the event still has it
        pending, advance the event (next games, next round's pairings, the outcome) and store
        the tables of the started rounds' games that have none; returns those tables' columns.
        Safe to repeat: a restarted server calls it for every running event. Each of its two
        transactions locks the event's row (workers of a cluster settle an event one after the
        other: the second finds the first's games stored and tables seated)."""
        try:
            with self.db() as s:
                ev = s.get(EventRow, event_id, with_for_update=True)
                if ev is None or ev.status != "running":
                    return []
                d = Director(s, ev)
                was_open = set(d.open_rounds())
                q = (select(GameRow, RecordRow.record)
                     .join(TableRow, TableRow.event_game == GameRow.id)
                     .join(RecordRow, RecordRow.id == TableRow.record_id)
                     .where(TableRow.event_id == event_id, TableRow.status == "finished",
                            GameRow.status == "pending"))
                for g, record in s.execute(q).all():
                    state = replay(Record.from_json(record))
                    d.store_result(g, state, record, "played", record.get("meta", {}).get("duration", 0))
                s.flush()
                d.advance()
                if ev.status == "finished":
                    self._reveal(s, d, event_id)
                # the rated games of the rounds now over rate their players (ratings.rate_round)
                ratings.rate_round(s, event_id, was_open - set(d.open_rounds()))
                s.commit()
                if ev.status != "running":
                    return []
                s.refresh(ev, with_for_update=True)
                rows = self._seat_pending(s, Director(s, ev), ev)
                s.commit()
                return rows
        except QipaiError:
            log.exception("event %s: storing its finished games failed", event_id)
            return []

    @staticmethod
    def _reveal(s: Session, d: Director, event_id: str) -> None:
        """§6.1: the event has ended; the stored records of its tables carry its secret."""
        q = (select(RecordRow, TableRow.event_game).join(TableRow, TableRow.record_id == RecordRow.id)
             .where(TableRow.event_id == event_id))
        for row, game_id in s.execute(q).all():
            g = s.get(GameRow, game_id)
            if g is not None:
                row.record = {**row.record, "meta": {**(row.record.get("meta") or {}), "rng": d.rng_meta(g)}}

    def started_events(self) -> list[str]:
        """The running events with a started round."""
        with self.db() as s:
            return list(s.scalars(select(EventRow.id).where(EventRow.status == "running",
                                                            EventRow.started_round > 0)))

    def _seat_pending(self, s: Session, d: Director, ev: EventRow) -> list[dict[str, Any]]:
        """Store (uncommitted) a table for each pending game of the started rounds that has none."""
        seated = self._seated(s, ev.id)
        games = [g for g in d.pending_games() if g.match.round <= (ev.started_round or 0)
                 and g.id not in seated]
        names = {d.seat_player(g, i)[0] for g in games for i in range(len(g.seats))}
        users = {name: (uid, bool(bot)) for name, uid, bot in s.execute(
            select(UserRow.username, UserRow.id, UserRow.bot).where(UserRow.username.in_(names))).all()}
        rows = [self._table_row(d, ev, g, users) for g in games]
        insert_tables(s, rows)
        # each account's seat, for its event games on any worker (GET /api/me/event-games)
        seats = [{"user_id": x["user"], "table_id": r.id} for r in rows for x in r.seats if x and "user" in x]
        if seats:
            s.execute(insert(EventSeatRow), seats)
        return [row_values(r) for r in rows]

    def _table_row(self, d: Director, ev: EventRow, g: GameRow,
                   users: dict[str, tuple[int, bool]]) -> TableRow:
        """``users``: the entrants' accounts, name -> (id, a bot account)."""
        game = d.game_for(g)
        state = d.new_state(game, g)
        seats: list[dict[str, Any] | None] = []
        for i in range(len(g.seats)):
            name, bot = d.seat_player(g, i)
            if bot:
                seats.append({"bot": bot, "name": name})
            elif name in users:
                uid, bot_account = users[name]
                seats.append({"user": uid, "name": name, **({"bot_account": True} if bot_account else {})})
            else:                 # an entrant without an account is played by the default bot
                seats.append({"bot": "random", "name": name})
        extra = {"event_game": g.id, "event_round": g.match.round, "event_rng": d.rng_meta(g),
                 "origin": {"seed": state.seed, "deal": state.deal},
                 "rated": d.full.raw.get("rated") is True}     # the organizer's ``rated = true``
        if (d.full.raw.get("conduct") or {}).get("trick_review") == "last_trick_only":
            extra["trick_review"] = "last_trick_only"      # no 查牌 (§5.8): see tablemsg
        # absent and conceding entrants' seats (§5.6, §5.5): in trusteeship, nobody waited for
        out = d.out_seats(g.match)
        trustee = [i for i, x in enumerate(g.seats) if x in out]
        if trustee:
            extra["trustee"] = trustee
        # an account's seat, a person's or a bot program's (§6.6), is waited for; a built-in bot's is not
        people = any(s is not None and "user" in s and i not in trustee for i, s in enumerate(seats))
        st = self.hub.settings
        extra.update(eventstart.hold_settings(g.number == 1 and not g.spec.get("voided"), people,
                                              st.event_ready_grace_ms, st.event_between_games_ms))
        if g.spec.get("voided"):             # a game a referee voided, played again (§5.7)
            extra["replay_of"] = list(g.spec["voided"])
        return self.hub.new_row(None, game.id, dict(game.options), {"clock": g.spec.get("clock") or "none"},
                                num_seats=state.num_seats, event_id=ev.id, event_game=g.id,
                                extra=extra, seats=seats)


def run(work: EventWork, method: str, args: tuple[Any, ...]) -> tuple[str, Any]:
    """Call ``work.method(*args)``; a refusal comes back as ``("error", (status, code, message,
    params))``
    (an ApiError does not cross a process boundary; failing storage is 503
    ``storage_unavailable``, the transaction rolled back), anything else as ``("ok", value)``."""
    try:
        return "ok", getattr(work, method)(*args)
    except ApiError as e:
        return "error", (e.status, e.code, e.message, e.extra)
    except SQLAlchemyError as e:
        if not storage_error(e):
            raise
        log.warning("event work %s%r: storage failed: %s", method, args[:1], e)
        return "error", (503, "storage_unavailable", UNAVAILABLE)


_work: EventWork | None = None


def worker_init(url: str, settings: Settings) -> None:
    """Start of the worker process: its own connection to the server's database."""
    global _work
    from qipai.competition.db import open_db

    from .sqlitesetup import tune_sqlite

    try:
        os.nice(WORKER_NICE)
    except OSError:          # pragma: no cover - not allowed here: same priority
        pass
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    db = open_db(url)
    tune_sqlite(db)
    _work = EventWork(db, Hub(db, settings))


def _watch_parent(parent: int) -> None:
    """End the worker within half a second of the server's end, however it ended (a killed
    server does not stop its workers, which would go on holding its files and pipes)."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def worker_call(method: str, args: tuple[Any, ...]) -> tuple[str, Any]:
    """:func:`run` in the worker process."""
    assert _work is not None, "worker_init did not run"
    return run(_work, method, args)
