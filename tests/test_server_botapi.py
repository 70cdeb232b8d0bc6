"""The Bot API against a real ``qipai serve`` process over HTTP: two bot accounts' tokens
challenge each other and play through the NDJSON streams and POST requests, every
authorization case is refused with its code, and a doudizhu seat's stream shows no card of
another hand."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from qipai.core import Record

from .botapi_helpers import bearer, bot_token, lines, person, play_seat
from .doudizhu_helpers import CARD, public_cards
from .server_helpers import LiveServer


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with LiveServer(tmp_path_factory.mktemp("botapi")) as srv:
        alice, bob = person(srv.base, "alice"), person(srv.base, "bob")
        srv.alice, srv.bob = alice, bob
        srv.a = bot_token(alice, "alicebot", ["bot:play", "challenge:write"])["token"]
        srv.b = bot_token(bob, "bobbot", ["bot:play", "challenge:write"])["token"]
        yield srv
        alice.close()
        bob.close()


async def next_event(it, kind: str) -> dict:
    async for text in it:
        msg = json.loads(text)
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"the stream ended before a {kind}")


def test_two_tokens_challenge_and_play_xiangqi_over_http(server):
    async def run():
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            events_b = lines(http, "/api/bot/stream/event", server.b)
            events_a = lines(http, "/api/bot/stream/event", server.a)
            r = await http.post("/api/bot/challenge/bobbot", headers=bearer(server.a),
                                json={"game": "xiangqi", "settings": {"clock": "none"}, "seat": 0})
            assert r.status_code == 201, r.text
            cid = r.json()["id"]
            got = await next_event(events_b, "challenge")
            assert got["challenge"]["id"] == cid and got["challenge"]["from"] == "alicebot"
            r = await http.post(f"/api/bot/challenge/{cid}/accept", headers=bearer(server.b))
            assert r.status_code == 200, r.text
            table = r.json()["table"]
            start_b = await next_event(events_b, "gameStart")
            start_a = await next_event(events_a, "gameStart")
            assert start_a["game"]["id"] == start_b["game"]["id"] == table
            assert (start_a["game"]["seat"], start_b["game"]["seat"]) == (0, 1)
            seats = start_a["game"]["table"]["seats"]
            assert all(s["bot_account"] for s in seats)          # marked as bots in the lobby
            lobby = (await http.get(f"/api/tables/{table}")).json()
            assert [s["name"] for s in lobby["seats"]] == ["alicebot", "bobbot"]

            # red plays a refused move first: a machine-readable error, nothing changes
            moves = {"n": 0}

            def red(legal, rng):
                moves["n"] += 1
                return None if moves["n"] > 6 else rng.choice(legal)   # then resigns

            def black(legal, rng):
                return rng.choice(legal)
            answers: list[dict] = []
            ra = asyncio.create_task(play_seat(http, table, server.a, red, 1, answers=answers))
            rb = asyncio.create_task(play_seat(http, table, server.b, black, 2))
            finish = asyncio.create_task(next_event(events_a, "gameFinish"))
            last_a, last_b = await asyncio.wait_for(asyncio.gather(ra, rb), 60)
            done = await asyncio.wait_for(finish, 30)
            assert last_a["status"] == last_b["status"] == "finished"
            assert last_a["result"] == last_b["result"] and last_a["result"]["winners"] == [1]
            assert done["game"]["record"] == last_a["record"]
            assert all(a["ok"] for a in answers)
            rec = (await http.get(f"/api/records/{last_a['record']}")).json()["record"]
            assert len(rec["actions"]) == 12          # 6 moves each, then red resigns
            # the finished game's stream gives its last state and ends
            ended = [json.loads(x) async for x in lines(http, f"/api/bot/game/stream/{table}", server.a)]
            assert ended[-1]["type"] == "state" and ended[-1]["result"] == last_a["result"]
            # after the game: its moves are refused as not playing
            r = await http.post(f"/api/bot/game/{table}/move/h2e2", headers=bearer(server.a))
            assert r.status_code == 409 and r.json()["error"] == "not_playing"
    asyncio.run(run())


def test_refusals_of_moves_are_machine_readable(server):
    async def run():
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            r = await http.post("/api/bot/challenge/bobbot", headers=bearer(server.a),
                                json={"game": "xiangqi", "settings": {"clock": "none"}, "seat": 0})
            cid = r.json()["id"]
            r = await http.post(f"/api/bot/challenge/{cid}/accept", headers=bearer(server.b))
            table = r.json()["table"]
            for tok in (server.a, server.b):       # the deal waits for both nonces
                r = await http.post(f"/api/bot/game/{table}/nonce/1f", headers=bearer(tok))
                assert r.status_code == 200, r.text
            stream = lines(http, f"/api/bot/game/stream/{table}", server.a)
            state = await next_event(stream, "state")
            assert state["seat"] == 0 and state["to_act"] == [0]
            # black moves out of turn
            r = await http.post(f"/api/bot/game/{table}/move/h7e7", headers=bearer(server.b))
            assert r.status_code == 409 and r.json()["error"] == "not_your_turn", r.text
            # red: an illegal move (counted, xiangqi 4.4), then text that is no move at all
            # (refused as not_a_move and never counted, as a typed slip on the socket)
            # a move naming no state: a retried request could act twice
            r = await http.post(f"/api/bot/game/{table}/move/h2e2", headers=bearer(server.a))
            assert r.status_code == 400 and r.json()["error"] == "turn_required", r.text
            at = {"turn": state["turn"]}
            r = await http.post(f"/api/bot/game/{table}/move/a0a5", params=at, headers=bearer(server.a))
            assert r.status_code == 400 and r.json()["error"] == "illegal", r.text
            assert r.json()["refusal"]
            r = await http.post(f"/api/bot/game/{table}/move/xyzzy", params=at, headers=bearer(server.a))
            assert r.status_code == 400 and r.json()["error"] == "not_a_move", r.text
            # turn and seq at once: which state it answers would be a guess
            r = await http.post(f"/api/bot/game/{table}/move/h2e2", headers=bearer(server.a),
                                params={"turn": state["turn"], "seq": state["seq"] + 5})
            assert r.status_code == 400 and r.json()["error"] == "bad_request", r.text
            # a turn the seat was never given: a wrong number (bad_turn), not a stale answer
            r = await http.post(f"/api/bot/game/{table}/move/h2e2", params={"turn": state["turn"] + 5},
                                headers=bearer(server.a))
            assert r.status_code == 400 and r.json()["error"] == "bad_turn", r.text
            r = await http.post(f"/api/bot/game/{table}/move/h2e2", params={"turn": state["turn"]},
                                headers=bearer(server.a))
            assert r.status_code == 200 and r.json() == {"ok": True, "seq": 1}, r.text
            # the same request again (a retry) plays nothing more
            r = await http.post(f"/api/bot/game/{table}/move/h2e2", params={"turn": state["turn"]},
                                headers=bearer(server.a))
            assert r.status_code == 409 and r.json()["error"] in ("not_your_turn", "stale_move"), r.text
            # draws: no offer to accept; an offer, declined by the other seat
            r = await http.post(f"/api/bot/game/{table}/draw/accept", headers=bearer(server.a))
            assert r.status_code == 409 and r.json()["error"] == "no_draw_offer", r.text
            r = await http.post(f"/api/bot/game/{table}/draw/bogus", headers=bearer(server.a))
            assert r.status_code == 400 and r.json()["error"] == "bad_answer"
            r = await http.post(f"/api/bot/game/{table}/draw/yes", headers=bearer(server.a))
            assert r.status_code == 200, r.text
            r = await http.post(f"/api/bot/game/{table}/draw/no", headers=bearer(server.b))
            assert r.status_code == 200, r.text
            r = await http.post(f"/api/bot/game/{table}/resign", headers=bearer(server.b))
            assert r.status_code == 200, r.text
            rows = []
            async for text in stream:
                rows.append(json.loads(text))
            assert rows[-1]["type"] == "state" and rows[-1]["status"] == "finished"
            kinds = [m["event"]["type"] for m in rows if m["type"] == "event"]
            assert "draw_offer" in kinds and "draw_declined" in kinds, kinds
    asyncio.run(run())


def test_every_authorization_case_is_refused(server):
    base = server.base
    with httpx.Client(base_url=base, timeout=30) as http:
        # no token; a cookie alone does not do (the Bot API acts with tokens only)
        cookie = "; ".join(f"{k}={v}" for k, v in server.alice.cookies.items())
        r = http.get("/api/bot/stream/event", headers={"Cookie": cookie})
        assert r.status_code == 401 and r.json()["error"] == "no_token"
        r = http.post("/api/bot/seek", json={"game": "xiangqi"}, headers={"Authorization": "Basic x"})
        assert r.status_code == 401 and r.json()["error"] == "no_token"
        # a token nobody made
        r = http.get("/api/bot/stream/event", headers=bearer("qpt_" + "x" * 43))
        assert r.status_code == 401 and r.json()["error"] == "bad_token"
        # scopes: bot:play is for bot accounts, board:play for people; unknown scopes refused
        r = server.alice.post("/api/account/tokens", json={"scopes": ["bot:play"]})
        assert r.status_code == 400 and r.json()["error"] == "bad_scope"
        r = server.alice.post("/api/account/tokens", json={"account": "alicebot", "scopes": ["board:play"]})
        assert r.status_code == 400 and r.json()["error"] == "bad_scope"
        r = server.alice.post("/api/account/tokens", json={"scopes": ["admin"]})
        assert r.status_code == 400 and r.json()["error"] == "bad_scope"
        # another person's bot
        r = server.alice.post("/api/account/tokens", json={"account": "bobbot", "scopes": ["bot:play"]})
        assert r.status_code == 403 and r.json()["error"] == "not_your_bot"
        # a token cannot manage tokens (a cookie session is needed)
        r = http.post("/api/account/tokens", json={"scopes": ["challenge:write"]}, headers=bearer(server.a))
        assert r.status_code == 401 and r.json()["error"] == "not_signed_in"
        # the wrong scope: a challenge-only token cannot play
        only = bot_token(server.alice, "alicebot", ["challenge:write"])
        r = http.get("/api/bot/stream/event", headers=bearer(only["token"]))
        assert r.status_code == 403 and r.json()["error"] == "missing_scope"
        # the secret is shown once: the listing has no secret
        listing = server.alice.get("/api/account/tokens").json()
        assert only["token"] not in json.dumps(listing)
        assert any(t["id"] == only["id"] for t in listing["tokens"])
        # a game of two other bots: a third bot may not stream it or play in it
        r = http.post("/api/bot/challenge/bobbot", headers=bearer(server.a),
                      json={"game": "xiangqi", "settings": {"clock": "none"}})
        r = http.post(f"/api/bot/challenge/{r.json()['id']}/accept", headers=bearer(server.b))
        table = r.json()["table"]
        for tok in (server.a, server.b):           # the deal waits for both nonces
            assert http.post(f"/api/bot/game/{table}/nonce/0f", headers=bearer(tok)).status_code == 200
        third = bot_token(server.bob, "carolbot", ["bot:play"])["token"]
        for method, path in (("GET", f"/api/bot/game/stream/{table}"),
                             ("POST", f"/api/bot/game/{table}/move/h2e2"),
                             ("POST", f"/api/bot/game/{table}/resign"),
                             ("POST", f"/api/bot/game/{table}/draw/yes")):
            r = http.request(method, path, headers=bearer(third))
            assert r.status_code == 403 and r.json()["error"] == "not_your_game", (path, r.text)
        # the wrong seat: black cannot move while red is to move, nor accept its own challenge
        r = http.post(f"/api/bot/game/{table}/move/h7e7", headers=bearer(server.b))
        assert r.status_code == 409 and r.json()["error"] == "not_your_turn"
        r = http.post("/api/bot/challenge/alicebot", headers=bearer(server.b), json={"game": "xiangqi"})
        r = http.post(f"/api/bot/challenge/{r.json()['id']}/accept", headers=bearer(server.b))
        assert r.status_code == 404 and r.json()["error"] == "no_challenge"
        r = http.post("/api/bot/challenge/nobody", headers=bearer(server.b), json={"game": "xiangqi"})
        assert r.status_code == 404 and r.json()["error"] == "no_user"
        r = http.post("/api/bot/game/nosuch/resign", headers=bearer(server.b))
        assert r.status_code == 404 and r.json()["error"] == "no_table"
        # a foreign page's origin: the token's request goes through (no cookie is used) ...
        r = http.post(f"/api/bot/game/{table}/move/h7e7", headers={**bearer(server.b), "Origin": "https://evil.test"})
        assert r.status_code == 409 and r.json()["error"] == "not_your_turn"
        # ... but managing tokens with a cookie from there does not
        r = server.alice.post("/api/account/tokens", json={"scopes": ["challenge:write"]},
                              headers={"Origin": "https://evil.test"})
        assert r.status_code == 403 and r.json()["error"] == "bad_origin"
        # revoked: requests refused, and an open stream ends with the reason
        doomed = bot_token(server.bob, "bobbot", ["bot:play"])
        with http.stream("GET", "/api/bot/stream/event", headers=bearer(doomed["token"])) as s:
            assert s.status_code == 200
            r = server.alice.delete(f"/api/account/tokens/{doomed['id']}")
            assert r.status_code == 404 and r.json()["error"] == "no_such_token"     # not alice's
            assert server.bob.delete(f"/api/account/tokens/{doomed['id']}").status_code == 200
            got = [json.loads(x) for x in s.iter_lines() if x.strip()]
        assert got[-1]["error"] == "token_revoked"
        r = http.post(f"/api/bot/game/{table}/resign", headers=bearer(doomed["token"]))
        assert r.status_code == 401 and r.json()["error"] == "token_revoked"
        # an account sending faster than its limit (60 at once, then 20 a second) is told to
        # wait, whichever of its tokens it uses
        busy = bot_token(server.alice, "alicebusy", ["bot:play"])["token"]
        busy2 = bot_token(server.alice, "alicebusy", ["bot:play"])["token"]
        for _ in range(1000):
            r = http.get("/api/bot/account", headers=bearer(busy))
            if r.status_code != 200:
                break
        assert r.status_code == 429 and r.json()["error"] == "rate_limited" and "retry_after" in r.json()
        assert int(r.headers["Retry-After"]) >= 1
        # per account: the other token's fresh requests draw on the same emptied bucket (a token
        # of its own would answer all 10; the bucket refills 20 a second on a slow machine too)
        ok = sum(http.get("/api/bot/account", headers=bearer(busy2)).status_code == 200 for _ in range(10))
        assert ok < 10
        assert http.get("/api/bot/account", headers=bearer(server.a)).status_code == 200   # another
        http.post(f"/api/bot/game/{table}/resign", headers=bearer(server.a))


def test_a_doudizhu_stream_shows_nothing_hidden_from_its_seat(server):
    async def run():
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            r = await http.post("/api/bot/challenge/bobbot", headers=bearer(server.a),
                                json={"game": "doudizhu", "settings": {"clock": "none", "bot_delay_ms": 0},
                                      "bot": "rule"})
            assert r.status_code == 201, r.text
            r = await http.post(f"/api/bot/challenge/{r.json()['id']}/accept", headers=bearer(server.b))
            table = r.json()["table"]
            logs: list[list[str]] = [[], []]
            finals = await asyncio.wait_for(asyncio.gather(
                play_seat(http, table, server.a, seed=3, log=logs[0]),
                play_seat(http, table, server.b, seed=4, log=logs[1])), 60)
            rec = (await http.get(f"/api/records/{finals[0]['record']}")).json()["record"]
            return finals, logs, Record.from_json(rec)
    finals, logs, record = asyncio.run(run())
    assert finals[0]["result"] == finals[1]["result"]
    deals = record.deal
    public = public_cards(record)       # what the spectator's view shows after each action
    for seat, log in enumerate(logs):
        # the stream does name cards: the seat's own hand is in it
        assert set(deals[-1]["hands"][seat]) <= set(CARD.findall(" ".join(log)))
        for text in log:
            msg = json.loads(text)
            view = msg.get("view") or {}
            deal = deals[view.get("redeals", 0)] if view else deals[0]
            allowed = set(deal["kitty"]) | set(deal["hands"][seat])
            if "seq" in msg and msg["seq"] < len(public):
                allowed |= public[msg["seq"]]
            leaked = set(CARD.findall(text)) - allowed
            assert not leaked, f"seat {seat}'s stream shows {leaked}"


def test_a_person_marks_their_own_account_a_bot(server):
    carol = person(server.base, "carol")
    try:
        board = carol.post("/api/account/tokens", json={"scopes": ["board:play", "challenge:write"]}).json()
        with httpx.Client(base_url=server.base, timeout=30) as http:
            me = http.get("/api/bot/account", headers=bearer(board["token"])).json()
            assert me == {"id": me["id"], "username": "carol", "bot": False,
                          "scopes": ["board:play", "challenge:write"]}
            assert carol.post("/api/account/bot").json() == {"ok": True, "bot": True}
            # a person's play token does not outlive the change
            r = http.get("/api/bot/account", headers=bearer(board["token"]))
            assert r.status_code == 401 and r.json()["error"] == "token_revoked"
            assert carol.get("/api/me").json()["user"]["bot"] is True
            r = carol.post("/api/account/bot")
            assert r.status_code == 409 and r.json()["error"] == "already_bot"
            r = carol.post("/api/account/bots", json={"username": "carolbot2"})
            assert r.status_code == 403 and r.json()["error"] == "not_for_bots"
            tok = carol.post("/api/account/tokens", json={"scopes": ["bot:play"]}).json()["token"]
            r = http.post("/api/bot/seek", headers=bearer(tok), json={"game": "gomoku"})
            assert r.status_code == 200 and r.json()["created"] is True, r.text
            seats = http.get(f"/api/tables/{r.json()['table']}").json()["seats"]
            assert seats[0] == {"user": me["id"], "name": "carol", "bot_account": True}
    finally:
        carol.close()
