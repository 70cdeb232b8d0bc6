"""Every registered game at a server table: one person and the server's bots, over the WebSocket.

The person plays offered actions (or, when the offer is too long to list, resigns), a garbage
action is answered with an error and changes nothing, and the finished game is stored as a record
that replays step by step and downloads in every format the game writes, its history row
keeping the result's winners and details. A game added to the
registry is covered here without touching the server.
"""

from __future__ import annotations

import random

import pytest

import qipai
from qipai.core.registry import game_class

from .server_helpers import client, next_state, post, signup, ws

# the games qipai ships (test modules register small games of their own)
GAMES = [info.id for info in qipai.games() if game_class(info.id).__module__.startswith("qipai.")]
PERSON_MOVES = 25            # then the person resigns (a whole game of some card events is long)


@pytest.fixture
def c(tmp_path):
    # a private claim window held 50 ms, not 2 s: a mahjong hand has a window after every discard
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0, private_window_ms=50) as c:
        yield c


def offered(msg: dict) -> list[str]:
    legal = msg.get("legal")
    if legal is None:
        legal = msg["view"].get("legal_moves", msg["view"].get("legal"))
    if isinstance(legal, dict):              # a view's summary of a long set
        legal = legal.get("actions")
    return [a for a in legal or [] if isinstance(a, str)]


@pytest.mark.parametrize("game", GAMES)
def test_game_plays_at_a_table_and_is_stored(c, game):
    seats = qipai.load(game).info().seats[0]
    token = signup(c, "player")
    r = post(c, token, "/api/tables", {"game": game, "bots": seats - 1, "settings": {"clock": "none"}})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    rng = random.Random(game)
    with ws(c, token, tid) as sock:
        msg = next_state(sock)
        moves, answered, garbage_sent = 0, -1, False
        while msg["record"] is None:
            seat = msg["seat"]
            if msg["result"] is None and seat in msg["to_act"] and msg["seq"] > answered:
                if not garbage_sent:          # refused with the reason; the state is the same
                    sock.send_json({"type": "move", "seq": msg["seq"], "turn": msg["turn"],
                                    "action": "no such action !!"})
                    err = next_state(sock)
                    assert err["type"] == "error" and err["error"] == "illegal", err
                    sock.send_json({"type": "sync"})
                    again = next_state(sock)
                    assert again["seq"] == msg["seq"] and again["view"] == msg["view"]
                    garbage_sent = True
                actions = offered(msg)
                if not actions or moves >= PERSON_MOVES:
                    sock.send_json({"type": "resign"})
                else:
                    sock.send_json({"type": "move", "seq": msg["seq"], "turn": msg["turn"],
                                    "action": rng.choice(actions)})
                    moves += 1
                answered = msg["seq"]
            msg = next_state(sock)
            while msg["type"] == "error":     # a move that crossed the game's end on the wire
                assert msg["error"] == "not_playing", msg
                msg = next_state(sock)
        record_id = msg["record"]
        live = msg["result"]
    # the history's row keeps what its words need: who won and the game's own details (the
    # landlord, the levels gained ...), as the table said them
    row = next(r for r in c.get("/api/records?user=player").json() if r["id"] == record_id)
    assert row["winners"] == live["winners"] == row["result"]["winners"]
    assert row["result"].get("details") == live.get("details")
    steps = c.get(f"/api/records/{record_id}/steps")
    assert steps.status_code == 200, steps.text
    actions = c.get(f"/api/records/{record_id}").json()["record"]["actions"]
    assert len(steps.json()["steps"]) == len(actions) + 1
    formats = next(g["formats"] for g in c.get("/api/games").json() if g["id"] == game)
    for fmt in formats:
        r = c.get(f"/api/records/{record_id}/download", params={"format": fmt})
        assert r.status_code in (200, 409), (fmt, r.text)       # 409: a format that cannot hold it


def test_a_long_legal_set_goes_as_its_length(c, monkeypatch):
    from qipai.server import tablemsg

    monkeypatch.setattr(tablemsg, "MAX_LISTED", 200)       # freestyle gomoku's first move offers 225
    token = signup(c, "player")
    r = post(c, token, "/api/tables", {"game": "gomoku", "options": {"ruleset": "freestyle"}, "bots": 1,
                                       "sit": True, "seat": 0, "settings": {"clock": "none"}})
    assert r.status_code == 201, r.text
    with ws(c, token, r.json()["id"]) as sock:
        msg = next_state(sock)
        assert msg["to_act"] == [0] and msg["legal"] is None and msg["legal_count"] == 225
        sock.send_json({"type": "move", "seq": msg["seq"], "turn": msg["turn"], "action": "a1"})
        while msg["seq"] < 2:             # the move is taken as usual, and the bot answers
            msg = next_state(sock)
        assert msg["view"]["board"][14][0] != "."
