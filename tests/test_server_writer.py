"""The store's writer process under a real ``qipai serve --storage-writer process``: every group
commit runs in a child process (``Settings.storage_writer = "process"``). Killed with SIGKILL while moves
are in flight, it is started again and no acknowledged move is lost; a failing disk (the storage
fault hook, in the child) pauses the games and, once it works again, everything acknowledged is
there."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import time

import httpx
import websockets

from .e2e.timing import until as within
from .server_process import answer_commitment, free_port, signup, start, wait_up


def writer_pid(server: subprocess.Popen) -> int:
    """The pid of the server's writer process (its child running qipai.server.writer)."""
    for _ in within(30):
        out = subprocess.run(["pgrep", "-P", str(server.pid)], capture_output=True, text=True).stdout
        for pid in out.split():
            cmd = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ")
            if b"spawn_main" in cmd:
                return int(pid)
        time.sleep(0.05)
    raise AssertionError("the server has no writer process")


async def play(port: int, table: str, cookie: dict[str, str], moves: int, acked: dict[int, str],
               during=None) -> dict:
    """Play ``moves`` of the person's first legal moves against the bot, calling ``during()``
    (if given) after the first; ``acked[seq]`` = the move each state acknowledges. Returns the
    last state message."""
    uri = f"ws://127.0.0.1:{port}/ws/tables/{table}"
    made = 0
    async with websockets.connect(uri, additional_headers=cookie) as ws:
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
            await answer_commitment(ws, msg)
            if msg["type"] != "state":
                continue
            if msg["seq"]:
                acked[msg["seq"]] = msg["view"]["last_move"]
            if msg["to_act"] == [msg["seat"]] and not msg["result"]:
                if made == moves:
                    return msg
                if made == 1 and during is not None:
                    await during()
                made += 1
                await ws.send(json.dumps({"type": "move", "seq": msg["seq"],
                                          "action": msg["view"]["legal_moves"][0]}))


async def resign_and_record(port: int, http: httpx.AsyncClient, table: str, cookie) -> list[str]:
    uri = f"ws://127.0.0.1:{port}/ws/tables/{table}"
    async with websockets.connect(uri, additional_headers=cookie) as ws:
        await ws.send(json.dumps({"type": "resign"}))
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if msg["type"] == "state" and msg.get("record"):
                break
    rec = (await http.get(f"/api/records/{msg['record']}")).json()["record"]
    return [a if isinstance(a, str) else a[1] for a in rec["actions"]]


async def _new_table(http, cookie) -> str:
    r = await http.post("/api/tables", headers=cookie, json={
        "game": "xiangqi", "bots": 1, "bot": "random", "sit": True, "seat": 0,
        "settings": {"clock": "none", "bot_delay_ms": 0}})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def test_a_killed_writer_process_is_started_again_and_loses_nothing_acknowledged(tmp_path):
    async def scenario(server, port):
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            cookie = await signup(http, "writer")
            table = await _new_table(http, cookie)
            first = writer_pid(server)
            acked: dict[int, str] = {}

            async def kill_writer():
                os.kill(first, signal.SIGKILL)
            await play(port, table, cookie, 6, acked, during=kill_writer)
            second = writer_pid(server)
            assert second != first
            actions = await resign_and_record(port, http, table, cookie)
        assert len(acked) >= 6
        for seq, action in acked.items():
            assert actions[seq - 1] == action, (seq, actions)

    port = free_port()
    server = start(tmp_path, port, "--storage-writer", "process")
    try:
        wait_up(port)
        asyncio.run(scenario(server, port))
    finally:
        server.terminate()
        _, err = server.communicate(timeout=30)
    assert "starting the writer process again" in err


def test_a_failing_disk_in_the_writer_process_pauses_and_then_keeps_everything(tmp_path):
    fault = tmp_path / "qipai.db.fault"

    async def scenario(port):
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            cookie = await signup(http, "disk")
            table = await _new_table(http, cookie)
            acked: dict[int, str] = {}
            await play(port, table, cookie, 2, acked)
            fault.write_text("full")
            r = await http.post("/api/tables", headers=cookie, json={"game": "gomoku", "bots": 1})
            assert r.status_code == 503 and r.json()["error"] == "storage_unavailable", r.text
            uri = f"ws://127.0.0.1:{port}/ws/tables/{table}"
            async with websockets.connect(uri, additional_headers=cookie) as ws:
                seen = []
                while "paused" not in seen:
                    seen.append(json.loads(await asyncio.wait_for(ws.recv(), 30))["type"])
            fault.unlink()
            await play(port, table, cookie, 2, acked)
            actions = await resign_and_record(port, http, table, cookie)
        for seq, action in acked.items():
            assert actions[seq - 1] == action, (seq, actions)

    port = free_port()
    server = start(tmp_path, port, "--storage-writer", "process", QIPAI_STORAGE_FAULTS="1")
    try:
        wait_up(port)
        asyncio.run(scenario(port))
    finally:
        server.terminate()
        server.communicate(timeout=30)
