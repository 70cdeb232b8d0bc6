"""The parts of a cluster's table ownership on the machine's real Redis and PostgreSQL: leases
(take, renew by compare-and-set, lose, give up) and the fencing token (a write of an older
lease epoch refused by the group commit's check and by PostgreSQL's trigger itself)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from qipai.competition.db import open_db
from qipai.server.leases import Keeper, Leases
from qipai.server.store import Fenced, NewTable, write_ops

from .cluster_helpers import REDIS


@contextlib.asynccontextmanager
async def scratch_redis():
    """A Redis client and a fresh key prefix (``qipai-test-<hex>``); the keys under it are
    deleted and the client closed at the end."""
    import redis.asyncio as aioredis

    r = aioredis.from_url(REDIS, decode_responses=True)
    name = "qipai-test-" + secrets.token_hex(4)
    try:
        yield r, name
    finally:
        keys = [k async for k in r.scan_iter(match=name + "*")]
        if keys:
            await r.delete(*keys)
        await r.aclose()


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



def test_a_socket_message_is_counted_in_both_its_buckets_in_one_round_trip():
    """The address's and the account's limits of a table socket's message: both buckets take a
    token, in one script call to Redis (was one each, one after the other, at every message);
    the answer is the longer wait. Messages counted while a round trip is under way go together
    in the next."""
    from qipai.server.ratelimit import Buckets, RateLimit, SharedRateLimit, hit_all

    async def scenario() -> None:
        async with scratch_redis() as (r, name):
            prefix = name + ":limit:"
            calls = []
            evalsha = r.evalsha

            async def counted(*args, **kw):
                calls.append(args[0])
                return await evalsha(*args, **kw)

            r.evalsha = counted
            both = Buckets(r)
            ip = SharedRateLimit(RateLimit(0.5, 3), r, prefix + "ip:", both)
            account = SharedRateLimit(RateLimit(0.5, 1), r, prefix + "account:", both)
            assert await hit_all([(ip, "10.0.0.1"), (account, "7")]) == 0.0
            assert 1.5 < await hit_all([(ip, "10.0.0.1"), (account, "7")]) <= 2.0   # the account's
            assert len(calls) == 2                                  # a round trip per message
            assert await ip.hit("10.0.0.1") == 0.0                  # the address's third token
            assert 1.5 < await ip.hit("10.0.0.1") <= 2.0            # both messages took one
            # the messages of many sockets counted at once: together, one round trip for those
            # asked while another is under way
            many = Buckets(r)
            each = [SharedRateLimit(RateLimit(0.5, 2), r, prefix + "many:", many) for _ in range(2)]
            calls.clear()
            waits = await asyncio.gather(*(hit_all([(each[i % 2], f"k{i % 5}")]) for i in range(15)))
            assert waits[:10] == [0.0] * 10 and all(1.5 < w <= 2.0 for w in waits[10:]), waits
            assert len(calls) <= 2 and many.round_trips == len(calls)

    asyncio.run(scenario())


def test_one_process_counts_a_socket_message_in_both_its_local_buckets():
    from qipai.server.app import Limiters
    from qipai.server.config import Limits, Settings

    limits = Limiters(Settings(limits=Limits(moves_ip=(1.0, 2), moves_account=(1.0, 1))))

    async def hits() -> list[float]:
        both = [("moves_ip", "10.0.0.1"), ("moves_account", "7")]
        return [await limits.hit_each(both), await limits.hit_each(both),
                await limits.hit_each([("moves_ip", "10.0.0.1")])]

    first, second, third = asyncio.run(hits())
    assert first == 0.0 and 0.9 < second <= 1.0 and third > 0.0     # the address's 2 tokens used


def test_quota_entries_are_renewed_a_share_at_each_heartbeat():
    """A heartbeat renews the entries due and, oldest first, its share of the others (8 entries
    renewed every 2 s, a heartbeat every 0.5 s: 2 at each), each then counting ``keep_ms +
    every_ms`` from the renewal; a live entry new here (taken over) is renewed at once, and
    one no longer live is removed."""
    import time

    from qipai.server.quota import TableQuota

    async def scenario() -> None:
        async with scratch_redis() as (r, name):
            now = [0.0]
            q = TableQuota(r, name, 10_000, every_ms=2000)
            q.clock = lambda: now[0]
            live = {(o, f"t{o}") for o in range(8)}
            for o in range(8):
                assert await q.reserve(o, f"t{o}", 5) is None
            await q.renew(live)                                     # the first: all of them
            assert set(q._at.values()) == {0.0}
            for beat in (0.5, 1.0, 1.5):
                now[0] = beat
                before = int(time.time() * 1000)
                await q.renew(live)
                renewed = [x for x, at in q._at.items() if at == beat]
                assert len(renewed) == 2, q._at
                for owner, tid in renewed:
                    score = await r.zscore(f"{name}:open:{owner}", tid)
                    assert before + 12_000 <= score <= int(time.time() * 1000) + 12_000
            assert [q._at[(o, f"t{o}")] for o in range(8)] == [0.5, 0.5, 1.0, 1.0, 1.5, 1.5, 0.0, 0.0]
            now[0] = 2.0                                            # t6, t7 due; t0 gone; t9 new
            await q.renew(live - {(0, "t0")} | {(9, "t9")})
            assert {x for x, at in q._at.items() if at == 2.0} >= {(6, "t6"), (7, "t7"), (9, "t9")}
            assert (0, "t0") not in q._at and await r.zscore(f"{name}:open:0", "t0") is None
            assert await r.zscore(f"{name}:open:9", "t9") is not None
            assert await q.count(3) == 1                            # not renewed since: counts

    asyncio.run(scenario())


def test_a_table_counted_before_it_is_live_is_not_taken_for_one_that_ended():
    """A table is counted (reserve) before it is made live (its lease, its row): a heartbeat in
    between keeps its entry; one never made live within ``keep_ms`` is dropped; a release while
    a heartbeat's round trip is on the way does not break that heartbeat."""
    from qipai.server.quota import TableQuota

    async def scenario() -> None:
        async with scratch_redis() as (r, name):
            now = [0.0]
            q = TableQuota(r, name, 10_000, every_ms=2000)
            q.clock = lambda: now[0]
            assert await q.reserve(1, "new", 5) is None
            await q.renew(set())                                   # not live yet: still counted
            assert await q.count(1) == 1
            now[0] = 5.0
            await q.renew({(1, "new")})                            # live now: renewed
            now[0] = 6.0
            await q.renew(set())                                   # ended: removed
            assert await q.count(1) == 0
            assert await q.reserve(2, "abandoned", 5) is None
            now[0] = 16.5                                          # never made live in keep_ms
            await q.renew(set())
            assert await q.count(2) == 0 and (2, "abandoned") not in q._at
            assert await q.reserve(3, "short", 5) is None
            await q.renew({(3, "short")})
            now[0] = 17.0
            beat = asyncio.ensure_future(q.renew(set()))          # "short" ended ...
            await asyncio.sleep(0)
            await q.release(3, "short")                           # ... and is released meanwhile
            await beat
            assert await q.count(3) == 0 and not q._at

    asyncio.run(scenario())


def test_a_commit_checks_first_only_the_epochs_of_tables_with_more_than_action_rows():
    """On PostgreSQL an action row is fenced by the trigger as it is inserted (above): the group
    commit's own check (a statement and a row lock per table) is left to the tables with other
    writes (a table's row, a call)."""
    from sqlalchemy import create_engine
    from sqlalchemy.orm import sessionmaker

    from qipai.server.store import Entry, Gate, Store, TableUpdate

    class Writer:
        async def write(self, ops, fences):
            self.fences = fences
            return []

    rows, table = Gate("t1", 3), Gate("t2", 5)
    batch = [Entry(rows, 1, _row("t1", 0, 3)), Entry(table, 1, _row("t2", 0, 5)),
             Entry(table, 2, TableUpdate("t2", {"status": "playing"}))]
    # an engine that is never connected: the store reads its dialect alone
    store = Store(sessionmaker(create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none")),
                  process=Writer(), loop_commits=False)
    asyncio.run(store._write(batch))
    assert store.process.fences == {"t2": 5}

    # the trigger refuses a row (it names one table): until a commit passes, every table is
    # checked first, so that the others taken over too are found in one more try
    class Refusing(Writer):
        tries = 0

        async def write(self, ops, fences):
            self.tries += 1
            if self.tries == 1:
                raise Fenced({"t3"})
            return await super().write(ops, fences)

    store.process = Refusing()
    stale = Gate("t3", 1)
    batch = [Entry(rows, 2, _row("t1", 1, 3)), Entry(stale, 1, _row("t3", 0, 1))]

    async def commit() -> list:
        return await store._commit(batch)

    done = asyncio.run(commit())
    assert [e.gate.table_id for e in done] == ["t1"] and stale.fenced
    assert store.process.tries == 2 and store.process.fences == {"t1": 3}
    asyncio.run(store._write([Entry(rows, 3, _row("t1", 2, 3))]))     # passed: rows alone again
    assert store.process.fences == {}


def test_a_socket_message_is_counted_at_once_and_the_shared_count_catches_up():
    """A table socket's message does not wait for Redis while this worker's own count has half
    its burst left (hit_each_now): its own count refuses at once; the shared count, asked
    meanwhile, refuses the next message of an account whose tokens another worker used; past
    half the burst the shared answer is waited for; one process counts exactly as before."""
    from qipai.server.app import Limiters
    from qipai.server.config import Limits, Settings

    # (a token back every 100 s: a loaded machine's pauses refill nothing)
    settings = Settings(limits=Limits(moves_ip=(0.01, 8), moves_account=(0.01, 4)))
    alone = Limiters(settings)
    both = [("moves_ip", "10.0.0.1"), ("moves_account", "7")]

    async def scenario() -> None:
        assert [await alone.hit_each_now(both) for _ in range(4)] == [0.0] * 4
        assert 99 < await alone.hit_each_now(both) <= 100
        async with scratch_redis() as (r, prefix):
            here, there = Limiters(settings), Limiters(settings)
            here.share(r, prefix)
            there.share(r, prefix)
            first = asyncio.ensure_future(here.hit_each_now(both))
            await asyncio.sleep(0)
            assert first.done() and first.result() == 0.0        # no round trip waited for
            assert await here.hit_each_now(both) == 0.0           # 3 of 4 left here: no wait
            assert await here.hit_each_now(both) == 0.0           # 2 left: waited (none refused)
            assert await here.hit_each_now(both) == 0.0           # the account's 4th token
            assert 99 < await here.hit_each_now(both) <= 100      # none left
            await asyncio.sleep(0.1)                               # Redis has answered them all
            # the account's tokens are gone on every worker: another worker's first message is
            # let through (its own count), Redis's refusal holds the next back
            assert await there.hit_each_now([("moves_account", "7")]) == 0.0
            for _ in range(1000):
                await asyncio.sleep(0.01)
                if there._refused:
                    break
            assert 90 < await there.hit_each_now([("moves_account", "7")]) <= 100

    asyncio.run(scenario())
