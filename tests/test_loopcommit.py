"""Commits of action rows alone on PostgreSQL, sent from the event loop (qipai/server/loopcommit.py):
durable before a waiter is told, no worker thread involved, the lease epochs fenced as in the
thread's commits, and any other failure written again by the thread, which sorts it."""

from __future__ import annotations

import asyncio

import psycopg
import pytest
import uvloop
from sqlalchemy import text

from qipai.competition.db import open_db
from qipai.server import commit as commit_module
from qipai.server import store as store_module
from qipai.server.loopcommit import LoopCommits, rows_only
from qipai.server.store import Gate, NewTable, Store, TableMoved, TableStopped

from .test_leases import _table


def _row(tid: str, idx: int, action: str, epoch: int = 0, data=None) -> dict:
    return {"table_id": tid, "idx": idx, "kind": "move", "seat": 0, "action": action, "t": idx,
            "data": data, "epoch": epoch}


def _rows(url: str) -> list[tuple]:
    """The action rows as another connection sees them (committed)."""
    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://", 1)) as c:
        return [tuple(r) for r in c.execute("SELECT table_id, idx, action, data::text, epoch FROM actions "
                                            "ORDER BY table_id, idx")]


class ThreadCommits:
    """Counts the store's commits in its worker thread (the real ones, run as they are)."""

    def __init__(self, monkeypatch) -> None:
        self.batches: list[list] = []
        real = store_module.write_or_refuse

        def counted(db, ops, fences=None):
            self.batches.append(list(ops))
            return real(db, ops, fences)

        monkeypatch.setattr(store_module, "write_or_refuse", counted)


def test_which_batches_go_on_the_loop():
    assert rows_only([_row("t1", 0, "a"), None])
    assert not rows_only([None]) and not rows_only([])
    assert not rows_only([_row("t1", 0, "a"), NewTable(_table("t2"))])


def test_action_rows_are_committed_from_the_loop_before_a_waiter_is_told(pg_database, monkeypatch):
    """A table's new row waits for nothing but PostgreSQL: the thread commits the table's row,
    the moves after it are committed from the loop, each visible to another connection by the
    time its waiter wakes; a refused epoch is fenced as in the thread's commit."""
    thread = ThreadCommits(monkeypatch)

    async def scenario():
        store = Store(open_db(pg_database), stall=5.0)
        assert store.loop is not None
        await store.start()
        try:
            t1, t2 = Gate("t1", 0), Gate("t2", 0)
            store.append(t1, NewTable(_table("t1")))
            store.append(t2, NewTable(_table("t2")))
            await store.saved(t2, 10.0)
            assert len(thread.batches) >= 1
            before = len(thread.batches)
            for i in range(3):
                store.append(t1, _row("t1", i, f"m{i}", data={"turn": i, "text": "炮二平五"}))
                await store.saved(t1, 10.0)
                assert [r[:3] for r in _rows(pg_database) if r[0] == "t1"] == \
                    [("t1", j, f"m{j}") for j in range(i + 1)]
            assert len(thread.batches) == before            # none of the rows went by the thread
            # another worker takes t2 over: the old owner's row is refused and never acknowledged
            with psycopg.connect(pg_database.replace("+psycopg", ""), autocommit=True) as c:
                c.execute("UPDATE tables SET lease_epoch = 1 WHERE id = 't2'")
            store.append(t2, _row("t2", 0, "stale"))
            store.append(t1, _row("t1", 3, "m3"))
            with pytest.raises(TableMoved):
                await store.saved(t2, 10.0)
            await store.saved(t1, 10.0)
            assert t2.fenced and not t1.fenced
        finally:
            await store.stop(5.0)

    uvloop.run(scenario())
    rows = _rows(pg_database)
    assert [r[:3] for r in rows] == [("t1", i, f"m{i}") for i in range(4)]
    # the JSON is stored as the thread's commit stores it (SQLAlchemy's JSON: ``null`` for None)
    assert rows[0][3] == '{"turn": 0, "text": "\\u70ae\\u4e8c\\u5e73\\u4e94"}'
    assert rows[3][3] == "null"


def test_a_row_the_loop_cannot_commit_is_written_by_the_thread_which_sorts_the_failure(pg_database,
                                                                                     monkeypatch):
    """A row the database refuses (its index taken) fails on the loop; the thread writes the
    batch again, finds the refused row alone, and halts its table's log: never acknowledged,
    while the other table's row of the same batch is saved."""
    thread = ThreadCommits(monkeypatch)
    db = open_db(pg_database)
    commit_module.write_ops(db, [NewTable(_table("t1")), NewTable(_table("t2")), _row("t1", 0, "a")])

    async def scenario():
        store = Store(db, stall=5.0)
        halted: list[Gate] = []
        store.halt_listeners.append(halted.append)
        await store.start()
        try:
            t1, t2 = Gate("t1", 0), Gate("t2", 0)
            store.append(t1, _row("t1", 0, "again"))        # idx 0 is taken: refused
            store.append(t2, _row("t2", 0, "x"))
            with pytest.raises(TableStopped):
                await store.saved(t1, 10.0)
            await store.saved(t2, 10.0)
            assert halted == [t1] and thread.batches    # sorted by the thread's commit
        finally:
            await store.stop(5.0)

    uvloop.run(scenario())
    assert [r[:3] for r in _rows(pg_database)] == [("t1", 0, "a"), ("t2", 0, "x")]


def test_a_connection_that_failed_is_not_used_again(pg_database):
    """A commit whose connection was ended under it fails (nothing committed) and the next
    commit opens a new connection."""
    db = open_db(pg_database)
    commit_module.write_ops(db, [NewTable(_table("t1"))])

    async def scenario():
        loop = LoopCommits(db)
        try:
            await loop.write([_row("t1", 0, "a")])
            [conn] = loop._idle
            with db.begin() as s:
                s.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": conn.info.backend_pid})
            with pytest.raises(store_module.LoopFailed):
                await loop.write([_row("t1", 1, "b")])
            assert loop._idle == []
            await loop.write([_row("t1", 1, "b")])
        finally:
            await loop.close()

    asyncio.run(scenario())
    assert [r[:3] for r in _rows(pg_database)] == [("t1", 0, "a"), ("t1", 1, "b")]


async def _started(url: str, *tables: str) -> tuple[Store, list[Gate]]:
    """A started store on PostgreSQL with its loop's commits, and ``tables`` stored (their gates)."""
    store = Store(open_db(url), stall=5.0)
    assert store.loop is not None
    await store.start()
    gates = [Gate(t, 0) for t in tables]
    for g in gates:
        store.append(g, NewTable(_table(g.table_id)))
    for g in gates:
        await store.saved(g, 5.0)
    return store, gates


def _slow_call(s, seconds: float) -> str:
    """A call that holds its commit (a finished game's record on a busy machine)."""
    import time

    time.sleep(seconds)
    return "done"


def test_moves_are_not_held_behind_a_slow_commit_of_other_writes(pg_database):
    """While a commit of other writes is under way (a game's record, in the worker thread), the
    moves of other tables are committed from the loop beside it, also those appended after a
    new table; the slow table's own next row, the new table and that table's rows still wait
    for it (a table's writes stay in order)."""
    from qipai.server.store import Call

    async def scenario():
        store, (a, b) = await _started(pg_database, "ta", "tb")
        try:
            slow = store.append(a, Call(_slow_call, 1.5))
            while not store._running:
                await asyncio.sleep(0.005)
            after = store.append(a, _row("ta", 0, "a-after"))
            c = Gate("tc", 0)
            store.append(c, NewTable(_table("tc")))             # waits for the slow commit
            c0 = store.append(c, _row("tc", 0, "c0"))
            store.append(b, _row("tb", 0, "b0"))                # goes ahead of both
            await store.saved(b, 5.0)               # before the slow commit is done
            assert a.durable < slow.tag and slow.result is None and c.durable == 0
            assert [r[:3] for r in _rows(pg_database)] == [("tb", 0, "b0")]
            await store.saved(a, 5.0)
            assert slow.result == "done" and a.durable == after.tag
            await store.saved(c, 5.0)
            assert c.durable == c0.tag
        finally:
            await store.stop(5.0)

    uvloop.run(scenario())
    assert [r[:3] for r in _rows(pg_database)] == [("ta", 0, "a-after"), ("tb", 0, "b0"), ("tc", 0, "c0")]


def test_rows_appended_with_a_slow_write_of_another_table_are_not_held_in_its_commit(pg_database):
    """Rows and another table's call appended together, with nothing under way: the call's
    table goes to the worker thread alone, the other tables' rows from the loop beside it (they
    used to share one commit, and wait for the call)."""
    from qipai.server.store import Call

    async def scenario():
        store, (a, b) = await _started(pg_database, "ta", "tb")
        try:
            before = store.append(a, _row("ta", 0, "a0"))
            store.append(b, _row("tb", 0, "b0"))
            slow = store.append(a, Call(_slow_call, 1.5))
            store.append(b, _row("tb", 1, "b1"))
            await store.saved(b, 5.0)
            assert a.durable < before.tag and slow.result is None
            await store.saved(a, 5.0)
            assert slow.result == "done"
        finally:
            await store.stop(5.0)

    uvloop.run(scenario())
    assert [r[:3] for r in _rows(pg_database)] == [("ta", 0, "a0"), ("tb", 0, "b0"), ("tb", 1, "b1")]
