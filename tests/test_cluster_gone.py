"""A killed worker's tables and lobby move at once, not when its leases lapse (docs/deploy.md,
"Failover"): two real workers on the machine's PostgreSQL and Redis with leases of 60 s; the
worker serving a game and the lobby home is killed with SIGKILL; a socket for the game and a
lobby request reaching the other worker find the dead worker's internal port closed, free its
leases and take its tables over there and then — well within one lease — and the game goes on
with every move."""

from __future__ import annotations

import asyncio
import json
import signal
import time

import httpx
import pytest
import websockets

from .cluster_helpers import lease_owner, running_cluster, state_at, worker_id, xiangqi_table

pytestmark = pytest.mark.timeout(120)

LEASE_S = 60


def test_a_killed_workers_tables_move_before_its_leases_lapse(pg_template, tmp_path):
    with running_cluster(pg_template, tmp_path, 2, ("--lease-seconds", str(LEASE_S))) as (_, name, (w1, w2)):
        asyncio.run(_scenario(name, w1, w2))


async def _scenario(name, w1, w2) -> None:
    tid, red, black = await xiangqi_table(w1, w2, "red", "black")
    async with httpx.AsyncClient(timeout=30) as http:
        assert (await http.get(w1.base + "/api/presence")).status_code == 200     # w1: the home
    assert lease_owner(name, tid) == lease_owner(name, "@lobby") == worker_id(name, w1)
    async with websockets.connect(f"{w1.ws}/ws/tables/{tid}", additional_headers=red) as a:
        await state_at(a, 0)
        await a.send(json.dumps({"type": "move", "seq": 0, "action": "h2e2"}))
        await state_at(a, 1)
    w1.proc.send_signal(signal.SIGKILL)
    w1.proc.wait()
    killed = time.monotonic()
    async with websockets.connect(f"{w2.ws}/ws/tables/{tid}", additional_headers=black,
                                  open_timeout=LEASE_S / 2) as b:
        m = await state_at(b, 1, timeout=LEASE_S / 2)
        assert m["view"]["last_move"] == "h2e2" and m["to_act"] == [1]
        await b.send(json.dumps({"type": "move", "seq": 1, "action": "h9g7"}))
        assert (await state_at(b, 2))["view"]["last_move"] == "h9g7"
    assert time.monotonic() - killed < LEASE_S / 2
    assert lease_owner(name, tid) == worker_id(name, w2)
    async with httpx.AsyncClient(timeout=LEASE_S / 2) as http:
        assert (await http.get(w2.base + "/api/presence")).status_code == 200
    assert lease_owner(name, "@lobby") == worker_id(name, w2)
