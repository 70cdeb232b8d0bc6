"""Leases in Redis: which worker of a cluster serves each live table, and where workers listen.

Keys (one Redis, or a Redis with Sentinel failover; not Redis Cluster, whose scripts could not
touch keys of several slots):

* ``<cluster>:lease:<table id>`` = the owning worker's id, with an expiry of ``lease_ms``
  milliseconds. Taken with ``SET NX PX`` (:meth:`Leases.acquire`), renewed by its owner with a
  compare-and-set script (:meth:`Leases.renew`: ``PEXPIRE`` only while the value is still the
  owner's), given up with a compare-and-delete (:meth:`Leases.release`). A worker that stops or
  freezes stops renewing; after ``lease_ms`` the key is gone and another worker takes it.
* ``<cluster>:worker:<worker id>`` = JSON ``{"address": "host:port", "pid": n}``: the internal
  address where a worker takes relayed requests (:mod:`.relay`), renewed with the leases but
  kept :data:`ADDRESS_LEASES` times as long: a worker that died is still found at its address
  after its leases lapse, where the refused connection tells that it is gone
  (:meth:`.cluster.Cluster.worker_gone`).
* ``<cluster>:relay-secret``: a random token the workers share (made by the first); a relayed
  request carries it (:mod:`.relay`).

A lease says who *should* serve a table; what makes a stale owner harmless is the fencing token:
taking a table over raises its ``tables.lease_epoch`` in the database, and every write carries
the epoch of its process (:func:`.commit.check_fences`, and a PostgreSQL trigger on ``actions``).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import threading
import time
from typing import Any

log = logging.getLogger("qipai.server")

#: the key names below are under the cluster's name (``Settings.cluster_name``, default
#: ``qipai``): several clusters may share one Redis
LEASE = "{}:lease:"
WORKER = "{}:worker:"
SECRET = "{}:relay-secret"
#: a worker's address outlives its leases this many times over (see the module docstring)
ADDRESS_LEASES = 5

#: KEYS: lease keys; ARGV: worker id, ms. Renews the leases still held by the worker, takes back
#: one that expired with nobody taking it (its database epoch is still this worker's: a taker
#: would have raised it), and returns the 1-based positions of the keys another worker holds.
_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  local v = redis.call('GET', key)
  if v == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  elseif not v then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  else
    lost[#lost + 1] = i
  end
end
return lost
"""

#: KEYS: lease keys; ARGV: worker id. Deletes those the worker holds.
_RELEASE = """
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('DEL', key)
  end
end
return 0
"""


class Leases:
    """The lease operations of one worker (``worker_id``) on a ``redis.asyncio.Redis`` client
    with ``decode_responses=True``. Every method raises what redis-py raises when Redis cannot be
    reached (``redis.exceptions.RedisError``)."""

    def __init__(self, redis: Any, worker_id: str, lease_ms: int, cluster: str = "qipai") -> None:
        self.redis = redis
        self.lease_key = LEASE.format(cluster)
        self.worker_key = WORKER.format(cluster)
        self.secret_key = SECRET.format(cluster)
        self.worker_id = worker_id
        self.lease_ms = int(lease_ms)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    async def acquire(self, table_id: str) -> bool:
        """Take the lease of ``table_id`` if nobody holds it (``SET NX PX``)."""
        key = self.lease_key + table_id
        return bool(await self.redis.set(key, self.worker_id, nx=True, px=self.lease_ms))

    async def renew(self, table_ids: list[str]) -> set[str]:
        """Renew the leases of ``table_ids`` (one script call per 500); returns those another
        worker holds now (lost)."""
        lost: set[str] = set()
        for i in range(0, len(table_ids), 500):
            part = table_ids[i:i + 500]
            gone = await self._renew(keys=[self.lease_key + t for t in part],
                                     args=[self.worker_id, self.lease_ms])
            lost.update(part[int(k) - 1] for k in gone)
        return lost

    async def acquire_many(self, table_ids: list[str]) -> list[str]:
        """Take the leases of ``table_ids`` nobody holds (one round trip); returns those taken."""
        if not table_ids:
            return []
        async with self.redis.pipeline(transaction=False) as p:
            for t in table_ids:
                p.set(self.lease_key + t, self.worker_id, nx=True, px=self.lease_ms)
            took = await p.execute()
        return [t for t, ok in zip(table_ids, took) if ok]

    async def release(self, table_ids: list[str], owner: str | None = None) -> None:
        """Give up the leases of ``table_ids`` this worker holds (``owner``: those the worker
        ``owner`` holds, a worker found dead)."""
        for i in range(0, len(table_ids), 500):
            keys = [self.lease_key + t for t in table_ids[i:i + 500]]
            await self._release(keys=keys, args=[owner or self.worker_id])

    async def owners(self, table_ids: list[str]) -> list[str | None]:
        """The worker holding each lease of ``table_ids`` (None: no lease)."""
        if not table_ids:
            return []
        return list(await self.redis.mget([self.lease_key + t for t in table_ids]))

    async def register(self, address: str, pid: int) -> None:
        """Publish (or refresh) this worker's internal address for ``lease_ms``."""
        await self.redis.set(self.worker_key + self.worker_id, json.dumps({"address": address, "pid": pid}),
                             px=self.lease_ms * ADDRESS_LEASES)

    async def unregister(self) -> None:
        await self.redis.delete(self.worker_key + self.worker_id)

    async def address(self, worker_id: str) -> str | None:
        """The internal ``host:port`` of a live worker (None: gone or never known)."""
        raw = await self.redis.get(self.worker_key + worker_id)
        return json.loads(raw)["address"] if raw else None

    async def shared_secret(self) -> str:
        """The relay secret of the cluster (made by the first worker to ask)."""
        await self.redis.set(self.secret_key, secrets.token_urlsafe(32), nx=True)
        return await self.redis.get(self.secret_key)


class Keeper(threading.Thread):
    """The lease heartbeat of one worker, on a thread of its own with its own (blocking) Redis
    client, so that a busy event loop does not starve it.

    The event loop says which tables it serves (:meth:`serve`, at each of its heartbeats) and
    stamps :meth:`pulse` while it runs; every ``lease_ms / 4`` the thread renews those leases,
    gives up those the loop no longer names, refreshes the worker's address, and keeps the
    leases another worker holds now for the loop to collect (:meth:`take_lost`). It is the only
    writer of renewals and releases, so a renewal never brings back a lease the loop gave up.

    The trade-off: a loop busy for a moment (a long garbage collection, a slow engine start, a
    burst of work) keeps its tables — before, a loop busy longer than a lease lost them all to
    take-over, and its clients reconnected. A loop that stays stuck would keep them for ever,
    so the thread renews only while the loop has pulsed within ``stall_ms``; past that the
    leases lapse and another worker takes the tables over (the fencing epoch then refuses
    whatever the stuck worker still tries to write). A frozen process (``SIGSTOP``) freezes
    this thread too: its leases lapse after ``lease_ms`` as before."""

    def __init__(self, redis_url: str, worker_id: str, lease_ms: int, cluster: str,
                 stall_ms: int) -> None:
        super().__init__(name="qipai-lease-keeper", daemon=True)
        import redis

        self.redis = redis.Redis.from_url(redis_url, decode_responses=True, socket_timeout=2.0,
                                          socket_connect_timeout=2.0)
        self.lease_key = LEASE.format(cluster)
        self.worker_key = WORKER.format(cluster)
        self.worker_id = worker_id
        self.lease_ms = int(lease_ms)
        self.stall_ms = int(stall_ms)
        self.address: str | None = None
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._want: frozenset[str] = frozenset()
        self._renewed: frozenset[str] = frozenset()
        self._lost: set[str] = set()
        self._lock = threading.Lock()
        self._pulse = time.monotonic()
        self._halt = threading.Event()
        self.renewals = 0                    # rounds done (tests and logs)
        self.stalled = False                 # the loop has not pulsed within stall_ms

    # ----- the event loop's side ----------------------------------------------------------
    def pulse(self) -> None:
        """The event loop is running (called from it, every ``lease_ms / 4``)."""
        self._pulse = time.monotonic()

    def serve(self, table_ids: set[str] | list[str]) -> None:
        """The tables whose leases to keep from now on (the others this worker holds are given
        up at the next round)."""
        self._want = frozenset(table_ids)

    def take_lost(self) -> set[str]:
        """The tables found held by another worker since the last call."""
        with self._lock:
            lost, self._lost = self._lost, set()
        return lost

    def held(self) -> frozenset[str]:
        """The leases renewed at the last round."""
        return self._renewed

    def stop(self) -> None:
        self._halt.set()

    # ----- the thread ---------------------------------------------------------------------
    def run(self) -> None:
        period = self.lease_ms / 4000
        while not self._halt.wait(period):
            try:
                self.round()
            except Exception as e:          # Redis unreachable: go on trying
                log.warning("cluster: lease renewal failed: %s", str(e).splitlines()[0] if str(e) else e)
        with contextlib.suppress(Exception):
            self.redis.close()

    def round(self) -> None:
        """One renewal round (see the class docstring)."""
        stalled = (time.monotonic() - self._pulse) * 1000 > self.stall_ms
        if stalled != self.stalled:
            self.stalled = stalled
            log.warning("cluster: the event loop has not run for %.1f s: leases %s",
                        time.monotonic() - self._pulse, "left to lapse" if stalled else "renewed again")
        if stalled:
            return
        # one round trip (a pipeline): on a loaded machine each answer read means waiting for
        # the interpreter lock again, so the renewals go first and nothing waits on another
        want = sorted(self._want)
        gone = sorted(self._renewed - set(want))
        parts = [want[i:i + 500] for i in range(0, len(want), 500)]
        with self.redis.pipeline(transaction=False) as p:
            for part in parts:
                self._renew(keys=[self.lease_key + t for t in part], args=[self.worker_id, self.lease_ms],
                            client=p)
            for i in range(0, len(gone), 500):
                self._release(keys=[self.lease_key + t for t in gone[i:i + 500]], args=[self.worker_id],
                              client=p)
            if self.address:
                p.set(self.worker_key + self.worker_id,
                      json.dumps({"address": self.address, "pid": os.getpid()}),
                      px=self.lease_ms * ADDRESS_LEASES)
            answers = p.execute()
        lost: set[str] = set()
        for part, gone_at in zip(parts, answers):
            lost.update(part[int(k) - 1] for k in gone_at)
        self._renewed = frozenset(want) - lost
        self.renewals += 1
        if lost:
            with self._lock:
                self._lost |= lost
