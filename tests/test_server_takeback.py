"""Takeback requests at casual two-seat board tables (lichess): asked, accepted or declined;
accepted, the referee holds the state rebuilt from the shorter log, no time is given back, and
a restarted server replays the table to the same position; refused at rated and card tables;
a built-in bot grants the request at once."""

from __future__ import annotations

import pytest

from qipai.core.registry import load

from .server_helpers import client, next_state, post, signup, until, ws


def rebuilt_view(moves: list[str], seat: int) -> dict:
    """The view of ``seat`` of a xiangqi game that played ``moves`` from the start."""
    st = load("xiangqi").new_state()
    for m in moves:
        st.apply(m)
    return st.view(seat)


def state_at(sock, seq: int) -> dict:
    return until(sock, lambda m: m["type"] == "state" and m["seq"] == seq)


def play(me, other, seq: int, action: str) -> dict:
    """``me`` plays ``action`` on position ``seq``; returns ``other``'s next state."""
    me.send_json({"type": "move", "action": action, "seq": seq})
    state_at(me, seq + 1)
    return state_at(other, seq + 1)


def error_of(sock) -> str:
    return until(sock, lambda m: m["type"] == "error")["error"]


def test_takeback_accepted_declined_lapsed_and_kept_across_a_restart(tmp_path):
    with client(tmp_path) as c:
        red, black = signup(c, "red"), signup(c, "black")
        body = {"game": "xiangqi", "settings": {"clock": "board_default"}}
        tid = post(c, red, "/api/tables", body).json()["id"]
        post(c, black, f"/api/tables/{tid}/sit")
        with ws(c, red, tid) as r, ws(c, black, tid) as b:
            m = next_state(r)
            next_state(b)
            assert "takeback_allowed" not in m                # nothing of red's to take back yet
            r.send_json({"type": "takeback_offer"})
            assert error_of(r) == "takeback_nothing"
            play(r, b, 0, "h2e2")
            play(b, r, 1, "h9g7")
            m = play(r, b, 2, "b2c2")
            assert m["takeback_allowed"] is True
            bank_black = m["clocks"][1]["bank"]
            # red asks on black's turn: one move back, red to move again
            r.send_json({"type": "takeback_offer"})
            m = until(b, lambda m: m["type"] == "state" and m.get("takeback") == 0)
            r.send_json({"type": "takeback_offer"})
            assert error_of(r) == "takeback_open"
            r.send_json({"type": "takeback_accept"})          # one's own request: not to accept
            assert error_of(r) == "no_takeback"
            b.send_json({"type": "takeback_accept"})
            ev = until(b, lambda m: m["type"] == "event" and m["event"]["type"] == "takeback")
            assert ev["event"]["by"] == 0 and ev["event"]["moves"] == 1 and ev["event"]["ply"] == 2
            m = state_at(r, 4)              # seq never goes back: one more than before
            assert m["to_act"] == [0] and "takeback" not in m and m["ply"] == 2
            # a late move for the state numbered 2 (red to move in this same position, before
            # the takeback) is ignored, never applied to the new one
            r.send_json({"type": "move", "action": "b0c2", "seq": 2})
            assert until(r, lambda m: m["type"] == "ignored")["current"] == 4
            assert m["view"] == rebuilt_view(["h2e2", "h9g7"], 0)
            assert [e["seat"] for e in m["moves"]["list"]] == [0, 1]
            assert m["clocks"][1]["bank"] < bank_black        # black's thinking stays charged
            assert m["clocks"][0].get("deadline")             # red's clock runs
            # black asks on red's turn, red declines; asked again before a move: refused
            b.send_json({"type": "takeback_offer"})
            until(r, lambda m: m["type"] == "state" and m.get("takeback") == 1)
            r.send_json({"type": "takeback_decline"})
            until(b, lambda m: m["type"] == "event" and m["event"]["type"] == "takeback_declined")
            b.send_json({"type": "takeback_offer"})
            assert error_of(b) == "takeback_declined"
            # red asks, then moves: the request lapses with the move
            r.send_json({"type": "takeback_offer"})
            until(b, lambda m: m["type"] == "state" and m.get("takeback") == 0)
            m = play(r, b, 4, "b0c2")
            assert "takeback" not in m
            # black asks on its own turn: its move and red's reply are taken back
            b.send_json({"type": "takeback_offer"})
            until(r, lambda m: m["type"] == "state" and m.get("takeback") == 1)
            r.send_json({"type": "takeback_accept"})
            m = state_at(b, 6)
            assert m["to_act"] == [1] and m["view"] == rebuilt_view(["h2e2"], 1) and m["ply"] == 1
            m = play(b, r, 6, "b9c7")
            assert m["view"] == rebuilt_view(["h2e2", "b9c7"], 0)
    # a restarted server replays the log, takebacks included, to the same position
    with client(tmp_path) as c:
        with ws(c, red, tid) as r:
            m = next_state(r)
            assert (m["seq"], m["ply"]) == (7, 2) and m["to_act"] == [0]
            assert m["view"] == rebuilt_view(["h2e2", "b9c7"], 0)
            r.send_json({"type": "resign"})
            m = until(r, lambda m: m["type"] == "state" and m.get("record"))
        rec = c.get(f"/api/records/{m['record']}").json()["record"]
        assert rec["actions"] == ["h2e2", "b9c7"]                 # the moves that stand
        assert len(rec["meta"]["times"]) == 2
        taken = [e for e in rec["meta"]["events"] if e["type"] == "takeback"]
        assert [(e["by"], e["moves"]) for e in taken] == [(0, 1), (1, 2)]


def test_takeback_refused_at_rated_and_card_tables_and_granted_by_a_bot(tmp_path):
    with client(tmp_path, bot_delay_ms=0) as c:
        red, black = signup(c, "red"), signup(c, "black")
        tid = post(c, red, "/api/tables", {"game": "xiangqi", "settings": {"rated": True}}).json()["id"]
        post(c, black, f"/api/tables/{tid}/sit")
        with ws(c, red, tid) as r, ws(c, black, tid) as b:
            next_state(r), next_state(b)
            m = play(r, b, 0, "h2e2")
            assert "takeback_allowed" not in m
            r.send_json({"type": "takeback_offer"})
            assert error_of(r) == "takeback_not_allowed"

        tid = post(c, red, "/api/tables", {"game": "doudizhu", "bots": 2, "bot": "random",
                                           "settings": {"clock": "card_default"}}).json()["id"]
        with ws(c, red, tid) as s:
            assert "takeback_allowed" not in next_state(s)
            s.send_json({"type": "takeback_offer"})
            assert error_of(s) == "takeback_not_allowed"

        # against a built-in bot at a casual table the request is granted at once
        tid = post(c, red, "/api/tables", {"game": "xiangqi", "bots": 1, "bot": "random"}).json()["id"]
        with ws(c, red, tid) as s:
            m = next_state(s)
            assert m["seat"] == 0
            s.send_json({"type": "move", "action": "h2e2", "seq": 0})
            m = state_at(s, 2)                               # the bot replied
            assert m["takeback_allowed"] is True
            s.send_json({"type": "takeback_offer"})
            m = state_at(s, 3)
            assert m["to_act"] == [0] and m["view"] == rebuilt_view([], 0) and m["ply"] == 0
            assert "takeback" not in m


def legal_of(m: dict) -> list[str]:
    return m.get("legal") or m["view"].get("legal_moves") or m["view"].get("legal")


@pytest.mark.parametrize("game, options", [("go", {"board_size": 9}), ("gomoku", {"ruleset": "renju"}),
                                           ("chinese-checkers", {})])
def test_each_board_game_goes_back_to_the_position_of_the_shorter_log(tmp_path, game, options):
    """Four moves, then the first seat asks on its own turn: both seats see again the views they
    had after the second move, and that seat is to move."""
    with client(tmp_path) as c:
        a, b = signup(c, "ann"), signup(c, "ben")
        tid = post(c, a, "/api/tables", {"game": game, "options": options,
                                         "settings": {"clock": "none"}}).json()["id"]
        post(c, b, f"/api/tables/{tid}/sit")
        with ws(c, a, tid) as sa, ws(c, b, tid) as sb:
            socks, m = (sa, sb), [next_state(sa), next_state(sb)]
            views = {}
            for seq in range(4):
                s = m[0]["to_act"][0]
                views[seq] = (m[0]["view"], m[1]["view"])
                socks[s].send_json({"type": "move", "action": legal_of(m[s])[0], "seq": seq})
                m = [state_at(sa, seq + 1), state_at(sb, seq + 1)]
            assert m[0]["to_act"] == [0] and m[0]["takeback_allowed"] is True
            sa.send_json({"type": "takeback_offer"})
            until(sb, lambda x: x["type"] == "state" and x.get("takeback") == 0)
            sb.send_json({"type": "takeback_accept"})
            m = [state_at(sa, 5), state_at(sb, 5)]       # seq goes on; the position is ply 2
            assert (m[0]["view"], m[1]["view"]) == views[2] and m[0]["ply"] == 2
            assert m[0]["to_act"] == [0] and m[0]["turn"]


def test_no_takeback_in_a_game_with_hidden_information(tmp_path):
    """Junqi hides the enemy's pieces: an attack tells the rank of the piece attacked, so a move
    taken back would leave that knowledge for free (against a bot granting at once, every
    piece). No state offers a takeback and a request is refused ``takeback_hidden``, at a
    table of two people and against a built-in bot alike; nothing is taken back."""
    with client(tmp_path, bot_delay_ms=0) as c:
        a, b = signup(c, "ann"), signup(c, "ben")
        tid = post(c, a, "/api/tables", {"game": "junqi", "settings": {"clock": "none"}}).json()["id"]
        post(c, b, f"/api/tables/{tid}/sit")
        with ws(c, a, tid) as sa, ws(c, b, tid) as sb:
            socks, m = (sa, sb), [next_state(sa), next_state(sb)]
            for seq in range(4):                  # both layouts, then a move of each side
                s = next(i for i in (0, 1) if i in m[i]["to_act"])
                socks[s].send_json({"type": "move", "action": legal_of(m[s])[0], "seq": seq})
                m = [state_at(sa, seq + 1), state_at(sb, seq + 1)]
                assert "takeback_allowed" not in m[0] and "takeback_allowed" not in m[1]
            for sock in socks:
                sock.send_json({"type": "takeback_offer"})
                assert error_of(sock) == "takeback_hidden"
            sb.send_json({"type": "takeback_accept"})
            assert error_of(sb) == "takeback_hidden"

        tid = post(c, a, "/api/tables", {"game": "junqi", "bots": 1, "bot": "random",
                                         "settings": {"clock": "none"}}).json()["id"]
        with ws(c, a, tid) as s:
            m = next_state(s)
            while not (m["view"]["phase"] == "play" and m["to_act"] == [0] and m["ply"] > 2):
                if m["to_act"] == [0]:
                    s.send_json({"type": "move", "action": legal_of(m)[0], "seq": m["seq"]})
                m = until(s, lambda x, q=m["seq"]: x["type"] == "state" and x["seq"] > q)
                assert "takeback_allowed" not in m
            s.send_json({"type": "takeback_offer"})
            assert error_of(s) == "takeback_hidden"
            s.send_json({"type": "move", "action": legal_of(m)[0], "seq": m["seq"]})
            after = state_at(s, m["seq"] + 1)     # the next state follows the move: nothing taken back
            assert after["ply"] == m["ply"] + 1 and not any(
                e["type"] == "takeback" for e in after.get("events", []))


def test_takeback_refused_at_an_event_table_with_its_own_reason(tmp_path):
    """Event play has no takebacks: the request is refused ``takeback_event`` (not the lobby's
    ``takeback_not_allowed``, which speaks of rated and card tables), and no state offers it."""
    with client(tmp_path, nonce_window_ms=0) as c:
        boss, alice, bob = signup(c, "boss"), signup(c, "alice"), signup(c, "bob")
        assert post(c, boss, "/api/events", {"preset": "s3_xiangqi", "event_id": "xq",
                                              "players": ["alice", "bob"]}).status_code == 201
        tid = post(c, boss, "/api/events/xq/start").json()["tables"][0]
        with ws(c, alice, tid) as a, ws(c, bob, tid) as b:
            sa = until(a, lambda m: m["type"] == "state" and m.get("status") == "playing")
            sb = until(b, lambda m: m["type"] == "state" and m.get("status") == "playing")
            first, second = (a, b) if sa["seat"] in sa["to_act"] else (b, a)
            seq = sa["seq"]
            first.send_json({"type": "move", "action": "h2e2", "seq": seq})
            m = state_at(first, seq + 1)
            assert "takeback_allowed" not in m and "takeback_allowed" not in sb
            first.send_json({"type": "takeback_offer"})
            assert error_of(first) == "takeback_event"
            second.send_json({"type": "takeback_offer"})
            assert error_of(second) == "takeback_event"


def test_no_takeback_while_the_dead_stones_are_marked(tmp_path):
    """Go's dead-stone marking (``end_procedure`` ``agreement``) is no move: no state offers a
    takeback there and a request is refused ``takeback_marking`` (resuming play is the way back)."""
    with client(tmp_path) as c:
        a, b = signup(c, "ann"), signup(c, "ben")
        options = {"board_size": 9, "end_procedure": "agreement"}
        tid = post(c, a, "/api/tables", {"game": "go", "options": options,
                                         "settings": {"clock": "none"}}).json()["id"]
        post(c, b, f"/api/tables/{tid}/sit")
        with ws(c, a, tid) as sa, ws(c, b, tid) as sb:
            next_state(sa), next_state(sb)
            play(sa, sb, 0, "e5")
            m = play(sb, sa, 1, "pass")
            assert m["takeback_allowed"] is True              # in play: offered
            m = play(sa, sb, 2, "pass")                       # two passes: marking
            assert m["view"]["phase"] == "marking" and "takeback_allowed" not in m
            for sock in (sa, sb):
                sock.send_json({"type": "takeback_offer"})
                assert error_of(sock) == "takeback_marking"
