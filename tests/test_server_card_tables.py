"""What the server adds for card and tile tables, through the real app and its WebSocket: the
`hint` of a seat whose legal set is only summarised (shengji's burial and follows), which an
honest board may send as it is; `bots`, which seats a bot plays; a lobby mahjong table plays one
hand unless asked for more."""

from __future__ import annotations

import pytest

from .server_helpers import client, next_state, post, signup, ws


@pytest.fixture
def c(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        yield c


def test_shengji_hints_are_legal_actions_the_referee_takes(c):
    token = signup(c, "dealer")
    r = post(c, token, "/api/tables", {"game": "shengji", "bots": 3, "options": {"dealer": 0},
                                       "settings": {"clock": "none"}})
    assert r.status_code == 201, r.text
    kinds = []
    with ws(c, token, r.json()["id"]) as sock:
        msg = next_state(sock)
        assert msg["bots"] == [False, True, True, True]
        while len(kinds) < 6 and msg["result"] is None:
            mine = 0 in msg["to_act"]
            summary = msg["view"].get("legal")
            if not mine or not isinstance(summary, dict) or summary.get("kind") == "declaration":
                if mine:                       # a declaration prompt: listed, no hint needed
                    sock.send_json({"type": "move", "seq": msg["seq"], "turn": msg["turn"], "action": "pass"})
                msg = next_state(sock)
                continue
            hint = msg["hint"]
            kinds.append(summary["kind"])
            if summary["kind"] == "bury":
                assert hint.startswith("bury ") and len(hint.split()) == 1 + summary["count"]
            elif summary["kind"] == "follow":
                assert len(hint.split()) == summary["count"]
            sock.send_json({"type": "move", "seq": msg["seq"], "turn": msg["turn"], "action": hint})
            after = next_state(sock)
            assert after["type"] == "state", after            # taken, not refused
            assert after["seq"] > msg["seq"]
            assert "hint" not in after or 0 in after["to_act"]  # only for the seat to act
            msg = after
        sock.send_json({"type": "resign"})
    assert kinds[0] == "bury" and len(kinds) >= 3


def test_a_lobby_mahjong_table_plays_one_hand_unless_asked(c):
    games = {g["id"]: g for g in c.get("/api/games").json()}
    assert games["mahjong-gb"]["lobby_options"] == {"hands_per_match": 1}
    assert games["xiangqi"]["lobby_options"] == {}
    token = signup(c, "tiles")
    one = post(c, token, "/api/tables", {"game": "mahjong-gb", "sit": False})
    assert one.status_code == 201 and one.json()["options"]["hands_per_match"] == 1
    more = post(c, token, "/api/tables",
                {"game": "mahjong-gb", "sit": False, "options": {"hands_per_match": 16}})
    assert more.status_code == 201 and more.json()["options"]["hands_per_match"] == 16
