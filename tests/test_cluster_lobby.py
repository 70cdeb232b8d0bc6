"""The lobby's services in a cluster (docs/deploy.md, "The lobby home"), with two real workers
on the machine's PostgreSQL and Redis: two seeks made through different workers are paired; a
referee's act naming a table, sent to the worker that
does not serve it, acts on it; a challenge made through one worker is seen, and
accepted, through the other; a bot's event stream opened through the worker that is not the
lobby home gets the challenge, the game's start and its end (the stream relayed as it comes);
the presence answered by either worker lists the players of that game as playing; Bot API game
requests reaching the worker that does not serve the table are relayed to it."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
import zlib

import httpx
import pytest
import websockets

from .botapi_helpers import PASSWORD, bearer, bot_token, lines
from .botapi_helpers import person as signed_up
from .cluster_helpers import state_at, workers_fixture
from .e2e.timing import until as within

pytestmark = pytest.mark.timeout(120)


# the workers trust this machine as a proxy, so that each person of the module comes from an
# address of its own: the sign-up limit per address is counted once for the whole cluster, and
# the module signs up more people than it allows one address at once
cluster = workers_fixture(2, "lobby", ("--forwarded-allow-ips", "127.0.0.1"))


def person(base: str, name: str) -> httpx.Client:
    """:func:`.botapi_helpers.person` from an address of ``name``'s own (198.51.100.0/24)."""
    return signed_up(base, name, f"198.51.100.{zlib.crc32(name.encode()) % 250 + 1}")


def test_a_referee_act_reaching_another_worker_is_relayed_to_the_tables_owner(cluster):
    w1, w2 = cluster
    boss = person(w1.base, "boss")                    # the first account: an organizer
    for name in ("alice", "bob1"):
        person(w1.base, name).close()
    ref = person(w2.base, "ref")
    body = {"preset": "s3_xiangqi", "name": "Club", "event_id": "club", "players": ["alice", "bob1"]}
    assert boss.post("/api/events", json=body).status_code == 201
    assert boss.post("/api/events/club/referees", json={"username": "ref"}).status_code == 201
    r = boss.post("/api/events/club/start")                # its table is seated and served by w1
    assert r.status_code == 200, r.text
    (tid,) = r.json()["tables"]
    for _ in within(30):                                 # until the deal is committed
        r = ref.post("/api/events/club/acts", json={"act": "pause", "table": tid, "reason": "noise"})
        if r.json().get("code") != "not_playing":
            break
        time.sleep(0.1)
    assert r.status_code == 200, r.text
    console = ref.get(w1.base + "/api/events/club/console").json()
    assert [t["paused"] for t in console["tables"] if t["id"] == tid] == [True]
    boss.close()
    ref.close()


def test_challenges_streams_and_presence_work_through_either_worker(cluster):
    w1, w2 = cluster
    assert httpx.get(w1.base + "/api/presence", timeout=30).status_code == 200   # w1: the home
    ann, bob = person(w1.base, "ann"), person(w2.base, "bob")
    token = bot_token(ann, "annbot", ["bot:play", "challenge:write"])["token"]
    asyncio.run(_scenario(w1, w2, bob, token))
    ann.close()
    bob.close()


async def _scenario(w1, w2, bob: httpx.Client, token: str) -> None:
    seen: list[dict] = []

    async def follow() -> None:
        async with httpx.AsyncClient(base_url=w2.base, timeout=60) as http:
            async for line in lines(http, "/api/bot/stream/event", token):
                seen.append(json.loads(line))

    async def until(kind: str) -> dict:
        for _ in range(300):
            got = [e for e in seen if e["type"] == kind]
            if got:
                return got[0]
            await asyncio.sleep(0.1)
        raise AssertionError(f"no {kind} in {seen}")

    stream = asyncio.ensure_future(follow())
    try:
        await asyncio.sleep(1)
        # bob challenges the bot through w2 (relayed to the home, where challenges are kept)
        r = bob.post("/api/challenge/annbot", json={"game": "gomoku", "settings": {"clock": "none"}})
        assert r.status_code == 201, r.text
        cid = r.json()["id"]
        assert (await until("challenge"))["challenge"]["id"] == cid
        async with httpx.AsyncClient(timeout=30) as http:
            # the bot sees and accepts it through w1
            r = await http.post(f"{w1.base}/api/bot/challenge/{cid}/accept", headers=bearer(token))
            assert r.status_code == 200, r.text
            start = await until("gameStart")
            tid = start["game"]["id"]
            # either worker's presence lists both players, playing at that table
            for w in (w1, w2):
                r = await http.get(w.base + "/api/presence")
                playing = {p["username"]: p["playing"] for p in r.json()["players"]}
                assert playing.get("annbot") == tid and playing.get("bob") == tid, r.json()
            # both seats send their nonces (bob over a socket, the bot through w2: relayed to the
            # worker serving the table), then the bot resigns through w2
            cookie = {"Cookie": f"qipai_session={bob.cookies['qipai_session']}"}
            async with websockets.connect(f"{w2.ws}/ws/tables/{tid}", additional_headers=cookie) as sock:
                r = await http.post(f"{w2.base}/api/bot/game/{tid}/nonce/{secrets.token_hex(8)}",
                                    headers=bearer(token))
                assert r.status_code == 200, r.text
                await state_at(sock, 0)
                r = await http.post(f"{w2.base}/api/bot/game/{tid}/resign", headers=bearer(token))
                assert r.status_code == 200, r.text
            finish = await until("gameFinish")
            assert finish["game"]["id"] == tid and finish["game"]["record"]
        r = bob.get("/api/challenges")
        assert r.status_code == 200 and r.json()["to_me"] == [], r.text
    finally:
        stream.cancel()
        await asyncio.gather(stream, return_exceptions=True)


def test_two_seeks_made_through_different_workers_are_paired(cluster):
    w1, w2 = cluster
    cat, dan = signed_in(w1.base, "boss"), signed_in(w2.base, "ref")     # sign-ups are limited
    try:
        a = cat.post("/api/seeks", json={"game": "gomoku"})
        assert a.status_code == 201 and a.json()["status"] == "waiting", a.text
        b = dan.post("/api/seeks", json={"game": "gomoku"})
        assert b.status_code == 201 and b.json()["status"] == "paired", b.text
        mine = cat.get(f"/api/seeks/{a.json()['id']}").json()
        assert mine["status"] == "paired" and mine["table"] == b.json()["table"]
        names = [s["name"] for s in cat.get(f"/api/tables/{mine['table']}").json()["seats"]]
        assert sorted(names) == ["boss", "ref"]
    finally:
        cat.close()
        dan.close()


def signed_in(base: str, name: str) -> httpx.Client:
    c = httpx.Client(base_url=base, timeout=30)
    assert c.post("/api/login", json={"username": name, "password": PASSWORD}).status_code == 200
    return c
