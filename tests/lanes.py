"""How the suite's files are spread over pytest-xdist workers (``-n auto --dist loadfile``).

Most of the suite waits: on its servers, bots, clocks and browsers. One more worker than cores,
scheduled freely, ran three browsers with their servers and bots at once on two cores, and
browser tests timed out. :class:`LaneScheduling` lets at most :data:`BROWSER_LANES` workers hold
a browser file at a time (one per core): with more workers than that (``-n auto`` starts one
more than the cores: tests/conftest.py; ``-n N`` or ``PYTEST_XDIST_AUTO_NUM_WORKERS``), the
others take the files that need no browser meanwhile.

It is xdist's own file scheduling (a file's tests stay on one worker, in the collection order
tests/conftest.py gives) with one change: a worker asking for work takes the first file it may
take, not always the first file.
"""

from __future__ import annotations

import os

from xdist.scheduler import LoadFileScheduling


def cores() -> int:
    """The cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


#: how many workers may run browser files at once
BROWSER_LANES = max(1, cores())


def is_browser(scope: str) -> bool:
    """Whether a file (an xdist scope: its path) drives a browser."""
    return "/e2e/" in scope


class LaneScheduling(LoadFileScheduling):
    """:class:`xdist.scheduler.LoadFileScheduling` with at most :data:`BROWSER_LANES` workers
    holding unfinished browser files at once."""

    def _browsers_elsewhere(self, node) -> int:
        """How many workers other than ``node`` hold a browser file with tests still to run."""
        return sum(
            1 for other, work in self.assigned_work.items()
            if other is not node and any(
                is_browser(scope) and not all(done.values()) for scope, done in work.items()))

    def _assign_work_unit(self, node) -> None:
        """Send ``node`` the first file in the queue it may take (none while every browser lane
        is taken and only browser files are left)."""
        self.assigned_work.setdefault(node, {})
        full = self._browsers_elsewhere(node) >= BROWSER_LANES
        for scope in self.workqueue:
            if not (full and is_browser(scope)):
                break
        else:
            return
        work_unit = self.workqueue.pop(scope)
        self.assigned_work[node][scope] = work_unit
        collection = self.registered_collections[node]
        node.send_runtest_some([collection.index(nodeid) for nodeid, done in work_unit.items() if not done])

    def mark_test_complete(self, node, item_index: int, duration: float = 0) -> None:
        """As xdist does, then give work to the workers left idle while the lanes were full (and
        stop them once nothing is left)."""
        super().mark_test_complete(node, item_index, duration)
        for other in self.nodes:
            if other is not node and not self._pending_of(self.assigned_work.setdefault(other, {})):
                self._reschedule(other)


class FileTimes:
    """The time each file's tests took (setup, call and teardown summed) and on which worker,
    from the test reports the run's main process receives; the run's summary gives the longest
    files and each worker's total, so that a CI log shows where the time of a run went file by
    file and how evenly the workers shared it (``--durations`` shows tests only)."""

    def __init__(self) -> None:
        self.files: dict[str, float] = {}
        self.worker_of: dict[str, str] = {}

    def add(self, nodeid: str, seconds: float, worker: str = "main") -> None:
        path = nodeid.split("::", 1)[0]
        self.files[path] = self.files.get(path, 0.0) + seconds
        self.worker_of.setdefault(path, worker)

    def lines(self, longest: int = 30) -> list[str]:
        """The ``longest`` files, longest first (seconds, worker, path), then each worker's total
        and number of files."""
        out = [f"{t:8.1f} s  {self.worker_of[p]:<5} {p}"
               for p, t in sorted(self.files.items(), key=lambda kv: (-kv[1], kv[0]))[:longest]]
        totals: dict[str, list] = {}
        for p, t in self.files.items():
            seen = totals.setdefault(self.worker_of[p], [0.0, 0])
            seen[0] += t
            seen[1] += 1
        out += [f"{w}: {t:.1f} s in {n} files" for w, (t, n) in sorted(totals.items())]
        return out
