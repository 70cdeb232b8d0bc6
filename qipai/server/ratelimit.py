"""Token-bucket rate limits, per key (an account id or a client IP).

A :class:`RateLimit` allows ``burst`` events at once and refills ``rate`` events per second.
``hit(key)`` returns 0 when the event is allowed, else the seconds to wait, which a refusal
tells as :func:`retry_after` (the ``retry_after`` of the machine-readable ``rate_limited``
error) and :func:`retry_header` (HTTP ``Retry-After``).
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import time
from collections.abc import Callable
from typing import Any

#: the least ``retry_after`` a refusal tells (s): a wait of a few microseconds rounded to 0.0
#: told a client to ask again at once, to be refused again
MIN_RETRY = 0.1


def retry_after(wait: float) -> float:
    """The ``retry_after`` of a refusal whose token comes in ``wait`` seconds: rounded up to
    hundredths, and at least :data:`MIN_RETRY` (never 0: asked again at once, it is refused)."""
    return max(MIN_RETRY, math.ceil(wait * 100) / 100)


def retry_header(wait: float) -> str:
    """The HTTP ``Retry-After`` header (whole seconds) of a refusal waiting ``wait`` seconds:
    rounded up, at least 1."""
    return str(max(1, math.ceil(wait)))


class RateLimit:
    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic,
                 max_keys: int = 100_000) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("rate must be positive and burst at least 1")
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.max_keys = max_keys
        self._buckets: dict[str, tuple[float, float]] = {}   # key -> (tokens, last time)

    def left(self, key: str) -> float:
        """The tokens ``key`` has now (the burst for a key not seen)."""
        tokens, last = self._buckets.get(key, (float(self.burst), self.clock()))
        return min(float(self.burst), tokens + (self.clock() - last) * self.rate)

    def hit(self, key: str) -> float:
        """Take one token for ``key``: 0.0 if allowed, else seconds until one is available."""
        now = self.clock()
        tokens, last = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) * self.rate)
        if tokens >= 1.0:
            self._buckets[key] = (tokens - 1.0, now)
            if len(self._buckets) > self.max_keys:
                self._prune(now)
            return 0.0
        self._buckets[key] = (tokens, now)
        return (1.0 - tokens) / self.rate

    def _prune(self, now: float) -> None:
        full = [k for k, (t, last) in self._buckets.items()
                if t + (now - last) * self.rate >= self.burst]
        for k in full:
            del self._buckets[k]


#: the token buckets of :class:`RateLimit` in Redis, many in one round trip. KEYS: the buckets (a
#: bucket named twice takes two tokens); ARGV: now (unix seconds), then rate and burst of each
#: key. Each bucket takes a token if it has one; returns each key's wait as text (0: allowed).
_BUCKET = """
local now = tonumber(ARGV[1])
local waits = {}
for i, key in ipairs(KEYS) do
  local rate, burst = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local b = redis.call('HMGET', key, 't', 'at')
  local tokens = tonumber(b[1]) or burst
  local at = tonumber(b[2]) or now
  tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
  local wait = 0
  if tokens >= 1 then tokens = tokens - 1 else wait = (1 - tokens) / rate end
  redis.call('HSET', key, 't', tostring(tokens), 'at', tostring(now))
  redis.call('PEXPIRE', key, math.ceil(burst / rate * 1000) + 1000)
  waits[i] = tostring(wait)
end
return waits
"""


class Buckets:
    """The round trips of the shared limits on one Redis client: the events counted while one
    round trip is under way go together in the next, in one script call (a worker counts
    every table socket's message: one command each cost the event loop's thread more than the
    rest of handling a move)."""

    def __init__(self, redis: Any) -> None:
        self.script = redis.register_script(_BUCKET)
        self._asked: list[tuple[list[tuple[SharedRateLimit, str]], asyncio.Future[float]]] = []
        self._task: asyncio.Task[None] | None = None
        self.round_trips = 0

    async def hit(self, hits: list[tuple[SharedRateLimit, str]]) -> float:
        """Take a token of each ``(limit, key)``: the longest wait (0.0: allowed)."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[float] = loop.create_future()
        self._asked.append((hits, fut))
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._run())
        return await fut

    async def _run(self) -> None:
        from redis.exceptions import RedisError

        while self._asked:
            asked, self._asked = self._asked, []
            keys: list[str] = []
            args: list[float] = [time.time()]
            for hits, _ in asked:
                for limit, key in hits:
                    keys.append(limit.name(key))
                    args += [limit.local.rate, limit.local.burst]
            try:
                self.round_trips += 1
                waits = [float(w) for w in await self.script(keys=keys, args=args)]
            except RedisError:          # each limit counts by itself until Redis is back
                waits = [limit.local.hit(key) for hits, _ in asked for limit, key in hits]
            except asyncio.CancelledError:
                for _, fut in asked:
                    fut.cancel()
                raise
            except Exception as e:      # not Redis failing: told to every caller waiting
                for _, fut in asked:
                    if not fut.done():
                        fut.set_exception(e)
                continue
            i = 0
            for hits, fut in asked:
                if not fut.done():
                    fut.set_result(max(waits[i:i + len(hits)], default=0.0))
                i += len(hits)


class SharedRateLimit:
    """The bucket of ``local`` (its rate and burst) kept in Redis under ``prefix``, so that every
    worker of a cluster counts the same events (sign-in and sign-up limits). ``hit`` is a
    coroutine with :meth:`RateLimit.hit`'s answer; while Redis cannot be reached it falls back
    to ``local``, this worker's own count. ``buckets``: the round trips it shares with the other
    limits on the same Redis (:class:`Buckets`; :func:`hit_all` counts an event in several)."""

    def __init__(self, local: RateLimit, redis: Any, prefix: str, buckets: Buckets | None = None) -> None:
        self.local = local
        self.prefix = prefix
        self.buckets = buckets or Buckets(redis)
        self._names: dict[str, str] = {}

    def name(self, key: str) -> str:
        """The Redis key of ``key``'s bucket."""
        name = self._names.get(key)
        if name is None:
            if len(self._names) > 10_000:
                self._names.clear()
            name = self._names[key] = self.prefix + hashlib.sha256(key.encode()).hexdigest()[:32]
        return name

    async def hit(self, key: str) -> float:
        return await self.buckets.hit([(self, key)])


async def hit_all(hits: list[tuple[SharedRateLimit, str]]) -> float:
    """Take a token for each ``(limit, key)`` (limits sharing one :class:`Buckets`): the longest
    wait (0.0 when every bucket allowed it), in one round trip to Redis with whatever other
    events are counted at the same moment."""
    return await hits[0][0].buckets.hit(hits) if hits else 0.0
