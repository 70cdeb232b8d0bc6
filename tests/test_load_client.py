"""The load client of the server benchmarks reads the move number of a state in which another
seat is to act from the message's head alone (``benchmarks/load_client.py``, :func:`others_turn`);
on a real server's messages that reading is exactly what decoding the whole message gives."""

from __future__ import annotations

import json

from benchmarks.load_client import others_turn

from .server_helpers import client, post, signup, ws


def expected(msg: dict) -> int | None:
    if msg["type"] != "state" or msg["status"] != "playing" or msg["result"] is not None:
        return None
    return msg["seq"] if msg["to_act"] and msg["seat"] not in msg["to_act"] else None


def test_the_head_of_a_state_gives_what_the_whole_message_gives(tmp_path):
    with client(tmp_path, bot_delay_ms=0) as c:
        alice = signup(c, "alice")
        seen = {"others": 0, "mine": 0}
        for game, bots in (("doudizhu", 2), ("xiangqi", 1)):
            tid = post(c, alice, "/api/tables", {"game": game, "bots": bots, "bot": "random"}).json()["id"]
            with ws(c, alice, tid) as sock:
                for _ in range(40):
                    text = sock.receive_text()
                    msg = json.loads(text)
                    assert others_turn(text) == expected(msg), text[:300]
                    if msg["type"] == "commitment":
                        sock.send_json({"type": "nonce", "nonce": "ab" * 16})
                    if msg["type"] != "state" or msg["result"] is not None:
                        continue
                    seen["others" if others_turn(text) is not None else "mine"] += 1
                    if msg["seat"] in msg["to_act"]:
                        legal = msg.get("legal") or msg["view"].get("legal_moves")
                        sock.send_json({"type": "move", "seq": msg["seq"], "action": legal[-1]})
                    if seen["others"] >= 3 and seen["mine"] >= 3:
                        break
        assert seen["others"] >= 3 and seen["mine"] >= 3, seen
    assert others_turn('{"type":"error","error":"x"}') is None
