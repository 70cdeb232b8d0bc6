"""The parts of a cluster's table ownership on the machine's real Redis and PostgreSQL: leases
(take, renew by compare-and-set, lose, give up) and the fencing token (a write of an older
lease epoch refused by the group commit's check and by PostgreSQL's trigger itself)."""

from __future__ import annotations

import asyncio
import json
import secrets

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from qipai.competition.db import open_db
from qipai.server.leases import Keeper, Leases
from qipai.server.store import Fenced, NewTable, write_ops

from .cluster_helpers import REDIS


def test_a_lease_is_held_renewed_lost_and_given_up():
    import redis.asyncio as aioredis

    async def scenario() -> None:
        r = aioredis.from_url(REDIS, decode_responses=True)
        name = "qipai-test-" + secrets.token_hex(4)
        a, b = Leases(r, "a", 300, name), Leases(r, "b", 300, name)
        tid = secrets.token_hex(4)
        try:
            assert await a.acquire(tid) and not await b.acquire(tid)
            assert await a.owners([tid, "nothing"]) == ["a", None]
            await asyncio.sleep(0.2)
            assert await a.renew([tid]) == set()            # renewed: still held after 0.4 s
            await asyncio.sleep(0.2)
            assert not await b.acquire(tid)
            await asyncio.sleep(0.4)                        # a stops renewing: the lease expires
            assert await b.acquire(tid)
            assert await a.renew([tid]) == {tid}            # a finds it lost, b keeps it
            assert await a.owners([tid]) == ["b"]
            await a.release([tid])                          # a cannot give up b's lease
            assert await a.owners([tid]) == ["b"]
            await b.release([tid])
            assert await a.owners([tid]) == [None]
            await a.register("127.0.0.1:1234", 42)
            assert await b.address("a") == "127.0.0.1:1234" and await b.address("c") is None
            assert await a.shared_secret() == await b.shared_secret()
        finally:
            keys = [k async for k in r.scan_iter(match=name + ":*")]
            if keys:
                await r.delete(*keys)
            await r.aclose()

    asyncio.run(scenario())


def _table(tid: str) -> dict:
    return {"id": tid, "game": "xiangqi", "options": {}, "num_seats": 2, "seats": [None, None],
            "settings": {}, "status": "playing", "owner_id": None, "event_id": None, "event_game": None,
            "created": "2026-12-04T00:00:00Z"}


def _row(tid: str, idx: int, epoch: int) -> dict:
    return {"table_id": tid, "idx": idx, "kind": "move", "seat": 0, "action": "h2e2", "t": 0,
            "data": None, "epoch": epoch}


def test_writes_of_an_older_lease_epoch_are_refused(pg_database):
    db = open_db(pg_database)
    try:
        write_ops(db, [NewTable(_table("t1")), NewTable(_table("t2")), _row("t1", 0, 0)], {"t1": 0})
        with db.begin() as s:                   # another worker takes t1 over
            s.execute(text("UPDATE tables SET lease_epoch = lease_epoch + 1 WHERE id = 't1'"))
        # the old owner's commit: refused as a whole, naming t1 (t2's rows then go alone)
        with pytest.raises(Fenced) as e:
            write_ops(db, [_row("t1", 1, 0), _row("t2", 0, 0)], {"t1": 0, "t2": 0})
        assert e.value.tables == {"t1"}
        write_ops(db, [_row("t2", 0, 0)], {"t2": 0})
        write_ops(db, [_row("t1", 1, 1)], {"t1": 1})            # the new owner writes
        # without the check, PostgreSQL's trigger refuses the stale row itself
        with pytest.raises(Fenced) as e:
            write_ops(db, [_row("t1", 2, 0)])
        assert e.value.tables == {"t1"}
        with pytest.raises(DBAPIError, match="qipai fenced"), db.begin() as s:
            s.execute(text("INSERT INTO actions (table_id, idx, kind, t, epoch) "
                           "VALUES ('t1', 9, 'move', 0, NULL)"))
        with db() as s:
            got = s.execute(text("SELECT table_id, idx, epoch FROM actions ORDER BY table_id, idx")).all()
        assert [tuple(x) for x in got] == [("t1", 0, 0), ("t1", 1, 1), ("t2", 0, 0)]
    finally:
        db.kw["bind"].dispose()


def test_sign_in_limits_are_counted_once_for_every_worker():
    """Two workers' limiters on one Redis share the bucket: 3 tries at once, then a wait."""
    import redis.asyncio as aioredis

    from qipai.server.ratelimit import RateLimit, SharedRateLimit

    async def scenario() -> None:
        r = aioredis.from_url(REDIS, decode_responses=True)
        prefix = f"qipai-test-{secrets.token_hex(4)}:limit:"
        try:
            a = SharedRateLimit(RateLimit(0.5, 3), r, prefix)
            b = SharedRateLimit(RateLimit(0.5, 3), r, prefix)
            waits = [await a.hit("alice"), await b.hit("alice"), await a.hit("alice"), await b.hit("alice")]
            assert waits[:3] == [0.0, 0.0, 0.0] and 1.5 < waits[3] <= 2.0, waits
            assert await b.hit("bob") == 0.0              # another key, its own bucket
        finally:
            keys = [k async for k in r.scan_iter(match=prefix + "*")]
            if keys:
                await r.delete(*keys)
            await r.aclose()

    asyncio.run(scenario())


def test_lease_and_stall_times_come_from_the_environment_in_seconds(monkeypatch):
    from qipai.server.config import Settings

    monkeypatch.setenv("QIPAI_LEASE_SECONDS", "1.5")
    monkeypatch.setenv("QIPAI_STALL_SECONDS", "12")
    s = Settings()
    assert (s.lease_ms, s.stall_ms) == (1500, 12_000)
    monkeypatch.delenv("QIPAI_STALL_SECONDS")
    assert Settings().stall_ms == 30_000
    for bad in ("0", "-2", "soon"):
        monkeypatch.setenv("QIPAI_LEASE_SECONDS", bad)
        with pytest.raises(ValueError, match="QIPAI_LEASE_SECONDS"):
            Settings()


def test_the_lease_keeper_renews_gives_up_and_finds_lost():
    """The keeper thread's round (one pipelined round trip) on the real Redis: it renews the
    leases it serves (taking back one that lapsed with nobody taking it), gives up those it no
    longer serves, finds those another worker holds, and publishes the worker's address."""
    import redis

    name = "qipai-test-" + secrets.token_hex(4)
    r = redis.Redis.from_url(REDIS, decode_responses=True)
    k = Keeper(REDIS, "a", 60_000, name, stall_ms=60_000)
    k.address = "127.0.0.1:4321"
    lease = f"{name}:lease:"
    try:
        r.set(lease + "kept", "a", px=1000)
        r.set(lease + "taken", "b", px=60_000)
        k.serve(["kept", "lapsed", "taken", "dropped"])
        k.round()
        assert r.pttl(lease + "kept") > 50_000 and r.get(lease + "lapsed") == "a"
        assert r.get(lease + "taken") == "b" and k.take_lost() == {"taken"}
        assert k.held() == {"kept", "lapsed", "dropped"}
        assert json.loads(r.get(f"{name}:worker:a"))["address"] == "127.0.0.1:4321"
        k.serve(["kept", "lapsed"])                 # "dropped" is given up at the next round
        k.round()
        assert r.get(lease + "dropped") is None and r.get(lease + "kept") == "a"
        assert k.held() == {"kept", "lapsed"} and k.take_lost() == set()
    finally:
        k.redis.close()
        keys = list(r.scan_iter(match=name + ":*"))
        if keys:
            r.delete(*keys)
        r.close()

