"""A rated game rates its players exactly once when a real ``qipai serve`` is killed with SIGKILL
as the game ends: the rating update is in the transaction that stores the record.

Three rated games end at once, each by a resignation sent at a different moment before the kill
(just before it, a little before, and acknowledged by the game-over state), so the kill meets
games whose resignation was not yet stored, stored but not yet finished into a record, and
finished. After the restart every game is finished (a resignation that was lost is sent again)
and every player has exactly one rating change for their game.
"""

from __future__ import annotations

import asyncio
import json
import signal

import httpx
import websockets

from .server_process import answer_commitment, free_port, signup, start, wait_up


async def play_until(port: int, table: str, cookies: list[dict[str, str]], plies: int,
                     resign_at: asyncio.Event, over: asyncio.Event) -> None:
    """Both players play first legal moves for ``plies`` plies; once ``resign_at`` is set the
    first player resigns; ``over`` is set when a state with a result arrives."""
    uri = f"ws://127.0.0.1:{port}/ws/tables/{table}"
    played = 0
    try:
        async with websockets.connect(uri, additional_headers=cookies[0]) as a, \
                websockets.connect(uri, additional_headers=cookies[1]) as b:
            async def seat(ws, me: int) -> None:
                nonlocal played
                async for text in ws:
                    msg = json.loads(text)
                    await answer_commitment(ws, msg)
                    if msg["type"] != "state":
                        continue
                    if msg["result"]:
                        over.set()
                        return
                    if msg["seat"] in msg["to_act"] and played < plies:
                        played += 1
                        await ws.send(json.dumps({"type": "move", "seq": msg["seq"], "turn": msg["turn"],
                                                  "action": msg["view"]["legal_moves"][0]}))
            tasks = [asyncio.ensure_future(seat(a, 0)), asyncio.ensure_future(seat(b, 1))]
            while played < plies:
                await asyncio.sleep(0.02)
            await resign_at.wait()
            await a.send(json.dumps({"type": "resign"}))
            await asyncio.gather(*tasks, return_exceptions=True)
    except (websockets.ConnectionClosed, OSError):
        pass


async def record_of(http: httpx.AsyncClient, table: str, cookie: dict[str, str]) -> int | None:
    mine = (await http.get("/api/records?user=me", headers=cookie)).json()
    return next((r["id"] for r in mine if r["table"] == table), None)


async def finish_if_open(port: int, http: httpx.AsyncClient, table: str, cookie: dict[str, str]) -> str:
    """Resign the game at ``table`` unless it is over; returns what the kill had met:
    ``stored`` (the record), ``resumed`` (the resignation stored, the game finished again at the
    restart) or ``lost`` (the resignation was not stored: resigned again now)."""
    if await record_of(http, table, cookie) is not None:
        return "stored"
    case = "resumed"
    uri = f"ws://127.0.0.1:{port}/ws/tables/{table}"
    async with websockets.connect(uri, additional_headers=cookie) as ws:
        async for text in ws:
            msg = json.loads(text)
            if msg["type"] != "state":
                continue
            if msg["record"]:
                break
            if not msg["result"]:
                case = "lost"
                await ws.send(json.dumps({"type": "resign"}))
    return case


async def scenario(tmp_path) -> None:
    port = free_port()
    server = start(tmp_path, port)
    try:
        await asyncio.to_thread(wait_up, port)
        base = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            names = ["p0", "p1", "p2", "p3", "p4"]
            cookies = {n: await signup(http, n) for n in names}
            pairs = [("p0", "p1"), ("p2", "p3"), ("p4", "p0")]
            tables = []
            for x, y in pairs:
                r = await http.post("/api/tables", headers=cookies[x], json={
                    "game": "xiangqi", "settings": {"clock": "none", "rated": True}})
                assert r.status_code == 201, r.text
                tid = r.json()["id"]
                r = await http.post(f"/api/tables/{tid}/sit", headers=cookies[y], json={})
                assert r.status_code == 200, r.text
                tables.append(tid)
            resign = [asyncio.Event() for _ in tables]
            over = [asyncio.Event() for _ in tables]
            games = [asyncio.ensure_future(play_until(port, t, [cookies[x], cookies[y]], 4 + 2 * i,
                                                      resign[i], over[i]))
                     for i, (t, (x, y)) in enumerate(zip(tables, pairs))]
            # the third game's resignation is acknowledged (its game-over state arrived) first
            resign[2].set()
            await asyncio.wait_for(over[2].wait(), 60)
            resign[1].set()
            await asyncio.sleep(0.01)
            resign[0].set()
            await asyncio.sleep(0)
            server.send_signal(signal.SIGKILL)
            server.wait(timeout=30)
            await asyncio.gather(*games)
            server = start(tmp_path, port)
            await asyncio.to_thread(wait_up, port)
            cases = [await finish_if_open(port, http, t, cookies[x]) for t, (x, _) in zip(tables, pairs)]
            assert cases[2] == "stored"
            records = [await record_of(http, t, cookies[x]) for t, (x, _) in zip(tables, pairs)]
            games_of = {"p0": 2, "p1": 1, "p2": 1, "p3": 1, "p4": 1}
            for n in names:
                got = (await http.get(f"/api/users/{n}/ratings")).json()
                (rating,) = got["ratings"]
                assert rating["games"] == games_of[n], (n, got, cases)
                assert len(got["history"]) == games_of[n], (n, got, cases)
                assert len({h["record"] for h in got["history"]}) == games_of[n]
            for t, rec in zip(tables, records):
                changes = (await http.get(f"/api/records/{rec}")).json()["ratings"]
                assert len(changes) == 2, (t, changes)
    finally:
        if server.poll() is None:
            server.terminate()
        server.communicate(timeout=30)


def test_a_rated_game_is_rated_once_across_a_kill_at_its_end(tmp_path):
    asyncio.run(scenario(tmp_path))
