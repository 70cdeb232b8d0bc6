"""Storage that fails (disk full, database locked) loses nothing acknowledged and never answers
in plain text: requests answer 503 ``storage_unavailable``, games pause and say so, writes are
retried, and once storage is back everything acknowledged is there — also after a restart.

The faults come from the storage layer's test hook (``Settings.storage_faults``: every write
fails while ``<database>.fault`` exists), and from a real lock held by another SQLite
connection against a real server process.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from contextlib import contextmanager

import httpx
import pytest
import websockets
from sqlalchemy import select

from qipai.server.models import RecordRow, TableRow

from .server_helpers import client, next_state, post, receive, signup, ws
from .server_process import answer_commitment, free_port, start, wait_up


def fault(tmp_path, on: bool, kind: str = "full") -> None:
    path = tmp_path / "qipai.db.fault"
    if on:
        path.write_text(kind)
    else:
        path.unlink()


def faulty(tmp_path):
    return client(tmp_path, storage_faults=True, storage_wait=0.5)


def until(sock, kind: str) -> dict:
    while True:
        msg = receive(sock)
        if msg["type"] == kind:
            return msg


def test_requests_that_write_answer_503_storage_unavailable(tmp_path):
    with faulty(tmp_path) as c:
        alice = signup(c, "alice")
        fault(tmp_path, True)
        r = c.post("/api/signup", json={"username": "bob", "password": "correct horse"})
        assert r.status_code == 503 and r.json()["error"] == "storage_unavailable", r.text
        assert "storage" in r.json()["message"]
        r = c.post("/api/login", json={"username": "alice", "password": "correct horse"})
        assert r.status_code == 503 and r.json()["error"] == "storage_unavailable", r.text
        r = post(c, alice, "/api/tables", {"game": "xiangqi"})
        assert r.status_code == 503 and r.json()["error"] == "storage_unavailable", r.text
        fault(tmp_path, False)
        c.cookies.clear()
        assert c.post("/api/login", json={"username": "alice", "password": "correct horse"}
                      ).status_code == 200
        assert signup(c, "bob")
        # the table asked for during the fault was kept and saved once storage came back
        time.sleep(0.3)
        assert len(c.get("/api/tables").json()) == 1
    with faulty(tmp_path).app.state.db() as s:
        assert len(s.scalars(select(TableRow)).all()) == 1


def seated_xiangqi(c) -> tuple[str, str, dict]:
    """Two players at a new xiangqi table (the board's clock): their tokens and the table."""
    red, black = signup(c, "red"), signup(c, "black")
    t = post(c, red, "/api/tables", {"game": "xiangqi", "settings": {"clock": "board_default"}}).json()
    post(c, black, f"/api/tables/{t['id']}/sit")
    return red, black, t


def test_a_game_pauses_while_its_moves_cannot_be_saved_and_its_end_is_kept(tmp_path):
    with faulty(tmp_path) as c:
        red, black, t = seated_xiangqi(c)
        with ws(c, red, t["id"]) as r, ws(c, black, t["id"]) as b:
            next_state(r)
            bank = next_state(b)["clocks"][1]["bank"]
            fault(tmp_path, True)
            r.send_json({"type": "move", "seq": 0, "action": "h2e2"})
            # nobody is told of the move while it cannot be saved; everyone is told of the pause
            assert until(r, "paused")["reason"] == "storage_unavailable"
            assert until(b, "paused")["reason"] == "storage_unavailable"
            b.send_json({"type": "move", "seq": 1, "action": "h9g7"})
            assert until(b, "error")["error"] == "storage_unavailable"
            # a refused message is answered at once, not behind the move waiting to be saved
            r.send_text("{not json")
            assert until(r, "error")["error"] == "bad_json"
            time.sleep(1.5)                              # storage is down for 1.5 s
            fault(tmp_path, False)
            m = next_state(b)
            assert m["seq"] == 1 and m["view"]["last_move"] == "h2e2"
            time.sleep(0.2)
            b.send_json({"type": "sync"})
            m = next_state(b)
            while m["seq"] != 1 or m["clocks"][1]["deadline"] - m["now"] > bank:
                m = next_state(b)
            # black has not moved yet: at a lobby table its first move has first_move_ms (its
            # bank stands), and the fault is not charged against that either
            assert m["clocks"][1].get("first_move") and m["clocks"][1]["bank"] == bank
            grace = c.app.state.settings.first_move_ms
            charged = grace - (m["clocks"][1]["deadline"] - m["now"])
            assert charged < 1000, charged               # the 1.5 s fault is not charged
            # the game ends while storage fails: the end and its record are kept
            fault(tmp_path, True)
            b.send_json({"type": "resign"})
            time.sleep(0.5)                              # not acknowledged while it cannot be saved
            fault(tmp_path, False)
            m = next_state(b)
            while not m.get("record"):
                m = next_state(b)
    with faulty(tmp_path) as c:                         # restarted: finished, with its record
        got = c.get(f"/api/tables/{t['id']}").json()    # loaded as stored, not live again
        assert got["status"] == "finished" and got["record"] == m["record"]
        rec = c.get(f"/api/records/{m['record']}").json()["record"]
        assert rec["actions"] == ["h2e2"] and rec["result"]["reason"] == "resign"
        kinds = [e["type"] for e in rec["meta"]["events"]]
        assert "pause" in kinds and "resume" in kinds
    with faulty(tmp_path).app.state.db() as s:
        assert s.scalar(select(TableRow.status)) == "finished"
        assert len(s.scalars(select(RecordRow)).all()) == 1


@contextmanager
def lost_answers(tmp_path):
    """A xiangqi game begun on a faulty server, both players' sockets at the table, and the
    commits' answers lost from now on (the fault hook's ``lost``): the table, red's socket,
    black's, and the server's hub (its store says when it is up again)."""
    with faulty(tmp_path) as c:
        red, black, t = seated_xiangqi(c)
        with ws(c, red, t["id"]) as r, ws(c, black, t["id"]) as b:
            next_state(r)
            next_state(b)
            fault(tmp_path, True, "lost")
            yield t, r, b, c.app.state.hub


def test_a_move_whose_commit_went_through_unanswered_is_kept_once_and_the_game_goes_on(tmp_path):
    """The commit of a move goes through but its answer is lost (the fault hook's ``lost``: a
    disk I/O error reported after COMMIT): storage is down, the game pauses, the batch is
    retried and finds its row stored already. That used to be taken for a refused row (a
    duplicate key) and the game was stopped (aborted, storage_refused); now the stored row
    counts as written: the game goes on, with each move stored once."""
    with lost_answers(tmp_path) as (t, r, b, _):
        r.send_json({"type": "move", "seq": 0, "action": "h2e2"})
        assert until(r, "paused")["reason"] == "storage_unavailable"
        deadline = time.monotonic() + 30
        while "h2e2" not in stored_moves(tmp_path, t["id"]):    # committed, the server not told
            assert time.monotonic() < deadline
            time.sleep(0.02)
        fault(tmp_path, False)
        m = next_state(b)
        assert m["seq"] == 1 and m["view"]["last_move"] == "h2e2"
        b.send_json({"type": "move", "seq": 1, "action": "h9g7"})
        m = next_state(r)
        while m["seq"] != 2:
            m = next_state(r)
        assert m["view"]["last_move"] == "h9g7"
    assert [a for a in stored_moves(tmp_path, t["id"]) if a] == ["h2e2", "h9g7"]
    with faulty(tmp_path).app.state.db() as s:
        assert s.get(TableRow, t["id"]).status == "playing"


def test_a_chat_line_and_a_game_end_whose_commits_went_through_unanswered_are_stored_once(tmp_path):
    """A chat line, then the game's end (its record), each committed with its answer lost (the
    fault hook's ``lost``): the store writes each batch again, and again while the answers are
    lost, running its calls again. The record was stored once per try (a finished game with
    several records), the line too; now each is found stored and written once."""
    with lost_answers(tmp_path) as (t, r, b, hub):
        r.send_json({"type": "chat", "text": "good luck"})
        until_stored(tmp_path, "SELECT COUNT(*) FROM chat")
        fault(tmp_path, False)
        # storage is back: the line is shown, and the game the fault paused goes on (its resume
        # row is saved, then said), in either order
        line = resumed = None
        while line is None or resumed is None:
            m = receive(b)
            if m["type"] == "chat":
                line = m["line"]["text"]
            elif m["type"] == "event" and m["event"]["type"] == "resume":
                resumed = m["event"]
        assert line == "good luck"
        # and nothing of the recovery is left to commit: answers lost again from then on would
        # keep the store down for good (it never hears of a commit going through), and every
        # resignation would be refused storage_unavailable before anything of the end is stored
        deadline = time.monotonic() + 30
        while not hub.store.settled():
            assert time.monotonic() < deadline
            time.sleep(0.02)
        fault(tmp_path, True, "lost")
        b.send_json({"type": "resign"})
        deadline = time.monotonic() + 30
        until_stored(tmp_path, "SELECT COUNT(*) FROM records")     # committed, the server not told
        while not hub.store.down:               # the answer was lost: it does not know it yet
            assert time.monotonic() < deadline
            time.sleep(0.02)
        fault(tmp_path, False)
        m = next_state(b)
        while not m.get("record"):
            m = next_state(b)
        assert m["result"]["reason"] == "resign"
    with sqlite3.connect(tmp_path / "qipai.db") as con:
        assert con.execute("SELECT id, table_id FROM records").fetchall() == [(m["record"], t["id"])]
        assert con.execute("SELECT status, record_id FROM tables").fetchall() == [("finished", m["record"])]
        assert con.execute("SELECT text FROM chat").fetchall() == [("good luck",)]
        # the resignation's row once, though its batch was written again at every try
        assert con.execute("SELECT COUNT(*) FROM actions WHERE kind = 'resign'").fetchone() == (1,)


def stored_count(tmp_path, count: str) -> int:
    """The query ``count`` run on another connection (what is committed, the server not told)."""
    with sqlite3.connect(tmp_path / "qipai.db") as con:
        return con.execute(count).fetchone()[0]


def until_stored(tmp_path, count: str) -> None:
    """Wait until the query ``count`` (another connection) counts a row: committed, the server
    not told."""
    deadline = time.monotonic() + 30
    while True:
        with sqlite3.connect(tmp_path / "qipai.db") as con:
            if con.execute(count).fetchone()[0]:
                return
        assert time.monotonic() < deadline
        time.sleep(0.02)


def stored_moves(tmp_path, table_id: str) -> list[str | None]:
    """The ``action`` of each stored row of the table's log, in order (another connection)."""
    with sqlite3.connect(tmp_path / "qipai.db") as con:
        return [a for (a,) in con.execute("SELECT action FROM actions WHERE table_id = ? AND kind = 'move' "
                                          "ORDER BY idx", (table_id,))]


def test_a_game_started_while_storage_fails_is_not_lost(tmp_path):
    with faulty(tmp_path) as c:
        alice, bob = signup(c, "alice"), signup(c, "bob")
        t = post(c, alice, "/api/tables", {"game": "xiangqi", "settings": {"clock": "board_default"}}).json()
        fault(tmp_path, True)
        r = post(c, bob, f"/api/tables/{t['id']}/sit")
        assert r.status_code == 503 and r.json()["error"] == "storage_unavailable", r.text
        assert "not confirmed" in r.json()["message"]
        with ws(c, bob, t["id"]) as b:
            assert until(b, "paused")["reason"] == "storage_unavailable"
            fault(tmp_path, False)
            m = next_state(b)
            assert m["status"] == "playing" and m["seq"] == 0
    with faulty(tmp_path) as c:                         # restarted: the game is there
        table = c.get(f"/api/tables/{t['id']}").json()
        assert table["status"] == "playing"
        assert [s["name"] for s in table["seats"]] == ["alice", "bob"]


async def locked_database_scenario(tmp_path) -> None:
    port = free_port()
    server = start(tmp_path, port)
    try:
        await asyncio.to_thread(wait_up, port)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            cookies, tables = [], []
            for name in ("alice", "bob"):
                r = await http.post("/api/signup", json={"username": name, "password": "correct horse"})
                cookie = {"Cookie": f"qipai_session={r.cookies['qipai_session']}"}
                http.cookies.clear()
                r = await http.post("/api/tables", headers=cookie, json={
                    "game": "xiangqi", "bots": 1, "settings": {"clock": "board_default", "bot_delay_ms": 0}})
                cookies.append(cookie)
                tables.append(r.json()["id"])
            uri = f"ws://127.0.0.1:{port}/ws/tables/"
            async with websockets.connect(uri + tables[0], additional_headers=cookies[0]) as a, \
                    websockets.connect(uri + tables[1], additional_headers=cookies[1]) as b:
                await until_async(a, "state")
                await until_async(b, "state")
                lock = sqlite3.connect(tmp_path / "qipai.db", isolation_level=None)
                lock.execute("BEGIN IMMEDIATE")            # another program holds the write lock
                locked_at = time.monotonic()
                signing = asyncio.ensure_future(http.post("/api/signup", json={
                    "username": "carol", "password": "correct horse"}))
                await a.send(json.dumps({"type": "move", "seq": 0, "action": "h2e2"}))
                rtts = []
                while time.monotonic() - locked_at < 2.5:  # the other table answers at once
                    sent = time.monotonic()
                    await b.send(json.dumps({"type": "ping"}))
                    await until_async(b, "pong")
                    rtts.append(time.monotonic() - sent)
                    await asyncio.sleep(0.1)               # within the per-account message rate
                    r = await http.get("/api/tables")     # and so does the lobby
                    assert r.status_code == 200
                # the mover was told of the pause, not of a move that could not be saved
                assert (await until_async(a, "paused", avoid="state"))["reason"] == "storage_unavailable"
                r = await signing                          # a request that must write: 503
                assert r.status_code == 503 and r.json()["error"] == "storage_unavailable", r.text
                lock.execute("ROLLBACK")
                lock.close()
                m = await until_async(a, "state")          # saved, then acknowledged
                assert m["seq"] == 1 and m["view"]["last_move"] == "h2e2"
        rtts.sort()
        # a write on the event loop would freeze it for SQLite's busy timeout (1 s) at each try:
        # the bounds leave a CPU-starved machine its scheduling delays and still catch that
        assert rtts[len(rtts) // 2] < 0.1 and rtts[-1] < 0.5, rtts
        assert len(rtts) >= 10
    finally:
        server.terminate()
        server.communicate(timeout=30)


async def until_async(sock, kind: str, avoid: str | None = None) -> dict:
    """The next message of type ``kind`` (a commitment is answered with a nonce on the way: the
    deal waits for it); fails after 20 s instead of hanging."""
    while True:
        msg = json.loads(await asyncio.wait_for(sock.recv(), 20))
        assert msg["type"] != avoid, msg
        await answer_commitment(sock, msg)
        if msg["type"] == kind:
            return msg


def test_a_locked_database_freezes_no_table(tmp_path):
    """Another program holds SQLite's write lock for 2.5 s: another table's pings and the lobby
    answer within milliseconds, a request that must write answers 503, the move made meanwhile
    is acknowledged only once it is saved, after the lock is gone."""
    asyncio.run(locked_database_scenario(tmp_path))


def test_a_game_whose_record_the_database_refuses_still_ends(tmp_path, monkeypatch):
    """A finished game's record that the database refuses (a bug; the store leaves the refused
    write out) crashed the table's task (``entry.result`` None): the table stayed live and
    nobody was told the game had ended. The fault is reported, the game ends for everyone, and
    the server goes on saving."""
    from qipai.server import hub as hub_module

    def refused(s, values, table, plan=None):
        raise ValueError("the database refuses this record")

    monkeypatch.setattr(hub_module, "write_record", refused)
    with client(tmp_path) as c:
        hub = c.app.state.hub
        ended: list = []
        hub.on_finish.append(lambda t, row: ended.append((t.id, row.id)))
        red, black = signup(c, "red"), signup(c, "black")
        t = post(c, red, "/api/tables", {"game": "xiangqi", "settings": {"clock": "none"}}).json()
        post(c, black, f"/api/tables/{t['id']}/sit")
        with ws(c, red, t["id"]) as r:
            next_state(r)
            r.send_json({"type": "resign"})
            m = next_state(r)
            while not m["result"]:
                m = next_state(r)
            deadline = time.monotonic() + 20            # the table's task finishes the game
            while not ended and time.monotonic() < deadline:
                time.sleep(0.02)
        assert ended == [(t["id"], None)] and t["id"] not in hub.tables
        assert hub.store.dropped == 1 and not hub.store.down
        assert c.get(f"/api/tables/{t['id']}").json()["status"] == "finished"
        assert post(c, red, "/api/tables", {"game": "go"}).status_code == 201


def test_a_move_the_database_refuses_stops_the_game_and_is_never_acknowledged(tmp_path):
    """The database refuses a move's row of the action log (a real IntegrityError: its index is
    taken). It used to be left out while its acknowledgement went out: the players were told of
    a move the log lacks, the next rows were written after a gap, and after a restart the next
    move's index clashed again. Now nobody is told of the move: the game stops at once without a
    result (status ``aborted``, reason ``storage_refused``; 4410 with that reason), the stored
    log has no gap, and a restart does not resume the table."""
    from sqlalchemy import insert
    from starlette.websockets import WebSocketDisconnect

    from qipai.server.models import ActionRow

    with client(tmp_path) as c:
        hub = c.app.state.hub
        red, black = signup(c, "red"), signup(c, "black")
        t = post(c, red, "/api/tables", {"game": "xiangqi", "settings": {"clock": "none"}}).json()
        post(c, black, f"/api/tables/{t['id']}/sit")
        with ws(c, red, t["id"]) as r, ws(c, black, t["id"]) as b:
            next_state(r)
            next_state(b)
            table = hub.tables[t["id"]]
            taken = table.next_idx
            with hub.store.db.begin() as s:          # another writer took the next index
                s.execute(insert(ActionRow).values(table_id=t["id"], idx=taken, kind="note", seat=None,
                                                   action="x", t=0, data=None, epoch=table.gate.epoch))
            r.send_json({"type": "move", "seq": 0, "action": "h2e2"})
            for sock in (r, b):
                seen = []
                with pytest.raises(WebSocketDisconnect) as e:
                    for _ in range(100):
                        seen.append(receive(sock))
                assert (e.value.code, e.value.reason) == (4410, "storage_refused")
                assert seen[-1] == {"type": "event",
                                    "event": {"type": "aborted", "reason": "storage_refused"}}
                assert not [m for m in seen if m["type"] == "state" and m["seq"] > 0], seen
        assert hub.store.dropped == 1 and not hub.store.down and t["id"] not in hub.tables
        shown = c.get(f"/api/tables/{t['id']}").json()         # as saved: without the refused move
        assert shown["status"] == "aborted" and shown["plies"] == 0, shown
        assert post(c, red, "/api/tables", {"game": "go"}).status_code == 201     # the store goes on
        with hub.store.db() as s:
            idxs = s.scalars(select(ActionRow.idx).where(ActionRow.table_id == t["id"])
                             .order_by(ActionRow.idx)).all()
        assert idxs == list(range(taken + 1))                                   # no gap, nothing after
    with client(tmp_path) as c:                                                 # a restart resumes nothing
        assert t["id"] not in c.app.state.hub.tables
        assert c.get(f"/api/tables/{t['id']}").json()["status"] == "aborted"


def test_the_storage_stall_comes_from_the_environment_in_seconds(monkeypatch):
    """``Settings.storage_stall``: 2 s, or ``$QIPAI_STORAGE_STALL_SECONDS`` (the tests give the
    servers they start 15 s: tests/conftest.py); a value that is no positive number is refused."""
    from qipai.server.config import Settings

    monkeypatch.delenv("QIPAI_STORAGE_STALL_SECONDS", raising=False)
    assert Settings().storage_stall == 2.0
    monkeypatch.setenv("QIPAI_STORAGE_STALL_SECONDS", "15")
    assert Settings().storage_stall == 15.0
    assert Settings(storage_stall=0.5).storage_stall == 0.5
    for bad in ("0", "-1", "soon"):
        monkeypatch.setenv("QIPAI_STORAGE_STALL_SECONDS", bad)
        with pytest.raises(ValueError, match="QIPAI_STORAGE_STALL_SECONDS"):
            Settings()
