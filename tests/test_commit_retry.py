"""A commit whose answer was lost (the connection broken after COMMIT was sent) may have gone
through: the store retries the batch, and the rows (and new tables) found stored with the same
content count as written — the game goes on with every acknowledged write stored once — while a
row stored under the same key with other content is still refused (qipai/server/commit.py,
:func:`write_or_refuse`). On the thread, in the writer process and, on PostgreSQL, from the event
loop (whose failed commit is written again by the thread)."""

from __future__ import annotations

import pytest
import uvloop
from sqlalchemy import insert

from qipai.competition.db import open_db
from qipai.server.commit import write_ops
from qipai.server.models import ActionRow
from qipai.server.store import Gate, NewTable, Store, TableStopped
from qipai.server.writer import WriterProcess

from .test_store_writer_process import stored_rows, table_values


def move(idx: int, text: str) -> dict:
    return {"table_id": "t1", "idx": idx, "kind": "move", "seat": idx % 2, "action": text, "t": 100 * idx,
            "data": {"turn": idx, "said": "炮二平五", "path": (1, 2)}, "epoch": 0}


@pytest.mark.parametrize("path", ["thread", "process", "loop"])
def test_a_batch_stored_already_counts_as_written_and_a_differing_row_is_refused(db_url, path):
    if path == "loop" and not db_url.startswith("postgresql"):
        pytest.skip("commits from the event loop are PostgreSQL's")
    other = open_db(db_url)         # the commit that went through, its answer lost: another connection

    async def scenario():
        db = open_db(db_url)
        store = Store(db, stall=5.0, process=WriterProcess(db_url) if path == "process" else None,
                      loop_commits=path == "loop")
        assert (store.loop is not None) == (path == "loop")
        halted: list[Gate] = []
        store.halt_listeners.append(halted.append)
        await store.start()
        try:
            t1 = Gate("t1", 0)
            write_ops(other, [NewTable(table_values("t1"))])
            first = store.append(t1, NewTable(table_values("t1")))      # the retry of that commit
            await store.saved(t1, 10.0)
            assert first.failed is None and store.dropped == 0
            write_ops(other, [move(0, "h2e2"), move(1, "h9g7")])
            for i, m in enumerate(("h2e2", "h9g7", "b0c2")):            # the retry, and a new move
                store.append(t1, move(i, m))
            await store.saved(t1, 10.0)
            assert halted == [] and store.dropped == 0 and not store.down
            # a real conflict: another worker stored index 3 with other content
            with other.begin() as s:
                s.execute(insert(ActionRow).values(move(3, "elsewhere")))
            store.append(t1, move(3, "c3c4"))
            with pytest.raises(TableStopped):
                await store.saved(t1, 10.0)
            assert halted == [t1] and store.dropped == 1
        finally:
            await store.stop(5.0)

    uvloop.run(scenario())
    assert stored_rows(db_url) == [("t1", 0, "h2e2"), ("t1", 1, "h9g7"), ("t1", 2, "b0c2"),
                                   ("t1", 3, "elsewhere")]
