"""A restart never decides a game: live games are rebuilt from their action log; the seat on
turn starts that turn again (competition.md §4.7)."""

from __future__ import annotations

import time

from sqlalchemy import select

from qipai.server.models import ActionRow, TableRow

from .server_helpers import client, next_state, post, receive, signup, ws


def left_ms(msg, seat):
    return msg["clocks"][seat]["deadline"] - msg["now"]


def test_xiangqi_resumes_from_its_log_and_the_turn_restarts_with_its_allowance(tmp_path):
    """§4.7: after a restart the seat on turn starts that turn again with the bank it had when
    the turn began; neither its thinking before the stop nor the downtime is charged."""
    with client(tmp_path) as c:
        red, black = signup(c, "red"), signup(c, "black")
        t = post(c, red, "/api/tables", {"game": "xiangqi", "settings": {"clock": "board_default"}}).json()
        post(c, black, f"/api/tables/{t['id']}/sit")
        with ws(c, red, t["id"]) as r, ws(c, black, t["id"]) as b:
            next_state(r), next_state(b)
            r.send_json({"type": "move", "seq": 0, "action": "h2e2"})
            next_state(r)
            before = next_state(b)
            time.sleep(0.6)                      # black thinks 0.6 s, then the server stops
        bank_black = before["clocks"][1]["bank"]
    with client(tmp_path).app.state.db() as s:   # the database holds the game's log, undecided
        row = s.scalar(select(TableRow))
        assert row.status == "playing" and row.record_id is None
        log = s.execute(select(ActionRow.kind, ActionRow.seat, ActionRow.action)
                        .where(ActionRow.table_id == t["id"]).order_by(ActionRow.idx)).all()
        assert [tuple(x) for x in log][:2] == [("start", None, None), ("move", 0, "h2e2")]
    time.sleep(1.0)                              # the server is down for a second
    with client(tmp_path) as c:
        listed = c.get(f"/api/tables/{t['id']}").json()
        assert listed["status"] == "playing" and listed["plies"] == 1
        with ws(c, black, t["id"]) as b:
            assert receive(b)["type"] == "hello"
            m = next_state(b)
            assert m["seq"] == 1 and m["to_act"] == [1] and m["view"]["last_move"] == "h2e2"
            assert m["clocks"][1]["bank"] == bank_black
            assert 0 <= bank_black - left_ms(m, 1) < 300   # the turn began again just now
            b.send_json({"type": "move", "seq": 1, "action": "h9g7"})
            assert next_state(b)["seq"] == 2
            b.send_json({"type": "resign"})
            m = next_state(b)
            while not m.get("record"):
                m = next_state(b)
        rec = c.get(f"/api/records/{m['record']}").json()["record"]
        assert rec["actions"] == ["h2e2", "h9g7"] and rec["result"]["reason"] == "resign"
        assert any(e.get("type") == "resumed" for e in rec["meta"]["events"])
        used = rec["meta"]["times"][1][1]             # black's move: timed from the restart
        assert used < 500, rec["meta"]["times"]


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
