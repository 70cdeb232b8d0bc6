"""Limits that hold for a whole cluster, not per worker (docs/deploy.md), with two real workers on
the machine's PostgreSQL and Redis: the open-table quota of an account counts its tables on
every worker (the eleventh is refused whichever worker makes it; a table that ends frees its
place), and the socket message limit of an account counts its messages to tables of both workers
together, and never another account's behind the same address (one flooding through one worker,
the other's messages through the other are all answered); a Bot API token revoked through one
worker is refused at once by the other (which had it cached); an account's open Bot API streams
count on both workers together, and a change of an account (the bot mark, a role set by `qipai
account role`) made through one worker or the command line is seen by the workers at once; an
account's sockets watching tables count on both workers together, and so do its chat lines for
the spam filter's repeats; a finished table's summary and
socket are answered by the other worker once the worker that ran it has been killed (rebuilt
from the database); a table's seats count as at the table whichever worker their sockets came
through, and a private table stays out of both workers' lobby lists."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import time

import httpx
import pytest
import websockets

from .botapi_helpers import bearer, bot_token, person
from .cluster_helpers import (
    REDIS,
    cluster_name,
    forget_cluster,
    signup,
    state_at,
    until,
    workers_fixture,
    xiangqi_table,
)
from .e2e.timing import until as within
from .server_process import QIPAI

pytestmark = pytest.mark.timeout(120)


# the test's own address is a trusted proxy: accounts signed up from addresses of their own
# (the sign-up limit, counted for the cluster, lets five through from one address)
cluster = workers_fixture(2, "shared", ("--forwarded-allow-ips", "127.0.0.1", "--organizer", "hushboss"))


def test_the_open_table_quota_counts_every_worker(cluster):
    asyncio.run(_quota(*cluster))


async def _quota(w1, w2) -> None:
    me = await signup(w1.base, "many")
    async with httpx.AsyncClient(timeout=30) as http:
        for i in range(10):                      # 5 tables on each worker: 10 in all, the quota
            r = await http.post((w1, w2)[i % 2].base + "/api/tables", headers=me,
                                json={"game": "gomoku"})
            assert r.status_code == 201, r.text
        for w in (w1, w2):
            r = await http.post(w.base + "/api/tables", headers=me, json={"game": "gomoku"})
            assert r.status_code == 409 and r.json()["error"] == "too_many_tables", r.text
            assert r.json()["params"]["open"] == 10
        # a table that ends frees its place, whichever worker served it
        for _ in range(150):                      # the lobby lists every worker's tables (30 s)
            tables = [t for t in (await http.get(w2.base + "/api/tables")).json()
                      if t["seats"][0] and t["seats"][0]["name"] == "many"]
            if len(tables) == 10:
                break
            await asyncio.sleep(0.2)
        assert len(tables) == 10
        tid = tables[0]["id"]
        r = await http.post(f"{w2.base}/api/tables/{tid}/fill", headers=me)   # a bot: the game starts
        assert r.status_code == 200, r.text
        async with websockets.connect(f"{w2.ws}/ws/tables/{tid}", additional_headers=me) as sock:
            await state_at(sock, 0)              # the nonce sent on the way: the game is on
            await sock.send(json.dumps({"type": "resign"}))
            while not (await until(sock, "state")).get("record"):
                pass
        for _ in range(150):                      # the freed place reaches the other worker (30 s)
            r = await http.post(w1.base + "/api/tables", headers=me, json={"game": "gomoku"})
            if r.status_code == 201:
                break
            await asyncio.sleep(0.2)
        assert r.status_code == 201, r.text


def test_a_table_that_ends_before_any_heartbeat_saw_it_frees_its_place_at_the_next():
    """The open-table quota (on the machine's Redis): a table counted before it is made is kept
    by a heartbeat that does not find it live (it is not made yet); but once made it is live,
    and a heartbeat that does not find it then finds a table that ended. One made and ended
    between two heartbeats (a loop late by a second on a loaded machine) was kept all the same,
    for ``keep_ms`` (34 s in a cluster): the quota test's 30 s wait for the freed place ran out."""
    asyncio.run(_made_and_ended())


async def _made_and_ended() -> None:
    import redis.asyncio as aioredis

    from qipai.server.quota import TableQuota

    name = cluster_name()
    r = aioredis.Redis.from_url(REDIS, decode_responses=True)
    try:
        quota = TableQuota(r, name, keep_ms=34_000, every_ms=2_000)
        assert await quota.reserve(7, "ended", 2) is None
        assert await quota.reserve(7, "coming", 2) is None
        assert await quota.reserve(7, "third", 2) == 2          # the quota is full
        await quota.renew(set())                # a heartbeat before either table is made
        assert await quota.count(7) == 2
        quota.made(7, "ended")                  # made, and ended before the next heartbeat
        await quota.renew(set())
        assert await quota.count(7) == 1        # its place is free; the one being made is kept
        assert await quota.reserve(7, "third", 2) is None
    finally:
        await r.aclose()
        forget_cluster(name)


async def table_on_each(workers, who: dict[str, str]) -> list[str]:
    """A gomoku table made by ``who`` through each of ``workers`` (each served by the worker
    that made it): their ids."""
    async with httpx.AsyncClient(timeout=30) as http:
        ids = []
        for w in workers:
            r = await http.post(w.base + "/api/tables", headers=who, json={"game": "gomoku"})
            ids.append(r.json()["id"])
    return ids


def test_an_accounts_socket_messages_are_limited_across_workers(cluster):
    asyncio.run(_messages(*cluster))


async def _messages(w1, w2) -> None:
    me = await signup(w2.base, "chatty")
    ids = await table_on_each((w1, w2), me)
    # 18 messages to each (the limit lets 20 through at once, then 10 a second): under the
    # limit at either worker alone, over it together
    async with websockets.connect(f"{w1.ws}/ws/tables/{ids[0]}", additional_headers=me) as a, \
            websockets.connect(f"{w2.ws}/ws/tables/{ids[1]}", additional_headers=me) as b:
        for sock in (a, b):
            await asyncio.wait_for(sock.recv(), 20)          # hello
        for _ in range(18):
            await a.send(json.dumps({"type": "ping"}))
            await b.send(json.dumps({"type": "ping"}))
        answers: list[dict] = []
        for sock in (a, b):
            got = 0
            while got < 18:
                m = json.loads(await asyncio.wait_for(sock.recv(), 20))
                if m["type"] in ("pong", "error"):
                    got += 1
                    answers.append(m)
    refused = [m for m in answers if m["type"] == "error" and m["code"] == "rate_limited"]
    assert refused, "36 messages of one account went through two workers unlimited"
    assert sum(m["type"] == "pong" for m in answers) < 36


def test_a_token_revoked_on_one_worker_is_refused_by_the_other_at_once(cluster):
    w1, w2 = cluster
    owner = person(w1.base, "keeper")
    token = bot_token(owner, "keeperbot", ["bot:play"])
    for w in (w1, w2):                  # checked, and so cached, by both workers
        r = httpx.get(w.base + "/api/bot/account", headers=bearer(token["token"]), timeout=30)
        assert r.status_code == 200 and r.json()["username"] == "keeperbot", r.text
    assert owner.delete(f"/api/account/tokens/{token['id']}").status_code == 200
    deadline = time.monotonic() + 20    # the sign-out channel's delay, below the cache's 30 s
    while True:
        r = httpx.get(w2.base + "/api/bot/account", headers=bearer(token["token"]), timeout=30)
        if r.status_code != 200:
            break
        assert time.monotonic() < deadline, "the other worker still takes the revoked token"
    assert r.status_code == 401 and r.json()["error"] == "token_revoked", r.text
    owner.close()


def test_an_accounts_open_streams_are_counted_across_workers(cluster):
    asyncio.run(_streams(*cluster))


async def _streams(w1, w2) -> None:
    me = person(w1.base, "streamer", "198.51.100.21")
    assert me.post("/api/account/bot").json() == {"ok": True, "bot": True}
    r = me.post("/api/account/tokens", json={"scopes": ["bot:play"]})
    assert r.status_code == 201, r.text
    auth = bearer(r.json()["token"])
    tables = []                                   # two tables served by each worker
    for w in (w1, w2, w1, w2):
        r = me.post(w.base + "/api/tables", json={"game": "gomoku"})
        assert r.status_code == 201, r.text
        tables.append((w, r.json()["id"]))
    async with httpx.AsyncClient(timeout=30, limits=httpx.Limits(max_connections=50)) as http:
        async def stream(w, path: str) -> httpx.Response:
            return await http.send(http.build_request("GET", w.base + path, headers=auth), stream=True)
        # 4 game streams, 2 on each worker, and 4 event streams (served by the lobby home,
        # one of the two): 8 in all, no worker holding 8
        opened = [await stream(w, f"/api/bot/game/stream/{tid}") for w, tid in tables]
        opened += [await stream((w1, w2)[i % 2], "/api/bot/stream/event") for i in range(4)]
        assert [r.status_code for r in opened] == [200] * 8
        for w, path in ((w1, "/api/bot/stream/event"), (w2, "/api/bot/stream/event"),
                        (w2, f"/api/bot/game/stream/{tables[1][1]}")):
            refused = await stream(w, path)
            assert refused.status_code == 429, (path, refused.status_code)
            body = json.loads(await refused.aread())
            assert body["error"] == "too_many_streams" and body["params"]["open"] == 8, body
        await opened[0].aclose()                 # a stream that ends frees its place at once
        deadline = time.monotonic() + 30
        while (again := await stream(w2, "/api/bot/stream/event")).status_code != 200:
            await again.aclose()
            assert time.monotonic() < deadline, "a closed stream still counts"
        for r in [*opened[1:], again]:
            await r.aclose()
    me.close()


def test_an_accounts_watching_sockets_are_counted_across_workers(cluster):
    asyncio.run(_sockets(*cluster))


async def _sockets(w1, w2) -> None:
    owner, me = await signup(w1.base, "host"), await signup(w2.base, "watcher")
    me = {**me, "X-Forwarded-For": "198.51.100.31"}
    async with httpx.AsyncClient(timeout=30) as http:
        ids = [(await http.post(w.base + "/api/tables", headers=owner, json={"game": "gomoku"})).json()["id"]
               for w in (w1, w2)]

    async def watch(i: int):
        sock = await websockets.connect(f"{(w1, w2)[i].ws}/ws/tables/{ids[i]}", additional_headers=me)
        return sock, json.loads(await asyncio.wait_for(sock.recv(), 20))
    # 25 sockets watching on each worker: 50 in all, the account's limit (Limits.ws_open_account)
    opened = [await watch(i % 2) for i in range(50)]
    try:
        assert [m["type"] for _, m in opened] == ["hello"] * 50
        for i in (0, 1):                          # one more is refused by either worker
            sock, m = await watch(i)
            assert m["error"] == "too_many_sockets" and m["params"] == {"max": 50}, m
            await sock.wait_closed()
            assert (sock.close_code, sock.close_reason) == (4408, "too_many_sockets")
        await opened.pop()[0].close()             # a socket that closes frees its place at once
        deadline = time.monotonic() + 30
        while (again := await watch(0))[1]["type"] != "hello":
            assert time.monotonic() < deadline, "a closed socket still counts"
        opened.append(again)
    finally:
        for sock, _ in opened:
            await sock.close()


def test_a_change_of_an_account_reaches_every_worker_at_once(cluster):
    w1, w2 = cluster
    me = person(w1.base, "turning", "198.51.100.22")
    for w in (w1, w2):                  # the session read, and so cached, by both workers
        assert me.get(w.base + "/api/me").json()["user"]["bot"] is False
    assert me.post(w1.base + "/api/account/bot").json() == {"ok": True, "bot": True}
    deadline = time.monotonic() + 20    # below the session cache's 30 s
    while not me.get(w2.base + "/api/me").json()["user"]["bot"]:
        assert time.monotonic() < deadline, "the other worker still has the account unmarked"
    # a role, changed from the command line, is told to both workers
    for w in (w1, w2):
        assert me.get(w.base + "/api/me").json()["user"]["role"] == "player"
    done = subprocess.run([QIPAI, "account", "role", "turning", "organizer", "--database-url",
                           w1.database_url, "--redis-url", REDIS], capture_output=True, text=True,
                          env={**os.environ, "QIPAI_CLUSTER_NAME": w1.cluster}, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["turning: player -> organizer",
                                        f"told the cluster {w1.cluster!r} (2 workers listening)"]
    deadline = time.monotonic() + 10
    for w in (w1, w2):
        while me.get(w.base + "/api/me").json()["user"]["role"] != "organizer":
            assert time.monotonic() < deadline, f"{w.base} still has the account a player"
    me.close()


def test_who_is_at_a_table_counts_sockets_through_either_worker_and_a_private_table_stays_unlisted(cluster):
    asyncio.run(_presence(*cluster))


async def _presence(w1, w2) -> None:
    """A table served by the first worker: its player on the second (whose socket is relayed to
    the owner) is at the table while the socket is open; the table is private, so neither
    worker's lobby list shows it to anyone but its players."""
    red, black = await signup(w1.base, "dot_red"), await signup(w2.base, "dot_black")
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.post(w1.base + "/api/tables", headers=red,
                            json={"game": "xiangqi", "settings": {"clock": "none", "private": True}})
        tid = r.json()["id"]
        assert (await http.post(f"{w2.base}/api/tables/{tid}/sit", headers=black)).status_code == 200

        async def listed(w, who) -> bool:
            return tid in {t["id"] for t in (await http.get(w.base + "/api/tables", headers=who)).json()}
        for _ in within(30):                  # the owner's summaries reach the other worker's list
            if await listed(w2, black):
                break
            await asyncio.sleep(0.2)
        assert await listed(w2, black) and await listed(w1, black) and await listed(w1, red)
        assert not await listed(w1, {}) and not await listed(w2, {})
    async with websockets.connect(f"{w1.ws}/ws/tables/{tid}", additional_headers=red) as a:
        await a.send(json.dumps({"type": "presence"}))
        assert (await until(a, "presence"))["online"] == [True, False]
        async with websockets.connect(f"{w2.ws}/ws/tables/{tid}", additional_headers=black) as b:
            assert (await until(a, "presence"))["online"] == [True, True]
            await b.send(json.dumps({"type": "presence"}))
            assert (await until(b, "presence"))["online"] == [True, True]
        assert (await until(a, "presence"))["online"] == [True, False]


def test_one_accounts_flood_never_refuses_another_account_at_the_same_address(cluster):
    asyncio.run(_same_address(*cluster))


async def _same_address(w1, w2) -> None:
    """Two accounts behind one address (a venue's NAT: both from 127.0.0.1): one drops and
    opens its seat's sockets through one worker, sending all the while past the address's
    burst; the other's messages through the other worker are all answered, as the address's
    budget is not theirs to share (a signed-in socket is counted per account)."""
    noisy, quiet = await signup(w1.base, "noisy"), await signup(w2.base, "quiet")
    async with httpx.AsyncClient(timeout=30) as http:
        game = {"game": "gomoku"}
        mine = (await http.post(w1.base + "/api/tables", headers=noisy, json=game)).json()["id"]
        theirs = (await http.post(w2.base + "/api/tables", headers=quiet, json=game)).json()["id"]
    done = asyncio.Event()

    async def flood() -> None:
        while not done.is_set():
            async with websockets.connect(f"{w1.ws}/ws/tables/{mine}", additional_headers=noisy) as s:
                for _ in range(30):
                    await s.send(json.dumps({"type": "ping"}))
                await asyncio.sleep(0)
    flooding = asyncio.ensure_future(flood())
    try:
        async with websockets.connect(f"{w2.ws}/ws/tables/{theirs}", additional_headers=quiet) as q:
            await until(q, "hello")
            answers = []
            for _ in range(15):                   # under the account's own burst (20)
                await q.send(json.dumps({"type": "ping"}))
                m = {"type": "hello"}
                while m["type"] not in ("pong", "error"):
                    m = json.loads(await asyncio.wait_for(q.recv(), 20))
                answers.append(m)
                await asyncio.sleep(0.02)
    finally:
        done.set()
        await flooding
    assert [m["type"] for m in answers] == ["pong"] * 15, [m for m in answers if m["type"] == "error"][:2]

def test_a_chat_line_repeated_through_another_worker_is_refused(cluster):
    asyncio.run(_chat_repeats(*cluster))


async def _chat_repeats(w1, w2) -> None:
    """The spam filter counts an account's lines at every worker together: a line written twice
    at a table of the first worker is refused ``chat_repeated`` at a table of the second (with
    its case and spacing changed), as it would be at the first; it used to be taken there, each
    worker counting only the lines written through it."""
    me = await signup(w1.base, "echoer")
    ids = await table_on_each((w1, w2), me)

    async def say(sock, text: str) -> dict:
        await sock.send(json.dumps({"type": "chat", "text": text}))
        while True:
            m = json.loads(await asyncio.wait_for(sock.recv(), 30))
            if m["type"] in ("chat", "error"):
                return m

    async with websockets.connect(f"{w1.ws}/ws/tables/{ids[0]}", additional_headers=me) as a, \
            websockets.connect(f"{w2.ws}/ws/tables/{ids[1]}", additional_headers=me) as b:
        await until(a, "hello")
        await until(b, "hello")
        for _ in range(2):
            assert (await say(a, "gg well played"))["type"] == "chat"
        # a socket's messages are handled in turn: once this one is answered, the lines before
        # it are in Redis
        assert (await say(a, "one more"))["type"] == "chat"
        refused = await say(b, "GG  Well played")
        assert refused["type"] == "error" and refused["code"] == "chat_repeated", refused
        assert 0 < refused["params"]["retry_after"] <= 60
        assert (await say(b, "another line"))["type"] == "chat"


def test_a_mute_made_through_one_worker_closes_the_chat_open_at_another(cluster):
    asyncio.run(_mute_reaches(*cluster))


async def _mute_reaches(w1, w2) -> None:
    """An organizer mutes an account through the first worker: its socket at a table of the
    second is sent the closed chat at once (Redis carries the news to every worker)."""
    boss, quiet = await signup(w1.base, "hushboss"), await signup(w2.base, "hushed")
    async with httpx.AsyncClient(timeout=30) as http:
        me = (await http.get(w2.base + "/api/me", headers=quiet)).json()["user"]["id"]
        tid = (await table_on_each((w2,), quiet))[0]
        async with websockets.connect(f"{w2.ws}/ws/tables/{tid}", additional_headers=quiet) as sock:
            assert (await until(sock, "hello"))["chat"]["open"] is True
            r = await http.post(w1.base + "/api/chat/mutes", headers=boss,
                                json={"user": me, "minutes": 10, "reason": "flooding"})
            assert r.status_code == 201, r.text
            got = await until(sock, "chat_history")
            assert (got["open"], got["reason"], got["mute_reason"]) == (False, "muted", "flooding"), got


# keep it the file's last test: it kills w1 of the module's cluster, so a test after it finds
# w1's port closed (httpx.ConnectError)
def test_a_relayed_request_keeps_its_path_as_the_client_wrote_it(cluster):
    """A Bot API move sent through the worker that does not own the table reaches the owner with
    its path still percent-encoded: an encoded ``?`` stays in the move's text (no query smuggled
    in: the move is refused ``turn_required`` as on one worker, not played), an encoded NUL or
    ``/`` is no move (``not_a_move``, never a 500 or another route on the owner's internal port)."""
    w1, w2 = cluster
    players = [person(w1.base, name, address)
               for name, address in (("relred", "10.7.0.1"), ("relblack", "10.7.0.2"))]
    tid = players[0].post("/api/tables", json={"game": "xiangqi", "settings": {"clock": "none"}}).json()["id"]
    assert players[1].post(f"/api/tables/{tid}/sit").status_code == 200
    tokens = [p.post("/api/account/tokens", json={"scopes": ["board:play"]}).json()["token"] for p in players]
    for token in tokens:                # both nonces given: the game starts at once
        httpx.post(f"{w1.base}/api/bot/game/{tid}/nonce/{'ab' * 16}", headers=bearer(token), timeout=30)
    until_playing = time.monotonic() + 30
    while players[0].get(f"/api/tables/{tid}").json()["status"] != "playing":
        assert time.monotonic() < until_playing, "the table never started"
        time.sleep(0.05)
    seats = [s["name"] for s in players[0].get(f"/api/tables/{tid}").json()["seats"]]
    red = tokens[seats.index("relred")]

    def move(text: str, **query) -> httpx.Response:
        return httpx.post(f"{w2.base}/api/bot/game/{tid}/move/{text}", params=query, headers=bearer(red),
                          timeout=30)

    r = move("h2e2%3Fturn%3D1")
    assert r.status_code == 400 and r.json()["error"] == "turn_required", r.text
    for text in ("%00", "h2e2%23", "..%2F..%2F..%2F..%2F..%2Fapi%2Faccount%2Ftokens"):
        r = move(text, turn=1)
        assert r.status_code == 400 and r.json()["error"] == "not_a_move", (text, r.text)
    assert players[0].get(f"/api/tables/{tid}").json().get("moves", 0) in (0, [], None)
    r = move("h2e2", turn=1)            # a move as written is relayed and played
    assert r.status_code == 200, r.text
    for p in players:
        p.close()


# last: it kills a worker of the module's cluster
def test_a_finished_table_is_answered_after_its_worker_died(cluster):
    asyncio.run(_finished(*cluster))


async def _finished(w1, w2) -> None:
    tid, red, black = await xiangqi_table(w1, w2, "red9", "black9")      # served by w1
    async with websockets.connect(f"{w1.ws}/ws/tables/{tid}", additional_headers=red) as a:
        await state_at(a, 0)
        await a.send(json.dumps({"type": "move", "seq": 0, "action": "h2e2"}))
        await state_at(a, 1)
        await a.send(json.dumps({"type": "resign"}))
        end = await state_at(a, 1)
        while not end.get("record"):
            end = await until(a, "state")
    os.kill(w1.proc.pid, signal.SIGKILL)       # the worker that ran it is gone (the last test)
    w1.proc.wait(10)
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.get(f"{w2.base}/api/tables/{tid}", headers=black)
        for _ in within(30):                    # its lease outlives it a moment
            if r.status_code == 200:
                break
            await asyncio.sleep(0.2)
            r = await http.get(f"{w2.base}/api/tables/{tid}", headers=black)
        assert r.status_code == 200, r.text
        got = r.json()
        assert got["status"] == "finished" and got["record"] == end["record"], got
    async with websockets.connect(f"{w2.ws}/ws/tables/{tid}", additional_headers=black) as b:
        m = await until(b, "state")
        assert m["seq"] == end["seq"] and m["result"] == end["result"] and m["record"] == end["record"]
        assert m["view"]["last_move"] == "h2e2"
