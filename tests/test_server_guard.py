"""The server's guard against hostile clients, over real sockets against a real `qipai serve`
process: cross-site requests (Origin), body limits whatever the framing, WebSocket message
sizes in bytes, and bad input that must get a JSON answer (never a crash or plain text)."""

from __future__ import annotations

import asyncio
import json
import logging
import time

import httpx
import pytest
import websockets
from fastapi import FastAPI

import qipai
from qipai.server import create_app

from .server_helpers import LiveServer, client, make_settings, next_state, post, receive, signup, ws
from .server_process import answer_commitment

PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("guard")
    with LiveServer(tmp, "--allowed-origin", "https://play.example.org",
                    env={"QIPAI_ALLOWED_ORIGINS": "https://other.example.net:8443, http://lan.example"}) as s:
        yield s


def account(live, name: str) -> httpx.Client:
    """A signed-in client. Each signs up from its own address (X-Forwarded-For, trusted from
    127.0.0.1 by default), so the per-address sign-up limit does not run out."""
    c = httpx.Client(base_url=live.base, timeout=10)
    r = c.post("/api/signup", json={"username": name, "password": PASSWORD},
               headers={"X-Forwarded-For": f"10.0.{len(name)}.{sum(map(ord, name)) % 250}"})
    assert r.status_code == 201, r.text
    return c


def cookie(c: httpx.Client) -> str:
    return "; ".join(f"{k}={v}" for k, v in c.cookies.items())


# ----- Origin ------------------------------------------------------------------------------------
def test_state_changing_requests_from_another_origin_are_refused(live):
    alice = account(live, "origin_alice")
    table = {"game": "xiangqi", "settings": {"clock": "none"}}
    port = live.port
    tables_before = len(alice.get("/api/tables").json())
    foreign = [f"http://127.0.0.1:{port + 1}", f"http://localhost:{port}", f"https://127.0.0.1:{port}",
               "http://evil.example", "null", "garbage"]
    for origin in foreign:
        r = alice.post("/api/tables", json=table, headers={"Origin": origin})
        assert r.status_code == 403 and r.json()["error"] == "bad_origin", (origin, r.text)
        r = alice.post("/api/login", json={"username": "origin_alice", "password": PASSWORD},
                       headers={"Origin": origin})
        assert r.status_code == 403 and r.json()["error"] == "bad_origin", origin
    # no Origin, but the browser's fetch metadata says another site's page sent it
    r = alice.post("/api/tables", json=table, headers={"Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 403 and r.json()["error"] == "bad_origin", r.text
    assert len(alice.get("/api/tables").json()) == tables_before     # nothing was created
    # the site itself (its own scheme, host and port), allowed origins, and no Origin at all
    for origin in (f"http://127.0.0.1:{port}", "https://play.example.org", "https://play.example.org:443",
                   "https://other.example.net:8443", "http://lan.example", None):
        headers = {"Origin": origin, "Sec-Fetch-Site": "same-origin"} if origin else {}
        r = alice.post("/api/tables", json=table, headers=headers)
        assert r.status_code == 201, (origin, r.text)
        r = alice.post(f"/api/tables/{r.json()['id']}/leave", headers=headers)
        assert r.status_code == 200, (origin, r.text)
    # reading is not state-changing: a GET with a foreign Origin is answered (browsers keep the
    # answer from the other site's page, as no CORS header allows it)
    r = alice.get("/api/me", headers={"Origin": "http://evil.example"})
    assert r.status_code == 200 and "access-control-allow-origin" not in r.headers


async def _first_messages(url: str, headers: dict[str, str]) -> tuple[list[dict], int | None, str]:
    out = []
    async with websockets.connect(url, additional_headers=headers, open_timeout=10) as sock:
        try:
            while len(out) < 2:
                out.append(json.loads(await asyncio.wait_for(sock.recv(), 5)))
        except websockets.ConnectionClosed:
            pass
        return out, sock.close_code, sock.close_reason


def test_a_websocket_from_another_origin_is_closed_before_it_sees_anything(live):
    alice = account(live, "origin_bob")
    tid = alice.post("/api/tables", json={"game": "doudizhu", "bots": 2}).json()["id"]
    url = f"{live.ws}/ws/tables/{tid}"
    for origin in (f"http://127.0.0.1:{live.port + 1}", "http://evil.example", "null"):
        msgs, code, reason = asyncio.run(_first_messages(url, {"Cookie": cookie(alice), "Origin": origin}))
        assert msgs == [{"type": "error", "error": "bad_origin", "code": "bad_origin", "params": {},
                         "message": msgs[0]["message"]}]
        assert code == 4403 and reason == "bad_origin"
    for origin in (f"http://127.0.0.1:{live.port}", "https://play.example.org", None):
        headers = {"Cookie": cookie(alice), **({"Origin": origin} if origin else {})}
        msgs, _, _ = asyncio.run(_first_messages(url, headers))
        assert msgs[0]["type"] == "hello" and msgs[0]["seat"] == 0, msgs


def test_a_malformed_allowed_origin_stops_the_server_with_one_line(tmp_path):
    server = LiveServer(tmp_path, "--allowed-origin", "play.example.org")
    assert server.proc.wait(60) != 0
    assert "qipai serve: not an origin" in server.log_text()
    assert "Traceback" not in server.log_text()


# ----- body limits ---------------------------------------------------------------------------
def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


def test_a_chunked_body_is_refused_once_it_passes_the_limit(live):
    alice = account(live, "chunky")
    sent = 0
    total = 200 * 1024 * 1024
    chunk = b"[" + b"1," * 32767 + b"1"

    def body():
        nonlocal sent
        while sent < total:
            sent += len(chunk)
            yield chunk
    before = rss_kib(live.proc.pid)
    r = alice.post("/api/tables", content=body(), headers={"Content-Type": "application/json"})
    assert "content-length" not in r.request.headers and r.request.headers["transfer-encoding"] == "chunked"
    assert r.status_code == 413 and r.json()["error"] == "too_large", r.text
    assert sent < 32 * 1024 * 1024                       # the server stopped reading early
    assert rss_kib(live.proc.pid) - before < 30 * 1024   # and did not hold the body
    # a chunked body under the limit is read as usual
    small = json.dumps({"game": "xiangqi", "sit": False}).encode()
    r = alice.post("/api/tables", content=iter([small[:10], small[10:]]),
                   headers={"Content-Type": "application/json"})
    assert r.status_code == 201, r.text
    # an announced oversized body is refused before it is read
    r = alice.post("/api/tables", content=b"x" * 70_000, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "too_large"


async def _ws_exchange(url: str, headers: dict[str, str], texts: list[str]) -> list[dict]:
    """Send each text after the greeting and collect one answer to each."""
    async with websockets.connect(url, additional_headers=headers, max_size=1 << 20) as sock:
        while (msg := json.loads(await sock.recv()))["type"] != "state":
            await answer_commitment(sock, msg)
        answers = []
        for text in texts:
            await sock.send(text)
            answers.append(json.loads(await asyncio.wait_for(sock.recv(), 5)))
        return answers


def padded_ping(size: int) -> str:
    """A ping of exactly ``size`` UTF-8 bytes, padded with 3-byte characters (and ASCII)."""
    head, tail = '{"type": "ping", "pad": "', '"}'
    room = size - len(head) - len(tail)
    return head + "中" * (room // 3) + "x" * (room % 3) + tail


def test_websocket_limits_count_bytes_and_deep_json_is_bad_json(live):
    alice = account(live, "bytes_alice")
    tid = alice.post("/api/tables", json={"game": "xiangqi", "bots": 1,
                                          "settings": {"clock": "none"}}).json()["id"]
    url = f"{live.ws}/ws/tables/{tid}"
    under, over = padded_ping(4096), padded_ping(4097)
    assert len(under.encode()) == 4096 and len(over.encode()) == 4097 and len(over) < 1500
    deep = "[" * 2000 + "]" * 2000
    deeper = "[" * 4096                                 # unterminated, too
    answers = asyncio.run(_ws_exchange(url, {"Cookie": cookie(alice)},
                                       [under, over, deep, deeper, '{"type": "ping"}']))
    kinds = [a.get("error", a["type"]) for a in answers]
    assert kinds == ["pong", "too_large", "bad_json", "bad_json", "pong"], answers
    assert "4096 bytes" in answers[1]["message"]


# ----- bad input gets JSON ---------------------------------------------------------------------
def test_pages_answer_head_and_every_answer_has_the_security_headers(live):
    """HEAD of a page is its GET without the body; every answer says nosniff and may not be
    framed; a page has a content security policy of the site alone (FastAPI's /docs none)."""
    with httpx.Client(base_url=live.base, timeout=10) as c:
        head, page = c.head("/"), c.get("/")
        assert head.status_code == page.status_code == 200 and head.content == b""
        assert c.head("/events/x").status_code == 200
        for r in (head, page, c.get("/api/games"), c.get("/api/records/999999999999999"),
                  c.get("/static/app.js"), c.post("/api/login", json={})):
            assert r.headers["x-content-type-options"] == "nosniff", r.url
            assert r.headers["x-frame-options"] == "DENY", r.url
        policy = page.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
        assert "content-security-policy" not in c.get("/api/games").headers
        assert "content-security-policy" not in c.get("/docs").headers


def test_record_ids_out_of_range_are_no_record(live):
    for rid in ("9223372036854775808", "9223372036854775807", "0", "-1", "99999999999999999999999"):
        for tail in ("", "/steps", "/download"):
            r = httpx.get(f"{live.base}/api/records/{rid}{tail}")
            assert r.status_code == 404 and r.json()["error"] == "no_record", (rid, tail, r.text)


def test_a_value_of_the_wrong_shape_for_an_option_is_bad_options(live):
    alice = account(live, "shapes")
    for value in ({"a": 1}, [1, 2], [[]]):
        body = {"game": "doudizhu", "options": {"preset": value}, "sit": False}
        r = alice.post("/api/tables", json=body)
        assert r.status_code == 400 and r.json()["error"] == "bad_options", (body, r.text)


def test_every_option_of_every_game_refuses_values_of_the_wrong_shape(tmp_path):
    with client(tmp_path) as c:
        token = signup(c, "sweeper")
        for info in qipai.games():
            for option in info.to_json()["options"]:
                for value in ({"a": 1}, [1, 2], [[]]):
                    body = {"game": info.id, "options": {option["name"]: value}, "sit": False}
                    r = post(c, token, "/api/tables", body)
                    assert r.status_code == 400 and r.json()["error"] == "bad_options", (body, r.text)


class Faulty:
    """A middleware with a fault, placed inside the safety net."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and scope["path"] == "/api/middleware-boom":
            raise KeyError("a fault in a middleware")
        await self.app(scope, receive, send)


def test_the_safety_net_answers_json_500_and_logs_the_trace(tmp_path, caplog):
    from fastapi.testclient import TestClient
    from starlette.middleware import Middleware

    app: FastAPI = create_app(make_settings(tmp_path))

    async def boom():
        raise RuntimeError("a fault in a route")
    app.router.add_api_route("/api/boom", boom)
    app.router.routes.insert(0, app.router.routes.pop())       # before the page routes
    app.user_middleware.insert(1, Middleware(Faulty))          # inside the safety net
    with TestClient(app, raise_server_exceptions=False) as c, \
            caplog.at_level(logging.ERROR, logger="qipai.server"):
        for path, fault in (("/api/boom", "a fault in a route"),
                            ("/api/middleware-boom", "a fault in a middleware")):
            r = c.get(path)
            assert r.status_code == 500 and r.headers["content-type"] == "application/json"
            assert r.json()["error"] == "internal" and r.json()["message"]
            assert fault in caplog.text and "Traceback" in caplog.text
            caplog.clear()
        signup(c, "still_fine")                     # the server goes on answering


def test_table_messages_of_odd_shapes_get_json_answers_and_the_socket_stays(live):
    alice = account(live, "sockshape")
    tid = alice.post("/api/tables", json={"game": "xiangqi", "bots": 1,
                                          "settings": {"clock": "none"}}).json()["id"]
    log_before = len(live.log_text())
    texts = ['{"type": "move", "seq": 0, "action": {"a": [1]}}', '{"type": {"x": 1}}',
             '{"type": "move", "seq": [0], "action": "h2e2"}', '{"type": "ping"}']
    answers = asyncio.run(_ws_exchange(f"{live.ws}/ws/tables/{tid}", {"Cookie": cookie(alice)}, texts))
    assert [a["type"] for a in answers[:3]] == ["error"] * 3 and answers[3]["type"] == "pong", answers
    time.sleep(0.1)
    assert "Traceback" not in live.log_text()[log_before:]


def test_a_fault_while_handling_a_socket_message_answers_internal(tmp_path, caplog, monkeypatch):
    from qipai.server import tableinput

    with client(tmp_path) as c:
        token = signup(c, "faulty")
        tid = post(c, token, "/api/tables", {"game": "xiangqi", "bots": 1,
                                             "settings": {"clock": "none"}}).json()["id"]
        table = c.app.state.hub.tables[tid]
        handle = tableinput.handle

        def fails_once(t, conn, seat, msg):
            if msg.get("type") == "sync" and not getattr(table, "failed", False):
                table.failed = True
                raise RuntimeError("a fault in the table")
            return handle(t, conn, seat, msg)
        monkeypatch.setattr(tableinput, "handle", fails_once)
        with caplog.at_level(logging.ERROR, logger="qipai.server"), ws(c, token, tid) as sock:
            next_state(sock)
            sock.send_json({"type": "sync"})
            m = receive(sock)
            assert m["type"] == "error" and m["error"] == "internal", m
            assert "a fault in the table" in caplog.text and "Traceback" in caplog.text
            sock.send_json({"type": "ping"})
            assert receive(sock)["type"] == "pong"


def test_usernames_over_a_real_socket(live):
    def signup_from(name: str, address: str) -> httpx.Response:
        return httpx.post(live.base + "/api/signup", json={"username": name, "password": PASSWORD},
                          headers={"X-Forwarded-For": address})
    for i, name in enumerate(["orgadmin\n", "ｏｒｇａｄｍｉｎ", "оrgadmin"]):
        r = signup_from(name, f"10.9.0.{i}")
        assert r.status_code == 400 and r.json()["error"] == "bad_username", name
    assert signup_from("orgadmin", "10.9.1.1").status_code == 201
    r = signup_from("OrgAdmin", "10.9.1.2")
    assert r.status_code == 409 and r.json()["error"] == "username_taken"
