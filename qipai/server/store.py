"""Durable storage for the live tables: one ordered writer, group commits, retries, a fault hook.

Everything that changes a lobby table in the database goes through :class:`Store` in the order
it happened: a new table, seat changes, a game's start, every accepted action of a live game
(one ``actions`` row each, see :mod:`.journal`), and the finished game's record. The writer
takes everything appended since its last commit and writes it in one transaction in a worker
thread (a *group commit*); only when that transaction has committed are the writes marked
durable.

Each table has a :class:`Gate`: ``logged`` counts its writes appended, ``durable`` those
committed. A message to a client is tagged with ``logged`` when it is queued and leaves only
once ``durable`` has reached the tag (:class:`~qipai.server.tables.Conn`), so no seat,
spectator or mover sees a state whose actions could still be lost, and an HTTP request that
changed a table answers only after :meth:`Store.saved`.

A write that fails (disk full, database locked) is logged and retried with back-off, for ever:
what was appended stays in memory, in order, and nothing after it is marked durable. While
storage is failing (or a commit takes longer than ``Settings.storage_stall`` seconds) the
store is *down*: :attr:`Store.listeners` are told (the hub pauses every game and tells its
seats), requests that need a write answer 503 ``storage_unavailable``, and once a commit
succeeds again they are told it is back up.

Test hook (never on by default): with ``Settings.storage_faults`` (or the environment variable
``QIPAI_STORAGE_FAULTS=1`` for ``qipai serve``), every INSERT, UPDATE or DELETE first looks
for the file ``<database file>.fault``; while it exists the statement fails as SQLite fails
when the disk is full (the file's text ``locked`` makes it fail as a locked database instead).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import bindparam, delete, event, insert, update
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from .errors import ApiError
from .models import ActionRow, TableRow

log = logging.getLogger("qipai.server")
T = TypeVar("T")

#: the message of every 503 ``storage_unavailable``
UNAVAILABLE = ("the server cannot save data right now (storage unavailable); nothing was "
               "changed unless said otherwise: try again in a moment")


class StorageUnavailable(ApiError):
    """HTTP 503 ``storage_unavailable``: a write did not succeed in time."""

    def __init__(self, message: str = UNAVAILABLE) -> None:
        super().__init__(503, "storage_unavailable", message)


def storage_error(exc: BaseException) -> bool:
    """True for the database errors that mean "storage is failing" (not a bug in a statement):
    an operational error (locked, disk full, I/O error, cannot open) or a lost connection."""
    return isinstance(exc, OperationalError) or (isinstance(exc, DBAPIError) and exc.connection_invalidated)


class Gate:
    """One table's writes: ``logged`` appended so far, ``durable`` committed so far. Queued
    messages wait on it (``watchers``: events set whenever ``durable`` moves)."""

    def __init__(self) -> None:
        self.logged = 0
        self.durable = 0
        self.watchers: set[asyncio.Event] = set()

    def advance(self, upto: int) -> None:
        if upto > self.durable:
            self.durable = upto
            for w in list(self.watchers):
                w.set()

    async def wait(self, tag: int) -> None:
        """Until everything appended up to ``tag`` is durable."""
        if self.durable >= tag:
            return
        ev = asyncio.Event()
        self.watchers.add(ev)
        try:
            while self.durable < tag:
                ev.clear()
                await ev.wait()
        finally:
            self.watchers.discard(ev)


class NewTable:
    """Write: insert a new ``tables`` row (``values``: its columns)."""

    __slots__ = ("values",)

    def __init__(self, values: dict[str, Any]) -> None:
        self.values = values


class TableUpdate:
    """Write: a table's seats, status, seed and settings (never a finished table's)."""

    __slots__ = ("table_id", "values")

    def __init__(self, table_id: str, values: dict[str, Any]) -> None:
        self.table_id = table_id
        self.values = values


class DropTable:
    """Write: remove a table that never started."""

    __slots__ = ("table_id",)

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id


Op = dict[str, Any] | NewTable | TableUpdate | DropTable | Callable[[Session], Any] | None

#: the update of a table row, run for many rows at once
_TABLE_UPDATE = (update(TableRow.__table__)
                 .where(TableRow.__table__.c.id == bindparam("b_id"),
                        TableRow.__table__.c.status != "finished")
                 .values({c: bindparam(c) for c in ("seats", "status", "seed", "settings")}))


class Entry:
    """One pending write: an ``actions`` row (dict), a new, changed or removed table, a
    function of the session, or None (a journal entry found to change nothing; it is counted
    but not written)."""

    __slots__ = ("gate", "tag", "op")

    def __init__(self, gate: Gate, tag: int, op: Op):
        self.gate = gate
        self.tag = tag
        self.op = op


class Store:
    """The ordered writer of one server. See the module docstring."""

    def __init__(self, db: sessionmaker[Session], stall: float = 2.0, request_wait: float = 3.0) -> None:
        self.db = db
        self.stall = stall                  # seconds a commit may take before the store is "down"
        self.request_wait = request_wait    # seconds a request retries a failing write
        self.pending: list[Entry] = []
        self.down = False
        #: called with True when storage starts failing, False when it works again
        self.listeners: list[Callable[[bool], None]] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._idle: asyncio.Event | None = None

    # ----- the ordered writer -------------------------------------------------------------------
    def start(self) -> None:
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task = asyncio.get_running_loop().create_task(self._writer())

    async def stop(self, wait: float) -> None:
        """Write what is pending (waiting up to ``wait`` seconds while storage fails), then stop
        the writer. What could not be written was never acknowledged to anyone."""
        if self._task is None:
            return
        try:
            await asyncio.wait_for(self.drain(), wait)
        except TimeoutError:
            log.error("storage unavailable at shutdown: %d writes not saved (never acknowledged)",
                      len(self.pending) + 1)
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)
        self._task = None

    async def drain(self) -> None:
        """Until everything appended so far is durable."""
        while self.pending or (self._idle is not None and not self._idle.is_set()):
            if self.pending:
                await asyncio.sleep(0.01)           # the writer takes them at its next turn
            else:
                await self._idle.wait()

    def append(self, gate: Gate, op: Op) -> Entry:
        """Queue a write for ``gate``'s table; returns the entry (its ``op`` may still be set to
        None before the writer runs, when it turned out to change nothing)."""
        gate.logged += 1
        entry = Entry(gate, gate.logged, op)
        self.pending.append(entry)
        if self._wake is not None:
            self._wake.set()
        return entry

    async def saved(self, gate: Gate, wait: float | None = None) -> None:
        """Until ``gate``'s writes appended so far are durable; raises
        :class:`StorageUnavailable` after ``wait`` seconds (default ``request_wait``) if not.
        What was appended stays queued and is written once storage works again."""
        try:
            await asyncio.wait_for(gate.wait(gate.logged), self.request_wait if wait is None else wait)
        except TimeoutError:
            raise StorageUnavailable("the server cannot save data right now (storage unavailable): "
                                     "the change is kept and will be saved when storage is back, "
                                     "but it is not confirmed yet") from None

    async def _writer(self) -> None:
        assert self._wake is not None and self._idle is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            if not self.pending:
                continue
            batch, self.pending = self.pending, []
            self._idle.clear()
            try:
                batch = await self._commit(batch)
            finally:
                self._idle.set()
            done: dict[Gate, int] = {}
            for e in batch:
                done[e.gate] = max(done.get(e.gate, 0), e.tag)
            for gate, tag in done.items():
                gate.advance(tag)

    async def _commit(self, batch: list[Entry]) -> list[Entry]:
        """Commit ``batch`` (growing it with whatever is appended meanwhile while retrying);
        returns what was committed."""
        delay = 0.05
        while True:
            work = asyncio.ensure_future(asyncio.to_thread(self._write, list(batch)))
            try:
                done, _ = await asyncio.wait({work}, timeout=self.stall)
                if not done:
                    self._set_down(True, f"a commit is taking longer than {self.stall:.1f} s")
                await work
            except Exception as e:
                if not storage_error(e):        # a bug, not the disk: shown, and retried like one
                    log.exception("storage: a write failed")
                self._set_down(True, str(getattr(e, "orig", None) or e).splitlines()[0])
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
                batch.extend(self.pending)
                self.pending = []
                continue
            self._set_down(False, "")
            return batch

    def _write(self, batch: list[Entry]) -> None:
        """One transaction for ``batch``, grouped by kind so each kind is one statement run for
        many rows: new tables, then table updates (the last one per table: each holds the whole
        row), removed tables, log rows, and finally the other writes in their order."""
        inserts: list[dict[str, Any]] = []
        updates: dict[str, dict[str, Any]] = {}
        deletes: list[str] = []
        rows: list[dict[str, Any]] = []
        others: list[Callable[[Session], Any]] = []
        for e in batch:
            op = e.op
            if op is None:
                continue
            if isinstance(op, dict):
                rows.append(op)
            elif isinstance(op, NewTable):
                inserts.append(op.values)
            elif isinstance(op, TableUpdate):
                updates.pop(op.table_id, None)           # a later update replaces it
                updates[op.table_id] = {"b_id": op.table_id, **op.values}
            elif isinstance(op, DropTable):
                deletes.append(op.table_id)
            else:
                others.append(op)
        with self.db.begin() as s:
            conn = s.connection()
            if inserts:
                conn.execute(insert(TableRow), inserts)
            if updates:
                conn.execute(_TABLE_UPDATE, list(updates.values()))
            if deletes:
                conn.execute(delete(TableRow).where(TableRow.id.in_(deletes)))
            if rows:
                conn.execute(insert(ActionRow), rows)
            for fn in others:
                fn(s)

    def _set_down(self, down: bool, why: str) -> None:
        if down == self.down:
            return
        self.down = down
        if down:
            log.error("storage unavailable (%s): games are paused, writes are retried", why)
        else:
            log.warning("storage works again: games go on")
        for cb in list(self.listeners):
            try:
                cb(down)
            except Exception:       # pragma: no cover - a listener's bug must not stop the writer
                log.exception("storage listener failed")

    # ----- requests -----------------------------------------------------------------------------
    async def call(self, fn: Callable[[Session], T], write: bool = True) -> T:
        """Run ``fn(session)`` in a worker thread (committed when ``write``), retrying a failing
        database with back-off for up to ``request_wait`` seconds, then raising
        :class:`StorageUnavailable`. Errors that are not storage errors propagate at once."""
        deadline = time.monotonic() + self.request_wait
        delay = 0.05
        while True:
            try:
                return await asyncio.to_thread(self._run, fn, write)
            except Exception as e:
                if not storage_error(e):
                    raise
                reason = str(getattr(e, "orig", None) or e).splitlines()[0]
                if time.monotonic() + delay > deadline:
                    log.error("storage unavailable for a request: %s", reason)
                    raise StorageUnavailable() from None
                log.warning("storage: retrying a request (%s)", reason)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)

    def _run(self, fn: Callable[[Session], T], write: bool) -> T:
        if write:
            with self.db.begin() as s:
                return fn(s)
        with self.db() as s:
            return fn(s)


# ----- the fault hook ----------------------------------------------------------------------------
def fault_file(db: sessionmaker[Session]) -> Path | None:
    """``<database file>.fault`` for a SQLite file database, else None."""
    engine = db.kw["bind"]
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    return Path(path + ".fault") if path and path != ":memory:" else None


def install_fault_hook(db: sessionmaker[Session]) -> Path | None:
    """Make every write fail while the fault file exists (see the module docstring). Returns
    the file's path (None: not a SQLite file database; nothing installed)."""
    path = fault_file(db)
    if path is None:
        return None
    engine = db.kw["bind"]

    @event.listens_for(engine, "before_cursor_execute")
    def _fail_writes(conn, cursor, statement, parameters, context, executemany) -> None:
        if statement.lstrip()[:6].upper() not in ("INSERT", "UPDATE", "DELETE"):
            return
        try:
            kind = path.read_text().strip()
        except FileNotFoundError:
            return
        reason = "database is locked" if kind == "locked" else "database or disk is full"
        raise OperationalError(statement, parameters, sqlite3.OperationalError(reason))

    return path


def faults_enabled(flag: bool) -> bool:
    return flag or os.environ.get("QIPAI_STORAGE_FAULTS") == "1"
