"""A server outage decides no no-show (competition.md §4.7, §5.6): a real server process is
killed (SIGKILL) and stopped cleanly while an event's first game waits for its person, the
``no_show_grace`` running out during the outage; after each restart the table waits again with
its whole grace, no walkover declared, and the person who comes then starts the game."""

from __future__ import annotations

import json
import signal
import sqlite3
import time

import httpx
from websockets.sync.client import connect

from .test_server_event_restart import start, stop
from .test_server_serve import free_port, wait_up

GRACE_MS = 600_000


def _outlast_grace(db, table: str) -> None:
    """While the server is down: the grace runs out (as if the outage lasted longer than it)."""
    with sqlite3.connect(db) as con:
        settings = json.loads(con.execute("SELECT settings FROM tables WHERE id = ?", (table,)).fetchone()[0])
        settings["ready_by"] = time.time() - 1
        con.execute("UPDATE tables SET settings = ? WHERE id = ?", (json.dumps(settings), table))


def test_a_restart_gives_the_persons_their_grace_again(tmp_path):
    port = free_port()
    settings = f"bot_delay_ms=0, event_ready_grace_ms={GRACE_MS}, event_between_games_ms=0"
    server = start(tmp_path, port, settings)
    try:
        wait_up(port)
        c = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
        r = c.post("/api/signup", json={"username": "boss", "password": "correct horse"})
        assert r.status_code == 201, r.text
        r = httpx.post(f"http://127.0.0.1:{port}/api/signup",
                       json={"username": "alice", "password": "correct horse"})
        assert r.status_code == 201, r.text
        alice = {"Cookie": f"qipai_session={r.cookies['qipai_session']}"}
        players = ["alice", {"id": "b1", "bot": "random"}]
        r = c.post("/api/events", json={"preset": "s0_gomoku", "event_id": "ev", "players": players})
        assert r.status_code == 201, r.text
        table = c.post("/api/events/ev/start").json()["tables"][0]
        assert c.get(f"/api/tables/{table}").json()["hold"]["kind"] == "ready"
        for sig in (signal.SIGKILL, signal.SIGTERM):
            stop(server, sig)
            _outlast_grace(tmp_path / "qipai.db", table)
            server = start(tmp_path, port, settings)
            wait_up(port)
            t = c.get(f"/api/tables/{table}").json()
            assert t["status"] == "open" and t["hold"]["kind"] == "ready", t
            assert t["hold"]["in_ms"] > GRACE_MS - 60_000, t["hold"]       # the whole grace again
            ev = c.get("/api/events/ev").json()
            assert not ev["rounds"][0]["matches"][0].get("absent"), ev
        # alice comes after the restarts: her game starts
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{table}", additional_headers=alice) as ws:
            end = time.monotonic() + 30
            while True:
                m = json.loads(ws.recv(timeout=max(0.1, end - time.monotonic())))
                if m.get("type") == "state" and m.get("status") == "playing":
                    break
        assert c.get(f"/api/tables/{table}").json()["status"] == "playing"
    finally:
        server.kill()
        server.wait()
