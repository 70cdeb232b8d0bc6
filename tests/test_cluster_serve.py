"""``qipai serve --workers 2`` on the machine's PostgreSQL and Redis: two workers share one port
(SO_REUSEPORT), a table made through it is reached by every socket opened through it (whichever
worker each lands on), a worker killed is started again by the supervisor, and the table goes
on; a signal stops them all."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import time

import httpx
import pytest
import websockets

from .cluster_helpers import REDIS, cluster_name, forget_cluster, signup, state_at
from .e2e.timing import until as within
from .server_process import QIPAI, free_port

pytestmark = pytest.mark.timeout(180)


def workers_of(pid: int) -> list[int]:
    """The live child processes of ``pid`` (Linux /proc)."""
    out: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            out += [int(c) for c in f.read().split()]
    return sorted(out)


def wait_until(check, seconds: float = 90.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = check()
        if got:
            return got
        time.sleep(0.2)
    raise AssertionError("timed out")


def answers(base: str) -> bool:
    try:
        return httpx.get(base + "/api/games", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def test_workers_share_a_port_and_a_killed_one_is_started_again(tmp_path, pg_database):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(tmp_path / "serve.log", "w")
    name = cluster_name()
    sup = subprocess.Popen([QIPAI, "serve", "--workers", "2", "--port", str(port), "--database-url",
                            pg_database, "--redis-url", REDIS], stdout=log, stderr=subprocess.STDOUT,
                           env={**os.environ, "QIPAI_CLUSTER_NAME": name})
    try:
        first = wait_until(lambda: len(workers_of(sup.pid)) == 2 and workers_of(sup.pid))
        wait_until(lambda: answers(base))
        asyncio.run(_play(base, port, sup.pid, first))
    finally:
        sup.send_signal(signal.SIGTERM)
        try:
            sup.wait(60)
        finally:
            log.close()
            forget_cluster(name)
    out = (tmp_path / "serve.log").read_text()
    assert sup.returncode == 0, out
    assert "qipai serve: 2 workers" in out and "starting it again" in out, out


async def _play(base: str, port: int, sup: int, first: list[int]) -> None:
    alice = await signup(base, "alice")
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.post(base + "/api/tables", headers=alice,
                            json={"game": "xiangqi", "bots": 1, "settings": {"clock": "none"}})
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
    url = f"ws://127.0.0.1:{port}/ws/tables/{tid}"
    # each socket lands on either worker; every one gets the table's state
    for _ in range(4):
        async with websockets.connect(url, additional_headers=alice) as s:
            assert (await state_at(s, 0))["table"] == tid
    async with websockets.connect(url, additional_headers=alice) as s:
        m = await state_at(s, 0)
        await s.send(json.dumps({"type": "move", "seq": m["seq"], "action": "h2e2"}))
        await state_at(s, 2)                       # the move and the bot's answer
    os.kill(first[0], signal.SIGKILL)
    wait_until(lambda: len(workers_of(sup)) == 2 and first[0] not in workers_of(sup))
    wait_until(lambda: answers(base))
    for _ in within(30):                           # the table is served again (moved if need be)
        try:
            async with websockets.connect(url, additional_headers=alice) as s:
                m = await state_at(s, 2)
                assert m["view"]["last_move"] is not None and m["seq"] == 2
                return
        except (websockets.ConnectionClosed, OSError):
            await asyncio.sleep(0.5)
    raise AssertionError("the table was not served again")
