"""The trusteeship and restart rules of competition.md §4.6–4.7 at event tables, as at lobby
tables: a player entrusts its seat (托管) and takes it back; a referee's pause stays in force
across a restart of the server process, and resuming then gives back exactly what was left."""

from __future__ import annotations

import signal
import time

import httpx

from .e2e.timing import until as within
from .server_helpers import client, post, signup, until, ws
from .test_server_event_restart import start, stop
from .test_server_serve import free_port, wait_up


def test_trusteeship_at_an_event_card_table(tmp_path):
    with client(tmp_path, bot_delay_ms=0, spectator_delay_ms=0) as c:
        boss = signup(c, "boss")
        alice = signup(c, "alice")
        players = ["alice", {"id": "b1", "bot": "random"}, {"id": "b2", "bot": "random"}]
        assert post(c, boss, "/api/events", {"preset": "s2_doudizhu", "event_id": "ddz",
                                              "players": players}).status_code == 201
        tid = next(t for t in post(c, boss, "/api/events/ddz/start").json()["tables"]
                   if any(s and s["name"] == "alice" for s in c.get(f"/api/tables/{t}").json()["seats"]))
        with ws(c, alice, tid) as s:
            first = until(s, lambda m: m["type"] == "state")
            seat = first["seat"]
            s.send_json({"type": "entrust"})
            on = until(s, lambda m: m["type"] == "event" and m["event"]["type"] == "trusteeship")
            assert on["event"]["on"] is True and on["event"]["seat"] == seat
            mine = until(s, lambda m: m["type"] == "state" and seat in m["to_act"]
                         and m["clocks"][seat].get("trustee"))
            after = until(s, lambda m: m["type"] == "state")
            assert after["seq"] == mine["seq"] + 1          # played by the default action
            s.send_json({"type": "resume"})
            off = until(s, lambda m: m["type"] == "event" and m["event"]["type"] == "trusteeship")
            assert off["event"]["on"] is False and off["event"]["why"] == "resume"


def test_a_referee_pause_holds_across_a_restart_and_resume_gives_back_the_time(tmp_path):
    port = free_port()
    server = start(tmp_path, port, "nonce_window_ms=0")
    try:
        wait_up(port)
        c = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
        for name in ("boss", "alice", "bob"):
            r = c.post("/api/signup", json={"username": name, "password": "correct horse"})
            assert r.status_code == 201, r.text
        c.post("/api/login", json={"username": "boss", "password": "correct horse"})
        assert c.post("/api/events", json={"preset": "s3_xiangqi", "event_id": "xq",
                                           "players": ["alice", "bob"]}).status_code == 201
        table = c.post("/api/events/xq/start").json()["tables"][0]

        def console_table():
            return next(x for x in c.get("/api/events/xq/console").json()["tables"] if x["id"] == table)
        for _ in within(30):
            tb = console_table()
            if tb["clocks"]:
                break
            time.sleep(0.05)
        time.sleep(0.5)
        r = c.post("/api/events/xq/acts", json={"act": "pause", "table": table, "reason": "power cut"})
        assert r.status_code == 200, r.text
        for _ in within(30):
            tb = console_table()
            if tb["paused"]:
                break
            time.sleep(0.05)
        seat = tb["to_act"][0]
        left = tb["clocks"][seat]["deadline"] - tb["paused_at"]      # what the seat had left
        stop(server, signal.SIGKILL)
        server = start(tmp_path, port, "nonce_window_ms=0")
        wait_up(port)
        time.sleep(1.0)
        tb = console_table()
        assert tb["paused"] is True                       # still paused after the restart
        # §4.7: the turn restarts with the allowance it had when it began (time lost is never
        # charged), so what is left is at least what was left at the pause
        assert tb["clocks"][seat]["deadline"] - tb["paused_at"] >= left
        again = tb["clocks"][seat]["deadline"] - tb["paused_at"]
        time.sleep(0.5)
        r = c.post("/api/events/xq/acts", json={"act": "resume", "table": table, "reason": "power back"})
        assert r.status_code == 200, r.text
        for _ in within(30):
            tb = console_table()
            if not tb["paused"]:
                break
            time.sleep(0.05)
        # resumed: exactly what was left at the pause, counted from the resume
        resumed = [e for e in c.get("/api/events/xq/log").json() if e["act"] == "resume"]
        assert resumed and resumed[-1]["by"] == "boss"
        assert tb["clocks"][seat]["deadline"] - tb["now"] <= again
        assert tb["clocks"][seat]["deadline"] - tb["now"] >= again - 2_000
    finally:
        stop(server, signal.SIGTERM)
