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
