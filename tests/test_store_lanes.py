"""Group commits side by side (PostgreSQL): a table's writes stay in order, one batch after the
other, while the writes of other tables commit beside them (qipai/server/store.py, Store._take)."""

from __future__ import annotations

import asyncio

from sqlalchemy import create_engine
from sqlalchemy.orm import sessionmaker

from qipai.server.store import Gate, Store, TableUpdate, WriterFailed, commit_lanes


def _row(tid: str, idx: int) -> dict:
    return {"table_id": tid, "idx": idx, "kind": "move", "seat": 0, "action": "h2e2", "t": 0,
            "data": None}


class Writer:
    """A writer process whose commits the test ends one by one (no database)."""

    def __init__(self) -> None:
        self.calls: list[tuple[list, asyncio.Future]] = []
        self.changed = asyncio.Event()

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    async def write(self, ops, fences):
        fut = asyncio.get_running_loop().create_future()
        self.calls.append(([(op["table_id"], op["idx"]) if isinstance(op, dict) else type(op).__name__
                            for op in ops], fut))
        self.changed.set()
        return await fut

    async def until(self, n: int) -> None:
        while len(self.calls) < n:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 5)


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def _store(writer: Writer) -> Store:
    # an engine that is never connected: the store reads its dialect alone
    db = sessionmaker(create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none"))
    assert commit_lanes(db) == 1                        # by default (see commit_lanes)
    return Store(db, process=writer, lanes=4, loop_commits=False)


def test_other_tables_commit_beside_a_commit_under_way_and_a_tables_writes_wait_their_turn():
    async def scenario():
        w = Writer()
        store = _store(w)
        await store.start()
        t1, t2, t3 = Gate("t1"), Gate("t2"), Gate("t3")
        store.append(t1, _row("t1", 0))
        await w.until(1)                                    # t1's first commit is under way
        store.append(t2, _row("t2", 0))
        store.append(t1, _row("t1", 1))                     # waits for t1's first commit
        await w.until(2)
        assert w.calls[1][0] == [("t2", 0)]
        w.calls[1][1].set_result([])
        await store.saved(t2, 1)                            # acknowledged while t1's is under way
        assert t1.durable == 0 and len(w.calls) == 2
        # a change of a table's row waits until nothing is under way, and what follows it of
        # its table too; the rows of other tables go on beside the commit under way
        store.append(t3, TableUpdate("t3", {"status": "playing"}))
        store.append(t3, _row("t3", 0))
        store.append(t2, _row("t2", 1))
        await w.until(3)
        assert w.calls[2][0] == [("t2", 1)]
        w.calls[2][1].set_result([])
        await store.saved(t2, 1)
        assert t3.durable == 0 and len(w.calls) == 3
        w.calls[0][1].set_result([])
        await asyncio.wait_for(t1.wait(1), 1)
        assert t1.durable == 1
        await w.until(4)
        assert w.calls[3][0] == [("t1", 1), "TableUpdate", ("t3", 0)]
        w.calls[3][1].set_result([])
        await store.drain()
        assert (t1.durable, t2.durable, t3.durable) == (2, 2, 2)
        await store.stop(1)

    asyncio.run(scenario())


def test_a_failing_commit_keeps_its_tables_later_writes_back_until_it_passes():
    """Storage fails for one commit: it is retried; the table's next write is never committed
    before it (a saved later write with an earlier one lost would be a hole in the log), while
    another table's writes go on; the store is down until the failing commit passes."""
    async def scenario():
        w = Writer()
        store = _store(w)
        downs: list[bool] = []
        store.listeners.append(downs.append)
        await store.start()
        t1, t2 = Gate("t1"), Gate("t2")
        store.append(t1, _row("t1", 0))
        await w.until(1)
        store.append(t1, _row("t1", 1))
        w.calls[0][1].set_exception(WriterFailed("disk full"))
        await w.until(2)                                    # tried again, with t1's next write
        assert w.calls[1][0] == [("t1", 0), ("t1", 1)] and downs == [True]
        store.append(t2, _row("t2", 0))
        await w.until(3)
        assert w.calls[2][0] == [("t2", 0)]
        w.calls[2][1].set_result([])
        await store.saved(t2, 1)
        assert store.down and t1.durable == 0               # the other commit passing is not enough
        w.calls[1][1].set_result([])
        await store.saved(t1, 1)
        assert downs == [True, False] and t1.durable == 2
        await store.stop(1)

    asyncio.run(scenario())
