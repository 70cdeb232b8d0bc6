"""A restart never decides a game: live games and clocks are saved and resume, clocks paused."""

from __future__ import annotations

import time

from sqlalchemy import select

from qipai.server.models import TableRow

from .server_helpers import client, next_state, post, receive, signup, ws


def left_ms(msg, seat):
    return msg["clocks"][seat]["deadline"] - msg["now"]


def test_xiangqi_resumes_with_clocks_paused(tmp_path):
    with client(tmp_path) as c:
        red, black = signup(c, "red"), signup(c, "black")
        t = post(c, red, "/api/tables", {"game": "xiangqi", "settings": {"clock": "board_default"}}).json()
        post(c, black, f"/api/tables/{t['id']}/sit")
        with ws(c, red, t["id"]) as r, ws(c, black, t["id"]) as b:
            next_state(r), next_state(b)
            r.send_json({"type": "move", "seq": 0, "action": "h2e2"})
            next_state(r)
            before = next_state(b)
            time.sleep(0.3)                      # black thinks 0.3 s, then the server stops
        bank_black = before["clocks"][1]["bank"]
    with client(tmp_path).app.state.db() as s:   # the database holds the live game, undecided
        row = s.scalar(select(TableRow))
        assert row.status == "playing" and row.live["actions"] == ["h2e2"] and row.record_id is None
        saved_now = row.live["now"]
    time.sleep(1.0)                              # the server is down for a second
    with client(tmp_path) as c:
        listed = c.get(f"/api/tables/{t['id']}").json()
        assert listed["status"] == "playing" and listed["plies"] == 1
        with ws(c, black, t["id"]) as b:
            assert receive(b)["type"] == "hello"
            m = next_state(b)
            assert m["seq"] == 1 and m["to_act"] == [1] and m["view"]["last_move"] == "h2e2"
            # the table time went on from the saved value, not from the wall clock
            assert m["now"] >= saved_now and m["now"] - saved_now < 500
            used = bank_black - left_ms(m, 1)
            assert 250 <= used < 900, used        # the 0.3 s thought is charged, the 1 s downtime is not
            b.send_json({"type": "move", "seq": 1, "action": "h9g7"})
            assert next_state(b)["seq"] == 2
            b.send_json({"type": "resign"})
            m = next_state(b)
            while not m.get("record"):
                m = next_state(b)
        rec = c.get(f"/api/records/{m['record']}").json()["record"]
        assert rec["actions"] == ["h2e2", "h9g7"] and rec["result"]["reason"] == "resign"
        assert any(e.get("type") == "resumed" for e in rec["meta"]["events"])


def test_bots_resume_their_pending_turn(tmp_path):
    with client(tmp_path) as c:
        alice = signup(c, "alice")
        t = post(c, alice, "/api/tables", {"game": "doudizhu", "bots": 2,
                                          "settings": {"clock": "none", "bot_delay_ms": 400}}).json()
        with ws(c, alice, t["id"]) as a:
            m = next_state(a)
            while m["to_act"] != [0]:
                m = next_state(a)
            a.send_json({"type": "move", "seq": m["seq"], "action": m["legal"][0]})
            m = next_state(a)
            assert m["to_act"] != [0]             # a bot thinks; the server stops now
        seq, hand = m["seq"], m["view"]["hand"]
    with client(tmp_path) as c:
        with ws(c, alice, t["id"]) as a:
            m = next_state(a)
            # the same deal, replayed (the hand only grows, by the kitty, until the person plays)
            assert m["seq"] >= seq and set(hand) <= set(m["view"]["hand"])
            while m["seq"] == seq or (m["to_act"] and m["to_act"] != [0] and not m["result"]):
                m = next_state(a)                 # the bots answer after the restart
            assert m["seq"] > seq
