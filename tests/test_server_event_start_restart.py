"""A server outage decides no no-show (competition.md §4.7, §5.6): a real server process is
killed (SIGKILL) and stopped cleanly while an event's first game waits for its person, the
``no_show_grace`` running out during the outage; after each restart the table waits again with
its whole grace, no walkover declared, and the person who comes then starts the game. So with
the pause between a match's games: a game waiting for it when the server stops waits the whole
pause again after the restart, its clocks not running before its players could come back."""

from __future__ import annotations

import contextlib
import json
import signal
import sqlite3
import time

import httpx
from websockets.sync.client import connect

from .test_server_event_restart import start, stop
from .test_server_serve import free_port, wait_up

GRACE_MS = 600_000


def _outlast_grace(db, table: str, key: str = "ready_by") -> None:
    """While the server is down: the grace (``key``: or the pause between games, ``start_at``)
    runs out (as if the outage lasted longer than it)."""
    with sqlite3.connect(db) as con:
        settings = json.loads(con.execute("SELECT settings FROM tables WHERE id = ?", (table,)).fetchone()[0])
        settings[key] = time.time() - 1
        con.execute("UPDATE tables SET settings = ? WHERE id = ?", (json.dumps(settings), table))


@contextlib.contextmanager
def _serving(tmp_path, settings: str):
    """A real server process on a SQLite file in ``tmp_path``, its first account (``boss``, an
    organizer) signed up: ``(port, boss's client, [the server process])``, the process replaced
    by :func:`_restart`."""
    port = free_port()
    server = [start(tmp_path, port, settings)]
    try:
        wait_up(port)
        c = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
        r = c.post("/api/signup", json={"username": "boss", "password": "correct horse"})
        assert r.status_code == 201, r.text
        yield port, c, server
    finally:
        server[0].kill()
        server[0].wait()


def _restart(tmp_path, port: int, settings: str, server: list, sig: int, table: str, key: str) -> None:
    """Stop the server with ``sig``, let the hold ``key`` of ``table`` run out meanwhile, start
    it again."""
    stop(server[0], sig)
    _outlast_grace(tmp_path / "qipai.db", table, key)
    server[0] = start(tmp_path, port, settings)
    wait_up(port)


def test_a_restart_gives_the_persons_their_grace_again(tmp_path):
    settings = f"bot_delay_ms=0, event_ready_grace_ms={GRACE_MS}, event_between_games_ms=0"
    with _serving(tmp_path, settings) as (port, c, server):
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
            _restart(tmp_path, port, settings, server, sig, table, "ready_by")
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


PAUSE_MS = 600_000


def test_a_restart_gives_the_pause_between_games_again(tmp_path):
    settings = f"bot_delay_ms=0, event_ready_grace_ms=0, event_between_games_ms={PAUSE_MS}"
    with _serving(tmp_path, settings) as (port, c, server):
        players = [{"id": "b1", "bot": "random"}, {"id": "b2", "bot": "random"}]
        r = c.post("/api/events", json={"preset": "s0_gomoku", "event_id": "ev", "players": players})
        assert r.status_code == 201, r.text
        first = c.post("/api/events/ev/start").json()["tables"][0]
        # the bots play game 1 at once; game 2 is seated, held for the pause between games
        end = time.monotonic() + 60
        while True:
            games = c.get("/api/events/ev").json()["rounds"][0]["matches"][0]["games"]
            second = next((g["table"] for g in games if g["number"] == 2 and g["table"]), None)
            if second and (r := c.get(f"/api/tables/{second}")).status_code == 200:
                break
            assert time.monotonic() < end, games
            time.sleep(0.05)
        assert second != first and r.json()["hold"]["kind"] == "between", r.json()
        for sig in (signal.SIGKILL, signal.SIGTERM):
            _restart(tmp_path, port, settings, server, sig, second, "start_at")
            t = c.get(f"/api/tables/{second}").json()
            assert t["status"] == "open" and t["hold"]["kind"] == "between", t
            assert t["hold"]["in_ms"] > PAUSE_MS - 60_000, t["hold"]        # the whole pause again
