"""Time sources for the match runner: real (monotonic server time) or virtual (tests).

Both give ``now()`` in integer milliseconds and ``wait(awaitable, deadline)``, which waits for
the awaitable until the inclusive ``deadline`` (ms) and reports whether it finished in time.
Nothing ever blocks: deadlines are computed and awaited, never slept in a thread, so a runner
can share an event loop with a web server.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Awaitable
from typing import Any, Protocol


class TimeSource(Protocol):
    def now(self) -> int: ...

    async def sleep(self, ms: int) -> None: ...

    async def wait(self, task: asyncio.Future[Any], deadline: int | None) -> bool: ...


class RealTime:
    """Server time: ``time.monotonic()`` in ms, shifted so that the first reading is ``start``."""

    def __init__(self, start: int = 0) -> None:
        self._origin = time.monotonic() - start / 1000

    def now(self) -> int:
        return int((time.monotonic() - self._origin) * 1000)

    async def sleep(self, ms: int) -> None:
        await asyncio.sleep(max(0, ms) / 1000)

    async def wait(self, task: asyncio.Future[Any], deadline: int | None) -> bool:
        """True when ``task`` is done (at or before ``deadline``), False once it has passed."""
        if deadline is None:
            await asyncio.wait({task})
            return True
        while not task.done():
            left = deadline + 1 - self.now()
            if left <= 0:
                return False
            await asyncio.wait({task}, timeout=left / 1000)
        return True


class VirtualTime:
    """Virtual time for tests and bot-only events: time moves only when every task is waiting.

    ``sleep(ms)`` registers a timer; ``wait(task, deadline)`` lets the event loop run, and when
    nothing is runnable jumps the clock to the earliest timer (a sleeper, or the deadline itself).
    A scripted player that "thinks 25 s" is ``await vt.sleep(25_000)``, and its move arrives at
    exactly T0 + 25000 ms. Only coroutines that wait on this source's timers (or on futures set
    by them) may be used with it.
    """

    def __init__(self, start: int = 0, spins: int = 64) -> None:
        self._now = start
        self._timers: list[tuple[int, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()
        self._spins = spins

    def now(self) -> int:
        return self._now

    def advance(self, ms: int) -> None:
        """Move time forward by hand (between games, in tests)."""
        self._now += ms

    async def sleep(self, ms: int) -> None:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._timers, (self._now + max(0, ms), next(self._seq), fut))
        await fut

    async def _settle(self, task: Awaitable[Any]) -> None:
        """Let every runnable task run (at most ``spins`` rounds of the event loop) until
        ``task`` is done or nothing is left to run: an empty queue of ready callbacks (asyncio's
        own loops keep it in ``_ready``) means only a timer of this source can move things on,
        so spinning on would change nothing (a bot-only event spent most of its time there)."""
        ready = getattr(asyncio.get_running_loop(), "_ready", None)
        for _ in range(self._spins):
            if task.done():
                return
            await asyncio.sleep(0)
            if ready is not None and not ready:
                return

    async def wait(self, task: asyncio.Future[Any], deadline: int | None) -> bool:
        while True:
            await self._settle(task)
            if task.done():
                return True
            while self._timers and self._timers[0][2].done():   # cancelled sleepers
                heapq.heappop(self._timers)
            nxt = self._timers[0][0] if self._timers else None
            if deadline is not None and (nxt is None or nxt > deadline):
                self._now = max(self._now, deadline)   # the deadline passes (reported at it)
                return False
            if nxt is None:
                raise RuntimeError("virtual time: nothing can happen (a player waits forever)")
            t, _, fut = heapq.heappop(self._timers)
            self._now = max(self._now, t)
            fut.set_result(None)
