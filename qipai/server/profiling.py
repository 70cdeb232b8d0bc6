"""Measuring hooks for load tests (off unless ``$QIPAI_PROFILE`` names a folder).

With ``QIPAI_PROFILE=/some/folder`` each server process (a cluster worker, its writer process)
profiles its main thread with :mod:`cProfile` (in wall time; with ``QIPAI_PROFILE_CLOCK=cpu``
in the thread's CPU time, so that on a loaded machine the time the process waited for a core —
or for the Redis or PostgreSQL it just woke to run first — is not charged to whatever call it
was in; that clock is a system call at every function call and return, and slows the process
several times over; with ``QIPAI_PROFILE_CLOCK=none`` no cProfile at all, the sections alone,
which cost a clock read each and leave the process's speed as it is) and keeps wall-time
histograms of the sections
timed with :func:`timed` / :func:`note`; at exit it writes ``<folder>/<role>-<pid>.prof`` (read
with ``python -m pstats``) and ``<folder>/<role>-<pid>.json`` (each section: count, total,
p50, p90, p99, max in ms). Unset, :func:`note` returns at once and nothing else runs.
"""

from __future__ import annotations

import atexit
import json
import os
import time
from typing import Any

FOLDER = os.environ.get("QIPAI_PROFILE") or None
_times: dict[str, list[float]] = {}
_profiler: Any = None
_started = False
_role = "server"


def note(name: str, seconds: float) -> None:
    """Count ``seconds`` of section ``name`` (nothing when profiling is off)."""
    if FOLDER is not None:
        _times.setdefault(name, []).append(seconds)


class timed:
    """``with timed("name"):`` — :func:`note` the block's wall time."""

    __slots__ = ("name", "t0")

    def __init__(self, name: str) -> None:
        self.name = name

    def __enter__(self) -> None:
        self.t0 = time.perf_counter()

    def __exit__(self, *exc: Any) -> None:
        note(self.name, time.perf_counter() - self.t0)


def start(role: str) -> None:
    """Profile this process from now on, written at exit (when ``$QIPAI_PROFILE`` is set)."""
    global _profiler, _role, _started
    if FOLDER is None or _started:
        return
    _started = True
    _role = role
    os.makedirs(FOLDER, exist_ok=True)
    clock = os.environ.get("QIPAI_PROFILE_CLOCK")
    if clock != "none":
        import cProfile

        _profiler = cProfile.Profile(time.thread_time) if clock == "cpu" else cProfile.Profile()
        _profiler.enable()
    atexit.register(dump)
    if role == "worker":
        import signal
        import sys

        # uvicorn raises SIGTERM again after its graceful shutdown (no atexit then): this
        # handler, put back by uvicorn before that, writes the files and exits
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))


def summary() -> dict[str, dict[str, float]]:
    out = {}
    for name, xs in sorted(_times.items()):
        s = sorted(xs)
        n = len(s)
        out[name] = {"n": n, "total_s": round(sum(s), 3),
                     **{f"p{q}": round(s[min(n - 1, int(n * q / 100))] * 1000, 3) for q in (50, 90, 99)},
                     "max": round(s[-1] * 1000, 3)}
    return out


def dump() -> None:
    global _started
    if not _started:
        return
    _started = False
    base = os.path.join(FOLDER, f"{_role}-{os.getpid()}")
    if _profiler is not None:
        _profiler.disable()
        _profiler.dump_stats(base + ".prof")
    with open(base + ".json", "w") as f:
        json.dump(summary(), f, indent=1)
