"""Three real ``qipai serve`` workers on the machine's PostgreSQL and Redis (docs/deploy.md): a
game whose two players are connected to different workers; a worker killed mid-game, whose game
goes on at another worker with every acknowledged move and the clock of the seat on turn given
back (competition.md §4.7); then, on the two left, a worker frozen (SIGSTOP) until its lease has
expired and its table been taken over, which once resumed applies nothing to that table."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time

import httpx
import pytest
import websockets
from sqlalchemy import create_engine, text

from .cluster_helpers import (
    cluster_name,
    forget_cluster,
    signup,
    start_workers,
    state_at,
    until,
    xiangqi_table,
)
from .e2e.timing import until as within
from .pg import drop, skip_postgres, sqlalchemy_url

pytestmark = pytest.mark.timeout(120)


def log_of(url: str, table: str) -> list[tuple]:
    engine = create_engine(url)
    try:
        with engine.connect() as c:
            return [tuple(r) for r in c.execute(text(
                "SELECT kind, seat, action, epoch FROM actions WHERE table_id = :t ORDER BY idx"),
                {"t": table})]
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def cluster(pg_template, tmp_path_factory):
    """A database of its own and three workers on it: ``(database URL, [workers])``."""
    if skip_postgres():
        pytest.skip("QIPAI_NO_POSTGRES=1: PostgreSQL tests left out")
    name = pg_template.new_database()
    url = sqlalchemy_url(name)
    cluster = cluster_name()
    workers = start_workers(tmp_path_factory.mktemp("cluster"), url, 3, cluster)
    try:
        yield url, workers
    finally:
        for w in workers:
            w.stop()
        drop(name)
        forget_cluster(cluster)


def test_players_on_two_workers_play_and_a_killed_owner_moves_the_game(cluster):
    url, (w1, w2, w3) = cluster
    asyncio.run(_scenario(url, w1, w2, w3))


async def _scenario(url, w1, w2, w3) -> None:
    red, black = await signup(w1.base, "red"), await signup(w2.base, "black")
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.post(w1.base + "/api/tables", headers=red,
                            json={"game": "xiangqi", "settings": {"clock": "board_default"}})
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        # black sits through the second worker: the request is relayed to the table's owner
        r = await http.post(f"{w2.base}/api/tables/{tid}/sit", headers=black)
        assert r.status_code == 200 and r.json()["seats"][1]["name"] == "black", r.text
        # every worker's lobby lists it
        for w in (w2, w3):
            for _ in within(30):
                listed = {t["id"] for t in (await http.get(w.base + "/api/tables")).json()}
                if tid in listed:
                    break
                await asyncio.sleep(0.1)
            assert tid in listed
    moves = ["h2e2", "h9g7", "h0g2", "i9h9"]
    seen_red: list = []
    seen_black: list = []
    async with websockets.connect(f"{w1.ws}/ws/tables/{tid}", additional_headers=red) as a, \
            websockets.connect(f"{w2.ws}/ws/tables/{tid}", additional_headers=black) as b:
        await state_at(a, 0, seen=seen_red)
        await state_at(b, 0, seen=seen_black)
        for i, mv in enumerate(moves[:3]):
            sock = a if i % 2 == 0 else b
            await sock.send(json.dumps({"type": "move", "seq": i, "action": mv}))
            ma = await state_at(a, i + 1, seen=seen_red)
            mb = await state_at(b, i + 1, seen=seen_black)
            assert ma["view"]["last_move"] == mb["view"]["last_move"] == mv
        # each seat saw every position once, in order (the relayed one too)
        for seen in (seen_red, seen_black):
            seqs = [m["seq"] for m in seen if m["type"] == "state"]
            assert sorted(set(seqs)) == [0, 1, 2, 3] and seqs == sorted(seqs), seqs
        bank = mb["clocks"][1]["bank"]           # black is on turn, with this bank
        # the owner is killed with black thinking: the relayed socket is told to reconnect
        os.kill(w1.proc.pid, signal.SIGKILL)
        killed = time.monotonic()
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(a.recv(), 10)
        closed = None
        try:
            while True:
                await asyncio.wait_for(b.recv(), 10)
        except websockets.ConnectionClosed as e:
            closed = e
        assert closed.rcvd is not None and closed.rcvd.code == 1012, closed
    # the game goes on at another worker, rebuilt from the log: a socket opened meanwhile waits
    # until the table has been taken over
    async with websockets.connect(f"{w2.ws}/ws/tables/{tid}", additional_headers=black) as b, \
            websockets.connect(f"{w3.ws}/ws/tables/{tid}", additional_headers=red) as a:
        m = await state_at(b, 3, timeout=20)
        moved_in = time.monotonic() - killed
        assert m["seq"] == 3 and m["view"]["last_move"] == "h0g2" and m["to_act"] == [1]
        assert m["clocks"][1]["bank"] == bank, (m["clocks"], bank)   # §4.7: the turn starts again
        await state_at(a, 3)
        await b.send(json.dumps({"type": "move", "seq": 3, "action": "i9h9"}))
        assert (await state_at(a, 4))["view"]["last_move"] == "i9h9"
        await a.send(json.dumps({"type": "resign"}))
        m = await state_at(b, 4)
        while not m.get("record"):
            m = await until(b, "state")
    assert moved_in < 10, moved_in
    async with httpx.AsyncClient(timeout=30) as http:
        rec = (await http.get(f"{w3.base}/api/records/{m['record']}")).json()["record"]
        for w in (w2, w3):          # the finished table is still answered, whichever worker asked
            r = await http.get(f"{w.base}/api/tables/{tid}")
            assert r.status_code == 200 and r.json()["status"] == "finished", r.text
    assert rec["actions"] == moves and rec["result"]["reason"] == "resign"
    log = log_of(url, tid)
    assert [x[2] for x in log if x[0] == "move"] == moves
    epochs = [x[3] for x in log]
    assert epochs == sorted(epochs) and epochs[-1] > epochs[0], log   # written under a newer lease
    assert any(x[0] == "restart" for x in log)


def test_a_frozen_owner_resumed_applies_nothing_to_the_table_it_lost(cluster):
    url, (_, w2, w3) = cluster
    asyncio.run(_frozen(url, w2, w3))


async def _frozen(url, w2, w3) -> None:
    tid, red, black = await xiangqi_table(w2, w3, "red2", "black2")
    stale: list = []
    async with websockets.connect(f"{w2.ws}/ws/tables/{tid}", additional_headers=red) as a:
        async with websockets.connect(f"{w3.ws}/ws/tables/{tid}", additional_headers=black) as b:
            await state_at(a, 0)
            await state_at(b, 0)
            await a.send(json.dumps({"type": "move", "seq": 0, "action": "h2e2"}))
            await state_at(b, 1)
            await b.send(json.dumps({"type": "move", "seq": 1, "action": "h9g7"}))
            await state_at(a, 2)
            os.kill(w2.proc.pid, signal.SIGSTOP)       # the owner freezes with red on turn
            frozen = time.monotonic()
            try:
                # red's move reaches the frozen owner (its socket buffers it)
                await a.send(json.dumps({"type": "move", "seq": 2, "action": "h0g2"}))
                # black's relayed socket is closed once another worker holds the lease
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    while True:
                        await asyncio.wait_for(b.recv(), 20)
                assert closed.value.rcvd.code == 1012
                # told once the table is taken (a lease time free, then a scan and a heartbeat),
                # not after the relay's close of its bridge to the frozen owner (10 s, unanswered)
                moved_in = time.monotonic() - frozen
                assert moved_in < 10, moved_in
                # the game goes on at the new owner: red (on another socket) plays another move
                async with websockets.connect(f"{w3.ws}/ws/tables/{tid}", additional_headers=red) as a2, \
                        websockets.connect(f"{w3.ws}/ws/tables/{tid}", additional_headers=black) as b2:
                    m = await state_at(a2, 2)
                    assert m["seq"] == 2 and m["to_act"] == [0]
                    await a2.send(json.dumps({"type": "move", "seq": 2, "action": "b0c2"}))
                    await state_at(b2, 3)
                    await b2.send(json.dumps({"type": "move", "seq": 3, "action": "i9h9"}))
                    assert (await state_at(a2, 4))["view"]["last_move"] == "i9h9"
            finally:
                os.kill(w2.proc.pid, signal.SIGCONT)
            # resumed, the old owner finds the table gone: red's old socket is told to reconnect,
            # and never shown a position with the move it sent there
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    stale.append(json.loads(await asyncio.wait_for(a.recv(), 20)))
            assert closed.value.rcvd.code == 1012
    assert not [m for m in stale if m["type"] == "state"], stale
    moves = [x[2] for x in log_of(url, tid) if x[0] == "move"]
    assert moves == ["h2e2", "h9g7", "b0c2", "i9h9"], moves
    # the resumed worker still serves (the lobby of the cluster) and relays to the new owner
    async with websockets.connect(f"{w2.ws}/ws/tables/{tid}", additional_headers=red) as a:
        assert (await state_at(a, 4))["view"]["last_move"] == "i9h9"
