"""Per-account limits counted for a whole cluster in Redis, so that an account whose requests
reach several workers does not get the limit once per worker: the open-table quota
(``Settings.max_open_tables``, :class:`TableQuota`) and the Bot API's open streams
(:data:`.botapi.MAX_STREAMS`, :class:`StreamQuota`, key ``<cluster>:streams:<account id>``,
members ``<worker id>:<n>``, kept while the worker serving the stream renews them), and the open
table sockets per account and per client address (``Limits.ws_open_account`` / ``ws_open_ip``,
:class:`SocketQuota`, keys ``<cluster>:sockets:user:<account id>`` and ``...:ip:<address>``,
members as the streams').

Key ``<cluster>:open:<account id>``: a sorted set of the account's live tables (those it made
that are open or playing), each scored with the unix time in milliseconds until which it
counts. A new table is added by :meth:`TableQuota.reserve` only while the set holds fewer than
the quota (one script: counting and adding are one step, so two workers creating at once cannot
both pass the last place). The worker serving a table renews its entry at every heartbeat
(:meth:`TableQuota.renew`) and removes it once the table ended; an entry nobody renews (its
worker was killed, or a table that never got stored) drops out when its time passes, which is
``stall_ms + 2 × lease_ms`` — longer than a busy worker may keep its leases, and the worker
taking a table over renews its entry from then on.
"""

from __future__ import annotations

import time
from typing import Any

KEY = "{}:open:"
STREAMS = "{}:streams:"
SOCKETS = "{}:sockets:"

#: KEYS[1]: the account's set; ARGV: table id, now (ms), counts until (ms), quota. Returns -1
#: when the table is counted (added, or already there), else the number of tables counted.
_RESERVE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return -1 end
local n = redis.call('ZCARD', KEYS[1])
if n >= tonumber(ARGV[4]) then return n end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
return -1
"""


class TableQuota:
    """The quota sets of a cluster ``name`` on a ``redis.asyncio.Redis`` client; ``keep_ms``: how
    long an entry counts without being renewed; ``key``: the sets' prefix (``{}`` the name)."""

    def __init__(self, redis: Any, name: str, keep_ms: int, key: str = KEY) -> None:
        self.redis = redis
        self.prefix = key.format(name)
        self.keep_ms = int(keep_ms)
        self._reserve = redis.register_script(_RESERVE)
        self._counted: set[tuple[int, str]] = set()     # (account, table) renewed last time

    async def reserve(self, owner_id: int, table_id: str, quota: int) -> int | None:
        """Count the new table ``table_id`` of ``owner_id``; None when it is counted, else the
        number of live tables the account holds already (at least ``quota``: refused)."""
        now = int(time.time() * 1000)
        got = int(await self._reserve(keys=[self.prefix + str(owner_id)],
                                      args=[table_id, now, now + self.keep_ms, quota]))
        if got < 0:
            self._counted.add((owner_id, table_id))
            return None
        return got

    async def release(self, owner_id: int, member: str) -> None:
        """``member`` of ``owner_id`` ended: it counts no more (at once, not at the next
        :meth:`renew`)."""
        self._counted.discard((owner_id, member))
        await self.redis.zrem(self.prefix + str(owner_id), member)

    async def renew(self, live: set[tuple[int, str]]) -> None:
        """``live``: the (account, table) pairs of the live tables this worker serves: their
        entries count for ``keep_ms`` more; those renewed last time and not live now (the table
        ended, or moved to another worker, which renews it) are removed."""
        until = int(time.time() * 1000) + self.keep_ms
        gone = self._counted - live
        async with self.redis.pipeline(transaction=False) as p:
            by: dict[int, dict[str, int]] = {}
            for owner, tid in live:
                by.setdefault(owner, {})[tid] = until
            for owner, members in by.items():
                p.zadd(self.prefix + str(owner), members)
                p.pexpireat(self.prefix + str(owner), until)
            for owner, tid in gone:
                p.zrem(self.prefix + str(owner), tid)
            await p.execute()
        self._counted = set(live)

    async def count(self, owner_id: int) -> int:
        """The live tables counted for ``owner_id`` now."""
        now = int(time.time() * 1000)
        return int(await self.redis.zcount(self.prefix + str(owner_id), now, "+inf"))


class StreamQuota(TableQuota):
    """The open Bot API streams of each account in a cluster ``name``: the same sets as the
    table quota's, one entry a stream (``<worker id>:<n>``), renewed by the worker serving it."""

    def __init__(self, redis: Any, name: str, keep_ms: int) -> None:
        super().__init__(redis, name, keep_ms, STREAMS)


class SocketQuota(TableQuota):
    """The open table sockets of a cluster ``name``, per account (owner ``user:<id>``) and per
    client address (``ip:<address>``): one entry a socket (``<worker id>:<n>``), renewed by the
    worker serving it."""

    def __init__(self, redis: Any, name: str, keep_ms: int) -> None:
        super().__init__(redis, name, keep_ms, SOCKETS)
