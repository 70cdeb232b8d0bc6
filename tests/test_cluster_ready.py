"""A player's readiness at an event table with several workers (competition.md §5.6): the worker
that owns a first game held for its players (``no_show_grace``) sees a player who is there
through another worker, and the game starts instead of waiting for the grace to run out. Two
real workers on the machine's PostgreSQL and Redis: the table is served by one, the bot
program's Bot API event stream by the other (the lobby home serves every account's event
stream), opened after the table is seated (told through Redis to every worker) and before (the
owner asks Redis whether the account streams anywhere). A person's page at the table through
another worker (its socket relayed to the owner) is tests/test_cluster_event_games.py."""

from __future__ import annotations

import asyncio
import zlib

import httpx
import pytest

from .botapi_helpers import bearer, bot_token, game_start
from .botapi_helpers import person as signed_up
from .cluster_helpers import lease_owner, running_cluster, worker_id

pytestmark = pytest.mark.timeout(120)


def person(base: str, name: str) -> httpx.Client:
    """A signed-up client from an address of its own (the sign-up limit is per address)."""
    return signed_up(base, name, f"198.51.100.{zlib.crc32(name.encode()) % 250 + 1}")


def test_a_bot_programs_event_stream_on_another_worker_makes_it_ready(pg_template, tmp_path):
    env = {"QIPAI_READY_GRACE_SECONDS": "600"}       # held until the program is there
    with running_cluster(pg_template, tmp_path, 2, ("--forwarded-allow-ips", "127.0.0.1"), env) \
            as (_, name, (w1, w2)):
        assert httpx.get(w2.base + "/api/presence", timeout=30).status_code == 200   # w2: the home
        assert lease_owner(name, "@lobby") == worker_id(name, w2)
        boss = person(w1.base, "boss")                    # the first account: an organizer
        alice = person(w1.base, "alice")
        token = bot_token(alice, "alicebot", ["bot:play"])["token"]

        def event(eid: str) -> str:
            """An event of alicebot and a built-in bot started through w1: its table is w1's."""
            r = boss.post("/api/events", json={"preset": "s0_gomoku", "event_id": eid,
                                               "players": ["alicebot", {"id": "b1", "bot": "random"}]})
            assert r.status_code == 201, r.text
            r = boss.post(f"/api/events/{eid}/start")
            assert r.status_code == 200, r.text
            (table,) = r.json()["tables"]
            assert lease_owner(name, table) == worker_id(name, w1)
            return table

        t1 = event("one")
        held = boss.get(f"/api/tables/{t1}").json()       # the program is not connected: it waits
        assert held["status"] == "open" and held["hold"]["kind"] == "ready", held
        seat = next(i for i, s in enumerate(held["seats"]) if s["name"] == "alicebot")
        assert held["hold"]["people"] == [seat] and held["hold"]["ready"] == []

        async def run() -> str:
            async with httpx.AsyncClient(base_url=w2.base, timeout=60) as http, \
                    http.stream("GET", "/api/bot/stream/event", headers=bearer(token)) as r:
                assert r.status_code == 200
                it = (line async for line in r.aiter_lines() if line.strip())
                await asyncio.wait_for(game_start(it, t1), 30)      # w1 heard it: ready, it starts
                t2 = await asyncio.to_thread(event, "two")           # streaming on w2: at once
                await asyncio.wait_for(game_start(it, t2), 30)
                return t2

        t2 = asyncio.run(run())
        for t in (t1, t2):
            got = boss.get(f"{w2.base}/api/tables/{t}").json()
            assert got["status"] in ("playing", "finished") and got["hold"] is None, got
        boss.close()
        alice.close()
