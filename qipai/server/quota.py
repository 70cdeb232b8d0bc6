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
both pass the last place). The worker serving a table renews its entry once a lease time
(:meth:`TableQuota.renew`, a share of the entries at each heartbeat) and removes it once the
table ended; an entry nobody renews (its worker was killed, or a table that never got stored)
drops out when its time passes, which is ``stall_ms + 2 × lease_ms`` after the last heartbeat
that saw it (and up to a lease time more) — longer than a busy worker may keep its leases, and
the worker taking a table over renews its entry from then on.
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

#: KEYS: sets; ARGV: until (ms), then for each set the number of its members to renew and the
#: members. Each member counts until ``until``, and so does the set.
_RENEW = """
local upto, j = ARGV[1], 2
for _, key in ipairs(KEYS) do
  local n = tonumber(ARGV[j])
  for k = j + 1, j + n do
    redis.call('ZADD', key, upto, ARGV[k])
  end
  j = j + n + 1
  redis.call('PEXPIREAT', key, upto)
end
return 0
"""


class TableQuota:
    """The quota sets of a cluster ``name`` on a ``redis.asyncio.Redis`` client; ``keep_ms``: how
    long an entry counts without being renewed; ``key``: the sets' prefix (``{}`` the name);
    ``every_ms``: how often each entry is renewed (0: at every :meth:`renew`).

    An entry is renewed once every ``every_ms`` and then counts for ``keep_ms + every_ms``, so it
    always has ``keep_ms`` left after the last heartbeat, as when every heartbeat renewed every
    entry; a heartbeat renews the entries due and, oldest first, its share of the others, so
    that the renewals of many entries made together (a burst of new tables) spread over the
    heartbeats instead of all coming again at one (each a Redis command the event loop
    builds: thousands at a heartbeat held the loop for tens of milliseconds)."""

    def __init__(self, redis: Any, name: str, keep_ms: int, key: str = KEY, every_ms: int = 0) -> None:
        self.redis = redis
        self.prefix = key.format(name)
        self.keep_ms = int(keep_ms)
        self.every_ms = int(every_ms)
        self._reserve = redis.register_script(_RESERVE)
        self._renew = redis.register_script(_RENEW)
        #: (account, member) counted here -> when last renewed (monotonic s); oldest first
        self._at: dict[tuple[int, str], float] = {}
        self._beat: float | None = None                 # the last renew (monotonic s)
        #: entries counted by :meth:`reserve` and not yet seen live by :meth:`renew`: a table is
        #: counted before it is made (its lease taken, its row written), and a heartbeat in
        #: between must not take it for one that ended (once made, :meth:`made`, it is live)
        self._new: set[tuple[int, str]] = set()
        self.clock = time.monotonic

    async def reserve(self, owner_id: int, table_id: str, quota: int) -> int | None:
        """Count the new table ``table_id`` of ``owner_id``; None when it is counted, else the
        number of live tables the account holds already (at least ``quota``: refused)."""
        now = int(time.time() * 1000)
        at = self.clock()
        got = int(await self._reserve(keys=[self.prefix + str(owner_id)],
                                      args=[table_id, now, now + self.keep_ms + self.every_ms, quota]))
        if got < 0:
            self._at.pop((owner_id, table_id), None)
            self._at[(owner_id, table_id)] = at
            self._new.add((owner_id, table_id))
            return None
        return got

    def made(self, owner_id: int, member: str) -> None:
        """The table ``member`` counted by :meth:`reserve` is made here (live from now on): from
        now on, a heartbeat that finds it not live takes it for one that ended (or moved) and
        removes it, as any other. Until then a reservation is kept for ``keep_ms`` even when not
        live, so a table that ended before any heartbeat saw it live held its account's place
        that long (half a minute), instead of until the next heartbeat."""
        self._new.discard((owner_id, member))

    async def release(self, owner_id: int, member: str) -> None:
        """``member`` of ``owner_id`` ended: it counts no more (at once, not at the next
        :meth:`renew`)."""
        self._at.pop((owner_id, member), None)
        self._new.discard((owner_id, member))
        await self.redis.zrem(self.prefix + str(owner_id), member)

    async def renew(self, live: set[tuple[int, str]]) -> None:
        """``live``: the (account, table) pairs of the live tables this worker serves: those
        new here and those due (see the class) count for ``keep_ms + every_ms`` more; those
        counted here and not live now (the table ended, or moved to another worker, which renews
        it) are removed."""
        now = self.clock()
        keep = self.keep_ms / 1000
        self._new -= live
        # not live: ended or moved — except one reserved and not live yet (a reservation never
        # made live within keep_ms was abandoned: it goes too)
        gone = [x for x, at in self._at.items() if x not in live and (x not in self._new or now - at >= keep)]
        renew = [x for x in live if x not in self._at]
        every = self.every_ms / 1000
        # this heartbeat's share of the others (oldest first), and every one that is due
        share = 1.0 if every <= 0 or self._beat is None else min(1.0, (now - self._beat) / every)
        budget = -(-len(self._at) * share // 1)
        for x, at in self._at.items():
            if x in live and (budget > 0 or now - at >= every):
                renew.append(x)
                budget -= 1
            elif budget <= 0:
                break
        until = int(time.time() * 1000) + self.keep_ms + self.every_ms
        if renew or gone:
            by: dict[Any, list[str]] = {}
            for owner, tid in renew:
                by.setdefault(owner, []).append(tid)
            owners = list(by)
            async with self.redis.pipeline(transaction=False) as p:
                # one script a few hundred sets (a command each member and set cost the event
                # loop's thread more than the script's one list of arguments)
                for i in range(0, len(owners), 500):
                    part = owners[i:i + 500]
                    args: list[Any] = [until]
                    for owner in part:
                        args += [len(by[owner]), *by[owner]]
                    await self._renew(keys=[self.prefix + str(o) for o in part], args=args, client=p)
                for owner, tid in gone:
                    p.zrem(self.prefix + str(owner), tid)
                await p.execute()
        self._beat = now
        for x in gone:                   # (a release during the round trip removed it already)
            self._at.pop(x, None)
            self._new.discard(x)
        for x in renew:
            self._at.pop(x, None)
            self._at[x] = now

    async def count(self, owner_id: int) -> int:
        """The live tables counted for ``owner_id`` now."""
        now = int(time.time() * 1000)
        return int(await self.redis.zcount(self.prefix + str(owner_id), now, "+inf"))


class StreamQuota(TableQuota):
    """The open Bot API streams of each account in a cluster ``name``: the same sets as the
    table quota's, one entry a stream (``<worker id>:<n>``), renewed by the worker serving it."""

    def __init__(self, redis: Any, name: str, keep_ms: int, every_ms: int = 0) -> None:
        super().__init__(redis, name, keep_ms, STREAMS, every_ms)


class SocketQuota(TableQuota):
    """The open table sockets of a cluster ``name``, per account (owner ``user:<id>``) and per
    client address (``ip:<address>``): one entry a socket (``<worker id>:<n>``), renewed by the
    worker serving it."""

    def __init__(self, redis: Any, name: str, keep_ms: int, every_ms: int = 0) -> None:
        super().__init__(redis, name, keep_ms, SOCKETS, every_ms)
