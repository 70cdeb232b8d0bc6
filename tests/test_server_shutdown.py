"""``qipai serve`` stopped by SIGTERM leaves no process behind: the search bots' pool (its
workers, the forkserver that made them, the resource tracker) stops with the server."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import httpx
import pytest

from .server_helpers import LiveServer

PASSWORD = "correct horse"


def descendants(pid: int) -> set[int]:
    """The live processes under ``pid`` (from /proc: parent links; zombies left out)."""
    parent: dict[int, int] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z":
            parent[int(d.name)] = int(fields[1])
    out: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parent.items() if pp == p and c not in out]
        out.update(kids)
        todo.extend(kids)
    return out


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return state[state.rindex(")") + 2] != "Z"


def test_sigterm_stops_the_search_bots_processes(tmp_path):
    with LiveServer(tmp_path, env={"QIPAI_BOT_WORKERS": "1"}) as live:
        c = httpx.Client(base_url=live.base, timeout=10)
        assert c.post("/api/signup", json={"username": "watcher", "password": PASSWORD}).status_code == 201
        r = c.post("/api/tables", json={"game": "gomoku", "sit": False, "bots": 2, "level": 3,
                                        "settings": {"clock": "none"}})
        assert r.status_code == 201, r.text
        deadline = time.monotonic() + 60
        kids: set[int] = set()
        while time.monotonic() < deadline and len(kids) < 3:     # forkserver, worker, tracker
            kids = descendants(live.proc.pid)
            time.sleep(0.1)
        assert len(kids) >= 3, (kids, live.log_text())
        live.proc.send_signal(signal.SIGTERM)
        live.proc.wait(20)
        deadline = time.monotonic() + 30      # gone at once, unless a loaded machine holds them
        while time.monotonic() < deadline and any(alive(p) for p in kids):
            time.sleep(0.05)
        left = {p: Path(f"/proc/{p}/cmdline").read_bytes()[:200] for p in kids if alive(p)}
        for p in left:                         # not to leave them running after a failure
            os.kill(p, signal.SIGKILL)
        assert not left, left


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_after_bot_and_event_games_reports_no_leaked_semaphore(tmp_path, sig):
    """Stopped (Ctrl+C or SIGTERM) after an event's bot games, with the event worker and the
    search bots' pools running, the server closes both pools before the resource tracker stops:
    it said "resource_tracker: There appear to be 5 leaked semaphore objects to clean up at
    shutdown", then the queues' own clean-up failed on the semaphores the tracker had removed."""
    with LiveServer(tmp_path, "--organizer", "boss", env={"QIPAI_BOT_WORKERS": "1"}) as live:
        c = httpx.Client(base_url=live.base, timeout=30)
        assert c.post("/api/signup", json={"username": "boss", "password": PASSWORD}).status_code == 201
        r = c.post("/api/events", json={"preset": "s2_doudizhu", "event_id": "dz",
                                        "players": [{"id": f"b{i}", "bot": "mcts3"} for i in range(3)]})
        assert r.status_code == 201, r.text
        assert c.post("/api/events/dz/start").status_code == 200
        deadline = time.monotonic() + 60
        kids: set[int] = set()     # the event worker; the search pool's forkserver, worker, tracker
        while time.monotonic() < deadline and len(kids) < 4:
            kids = descendants(live.proc.pid)
            time.sleep(0.1)
        assert len(kids) >= 4, (kids, live.log_text())
        live.proc.send_signal(sig)
        live.proc.wait(30)
        log = live.log_text()
        assert "Application shutdown complete" in log, log
        assert "leaked semaphore" not in log and "Exception ignored" not in log, log
