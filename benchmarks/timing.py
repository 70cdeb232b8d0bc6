"""Measurement shared by the benchmark scripts (each imports it from its own folder).

The machine the benchmarks run on is shared and loaded, so:

* time is **CPU time of this process** (``time.process_time``): other processes do not count;
* the sides of a comparison are **interleaved** in one process: each round runs every side
  once, in an order that rotates from round to round, so a change of load or clock speed
  falls on all sides alike;
* the figure reported is the **median** over the rounds, and a ratio is the median of the
  per-round ratios (both sides of a ratio measured in the same round).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

Clock = Callable[[], float]


def rate(fn: Callable[[], int], seconds: float, clock: Clock = time.process_time) -> float:
    """Units per second of repeated ``fn()`` calls (each returns how many units it did), run
    for at least ``seconds`` of ``clock`` (CPU time of this process by default)."""
    done = 0
    start = clock()
    while True:
        done += fn()
        spent = clock() - start
        if spent >= seconds:
            return done / spent


@dataclass
class Comparison:
    """Per-round rates of each side (units per CPU second), from :func:`compare`."""

    rounds: dict[str, list[float]] = field(default_factory=dict)

    def median(self, side: str) -> float:
        """The median rate of ``side`` over the rounds."""
        return statistics.median(self.rounds[side])

    def ratio(self, side: str, other: str) -> float:
        """The median over the rounds of ``side``'s rate divided by ``other``'s."""
        return statistics.median(a / b for a, b in zip(self.rounds[side], self.rounds[other]))

    def spread(self, side: str) -> float:
        """(max - min) / median of ``side``'s rates: how steady the rounds were."""
        rs = self.rounds[side]
        return (max(rs) - min(rs)) / statistics.median(rs)


def compare(sides: dict[str, Callable[[], int]], seconds: float = 1.0, rounds: int = 5,
            clock: Clock = time.process_time) -> Comparison:
    """Run every side of ``sides`` (name -> ``fn`` as for :func:`rate`) for ``seconds`` per
    round, ``rounds`` times, interleaved (round ``r`` starts with side ``r mod n``)."""
    names = list(sides)
    out = Comparison({name: [] for name in names})
    for r in range(rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        got = {name: rate(sides[name], seconds, clock) for name in order}
        for name in names:
            out.rounds[name].append(got[name])
    return out


def build_note() -> str:
    """Which build of qipai's hot modules this process runs (``qipai.native``: each compiled
    group is used only when built from the source on disk; ``QIPAI_PURE=1`` forces Python)."""
    from qipai import native

    return "qipai build: " + ", ".join(f"{g} {s}" for g, s in native.status().items())


def once(fn: Callable[[], object], clock: Clock = time.process_time) -> float:
    """CPU seconds of one call of ``fn()``."""
    start = clock()
    fn()
    return clock() - start
