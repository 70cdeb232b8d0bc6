"""Gomoku / renju on the server: tables created with the renju rule options (also through the
``renju`` alias), and live play over WebSockets — the swap hands the turn to the other seat,
Black's forbidden point is in Black's view and refused with the rule's reason, a five ends it."""

from __future__ import annotations

import pytest

import qipai

from .server_helpers import client, next_state, post, receive, signup, ws

RENJU_SWAP = {"ruleset": "renju", "opening": "swap3", "forbidden_handling": "reject"}


@pytest.fixture
def c(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        yield c


def table(c, game: str, options: dict) -> tuple[str, str, str]:
    a, b = signup(c, "alice"), signup(c, "bob")
    r = post(c, a, "/api/tables", {"game": game, "options": options, "settings": {"clock": "none"}})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    post(c, b, f"/api/tables/{tid}/sit")
    return a, b, tid


def test_lobby_offers_the_rule_options_and_tables_take_them(c):
    games = {g["id"]: g for g in c.get("/api/games").json()}
    opts = {o["name"]: o for o in games["gomoku"]["options"]}
    assert opts["opening"]["choices"] == list(qipai.load("gomoku").option_spec[2].choices)
    assert opts["opening_name"]["default"] is None and "D3" in opts["opening_name"]["choices"]
    assert opts["first_move_center"]["default"] is None and opts["first_move_center"]["type"] == "bool"
    a = signup(c, "owner")
    r = post(c, a, "/api/tables", {"game": "gomoku", "options": RENJU_SWAP})
    assert r.status_code == 201 and r.json()["options"] == dict(qipai.load("gomoku", **RENJU_SWAP).options)
    # the alias, with a designated opening
    designated = {"opening": "designated", "opening_name": "D3"}
    r = post(c, a, "/api/tables", {"game": "renju", "options": designated})
    assert r.status_code == 201
    assert r.json()["game"] == "gomoku" and r.json()["options"]["ruleset"] == "renju"
    assert r.json()["options"]["opening_name"] == "D3"
    # options the game refuses are refused by the server with the game's reason
    refused = (({"opening_name": "D3"}, "opening_name"), ({"opening": "designated"}, "opening_name"),
               ({"ruleset": "caro"}, "ruleset"), ({"opening": "swap3", "first_move_center": False}, "h8"))
    for bad, says in refused:
        r = post(c, a, "/api/tables", {"game": "gomoku", "options": bad})
        assert r.status_code == 400 and r.json()["error"] == "bad_options", r.text
        assert says in r.json()["message"], r.text


def test_designated_opening_table_starts_from_its_three_stones(c):
    a, b, tid = table(c, "renju", {"opening": "designated", "opening_name": "D3"})
    with ws(c, a, tid) as sa, ws(c, b, tid) as sb:
        ma, mb = next_state(sa), next_state(sb)
        assert [s["point"] for s in ma["view"]["stones"]] == ["h8", "h9", "j10"]
        assert ma["to_act"] == [1] and mb["seat"] == 1 and "legal" in mb and "h7" in mb["legal"]


def test_swap_forbidden_refusal_and_five_over_websockets(c):
    a, b, tid = table(c, "gomoku", RENJU_SWAP)
    ref = qipai.load("gomoku", **RENJU_SWAP).new_state()
    with ws(c, a, tid) as sa, ws(c, b, tid) as sb:
        socks = {0: sa, 1: sb}
        next_state(sa), next_state(sb)

        def play(seat: int, action: str) -> dict:
            socks[seat].send_json({"type": "move", "seq": len(ref.log), "action": action})
            ref.apply(action, seat=seat)
            m = next_state(socks[seat])
            other = next_state(socks[1 - seat])
            assert m["seq"] == other["seq"] == len(ref.log) and m["view"] == ref.view(seat)
            return m

        play(0, "h8")
        # outside the central 3x3 at move 2: the opening rule's reason, nothing changes
        sb.send_json({"type": "move", "seq": 1, "action": "a1"})
        m = receive(sb)
        assert m["type"] == "error" and m["error"] == "illegal" and "3x3" in m["message"]
        play(1, "g9")
        m = play(0, "i8")
        assert m["to_act"] == [1] and m["view"]["choices"]["swap"] and "legal" not in m
        sb.send_json({"type": "sync"})
        assert "swap" in next_state(sb)["legal"]          # only White's seat may act on it
        m = play(1, "swap")
        assert m["to_act"] == [0] and m["view"]["colours"] == ["white", "black"]
        for seat, point in ((0, "a1"), (1, "j9"), (0, "o1"), (1, "j10"), (0, "a15")):
            m = play(seat, point)
        assert m["to_act"] == [1] and m["view"]["forbidden"] == {"j8": "double_three"}
        sb.send_json({"type": "move", "seq": len(ref.log), "action": "j8"})
        m = receive(sb)
        assert m["type"] == "error" and m["error"] == "illegal" and "forbidden point" in m["message"]
        sb.send_json({"type": "sync"})
        m = next_state(sb)
        assert m["seq"] == len(ref.log) and m["view"]["board"][7][9] == "." and "j8" not in m["legal"]
        for seat, point in ((1, "j11"), (0, "o15"), (1, "j12"), (0, "b1"), (1, "j13")):
            m = play(seat, point)
        assert m["result"]["text"] == "B+" and m["result"]["reason"] == "five"
        assert m["result"]["winners"] == [1] and m["view"]["result"]["details"]["line"][-1] == "j13"
