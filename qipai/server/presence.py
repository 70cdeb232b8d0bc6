"""Who is online and who is playing, for the lobby (``GET /api/presence``).

A signed-in account is *online* while it is in the lobby (whose page asks ``/api/presence``
every few seconds; seeking and challenging count too: it was seen in the last
:data:`ONLINE_WINDOW` seconds) or sits at a game in play; it is *playing* while seated at a table
whose game is on. The record is in this process's memory; in a cluster every presence request
goes to the lobby home (docs/deploy.md), which counts the players of the other workers' games
from their lobby summaries, and keeps its record in Redis too (:class:`SharedPresence`), so that
a worker that becomes the home after it answers the same online list.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("qipai.server")

ONLINE_WINDOW = 60.0     # seconds since an account's last request that it counts as online
LISTED = 100             # names a presence answer lists at most
KEY = "{}:presence"      # sorted set: "<user id>:<username>" scored with the unix time (ms) seen
REWRITE = 5.0            # seconds: an account seen again sooner is not written to Redis again


class Presence:
    """Last request per account; ``clock`` gives seconds (injectable for tests)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.seen: dict[int, tuple[str, float]] = {}      # user id -> (username, when)

    def touch(self, user_id: int, username: str) -> None:
        self.seen[user_id] = (username, self.clock())

    def snapshot(self, tables: list[Any]) -> dict[str, Any]:
        """``{"online": n, "playing": n, "players": [{"username", "playing": table id, true
        (at a private table) or null}]}``: the online accounts (those playing first, then by
        name), from ``tables`` (the hub's live tables) and the requests seen."""
        now = self.clock()
        for uid in [u for u, (_, at) in self.seen.items() if now - at > ONLINE_WINDOW]:
            del self.seen[uid]
        online: dict[int, dict[str, Any]] = {uid: {"username": name, "playing": None}
                                             for uid, (name, _) in self.seen.items()}
        for t in tables:
            if t.status != "playing":
                continue
            # a private table is found by its link alone: its players are playing, not where
            where = True if (getattr(t, "settings", None) or {}).get("private") else t.id
            for s in t.seats:
                if s and s.get("user") is not None:
                    online[s["user"]] = {"username": s["name"], "playing": where}
        players = sorted(online.values(), key=lambda p: (p["playing"] is None, p["username"].lower()))
        return {"online": len(online), "playing": sum(p["playing"] is not None for p in players),
                "players": players[:LISTED]}


class SharedPresence:
    """The lobby home's :class:`Presence` kept in Redis as well (``redis``: a
    ``redis.asyncio.Redis`` client, ``name``: the cluster's), in the sorted set :data:`KEY`:
    each account seen is written (wall-clock time; again once :data:`REWRITE` seconds have
    passed, so a lobby polling every few seconds costs a write every 5 s), entries older than
    :data:`ONLINE_WINDOW` are dropped at each write, and the whole set expires when nobody
    was seen for that long. A worker becoming the home reads it (:meth:`load`) before it answers.
    While Redis cannot be reached the record is the home's memory alone."""

    def __init__(self, presence: Presence, redis: Any, name: str) -> None:
        self.presence = presence
        self.redis = redis
        self.key = KEY.format(name)
        self._written: dict[int, float] = {}          # user id -> when written (unix s)

    async def touch(self, user_id: int, username: str) -> None:
        """Note ``user_id`` seen now, here and (at most every :data:`REWRITE` s) in Redis."""
        from redis.exceptions import RedisError

        self.presence.touch(user_id, username)
        now = time.time()
        if now - self._written.get(user_id, 0.0) < REWRITE:
            return
        if len(self._written) > 10_000:
            self._written = {u: at for u, at in self._written.items() if now - at < REWRITE}
        self._written[user_id] = now
        ms = int(now * 1000)
        try:
            async with self.redis.pipeline(transaction=True) as p:
                p.zadd(self.key, {f"{user_id}:{username}": ms})
                p.zremrangebyscore(self.key, "-inf", ms - int(ONLINE_WINDOW * 1000))
                p.pexpire(self.key, int(ONLINE_WINDOW * 1000))
                await p.execute()
        except RedisError as e:
            self._written.pop(user_id, None)
            log.warning("presence: not kept in Redis: %s", e)

    async def load(self) -> None:
        """Add the accounts seen in the last :data:`ONLINE_WINDOW` seconds (by any home) to the
        memory record, each at the time it was seen (a newer sighting here is kept)."""
        now = time.time()
        rows = await self.redis.zrangebyscore(self.key, int((now - ONLINE_WINDOW) * 1000), "+inf",
                                              withscores=True)
        seen, clock = self.presence.seen, self.presence.clock()
        for member, ms in rows:
            uid, _, name = member.partition(":")
            at = clock - (now - ms / 1000)
            if uid.isdigit() and seen.get(int(uid), ("", at - 1))[1] < at:
                seen[int(uid)] = (name, at)
