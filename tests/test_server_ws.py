"""Live play over WebSockets against the real app: views, sequence numbers, bad input, reconnects."""

from __future__ import annotations

import json

import pytest

import qipai
from qipai import i18n
from qipai.server import Limits

from .server_helpers import client, next_state, post, receive, signup, ws


@pytest.fixture
def c(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        yield c


def two_player_table(c, clock="none"):
    red, black = signup(c, "red"), signup(c, "black")
    t = post(c, red, "/api/tables", {"game": "xiangqi", "settings": {"clock": clock}}).json()
    post(c, black, f"/api/tables/{t['id']}/sit")
    return red, black, t["id"]


def test_state_messages_are_views_and_moves_flow(c):
    red, black, tid = two_player_table(c)
    with ws(c, red, tid) as r, ws(c, black, tid) as b, ws(c, None, tid) as spec:
        assert receive(r)["type"] == "hello"
        m = next_state(r)
        state = qipai.load("xiangqi").new_state()
        assert m["seat"] == 0 and m["seq"] == 0 and m["to_act"] == [0]
        assert m["view"] == state.view(0)
        mb = next_state(b)
        assert mb["seat"] == 1 and mb["view"] == state.view(1)
        ms = next_state(spec)
        assert ms["seat"] is None and ms["view"] == state.view(None)
        r.send_json({"type": "move", "seq": 0, "action": "h2e2"})
        state.apply("h2e2")
        for sock, seat in ((r, 0), (b, 1), (spec, None)):
            m = next_state(sock)
            assert m["seq"] == 1 and m["view"] == state.view(seat) and m["to_act"] == [1]
        assert m["view"]["last_move"] == "h2e2"


def test_duplicate_stale_illegal_out_of_turn_and_other_seat(c):
    red, black, tid = two_player_table(c)
    with ws(c, red, tid) as r, ws(c, black, tid) as b:
        next_state(r), next_state(b)
        r.send_json({"type": "move", "seq": 0, "action": "h2e2"})
        next_state(r), next_state(b)
        # the same move again (a duplicate) and an answer to an old state: ignored, nothing changes
        r.send_json({"type": "move", "seq": 0, "action": "h2e2"})
        m = receive(r)
        assert m == {"type": "ignored", "seq": 0, "current": 1, "reason": "duplicate or stale move"}
        # out of turn (red again, with the current seq)
        r.send_json({"type": "move", "seq": 1, "action": "b2e2"})
        m = receive(r)
        assert m["type"] == "error" and m["error"] == "not_your_turn"
        # a move for the other seat
        r.send_json({"type": "move", "seq": 1, "action": "h9g7", "seat": 1})
        m = receive(r)
        assert m["type"] == "error" and m["error"] == "not_your_seat"
        for lang in ("en", "zh"):          # the seat by its player's name, not a number
            words = i18n.t("error.not_your_seat", m["params"], lang=lang)
            assert " red " in words and "0" not in words, words
        # an illegal move: answered with the rule's reason, state unchanged
        b.send_json({"type": "move", "seq": 1, "action": "a9a3"})
        m = receive(b)
        assert m["type"] == "error" and m["error"] == "illegal" and m["message"] and m["seq"] == 1
        b.send_json({"type": "sync"})
        m = next_state(b)
        assert m["seq"] == 1 and m["view"]["last_move"] == "h2e2"
        b.send_json({"type": "move", "seq": 1, "action": "h9g7"})
        assert next_state(b)["seq"] == 2 and next_state(r)["seq"] == 2


@pytest.mark.parametrize("payload, code", [
    ("{oops", "bad_json"),
    ("[1, 2]", "bad_message"),
    ('{"type": "teleport"}', "unknown_type"),
    ('{"no": "type"}', "unknown_type"),
    ('{"type": "move", "action": "h2e2"}', "bad_message"),
    ('{"type": "move", "seq": "0", "action": "h2e2"}', "bad_message"),
    ('{"type": "move", "seq": 0, "action": 42}', "bad_message"),
    ('{"type": "move", "seq": 0, "action": "' + "x" * 1001 + '"}', "bad_message"),
    ('{"type": "move", "seq": 0, "action": "' + "x" * 5000 + '"}', "too_large"),
])
def test_bad_messages_are_answered_and_the_game_goes_on(c, payload, code):
    red, black, tid = two_player_table(c)
    with ws(c, red, tid) as r:
        next_state(r)
        r.send_text(payload)
        m = receive(r)
        assert m["type"] == "error" and m["error"] == code, m
        r.send_bytes(b'{"type": "move", "seq": 0, "action": "h2e2"}')   # binary frames are read too
        m = next_state(r)
        assert m["seq"] == 1 and m["view"]["last_move"] == "h2e2"


def test_spectators_cannot_play_and_no_table(c):
    red, black, tid = two_player_table(c)
    outsider = signup(c, "outsider")
    with ws(c, outsider, tid) as o:
        assert next_state(o)["seat"] is None
        o.send_json({"type": "move", "seq": 0, "action": "h2e2"})
        assert receive(o)["error"] == "not_seated"
    with ws(c, red, "nope") as x:
        assert receive(x)["error"] == "no_table"


def test_reconnect_gets_the_full_view(c):
    red, black, tid = two_player_table(c)
    with ws(c, red, tid) as r, ws(c, black, tid) as b:
        next_state(r), next_state(b)
        for seq, (sock, mv) in enumerate([(r, "h2e2"), (b, "h9g7"), (r, "h0g2")]):
            sock.send_json({"type": "move", "seq": seq, "action": mv})
            next_state(r), next_state(b)
    with ws(c, black, tid) as b:                   # black comes back: the whole current view
        assert receive(b)["seat"] == 1
        m = next_state(b)
        assert m["seq"] == 3 and m["to_act"] == [1] and m["view"]["last_move"] == "h0g2"
        assert "legal_moves" in m["view"] and len(m["view"]["legal_moves"]) > 30
        b.send_json({"type": "move", "seq": 3, "action": "i9h9"})
        assert next_state(b)["seq"] == 4


def test_resign_and_draw_offers(c):
    red, black, tid = two_player_table(c)
    with ws(c, red, tid) as r, ws(c, black, tid) as b:
        next_state(r), next_state(b)
        r.send_json({"type": "draw_accept"})
        m = receive(r)
        assert m["type"] == "event" and m["event"]["type"] == "refused" or m["type"] == "error"
        r.send_json({"type": "draw_offer"})      # on red's own turn: it goes out with red's move (§5.4)
        r.send_json({"type": "move", "seq": 0, "action": "h2e2"})
        ev = receive(b)
        while ev["type"] != "event":
            assert ev["type"] == "state"
            ev = receive(b)
        assert ev["event"]["type"] == "draw_offer" and ev["event"]["seat"] == 0
        # the state after the offer carries it (the page shows accept / decline from the state)
        m = next_state(b)
        assert m["seq"] == 1 and m["draw_offer"] == 0, m
        m = next_state(r)                      # the offerer: its move's state, then the offer's
        m = m if "draw_offer" in m else next_state(r)
        assert m["seq"] == 1 and m["draw_offer"] == 0, m
        b.send_json({"type": "draw_decline"})
        assert receive(b)["event"]["type"] == "draw_declined"
        m = next_state(b)
        assert m["seq"] == 1 and "draw_offer" not in m
        b.send_json({"type": "resign"})
        while True:
            m = receive(r)
            if m["type"] == "state" and m["record"]:
                break
        assert m["result"]["reason"] == "resign" and m["result"]["text"] == "1-0"
        assert m["status"] == "finished"
        r.send_json({"type": "move", "seq": m["seq"], "action": "h2e2"})
        assert receive(r)["error"] == "not_playing"
    hist = c.get("/api/records?user=red").json()
    assert len(hist) == 1 and hist[0]["result"]["reason"] == "resign"


def test_clock_timeout_is_decided_by_the_server(c):
    red, black, tid = two_player_table(c, clock={"move_cap": "3s", "on_cap": "lose"})
    with ws(c, red, tid) as r, ws(c, black, tid) as b:
        m = next_state(r)
        next_state(b)
        assert m["clocks"][0]["deadline"] - m["now"] <= 3000
        r.send_json({"type": "move", "seq": 0, "action": "h2e2"})
        while next_state(b)["seq"] < 1:
            pass
        b.send_json({"type": "move", "seq": 1, "action": "h9g7"})   # each side has moved: a loss
        while not (m["type"] == "state" and m["record"]):
            m = receive(r)
        assert m["result"]["reason"] == "timeout" and m["result"]["text"] == "0-1"


def test_move_rate_limit_is_machine_readable(tmp_path):
    limits = Limits(moves_account=(1.0, 3), moves_ip=(1000.0, 1000))
    with client(tmp_path, limits=limits, spectator_delay_ms=0) as c:
        red, black, tid = two_player_table(c)
        with ws(c, red, tid) as r:
            next_state(r)
            for _ in range(3):
                r.send_json({"type": "ping"})
                assert receive(r)["type"] == "pong"
            r.send_json({"type": "ping"})
            m = receive(r)
            assert m["type"] == "error" and m["error"] == "rate_limited" and m["retry_after"] > 0


def test_message_json_is_compact_text(c):
    red, black, tid = two_player_table(c)
    with ws(c, red, tid) as r:
        hello = r.receive_text()
        assert json.loads(hello)["type"] == "hello" and ": " not in hello[:40]


def test_who_is_at_the_table_is_told_to_who_asks(c):
    """``presence``: a socket that asks is told, per seat, whether its player has the table
    open (None for a bot's seat), and again at each change; one that did not ask is not."""
    red, black, tid = two_player_table(c)
    alone = signup(c, "alone")
    bots = post(c, alone, "/api/tables", {"game": "xiangqi", "bots": 1}).json()["id"]

    def until_presence(sock):
        while (m := receive(sock))["type"] != "presence":
            pass
        return m["online"]
    with ws(c, red, tid) as r:
        next_state(r)
        r.send_json({"type": "presence"})
        assert until_presence(r) == [True, False]
        with ws(c, black, tid) as b:
            assert until_presence(r) == [True, True]
            next_state(b)
            b.send_json({"type": "ping"})              # black, who did not ask, is not told
            while (m := receive(b))["type"] != "pong":
                assert m["type"] != "presence"
        assert until_presence(r) == [True, False]    # black closed the page
    with ws(c, alone, bots) as a:
        next_state(a)
        a.send_json({"type": "presence"})
        assert until_presence(a) == [True, None]     # a bot is always there: no dot
