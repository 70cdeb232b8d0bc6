"""Token-bucket rate limits, per key (an account id or a client IP).

A :class:`RateLimit` allows ``burst`` events at once and refills ``rate`` events per second.
``hit(key)`` returns 0 when the event is allowed, else the seconds to wait (the
``retry_after`` of the machine-readable ``rate_limited`` error).
"""

from __future__ import annotations

import time
from collections.abc import Callable


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


#: the token bucket of :class:`RateLimit` in Redis. KEYS[1]: the bucket; ARGV: rate, burst, now
#: (unix seconds). Returns the seconds to wait as text (0 when allowed).
_BUCKET = """
local b = redis.call('HMGET', KEYS[1], 't', 'at')
local rate, burst, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local tokens = tonumber(b[1]) or burst
local at = tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = (1 - tokens) / rate end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return tostring(wait)
"""


class SharedRateLimit:
    """The bucket of ``local`` (its rate and burst) kept in Redis under ``prefix``, so that every
    worker of a cluster counts the same events (sign-in and sign-up limits). ``hit`` is a
    coroutine with :meth:`RateLimit.hit`'s answer; while Redis cannot be reached it falls back
    to ``local``, this worker's own count."""

    def __init__(self, local: RateLimit, redis: object, prefix: str) -> None:
        self.local = local
        self.prefix = prefix
        self._script = redis.register_script(_BUCKET)

    async def hit(self, key: str) -> float:
        import hashlib
        import time

        from redis.exceptions import RedisError

        name = self.prefix + hashlib.sha256(key.encode()).hexdigest()[:32]
        try:
            return float(await self._script(keys=[name], args=[self.local.rate, self.local.burst,
                                                                time.time()]))
        except RedisError:
            return self.local.hit(key)
