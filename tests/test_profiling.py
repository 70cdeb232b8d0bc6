"""The measuring hook of load tests (QIPAI_PROFILE): off, it keeps nothing; on, a process writes
its cProfile and its timed sections' histograms when it stops."""

from __future__ import annotations

import json
import pstats

from qipai.server import profiling


def test_sections_are_kept_only_while_profiling_and_written_with_the_profile(tmp_path, monkeypatch):
    monkeypatch.setattr(profiling, "FOLDER", None)
    monkeypatch.setattr(profiling, "_times", {})
    profiling.note("off", 0.5)
    assert profiling.summary() == {}
    monkeypatch.setattr(profiling, "FOLDER", str(tmp_path))
    monkeypatch.setattr(profiling, "_profiler", None)
    profiling.start("writer")
    try:
        for ms in (1, 2, 3, 40):
            profiling.note("commit", ms / 1000)
        with profiling.timed("block"):
            sum(range(1000))
    finally:
        profiling.dump()
        monkeypatch.setattr(profiling, "_profiler", None)
    [prof] = tmp_path.glob("writer-*.prof")
    assert pstats.Stats(str(prof)).total_calls > 0
    got = json.loads(prof.with_suffix(".json").read_text())
    assert got["commit"]["n"] == 4 and got["commit"]["p50"] == 3.0 and got["commit"]["max"] == 40.0
    assert got["block"]["n"] == 1
