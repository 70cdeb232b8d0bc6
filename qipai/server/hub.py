"""The hub of one server process: every live table, their loading and resuming at start, table
creation and the finished games' records. Every write goes through the hub's ordered
:class:`~.store.Store` (see :mod:`.tables` for what a table writes and when)."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, select, update
from sqlalchemy.orm import Session, sessionmaker

from qipai.core import Record, load
from qipai.core.errors import OptionError, QipaiError, why
from qipai.match import clock_preset
from qipai.match.players import Pause, Resume

from . import chat, conduct, eventstart, ratings, tablecodes
from .commit import stored_alike
from .config import Settings
from .conns import CLOSE_MOVED, MOVED, Sessions
from .errors import ApiError
from .livetables import LiveTables
from .models import ActionRow, RecordPlayer, RecordRow, TableRow, now_iso
from .ratelimit import RateLimit
from .sqlitesetup import faults_enabled, install_fault_hook
from .store import Call, DropTable, Gate, NewTable, Store, commit_lanes
from .tabledefaults import BOARD_CLOCK, DEFAULT_CLOCK, LOBBY_ONE_GAME
from .tablemsg import STORAGE_PAUSED
from .tables import LiveTable
from .writer import WriterProcess

if TYPE_CHECKING:
    from .cluster import Cluster

log = logging.getLogger("qipai.server")


#: the columns of a new table row
TABLE_COLUMNS = ("id", "game", "options", "num_seats", "seats", "settings", "status", "owner_id",
                 "event_id", "event_game", "created")


def insert_tables(s: Session, rows: list[TableRow]) -> None:
    """Store new table rows (made by :meth:`Hub.new_row`) in one statement."""
    if rows:
        s.execute(insert(TableRow), [row_values(r) for r in rows])


def row_values(row: TableRow) -> dict[str, Any]:
    """The :data:`TABLE_COLUMNS` of a new table row."""
    return {c: getattr(row, c) for c in TABLE_COLUMNS}


class Hub:
    """Every table of this server process; their writes go through :attr:`store` in order."""

    def __init__(self, db: sessionmaker[Session], settings: Settings) -> None:
        self.db = db
        self.settings = settings
        if faults_enabled(settings.storage_faults):
            install_fault_hook(db)
        self.store = Store(db, stall=settings.storage_stall, request_wait=settings.storage_wait,
                           process=writer_process(db, settings))
        self.store.listeners.append(self._storage)
        self.tables = LiveTables()      # by id; and each account's event tables
        self.finished: dict[str, LiveTable] = {}
        self.chat_limit = RateLimit(*settings.limits.chat_account)    # lines per account
        self.chat_repeats = chat.Repeats()          # the spam filter's memory of lines
        #: called with (table, record row) when a table's game is over and stored
        self.on_finish: list[Callable[[LiveTable, RecordRow], Any]] = []
        #: called with the table when every seat of a lobby table is taken and its game begins
        self.on_start: list[Callable[[LiveTable], Any]] = []
        #: called with (table, reason) when a game that began is aborted (:func:`.conduct.give_up`)
        self.on_abort: list[Callable[[LiveTable, str], Any]] = []
        #: called with (table, absent seats) when an event table's ``no_show_grace`` runs out
        #: with persons absent (:mod:`.eventstart`, :meth:`.events.EventService.no_show`)
        self.on_no_show: list[Callable[[LiveTable, list[int]], Any]] = []
        #: asked with an account id: is it connected elsewhere than at a table (a Bot API event
        #: stream, :mod:`.botapi`)? Such an account is ready for its event games (:mod:`.eventstart`)
        self.present: list[Callable[[int], bool]] = []
        #: the same asked of the whole cluster (an event stream on another worker, in Redis)
        self.present_shared: list[Callable[[int], Awaitable[bool]]] = []
        self.sessions = Sessions()    # open sockets by session (signing out closes them)
        self._sweeper: asyncio.Task[None] | None = None
        #: this worker's part of a cluster (:mod:`.cluster`), or None: one process alone
        self.cluster: Cluster | None = None
        #: the server's rate limits (:class:`.app.Limiters`, set by the app)
        self.limits: Any = None
        if settings.redis_url:
            from .cluster import Cluster

            self.cluster = Cluster(self, settings.redis_url, settings.lease_ms, settings.cluster_name,
                                   settings.stall_ms)
        self.store.fence_listeners.append(self.lose)
        self.store.halt_listeners.append(self.stop_refused)

    # ----- lifecycle -------------------------------------------------------------------
    async def start(self) -> None:
        """Load the open tables and rebuild every live game from its action log (a worker of a
        cluster takes the tables no worker serves, see :mod:`.cluster`)."""
        await self.store.start()
        if self.cluster is not None:
            await self.cluster.start()
        else:
            rows, logs = await self.store.call(_load_live)
            lines = await self.store.call(lambda s: chat.load_tables(s, [r.id for r in rows]), write=False)
            self.revive(rows, logs, lines)
        self._sweeper = asyncio.get_running_loop().create_task(conduct.sweep(self))

    def revive(self, rows: list[TableRow], logs: dict[str, list[tuple[Any, ...]]],
               lines: dict[str, Any]) -> None:
        """Make the stored tables ``rows`` live here: each playing game is rebuilt from its log
        (``logs``) and goes on, its seat on turn starting the turn again (§4.7); a full table
        whose game never began starts. ``lines``: each table's chat."""
        for row in rows:
            try:
                table = LiveTable(self, row)
            except QipaiError:        # stored before a check its game or options now fail
                log.exception("table %s cannot be loaded; it stays stored and is not served", row.id)
                continue
            table.chat_lines.extend(lines.get(table.id, ()))
            self.tables[table.id] = table
            try:
                if row.status == "playing" and logs.get(row.id):
                    table.resume(logs[row.id])
                elif all(table.seats):        # a table whose game never began
                    eventstart.begin(table, revived=True)   # (an event's game: when its hold ends, §4.7)
            except QipaiError:
                log.exception("table %s cannot be resumed", row.id)

    def lose(self, table_ids: frozenset[str] | set[str]) -> None:
        """Another worker serves ``table_ids`` now (their lease or epoch was taken): stop them
        here without deciding anything, drop what they had not saved, and close their sockets
        with 1012 ``moved`` (clients reconnect, and reach the new owner)."""
        for tid in table_ids:
            t = self.tables.pop(tid, None)
            if t is None:
                continue
            t.gate.fence()
            if t.task is not None and not t.task.done():
                t.task.cancel()
            for conns in t.conns.values():
                for c in list(conns):
                    c.close(*CLOSE_MOVED, notice=MOVED, drop=True)

    def stop_refused(self, gate: Gate) -> None:
        """The database refused a row of the action log of ``gate``'s table
        (:meth:`.store.Gate.halt`): the input was never acknowledged, and the game cannot go on
        as its log says. It stops at once without a result, decided by nobody (status
        ``aborted``, reason ``storage_refused``; :func:`.conduct.give_up`): its clients get the
        ``aborted`` event and 4410, nothing queued for them before it (docs/server.md, "Restarts
        and storage"). Its game in memory holds the refused input: the table is not kept to be
        shown, but read again from the database, as saved, when asked for
        (:meth:`load_finished`)."""
        t = self.tables.get(gate.table_id or "")
        if t is None or t.gate is not gate:
            return
        log.error("table %s: a row of its action log could not be saved; its game is stopped "
                  "without a result (storage_refused)", t.id)
        conduct.give_up(self, t, "storage_refused")
        self.finished.pop(t.id, None)

    async def stop(self) -> None:
        """Stop every game where it stands (nothing is decided) and write what is pending (a
        worker of a cluster then gives its tables up: other workers take them over)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        tasks = [t.task for t in self.tables.values() if t.task and not t.task.done()]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.store.stop(self.settings.storage_wait)
        if self.cluster is not None:
            await self.cluster.stop()

    def _storage(self, down: bool) -> None:
        """Storage failed (``down``) or works again: pause or resume every running game. A
        game a referee paused stays as the referee left it."""
        for t in list(self.tables.values()):
            r = t.runner
            if r is None or t.status != "playing" or r.state.is_terminal():
                continue
            if down:
                self.pause_for_storage(t)
            elif t.storage_paused:
                t.storage_paused = False
                r.submit(None, Resume())

    @staticmethod
    def pause_for_storage(t: LiveTable) -> None:
        """Pause ``t``'s game while storage fails and tell its seats and spectators at once."""
        r = t.runner
        if r is None or r.paused_at is not None or t.storage_paused:
            return
        t.storage_paused = True
        r.submit(None, Pause("storage"))
        for conns in t.conns.values():
            for c in conns:
                c.put_now(STORAGE_PAUSED)

    # ----- tables ------------------------------------------------------------------------
    async def create_table(self, owner_id: int | None, game_id: str, options: dict[str, Any],
                           settings: dict[str, Any], num_seats: int | None = None,
                           named: Callable[[str], Awaitable[None]] | None = None) -> LiveTable:
        """A new open table (a lobby table: it plays one game, so a match option not given is
        set to one game, :data:`LOBBY_ONE_GAME`). Raises ApiError for an unknown game, option,
        clock or seat count, or 409 ``too_many_tables`` (:func:`.conduct.check_quota`).
        ``named``: awaited with the table's id before its row is given to the store (the seek
        pool keeps its pairings in Redis first, :mod:`.lobbystate`)."""
        if owner_id is not None:
            conduct.check_quota(self, owner_id)
        if isinstance(options, dict):
            options = {**LOBBY_ONE_GAME.get(game_id, {}), **options}
        row = self.new_row(owner_id, game_id, options, settings, num_seats)
        if owner_id is not None and self.cluster is not None:    # the quota of the whole cluster
            await self.cluster.count_table(owner_id, row.id)
        if self.cluster is not None:     # its lease before anyone can find the table
            await self.cluster.reserve(row.id)
        if named is not None:
            await named(row.id)
        table = self.adopt(row)
        vals = row_values(row)
        self.store.append(table.gate, NewTable(vals))
        return table

    def adopt(self, row: TableRow) -> LiveTable:
        """The live table of ``row``, a table already stored."""
        table = LiveTable(self, row)
        self.tables[table.id] = table
        if self.cluster is not None:
            self.cluster.claimed(table.id)
        return table

    def new_row(self, owner_id: int | None, game_id: str, options: dict[str, Any],
                settings: dict[str, Any], num_seats: int | None = None, event_id: str | None = None,
                event_game: int | None = None, extra: dict[str, Any] | None = None,
                seats: list[dict[str, Any] | None] | None = None) -> TableRow:
        """The row of a new open table, not stored yet (:func:`insert_tables` stores it; it
        touches nothing live, so a worker thread may make it). ``extra``: settings set by the
        server; ``seats``: the players already seated. Raises ApiError for an unknown game,
        option, clock or seat count."""
        try:
            game = load(game_id, **options)
        except (OptionError, TypeError) as e:   # TypeError: a value of the wrong shape
            raise ApiError(400, "bad_options", str(e), **why(e, "options.see_help")) from None
        allowed = game.seat_counts()             # with these options (a rule set may fix them)
        n = allowed[0] if num_seats is None else num_seats      # 0 is a count, and refused
        if n not in allowed:
            raise ApiError(400, "bad_seats", f"{game_id} is played by {', '.join(map(str, allowed))} seats",
                           game=game_id, seats=list(allowed))
        clean = {**self._settings(game.id, settings), **(extra or {})}   # extra: set by the server
        # a private table is found by its link alone: an id of 80 random bits, not 32, so that
        # nobody finds one by trying ids
        tid = secrets.token_hex(10 if clean.get("private") else 4)
        if clean.get("private") and "code" not in clean:
            clean["code"] = tablecodes.new_code()     # its 房间号, as hard to guess (.tablecodes)
        return TableRow(id=tid, game=game.id, options=dict(game.options), num_seats=n,
                        seats=list(seats or [None] * n), settings=clean, status="open", owner_id=owner_id,
                        event_id=event_id, event_game=event_game, created=now_iso())

    def _settings(self, game_id: str, given: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(given, dict):
            raise ApiError(400, "bad_settings", "settings must be an object")
        known = {"clock", "spectator_delay_ms", "bot_delay_ms", "rated", "private"}
        unknown = set(given) - known
        if unknown:
            raise ApiError(400, "bad_settings",
                           f"unknown setting(s) {sorted(unknown)}; valid: {sorted(known)}")
        clock = given.get("clock", DEFAULT_CLOCK.get(game_id, BOARD_CLOCK))
        try:
            clock_preset(clock)
        except (OptionError, TypeError, KeyError, ValueError) as e:
            raise ApiError(400, "bad_clock", str(e), **why(e, "clock.see_fields")) from None
        rated = given.get("rated", False)
        if not isinstance(rated, bool):
            raise ApiError(400, "bad_settings", "rated must be true or false", key="rated")
        out = {"clock": clock, "rated": rated}
        private = given.get("private", False)      # unlisted: not in the lobby's list (/api/tables)
        if not isinstance(private, bool):
            raise ApiError(400, "bad_settings", "private must be true or false", key="private")
        if private:
            out["private"] = True
        for key, default, top in (("spectator_delay_ms", self.settings.spectator_delay_ms, 600_000),
                                  ("bot_delay_ms", self.settings.bot_delay_ms, 60_000)):
            v = given.get(key, default)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= top:
                raise ApiError(400, "bad_settings", f"{key} must be an integer from 0 to {top}",
                               key=key, max=top)
            out[key] = v
        return out

    def drop_table(self, t: LiveTable) -> None:
        """Forget a table that has not started (a creation request that failed half-way)."""
        assert t.runner is None
        self.tables.pop(t.id, None)
        self.store.append(t.gate, DropTable(t.id))

    def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id) or self.finished.get(table_id)
        if table is None:
            raise ApiError(404, "no_table", f"no live table {table_id!r}")
        return table

    async def finish_table(self, t: LiveTable, record: Record,
                           winners: list[int] | None = None) -> RecordRow:
        """Store the finished game's record and close the table: queued behind the game's last
        log rows and written in the same order (retried for as long as storage fails; a server
        stopped before then rebuilds the game from its log and finishes it again). The stored
        result is the record's with the seats that won (``winners``, empty for a draw), so a
        history says who won without replaying the game. A rated game (:func:`.ratings.plan`)
        updates its players' ratings in the same transaction; the changes are kept as
        ``t.rating_changes``. A rated event game does so when its round is over instead
        (:func:`.ratings.rate_round`). A record the database refuses (:meth:`.store.Store._apart`) is
        reported and the game still ends here (a row without id, no rating change): its table
        stays playing in the database, and a restarted server finishes it again from its log."""
        players = [s.get("user") if s else None for s in t.seats]
        result = record.result if winners is None or record.result is None else {
            **record.result, "winners": winners}
        values = {"table_id": t.id, "game": t.game_id, "players": players,
                  "names": [x["name"] for x in t.seats], "result": result,
                  "record": record.to_json(), "finished": now_iso()}
        vals = {"status": "finished", "seed": t.row_seed(), "live": None,
                "seats": [dict(x) if x else None for x in t.seats]}
        plan = ratings.plan(t.game_id, t.num_seats, t.game.seat_counts()[0], t.settings.get("clock"),
                            t.settings.get("rated") is True, t.seats, len(record.actions), result, winners)
        # a table made rated whose game does not count (too short, ...): its page says why, and
        # so do its replay and history, after a restart too: why is kept in the stored result
        t.unrated = (ratings.unrated_reason(True, t.seats, len(record.actions), result)
                     if t.settings.get("rated") is True else None)
        if t.unrated is not None and result is not None:
            values["result"] = {**result, "unrated": t.unrated}
        if plan is not None and t.event_id is not None:
            # an event's game rates its players when its round is over, not now: a rating (its
            # change, history, graph, leaderboard place) would tell its result while the round's
            # results are held (:class:`.conduct.RoundHold`); the plan waits on the table's row
            vals["settings"] = {**t.settings, ratings.PENDING: plan}
            plan = None
        entry = self.store.append(t.gate, Call(write_record, values, vals, plan))
        await t.gate.wait(entry.tag)
        rec = RecordRow(**values)
        if entry.failed is not None:
            log.error("table %s: its game is over but its record could not be saved (%s)",
                      t.id, entry.failed)
            t.rating_changes = []
            return rec
        rec.id, t.rating_changes = entry.result
        return rec

    async def load_finished(self, table_id: str) -> LiveTable | None:
        """The table ``table_id`` whose game is over (finished, aborted, void...) as stored,
        remembered here (:attr:`finished`) so that its page, its summary and its sockets are
        answered by any worker — not only by the one that ran it, while it lives — and after a
        restart; None when there is no such table (or it is live: its owner serves it)."""
        t = self.tables.get(table_id) or self.finished.get(table_id)
        if t is not None:
            return t
        got = await self.store.call(lambda s: _load_ended(s, table_id), write=False)
        if got is None or table_id in self.tables or table_id in self.finished:
            return self.tables.get(table_id) or self.finished.get(table_id)
        row, rows, lines, changes, unrated = got
        t = LiveTable(self, row)
        t.chat_lines.extend(lines)
        t.rating_changes = changes
        t.unrated = unrated
        if rows:
            try:
                t.rebuild(rows)
            except QipaiError:
                log.exception("table %s cannot be rebuilt from its log", table_id)
        self.remember_finished(t)
        return t

    def remember_finished(self, t: LiveTable) -> None:
        self.finished[t.id] = t
        while len(self.finished) > 1000:          # keep recent ones for reconnecting clients
            self.finished.pop(next(iter(self.finished)))


def write_record(s: Session, values: dict[str, Any], table: dict[str, Any],
                 plan: dict[str, Any] | None = None) -> tuple[int, list[dict[str, Any]]]:
    """Store a finished game's record row (``values``), its players, its table's final
    ``table`` columns and, for a rated game (``plan``, :func:`.ratings.plan`), its players'
    new ratings; returns the record's id and the rating changes (:func:`.ratings.rate_record`;
    empty for a game not rated). Run again after its commit went through (its answer lost,
    :class:`.commit.Call`), it finds the record stored with the same values under the table's id
    (unique, migration 0019) and returns the same, writing nothing; a record of the table stored
    with other values is inserted all the same, and refused by the database."""
    stored = stored_alike(s, RecordRow.__table__, "table_id", [values]).get(values["table_id"])
    if stored is not None:
        return stored["id"], ratings.changes_of_record(s, stored["id"])
    rec = RecordRow(**values)
    s.add(rec)
    s.flush()
    for seat, uid in enumerate(values["players"]):
        if uid is not None and not s.get(RecordPlayer, (rec.id, uid)):
            s.add(RecordPlayer(record_id=rec.id, user_id=uid, seat=seat))
    s.execute(update(TableRow).where(TableRow.id == values["table_id"]).values(record_id=rec.id, **table))
    return rec.id, (ratings.rate_record(s, rec.id, plan) if plan else [])


def writer_process(db: sessionmaker[Session], settings: Settings) -> WriterProcess | None:
    """The store's writer process (``Settings.storage_writer``), or None for a worker thread
    (asked for, or an in-memory SQLite database, which another process cannot open)."""
    url = db.kw["bind"].url
    if settings.storage_writer == "thread" or url.database in (None, "", ":memory:") and \
            url.get_backend_name() == "sqlite":
        return None
    if settings.storage_writer != "process":
        raise ValueError(f"storage_writer is 'process' or 'thread', not {settings.storage_writer!r}")
    return WriterProcess(url.render_as_string(hide_password=False),
                         faults_enabled(settings.storage_faults), commit_lanes(db))


def _load_live(s: Session) -> tuple[list[TableRow], dict[str, list[tuple[Any, ...]]]]:
    """Take the open and playing tables over (their lease epochs are raised by one: a process
    that served them before can no longer write to them); returns them and the action log of
    each playing one (in order)."""
    live = TableRow.status.in_(("open", "playing"))
    s.execute(update(TableRow).where(live).values(lease_epoch=TableRow.lease_epoch + 1))
    s.flush()
    rows = s.scalars(select(TableRow).where(live)).all()
    return list(rows), load_logs(s, [r.id for r in rows if r.status == "playing"])


def _load_ended(s: Session, table_id: str) -> tuple[TableRow, list[tuple[Any, ...]], list[Any],
                                                    list[dict[str, Any]], str | None] | None:
    """The row, action log, chat, rating changes (:func:`.ratings.changes_of_record`) and why
    its game was not rated (:meth:`Hub.finish_table`; None) of the table ``table_id`` if its
    game is over."""
    row = s.get(TableRow, table_id)
    if row is None or row.status in ("open", "playing"):
        return None
    s.expunge(row)
    changes, unrated = [], None
    if row.record_id is not None:
        changes = ratings.changes_of_record(s, row.record_id)
        result = s.scalar(select(RecordRow.result).where(RecordRow.id == row.record_id))
        unrated = (result or {}).get("unrated")
    lines = chat.load_tables(s, [table_id]).get(table_id, [])
    return row, load_logs(s, [table_id]).get(table_id, []), lines, changes, unrated


def load_logs(s: Session, playing: list[str]) -> dict[str, list[tuple[Any, ...]]]:
    """The action log of each table of ``playing`` (ids), in order."""
    logs: dict[str, list[tuple[Any, ...]]] = {}
    for i in range(0, len(playing), 500):
        q = (select(ActionRow.table_id, ActionRow.kind, ActionRow.seat, ActionRow.action,
                    ActionRow.t, ActionRow.data)
             .where(ActionRow.table_id.in_(playing[i:i + 500])).order_by(ActionRow.table_id, ActionRow.idx))
        for tid, *rest in s.execute(q):
            logs.setdefault(tid, []).append(tuple(rest))
    return logs
