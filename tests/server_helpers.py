"""Helpers for the server tests: a real app on a temporary SQLite file, accounts, WebSockets."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
from fastapi.testclient import TestClient  # noqa: E402

from qipai.server import Limits, Settings, create_app  # noqa: E402
from qipai.server.auth import COOKIE  # noqa: E402

#: seconds a test's WebSocket waits for the server's next message before it fails: the test
#: client's own ``receive`` waits for ever, and a message that never came (a test that read the
#: wrong socket first) held a CI worker for pytest-timeout's 300 s before the test failed
RECEIVE_SECONDS = 90.0


def _receive_within(self):
    """``WebSocketTestSession.receive`` with a deadline (:data:`RECEIVE_SECONDS`)."""
    import anyio

    async def within():
        with anyio.fail_after(RECEIVE_SECONDS):
            return await self._send_rx.receive()
    try:
        return self.portal.call(within)
    except TimeoutError:
        raise AssertionError(f"no WebSocket message from the server in {RECEIVE_SECONDS:.0f} s") from None


def _patch_receive() -> None:
    from starlette.testclient import WebSocketTestSession

    assert callable(getattr(WebSocketTestSession, "receive", None))
    WebSocketTestSession.receive = _receive_within


_patch_receive()


def make_settings(tmp: Path, **kw: Any) -> Settings:
    limits = kw.pop("limits", None) or Limits(moves_account=(1000.0, 1000), moves_ip=(5000.0, 5000),
                                              api_ip=(1000.0, 1000), signup_ip=(100.0, 100),
                                              replay_ip=(1000.0, 1000))
    kw.setdefault("nonce_window_ms", 0)       # tables deal at once unless a test waits for nonces
    kw.setdefault("database_url", f"sqlite:///{tmp / 'qipai.db'}")
    # a commit slower than this pauses the games (the product's 2 s); on a loaded test machine
    # a SQLite commit can take that long, and a pause the test did not cause changes what its
    # sockets are sent: the storage tests cause theirs with a fault, not a slow disk
    kw.setdefault("storage_stall", 15.0)
    return Settings(limits=limits, **kw)


def client(tmp: Path, **kw: Any) -> TestClient:
    return TestClient(create_app(make_settings(tmp, **kw)))


def signup(c: TestClient, name: str, password: str = "correct horse") -> str:
    """Create an account; returns its session token (the client's cookie jar is left empty)."""
    r = c.post("/api/signup", json={"username": name, "password": password})
    assert r.status_code == 201, r.text
    token = r.cookies[COOKIE]
    c.cookies.clear()
    return token


def as_user(token: str) -> dict[str, str]:
    return {"Cookie": f"{COOKIE}={token}"}


def post(c: TestClient, token: str | None, path: str, body: Any = None):
    return c.post(path, json=body if body is not None else {}, headers=as_user(token) if token else {})


def ws(c: TestClient, token: str | None, table: str):
    return c.websocket_connect(f"/ws/tables/{table}", headers=as_user(token) if token else {})


def next_state(sock, log: list[Any] | None = None, skip_events: bool = True) -> dict[str, Any]:
    """Receive until a ``state`` message (events and hellos are collected into ``log``)."""
    while True:
        text = sock.receive_text()
        msg = json.loads(text)
        if log is not None:
            log.append(text)
        if msg["type"] == "state":
            return msg
        if msg["type"] == "error" or not skip_events:
            return msg


def resign_at(c: TestClient, token: str, table: str) -> dict[str, Any]:
    """The player of ``token`` resigns at ``table``; returns the state that names its record."""
    with ws(c, token, table) as sock:
        next_state(sock)
        sock.send_json({"type": "resign"})
        m = next_state(sock)
        while not m.get("record"):
            m = next_state(sock)
        return m


def receive(sock, log: list[Any] | None = None) -> dict[str, Any]:
    text = sock.receive_text()
    if log is not None:
        log.append(text)
    return json.loads(text)


def until(sock, pred, limit: int = 400) -> dict[str, Any]:
    """The first message of ``sock`` for which ``pred`` holds (within ``limit`` messages)."""
    for _ in range(limit):
        m = receive(sock)
        if pred(m):
            return m
    raise AssertionError("not received")


class LiveServer:
    """A real ``qipai serve`` process on a free port of 127.0.0.1 (its own data directory; its
    log in ``log``; forked from the test process's zygote where it can be: tests/server_process.py
    ``serve_process``): ``base`` is its URL, ``ws`` its WebSocket URL, ``log_text()`` its output."""

    def __init__(self, tmp: Path, *args: str, env: dict[str, str] | None = None) -> None:
        import os
        import socket

        from .server_process import serve_process

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        self.log = tmp / f"serve-{self.port}.log"
        self.log.write_text("")
        self.proc = serve_process(["--port", str(self.port), "--data-dir", str(tmp / "data"), *args],
                                  self.log, env={**os.environ, **(env or {})})

    def log_text(self) -> str:
        return self.log.read_text()

    def __enter__(self) -> LiveServer:
        import time

        import httpx

        for _ in range(300):
            try:
                if httpx.get(self.base + "/api/games", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        self.__exit__()
        raise AssertionError("the server did not start:\n" + self.log_text())

    def __exit__(self, *exc: Any) -> None:
        self.proc.terminate()
        self.proc.wait(30)
