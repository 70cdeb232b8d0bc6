"""An event survives restarts of a real server process: stopped cleanly in the middle of a round
and killed (SIGKILL) in the middle of a game, it goes on by itself — the next games of the
started round are seated at once after the restart, no event game is seated twice — and reaches
its champion."""

from __future__ import annotations

import signal
import sqlite3
import time
from pathlib import Path

import httpx

from .server_process import Served, output_files, python_process
from .test_server_serve import free_port, wait_up


def start(data: Path, port: int, settings: str = "bot_delay_ms=8") -> Served:
    """``qipai.server.serve`` in a process of its own (forked from the zygote: tests/server_process.py
    ``python_process``), on a SQLite file in ``data``; ``settings``: more keyword arguments of
    :class:`~qipai.server.Settings` (Python text)."""
    code = ("from qipai.server import Limits, Settings, serve; "
            f"serve('127.0.0.1', {port}, Settings(database_url='sqlite:///{data}/qipai.db', "
            f"{settings}), log_level='warning')")
    return python_process(code, *output_files())


def stop(proc: Served, sig: int) -> None:
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert "Traceback" not in err, err


def wait_for(c: httpx.Client, event: str, done, what: str, seconds: float = 60) -> dict:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ev = c.get(f"/api/events/{event}").json()
        if done(ev):
            return ev
        time.sleep(0.05)
    raise AssertionError(f"{what}: {ev}")


def games(ev: dict, rnd: int | None = None) -> list[dict]:
    return [g for r in ev["rounds"] if rnd in (None, r["round"]) for m in r["matches"] for g in m["games"]]


def test_an_event_goes_on_to_its_champion_across_a_clean_stop_and_a_kill(tmp_path):
    port = free_port()
    server = start(tmp_path, port)
    try:
        wait_up(port)
        c = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
        r = c.post("/api/signup", json={"username": "boss", "password": "correct horse"})
        assert r.status_code == 201, r.text
        players = [{"id": f"b{i}", "bot": "random"} for i in range(4)]
        r = c.post("/api/events", json={"preset": "s3_gomoku", "event_id": "cup", "players": players})
        assert r.status_code == 201, r.text
        assert len(c.post("/api/events/cup/start").json()["tables"]) == 2
        # round 1: two matches of at least two games each, one after another; stop cleanly as soon
        # as a first game is over, the matches' next games still to be seated
        ev = wait_for(c, "cup", lambda ev: any(g["status"] == "finished" for g in games(ev)), "no game ended")
        stop(server, signal.SIGTERM)
        assert not all(g["status"] == "finished" for g in games(ev, 1))
        server = start(tmp_path, port)
        wait_up(port)
        ev = c.get("/api/events/cup").json()
        assert ev["started_round"] == 1                  # kept across the restart
        # nobody presses "start": the round finishes by itself
        ev = wait_for(c, "cup", lambda ev: ev["current_round"] == 2, "round 1 did not go on")
        assert c.post("/api/events/cup/start").status_code == 200
        # the final: kill the server while its first game is played
        wait_for(c, "cup", lambda ev: any(g["table"] for g in games(ev, 2)), "the final was not seated")
        time.sleep(0.6)
        stop(server, signal.SIGKILL)
        server = start(tmp_path, port)
        wait_up(port)
        ev = wait_for(c, "cup", lambda ev: ev["status"] == "finished", "the event did not finish")
        assert ev["outcome"]["champion"] in {p["id"] for p in players}
        assert all(g["status"] == "finished" and g["record"] for g in games(ev))
        # every event game was played at exactly one table
        with sqlite3.connect(tmp_path / "qipai.db") as con:
            rows = con.execute("SELECT event_game, status FROM tables WHERE event_id = 'cup'").fetchall()
        assert sorted(g for g, _ in rows) == sorted(g["id"] for g in games(ev))
        assert {s for _, s in rows} == {"finished"}
    finally:
        if server.poll() is None:
            server.terminate()
            server.communicate(timeout=30)
