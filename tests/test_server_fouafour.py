"""4A4 on the server: while a 叉/勾 window is open nobody learns who is still deciding (rule file
§3.4) — each seat's messages say only whether that seat itself is to answer, and show no other
seat's deadline; spectators see no one to act."""

from __future__ import annotations

import json
import random

import pytest

from .server_helpers import client, next_state, post, signup, ws


@pytest.fixture
def c(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, private_window_ms=100) as c:
        yield c


def private_in_window(msg: dict, seat: int | None) -> None:
    assert msg["to_act"] in ([], [seat]), msg["to_act"]
    assert msg["view"]["to_act"] == msg["to_act"]
    for s, clock in enumerate(msg["clocks"]):
        if s != seat:
            assert "deadline" not in clock, (s, msg["clocks"])


def test_claim_windows_do_not_show_who_is_deciding(c):
    token = signup(c, "player")
    r = post(c, token, "/api/tables", {"game": "fouafour", "bots": 3, "bot": "random",
                                       "settings": {"bot_delay_ms": 60}})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    rng = random.Random(4)
    windows = 0
    with ws(c, token, tid) as sock, ws(c, None, tid) as spectator:
        msg = next_state(sock)
        answered = -1
        while msg["result"] is None and windows < 6:
            seat = msg["seat"]
            if msg["view"]["window"] is not None:
                windows += 1
                private_in_window(msg, seat)
            else:                              # outside windows every seat to act is shown
                assert msg["view"]["to_act"] == msg["to_act"]
            if seat in msg["to_act"] and msg["seq"] > answered:
                legal = msg["view"].get("legal") or msg.get("legal") or ["pass"]
                sock.send_json({"type": "move", "seq": msg["seq"], "turn": msg["turn"],
                                "action": rng.choice(legal)})
                answered = msg["seq"]
            msg = next_state(sock)
            while msg["type"] == "error":
                assert msg["error"] in ("not_playing", "illegal"), msg
                msg = next_state(sock)
        assert windows >= 1
        sock.send_json({"type": "resign"})
        seen = 0
        while True:                            # the spectator's stream, up to the end
            m = json.loads(spectator.receive_text())
            if m["type"] != "state":
                continue
            if m["view"]["window"] is not None and m["result"] is None:
                private_in_window(m, None)
                seen += 1
            if m["result"] is not None:
                break
        assert seen >= 1
