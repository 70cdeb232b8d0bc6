"""HTTP API of the server against the real app: accounts, sessions, rate limits, lobby, records."""

from __future__ import annotations

import json
import re

import pytest

from qipai.core import Record, replay
from qipai.server import Limits, create_app
from qipai.server.auth import COOKIE

from .server_helpers import as_user, client, make_settings, next_state, post, signup, ws


@pytest.fixture
def c(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        yield c


@pytest.fixture
def c_db(tmp_path, db_url):
    with client(tmp_path, database_url=db_url, spectator_delay_ms=0, bot_delay_ms=0) as c:
        yield c


def test_signup_login_logout_and_password_hashing(c_db):
    """On SQLite and on PostgreSQL."""
    c = c_db
    r = c.post("/api/signup", json={"username": "alice", "password": "s3cret-pass"})
    assert r.status_code == 201
    assert r.json() == {"id": 1, "username": "alice", "role": "organizer", "bot": False}   # first account
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
    assert c.get("/api/me").json()["user"]["username"] == "alice"
    # the stored hash is argon2id, never the password
    from sqlalchemy import select

    from qipai.server.models import SessionRow, UserRow
    with c.app.state.db() as s:
        user = s.scalar(select(UserRow))
        assert user.password_hash.startswith("$argon2id$") and "s3cret-pass" not in user.password_hash
        token = c.cookies[COOKIE]
        assert s.scalar(select(SessionRow)).token_hash != token       # only the token's hash is kept
    assert c.post("/api/logout").json() == {"ok": True}
    assert c.get("/api/me", headers=as_user(token)).json() == {"user": None}
    c.cookies.clear()
    r = c.post("/api/login", json={"username": "alice", "password": "wrong password"})
    assert r.status_code == 401 and r.json()["error"] == "bad_credentials"
    r = c.post("/api/login", json={"username": "alice", "password": "s3cret-pass"})
    assert r.status_code == 200 and r.json()["username"] == "alice"
    r = c.post("/api/signup", json={"username": "bob", "password": "another-pass"})
    assert r.json()["role"] == "player"


@pytest.mark.parametrize("body, code", [
    ({"username": "a", "password": "long enough"}, "bad_username"),
    ({"username": "has space", "password": "long enough"}, "bad_username"),
    ({"username": "carol", "password": "short"}, "bad_password"),
    ({"username": "x" * 300, "password": "long enough"}, "username_too_long"),
    ({"username": "carol"}, "bad_request"),
    ({"username": 5, "password": "long enough"}, "bad_request"),
])
def test_signup_refusals(c, body, code):
    r = c.post("/api/signup", json=body)
    assert r.status_code == 400 and r.json()["error"] == code and r.json()["message"]


def test_a_300_character_username_is_too_long_at_sign_in_too(c):
    r = c.post("/api/login", json={"username": "y" * 300, "password": "long enough"})
    body = r.json()
    assert r.status_code == 400 and body["error"] == "username_too_long"
    assert body["length"] == 300 and body["max"] == 32 and "at most 32" in body["message"]


def test_duplicate_username(c):
    signup(c, "dora")
    r = c.post("/api/signup", json={"username": "dora", "password": "whatever123"})
    assert r.status_code == 409 and r.json()["error"] == "username_taken"


def test_malformed_json_body_and_oversized_body(c):
    token = signup(c, "erin")
    headers = {**as_user(token), "Content-Type": "application/json"}
    r = c.post("/api/tables", content=b"{not json", headers=headers)
    assert r.status_code == 400 and r.json()["error"] == "bad_json"
    r = c.post("/api/tables", content=b"x" * 70_000, headers=headers)
    assert r.status_code == 413 and r.json()["error"] == "too_large"


def test_replays_are_limited_per_address(tmp_path):
    from fastapi.testclient import TestClient

    with client(tmp_path, limits=Limits(replay_ip=(0.01, 2))) as c:
        codes = [c.get(f"/api/records/{n}/steps").status_code for n in (998, 999)]
        assert codes == [404, 404]                     # asked for, found or not, they count
        for path in ("/api/records/999/steps", "/api/events/cup/games/1/steps"):
            r = c.get(path)
            assert r.status_code == 429 and r.json()["error"] == "rate_limited", path
            assert r.json()["retry_after"] > 0 and int(r.headers["Retry-After"]) >= 1
        other = TestClient(c.app, client=("203.0.113.9", 4000))      # another address
        assert other.get("/api/records/999/steps").json()["error"] == "no_record"


def test_the_sign_up_limit_fits_a_room_and_its_setting_is_checked(monkeypatch):
    """Sign-ups per address: 30 at once, then 30 per 10 minutes (a school's room behind one
    address); $QIPAI_SIGNUPS_PER_ADDRESS sets another count, and a count that is not a whole
    number from 1 is refused when the settings are made (qipai serve says so and stops)."""
    from qipai.server.config import signup_limit

    monkeypatch.delenv("QIPAI_SIGNUPS_PER_ADDRESS", raising=False)
    assert Limits().signup_ip == (30 / 600, 30)
    monkeypatch.setenv("QIPAI_SIGNUPS_PER_ADDRESS", "120")
    assert Limits().signup_ip == (120 / 600, 120)
    for bad in ("0", "-3", "many", "2.5"):
        monkeypatch.setenv("QIPAI_SIGNUPS_PER_ADDRESS", bad)
        with pytest.raises(ValueError, match="sign-ups per address"):
            Limits()
    assert signup_limit(45) == (45 / 600, 45)


def test_an_ipv6_subscribers_addresses_share_one_sign_up_limit(tmp_path):
    """An IPv6 client holds a /64 (2**64 addresses): the sign-up limit counts the network, so
    changing the last 64 bits gets no new sign-ups; another /64 and IPv4 addresses count apart."""
    from fastapi.testclient import TestClient

    with client(tmp_path, limits=Limits(signup_ip=(0.001, 2))) as c:
        def sign(addr: str, name: str) -> int:
            return TestClient(c.app, client=(addr, 4000)).post(
                "/api/signup", json={"username": name, "password": "correct horse"}).status_code
        assert [sign(a, n) for a, n in [("2001:db8:5:6::1", "six1"), ("2001:db8:5:6::2", "six2"),
                                        ("2001:db8:5:6:ffff:1:2:3", "six3")]] == [201, 201, 429]
        assert sign("2001:db8:5:7::1", "six4") == 201
        assert [sign("203.0.113.7", "four1"), sign("203.0.113.8", "four2")] == [201, 201]
        assert sign("::ffff:203.0.113.7", "four3") == 201
        assert sign("203.0.113.7", "four4") == 429


def test_login_rate_limits_per_account_and_ip(tmp_path):
    from fastapi.testclient import TestClient

    limits = Limits(login_ip=(0.01, 8), login_account=(0.01, 3), signup_ip=(10, 10))
    with client(tmp_path, limits=limits) as c:
        signup(c, "frank", "frank-password")
        guesser = TestClient(c.app, client=("203.0.113.9", 4000))     # another address
        codes = [guesser.post("/api/login", json={"username": "frank", "password": "nope-nope"}).status_code
                 for _ in range(4)]
        assert codes == [401, 401, 401, 429]
        r = guesser.post("/api/login", json={"username": "frank", "password": "frank-password"})
        body = r.json()
        assert r.status_code == 429 and body["error"] == "rate_limited" and body["retry_after"] > 0
        assert int(r.headers["Retry-After"]) >= 1
        # the owner, from the address it signed up from, is not locked out
        r = c.post("/api/login", json={"username": "frank", "password": "frank-password"})
        assert r.status_code == 200
        # other accounts from the same address: limited by the per-IP bucket
        codes = [guesser.post("/api/login", json={"username": f"x{i}", "password": "whatever1"}).status_code
                 for i in range(5)]
        assert codes[:3] == [401, 401, 401] and 429 in codes


def test_games_clocks_and_openapi(c):
    games = {g["id"]: g for g in c.get("/api/games").json()}
    assert {"xiangqi", "doudizhu"} <= set(games)
    assert games["xiangqi"]["export"] == "pgn" and "greedy" in games["xiangqi"]["bots"]
    assert "xq_s2_15s" in c.get("/api/clocks").json()
    # each game is offered the clocks of its kind: no "30 s a play" for a board game (the
    # lobby's seek and table forms list these), no "10 min + 3 × 30 s" for cards
    assert games["gomoku"]["clocks"] == ["board_default", "bot_default_board", "none"]
    assert "go_s2" in games["go"]["clocks"] and "bot_default_cards" not in games["go"]["clocks"]
    assert games["doudizhu"]["clocks"] == ["card_default", "bot_default_cards", "none"]
    spec = c.get("/openapi.json").json()
    assert "/api/tables" in spec["paths"] and "/api/signup" in spec["paths"]


def test_a_person_never_sits_under_a_bots_clock(c):
    """A ``bot_…`` clock (2 s a move, lost on time) is for games of bots only: the lobby's forms
    do not offer it, and the API refuses a person's seat under it (creating a table with
    ``sit``, sitting, seeking, challenging) with ``bot_clock_seat``; bots alone play under it."""
    alice, bob = signup(c, "alice"), signup(c, "bob")
    bots_clock = {"clock": "bot_default_board"}
    r = post(c, alice, "/api/tables", {"game": "go", "options": {"board_size": 9}, "sit": True,
                                       "bots": 1, "settings": bots_clock})
    assert r.status_code == 409 and r.json()["error"] == "bot_clock_seat", r.text
    assert r.json()["params"] == {"clock": "bot_default_board"}
    assert c.get("/api/tables").json() == []                     # no half-made table stays
    r = post(c, alice, "/api/tables", {"game": "xiangqi", "sit": False, "settings": bots_clock})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    r = post(c, bob, f"/api/tables/{tid}/sit")
    assert r.status_code == 409 and r.json()["error"] == "bot_clock_seat", r.text
    r = post(c, bob, "/api/seeks", {"game": "doudizhu", "clock": "bot_default_cards"})
    assert r.status_code == 409 and r.json()["error"] == "bot_clock_seat", r.text
    r = post(c, alice, "/api/challenge/bob", {"game": "xiangqi", "settings": bots_clock})
    assert r.status_code == 409 and r.json()["error"] == "bot_clock_seat", r.text
    # a bot account sits under it; a person's fast clock of their own choosing is theirs
    r = post(c, alice, "/api/account/bots", {"username": "quickbot"})
    assert r.status_code == 201, r.text
    r = post(c, alice, "/api/account/tokens", {"account": "quickbot", "scopes": ["bot:play"]})
    token = r.json()["token"]
    r = c.post("/api/bot/seek", json={"game": "xiangqi", "settings": bots_clock},
               headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200 and r.json()["table"] == tid, r.text
    assert post(c, alice, f"/api/tables/{tid}/fill").status_code == 200
    r = post(c, bob, "/api/tables", {"game": "xiangqi", "sit": True, "bots": 1,
                                     "settings": {"clock": {"move_cap": "3s", "on_cap": "lose"}}})
    assert r.status_code == 201, r.text


def test_table_lifecycle_and_refusals(c):
    alice, bob, carl = signup(c, "alice"), signup(c, "bob"), signup(c, "carl")
    assert post(c, None, "/api/tables", {"game": "xiangqi"}).json()["error"] == "not_signed_in"
    bad = [({"game": "chess"}, "bad_options"),
           ({"game": "xiangqi", "options": {"end_rule": "x"}}, "bad_options"),
           ({"game": "xiangqi", "num_seats": 3}, "bad_seats"),
           ({"game": "xiangqi", "settings": {"clock": "no-such"}}, "bad_clock"),
           ({"game": "xiangqi", "settings": {"colour": "red"}}, "bad_settings"),
           ({"game": "xiangqi", "bots": 1, "bot": "stockfish"}, "bad_bot")]
    for body, code in bad:
        r = post(c, alice, "/api/tables", body)
        assert r.status_code == 400 and r.json()["error"] == code, (body, r.json())
    t = post(c, alice, "/api/tables", {"game": "xiangqi", "options": {"no_capture_plies": 60},
                                       "settings": {"clock": "xq_s2_15s"}}).json()
    assert t["status"] == "open" and t["seats"][0]["name"] == "alice"
    assert t["options"]["no_capture_plies"] == 60
    assert post(c, alice, f"/api/tables/{t['id']}/sit").json()["error"] == "already_seated"
    assert post(c, bob, f"/api/tables/{t['id']}/sit", {"seat": 0}).json()["error"] == "seat_taken"
    assert post(c, bob, f"/api/tables/{t['id']}/sit", {"seat": 7}).json()["error"] == "bad_seat"
    assert post(c, bob, f"/api/tables/{t['id']}/bot").json()["error"] == "not_at_table"
    assert post(c, bob, f"/api/tables/{t['id']}/leave").json()["error"] == "not_seated"
    r = post(c, bob, f"/api/tables/{t['id']}/sit").json()
    assert r["status"] == "playing" and r["commitment"] and r["seed"] is None
    assert post(c, carl, f"/api/tables/{t['id']}/sit").json()["error"] == "table_started"
    assert post(c, alice, f"/api/tables/{t['id']}/leave").json()["error"] == "table_started"
    listed = {x["id"]: x for x in c.get("/api/tables").json()}
    assert listed[t["id"]]["status"] == "playing"
    assert c.get("/api/tables/nope").json()["error"] == "no_table"


def test_a_private_table_is_not_listed_but_its_link_lets_anyone_sit_and_watch(c):
    """A private table (setting ``private``): the lobby's list leaves it out for everyone but
    its seated players, the presence list says its players play without naming it, and its
    link (an id of 80 random bits) lets anyone sit and watch."""
    alice, bob, carl = signup(c, "alice"), signup(c, "bob"), signup(c, "carl")
    r = post(c, alice, "/api/tables", {"game": "xiangqi", "settings": {"private": "yes"}})
    assert r.status_code == 400 and r.json()["error"] == "bad_settings"
    assert r.json()["params"]["key"] == "private"
    public = post(c, alice, "/api/tables", {"game": "xiangqi"}).json()
    t = post(c, alice, "/api/tables", {"game": "xiangqi", "settings": {"private": True}}).json()
    assert t["settings"]["private"] is True and len(t["id"]) == 20 and len(public["id"]) == 8

    def listed(token):
        return {x["id"] for x in c.get("/api/tables", headers=as_user(token) if token else {}).json()}
    assert listed(None) == listed(carl) == listed(bob) == {public["id"]}
    assert listed(alice) == {public["id"], t["id"]}                 # her own table, to her
    assert c.get(f"/api/tables/{t['id']}").json()["settings"]["private"] is True    # the link
    assert post(c, bob, f"/api/tables/{t['id']}/sit").json()["status"] == "playing"
    assert listed(bob) == {public["id"], t["id"]} and t["id"] not in listed(carl)
    players = {p["username"]: p["playing"] for p in c.get("/api/presence").json()["players"]}
    assert players["alice"] is True and players["bob"] is True      # playing, not where
    with ws(c, carl, t["id"]) as sock:                              # anyone with the link watches
        hello = json.loads(sock.receive_text())
        assert hello["type"] == "hello" and hello["seat"] is None and hello["table"]["id"] == t["id"]
        assert next_state(sock)["seat"] is None


def test_leave_and_bots_start_a_card_table(c):
    alice = signup(c, "alice")
    t = post(c, alice, "/api/tables", {"game": "doudizhu", "settings": {"clock": "none"}}).json()
    assert post(c, alice, f"/api/tables/{t['id']}/leave").json()["seats"] == [None, None, None]
    post(c, alice, f"/api/tables/{t['id']}/sit", {"seat": 2})
    r = post(c, alice, f"/api/tables/{t['id']}/bot", {"seat": 0, "bot": "random"}).json()
    assert r["seats"][0] == {"bot": "random", "name": "bot:random"} and r["status"] == "open"
    r = post(c, alice, f"/api/tables/{t['id']}/fill").json()
    assert r["status"] == "playing" and r["seats"][1]["bot"] == "rule"


def play_bots_only_xiangqi(c, token) -> int:
    """A xiangqi table whose two seats are bots: returns the record id once it is over."""
    t = post(c, token, "/api/tables", {"game": "xiangqi", "sit": False, "bots": 2, "bot": "random",
                                       "options": {"no_capture_plies": 20},
                                       "settings": {"clock": "none"}}).json()
    with ws(c, token, t["id"]) as sock:
        msg = next_state(sock)
        while not msg["result"] or msg["record"] is None:
            msg = next_state(sock)
    assert msg["seat"] is None
    return msg["record"]


def test_records_download_and_steps(c):
    alice = signup(c, "alice")
    rid = play_bots_only_xiangqi(c, alice)
    full = c.get(f"/api/records/{rid}").json()
    rec = Record.from_json(full["record"])
    state = replay(rec)                               # the stored record replays through the referee
    assert state.result.text == full["result"]["text"] and rec.meta["seed_revealed"]
    r = c.get(f"/api/records/{rid}/download?format=json")
    assert r.headers["content-disposition"].endswith(f'qipai-{rid}.json"')
    assert json.loads(r.text)["actions"] == rec.actions
    pgn = c.get(f"/api/records/{rid}/download?format=native")
    assert pgn.headers["content-type"].startswith("application/x-chess-pgn")
    assert '[Game "Chinese Chess"]' in pgn.text and f'[Result "{state.result.text}"]' in pgn.text
    from qipai.games.xiangqi.pgn import read_pgn

    assert read_pgn(pgn.text)[0].actions == rec.actions
    assert c.get(f"/api/records/{rid}/download?format=zip").json()["error"] == "bad_format"
    chinese = c.get(f"/api/records/{rid}/download?format=pgn-chinese").text   # any registered format
    assert f'[Result "{state.result.text}"]' in chinese and re.search("[\u4e00-\u9fff]{4}", chinese)
    answer = c.get(f"/api/records/{rid}/steps")
    steps = answer.json()["steps"]
    assert len(steps) == len(rec.actions) + 1 and [s["action"] for s in steps[1:]] == rec.actions
    assert steps[-1]["public"]["fen"] == state.fen()
    assert answer.json()["record"]["id"] == rid and answer.json()["record"]["game"] == "xiangqi"
    # a finished record never changes: its steps are computed once, then given as they were
    again = c.get(f"/api/records/{rid}/steps", headers=as_user(alice))
    assert again.content == answer.content and c.app.state.steps_cache.computed == 1
    assert c.get("/api/records/999").json()["error"] == "no_record"
    # bots only: nobody's history holds it, but the public list does
    assert c.get("/api/records?user=me", headers=as_user(alice)).json() == []
    assert [r["id"] for r in c.get("/api/records").json()] == [rid]
    assert c.get("/api/records?user=nobody").json()["error"] == "no_user"


def test_pages_are_served(c):
    for path in ("/", "/login", "/signup", "/history", "/events", "/tables/abc", "/records/3"):
        r = c.get(path)
        assert r.status_code == 200 and '<script type="module" src="/static/app.js">' in r.text
        assert '<meta name="qipai-poll-ms" content="2000">' in r.text       # the pages' refresh
    for asset in ("app.js", "style.css", "boards/xiangqi.js", "boards/doudizhu.js", "boards/generic.js",
                  "events.js"):
        assert c.get(f"/static/{asset}").status_code == 200


def test_the_pages_refresh_time_is_the_servers_setting(tmp_path):
    with client(tmp_path, page_poll_ms=500) as c:
        assert '<meta name="qipai-poll-ms" content="500">' in c.get("/events/abc").text
    for bad in (0, 49, 2.5, "2000"):
        with pytest.raises(ValueError, match="page_poll_ms"):
            create_app(make_settings(tmp_path, page_poll_ms=bad))


@pytest.mark.parametrize("body, code", [
    ({"game": "xiangqi", "bots": 1, "bot": "alphazero"}, "bad_bot"),
    ({"game": "xiangqi", "sit": True, "seat": 5}, "bad_seat"),
    ({"game": "xiangqi", "num_seats": 0}, "bad_seats"),        # was 0 taken as "not given"
    ({"game": "xiangqi", "num_seats": 99}, "bad_seats"),
])
def test_a_refused_table_request_leaves_no_table(c, body, code):
    token = signup(c, "alice")
    r = post(c, token, "/api/tables", body)
    assert r.status_code in (400, 409) and r.json()["error"] == code, r.text
    assert c.get("/api/tables").json() == []


@pytest.mark.parametrize("path, body, field", [
    ("/api/tables", {"game": "xiangqi", "seat": True}, "seat"),          # was seat 1
    ("/api/tables", {"game": "xiangqi", "seat": "1"}, "seat"),
    ("/api/tables", {"game": "xiangqi", "sit": "false"}, "sit"),        # was a table without its owner
    ("/api/tables", {"game": "xiangqi", "num_seats": 2.0}, "num_seats"),
    ("/api/tables", {"game": 5}, "game"),
    ("/api/me/settings", {"hide_history": 1}, "hide_history"),
    ("/api/account/tokens", {"scopes": [1]}, "scopes.0"),
])
def test_a_body_of_the_wrong_type_is_refused_not_converted(c, path, body, field):
    token = signup(c, "alice")
    send = c.put if path == "/api/me/settings" else c.post
    r = send(path, json=body, headers=as_user(token))
    assert r.status_code == 400 and r.json()["error"] == "bad_request", r.text
    assert any(p["where"].startswith(f"body.{field}") for p in r.json()["problems"]), r.text
    assert c.get("/api/tables").json() == []
    assert c.get("/api/users/alice", headers=as_user(token)).json().get("hidden") is not True


def test_zero_seats_is_refused_by_every_route_that_makes_a_table(c):
    alice, _ = signup(c, "alice"), signup(c, "bob")
    for path in ("/api/tables", "/api/challenge/bob", "/api/seeks"):
        for n in (0, 99):
            r = post(c, alice, path, {"game": "xiangqi", "num_seats": n})
            assert r.status_code == 400 and r.json()["error"] == "bad_seats", (path, n, r.text)
    assert c.get("/api/tables").json() == []


def _surrogate_body(route) -> dict:
    """A body for ``route`` with a lone surrogate in each of its model's fields: a string, the
    key and value of a map, the item of a list (a field the route has not: one extra key)."""
    import typing

    bad = "x\ud800"
    model = route.body_field.field_info.annotation if route.body_field else None
    model = next((a for a in typing.get_args(model) if hasattr(a, "model_fields")), model)
    body: dict = {"\udc00extra": bad}
    for name, field in getattr(model, "model_fields", {}).items():
        kind = typing.get_origin(field.annotation) or field.annotation
        body[name] = {bad: bad} if kind is dict else [bad] if kind is list else bad
    return body


def test_a_lone_surrogate_in_any_field_of_any_body_is_bad_json(c):
    """"\\ud800" is valid JSON but no text (UTF-8 cannot hold it): it answered 500 from routes
    that quote what they refuse or store it. Every request body is refused at one door: each
    state-changing route, with the surrogate in every field of its body, answers 400 bad_json
    (signed in, so a route would otherwise act on it)."""
    from fastapi.routing import APIRoute

    alice = signup(c, "alice")
    routes = [r for r in c.app.routes if isinstance(r, APIRoute) and r.path.startswith("/api/")
              and r.methods & {"POST", "PUT", "PATCH", "DELETE"}]
    assert len(routes) > 30
    for route in routes:
        path = re.sub(r"\{[^}]+\}", "alice", route.path)
        raw = json.dumps(_surrogate_body(route))          # ASCII: "\ud800" escapes
        for method in route.methods & {"POST", "PUT", "PATCH", "DELETE"}:
            r = c.request(method, path, content=raw, headers={**as_user(alice),
                                                              "Content-Type": "application/json"})
            assert r.status_code == 400 and r.json()["error"] == "bad_json", (method, path, r.text)
    assert post(c, alice, "/api/tables", {"game": "go"}).status_code == 201      # still saving


def test_an_error_answer_that_quotes_a_lone_surrogate_still_encodes():
    """A refusal quoting what was sent (a name, an option's value) failed to encode, so the
    answer itself became a 500: each lone surrogate is sent as its escape."""
    from fastapi.responses import JSONResponse

    from qipai.server.errors import ApiError, ws_error

    e = ApiError(400, "bad_option", "unknown option 'a\ud800'", option="a\udfff",
                 given={"k\ud800": ["\udc01"]})
    answer = json.loads(JSONResponse(e.body(), status_code=400).body)
    assert answer["message"] == "unknown option 'a\\ud800'"
    assert answer["params"] == {"option": "a\\udfff", "given": {"k\\ud800": ["\\udc01"]}}
    assert json.dumps(ws_error("bad_option", "a\ud800"), ensure_ascii=False).encode()


def test_table_code_tries_are_limited_per_address_too(tmp_path):
    """Accounts are cheap: tries at private tables' codes count per address as well as per
    account, so that many accounts of one address get no more tries than the address's limit."""
    from fastapi.testclient import TestClient

    limits = Limits(table_code_account=(0.001, 3), table_code_ip=(0.001, 5), signup_ip=(100.0, 100))
    with client(tmp_path, limits=limits) as c:
        host = signup(c, "codehost")
        t = post(c, host, "/api/tables", {"game": "xiangqi", "settings": {"private": True}}).json()
        code = t["settings"]["code"]
        guesser = TestClient(c.app, client=("198.51.100.4", 4000))
        toks = [signup(guesser, f"guess{i}") for i in range(6)]
        got = [post(guesser, tok, "/api/tables/by-code", {"code": "ZZZZZZZZ"}) for tok in toks]
        assert [r.status_code for r in got] == [404] * 5 + [429], [r.text for r in got]
        assert got[-1].json()["error"] == "rate_limited"
        friend = TestClient(c.app, client=("198.51.100.5", 4000))
        r = post(friend, signup(friend, "codefriend"), "/api/tables/by-code", {"code": code.lower()})
        assert r.status_code == 200 and r.json()["table"] == t["id"], r.text
