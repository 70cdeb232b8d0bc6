"""Helpers for tests of `qipai serve` as a real process: a free port, start, wait until it answers."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from .e2e.timing import until as within

QIPAI = str(Path(sys.executable).parent / "qipai")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(data: Path, port: int, *args: str, **env: str) -> subprocess.Popen:
    """``qipai serve`` on ``port`` with its SQLite file in ``data`` (more command-line ``args``,
    extra environment ``env``)."""
    return subprocess.Popen([QIPAI, "serve", "--port", str(port), "--data-dir", str(data), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **env})


def wait_up(port: int) -> None:
    for _ in within(60):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise AssertionError("the server did not start")


async def answer_commitment(sock, msg: dict, nonce: str = "00") -> None:
    """A table's deal waits for each seat's nonce: answer a ``commitment`` message with one."""
    if msg["type"] == "commitment":
        await sock.send(json.dumps({"type": "nonce", "nonce": nonce}))


async def signup(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    """Sign ``name`` up on a real server; returns the session cookie as a header."""
    r = await http.post("/api/signup", json={"username": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    token = r.cookies["qipai_session"]
    http.cookies.clear()
    return {"Cookie": f"qipai_session={token}"}
