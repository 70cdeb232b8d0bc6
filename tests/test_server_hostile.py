"""Hostile and careless clients over real sockets: sessions that end, seats opened twice,
floods, refusals that must be answered, trusteeship, event players watching their round, and
accounts that open tables without end (competition.md §4.6, §6.4, §6.5)."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time

import httpx
import pytest
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from qipai.server import Limits
from qipai.server.auth import SessionCache

from .e2e.timing import until as within
from .server_helpers import as_user, client, next_state, post, receive, signup, ws
from .server_process import free_port, start, wait_up

NO_CLOCK = {"clock": "none", "bot_delay_ms": 0}


def closed_with(sock) -> tuple[int, str, list[dict]]:
    """Read until the server closes the socket: (close code, reason, messages before it)."""
    seen = []
    with pytest.raises(WebSocketDisconnect) as e:
        for _ in range(10_000):
            seen.append(receive(sock))
    return e.value.code, e.value.reason, seen


def event(sock, kind: str) -> dict:
    """Read until the table event ``kind`` (states and other events are passed over)."""
    while True:
        m = receive(sock)
        assert m["type"] in ("state", "event", "hello"), m
        if m["type"] == "event" and m["event"]["type"] == kind:
            return m["event"]


def xiangqi_vs_bot(c, token: str) -> str:
    r = post(c, token, "/api/tables", {"game": "xiangqi", "bots": 1, "settings": NO_CLOCK})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def test_signing_out_closes_the_sockets_of_that_session_only(tmp_path):
    with client(tmp_path) as c:
        alice = signup(c, "alice")
        other = c.post("/api/login", json={"username": "alice", "password": "correct horse"}).cookies
        other_token = other["qipai_session"]
        c.cookies.clear()
        tid = xiangqi_vs_bot(c, alice)
        with ws(c, alice, tid) as mine, ws(c, other_token, xiangqi_vs_bot(c, other_token)) as second:
            assert next_state(mine)["seat"] == 0 and next_state(second)["seat"] == 0
            assert post(c, alice, "/api/logout").status_code == 200
            code, reason, seen = closed_with(mine)
            assert (code, reason) == (4401, "signed_out")
            assert seen[-1]["type"] == "error" and seen[-1]["error"] == "signed_out"
            # the account's other session plays on
            second.send_json({"type": "ping"})
            assert receive(second)["type"] == "pong"
        # the ended session is nobody: its cookie neither reaches the API nor takes the seat
        assert c.get("/api/me", headers=as_user(alice)).json() == {"user": None}
        with ws(c, alice, tid) as again:
            assert next_state(again)["seat"] is None


def test_a_session_read_before_sign_out_is_not_cached_after_it():
    cache = SessionCache()
    assert cache.get("tok") == (False, None)      # a lookup starts: the database says alice
    cache.drop("tok")                             # meanwhile the session is signed out
    cache.put("tok", object())                    # the lookup stores what it read
    assert cache.get("tok") == (True, None)


def test_a_new_connection_replaces_the_old_one_of_the_seat(tmp_path):
    with client(tmp_path) as c:
        alice = signup(c, "alice")
        bob = signup(c, "bob")
        tid = xiangqi_vs_bot(c, alice)
        other = xiangqi_vs_bot(c, bob)
        with ws(c, alice, other) as watching, ws(c, alice, tid) as old:
            assert next_state(watching)["seat"] is None
            first = next_state(old)
            with ws(c, alice, tid) as new:
                state = next_state(new)
                assert state["seat"] == 0 and state["seq"] == first["seq"]
                code, reason, seen = closed_with(old)
                assert (code, reason) == (4409, "replaced")
                assert seen[-1]["error"] == "replaced"
                new.send_json({"type": "move", "seq": state["seq"], "action": "h2e2"})
                assert next_state(new)["seq"] == state["seq"] + 1
                # watching another table with the same account is not affected
                watching.send_json({"type": "ping"})
                while (m := receive(watching))["type"] != "pong":
                    assert m["type"] in ("state", "event")


def test_a_flood_closes_the_socket_and_a_reconnect_gets_the_state(tmp_path):
    limits = Limits(moves_account=(10.0, 20), moves_ip=(50.0, 100), api_ip=(1000.0, 1000),
                    signup_ip=(100.0, 100))
    with client(tmp_path, limits=limits) as c:
        alice = signup(c, "alice")
        tid = xiangqi_vs_bot(c, alice)
        with ws(c, alice, tid) as sock:
            state = next_state(sock)
            for _ in range(10_000):
                sock.send_json({"type": "ping"})
            code, reason, seen = closed_with(sock)
            assert (code, reason) == (4429, "flooding")
            assert any(m.get("error") == "rate_limited" for m in seen)
            assert seen[-1]["error"] == "flooding"
        with ws(c, alice, tid) as sock:
            assert receive(sock)["type"] == "hello"
            again = next_state(sock)
            assert again["seat"] == 0 and again["seq"] == state["seq"]


def test_every_refused_draw_message_is_answered_with_a_code(tmp_path):
    with client(tmp_path) as c:
        alice, bob = signup(c, "alice"), signup(c, "bob")
        tid = post(c, alice, "/api/tables", {"game": "xiangqi", "settings": {"clock": "none"}}).json()["id"]
        assert post(c, bob, f"/api/tables/{tid}/sit").status_code == 200
        with ws(c, alice, tid) as red, ws(c, bob, tid) as black:
            s = next_state(red)
            next_state(black)

            def error(sock) -> str:
                while (m := receive(sock))["type"] != "error":
                    assert m["type"] in ("state", "event")
                return m["error"]

            for kind in ("draw_decline", "draw_accept"):
                black.send_json({"type": kind})
                assert error(black) == "no_draw_offer"
            red.send_json({"type": "move", "seq": s["seq"], "action": "h2e2"})
            next_state(red)
            s = next_state(black)
            red.send_json({"type": "draw_offer"})          # during the opponent's turn: at once
            red.send_json({"type": "draw_offer"})
            assert error(red) == "draw_offer_open"
            red.send_json({"type": "draw_decline"})         # one's own offer is not declined
            assert error(red) == "no_draw_offer"
            black.send_json({"type": "draw_decline"})
            event(black, "draw_declined")
            black.send_json({"type": "move", "seq": s["seq"], "action": "h9g7"})
            s = next_state(red)
            while s["to_act"] != [0]:
                s = next_state(red)
            red.send_json({"type": "draw_offer"})          # on one's own turn: held for the move
            event(red, "draw_offer_held")
            red.send_json({"type": "move", "seq": s["seq"], "action": "h0g2"})
            assert error(red) == "draw_offer_cooldown"
        doudizhu = post(c, alice, "/api/tables", {"game": "doudizhu", "bots": 2,
                                                  "settings": {"clock": "none", **NO_CLOCK}}).json()["id"]
        with ws(c, alice, doudizhu) as sock:
            next_state(sock)
            sock.send_json({"type": "draw_offer"})
            assert error(sock) == "draw_not_allowed"


FAST_CARDS = {"move_cap": "400ms", "on_cap": "auto", "trustee_after": 2, "trustee_delay": "400ms"}


def test_trusteeship_is_announced_and_a_player_resumes_the_seat(tmp_path):
    with client(tmp_path) as c:
        alice = signup(c, "alice")
        r = post(c, alice, "/api/tables", {"game": "doudizhu", "bots": 2, "settings": {
            "clock": FAST_CARDS, "bot_delay_ms": 0, "spectator_delay_ms": 0}})
        tid = r.json()["id"]
        with ws(c, alice, tid) as seat, ws(c, None, tid) as watcher:
            next_state(seat)
            seat.send_json({"type": "resume"})            # not in trusteeship: refused, answered
            m = receive(seat)
            while m["type"] != "error":
                m = receive(seat)
            assert m["error"] == "not_in_trusteeship"
            # alice answers nothing: her second timeout in a row puts her seat in trusteeship
            on = event(seat, "trusteeship")
            assert on["on"] is True and on["seat"] == 0 and on["why"] == "timeouts"
            assert event(watcher, "trusteeship") == on
            seat.send_json({"type": "resume"})
            off = event(seat, "trusteeship")
            assert off == {**off, "on": False, "seat": 0, "why": "resume"}
            assert event(watcher, "trusteeship") == off
            # back in her own hands: two more timeouts put the seat back in trusteeship
            again = event(seat, "trusteeship")
            assert again["on"] is True and again["t"] > off["t"]
            assert event(watcher, "trusteeship") == again
            # and her own action takes it back too (on a loaded machine her turn can pass to the
            # clock before the move arrives: it is then ignored as stale, and she tries again)
            back = None
            while back is None:
                m = next_state(seat)
                while 0 not in m["to_act"] or m["result"]:
                    m = next_state(seat)
                seat.send_json({"type": "move", "seq": m["seq"], "turn": m["turn"], "action": m["legal"][0]})
                while back is None:
                    m = receive(seat)
                    if m["type"] == "ignored":
                        break
                    if m["type"] == "event" and m["event"]["type"] == "trusteeship" and not m["event"]["on"]:
                        back = m["event"]
            assert back == {**back, "on": False, "seat": 0, "why": "action"}
            assert event(watcher, "trusteeship") == back


def test_a_player_of_an_event_round_may_not_watch_its_other_tables(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss = signup(c, "boss")
        people = {n: signup(c, n) for n in ("alice", "bob", "carol", "dave")}
        body = {"preset": "s3_xiangqi", "name": "Club", "event_id": "club", "players": list(people)}
        assert post(c, boss, "/api/events", body).status_code == 201
        tables = post(c, boss, "/api/events/club/start").json()["tables"]
        assert len(tables) == 2
        seats = {t: [s["name"] for s in c.get(f"/api/tables/{t}").json()["seats"]] for t in tables}
        mine = next(t for t in tables if "alice" in seats[t])
        other = next(t for t in tables if t != mine)
        with ws(c, people["alice"], other) as sock:
            m = receive(sock)
            assert m["error"] == "round_player"
            code, reason, _ = closed_with(sock)
            assert (code, reason) == (4403, "round_player")
        with ws(c, boss, other) as sock:                       # others may watch
            assert next_state(sock)["seat"] is None
        with ws(c, None, other) as anyone:     # signed in only: a player signed out may not watch
            assert receive(anyone)["error"] == "sign_in_to_watch"
            assert closed_with(anyone)[:2] == (4401, "sign_in_to_watch")
        with ws(c, people["alice"], mine) as sock:            # her own table, of course
            assert next_state(sock)["seat"] is not None
            sock.send_json({"type": "resign"})
            while not next_state(sock).get("record"):
                pass
        for _ in within(30):                                  # stored in the event
            matches = c.get("/api/events/club").json()["rounds"][0]["matches"]
            if next(m for m in matches if "alice" in m["entrants"])["status"] == "finished":
                break
            time.sleep(0.05)
        with ws(c, people["alice"], other) as sock:           # her match is over: she may watch
            assert next_state(sock)["seat"] is None


def test_an_account_has_a_bounded_number_of_open_tables(tmp_path):
    with client(tmp_path, max_open_tables=3) as c:
        alice, bob = signup(c, "alice"), signup(c, "bob")
        made = [post(c, alice, "/api/tables", {"game": "xiangqi", "sit": False}) for _ in range(4)]
        assert [r.status_code for r in made] == [201, 201, 201, 409]
        assert made[3].json()["error"] == "too_many_tables" and "3" in made[3].json()["message"]
        assert post(c, bob, "/api/tables", {"game": "xiangqi"}).status_code == 201   # others may
        # a finished table no longer counts
        tid = made[0].json()["id"]
        assert post(c, alice, f"/api/tables/{tid}/sit").status_code == 200
        assert post(c, alice, f"/api/tables/{tid}/bot", {}).status_code == 200
        with ws(c, alice, tid) as sock:
            next_state(sock)
            sock.send_json({"type": "resign"})
            while not next_state(sock).get("record"):
                pass
        assert post(c, alice, "/api/tables", {"game": "xiangqi", "sit": False}).status_code == 201


def test_idle_tables_are_aborted_and_never_resumed(tmp_path):
    idle = 0.6
    with client(tmp_path, table_idle_timeout=idle) as c:
        alice = signup(c, "alice")
        untimed = xiangqi_vs_bot(c, alice)                         # no clock: waits for alice
        empty = post(c, alice, "/api/tables", {"game": "xiangqi", "sit": False}).json()["id"]
        timed = post(c, alice, "/api/tables", {"game": "xiangqi", "bots": 1,
                                               "settings": {"clock": "board_default"}}).json()["id"]
        with ws(c, None, untimed) as watcher:
            assert next_state(watcher)["status"] == "playing"
            ended = event(watcher, "aborted")
            assert ended["reason"] == "inactive"
            m = receive(watcher)
            assert m["type"] == "table" and m["table"]["status"] == "aborted"
            code, reason, _ = closed_with(watcher)
            assert (code, reason) == (4410, "table_closed")
        for _ in within(30):
            if empty not in {t["id"] for t in c.get("/api/tables").json()}:
                break
            time.sleep(0.05)
        lobby = {t["id"]: t["status"] for t in c.get("/api/tables").json()}
        assert untimed not in lobby and empty not in lobby
        assert lobby[timed] == "playing"            # a clock keeps it going: not idle
        assert c.get(f"/api/tables/{untimed}").json()["status"] == "aborted"
    with client(tmp_path, table_idle_timeout=idle) as c:          # a restart resumes neither
        lobby = {t["id"] for t in c.get("/api/tables").json()}
        assert untimed not in lobby and empty not in lobby and timed in lobby


def test_a_lobby_game_whose_first_move_never_comes_is_aborted_not_lost(tmp_path):
    """A person who lets the clock run out before their first move: the game is aborted — no
    result, no record, no loss in anyone's history — and the page is told why (4410
    ``no_first_move``). A loss on time after a move stays a loss."""
    cap = {"move_cap": "400ms", "on_cap": "lose"}
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        alice = signup(c, "alice")
        tid = post(c, alice, "/api/tables", {"game": "xiangqi", "bots": 1,
                                             "settings": {"clock": cap}}).json()["id"]
        with ws(c, alice, tid) as sock:
            ended = event(sock, "aborted")
            assert ended["reason"] == "no_first_move"
            code, reason, seen = closed_with(sock)
            assert (code, reason) == (4410, "no_first_move")
            assert not [m for m in seen if m["type"] == "state" and m.get("result")]
        assert c.get(f"/api/tables/{tid}").json()["status"] == "aborted"
        assert c.get("/api/records?user=alice").json() == []
        # the bot moves second: alice moves once, then runs out of time — a loss, recorded
        slow = {"move_cap": "3s", "on_cap": "lose"}
        tid = post(c, alice, "/api/tables", {"game": "xiangqi", "bots": 1,
                                             "settings": {"clock": slow}}).json()["id"]
        with ws(c, alice, tid) as sock:
            m = next_state(sock)
            sock.send_json({"type": "move", "seq": m["seq"], "action": "h2e2"})
            while not (m["type"] == "state" and m.get("record")):
                m = receive(sock)
            assert m["result"]["reason"] == "timeout"
        hist = c.get("/api/records?user=alice").json()
        assert len(hist) == 1 and hist[0]["result"]["reason"] == "timeout"


def test_a_lobby_clock_starts_at_the_players_first_move(tmp_path):
    """A lobby game with main time: a person's bank stands until that person's first move (as
    on lichess), which has ``first_move_ms`` instead; a first move that never comes aborts."""
    bank = {"bank": "5m"}
    # the first move's time is long enough for a busy machine's socket to open within it
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0, first_move_ms=3000) as c:
        alice = signup(c, "alice")
        tid = post(c, alice, "/api/tables", {"game": "xiangqi", "bots": 1,
                                             "settings": {"clock": bank}}).json()["id"]
        with ws(c, alice, tid) as sock:
            m = next_state(sock)
            mine = m["clocks"][m["seat"]]
            assert mine["first_move"] and mine["bank"] == 300_000
            assert mine["deadline"] - m["now"] <= 3000
            assert event(sock, "aborted")["reason"] == "no_first_move"
        assert c.get("/api/records?user=alice").json() == []


def test_a_junqi_layout_has_minutes_and_its_abort_leaves_the_game_untouched(tmp_path):
    """Junqi's first decision is the layout of 25 pieces: at a lobby table it has
    ``first_layout_ms`` (3 minutes by default, the junqi_default preset's layout phase), not the
    30 s of a first move. A layout that never comes aborts the game with nothing applied to it:
    no forfeit in its moves, no seat out, no result — the one story the page then tells."""
    bank = {"bank": "10m"}
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        alice = signup(c, "alice")
        tid = post(c, alice, "/api/tables", {"game": "junqi", "bots": 1,
                                             "settings": {"clock": bank}}).json()["id"]
        with ws(c, alice, tid) as sock:
            m = next_state(sock)
            mine = m["clocks"][m["seat"]]
            assert mine["first_move"] and m["view"]["phase"] == "layout"
            assert 170_000 < mine["deadline"] - m["now"] <= 180_000, mine
    (tmp_path / "short").mkdir()
    with client(tmp_path / "short", spectator_delay_ms=0, bot_delay_ms=0,
                first_layout_ms=1500) as c:
        alice = signup(c, "alice")
        tid = post(c, alice, "/api/tables", {"game": "junqi", "bots": 1,
                                             "settings": {"clock": bank}}).json()["id"]
        with ws(c, alice, tid) as sock:
            code, _, seen = closed_with(sock)
            assert code == 4410
        told = [m["event"] for m in seen if m["type"] == "event" and m["event"]["type"] == "aborted"]
        assert told and told[0]["reason"] == "no_first_move"
        with ws(c, alice, tid) as sock:           # the page opened again later
            later = next_state(sock)
        assert later["status"] == "aborted"
        for m in [*(m for m in seen if m["type"] == "state"), later]:
            assert m["result"] is None and not m["view"].get("result"), m
            assert not any(m["view"].get("eliminated") or []), m["view"]
            assert "forfeit" not in json.dumps(m["view"]), m["view"]
        assert c.get("/api/records?user=alice").json() == []


def test_a_game_of_three_goes_on_without_the_seat_that_never_moved(tmp_path):
    """Chinese checkers for three: a person who never moves is skipped, then out at the third
    timeout (``skip:3``), and the two others play the game to its end — it is not aborted for
    them, and it is recorded with the absent seat last."""
    cap = {"move_cap": "1s", "on_cap": "skip:3"}
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        alice = signup(c, "alice")
        tid = post(c, alice, "/api/tables", {"game": "chinese-checkers", "num_seats": 3, "bots": 2,
                                             "settings": {"clock": cap}}).json()["id"]
        with ws(c, alice, tid) as sock:
            m = next_state(sock)
            while not (m["type"] == "state" and m.get("record")):
                assert m["type"] != "aborted", m
                m = receive(sock)
        assert c.get(f"/api/tables/{tid}").json()["status"] == "finished"
        hist = c.get("/api/records?user=alice").json()
        assert len(hist) == 1
        got = c.get(f"/api/records/{hist[0]['id']}").json()
        seat = got["names"].index("alice")
        details = got["result"]["details"]
        # alice out at her third timeout; a bot may be out too later (anti-stalling), as the rules say
        assert details["eliminated"][0] == {"seat": seat, "reason": "timeout", "moves": 2}, details
        assert details["places"][seat] == 3 and sum(details["moves_by_seat"]) > 20


def test_an_aborted_game_ends_in_the_accounts_event_stream_too(tmp_path):
    """The Bot API's account events: a game that began (``gameStart``) and was aborted ends with
    ``gameFinish`` (no result, no record, ``aborted`` the reason), as a finished one does — a
    client counting its games in play would otherwise count this one for ever."""
    cap = {"move_cap": "400ms", "on_cap": "lose"}
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        told: list[tuple[int, dict]] = []
        c.app.state.bot_events.listeners.append(lambda user, msg: told.append((user, msg)))
        alice = signup(c, "alice")
        tid = post(c, alice, "/api/tables", {"game": "xiangqi", "bots": 1,
                                             "settings": {"clock": cap}}).json()["id"]
        with ws(c, alice, tid) as sock:
            assert event(sock, "aborted")["reason"] == "no_first_move"
        kinds = [(m["type"], m["game"]["id"]) for _, m in told]
        assert kinds == [("gameStart", tid), ("gameFinish", tid)], kinds
        end = told[-1][1]["game"]
        assert end["result"] is None and end["record"] is None and end["aborted"] == "no_first_move"
        assert end["table"]["status"] == "aborted"


def test_a_dealt_hand_is_a_begun_game_its_first_move_timeout_loses(tmp_path):
    """A card game shows each seat its hand before its first decision: a person who lets the
    clock run out then has seen the deal (a bad hand would be given up for free, and the
    others' game denied), so the loss stands — recorded, as the clock says."""
    cap = {"move_cap": "400ms", "on_cap": "lose"}
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        alice = signup(c, "alice")
        tid = post(c, alice, "/api/tables", {"game": "doudizhu", "bots": 2,
                                             "settings": {"clock": cap}}).json()["id"]
        with ws(c, alice, tid) as sock:
            m = next_state(sock)
            while not (m["type"] == "state" and m.get("record")):
                m = receive(sock)
            assert m["result"]["reason"] == "timeout"
        assert c.get(f"/api/tables/{tid}").json()["status"] == "finished"
        assert len(c.get("/api/records?user=alice").json()) == 1


def test_a_seated_player_keeps_an_untimed_table_alive(tmp_path):
    with client(tmp_path, table_idle_timeout=0.3) as c:
        alice = signup(c, "alice")
        tid = xiangqi_vs_bot(c, alice)
        with ws(c, alice, tid) as sock:
            next_state(sock)
            time.sleep(1.0)
            sock.send_json({"type": "ping"})
            assert receive(sock)["type"] == "pong"
        assert c.get(f"/api/tables/{tid}").json()["status"] == "playing"


# ----- the same against a real `qipai serve` process, with the `websockets` client ------------
@contextlib.contextmanager
def real_server(tmp_path, limits: str = ""):
    """``qipai serve`` (or, given ``limits``, a Python expression of :class:`Limits`, the same
    server started by :func:`qipai.server.serve` with those limits) as a separate process."""
    port = free_port()
    if limits:
        code = ("from qipai.server import Limits, Settings, serve; "
                f"serve('127.0.0.1', {port}, Settings(database_url='sqlite:///{tmp_path}/qipai.db', "
                f"limits={limits}))")
        proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    else:
        proc = start(tmp_path, port)
    try:
        wait_up(port)
        yield port
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def real_table(port: int, name: str, game: str = "xiangqi") -> tuple[httpx.Client, str, str]:
    """A signed-in HTTP client, its session token, and its new untimed table of ``game`` (the
    account in seat 0, a bot in the other)."""
    http = httpx.Client(base_url=f"http://127.0.0.1:{port}")
    r = http.post("/api/signup", json={"username": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    r = http.post("/api/tables", json={"game": game, "bots": 1, "settings": NO_CLOCK})
    assert r.status_code == 201, r.text
    return http, http.cookies["qipai_session"], r.json()["id"]


def real_ws(port: int, token: str, tid: str):
    return connect(f"ws://127.0.0.1:{port}/ws/tables/{tid}", additional_headers=as_user(token),
                   open_timeout=10)


def real_state(sock) -> dict:
    while (m := json.loads(sock.recv(timeout=10)))["type"] != "state":
        if m["type"] == "commitment":       # the deal waits for this seat's nonce (§6.1)
            sock.send(json.dumps({"type": "nonce", "nonce": "00"}))
            continue
        assert m["type"] in ("hello", "event", "table", "nonce"), m
    return m


def real_close(sock) -> tuple[int, str, list[dict]]:
    seen = []
    with pytest.raises(ConnectionClosed) as e:
        for _ in range(20_000):
            seen.append(json.loads(sock.recv(timeout=10)))
    return e.value.rcvd.code, e.value.rcvd.reason, seen


def test_signing_out_closes_a_socket_of_a_real_server(tmp_path):
    with real_server(tmp_path) as port:
        http, token, tid = real_table(port, "alice")
        with real_ws(port, token, tid) as sock:
            assert real_state(sock)["seat"] == 0
            assert http.post("/api/logout").status_code == 200
            code, reason, seen = real_close(sock)
            assert (code, reason) == (4401, "signed_out") and seen[-1]["error"] == "signed_out"


def blast_then_reconnect(tmp_path, limits: str, message: str, count: int, pause: float = 0.0,
                         game: str = "xiangqi") -> tuple[int, str, list[dict]]:
    """Send ``count`` copies of ``message`` to a real server without reading (and go on not
    reading for ``pause`` seconds), read until it closes the socket, and check that a reconnect
    gets the current state. Returns the close."""
    with real_server(tmp_path, limits) as port:
        _http, token, tid = real_table(port, "alice", game)
        with real_ws(port, token, tid) as sock:
            state = real_state(sock)
            with contextlib.suppress(ConnectionClosed):
                for _ in range(count):
                    sock.send(message)
            time.sleep(pause)
            closed = real_close(sock)
        with real_ws(port, token, tid) as sock:
            again = real_state(sock)
            assert again["seat"] == 0 and again["seq"] == state["seq"]
    return closed


def test_a_flood_closes_a_socket_of_a_real_server_and_a_reconnect_gets_the_state(tmp_path):
    code, reason, seen = blast_then_reconnect(tmp_path, "", '{"type":"ping"}', 10_000)
    assert (code, reason) == (4429, "flooding")
    assert seen[-1]["error"] == "flooding"         # the rate_limited answers still queued are dropped


def test_a_client_that_does_not_read_is_closed_and_a_reconnect_gets_the_state(tmp_path):
    # no rate limit: every sync is answered with the whole state, and nothing is read meanwhile
    unlimited = "Limits(moves_account=(1e6, 1_000_000), moves_ip=(1e6, 1_000_000))"
    # (a go state is about 5 KB: some 800 fill the socket buffers, 256 more the queue)
    code, reason, seen = blast_then_reconnect(tmp_path, unlimited, '{"type":"sync"}', 10_000,
                                              pause=4, game="go")
    assert (code, reason) == (4429, "too_slow") and len(seen) < 10_000


def test_a_timed_game_paused_by_failing_storage_is_not_idle(tmp_path):
    with client(tmp_path, storage_faults=True, storage_wait=0.5, table_idle_timeout=0.3) as c:
        red, black = signup(c, "red"), signup(c, "black")
        timed = {"game": "xiangqi", "settings": {"clock": "board_default"}}
        tid = post(c, red, "/api/tables", timed).json()["id"]
        post(c, black, f"/api/tables/{tid}/sit")
        fault = tmp_path / "qipai.db.fault"
        with ws(c, red, tid) as sock:
            next_state(sock)
            fault.write_text("full")
            sock.send_json({"type": "move", "seq": 0, "action": "h2e2"})
            while receive(sock)["type"] != "paused":
                pass
        time.sleep(1.0)                      # nobody at the table, no deadline while paused
        assert tid in {t["id"] for t in c.get("/api/tables").json()}
        fault.unlink()


def test_sitting_down_with_two_sockets_open_keeps_the_newest_for_the_seat(tmp_path):
    with client(tmp_path) as c:
        alice, bob = signup(c, "alice"), signup(c, "bob")
        tid = post(c, bob, "/api/tables", {"game": "xiangqi", "settings": NO_CLOCK}).json()["id"]
        with ws(c, alice, tid) as older:
            # the server orders sockets as it registers them (after the socket's checks), so
            # the older one is registered (its hello read) before the newer one opens
            assert receive(older)["seat"] is None
            with ws(c, alice, tid) as newer:
                assert receive(newer)["seat"] is None
                assert post(c, alice, f"/api/tables/{tid}/sit").status_code == 200   # game starts
                code, reason, seen = closed_with(older)
                assert (code, reason) == (4409, "replaced") and seen[-1]["error"] == "replaced"
                state = next_state(newer)
                assert state["seat"] == 1 and state["status"] == "playing"


def test_leaving_trusteeship_is_in_the_action_log_and_survives_a_restart(tmp_path):
    settings = {"clock": FAST_CARDS, "bot_delay_ms": 0, "spectator_delay_ms": 0}
    with client(tmp_path) as c:
        alice = signup(c, "alice")
        body = {"game": "doudizhu", "bots": 2, "settings": settings}
        tid = post(c, alice, "/api/tables", body).json()["id"]
        with ws(c, alice, tid) as seat:
            assert event(seat, "trusteeship")["on"] is True
            seat.send_json({"type": "resume"})
            off = event(seat, "trusteeship")
            assert off["on"] is False
            before = [e for e in c.app.state.hub.tables[tid].runner.events if e["type"] == "trusteeship"]
    with client(tmp_path) as c:                  # rebuilt from the log: the same announcements
        runner = c.app.state.hub.tables[tid].runner
        again = [e for e in runner.events if e["type"] == "trusteeship"]
        assert again[:len(before)] == before and before[-1] == off


def test_sockets_opened_to_watch_are_bounded_per_account_and_address(tmp_path):
    # spectator sockets were let in without end: one address could hold every connection the
    # server may open; a seat's own socket is always let in
    limits = Limits(api_ip=(1000.0, 1000), signup_ip=(100.0, 100), ws_open_account=2, ws_open_ip=3)
    with client(tmp_path, limits=limits) as c:
        alice, bob = signup(c, "alice"), signup(c, "bob")
        tid = xiangqi_vs_bot(c, alice)
        with ws(c, bob, tid) as w1, ws(c, bob, tid) as w2:
            assert receive(w1)["type"] == receive(w2)["type"] == "hello"
            with ws(c, bob, tid) as w3:              # bob's third: over his 2
                code, reason, seen = closed_with(w3)
                assert (code, reason) == (4408, "too_many_sockets")
                assert seen[-1]["error"] == "too_many_sockets" and seen[-1]["params"] == {"max": 2}
            with ws(c, None, tid) as w4:             # the address's third (signed out)
                assert receive(w4)["type"] == "hello"
                with ws(c, None, tid) as w5:         # its fourth: over the address's 3
                    assert closed_with(w5)[:2] == (4408, "too_many_sockets")
                with ws(c, alice, tid) as mine:      # the seat's own socket: let in
                    assert receive(mine)["type"] == "hello" and next_state(mine)["seat"] == 0
        with ws(c, bob, tid) as again:               # closed sockets give their places back
            assert receive(again)["type"] == "hello"
