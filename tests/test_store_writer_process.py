"""The writer process (:mod:`qipai.server.writer`) on its own, under the server's event loop
(uvloop): a batch far larger than a pipe's buffer, the results of calls, a storage failure
reported as such, and a restart after the child is killed; and the store's writer (in the
process or a thread) leaving out a write the database cannot take instead of retrying it
for ever."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest
import uvloop
from sqlalchemy import func, insert, select, text

from qipai.competition.db import open_db
from qipai.server.models import ActionRow, TableRow
from qipai.server.store import (
    BadWrite,
    Call,
    Gate,
    NewTable,
    Store,
    TableStopped,
    WriterFailed,
    refused_write,
    storage_error,
    write_ops,
)
from qipai.server.writer import WriterProcess


def count_rows(s, table_id: str) -> int:
    q = select(func.count()).select_from(ActionRow).where(ActionRow.table_id == table_id)
    return s.execute(q).scalar()


def table_values(tid: str) -> dict:
    return {"id": tid, "game": "xiangqi", "options": {}, "num_seats": 2, "seats": [None, None],
            "settings": {}, "status": "open", "owner_id": None, "event_id": None, "event_game": None,
            "created": "2026-12-03T00:00:00Z"}


@pytest.fixture
def url(tmp_path):
    u = f"sqlite:///{tmp_path / 'qipai.db'}"
    open_db(u)                      # the schema, as the server makes it before its writer starts
    return u


def test_a_large_batch_calls_and_a_killed_child(url, tmp_path):
    async def scenario():
        w = WriterProcess(url, faults=True)
        await w.start()
        # the loop watches the answers (which makes that end non-blocking); the batches' end must
        # stay blocking, or a batch larger than the pipe's buffer fails (EAGAIN) on a busy machine
        assert os.get_blocking(w._out.fileno()) and w._out.fileno() != w._conn.fileno()
        try:
            rows = [{"table_id": "t1", "idx": i, "kind": "move", "seat": i % 2, "action": "h2e2" * 50,
                     "t": i, "data": {"turn": i}} for i in range(5000)]          # about 1 MB pickled
            assert await w.write([NewTable(table_values("t1")), *rows, Call(count_rows, "t1")]) == [5000]
            (tmp_path / "qipai.db.fault").write_text("full")
            with pytest.raises(WriterFailed) as e:
                await w.write([{"table_id": "t1", "idx": 5000, "kind": "move", "seat": 0,
                                "action": "x", "t": 0, "data": None}])
            assert storage_error(e.value) and "full" in str(e.value)
            (tmp_path / "qipai.db.fault").unlink()
            with pytest.raises(BadWrite):       # refused for itself: the store may leave it out
                await w.write([action("t1", 5000, "bad \ud800")])
            os.kill(w.pid, signal.SIGKILL)
            await asyncio.sleep(0.3)
            assert await w.write([Call(count_rows, "t1")]) == [5000]       # started again
        finally:
            await w.stop()
        assert w.pid is None

    uvloop.run(scenario())         # the server's loop (uvicorn[standard])
    db = open_db(url)
    with db() as s:
        assert s.get(TableRow, "t1") is not None and count_rows(s, "t1") == 5000


def action(tid: str, idx: int, text: str) -> dict:
    return {"table_id": tid, "idx": idx, "kind": "chat", "seat": 0, "action": text, "t": idx,
            "data": None, "epoch": 0}


async def started(db, process=None) -> tuple[Store, list[bool], list[Gate]]:
    """A started store on ``db`` and what its listeners hear: storage down or up, halted gates."""
    store = Store(db, stall=5.0, process=process)
    downs: list[bool] = []
    halted: list[Gate] = []
    store.listeners.append(downs.append)
    store.halt_listeners.append(halted.append)
    await store.start()
    return store, downs, halted


def stored_rows(url: str) -> list[tuple]:
    """(table id, index, action) of every stored action row, in order."""
    with open_db(url)() as s:
        return [tuple(r) for r in s.execute(select(ActionRow.table_id, ActionRow.idx, ActionRow.action)
                                            .order_by(ActionRow.table_id, ActionRow.idx))]


def test_a_write_the_database_cannot_take_is_left_out_and_the_others_are_saved(url):
    """A row that fails for a reason other than storage (a lone surrogate SQLite cannot encode)
    used to be retried with its whole batch for ever: every table's writes stood behind it and
    the store stayed down. It is left out; the other tables' writes are committed in their
    order and acknowledged, and storage is never reported down."""
    async def scenario():
        store, downs, _ = await started(open_db(url))
        try:
            t1, t2 = Gate("t1"), Gate("t2")
            store.append(t1, NewTable(table_values("t1")))
            store.append(t1, action("t1", 0, "good"))
            bad = store.append(t1, action("t1", 1, "bad \ud800"))
            store.append(t2, NewTable(table_values("t2")))
            store.append(t2, action("t2", 0, "other"))
            await store.saved(t2, 10.0)
            with pytest.raises(TableStopped):
                await store.saved(t1, 10.0)
            assert store.dropped == 1 and downs == [] and not store.down and bad.failed
            later = Gate("t3")               # the writer goes on as usual
            store.append(later, NewTable(table_values("t3")))
            await store.saved(later, 10.0)
        finally:
            await store.stop(5.0)

    uvloop.run(scenario())
    assert stored_rows(url) == [("t1", 0, "good"), ("t2", 0, "other")]
    with open_db(url)() as s:
        assert all(s.get(TableRow, t) is not None for t in ("t1", "t2", "t3"))


@pytest.mark.parametrize("writer", ["thread", "process"])
def test_a_refused_row_of_an_action_log_halts_that_log_and_is_never_acknowledged(db_url, writer):
    """The database refuses a row of a table's action log (here a real IntegrityError: its
    index is taken, as after an earlier gap). It used to be left out and its gate moved on: the
    input was acknowledged though not stored, the table's later rows were written after a gap,
    and after a restart the next row's index clashed again. Now the refused row and every later
    row of that log are left out, waiting for any of them raises TableStopped, the halt
    listeners are told once, and the other tables' writes (and the table's own other writes)
    are saved."""
    open_db(db_url)

    async def scenario():
        db = open_db(db_url)
        store, _, halted = await started(db, WriterProcess(db_url) if writer == "process" else None)
        try:
            t1, t2 = Gate("t1"), Gate("t2")
            store.append(t1, NewTable(table_values("t1")))
            store.append(t2, NewTable(table_values("t2")))
            store.append(t1, action("t1", 0, "a"))
            await store.saved(t1, 10.0)
            with db.begin() as s:            # another writer took the next index
                s.execute(insert(ActionRow).values(action("t1", 1, "elsewhere")))
            first = store.append(t1, action("t1", 1, "b"))        # refused: the index is taken
            store.append(t2, action("t2", 0, "x"))
            later = store.append(t1, action("t1", 2, "c"))
            call = store.append(t1, Call(count_rows, "t1"))        # not a log row: written
            store.append(t2, action("t2", 1, "y"))
            await store.saved(t2, 10.0)
            for e in (first, later):
                with pytest.raises(TableStopped):
                    await t1.wait(e.tag)
            assert halted == [t1] and t1.halted == first.tag and first.failed
            assert "IntegrityError" in first.failed and later.failed is None
            assert store.dropped == 1 and not store.down
            store.append(t1, action("t1", 3, "d"))                 # nothing more of its log
            await store.drain()
            assert call.result == 2
        finally:
            await store.stop(5.0)

    uvloop.run(scenario())
    assert stored_rows(db_url) == [("t1", 0, "a"), ("t1", 1, "elsewhere"), ("t2", 0, "x"), ("t2", 1, "y")]


async def until(cond, what: str, timeout: float = 20.0) -> None:
    """Until ``cond()`` holds (checked every 20 ms); fails after ``timeout`` seconds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not cond():
        assert asyncio.get_running_loop().time() < deadline, what
        await asyncio.sleep(0.02)


def test_a_schema_that_is_not_the_models_is_storage_failing_not_a_refused_write(db_url):
    """A column missing after a bad migration (PostgreSQL: ProgrammingError, undefined column),
    or shorter than the model's (PostgreSQL: DataError, value too long): the writes were taken
    for refused ones and left out, acknowledged though never stored. They are storage failing
    now (the store is down and says why, the writes are retried, nothing is left out) and are
    saved once the schema is mended; a value too long for the model's own column is still a
    refused write."""
    open_db(db_url)
    pg = db_url.startswith("postgresql")

    def ddl(db, sql: str) -> None:
        with db.begin() as s:
            s.execute(text(sql))

    async def broken_then_mended(store, downs, gate, row, breaking: str, mending: str) -> None:
        ddl(store.db, breaking)
        entry = store.append(gate, row)
        await until(lambda: store.down, "storage reported down")
        assert gate.durable < entry.tag and entry.failed is None and store.dropped == 0
        ddl(store.db, mending)
        await store.saved(gate, 20.0)
        assert downs[-2:] == [True, False] and not store.down and store.dropped == 0

    async def scenario():
        db = open_db(db_url)
        store, downs, halted = await started(db)
        try:
            t1 = Gate("t1")
            store.append(t1, NewTable(table_values("t1")))
            store.append(t1, action("t1", 0, "a"))
            await store.saved(t1, 10.0)
            await broken_then_mended(store, downs, t1, action("t1", 1, "b"),
                                     "ALTER TABLE actions DROP COLUMN data",
                                     "ALTER TABLE actions ADD COLUMN data JSON")
            if pg:
                await broken_then_mended(store, downs, t1, action("t1", 2, "h2e2"),
                                         "ALTER TABLE actions ALTER COLUMN action TYPE varchar(3)",
                                         "ALTER TABLE actions ALTER COLUMN action TYPE varchar(1000)")
                too_long = store.append(t1, action("t1", 3, "x" * 1001))     # the value's fault
                with pytest.raises(TableStopped):
                    await t1.wait(too_long.tag)
                assert "DataError" in too_long.failed and store.dropped == 1 and halted == [t1]
        finally:
            await store.stop(5.0)

    uvloop.run(scenario())
    assert stored_rows(db_url) == [("t1", 0, "a"), ("t1", 1, "b"), *([("t1", 2, "h2e2")] if pg else [])]


class Unstartable:
    """A writer process that cannot be started again for a while (``OSError``: too many open
    files), then writes as the thread does."""

    def __init__(self, url: str, fails: int) -> None:
        self.db, self.fails = open_db(url), fails

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    async def write(self, ops, fences=None):
        if self.fails:
            self.fails -= 1
            raise OSError(24, "Too many open files")
        return await asyncio.to_thread(write_ops, self.db, ops, fences)


def test_a_failure_that_is_not_the_database_refusing_the_writes_leaves_nothing_out(url):
    """Only writes the database refuses are left out: the machine failing (the writer process
    not starting again: OSError) was taken for a bad write, every write of the batch was left
    out one by one and yet acknowledged. It is retried as storage failing, and all is saved."""
    async def scenario():
        store = Store(open_db(url), stall=5.0, process=Unstartable(url, 3))
        downs: list[bool] = []
        store.listeners.append(downs.append)
        await store.start()
        try:
            t1 = Gate("t1")
            store.append(t1, NewTable(table_values("t1")))
            for i in range(3):
                store.append(t1, action("t1", i, f"line {i}"))
            await store.saved(t1, 10.0)
            assert store.dropped == 0 and downs == [True, False]
        finally:
            await store.stop(5.0)

    uvloop.run(scenario())
    with open_db(url)() as s:
        assert count_rows(s, "t1") == 3


def refuse_once_with_storage_failing(s, fault: str) -> None:
    """A refused write (a bug) whose first try also makes storage fail (the fault hook's file)."""
    if not os.path.exists(fault + ".done"):
        open(fault + ".done", "w").close()
        with open(fault, "w") as f:
            f.write("full")
    raise ValueError("refused")


def test_storage_failing_while_a_refused_batch_is_written_in_parts_is_retried(url, tmp_path):
    """While a refused batch is written in parts, storage fails: the parts not yet written are
    retried (the store is down meanwhile), nothing but the refused write is left out."""
    from qipai.server.sqlitesetup import install_fault_hook

    fault = tmp_path / "qipai.db.fault"

    async def scenario():
        db = open_db(url)
        install_fault_hook(db)
        store = Store(db, stall=5.0)
        downs: list[bool] = []
        loop = asyncio.get_running_loop()
        store.listeners.append(lambda down: (downs.append(down), down and loop.call_later(0.2, fault.unlink)))
        await store.start()
        try:
            t1 = Gate("t1")
            entries = [store.append(t1, NewTable(table_values("t1"))), store.append(t1, action("t1", 0, "a")),
                       store.append(t1, Call(refuse_once_with_storage_failing, str(fault))),
                       store.append(t1, action("t1", 1, "b"))]
            await store.saved(t1, 10.0)
            assert downs == [True, False] and store.dropped == 1
            assert [e.failed is not None for e in entries] == [False, False, True, False]
        finally:
            await store.stop(5.0)

    uvloop.run(scenario())
    with open_db(url)() as s:
        assert count_rows(s, "t1") == 2


def test_only_the_writes_themselves_are_refused_writes():
    """What the store may leave out (a refused write) and what it retries (storage, the machine)."""
    from sqlalchemy.exc import (
        DatabaseError,
        IntegrityError,
        InterfaceError,
        OperationalError,
        ProgrammingError,
    )

    orig = Exception("x")
    assert refused_write(IntegrityError("INSERT", {}, orig))
    assert refused_write(ValueError("a bug in a call"))
    assert refused_write(UnicodeEncodeError("utf-8", "", 0, 1, "x"))
    for exc in (OperationalError("INSERT", {}, orig), WriterFailed("disk full"), OSError(24, "files"),
                MemoryError(), DatabaseError("INSERT", {}, orig), InterfaceError("INSERT", {}, orig)):
        assert not refused_write(exc), exc
    # PostgreSQL's class 42 (an undefined column, 42703) is the schema's: storage failing; a
    # ProgrammingError without a SQLSTATE (SQLite binding a value it cannot take) is the write's
    undefined = type("UndefinedColumn", (Exception,), {"sqlstate": "42703"})("no column data")
    assert storage_error(ProgrammingError("INSERT", {}, undefined))
    assert not refused_write(ProgrammingError("INSERT", {}, undefined))
    binding = ProgrammingError("INSERT", {}, orig)
    assert refused_write(binding) and not storage_error(binding)
