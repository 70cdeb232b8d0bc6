"""The store's writer in a process of its own.

The event loop's thread holds the interpreter most of the time under load; a group commit run in
a worker thread of the same process then waits for its turn at every step, and every move waits
for that commit before anyone is told of it. :class:`WriterProcess` runs the commits
(:func:`.commit.write_ops`) in a child process with its own connection instead: the loop sends
each batch of writes down a pipe (pickled: log rows, table rows, and :class:`.commit.Call`\\ s by
the name of their function), and reads the answer when the pipe has it, without waiting in
between.

The child answers every batch with its :class:`.commit.Call` results, or with the failure: writes
the database refuses (:func:`.commit.refused_write`) come back as :class:`.commit.BadWrite`, for
the store to leave the refused write out; any other failure (locked, disk full, the machine)
as :class:`.commit.WriterFailed`, retried by the store like any failing commit.
A child that stops (killed, crashed) fails the batch in flight the same way and is started again
for the next try. The child ends when the pipe closes, so it never outlives the server.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import threading
import traceback
from concurrent.futures import ThreadPoolExecutor
from typing import Any

log = logging.getLogger("qipai.server")


def serve(inbox: Any, conn: Any, url: str, faults: bool, lanes: int = 1) -> None:
    """The child's loop: ``(batch id, ops, fences)`` in from ``inbox``, ``(batch id, failure or None,
    results)`` out on ``conn``, until the inbox closes or ``None`` arrives. (Profiled with
    ``$QIPAI_PROFILE``: :mod:`.profiling`.)"""
    from . import profiling

    profiling.start("writer")
    try:
        _serve(inbox, conn, url, faults, lanes)
    finally:
        profiling.dump()


def _serve(inbox: Any, conn: Any, url: str, faults: bool, lanes: int) -> None:
    from qipai.competition.db import open_db

    from .commit import BadWrite, Fenced, write_or_refuse
    from .sqlitesetup import install_fault_hook, tune_sqlite

    try:
        db = open_db(url)
        tune_sqlite(db)
        if faults:
            install_fault_hook(db)
    except Exception as e:  # noqa: BLE001 - told to the server, which says why it cannot start
        conn.send((0, ("storage", str(e).splitlines()[0] if str(e) else type(e).__name__, ""), None))
        return
    sending = threading.Lock()

    def answer(msg: tuple[Any, ...]) -> None:
        with sending:
            conn.send(msg)

    def commit(bid: int, ops: list[Any], fences: dict[str, int] | None) -> None:
        try:
            results = write_or_refuse(db, ops, fences)
        except Fenced as e:
            answer((bid, ("fenced", sorted(e.tables), ""), None))
            return
        except Exception as e:  # noqa: BLE001 - every failure goes back to the server
            reason = str(getattr(e, "orig", None) or e).splitlines()[0] if str(e) else type(e).__name__
            kind = "refused" if isinstance(e, BadWrite) else "storage"
            answer((bid, (kind, reason, traceback.format_exc()), None))
            return
        answer((bid, None, results))

    answer((0, None, []))               # ready
    # the store sends a batch while others are under way only where they may commit side by
    # side (PostgreSQL, tables none of them holds: Store._take); each runs in a thread of its
    # own, with a connection of its own
    with ThreadPoolExecutor(max_workers=lanes, thread_name_prefix="qipai-commit") as pool:
        while True:
            try:
                msg = inbox.recv()
            except (EOFError, OSError):
                return
            if msg is None:
                return
            pool.submit(commit, *msg)


class WriterProcess:
    """The parent's side: start, batches (several under way when ``lanes`` > 1), restart, stop."""

    def __init__(self, url: str, faults: bool = False, lanes: int = 1) -> None:
        self.url = url
        self.faults = faults
        self.lanes = lanes              # batches the child commits side by side at most
        self._proc: Any = None
        self._conn: Any = None          # the child's answers (read when the event loop says so)
        self._out: Any = None           # the batches (a pipe of its own, left blocking)
        self._waiting: dict[int, asyncio.Future[list[Any]]] = {}
        self._next = 0
        self._loop: asyncio.AbstractEventLoop | None = None

    async def start(self, wait: float = 60.0) -> None:
        """Start the child and wait until it has opened the database (at most ``wait`` s).
        Raises :class:`.commit.WriterFailed` if it cannot."""
        from .commit import WriterFailed

        ctx = multiprocessing.get_context("spawn")
        # two one-way pipes: the loop watches the answers' end, which makes it non-blocking, so
        # the batches go down a pipe of their own whose sending end stays blocking
        self._conn, answers = ctx.Pipe(duplex=False)
        inbox, self._out = ctx.Pipe(duplex=False)
        self._proc = ctx.Process(target=serve, args=(inbox, answers, self.url, self.faults, self.lanes),
                                 name="qipai-writer", daemon=True)
        self._proc.start()
        answers.close()
        inbox.close()
        self._loop = asyncio.get_running_loop()
        ready: asyncio.Future[list[Any]] = self._loop.create_future()
        self._waiting[0] = ready
        self._loop.add_reader(self._conn.fileno(), self._on_reply)
        try:
            await asyncio.wait_for(ready, wait)
        except TimeoutError:
            self._drop("the writer process did not start")
            raise WriterFailed(f"the writer process did not start in {wait:.0f} s") from None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    async def write(self, ops: list[Any], fences: dict[str, int] | None = None) -> list[Any]:
        """Commit ``ops`` in the child (see :func:`.commit.write_ops`); returns the calls' results.
        Raises :class:`.commit.WriterFailed` (storage failing, or the child stopped),
        :class:`.commit.Fenced` (tables another process owns) or :class:`.commit.BadWrite` (the
        database refused the writes themselves)."""
        from .commit import WriterFailed

        if self._proc is None or not self._proc.is_alive():
            self._drop("the writer process stopped")
            log.warning("storage: starting the writer process again")
            await self.start()
        self._next += 1
        bid = self._next
        assert self._loop is not None
        fut: asyncio.Future[list[Any]] = self._loop.create_future()
        self._waiting[bid] = fut
        try:
            self._out.send((bid, ops, fences))
        except (OSError, ValueError) as e:
            self._waiting.pop(bid, None)
            self._drop("the writer process stopped")
            raise WriterFailed(f"the writer process stopped ({e})") from None
        return await fut

    def _on_reply(self) -> None:
        from .commit import WriterFailed

        try:
            bid, failure, results = self._conn.recv()
        except (EOFError, OSError):
            self._drop("the writer process stopped")
            return
        fut = self._waiting.pop(bid, None)
        if fut is None or fut.done():
            return
        if failure is None:
            fut.set_result(results)
        elif failure[0] == "storage":
            fut.set_exception(WriterFailed(failure[1]))
        elif failure[0] == "fenced":
            from .commit import Fenced

            fut.set_exception(Fenced(failure[1]))
        else:
            from .commit import BadWrite

            log.error("storage: the database refused a write in the writer process:\n%s", failure[2])
            fut.set_exception(BadWrite(failure[1]))

    def _drop(self, why: str) -> None:
        """Forget the child (stopped or to be replaced): every batch in flight fails."""
        from .commit import WriterFailed

        if self._conn is not None:
            if self._loop is not None:
                self._loop.remove_reader(self._conn.fileno())
            self._conn.close()
            self._conn = None
        if self._out is not None:
            self._out.close()
            self._out = None
        if self._proc is not None:
            if self._proc.is_alive():
                self._proc.kill()
            self._proc.join(1)
            self._proc = None
        waiting, self._waiting = self._waiting, {}
        for fut in waiting.values():
            if not fut.done():
                fut.set_exception(WriterFailed(why))

    async def stop(self) -> None:
        """End the child once it has answered everything sent (the store drains first)."""
        if self._proc is None:
            return
        try:
            self._out.send(None)
        except (OSError, ValueError):
            pass
        proc = self._proc
        await asyncio.to_thread(proc.join, 5)
        self._drop("the server stopped")
