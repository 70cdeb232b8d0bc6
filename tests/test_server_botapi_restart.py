"""A move the Bot API acknowledged survives kill -9 of the server (competition.md §5.8): two bots
play xiangqi over HTTP, the server is killed right after an acknowledged move, and after the
restart the game goes on from that move — the token, the event stream's gameStart and the game
stream work again."""

from __future__ import annotations

import json
import signal

import httpx

from .botapi_helpers import bearer, bot_token, person
from .server_helpers import LiveServer


def test_an_acknowledged_move_survives_kill_9(tmp_path):
    moves = ["h2e2", "h7e7", "b0c2", "b9c7", "a0a1"]
    with LiveServer(tmp_path) as srv:
        owner = person(srv.base, "owner")
        a = bot_token(owner, "redbot", ["bot:play", "challenge:write"])["token"]
        b = bot_token(owner, "blackbot", ["bot:play"])["token"]
        with httpx.Client(base_url=srv.base, timeout=30) as http:
            cid = http.post("/api/bot/challenge/blackbot", headers=bearer(a), json={
                "game": "xiangqi", "settings": {"clock": "none"}, "seat": 0}).json()["id"]
            table = http.post(f"/api/bot/challenge/{cid}/accept", headers=bearer(b)).json()["table"]
            for tok in (a, b):
                assert http.post(f"/api/bot/game/{table}/nonce/ab", headers=bearer(tok)).status_code == 200
            for i, move in enumerate(moves):
                r = http.post(f"/api/bot/game/{table}/move/{move}", params={"seq": i},
                              headers=bearer(a if i % 2 == 0 else b))
                assert r.status_code == 200 and r.json()["seq"] == i + 1, r.text
        srv.proc.send_signal(signal.SIGKILL)          # at once after the last acknowledgement
        srv.proc.wait(10)
    with LiveServer(tmp_path) as srv, httpx.Client(base_url=srv.base, timeout=30) as http:
        with http.stream("GET", "/api/bot/stream/event", headers=bearer(b)) as s:
            first = json.loads(next(line for line in s.iter_lines() if line.strip()))
        assert first["type"] == "gameStart" and first["game"]["id"] == table
        with http.stream("GET", f"/api/bot/game/stream/{table}", headers=bearer(b)) as s:
            msgs = (json.loads(x) for x in s.iter_lines() if x.strip())
            state = next(m for m in msgs if m["type"] == "state")
        assert state["seq"] == len(moves) and state["view"]["last_move"] == moves[-1]
        assert [e["text"] for e in state["moves"]["list"]] == moves
        r = http.post(f"/api/bot/game/{table}/move/h9g7", params={"seq": len(moves)}, headers=bearer(b))
        assert r.status_code == 200 and r.json()["seq"] == len(moves) + 1, r.text
