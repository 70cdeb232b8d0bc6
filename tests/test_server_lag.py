"""A large event is made off the event loop: while an organizer creates a 1,024-entrant event
(the draw, round 1's pairings and their games written) and reads it back, another table's
ping round trips over its WebSocket stay short (it took 11 s when all of it ran on the loop)."""

from __future__ import annotations

import json
import threading
import time

import httpx
from websockets.sync.client import connect

from .test_server_event_restart import start
from .test_server_serve import free_port, wait_up

#: the worst ping round trip allowed while the event is made (a loaded 2-core machine included)
BOUND_MS = 200


def test_creating_a_1024_entrant_event_does_not_stall_other_tables(tmp_path):
    port = free_port()
    lim = "limits=Limits(moves_account=(1e6, 10**6), moves_ip=(1e6, 10**6))"
    server = start(tmp_path, port, lim)
    try:
        wait_up(port)
        c = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120)
        r = c.post("/api/signup", json={"username": "boss", "password": "correct horse"})
        assert r.status_code == 201, r.text
        table = c.post("/api/tables", json={"game": "xiangqi", "bots": 1, "settings": {"clock": "none"}})
        cookie = f"qipai_session={c.cookies['qipai_session']}"
        gaps: list[tuple[float, float]] = []           # (when, round trip ms)
        done = threading.Event()

        def pinger() -> None:
            with connect(f"ws://127.0.0.1:{port}/ws/tables/{table.json()['id']}",
                         additional_headers={"Cookie": cookie}) as sock:
                while not done.is_set():
                    sent = time.perf_counter()
                    sock.send(json.dumps({"type": "ping"}))
                    while json.loads(sock.recv(timeout=30))["type"] != "pong":
                        pass
                    gaps.append((time.monotonic(), (time.perf_counter() - sent) * 1000))
                    time.sleep(0.01)

        thread = threading.Thread(target=pinger, daemon=True)
        thread.start()
        time.sleep(0.5)
        began = time.monotonic()
        players = [{"id": f"p{i}", "bot": "random"} for i in range(1024)]
        r = c.post("/api/events", json={"preset": "s3_gomoku", "event_id": "big", "players": players})
        assert r.status_code == 201, r.text
        assert len(r.json()["entrants"]) == 1024 and len(r.json()["rounds"][0]["matches"]) == 512
        assert c.get("/api/events/big").json()["current_round"] == 1
        ended = time.monotonic()
        done.set()
        thread.join(30)
        during = [ms for at, ms in gaps if began <= at <= ended + 0.1]
        assert len(during) >= 10, (ended - began, gaps[-5:])      # the table answered all along
        assert max(during) < BOUND_MS, (round(ended - began, 2), sorted(during)[-5:])
    finally:
        server.terminate()
        server.communicate(timeout=30)
