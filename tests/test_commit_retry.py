"""A commit whose answer was lost (the connection broken after COMMIT was sent) may have gone
through: the store retries the batch, and the rows (and new tables) found stored with the same
content count as written — the game goes on with every acknowledged write stored once — while a
row stored under the same key with other content is still refused (qipai/server/commit.py,
:func:`write_or_refuse`). On the thread, in the writer process and, on PostgreSQL, from the event
loop (whose failed commit is written again by the thread)."""

from __future__ import annotations

import pytest
import uvloop
from sqlalchemy import insert, select

from qipai.competition.db import open_db
from qipai.server import ratings
from qipai.server.chat import insert_lines, new_line
from qipai.server.commit import write_ops
from qipai.server.conduct import mark_aborted
from qipai.server.hub import write_record
from qipai.server.models import (
    ActionRow,
    ChatRow,
    RatingChangeRow,
    RatingRow,
    RecordPlayer,
    RecordRow,
    TableRow,
    UserRow,
)
from qipai.server.store import Call, Gate, NewTable, Store, TableStopped
from qipai.server.walkover import mark_void
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


# ----- the calls of a batch: each safe to run twice --------------------------------------------
def users(db) -> None:
    with db.begin() as s:
        for i, name in ((1, "alice"), (2, "bob")):
            s.add(UserRow(id=i, username=name, username_key=name, password_hash="x"))


def game_over() -> Call:
    """The write of a finished rated game's record (:meth:`.hub.Hub.finish_table`'s call)."""
    seats = [{"user": 1, "name": "alice"}, {"user": 2, "name": "bob"}]
    result = {"returns": [1, -1], "reason": "resign", "winners": [0]}
    values = {"table_id": "t1", "game": "xiangqi", "players": [1, 2], "names": ["alice", "bob"],
              "result": result, "record": {"game": "xiangqi", "actions": ["h2e2"] * 40, "result": result},
              "finished": "2026-12-06T18:00:00+00:00"}
    vals = {"status": "finished", "seed": None, "live": None, "seats": seats}
    plan = ratings.plan("xiangqi", 2, 2, "board_default", True, seats, 40, result, [0])
    assert plan is not None
    return Call(write_record, values, vals, plan)


def said(text: str) -> Call:
    return Call(insert_lines, [new_line("table:t1", 1, "alice", "player", "all", text)])


def stored(url: str) -> dict:
    with open_db(url)() as s:
        return {"records": s.execute(select(RecordRow.id, RecordRow.table_id)).all(),
                "players": s.execute(select(RecordPlayer.record_id, RecordPlayer.user_id)).all(),
                "changes": s.execute(select(RatingChangeRow.record_id, RatingChangeRow.user_id,
                                            RatingChangeRow.after)).all(),
                "ratings": s.execute(select(RatingRow.user_id, RatingRow.rating, RatingRow.games)).all(),
                "chat": s.execute(select(ChatRow.text, ChatRow.line_key)).all(),
                "table": s.execute(select(TableRow.status, TableRow.record_id, TableRow.event_game,
                                          TableRow.settings)).all()}


@pytest.mark.parametrize("path", ["thread", "process"])
def test_a_finished_game_and_a_chat_line_whose_commit_went_through_unanswered_are_stored_once(db_url, path):
    """The batch of a game's end (its record, its players' new ratings) and the one of a chat
    line are committed, their answers lost, and written again by the store: the record was
    stored twice (a second row, the ratings changed twice), the line twice. Now the retry finds
    them stored and answers what the first commit did."""
    other = open_db(db_url)         # the commit that went through, its answer lost
    users(other)
    write_ops(other, [NewTable({**table_values("t1"), "status": "playing"})])
    end, line = game_over(), said("gg")
    first = write_ops(other, [end, line])
    before = stored(db_url)
    assert len(before["records"]) == 1 and len(before["changes"]) == 2 and len(before["chat"]) == 1

    async def scenario():
        process = WriterProcess(db_url) if path == "process" else None
        store = Store(open_db(db_url), stall=5.0, process=process)
        await store.start()
        try:
            t1 = Gate("t1", 0)
            got = [store.append(t1, end), store.append(t1, line)]       # the retry
            await store.saved(t1, 10.0)
            assert [e.failed for e in got] == [None, None] and store.dropped == 0
            assert [e.result for e in got] == first
        finally:
            await store.stop(5.0)

    uvloop.run(scenario())
    assert stored(db_url) == before


def test_every_call_of_a_batch_run_twice_writes_what_it_writes_once(db_url):
    """Each kind of :class:`Call` the server puts in a batch: a second run changes nothing and
    returns what the first did (a record, a chat line, a table voided, walked over, aborted)."""
    db = open_db(db_url)
    users(db)
    write_ops(db, [NewTable({**table_values(t), "status": "playing", "event_game": n})
                   for n, t in enumerate(("t1", "t2", "t3", "t4"))])
    calls = [game_over(), said("你好"), said("gg"),
             Call(mark_void, "t2", "void", {"voided": {"by": "ref"}, "voided_game": 1}),
             Call(mark_void, "t3", "walkover", {"walkover": {"absent": ["bob"]}, "voided_game": 2}),
             Call(mark_aborted, "t4", {"aborted": {"reason": "inactive"}})]
    first = write_ops(db, calls)
    once = stored(db_url)
    assert len(once["records"]) == 1 and len(once["chat"]) == 2
    assert [r.status for r in once["table"]] == ["finished", "void", "walkover", "aborted"]
    assert write_ops(db, calls) == first
    assert write_ops(db, calls, again=True) == first
    assert stored(db_url) == once
