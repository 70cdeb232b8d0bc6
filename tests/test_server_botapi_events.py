"""A bot program at an event (competition.md §5.6, §6.6) over the real Bot API: its account's
seat is waited for as a person's, and the program is there — ready — while its event stream is
open: a first game held for it starts when it connects, or at once when it is connected."""

from __future__ import annotations

import asyncio

import httpx

from .botapi_helpers import bearer, bot_token, game_start, person
from .server_helpers import LiveServer


def test_a_bot_account_is_ready_while_its_event_stream_is_open(tmp_path):
    env = {"QIPAI_READY_GRACE_SECONDS": "600"}
    with LiveServer(tmp_path, "--organizer", "boss", env=env) as srv:
        boss, alice = person(srv.base, "boss"), person(srv.base, "alice")
        token = bot_token(alice, "alicebot", ["bot:play"])["token"]

        def event(eid: str) -> str:
            r = boss.post("/api/events", json={"preset": "s0_gomoku", "event_id": eid,
                                               "players": ["alicebot", {"id": "b1", "bot": "random"}]})
            assert r.status_code == 201, r.text
            return boss.post(f"/api/events/{eid}/start").json()["tables"][0]

        t1 = event("one")
        held = boss.get(f"/api/tables/{t1}").json()       # the program is not connected: it waits
        assert held["status"] == "open" and held["hold"]["kind"] == "ready", held
        seat = next(i for i, s in enumerate(held["seats"]) if s["name"] == "alicebot")
        assert held["hold"]["people"] == [seat] and held["hold"]["ready"] == []

        async def run():
            async with httpx.AsyncClient(base_url=srv.base, timeout=60) as http, \
                    http.stream("GET", "/api/bot/stream/event", headers=bearer(token)) as r:
                assert r.status_code == 200
                it = (line async for line in r.aiter_lines() if line.strip())
                await asyncio.wait_for(game_start(it, t1), 30)      # connecting: ready, it starts
                t2 = await asyncio.to_thread(event, "two")           # connected: it starts at once
                await asyncio.wait_for(game_start(it, t2), 30)
                return t2

        t2 = asyncio.run(run())
        for t in (t1, t2):
            assert boss.get(f"/api/tables/{t}").json()["status"] in ("playing", "finished")
        boss.close()
        alice.close()
