"""Several server workers on one PostgreSQL and one Redis: table ownership, take-over, lobby.

Every live table (open or playing) is served by exactly one worker, the holder of its lease
(:mod:`.leases`). A :class:`Cluster` is a worker's part:

* **Heartbeat** (every ``lease_ms / 4``): the event loop tells the lease keeper (a thread of
  its own, :class:`.leases.Keeper`, so that a busy loop does not starve the renewals) which
  tables it serves: its live tables and those that ended here lately, which it remembers for
  reconnecting clients. The keeper renews their leases, gives up the others and publishes
  the worker's internal address; a lease another worker holds now is *lost*: at the loop's
  next heartbeat the table is dropped here, its sockets closed with 1012 ``moved`` so that
  clients reconnect to the new owner. The loop also publishes its tables' lobby summaries.
* **Take-over** (every ``lease_ms / 4``, in a loop of its own so that a slow database never
  delays a renewal): the live tables in the database that no worker has held for a lease time
  (at each scan since: the margin given to an owner whose renewal came late; and a table being
  created is never taken from its creator) are taken: the lease in Redis (``SET NX``), then
  ``tables.lease_epoch`` raised by one in the database (the fencing token: the previous owner's
  writes are refused from then on, see :func:`.commit.check_fences`), then the table is rebuilt
  from its action log exactly as after a restart (:meth:`.hub.Hub.revive`; the seat on turn
  starts its turn again, competition.md §4.7). A request for a table no worker holds takes it
  over at once (:meth:`route`).
* **Sign-outs** are published (``<cluster>:logout``): every worker forgets the session and closes
  its sockets. So are **changes of an account** (``<cluster>:account``, its id: the bot mark, a
  role): every worker forgets what it cached of the account's sessions and tokens.

A worker that is killed stops renewing: within ``lease_ms`` its leases expire, and within
about ``lease_ms`` more another worker has taken each table over (at once, a table a client
asks for through a worker that finds the dead one's port closed: :meth:`Cluster.worker_gone`).
A worker that freezes (``SIGSTOP``, a long pause) and resumes finds its leases lost at its next
heartbeat; until then anything it tries to write for those tables is refused by the database
(fenced), so it is never acknowledged to anyone.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import event, select, text, update
from sqlalchemy.orm import Session

from .leases import Keeper, Leases
from .models import TableRow
from .quota import TableQuota

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("qipai.server")

LOBBY = "{}:tables:"             # + worker id: hash of table id -> summary JSON
LOGOUT = "{}:logout"             # channel: SHA-256 of a session token that ended
EVENTS = "{}:account-events"     # channel: {"user": id, "msg": an account event} (.challenges)
ACCOUNT = "{}:account"           # channel: the id of an account that changed (bot mark, role)
#: the lease of the lobby home: the worker serving the seek pool, presence, challenges and the
#: Bot API's account event streams (kept in its memory; relay.LOBBY_PATH)
LOBBY_HOME = "@lobby"
LIVE = ("open", "playing")
#: a table whose only change is its move count is published again after this many seconds
LOBBY_PLIES_S = 5.0
#: every this many publications of the lobby, a worker's hash is written whole again
LOBBY_FULL_EVERY = 10
#: connections a worker keeps to Redis at most (its pub/sub listeners hold a few for good)
REDIS_CONNECTIONS = 200


class Cluster:
    """One worker's membership of a cluster (``Settings.redis_url``). ``address``: the
    internal ``host:port`` where it takes relayed requests (set before :meth:`start`)."""

    def __init__(self, hub: Hub, redis_url: str, lease_ms: int = 2000, name: str = "qipai",
                 stall_ms: int = 30_000) -> None:
        import redis.asyncio as aioredis

        self.hub = hub
        self.worker_id = f"{socket.gethostname()[:24]}-{os.getpid()}-{secrets.token_hex(3)}"
        # a pool that makes a burst wait for a free connection (up to 5 s) instead of failing:
        # redis-py's plain pool refuses the 101st connection at once ("Too many connections"),
        # and 500 tables opened together each count a quota, a lease and their sockets
        pool = aioredis.BlockingConnectionPool.from_url(
            redis_url, max_connections=REDIS_CONNECTIONS, timeout=5.0, decode_responses=True,
            socket_timeout=2.0, socket_connect_timeout=2.0, health_check_interval=10)
        self.redis = aioredis.Redis(connection_pool=pool)
        self.leases = Leases(self.redis, self.worker_id, lease_ms, name)
        self.keeper = Keeper(redis_url, self.worker_id, lease_ms, name, stall_ms)
        self.quota = TableQuota(self.redis, name, stall_ms + 2 * lease_ms, every_ms=lease_ms)
        self.lobby_key = LOBBY.format(name)
        self.logout_channel = LOGOUT.format(name)
        self.events_channel = EVENTS.format(name)
        self.account_channel = ACCOUNT.format(name)
        #: called with an account id when the account changed (on any worker: forget its caches)
        self.on_account: list[Callable[[int], None]] = []
        #: awaited at the end of every heartbeat (the Bot API's stream counts are renewed there)
        self.on_beat: list[Callable[[], Any]] = []
        self.on_event: list[Callable[[int, dict[str, Any]], None]] = []
        self._outbox: asyncio.Queue[str] | None = None
        self.lobby_home = False          # this worker holds the lobby home's lease
        self.name = name
        #: called (and awaited) when this worker becomes the lobby home, before it serves any
        #: of the home's requests (.lobbystate loads the seeks and challenges)
        self.on_home: list[Callable[[], Any]] = []
        self._homing: asyncio.Lock | None = None
        self.lease_ms = lease_ms
        self.address: str | None = None
        self.internal_port: int | None = None
        self.secret: str | None = None
        self.held: set[str] = set()              # leases this worker holds
        #: live tables nobody held at the last scan -> when first seen so (monotonic s)
        self._orphans: dict[str, float] = {}
        self._watch: dict[int, tuple[str, str, Callable[[], None]]] = {}
        self._watch_ids = 0
        self.on_logout: list[Callable[[str], None]] = []
        self.took_over: list[tuple[float, int, float]] = []   # (unix time, tables, seconds)
        self._tasks: list[asyncio.Task[Any]] = []
        self._asked: list[tuple[list[str], asyncio.Future[list[str]]]] = []   # take-overs to make
        self._taker: asyncio.Task[None] | None = None
        self._claiming: set[str] = set()         # leases taken, tables being claimed
        self._reserved: set[str] = set()         # leases of new tables taken (reserve)
        self._gone: set[str] = set()             # workers found gone (worker_gone)
        self._beats = 0
        #: table id -> (summary without plies, plies, when) as last published (publish_lobby)
        self._lobby_sent: dict[str, tuple[dict[str, Any], Any, float]] = {}
        self._lobby_round = 0
        self._http: Any = None           # httpx.AsyncClient of ask()
        keep_transactions_short(hub.db)

    # ----- lifecycle -----------------------------------------------------------------------
    async def start(self) -> None:
        """Join: the shared secret, this worker's address, the first take-over (after two
        scans), the heartbeat and the sign-out listener."""
        self._outbox = self._outbox or asyncio.Queue()
        self.secret = await self.leases.shared_secret()
        if self.address:
            await self.leases.register(self.address, os.getpid())
        self.keeper.address = self.address
        self.keeper.pulse()              # the loop runs (warming the games up took a while)
        self.keeper.start()
        await self.scan()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._heartbeat()), loop.create_task(self._scanner()),
                       loop.create_task(self._listen()), loop.create_task(self._pulse()),
                       loop.create_task(self._send_events())]
        log.warning("cluster: worker %s on %s (lease %d ms)", self.worker_id, self.address, self.lease_ms)

    async def stop(self) -> None:
        """Leave: stop the loops, give up every lease (another worker takes the tables over at
        once: their games were saved where they stand) and the address."""
        tasks = self._tasks + ([self._taker] if self._taker is not None else [])
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.keeper.stop()
        await asyncio.to_thread(self.keeper.join, 5)
        with contextlib.suppress(Exception):
            await self.leases.release(sorted(self.held | self.keeper.held()))
            await self.leases.unregister()
            await self.redis.delete(self.lobby_key + self.worker_id)
        with contextlib.suppress(Exception):
            await self.redis.aclose()
            if self._http is not None:
                await self._http.aclose()

    # ----- heartbeat ------------------------------------------------------------------------
    async def _heartbeat(self) -> None:
        await self._every(self.beat, "heartbeat")

    async def _pulse(self) -> None:
        # the loop runs: the keeper renews (see leases.Keeper for the trade-off)
        while True:
            self.keeper.pulse()
            await asyncio.sleep(self.lease_ms / 4000)

    async def _scanner(self) -> None:
        # a loop of its own: a slow database never delays the renewals (Redis only)
        await self._every(self.scan, "take-over scan")

    async def _every(self, step: Callable[[], Any], what: str) -> None:
        period = self.lease_ms / 4000
        while True:
            await asyncio.sleep(period)
            try:
                await step()
            except asyncio.CancelledError:
                raise
            except Exception as e:          # Redis or the database unreachable: go on trying
                log.warning("cluster: %s failed: %s", what, str(e).splitlines()[0] if str(e) else e)

    async def beat(self) -> None:
        """One heartbeat (see the module docstring)."""
        self._beats += 1
        self.keeper.pulse()
        # the tables live here, and those that ended here lately (a reconnecting client and
        # GET /api/tables/{id} still reach the worker that remembers them, hub.finished)
        mine = {tid for tid, t in self.hub.tables.items() if t.status in LIVE} | set(self.hub.finished)
        if self.lobby_home or LOBBY_HOME in self.held:
            mine.add(LOBBY_HOME)
        mine |= self._claiming
        lost = self.keeper.take_lost()
        if LOBBY_HOME in lost:
            log.warning("cluster: another worker is the lobby home now")
            self.lobby_home = False
            self.held.discard(LOBBY_HOME)
        self.keeper.serve(mine - lost)
        self.held = mine - lost
        lost &= set(self.hub.tables) | set(self.hub.finished)
        if lost:
            log.warning("cluster: %d table(s) now served by another worker: %s", len(lost),
                        ", ".join(sorted(lost)[:10]))
            self.hub.lose(lost)
        await self._check_watches()
        await self.quota.renew({(t.owner_id, tid) for tid, t in self.hub.tables.items()
                                if t.status in LIVE and t.owner_id is not None})
        if self._beats % 2 == 0:
            await self.publish_lobby()
        for cb in list(self.on_beat):
            await cb()

    async def publish_lobby(self) -> None:
        """This worker's tables in the lobby (``qipai:tables:<worker>``, expiring with it).

        Incremental: only the summaries that changed since they were last published are
        encoded and sent, and those of tables gone are removed; a table whose only change is its
        move count (``plies``: every table in play changes it every second) is sent again at
        most every :data:`LOBBY_PLIES_S` seconds. Every :data:`LOBBY_FULL_EVERY` publications,
        and whenever the hash was found missing (it expired: the worker was late), the whole
        hash is written again (a change a summary's comparison cannot see — a value the summary
        shares with its table, changed in place — is published then at the latest)."""
        key = self.lobby_key + self.worker_id
        now = time.monotonic()
        sent = self._lobby_sent
        self._lobby_round += 1
        full = not sent or self._lobby_round % LOBBY_FULL_EVERY == 0
        if full:
            sent.clear()
        rows: dict[str, str] = {}
        for tid, t in self.hub.tables.items():
            summary = t.summary()
            plies = summary.pop("plies")
            last = sent.get(tid)
            if last is not None and last[0] == summary and \
                    (last[1] == plies or now - last[2] < LOBBY_PLIES_S):
                continue
            sent[tid] = (summary, plies, now)
            rows[tid] = json.dumps({**summary, "plies": plies}, separators=(",", ":"))
        gone = [tid for tid in sent if tid not in self.hub.tables]
        for tid in gone:
            del sent[tid]
        async with self.redis.pipeline(transaction=True) as p:
            p.exists(key)
            if full:
                p.delete(key)
            elif gone:
                p.hdel(key, *gone)
            if rows:
                p.hset(key, mapping=rows)
            p.pexpire(key, self.lease_ms * 2)
            found = (await p.execute())[0]
        if not found and not full:
            sent.clear()                 # it expired meanwhile: written whole next time

    async def lobby(self) -> list[dict[str, Any]]:
        """The tables of the other workers (as last published), for ``/api/tables``."""
        out: list[dict[str, Any]] = []
        async for key in self.redis.scan_iter(match=self.lobby_key + "*", count=100):
            if key == self.lobby_key + self.worker_id:
                continue
            out += [json.loads(v) for tid, v in (await self.redis.hgetall(key)).items()
                    if tid not in self.hub.tables]
        return out

    # ----- taking tables over ----------------------------------------------------------------
    async def scan(self) -> None:
        """Take over the live tables that no worker has held for a lease time: seen free at
        each scan since one at least ``lease_ms`` ago. (The margin: an owner whose renewal came
        late — a loaded machine that gave its keeper thread the interpreter lock too late — takes
        a lapsed lease back at its next renewal, and keeps its tables, unless another worker took
        them meanwhile; a worker that died is recognised sooner, by its closed port.)"""
        ids = await self.hub.store.call(_live_ids, write=False)
        candidates = [t for t in ids if t not in self.hub.tables]
        owners = await self.leases.owners(candidates)
        now = time.monotonic()
        self._orphans = {t: self._orphans.get(t, now) for t, o in zip(candidates, owners) if o is None}
        ready = [t for t, since in self._orphans.items() if (now - since) * 1000 >= self.lease_ms]
        if ready:
            await self.take_over(sorted(ready))

    async def take_over(self, ids: list[str]) -> list[str]:
        """Take the tables ``ids`` whose lease is free, raise their epochs and rebuild them here;
        returns the ids now served here. Take-overs asked for while one is under way are made
        together, in one transaction, once it ends (after a failure many sockets ask at once,
        each for its table: one claim for them all instead of one after the other)."""
        want = [t for t in ids if t not in self.hub.tables]
        if not want:
            return []
        fut: asyncio.Future[list[str]] = asyncio.get_running_loop().create_future()
        self._asked.append((want, fut))
        if self._taker is None or self._taker.done():
            self._taker = asyncio.get_running_loop().create_task(self._take_asked())
        return await fut

    async def _take_asked(self) -> None:
        while self._asked:
            asked, self._asked = self._asked, []
            try:
                got = set(await self._take(sorted({t for want, _ in asked for t in want})))
            except Exception as e:
                for _, fut in asked:
                    if not fut.done():
                        fut.set_exception(e)
                continue
            for want, fut in asked:
                if not fut.done():
                    fut.set_result(sorted(got.intersection(want)))

    async def _take(self, ids: list[str]) -> list[str]:
        ids = [t for t in ids if t not in self.hub.tables]
        won = await self.leases.acquire_many(ids)
        if not won:
            return []
        # renewed from now on: a claim slower than a lease (a loaded database) keeps them
        self._claiming = set(won)
        self.keeper.serve(self.held | self._claiming)
        t0 = time.monotonic()
        try:
            rows, logs, lines = await self.hub.store.call(lambda s: _claim(s, won))
            t1 = time.monotonic()
        except Exception:
            self._claiming = set()
            self.held -= set(won)
            self.keeper.serve(self.held)
            await self.leases.release(won)
            raise
        got = {r.id for r in rows}
        self._claiming = set()
        self.held = (self.held - set(won)) | got
        self.keeper.serve(self.held)
        await self.leases.release(sorted(set(won) - got))      # ended meanwhile
        self.hub.revive(rows, logs, lines)
        took = time.monotonic() - t0
        if rows:
            self.took_over.append((time.time(), len(rows), took))
            log.warning("cluster: took over %d table(s) in %.0f ms (claimed in the database in %.0f ms, "
                        "rebuilt in %.0f ms): %s", len(rows), took * 1000, (t1 - t0) * 1000,
                        (time.monotonic() - t1) * 1000, ", ".join(sorted(got)[:10]))
        return sorted(got)

    async def worker_gone(self, owner: str, address: str, table_id: str | None) -> bool:
        """The worker ``owner`` refused a connection at its internal ``address``: nothing
        listens there, the process is gone. Instead of waiting for its leases to lapse, free
        them now — the tables it published in the lobby, ``table_id``, the lobby home — and
        take its tables over here (fencing keeps this safe even if it were alive: its writes
        would be refused). Returns False when ``owner`` is not known at ``address`` (any more):
        nothing done."""
        if owner in self._gone:                 # another request found it first
            await asyncio.sleep(0.05)
            return True
        if owner == self.worker_id:
            return False
        self._gone.add(owner)
        if await self.leases.address(owner) != address:
            self._gone.discard(owner)
            return False
        tables = set(await self.redis.hkeys(self.lobby_key + owner))
        if table_id is not None:
            tables.add(table_id)
        await self.leases.release(sorted(tables | {LOBBY_HOME}), owner=owner)
        await self.redis.delete(self.leases.worker_key + owner, self.lobby_key + owner)
        log.warning("cluster: worker %s does not listen at %s any more: its leases freed (%d table(s))",
                    owner, address, len(tables))
        await self.take_over(sorted(tables))
        return True

    async def count_table(self, owner_id: int, table_id: str) -> None:
        """Count the new table ``table_id`` in ``owner_id``'s quota for the whole cluster
        (:mod:`.quota`); raises 409 ``too_many_tables`` when the account holds its quota of live
        tables already, on any worker. While Redis cannot be reached, the worker's own count
        (checked before) is the only one."""
        from redis.exceptions import RedisError

        from .conduct import check_quota

        try:
            mine = await self.quota.reserve(owner_id, table_id, self.hub.settings.max_open_tables)
        except RedisError as e:
            log.warning("cluster: table quota not counted: %s", e)
            return
        if mine is not None:
            check_quota(self.hub, owner_id, mine)

    async def reserve(self, table_id: str) -> None:
        """Take the lease of a table about to be made here, before its row is stored: no other
        worker ever finds it live without an owner (and takes it over: a client's first
        request reaching another worker before the lease was taken moved new tables under
        load). While Redis cannot be reached, :meth:`claimed` takes it later."""
        from redis.exceptions import RedisError

        try:
            if await self.leases.acquire(table_id):
                self._reserved.add(table_id)
        except RedisError as e:
            log.warning("cluster: lease of new table %s not taken yet: %s", table_id, e)

    def claimed(self, table_id: str) -> None:
        """A table was made here (or seated from the database by this worker): hold its lease.
        (The next heartbeat would too; this is at once, before anyone can see the table.) Its
        place in its owner's quota, counted before it was made, leaves at the first heartbeat
        after it ends (:meth:`.quota.TableQuota.made`), though it ends before any heartbeat saw
        it."""
        t = self.hub.tables.get(table_id)
        if t is not None and t.owner_id is not None:
            self.quota.made(t.owner_id, table_id)
        self.held.add(table_id)
        self.keeper.serve(self.held)
        if table_id in self._reserved:
            self._reserved.discard(table_id)
            return
        loop = asyncio.get_running_loop()
        loop.create_task(self._claim_new(table_id))

    async def _claim_new(self, table_id: str) -> None:
        try:
            if not await self.leases.acquire(table_id):
                owner = (await self.leases.owners([table_id]))[0]
                if owner not in (None, self.worker_id):
                    log.error("cluster: table %s was made here but %s holds it", table_id, owner)
                    self.hub.lose({table_id})
        except Exception as e:          # the heartbeat takes it then
            log.warning("cluster: lease of new table %s not taken yet: %s", table_id, e)

    # ----- routing ------------------------------------------------------------------------------
    async def route(self, table_id: str) -> tuple[str, str] | None:
        """Where a request for ``table_id`` goes: None to serve it here (this worker holds it,
        has just taken it over, or nobody serves it: not a live table), else the owner's
        ``(worker id, internal address)``. Raises LookupError when the owner holds the lease but
        has no address (stopped a moment ago: its lease expires soon)."""
        owner = (await self.leases.owners([table_id]))[0]
        if owner is None:
            await self.take_over([table_id])
            return None
        if owner == self.worker_id:
            if table_id not in self.hub.tables and self._taker is not None and not self._taker.done():
                await self.take_over([table_id])       # being taken over here: once it is
            return None
        address = await self.leases.address(owner)
        if address is None:
            raise LookupError(owner)
        return owner, address

    async def route_lobby(self) -> tuple[str, str] | None:
        """Where a request for the lobby home goes (:data:`LOBBY_HOME`): None to serve it here
        (this worker is the home, or has just become it: nobody was), else the home's
        ``(worker id, internal address)``. Raises LookupError as :meth:`route` does."""
        owner = (await self.leases.owners([LOBBY_HOME]))[0]
        if owner is None and await self.leases.acquire(LOBBY_HOME):
            owner = self.worker_id
            log.warning("cluster: this worker is the lobby home")
        elif owner is None:
            owner = (await self.leases.owners([LOBBY_HOME]))[0]
        if owner == self.worker_id:
            if not self.lobby_home:
                await self._become_home()
            return None
        address = await self.leases.address(owner) if owner else None
        if address is None:
            raise LookupError(owner)
        return owner, address

    async def ask(self, address: str, method: str, path: str, body: Any = None) -> Any:
        """A request of this worker to another's internal ``address`` (trusted there by the
        cluster's secret, :func:`.relay.accept_relayed`): its JSON answer. Raises
        ``httpx.HTTPError`` when it cannot be reached or refuses (``HTTPStatusError``)."""
        import httpx

        from .relay import RELAY_HEADER

        if self._http is None:
            self._http = httpx.AsyncClient(timeout=10.0)
        r = await self._http.request(method, f"http://{address}{path}", json=body,
                                     headers={RELAY_HEADER.decode(): self.secret or ""})
        r.raise_for_status()
        return r.json()

    async def _become_home(self) -> None:
        """Hold the home's lease from now on, and load what the last home kept (once, however
        many requests arrive meanwhile: they wait)."""
        if self._homing is None:
            self._homing = asyncio.Lock()
        async with self._homing:
            if self.lobby_home:
                return
            self.held.add(LOBBY_HOME)
            self.keeper.serve(self.held)
            for cb in list(self.on_home):
                await cb()
            self.lobby_home = True

    # ----- account events -------------------------------------------------------------------------
    def publish_event(self, user_id: int, msg: dict[str, Any]) -> None:
        """Send an account event to every worker (the lobby home has the account's streams), in
        the order published (one sender)."""
        if self._outbox is None:
            self._outbox = asyncio.Queue()
        self._outbox.put_nowait(json.dumps({"user": user_id, "msg": msg}, separators=(",", ":")))

    async def _send_events(self) -> None:
        assert self._outbox is not None
        while True:
            text = await self._outbox.get()
            while True:
                try:
                    await self.redis.publish(self.events_channel, text)
                    break
                except asyncio.CancelledError:
                    raise
                except Exception as e:           # Redis away: try again (order kept)
                    log.warning("cluster: account event not sent yet: %s", e)
                    await asyncio.sleep(self.lease_ms / 4000)

    def watch(self, table_id: str, owner: str, moved: Callable[[], None]) -> int:
        """Call ``moved()`` once ``table_id``'s lease is no longer ``owner``'s (a relayed socket,
        :mod:`.relay`); returns a handle for :meth:`unwatch`."""
        self._watch_ids += 1
        self._watch[self._watch_ids] = (table_id, owner, moved)
        return self._watch_ids

    def unwatch(self, handle: int) -> None:
        self._watch.pop(handle, None)

    async def _check_watches(self) -> None:
        if not self._watch:
            return
        items = list(self._watch.items())
        owners = await self.leases.owners([tid for _, (tid, _, _) in items])
        for (handle, (_, owner, moved)), now in zip(items, owners):
            # another worker holds it now; a lease that lapsed a moment (the owner's renewal
            # late on a loaded machine) is taken back by its owner and moves nothing. (A dead
            # owner breaks the bridge itself; a frozen one is seen once its table is taken.)
            if now is not None and now != owner:
                self._watch.pop(handle, None)
                moved()

    # ----- sign-outs ----------------------------------------------------------------------------
    async def logout(self, session_hash: str) -> None:
        """Tell every worker that the session (or the Bot API token) ``session_hash`` ended."""
        await self.redis.publish(self.logout_channel, session_hash)

    async def account_changed(self, user_id: int) -> None:
        """Tell every worker (this one too) that the account ``user_id`` changed. While Redis
        cannot be reached the others see the change when their cache entries lapse (30 s)."""
        from redis.exceptions import RedisError

        try:
            await self.redis.publish(self.account_channel, str(user_id))
        except RedisError as e:
            log.warning("cluster: change of account %d not told to the other workers: %s", user_id, e)

    async def _listen(self) -> None:
        while True:
            try:
                async with self.redis.pubsub() as ps:
                    await ps.subscribe(self.logout_channel, self.events_channel, self.account_channel)
                    async for msg in ps.listen():
                        if msg.get("type") != "message":
                            continue
                        if msg["channel"] == self.events_channel:
                            event = json.loads(msg["data"])
                            for cb in list(self.on_event):
                                cb(event["user"], event["msg"])
                            continue
                        if msg["channel"] == self.account_channel:
                            for cb in list(self.on_account):
                                cb(int(msg["data"]))
                            continue
                        for cb in list(self.on_logout):
                            cb(msg["data"])
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("cluster: sign-out listener failed (%s); listening again", e)
                await asyncio.sleep(self.lease_ms / 4000)


def _live_ids(s: Session) -> list[str]:
    return list(s.scalars(select(TableRow.id).where(TableRow.status.in_(LIVE))))


def _claim(s: Session, ids: list[str]):
    """Raise the lease epoch of the live tables among ``ids`` (waiting at most 2 s for a lock:
    a frozen worker in the middle of a commit), then load them as :meth:`.hub.Hub.revive`
    wants them: ``(rows, logs, chat lines)``."""
    from . import chat
    from .hub import load_logs

    if s.get_bind().dialect.name == "postgresql":
        s.execute(_LOCK_TIMEOUT)
    live = TableRow.id.in_(ids) & TableRow.status.in_(LIVE)
    s.execute(update(TableRow).where(live).values(lease_epoch=TableRow.lease_epoch + 1))
    s.flush()
    rows = list(s.scalars(select(TableRow).where(live)))
    logs = load_logs(s, [r.id for r in rows if r.status == "playing"])
    return rows, logs, chat.load_tables(s, [r.id for r in rows])


_LOCK_TIMEOUT = text("SET LOCAL lock_timeout = '2s'")


def keep_transactions_short(db: Any) -> None:
    """PostgreSQL ends a transaction left idle for 15 s (a worker frozen in the middle of one
    would otherwise hold its locks, and the take-over would wait for ever)."""
    engine = db.kw["bind"]
    if engine.dialect.name != "postgresql":
        return

    @event.listens_for(engine, "connect")
    def _timeout(conn, _record) -> None:
        cur = conn.cursor()
        cur.execute("SET idle_in_transaction_session_timeout = 15000")
        cur.close()
        conn.commit()

    engine.dispose()         # connections opened before (the migrations) get it on reconnect
