"""The suite's scheduler (tests/lanes.py), driven as xdist drives it: at most BROWSER_LANES workers
hold browser files at once, every test runs once, each file on one worker, and every worker is
told to stop at the end."""

from __future__ import annotations

import random
from types import SimpleNamespace

from . import lanes


class Worker:
    """A worker as the scheduler sees it: it is sent test indexes and told to shut down."""

    def __init__(self, name: str) -> None:
        self.name, self.queue, self.shutting_down = name, [], False
        self.gateway = SimpleNamespace(id=name)

    def send_runtest_some(self, indexes: list[int]) -> None:
        self.queue += indexes

    def shutdown(self) -> None:
        self.shutting_down = True


def run(files: dict[str, int], workers: int, seed: int) -> tuple[dict[str, set[str]], int]:
    """Run a fake collection (file path: number of tests) on ``workers`` workers that finish
    tests in a random interleaving; returns which workers ran each file and the most workers that
    held unfinished browser files at any moment."""
    config = SimpleNamespace(getvalue=lambda name: {"tx": [f"{workers}*popen"]}[name],
                             option=SimpleNamespace(loadscopereorder=False))
    sched = lanes.LaneScheduling(config, log=None)
    nodes = [Worker(f"gw{i}") for i in range(workers)]
    collection = [f"{path}::test_{i}" for path, count in files.items() for i in range(count)]
    for node in nodes:
        sched.add_node(node)
        sched.add_node_collection(node, collection)
    sched.schedule()
    ran: dict[str, set[str]] = {}
    most, rng = 0, random.Random(seed)
    while True:
        busy = [node for node in nodes if node.queue]
        if not busy:
            break
        node = rng.choice(busy)
        index = node.queue.pop(0)
        ran.setdefault(collection[index].split("::")[0], set()).add(node.name)
        sched.mark_test_complete(node, index)
        holding = {n for n, work in sched.assigned_work.items()
                   for scope, done in work.items() if lanes.is_browser(scope) and not all(done.values())}
        most = max(most, len(holding))
    assert sched.tests_finished and all(node.shutting_down for node in nodes)
    return ran, most


def test_browser_files_never_hold_more_lanes_than_allowed_and_every_file_runs_once(monkeypatch):
    monkeypatch.setattr(lanes, "BROWSER_LANES", 2)
    files = {f"tests/e2e/test_e2e_{i}.py": 1 + i % 4 for i in range(9)}
    files.update({f"tests/test_unit_{i}.py": 1 + i % 5 for i in range(15)})
    for seed in range(40):
        ran, most = run(files, workers=3, seed=seed)
        assert set(ran) == set(files) and all(len(names) == 1 for names in ran.values())
        assert most == 2, seed


def test_a_worker_left_idle_while_the_lanes_are_full_is_stopped_at_the_end(monkeypatch):
    monkeypatch.setattr(lanes, "BROWSER_LANES", 1)
    files = {"tests/e2e/test_e2e_a.py": 3, "tests/e2e/test_e2e_b.py": 2, "tests/test_unit.py": 1}
    for seed in range(20):
        ran, most = run(files, workers=3, seed=seed)
        assert set(ran) == set(files) and most == 1


def test_file_times_sum_each_file_and_each_worker():
    times = lanes.FileTimes()
    for nodeid, seconds, worker in [("tests/a.py::t1", 1.5, "gw0"), ("tests/a.py::t1", 0.25, "gw0"),
                                    ("tests/b.py::t[x]", 4.0, "gw1"), ("tests/a.py::t2", 2.0, "gw0"),
                                    ("tests/c.py::t", 0.5, "gw1")]:
        times.add(nodeid, seconds, worker)
    assert times.files == {"tests/a.py": 3.75, "tests/b.py": 4.0, "tests/c.py": 0.5}
    assert times.lines(2) == ["     4.0 s  gw1   tests/b.py", "     3.8 s  gw0   tests/a.py",
                              "gw0: 3.8 s in 1 files", "gw1: 4.5 s in 2 files"]
