"""Helpers for the Bot API tests: accounts, bot accounts and tokens on a real server, and a
seat that plays one game over the HTTP API (NDJSON game stream in, POST requests out)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import httpx

PASSWORD = "correct horse"


def person(base: str, name: str, address: str | None = None) -> httpx.Client:
    """Sign ``name`` up; a client holding its session cookie. ``address``: the client address
    every request of it names in ``X-Forwarded-For`` (heeded by a server that trusts the test's
    own address as a proxy, ``--forwarded-allow-ips``; else ignored)."""
    headers = {"X-Forwarded-For": address} if address else {}
    c = httpx.Client(base_url=base, timeout=30, headers=headers)
    r = c.post("/api/signup", json={"username": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return c


def bot_token(owner: httpx.Client, bot: str, scopes: list[str]) -> dict[str, Any]:
    """Create the bot account ``bot`` of ``owner`` (if new) and a token for it."""
    r = owner.post("/api/account/bots", json={"username": bot})
    assert r.status_code in (201, 409), r.text
    r = owner.post("/api/account/tokens", json={"account": bot, "scopes": scopes})
    assert r.status_code == 201, r.text
    return r.json()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def lines(http: httpx.AsyncClient, path: str, token: str):
    """The JSON objects of an NDJSON stream (keep-alive empty lines skipped)."""
    async with http.stream("GET", path, headers=bearer(token)) as r:
        assert r.status_code == 200, await r.aread()
        async for line in r.aiter_lines():
            if line.strip():
                yield line


async def game_start(it, table: str) -> dict[str, Any]:
    """The ``gameStart`` of ``table`` among the lines ``it`` of an account's event stream."""
    async for text in it:
        msg = json.loads(text)
        if msg["type"] == "gameStart" and msg["game"]["id"] == table:
            return msg
    raise AssertionError("the stream ended")


def choose_card(legal: list[str], rng: random.Random) -> str:
    """Doudizhu: take the highest bid (a landlord at once), else any legal play."""
    return legal[-1] if legal[-1].startswith("bid") else rng.choice(legal)


async def play_seat(http: httpx.AsyncClient, table: str, token: str,
                    choose: Callable[[list[str], random.Random], str | None] = choose_card,
                    seed: int = 1, log: list[str] | None = None,
                    answers: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Play the token's seat of ``table`` until the stream ends: a nonce for the commitment,
    then ``choose(legal, rng)`` at each of its turns (None: resign). Every line read goes to
    ``log``, every POST answer to ``answers``; returns the last state message."""
    rng = random.Random(seed)
    last: dict[str, Any] = {}
    async for text in lines(http, f"/api/bot/game/stream/{table}", token):
        if log is not None:
            log.append(text)
        msg = json.loads(text)
        if msg["type"] == "commitment":
            r = await http.post(f"/api/bot/game/{table}/nonce/{rng.getrandbits(64):016x}",
                                headers=bearer(token))
            assert r.status_code in (200, 409), r.text     # 409: the deal was made meanwhile
        if msg["type"] != "state":
            continue
        last = msg
        legal = msg.get("legal") or msg["view"].get("legal_moves") or msg["view"].get("legal")
        if msg["status"] == "playing" and msg["seat"] in msg["to_act"] and legal:
            action = choose(legal, rng)
            if action is None:
                r = await http.post(f"/api/bot/game/{table}/resign", headers=bearer(token))
            else:
                r = await http.post(f"/api/bot/game/{table}/move/{action}",
                                    params={"turn": msg["turn"]}, headers=bearer(token))
            if answers is not None:
                answers.append(r.json())
            # a move of an ended decision (another seat's claim came first) is stale: fine
            assert r.status_code == 200 or r.json()["error"] in ("stale_move", "not_playing"), r.text
    return last
