"""Durable storage for the live tables: one ordered writer, group commits, retries, a fault hook.

Everything that changes a lobby table in the database goes through :class:`Store` in the order
it happened: a new table, seat changes, a game's start, every accepted action of a live game
(one ``actions`` row each, see :mod:`.journal`), and the finished game's record. The writer
takes everything appended since its last commit and writes it in one transaction (a *group
commit*) in a process of its own (:mod:`.writer`; ``Settings.storage_writer``), so that its
work never waits for the event loop's hold on the interpreter, or in a worker thread (on
PostgreSQL a commit of action rows alone, most of them, is sent from the event loop itself in one
pipeline: :mod:`.loopcommit`); only when that transaction has committed are the writes marked
durable.

Each table has a :class:`Gate`: ``logged`` counts its writes appended, ``durable`` those
committed. A message to a client is tagged with ``logged`` when it is queued and leaves only
once ``durable`` has reached the tag (:class:`~qipai.server.conns.Conn`), so no seat,
spectator or mover sees a state whose actions could still be lost, and an HTTP request that
changed a table answers only after :meth:`Store.saved`.

A write that fails (disk full, database locked) is logged and retried with back-off, for ever:
what was appended stays in memory, in order, and nothing after it is marked durable. While
storage is failing (or a commit takes longer than ``Settings.storage_stall`` seconds) the
store is *down*: :attr:`Store.listeners` are told (the hub pauses every game and tells its
seats), requests that need a write answer 503 ``storage_unavailable``, and once a commit
succeeds again they are told it is back up. Only a batch the database refuses for its writes
themselves (:func:`.commit.refused_write`: a broken constraint, a value it cannot take, a bug in a
:class:`.commit.Call`; never the disk, the connection or the machine) is not retried as it is, which
would hold back every table's writes for ever: it is written in parts, in order, and the write
refused alone is logged and left out (:meth:`Store._apart`, its entry's ``failed`` says why);
the others are committed and acknowledged. A refused row of a table's action log is never
acknowledged: the table's gate halts (:meth:`Gate.halt`), the later rows of that log are left
out too (a gap would make the next row's index clash after a restart), and the hub stops the
game without a result (:attr:`Store.halt_listeners`). Storage failing while the parts are
written is retried as above: nothing else is ever left out.

The kinds of write, one commit and the sorting of its failures: :mod:`.commit`. The SQLite
settings and the storage fault hook (a test hook): :mod:`.sqlitesetup`.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.orm import Session, sessionmaker

from . import loopcommit, profiling
from .commit import BadWrite as BadWrite
from .commit import Call as Call
from .commit import DropTable as DropTable
from .commit import Fenced as Fenced
from .commit import NewTable as NewTable
from .commit import Op, describe, storage_error, write_or_refuse
from .commit import TableUpdate as TableUpdate
from .commit import WriterFailed as WriterFailed
from .commit import commit_lanes as commit_lanes
from .commit import refused_write as refused_write
from .commit import write_ops as write_ops
from .errors import ApiError
from .loopcommit import LoopCommits, LoopFailed, rows_only

log = logging.getLogger("qipai.server")
T = TypeVar("T")

#: the message of every 503 ``storage_unavailable``
UNAVAILABLE = ("the server cannot save data right now (storage unavailable); nothing was "
               "changed unless said otherwise: try again in a moment")


#: True while :meth:`Store.call` runs a write again after a storage failure (:func:`again`)
_AGAIN: contextvars.ContextVar[bool] = contextvars.ContextVar("qipai_store_again", default=False)


def again() -> bool:
    """Whether the write function :meth:`Store.call` runs now is a retry after a storage failure:
    its earlier run may have been committed though its caller saw an error."""
    return _AGAIN.get()


class StorageUnavailable(ApiError):
    """HTTP 503 ``storage_unavailable``: a write did not succeed in time."""

    def __init__(self, message: str = UNAVAILABLE) -> None:
        super().__init__(503, "storage_unavailable", message)


class TableMoved(ApiError):
    """HTTP 503 ``table_moved``: another server process took the table over (a newer lease
    epoch) before this change was saved; nothing of it was kept."""

    def __init__(self) -> None:
        super().__init__(503, "table_moved", "this table is now served by another server worker; "
                         "the change was not made: try again")


class TableStopped(ApiError):
    """HTTP 409 ``table_stopped``: the database refused a row of this table's action log
    (:meth:`Gate.halt`), so the change was not saved and the game was stopped without a
    result."""

    def __init__(self) -> None:
        super().__init__(409, "table_stopped", "the server could not save this table's action "
                         "log; the game was stopped without a result and the change was not made")


class Gate:
    """One table's writes: ``logged`` appended so far, ``durable`` committed so far. Queued
    messages wait on it (``watchers``: events set whenever ``durable`` moves). ``table_id``
    and ``epoch``: the table's lease epoch in this process, the fencing token its writes carry
    (None: writes not tied to a table); ``fenced``: another process took the table over, and
    nothing of it is written or becomes durable here any more. ``halted``: the tag of a row of
    its action log the database refused (:meth:`halt`), None while none was: that row and every
    later row of the log are left out, and nothing from that tag on counts as saved for a
    waiter (:meth:`wait`)."""

    def __init__(self, table_id: str | None = None, epoch: int = 0) -> None:
        self.logged = 0
        self.durable = 0
        self.watchers: set[asyncio.Event] = set()
        self.table_id = table_id
        self.epoch = epoch
        self.fenced = False
        self.halted: int | None = None

    def advance(self, upto: int) -> None:
        if upto > self.durable:
            self.durable = upto
            for w in list(self.watchers):
                w.set()

    def fence(self) -> None:
        """Another process owns the table now: what is pending here is never written."""
        self.fenced = True
        for w in list(self.watchers):
            w.set()

    def halt(self, tag: int) -> None:
        """The database refused the action-log row of ``tag``: the log would have a gap, and
        the rows after it clash after a restart, so none of them is written (see
        :meth:`Store.skipped`); waiters for it or later are woken to fail."""
        if self.halted is None:
            self.halted = tag
        for w in list(self.watchers):
            w.set()

    def skips(self, op: Op) -> bool:
        """Whether the write ``op`` of this gate is never written: its table is fenced, or
        ``op`` is a row of an action log that has a refused row before it (:meth:`halt`)."""
        return self.fenced or (self.halted is not None and isinstance(op, dict))

    async def wait(self, tag: int) -> None:
        """Until everything appended up to ``tag`` is durable. Raises :class:`TableMoved` once
        the table is fenced, :class:`TableStopped` when a row of its action log up to ``tag``
        was refused (:meth:`halt`)."""
        ev = asyncio.Event()
        self.watchers.add(ev)
        try:
            while True:
                # halted first: the writes of a halted gate may count as durable once its
                # refused row's batch is done, which is not saved for the rows it left out
                if self.halted is not None and tag >= self.halted:
                    raise TableStopped()
                if self.durable >= tag:
                    return
                if self.fenced:
                    raise TableMoved()
                ev.clear()
                await ev.wait()
        finally:
            self.watchers.discard(ev)


class Entry:
    """One pending write: an ``actions`` row (dict), a new, changed or removed table, a
    :class:`.commit.Call`, or None (a journal entry found to change nothing; it is counted but not
    written). ``result``: what a :class:`.commit.Call` returned, once committed; ``failed``: why the
    write was left out, refused alone by the database (:meth:`Store._apart`; its gate moves on
    all the same, unless it was a row of an action log: then the gate halts), else None."""

    __slots__ = ("gate", "tag", "op", "result", "failed", "t")

    def __init__(self, gate: Gate, tag: int, op: Op):
        self.t = time.perf_counter()
        self.gate = gate
        self.tag = tag
        self.op = op
        self.result: Any = None
        self.failed: str | None = None


class Store:
    """The ordered writer of one server. See the module docstring."""

    def __init__(self, db: sessionmaker[Session], stall: float = 2.0, request_wait: float = 3.0,
                 process: Any = None, lanes: int | None = None, loop_commits: bool = True) -> None:
        self.db = db
        #: group commits that may be under way at once (:meth:`_take`, :func:`.commit.commit_lanes`)
        self.lanes = lanes or commit_lanes(db)
        #: the writer process (:class:`.writer.WriterProcess`), or None: commits run in a thread
        self.process = process
        #: PostgreSQL: commits of action rows alone are sent from the event loop (:mod:`.loopcommit`)
        self.loop = LoopCommits(db) if loop_commits and loopcommit.enabled(db) else None
        self.stall = stall                  # seconds a commit may take before the store is "down"
        self.request_wait = request_wait    # seconds a request retries a failing write
        self.pending: list[Entry] = []
        self.down = False
        #: called with True when storage starts failing, False when it works again
        self.listeners: list[Callable[[bool], None]] = []
        #: check each commit's lease epochs (:class:`.commit.Fenced`); off for a SQLite file, which one
        #: process alone may open (its lock file)
        self.fencing = db.kw["bind"].dialect.name != "sqlite"
        #: PostgreSQL's trigger refuses a stale action row itself (migration 0015)
        self.fenced_rows = db.kw["bind"].dialect.name == "postgresql"
        self._check_all = False             # a commit was fenced: check every table until one passes
        #: called with the ids of tables whose writes were fenced (another process owns them)
        self.fence_listeners: list[Callable[[frozenset[str]], None]] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._idle: asyncio.Event | None = None
        #: the commits under way, and the gates whose writes they hold
        self._running: set[asyncio.Task[None]] = set()
        #: of those, the commits whose batch held writes other than action rows (:meth:`_side_free`)
        self._slow: set[asyncio.Task[None]] = set()
        self._busy: set[Gate] = set()
        self._failing: set[Any] = set()     # the commits (their tasks) whose last try failed
        #: writes left out because the database refused them alone (:func:`.commit.refused_write`)
        self.dropped = 0
        #: called with the gate of a table whose action log the database refused a row of
        #: (:meth:`Gate.halt`): the game cannot go on as its players were told
        self.halt_listeners: list[Callable[[Gate], None]] = []

    # ----- the ordered writer -------------------------------------------------------------------
    async def start(self) -> None:
        """Start the writer (and its process, once it has opened the database)."""
        if self.process is not None:
            await self.process.start()
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
        for task in list(self._running):
            task.cancel()
        await asyncio.gather(self._task, *self._running, return_exceptions=True)
        self._task = None
        if self.loop is not None:
            await self.loop.close()
        if self.process is not None:
            await self.process.stop()

    async def drain(self) -> None:
        """Until everything appended so far is durable."""
        while self.pending or (self._idle is not None and not self._idle.is_set()):
            if self.pending:
                await asyncio.sleep(0.01)           # the writer takes them at its next turn
            else:
                await self._idle.wait()

    def settled(self) -> bool:
        """Whether the store is up with nothing appended waiting and no commit under way (read
        from any thread: the writes queued by its own recovery, such as the resume rows of the
        games it paused, are committed by then)."""
        return not self.down and not self.pending and not self._running

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
        """Start a commit of what is pending whenever a lane is free (:meth:`_take`), or the side
        lane is (:meth:`_side_free`)."""
        assert self._wake is not None and self._idle is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            while len(self._running) < self.lanes or self._side_free():
                batch = self._take()
                if not batch:
                    break
                self._idle.clear()
                task = asyncio.get_running_loop().create_task(self._lane(batch))
                self._running.add(task)
                if not rows_only([e.op for e in batch]):
                    self._slow.add(task)

    def _side_free(self) -> bool:
        """Whether a commit of action rows may start beside the lanes: on PostgreSQL with the
        loop's commits (:mod:`.loopcommit`), while every commit under way is one of other writes
        (a new table, a finished game's record and ratings: a worker thread's, or the writer
        process's, that may take a hundred milliseconds and more on a busy machine), and no
        commit of rows is. The moves of every other table then wait for one WAL flush, not for
        that commit as well; a table's writes still go one batch after the other, in order, and
        a write other than a row still waits until nothing is under way (:meth:`_take`)."""
        return (self.loop is not None and bool(self._running)
                and len(self._slow) == len(self._running) and len(self._running) <= self.lanes)

    def _take(self, alone: bool = False) -> list[Entry]:
        """The next batch to commit, taken out of :attr:`pending`. With no commit under way (or
        ``alone``: only the caller's), everything pending; but on PostgreSQL with the loop's
        commits (:mod:`.loopcommit`), when some tables have writes other than rows pending (a
        new or changed table, a call) and others rows alone, only the first: the others' rows
        then commit beside them, from the loop (:meth:`_side_free`). Beside commits under way,
        only action rows (and entries that write nothing) of tables none of them holds, in
        order; any other write waits until nothing is under way, and so do the later writes of
        its table, while the rows of other tables go on. So a table's writes are committed one
        batch after the other, in order, a commit that fails never leaves a later write of its
        table saved, and writes other than rows are committed in the order they came, each
        batch of them alone or beside rows of other tables only."""
        if not self.pending:
            return []
        if alone or not self._running:
            batch, self.pending = [e for e in self.pending if not e.gate.skips(e.op)], []
            slow = {e.gate for e in batch if not (e.op is None or isinstance(e.op, dict))}
            if not alone and self.loop is not None and slow and any(e.gate not in slow for e in batch):
                # the tables with other writes go first, alone; the other tables' rows wait
                # for the side lane, which takes them at once (:meth:`_side_free`), from the loop
                batch, self.pending = ([e for e in batch if e.gate in slow],
                                       [e for e in batch if e.gate not in slow])
        else:
            batch, keep, held = [], [], set(self._busy)
            for e in self.pending:
                if e.gate.skips(e.op):
                    continue
                if not (e.op is None or isinstance(e.op, dict)) or e.gate in held:
                    keep.append(e)
                    held.add(e.gate)
                else:
                    batch.append(e)
            self.pending = keep
        self._busy.update(e.gate for e in batch)
        return batch

    async def _lane(self, batch: list[Entry]) -> None:
        """Commit ``batch`` (retrying as :meth:`_commit` does), then mark its writes durable."""
        assert self._wake is not None and self._idle is not None
        held = {e.gate for e in batch}
        t0 = time.perf_counter()
        try:
            batch = await self._commit(batch, held)
        finally:
            self._running.discard(asyncio.current_task())      # type: ignore[arg-type]
            self._slow.discard(asyncio.current_task())         # type: ignore[arg-type]
            self._busy.difference_update(held)
            if not self._running:
                self._idle.set()
            self._wake.set()                # the lane is free, and its tables' next writes may go
        if profiling.FOLDER is not None:
            now = time.perf_counter()
            profiling.note("store.commit", now - t0)
            profiling.note("store.batch_entries", len(batch) / 1000)     # shown as a count
            profiling.note("store.lanes_busy", len(self._running) / 1000)
            for e in batch:
                profiling.note("store.append_to_durable", now - e.t)
        done: dict[Gate, int] = {}
        for e in batch:
            done[e.gate] = max(done.get(e.gate, 0), e.tag)
        for gate, tag in done.items():
            gate.advance(tag)

    async def _commit(self, batch: list[Entry], held: set[Gate] | None = None) -> list[Entry]:
        """Commit ``batch`` (growing it while retrying with whatever may join it, its gates
        added to ``held``); returns what was committed, or left out as refused
        (:meth:`_apart`)."""
        try:
            return await self._commit_as(batch, set() if held is None else held)
        finally:
            self._failing.discard(asyncio.current_task())

    async def _commit_as(self, batch: list[Entry], held: set[Gate]) -> list[Entry]:
        delay = 0.05
        written: list[Entry] = []       # committed (or left out) by :meth:`_apart` before a failure
        while True:
            batch[:] = [x for x in batch if not x.gate.skips(x.op)]    # halted while retrying
            try:
                try:
                    await self._timed(batch)
                except BadWrite:
                    # not storage failing but writes the database refuses: retried as they
                    # are, they would fail for ever and hold back every table's writes
                    log.exception("storage: the database refused a write; writing the batch "
                                  "in parts to leave the refused write out")
                    await self._apart(batch, written)
            except Fenced as e:                 # their writes are dropped; the others go on
                self._fence(e.tables, batch)
                batch[:] = [x for x in batch if not x.gate.fenced]
                # the trigger names one table at a time: the next try checks every table first,
                # so that the others taken over too are found in one more transaction
                self._check_all = True
                continue
            except Exception as e:              # storage (or the machine) failing: retried
                if not storage_error(e):        # not the database's own words: shown
                    log.exception("storage: a write failed")
                self._set_down(True, str(getattr(e, "orig", None) or e).splitlines()[0])
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
                # alone, it takes everything (nothing else is under way), as the one writer did
                more = self._take(alone=len(self._running) <= 1)
                held.update(e.gate for e in more)
                batch.extend(more)
                continue
            self._set_down(False, "")
            self._check_all = False
            return written + batch

    async def _timed(self, batch: list[Entry]) -> None:
        """:meth:`_write`; the store is down while it takes longer than ``stall`` seconds."""
        work = asyncio.ensure_future(self._write(list(batch)))
        done, _ = await asyncio.wait({work}, timeout=self.stall)
        if not done:
            self._set_down(True, f"a commit is taking longer than {self.stall:.1f} s")
        await work

    async def _apart(self, batch: list[Entry], written: list[Entry]) -> None:
        """Write ``batch``, which the database refused as a whole (:class:`.commit.BadWrite`), in halves
        (then halves of a refused half, in order, so each table's writes keep their order) until
        each write refused alone is found: it is logged and left out (its entry's ``failed``
        says why), the others are committed. A refused row of a table's action log halts its
        gate (:meth:`Gate.halt`: the later rows of that log are left out too, never leaving a
        gap) and :attr:`halt_listeners` are told. What is done moves from ``batch`` to
        ``written``; any other failure (storage) is raised with the rest still in ``batch``, to
        be retried."""
        parts = [list(batch)]           # in order, together ``batch``
        while parts:
            part = [e for e in parts[0] if not e.gate.skips(e.op)]
            if part:
                try:
                    await self._timed(part)
                except Fenced as e:
                    self._fence(e.tables, part)
                    continue                    # again without the fenced tables' writes
                except BadWrite as e:
                    if len(part) > 1:
                        parts[:1] = [parts[0][:len(parts[0]) // 2], parts[0][len(parts[0]) // 2:]]
                        continue
                    self.dropped += 1
                    part[0].failed = str(e)
                    log.error("storage: a write was left out, the database refuses it (%s): %s",
                              e, describe(part[0].op))
                    if isinstance(part[0].op, dict):
                        self._halt(part[0])
            done = parts.pop(0)
            del batch[:len(done)]
            written.extend(x for x in done if not x.gate.fenced)

    async def _write(self, batch: list[Entry]) -> None:
        """One transaction for ``batch`` (:func:`.commit.write_ops`), in the writer process or a worker
        thread; each :class:`.commit.Call` entry gets its result."""
        ops = [e.op for e in batch]
        # the epochs to check first: of the tables with writes other than action rows (an action
        # row is checked by PostgreSQL's trigger as it is inserted, its table's row locked as
        # the check would lock it: checking it here too cost a statement and a lock per table
        # at every commit, most of which hold action rows alone)
        fences = {e.gate.table_id: e.gate.epoch for e in batch
                  if e.op is not None and e.gate.table_id is not None
                  and not (self.fenced_rows and isinstance(e.op, dict) and not self._check_all)} \
            if self.fencing else None
        if self.loop is not None and rows_only(ops):
            try:
                return await self.loop.write(ops, fences)
            except LoopFailed as e:         # written again below, where the failure is sorted
                log.warning("storage: a commit on the event loop failed (%s); again in the writer", e)
        if self.process is not None:
            results = await self.process.write(ops, fences)
        else:
            results = await asyncio.to_thread(write_or_refuse, self.db, ops, fences)
        for e, r in zip([e for e, op in zip(batch, ops) if isinstance(op, Call)], results):
            e.result = r

    def _halt(self, entry: Entry) -> None:
        """``entry``, a row of its table's action log, was refused: its gate halts and
        :attr:`halt_listeners` are told (the hub stops the table)."""
        entry.gate.halt(entry.tag)
        log.error("storage: table %s stops, a row of its action log could not be saved",
                  entry.gate.table_id)
        for cb in list(self.halt_listeners):
            try:
                cb(entry.gate)
            except Exception:       # pragma: no cover - a listener's bug must not stop the writer
                log.exception("halt listener failed")

    def _fence(self, tables: frozenset[str], batch: list[Entry]) -> None:
        """Another process took ``tables`` over: their gates are fenced (nothing of them is
        written or acknowledged here) and :attr:`fence_listeners` are told."""
        for e in [*batch, *self.pending]:
            if e.gate.table_id in tables:
                e.gate.fence()
        log.warning("storage: writes of %d table(s) refused, another worker owns them: %s",
                    len(tables), ", ".join(sorted(tables)[:10]))
        for cb in list(self.fence_listeners):
            try:
                cb(tables)
            except Exception:       # pragma: no cover - a listener's bug must not stop the writer
                log.exception("fence listener failed")

    def _set_down(self, down: bool, why: str) -> None:
        """The calling commit failed (``down``) or passed: the store is down while any commit's
        last try failed."""
        if down:
            self._failing.add(asyncio.current_task())
        else:
            self._failing.discard(asyncio.current_task())
            if self._failing:
                return
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
        :class:`StorageUnavailable`. Errors that are not storage errors propagate at once.

        A write's failure may come after its COMMIT went through (the connection lost before
        the answer came back), so ``fn`` may run again on what it wrote itself: while it does,
        :func:`again` is True, and ``fn`` must then find its own earlier writes (by a key it
        chose before its first run, or the id that run was given) and answer as the first run
        would have, neither writing them twice nor refusing them as someone else's
        (tests/test_commit_cut.py cuts real connections there)."""
        deadline = time.monotonic() + self.request_wait
        delay = 0.05
        tries = 0
        while True:
            token = _AGAIN.set(tries > 0 and write)
            tries += 1
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
            finally:
                _AGAIN.reset(token)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)

    def _run(self, fn: Callable[[Session], T], write: bool) -> T:
        if write:
            with self.db.begin() as s:
                return fn(s)
        with self.db() as s:
            return fn(s)
