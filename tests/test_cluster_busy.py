"""A worker whose event loop is busy (blocked on purpose, as a long wait or a long computation
would) on the machine's PostgreSQL and Redis (docs/deploy.md, "Busy workers"): busy for three
lease times — asleep, then computing in Python (the lease keeper thread contending for the
interpreter lock) — it keeps its table: the keeper renews it, no take-over, the epoch unchanged,
the game goes on on the same sockets; busy past ``--stall-seconds`` it lets the lease lapse:
another worker takes the table over (a newer epoch) and the busy one, once it runs again,
closes its sockets with 1012 ``moved``."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time

import pytest
import websockets

from .cluster_helpers import epoch_of, lease_owner, running_cluster, state_at, xiangqi_table

pytestmark = pytest.mark.timeout(300)

# seconds: a lapse needs a whole lease of starvation, which a loaded machine gave 1 s leases
LEASE, STALL = 2.0, 8.0


@pytest.fixture(scope="module")
def cluster(pg_template, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("busy")
    block = tmp / "block-seconds"
    block.write_text("0")
    args = ("--lease-seconds", str(LEASE), "--stall-seconds", str(STALL))
    with running_cluster(pg_template, tmp, 2, args, {"QIPAI_TEST_BLOCK_FILE": str(block)}) as (url, name, ws):
        yield url, name, block, ws


def test_a_busy_worker_keeps_its_tables_until_it_stalls(cluster):
    asyncio.run(_busy(*cluster))


async def _busy(url, name, block, workers) -> None:
    w1, w2 = workers
    tid, red, black = await xiangqi_table(w1, w2, "red", "black")
    owner, epoch = lease_owner(name, tid), epoch_of(url, tid)
    assert owner is not None
    async with websockets.connect(f"{w1.ws}/ws/tables/{tid}", additional_headers=red) as a, \
            websockets.connect(f"{w2.ws}/ws/tables/{tid}", additional_headers=black) as b:
        await state_at(a, 0)
        await state_at(b, 0)
        await a.send(json.dumps({"type": "move", "seq": 0, "action": "h2e2"}))
        await state_at(b, 1)
        # busy for three lease times (less than the stall limit), asleep then computing: the
        # lease stays the owner's, and the game goes on on the same sockets
        for how, seq, (sock, move) in (("", 1, (b, "h9g7")), (" cpu", 2, (a, "b0c2"))):
            block.write_text(f"{3 * LEASE}{how}")
            os.kill(w1.proc.pid, signal.SIGUSR1)
            end = time.monotonic() + 3 * LEASE
            while time.monotonic() < end:
                assert lease_owner(name, tid) == owner, how
                await asyncio.sleep(0.1)
            await asyncio.sleep(LEASE)          # the loop runs again: nothing was taken over
            assert lease_owner(name, tid) == owner and epoch_of(url, tid) == epoch, how
            await sock.send(json.dumps({"type": "move", "seq": seq, "action": move}))
            assert (await state_at(a, seq + 1))["view"]["last_move"] == move
        # starved of the interpreter lock, the keeper too, for longer than a lease (a machine too
        # loaded to give the keeper the lock in time): the lease lapses a moment, but no other
        # worker takes the table in that moment (a table must be free a whole lease time to be
        # taken by a scan); the keeper takes the lease back and the game goes on
        block.write_text(f"{1.2 * LEASE} gil")
        os.kill(w1.proc.pid, signal.SIGUSR1)
        end = time.monotonic() + 3.4 * LEASE
        while time.monotonic() < end:
            assert lease_owner(name, tid) in (owner, None), "another worker took the table"
            await asyncio.sleep(0.05)
        assert lease_owner(name, tid) == owner and epoch_of(url, tid) == epoch
        await b.send(json.dumps({"type": "move", "seq": 3, "action": "b7e7"}))
        assert (await state_at(a, 4))["view"]["last_move"] == "b7e7"
        # busy past the stall limit: the lease lapses and the other worker takes the table
        block.write_text(str(STALL + 4 * LEASE))
        os.kill(w1.proc.pid, signal.SIGUSR1)
        end = time.monotonic() + STALL + 4 * LEASE
        while lease_owner(name, tid) in (owner, None):
            assert time.monotonic() < end, "the stalled worker's table was not taken over"
            await asyncio.sleep(0.1)
        # the new owner takes the lease, then writes the table's new epoch in its take-over (a
        # write behind the other tests' on a loaded machine: given 30 lease times)
        end = time.monotonic() + 30 * LEASE
        # (the epoch read once a round: read again in the assertion, a take-over written between
        # the two reads failed a run that had done right)
        while (now := epoch_of(url, tid)) != epoch + 1:
            assert time.monotonic() < end and now == epoch, ("no take-over written", now)
            await asyncio.sleep(0.1)
        block.write_text("0")       # taken over: the busy worker runs again now, not 16 s on
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(a.recv(), 30)
        assert closed.value.rcvd.code == 1012
    async with websockets.connect(f"{w1.ws}/ws/tables/{tid}", additional_headers=red) as a:
        m = await state_at(a, 4)
        assert m["seq"] == 4 and m["view"]["last_move"] == "b7e7"
