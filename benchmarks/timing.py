"""Timing shared by the benchmark scripts (each imports it from its own folder)."""

from __future__ import annotations

import time
from collections.abc import Callable


def rate(fn: Callable[[], int], seconds: float, clock: Callable[[], float] = time.perf_counter) -> float:
    """Units per second of repeated ``fn()`` calls (each returns how many units it did), run for
    ``seconds`` of ``clock`` (wall time by default; ``time.process_time`` for CPU time)."""
    done = 0
    start = clock()
    while clock() - start < seconds:
        done += fn()
    return done / (clock() - start)
