"""The Bot API's limits hold per account, not per token: a token costs nothing to make, so
making more of them must not open more streams nor send more requests (a real server)."""

from __future__ import annotations

import asyncio
import json
import time

import httpx

from .botapi_helpers import bearer, bot_token, person
from .server_helpers import LiveServer


def test_more_tokens_give_an_account_no_more_streams_nor_requests(tmp_path):
    with LiveServer(tmp_path) as srv:
        owner = person(srv.base, "many")
        tokens = [bot_token(owner, "manybot", ["bot:play"]) for _ in range(3)]
        other = bot_token(owner, "otherbot", ["bot:play"])["token"]

        async def run():
            async with httpx.AsyncClient(base_url=srv.base, timeout=30,
                                         limits=httpx.Limits(max_connections=50)) as http:
                async def open_stream(token: str) -> httpx.Response:
                    req = http.build_request("GET", "/api/bot/stream/event", headers=bearer(token))
                    return await http.send(req, stream=True)
                opened = [await open_stream(tokens[i % 2]["token"]) for i in range(8)]
                assert [r.status_code for r in opened] == [200] * 8
                refused = await open_stream(tokens[2]["token"])       # a third token: no more
                assert refused.status_code == 429
                assert json.loads(await refused.aread())["error"] == "too_many_streams"
                ok = await open_stream(other)                          # another account: its own
                assert ok.status_code == 200
                await ok.aclose()
                # revoking a token ends its streams (a line, then the end) and frees their places
                assert owner.delete(f"/api/account/tokens/{tokens[0]['id']}").status_code == 200
                for r in opened[0::2]:
                    got = [ln async for ln in r.aiter_lines() if ln]
                    assert json.loads(got[-1])["error"] == "token_revoked"
                    await r.aclose()
                again = [await open_stream(tokens[2]["token"]) for _ in range(4)]
                assert [r.status_code for r in again] == [200] * 4
                for r in opened[1::2] + again:
                    await r.aclose()
                # requests: one bucket for the account (60 at once, 20 a second after), whichever
                # token they carry; sent in concurrent batches, the bound counts the time they took
                codes: list[int] = []
                start = time.monotonic()
                while 429 not in codes and len(codes) < 400:
                    batch = [http.get("/api/bot/account", headers=bearer(tokens[1 + i % 2]["token"]))
                             for i in range(20)]
                    codes += [r.status_code for r in await asyncio.gather(*batch)]
                took = time.monotonic() - start
                assert 429 in codes, codes
                assert codes.count(200) <= 60 + 20 * took + 1, (codes.count(200), took)
        asyncio.run(asyncio.wait_for(run(), 60))
        owner.close()
