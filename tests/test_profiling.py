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


def test_sections_alone_without_cprofile(tmp_path, monkeypatch):
    """QIPAI_PROFILE_CLOCK=none: the sections are written, no cProfile runs."""
    monkeypatch.setattr(profiling, "FOLDER", str(tmp_path))
    monkeypatch.setattr(profiling, "_times", {})
    monkeypatch.setenv("QIPAI_PROFILE_CLOCK", "none")
    profiling.start("worker-test")
    try:
        assert profiling._profiler is None
        profiling.note("x", 0.002)
    finally:
        profiling.dump()
    assert not list(tmp_path.glob("*.prof"))
    [out] = tmp_path.glob("worker-test-*.json")
    assert json.loads(out.read_text())["x"]["n"] == 1


def test_a_sockets_answer_is_timed_once_its_writes_are_durable(monkeypatch, tmp_path):
    """ws.ack: from a move received to the first text queued after the table's next write that
    is sent, which waits for the commit; a text queued before that write does not answer it."""
    import asyncio

    from qipai.server.conns import Conn
    from qipai.server.store import Gate

    monkeypatch.setattr(profiling, "FOLDER", str(tmp_path))
    monkeypatch.setattr(profiling, "_times", {})

    async def scenario():
        sent: list[str] = []

        async def send(text: str) -> None:
            sent.append(text)

        gate = Gate("t1")
        gate.logged = 1                             # a write not yet durable
        conn = Conn(send, 1, gate)
        conn.start()
        conn.mark(0.0)                              # the move, applied later by the runner
        conn.mark(5.0)                              # a second one before the answer: not timed
        conn.put("before")                          # queued before the move's write (tag 1)
        gate.logged += 1                            # the move's row appended ...
        conn.put("state")                           # ... and its state queued
        for _ in range(5):
            await asyncio.sleep(0)
        assert sent == [] and "ws.ack" not in profiling.summary()     # nothing durable yet
        gate.advance(gate.logged)
        for _ in range(5):
            await asyncio.sleep(0)
        assert sent == ["before", "state"]
        conn.close()
        await conn.wait(1.0)

    asyncio.run(scenario())
    assert profiling.summary()["ws.ack"]["n"] == 1
