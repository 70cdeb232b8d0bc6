"""Attacks of a hostile player on a real `qipai serve` process, over real sockets: bodies that
are not JSON, requests uvicorn itself refuses, and a flood paced under the old "in a row" rule.
Every refusal must be the server's JSON ``{"error", "message"}`` with its status."""

from __future__ import annotations

import gzip
import json
import socket
import threading
import time

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .e2e.timing import until as within
from .server_helpers import LiveServer

PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    with LiveServer(tmp_path_factory.mktemp("breaker")) as s:
        yield s


def signed_in(live, name: str) -> httpx.Client:
    c = httpx.Client(base_url=live.base, timeout=10)
    r = c.post("/api/signup", json={"username": name, "password": PASSWORD},
               headers={"X-Forwarded-For": f"10.77.{len(name)}.{sum(map(ord, name)) % 250}"})
    assert r.status_code == 201, r.text
    return c


def raw(port: int, data: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``data`` as is; the status, headers (lower-case names) and body of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(data)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    head, _, body = out.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict((k.strip().lower(), v.strip()) for k, v in (x.split(":", 1) for x in lines[1:]))
    return int(lines[0].split()[1]), headers, body


def assert_json_error(status: int, headers: dict[str, str], body: bytes, want: int, code: str) -> None:
    assert status == want, body
    assert headers["content-type"].startswith("application/json"), (headers, body)
    answer = json.loads(body)
    assert answer["error"] == code and answer["message"], answer


def test_bodies_that_are_not_json_are_bad_json(live):
    alice = signed_in(live, "brk_bodies")
    deep = 5000
    bodies = {
        "nested": b"[" * deep + b"]" * deep,
        "nested in a field": b'{"game":"xiangqi","options":' + b'{"a":' * deep + b"1" + b"}" * deep + b"}",
        "gzip": gzip.compress(json.dumps({"game": "xiangqi"}).encode()),
        "not utf-8": b'{"game":"\xff\xfe"}',
        "a 5000-digit number": b'{"game":"xiangqi","seat":' + b"9" * 5000 + b"}",
        "syntax": b'{"game": ',
    }
    for what, body in bodies.items():
        r = alice.post("/api/tables", content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 400, (what, r.text)
        assert r.json()["error"] == "bad_json" and r.json()["message"], (what, r.text)
    assert alice.get("/api/tables").json() == []          # nothing was made
    # a body of the wrong shape is still bad_request, with its problems
    r = alice.post("/api/tables", json={"game": "xiangqi", "num_seats": "two"})
    assert r.status_code == 400 and r.json()["error"] == "bad_request" and r.json()["problems"]


def test_framework_refusals_are_json_with_error_and_message(live):
    for method, path, status, code in (("PUT", "/api/tables", 405, "method_not_allowed"),
                                       ("DELETE", "/api/me", 405, "method_not_allowed"),
                                       ("GET", "/api/nothing", 404, "not_found"),
                                       ("GET", "//api/me", 404, "not_found")):
        r = httpx.request(method, live.base + path)
        assert r.status_code == status, (method, path, r.text)
        assert r.json()["error"] == code and r.json()["message"], r.text


def test_requests_uvicorn_refuses_itself_are_answered_in_json(live):
    host = f"Host: 127.0.0.1:{live.port}\r\n".encode()
    body = b'{"game":"xiangqi"}'
    post = b"POST /api/tables HTTP/1.1\r\n" + host
    malformed = [
        post + b"Content-Length: -1\r\n\r\n" + body,
        post + b"Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"
        b"5\r\nhello\r\n0\r\n\r\n",
        post + b"Content-Length: 18\r\nContent-Length: 9999\r\n\r\n" + body,
        post + b"Content-Length: 99999999999999999999999\r\n\r\n",
        b"FOO /api/tables HTTP/1.1\r\n" + host + b"\r\n",
        b"GARBAGE\r\n\r\n",
    ]
    for data in malformed:
        assert_json_error(*raw(live.port, data), 400, "bad_request")
    upgrade = (b"GET /ws/tables/x HTTP/1.1\r\n" + host
               + b"Upgrade: websocket\r\nConnection: Upgrade\r\n")
    for extra in (b"Sec-WebSocket-Version: 13\r\n",                        # no key
                  b"Sec-WebSocket-Version: 99\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"):
        status, headers, answer = raw(live.port, upgrade + extra + b"\r\n")
        assert_json_error(status, headers, answer, 400, "bad_request")
    assert httpx.get(live.base + "/api/games").status_code == 200       # still serving


def test_a_flood_paced_under_the_old_in_a_row_count_is_closed(live):
    """Rate-limited messages used to close a socket only after 100 *in a row*: a client sending
    about 150 messages a second (the account's limit is 10 a second) had one allowed every tenth
    of a second, which reset the count, and was answered for ever."""
    alice = signed_in(live, "brk_flood")
    r = alice.post("/api/tables", json={"game": "xiangqi", "bots": 1, "settings": {"clock": "none"}})
    tid = r.json()["id"]
    cookie = {"Cookie": f"qipai_session={alice.cookies['qipai_session']}"}
    seen: list[dict] = []
    closed: list[tuple[int, str]] = []
    with connect(f"{live.ws}/ws/tables/{tid}", additional_headers=cookie, open_timeout=10) as sock:
        def read() -> None:
            try:
                while True:
                    seen.append(json.loads(sock.recv(timeout=20)))
            except ConnectionClosed as e:
                closed.append((e.rcvd.code, e.rcvd.reason))
            except TimeoutError:
                pass
        reader = threading.Thread(target=read)
        reader.start()
        end = time.monotonic() + 8
        while not closed and time.monotonic() < end:
            try:
                sock.send('{"type":"ping"}')
            except ConnectionClosed:
                break
            time.sleep(1 / 150)
        reader.join(25)
    assert closed == [(4429, "flooding")], (closed, len(seen))
    assert seen[-1]["error"] == "flooding"
    assert sum(m.get("error") == "rate_limited" for m in seen) < 600      # closed within seconds


def test_a_client_a_little_over_its_limit_is_slowed_not_closed(live):
    alice = signed_in(live, "brk_eager")
    r = alice.post("/api/tables", json={"game": "xiangqi", "bots": 1, "settings": {"clock": "none"}})
    cookie = {"Cookie": f"qipai_session={alice.cookies['qipai_session']}"}
    with connect(f"{live.ws}/ws/tables/{r.json()['id']}", additional_headers=cookie, open_timeout=10) as sock:
        limited = 0
        for _ in range(75):               # 25 a second for 3 s: 10 a second are allowed
            sock.send('{"type":"ping"}')
            time.sleep(1 / 25)
        sock.send('{"type":"sync"}')
        time.sleep(1.5)                   # the limit refills: the sync is answered
        sock.send('{"type":"sync"}')
        while (m := json.loads(sock.recv(timeout=10)))["type"] != "state" or limited == 0:
            limited += m.get("error") == "rate_limited"
            assert m.get("error") != "flooding", m
        assert limited > 0


def test_a_lone_surrogate_in_a_socket_message_is_refused_at_the_door(live):
    """``"\\ud800"`` is valid JSON but no text: a chat line or a move holding it passed the
    checks, and the store failed on it for ever (every game paused, every write 503). It is
    refused as bad_json, the socket stays, and the server keeps saving."""
    alice = signed_in(live, "brk_surrogate")
    r = alice.post("/api/tables", json={"game": "xiangqi", "bots": 1, "settings": {"clock": "none"}})
    tid = r.json()["id"]
    with connect(f"{live.ws}/ws/tables/{tid}", additional_headers=_cookie(alice),
                 open_timeout=10) as sock:
        while (m := json.loads(sock.recv(timeout=20)))["type"] != "state":
            if m["type"] == "commitment":
                sock.send(json.dumps({"type": "nonce", "nonce": "01"}))
        for bad in ('{"type":"chat","text":"\\ud800"}',
                    '{"type":"move","seq":' + str(m["seq"]) + ',"action":"\\ud800"}',
                    '{"type":"chat","text":"hi","\\udfff":1}'):
            sock.send(bad)
            while (m := json.loads(sock.recv(timeout=10)))["type"] != "error":
                pass
            assert m["error"] == "bad_json" and "surrogate" in m["message"], (bad, m)
        sock.send('{"type":"chat","text":"still here \\ud83d\\ude00"}')     # a valid pair is text
        while (m := json.loads(sock.recv(timeout=10)))["type"] != "chat":
            assert m["type"] != "error", m
        assert m["line"]["text"] == "still here \U0001f600", m
    r = alice.post("/api/tables", json={"game": "go"})
    assert r.status_code == 201, r.text


def _cookie(c: httpx.Client) -> dict[str, str]:
    return {"Cookie": f"qipai_session={c.cookies['qipai_session']}"}


def _her_games(boss: httpx.Client, name: str) -> list[dict]:
    ev = boss.get("/api/events/cup").json()
    return [g for m in ev["rounds"][0]["matches"] if name in m["entrants"] for g in m["games"]]


def _resign_at(live, player: httpx.Client, opponent: httpx.Client, table: str) -> None:
    """``player`` resigns at ``table``; both seats answer the deal's commitment with a nonce (an
    event table deals once both are in or after its nonce window, 10 s)."""
    url = f"{live.ws}/ws/tables/{table}"
    with connect(url, additional_headers=_cookie(player), open_timeout=10) as sock, \
            connect(url, additional_headers=_cookie(opponent), open_timeout=10) as other:
        for nonce, s in (("02", other), ("01", sock)):
            while (m := json.loads(s.recv(timeout=20)))["type"] not in ("commitment", "state"):
                pass
            if m["type"] == "commitment":
                s.send(json.dumps({"type": "nonce", "nonce": nonce}))
        while m["type"] != "state":
            m = json.loads(sock.recv(timeout=20))
        assert m["seat"] is not None
        sock.send('{"type":"resign"}')
        while not (m := json.loads(sock.recv(timeout=20))).get("record"):
            pass


def test_a_player_between_two_games_of_a_match_may_not_watch_the_round(tmp_path):
    """§6.5: a player with a match of the round not over may not watch the round's other
    tables. Between two games of a series the player sits at no live table: the check used to
    look only at live tables, so the moment a game ended the player could watch the others."""
    with LiveServer(tmp_path, "--organizer", "brk_boss") as live:
        boss = signed_in(live, "brk_boss")
        people = {n: signed_in(live, n) for n in ("brk_a", "brk_b", "brk_c", "brk_d")}
        r = boss.post("/api/events", json={"preset": "s0_xiangqi", "event_id": "cup",   # two games a match
                                           "players": list(people)})
        assert r.status_code == 201, r.text
        tables = boss.post("/api/events/cup/start").json()["tables"]
        seats = {t: [s["name"] for s in boss.get(f"/api/tables/{t}").json()["seats"]] for t in tables}
        other = next(t for t in tables if "brk_a" not in seats[t])
        alice = people["brk_a"]
        mine = next(t for t in tables if "brk_a" in seats[t])
        rival = people[next(n for n in seats[mine] if n != "brk_a")]          # her opponent
        _resign_at(live, alice, rival, _her_games(boss, "brk_a")[0]["table"])        # game 1 of 2 is over

        def refused() -> None:
            with connect(f"{live.ws}/ws/tables/{other}", additional_headers=_cookie(alice),
                         open_timeout=10) as sock:
                assert json.loads(sock.recv(timeout=10))["error"] == "round_player"
                with pytest.raises(ConnectionClosed) as e:
                    sock.recv(timeout=10)
                assert (e.value.rcvd.code, e.value.rcvd.reason) == (4403, "round_player")
        refused()                      # at once, before or after game 2 is seated
        for _ in within(30):
            games = _her_games(boss, "brk_a")
            if len(games) == 2 and games[1]["table"]:
                break
            time.sleep(0.05)
        refused()                      # seated at game 2
        _resign_at(live, alice, rival, games[1]["table"])                            # her match is lost
        for _ in within(30):
            matches = boss.get("/api/events/cup").json()["rounds"][0]["matches"]
            if next(m for m in matches if "brk_a" in m["entrants"])["status"] == "finished":
                break
            time.sleep(0.05)
        with connect(f"{live.ws}/ws/tables/{other}", additional_headers=_cookie(alice),
                     open_timeout=10) as sock:
            assert json.loads(sock.recv(timeout=10))["type"] == "hello"      # she may watch now


def test_an_account_cannot_make_the_server_play_bot_games_without_end(live):
    """The open-table limit bounds what an account holds at once, but a table of bots alone with
    no delay finishes in a moment: one account made the server play and store 191 games in 20 s."""
    owner = signed_in(live, "brk_botfarm")
    bots_only = {"game": "xiangqi", "sit": False, "bots": 2, "bot": "random",
                 "settings": {"clock": "none", "bot_delay_ms": 0}}
    codes = []
    for _ in range(40):
        r = owner.post("/api/tables", json=bots_only)
        codes.append(r.status_code)
        if r.status_code == 409:          # too many at once: let them finish
            time.sleep(0.3)
        if r.status_code == 429:
            break
    assert codes.count(201) <= 20 and codes[-1] == 429, codes
    assert r.json()["error"] == "rate_limited" and r.json()["retry_after"] > 0
    assert int(r.headers["Retry-After"]) >= 1
    # the same through /fill and /bot of an empty table; nothing is left half-made
    empty = owner.post("/api/tables", json={"game": "xiangqi", "sit": False}).json()["id"]
    for path, body in (("fill", {}), ("bot", {"seat": 0}), ("bot", {"seat": 1})):
        r = owner.post(f"/api/tables/{empty}/{path}", json=body)
        if path == "bot" and body["seat"] == 0:
            assert r.status_code == 200, r.text            # one bot: the game does not start
        else:
            assert r.status_code == 429 and r.json()["error"] == "rate_limited", r.text
    assert owner.get(f"/api/tables/{empty}").json()["status"] == "open"
    # a person at the table plays the bots as before
    for _ in within(30):                  # once the bot games still running leave room
        r = owner.post("/api/tables", json={"game": "xiangqi", "bots": 1, "settings": {"clock": "none"}})
        if r.status_code != 409:
            break
        time.sleep(0.2)
    assert r.status_code == 201 and r.json()["status"] == "playing", r.text
