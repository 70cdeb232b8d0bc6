"""Takeback requests through the Bot API, against a real ``qipai serve``: a person at the table's
socket asks a bot account's program for a takeback; the program sees the open request on its
game stream and declines it, then accepts the next one, with POST requests; its own requests
and answers are refused as on the socket, and a wrong token or another bot's is refused."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from websockets.asyncio.client import connect

from .botapi_helpers import bearer, bot_token, lines, person
from .server_helpers import LiveServer


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with LiveServer(tmp_path_factory.mktemp("botapi-takeback")) as srv:
        srv.owner, srv.carol = person(srv.base, "owner"), person(srv.base, "carol")
        srv.bot = bot_token(srv.owner, "tbbot", ["bot:play"])["token"]
        srv.other = bot_token(srv.owner, "otherbot", ["bot:play"])["token"]
        yield srv
        srv.owner.close()
        srv.carol.close()


async def until(it, pred, wait: float = 20.0) -> dict:
    """The first JSON message of ``it`` (lines of a stream, or a socket) that ``pred`` accepts,
    within ``wait`` seconds."""
    async def first() -> dict:
        async for text in it:
            msg = json.loads(text)
            if pred(msg):
                return msg
        raise AssertionError("the stream ended")
    return await asyncio.wait_for(first(), wait)


def test_a_person_asks_a_bot_api_program_for_takebacks(server):
    async def run():
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            r = await http.post("/api/bot/seek", headers=bearer(server.bot),
                                json={"game": "xiangqi", "settings": {"clock": "none"}})
            assert r.status_code == 200 and r.json()["seat"] == 0, r.text
            tid = r.json()["table"]
            r = server.carol.post(f"/api/tables/{tid}/sit")
            assert r.status_code == 200, r.text
            game = f"/api/bot/game/{tid}"

            async def post(path: str, token: str = server.bot) -> httpx.Response:
                return await http.post(game + path, headers=bearer(token))

            bot = lines(http, f"/api/bot/game/stream/{tid}", server.bot)
            url = f"{server.ws}/ws/tables/{tid}"
            cookie = {"Cookie": f"qipai_session={server.carol.cookies['qipai_session']}"}
            async with connect(url, additional_headers=cookie) as carol:
                await until(bot, lambda m: m["type"] == "state" and m["seq"] == 0)
                r = await post("/takeback/offer")                 # nothing of its own to take back
                assert r.status_code == 409 and r.json()["error"] == "takeback_nothing", r.text
                # text that is no move at all is refused and never counted (three would lose);
                # a control character is no part of a move, trimmed or not (a newline, a NUL)
                for text in ("h2e2%3Fturn%3D1", "%00", "h2e2%3Fturn%3D1", "h2e2%0A", "h2e2%00",
                             "%0Dh2e2", "h2e2%09"):
                    r = await post(f"/move/{text}?seq=0")
                    assert r.status_code == 400 and r.json()["error"] == "not_a_move", r.text
                # a turn the seat was never given is a wrong number, not a stale move
                for turn in (10**30, 2, -1):
                    r = await post(f"/move/h2e2?turn={turn}")
                    assert r.status_code == 400 and r.json()["error"] == "bad_turn", r.text
                    assert r.json()["params"]["max"] == 1, r.text
                # plain spaces around a move are trimmed, as a typed text's
                assert (await post("/move/%20h2e2%20?turn=1")).status_code == 200
                await until(carol, lambda m: m["type"] == "state" and m["seq"] == 1)
                await carol.send(json.dumps({"type": "move", "action": "h9g7", "seq": 1}))
                await until(bot, lambda m: m["type"] == "state" and m["seq"] == 2)
                r = await post("/takeback/accept")                # no request open
                assert r.status_code == 409 and r.json()["error"] == "no_takeback", r.text

                # carol asks: the program sees the open request and declines it
                await carol.send(json.dumps({"type": "takeback_offer"}))
                m = await until(bot, lambda m: m["type"] == "state" and "takeback" in m)
                assert m["takeback"] == 1 and m["seq"] == 2
                for path, token, status, code in (
                        ("/takeback/no", "qpt_" + "x" * 43, 401, "bad_token"),
                        ("/takeback/no", server.other, 403, "not_your_game"),
                        ("/takeback/maybe", server.bot, 400, "bad_answer"),
                        ("/takeback/offer", server.bot, 409, "takeback_open")):
                    r = await post(path, token)
                    assert r.status_code == status and r.json()["error"] == code, (path, r.text)
                r = await post("/takeback/no")
                assert r.status_code == 200 and r.json()["ok"] is True, r.text
                m = await until(bot, lambda m: m["type"] == "state")
                assert "takeback" not in m
                await until(carol, lambda m: m["type"] == "event"
                            and m["event"]["type"] == "takeback_declined")

                # the program moves, carol replies and asks again: accepted with "yes"
                assert (await post("/move/b2c2?seq=2")).status_code == 200
                await until(carol, lambda m: m["type"] == "state" and m["seq"] == 3)
                await carol.send(json.dumps({"type": "move", "action": "b9c7", "seq": 3}))
                await until(bot, lambda m: m["type"] == "state" and m["seq"] == 4)
                await carol.send(json.dumps({"type": "takeback_offer"}))
                await until(bot, lambda m: m["type"] == "state" and m.get("takeback") == 1)
                r = await post("/takeback/yes")
                assert r.status_code == 200 and r.json()["ok"] is True, r.text
                ev = await until(bot, lambda m: m["type"] == "event" and m["event"]["type"] == "takeback")
                assert ev["event"]["by"] == 1 and ev["event"]["moves"] == 1 and ev["event"]["ply"] == 3
                # seq never goes back (one more than before the takeback); the position is ply 3
                m = await until(carol, lambda m: m["type"] == "state" and m["seq"] == 5)
                assert m["to_act"] == [1] and "takeback" not in m and m["ply"] == 3

                # the program asks on its own: carol accepts at the socket
                await carol.send(json.dumps({"type": "move", "action": "a9a8", "seq": 5}))
                await until(bot, lambda m: m["type"] == "state" and m["seq"] == 6)
                r = await post("/takeback/yes")                   # nothing open: it asks
                assert r.status_code == 200, r.text
                await until(carol, lambda m: m["type"] == "state" and m.get("takeback") == 0)
                await carol.send(json.dumps({"type": "takeback_accept"}))
                m = await until(bot, lambda m: m["type"] == "state" and m["seq"] == 7)
                assert m["to_act"] == [0] and [e["seat"] for e in m["moves"]["list"]] == [0, 1]
                assert m["ply"] == 2
                # a late move for the earlier state numbered 2 (the same position before the
                # takebacks) is stale, never applied to this one
                r = await post("/move/b0c2?seq=2")
                assert r.status_code == 409 and r.json()["error"] == "stale_move", r.text
                assert r.json()["params"]["current"] == 7 if "params" in r.json() else True
    asyncio.run(run())


def test_a_bot_api_program_gets_no_takeback_in_a_game_with_hidden_information(server):
    """Junqi hides the enemy's pieces: the takeback route refuses ``takeback_hidden`` (409), the
    same refusal as the socket's, whatever the answer asked."""
    async def run():
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            r = await http.post("/api/bot/seek", headers=bearer(server.bot),
                                json={"game": "junqi", "settings": {"clock": "none"}})
            assert r.status_code == 200, r.text
            tid = r.json()["table"]
            assert server.carol.post(f"/api/tables/{tid}/sit").status_code == 200
            bot = lines(http, f"/api/bot/game/stream/{tid}", server.bot)
            cookie = {"Cookie": f"qipai_session={server.carol.cookies['qipai_session']}"}
            async with connect(f"{server.ws}/ws/tables/{tid}", additional_headers=cookie) as carol:
                await until(carol, lambda m: m["type"] == "commitment")      # the deal waits for
                await carol.send(json.dumps({"type": "nonce", "nonce": "2e"}))  # both nonces
                assert (await http.post(f"/api/bot/game/{tid}/nonce/1f", headers=bearer(server.bot))
                        ).status_code == 200
                await until(bot, lambda m: m["type"] == "state" and m.get("status") == "playing")
            for answer in ("offer", "yes", "accept"):
                r = await http.post(f"/api/bot/game/{tid}/takeback/{answer}", headers=bearer(server.bot))
                assert r.status_code == 409 and r.json()["error"] == "takeback_hidden", r.text
    asyncio.run(run())
