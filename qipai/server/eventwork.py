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
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from qipai.competition import registration as reg
from qipai.competition.db import EventRow, GameRow
from qipai.competition.event import Director, EventError, create_event
from qipai.core import Record
from qipai.core.errors import QipaiError, why
from qipai.core.record import replay

from . import eventstart, ratings, walkover
from .auth import username_key
from .config import Settings
from .errors import ApiError
from .eventreads import EventReads
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


class EventWork(EventReads):
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
        """Register account ``username``; a repeated Join of an entrant changes nothing and is no
        error. Errors: no_event (404), entries_closed (409), bad_join (400: a wrong code, a bad
        nonce, an entrant the event refuses), referees_event (409: a referee of the event does
        not play in it, :func:`.appointments.plays_in`; checked with the event's row held, as an
        appointment checks the entries, so that the two never both pass)."""
        def not_referee(s: Session) -> None:
            uid = s.scalar(select(UserRow.id).where(UserRow.username == username))
            if uid is not None and s.get(EventRefereeRow, (event_id, uid)) is not None:
                raise ApiError(409, "referees_event", f"{username} referees this event: a referee of "
                               "an event cannot play in it", username=username)
        self._registration(reg.join, event_id, {"id": username, "unit": unit or None}, code, nonce,
                           not_referee)

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
                 "event_name": ev.name,               # said in the lobby's list of tables
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
