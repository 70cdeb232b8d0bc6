"""A measuring probe for load tests: the event loop's lag and the garbage collector's pauses.

Off unless ``Settings.probe_file`` names a file (``benchmarks/server_load.py`` sets it). Every
``interval`` seconds a task asks to be woken ``tick`` seconds later; how late it wakes is the
event loop's lag (how long a ready callback, such as a move just read from a socket, waits for
the loop). Every second one JSON line is appended to the file::

    {"t": unix seconds, "ticks": n, "lag_max_ms": float, "lag_p99_ms": float,
     "gc": [[collections, longest pause ms] for generations 0, 1, 2], "rss_mb": float}

Nothing is served over the network: the file is for the person running the test.
"""

from __future__ import annotations

import asyncio
import gc
import json
import time
from pathlib import Path
from typing import Any

TICK = 0.005          # seconds between two wake-ups of the probe


class Probe:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.lags: list[float] = []
        self.gc = [[0, 0.0] for _ in range(3)]
        self._gc_start = 0.0
        self.task: asyncio.Task[None] | None = None

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
            return
        gen = self.gc[info["generation"]]
        gen[0] += 1
        gen[1] = max(gen[1], (time.perf_counter() - self._gc_start) * 1000)

    def start(self) -> None:
        gc.callbacks.append(self._on_gc)
        self.task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)
        if self.task:
            self.task.cancel()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        second = loop.time() + 1
        while True:
            asked = loop.time()
            await asyncio.sleep(TICK)
            now = loop.time()
            self.lags.append((now - asked - TICK) * 1000)
            if now >= second:
                second = now + 1
                self._write()

    def _write(self) -> None:
        lags = sorted(self.lags) or [0.0]
        line = {"t": round(time.time(), 3), "ticks": len(self.lags), "lag_max_ms": round(lags[-1], 2),
                "lag_p99_ms": round(lags[int(len(lags) * 0.99)], 2),
                "gc": [[n, round(ms, 2)] for n, ms in self.gc], "rss_mb": round(rss_mb(), 1)}
        self.lags = []
        self.gc = [[0, 0.0] for _ in range(3)]
        with self.path.open("a") as f:
            f.write(json.dumps(line) + "\n")


def rss_mb(pid: int | str = "self") -> float:
    """Resident memory of process ``pid`` in MB (Linux /proc; 0 elsewhere)."""
    return _status_kb(pid, "VmRSS") / 1024


def peak_rss_mb(pid: int | str = "self") -> float:
    """The highest resident memory process ``pid`` has had, in MB (Linux /proc; 0 elsewhere)."""
    return _status_kb(pid, "VmHWM") / 1024


def _status_kb(pid: int | str, key: str) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return float(line.split()[1])
    except OSError:
        pass
    return 0.0
