"""kill -9 of a real `qipai serve` with moves in flight loses nothing acknowledged (§5.8).

Several tables play at once (a person's random legal moves against a random bot); each client
records every state it was sent — each one acknowledges the action that made it. The server
is killed at a random moment and restarted (``kills`` times); then every game must hold every
acknowledged action, unchanged and in order (checked against the finished record). A longer
run of the same check: ``benchmarks/crash_soak.py``.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal

import httpx
import websockets

from .server_process import answer_commitment, free_port, signup, start, wait_up

ACCOUNTS = 5            # well within the default sign-up limit per address (30)


async def play(port: int, table: str, cookie: dict[str, str], acked: dict[int, str],
               rng: random.Random, think: float) -> None:
    """Play random legal moves until the connection drops; ``acked[seq]`` = the action that
    made state ``seq`` (xiangqi's ``last_move``)."""
    uri = f"ws://127.0.0.1:{port}/ws/tables/{table}"
    try:
        async with websockets.connect(uri, additional_headers=cookie) as ws:
            async for text in ws:
                msg = json.loads(text)
                await answer_commitment(ws, msg, f"{rng.getrandbits(128):032x}")
                if msg["type"] != "state":
                    continue
                if msg["seq"]:
                    acked[msg["seq"]] = msg["view"]["last_move"]
                legal = msg["view"].get("legal_moves")
                if msg["to_act"] == [msg["seat"]] and legal and not msg["result"]:
                    await asyncio.sleep(rng.uniform(think, 2 * think))      # within the rate limit
                    await ws.send(json.dumps({"type": "move", "seq": msg["seq"],
                                              "action": rng.choice(legal)}))
    except (websockets.ConnectionClosed, websockets.InvalidHandshake, OSError):
        pass                    # killed (InvalidHandshake: killed while the socket opened)


async def round_until_killed(port: int, tables: list[tuple[str, dict[str, str]]],
                             acked: list[dict[int, str]], server, rng: random.Random) -> None:
    per_account = max(1, len(tables) // ACCOUNTS)     # moves per account stay under 10/s
    tasks = [asyncio.ensure_future(play(port, t, cookie, acked[i], rng, 0.1 * per_account))
             for i, (t, cookie) in enumerate(tables)]
    await asyncio.sleep(rng.uniform(0.6, 1.6))
    server.send_signal(signal.SIGKILL)
    await asyncio.gather(*tasks)


async def scenario(tmp_path, rng: random.Random, kills: int = 1, tables_n: int = 4,
                   serve_args: tuple[str, ...] = ()) -> int:
    """Returns the number of acknowledged actions checked (``serve_args``: more options of
    ``qipai serve``)."""
    port = free_port()
    server = start(tmp_path, port, *serve_args)
    try:
        await asyncio.to_thread(wait_up, port)
        base = f"http://127.0.0.1:{port}"
        tables = []
        async with httpx.AsyncClient(base_url=base) as http:
            cookies = [await signup(http, f"p{i}") for i in range(min(tables_n, ACCOUNTS))]
            for i in range(tables_n):
                cookie = cookies[i % len(cookies)]
                r = await http.post("/api/tables", headers=cookie, json={
                    "game": "xiangqi", "bots": 1, "bot": "random",
                    "settings": {"clock": "none", "bot_delay_ms": 0}})
                assert r.status_code == 201, r.text
                tables.append((r.json()["id"], cookie))
        acked: list[dict[int, str]] = [{} for _ in tables]
        for _ in range(kills):
            await round_until_killed(port, tables, acked, server, rng)
            server.wait(timeout=30)
            server = start(tmp_path, port, *serve_args)
            await asyncio.to_thread(wait_up, port)
        assert sum(map(len, acked)) >= 5 * kills, acked          # the run did play
        async with httpx.AsyncClient(base_url=base) as http:
            for (table, cookie), seen in zip(tables, acked):
                actions = await finish(port, http, table, cookie)
                for seq, action in seen.items():
                    assert seq <= len(actions) and actions[seq - 1] == action, (table, seq, actions)
        return sum(map(len, acked))
    finally:
        if server.poll() is None:
            server.terminate()
        server.communicate(timeout=30)


async def finish(port: int, http: httpx.AsyncClient, table: str, cookie: dict[str, str]) -> list[str]:
    """Resign the game (unless it is over) and return the actions of its stored record."""
    mine = (await http.get("/api/records?user=me", headers=cookie)).json()
    record = next((r["id"] for r in mine if r["table"] == table), None)
    if record is None:                      # still playing (not over by mate before a kill)
        uri = f"ws://127.0.0.1:{port}/ws/tables/{table}"
        async with websockets.connect(uri, additional_headers=cookie) as ws:
            while record is None:
                msg = json.loads(await ws.recv())
                if msg["type"] != "state":
                    continue
                record = msg.get("record")
                if not msg["result"]:
                    await ws.send(json.dumps({"type": "resign"}))
    rec = (await http.get(f"/api/records/{record}")).json()["record"]
    return [a if isinstance(a, str) else a[1] for a in rec["actions"]]


def test_kill_9_loses_no_acknowledged_action(tmp_path):
    asyncio.run(scenario(tmp_path, random.Random()))
