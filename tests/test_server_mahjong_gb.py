"""Guobiao mahjong over the server's WebSockets: several seats answering one discard at once
(moves matched by the seat's ``turn``), and no message to a seat or a spectator ever holding
another seat's concealed tiles before the hand is over."""

from __future__ import annotations

import json
import random

import qipai
from qipai.core import Record
from qipai.tiles.tile import format_tiles

from .server_helpers import client, next_state, post, receive, signup, ws

NAMES = ("east", "south", "west", "north")
#: what a seat's entry in the view may hold for a seat other than the viewer
PUBLIC_SEAT_KEYS = {"seat", "wind", "score", "discards", "melds", "flowers", "concealed_count"}


def four_people(c, options):
    tokens = [signup(c, n) for n in NAMES]
    t = post(c, tokens[0], "/api/tables", {"game": "mahjong-gb", "options": options,
                                          "settings": {"clock": "none"}}).json()
    for tok in tokens[1:]:
        post(c, tok, f"/api/tables/{t['id']}/sit")
    return tokens, t["id"]


def test_simultaneous_answers_to_a_discard(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        tokens, tid = four_people(c, {"hands_per_match": 1})
        socks = [ws(c, tok, tid) for tok in tokens]
        s = [x.__enter__() for x in socks]
        try:
            msgs = [next_state(x) for x in s]
            assert msgs[0]["to_act"] == [0] and msgs[0]["turn"] > 0
            assert all("turn" not in m and m["view"]["legal"] == [] for m in msgs[1:])
            discard = next(a for a in msgs[0]["view"]["legal"] if a.startswith("discard"))
            s[0].send_json({"type": "move", "seq": 0, "action": discard, "turn": msgs[0]["turn"]})
            msgs = [next_state(x) for x in s]
            assert msgs[0]["seq"] == 1 and msgs[0]["to_act"] == [1, 2, 3]
            assert msgs[0]["view"]["claim"]["from"] == 0
            turns = {seat: msgs[seat]["turn"] for seat in (1, 2, 3)}
            assert len(set(turns.values())) == 3 and all("pass" in msgs[x]["view"]["legal"] for x in turns)
            # seat 1 answers first; seat 2 answers the same (now older) state by its turn: accepted
            s[1].send_json({"type": "move", "seq": 1, "action": "pass", "turn": turns[1]})
            assert all(next_state(x)["to_act"] == [2, 3] for x in s)
            s[2].send_json({"type": "move", "seq": 1, "action": "pass", "turn": turns[2]})
            after = [next_state(x) for x in s]
            assert after[3]["to_act"] == [3] and after[3]["seq"] == 3 and after[3]["turn"] == turns[3]
            # without a turn the old seq is stale; a repeated turn is a duplicate: both ignored
            s[3].send_json({"type": "move", "seq": 1, "action": "pass"})
            assert receive(s[3]) == {"type": "ignored", "seq": 1, "current": 3,
                                     "reason": "duplicate or stale move"}
            s[2].send_json({"type": "move", "seq": 3, "action": "pass", "turn": turns[2]})
            assert receive(s[2])["type"] == "ignored"
            s[3].send_json({"type": "move", "seq": 3, "action": "pass", "turn": "x"})
            assert receive(s[3])["error"] == "bad_message"
            s[3].send_json({"type": "move", "seq": 1, "action": "pass", "turn": turns[3]})
            final = [next_state(x) for x in s]
            # every seat passed: seat 1 draws and is the only one to act, with a new turn
            assert final[1]["seq"] == 4 and final[1]["to_act"] == [1] and final[1]["turn"] > turns[3]
            assert final[1]["view"]["seats"][1]["drawn"]
        finally:
            for x in socks:
                x.__exit__(None, None, None)


def _concealed(state, seat: int) -> str:
    return format_tiles([t for t in range(34) for _ in range(state.hands[seat][t])])


def test_no_message_shows_another_seats_concealed_tiles(tmp_path):
    with client(tmp_path, spectator_delay_ms=20, bot_delay_ms=0) as c:
        tokens, tid = four_people(c, {"hands_per_match": 4})
        watcher = signup(c, "watcher")
        logs: list[list[str]] = [[], [], [], [], []]            # seats 0..3, then the spectator
        rng = random.Random(8)
        socks = [ws(c, tok, tid) for tok in tokens] + [ws(c, watcher, tid)]
        s = [x.__enter__() for x in socks]
        try:
            msgs = [next_state(x, logs[i]) for i, x in enumerate(s[:4])]
            while not msgs[0]["result"]:
                actor = rng.choice(msgs[0]["to_act"])
                legal = msgs[actor]["view"]["legal"]
                action = "win" if "win" in legal else rng.choice(legal)
                s[actor].send_json({"type": "move", "seq": msgs[actor]["seq"], "action": action,
                                    "turn": msgs[actor]["turn"]})
                msgs = [next_state(x, logs[i]) for i, x in enumerate(s[:4])]
            finals = [next_state(x, logs[i]) for i, x in enumerate(s[:4])]    # with the record id
            spectator = next_state(s[4], logs[4])
            while not spectator.get("record"):
                spectator = next_state(s[4], logs[4])
        finally:
            for x in socks:
                x.__exit__(None, None, None)
        rec = Record.from_json(c.get(f"/api/records/{finals[0]['record']}").json()["record"])
        steps = c.get(f"/api/records/{finals[0]['record']}/steps").json()["steps"]
    # each replay step is the view of its own moment (finished hands so far, not the last ones)
    assert [len(st["public"]["results"]) for st in (steps[0], steps[-2], steps[-1])] == [0, 3, 4]

    # the referee's own states after every action, to compare each message with
    game = qipai.load(rec.game, **rec.options)
    state = game.new_state(seed=rec.seed, num_seats=4)
    def snapshot():     # copied through JSON: views share lists the state goes on changing
        return (json.loads(json.dumps([state.view(x) for x in (0, 1, 2, 3, None)])),
                [_concealed(state, o) for o in range(4)], state.hand_no)
    states = [snapshot()]
    for entry in rec.actions:       # [seat, action] while several seats act, else the action
        seat, text = (entry[0], entry[1]) if isinstance(entry, list) else (None, entry)
        state.apply(text, seat=seat)
        states.append(snapshot())
    assert len(state.hand_results) == 4
    checked = 0
    for who, log in enumerate(logs):
        viewer = who if who < 4 else None
        seq = 0
        for text in log:
            msg = json.loads(text)
            seq = msg.get("seq", seq)
            views, concealed, hand_no = states[seq]
            for o in range(4):      # a seat's concealed tiles, as the view would write them
                if o != viewer and hand_no < 4 and len(concealed[o]) >= 10:   # 5 tiles or more
                    assert concealed[o] not in text, f"{o}'s hand in a message to {viewer}"
            if msg["type"] != "state":
                assert msg["type"] in ("hello", "event"), msg
                continue
            view = msg["view"]
            assert view == views[who], f"message {msg['seq']} to {viewer} is not its view"
            for o, info in enumerate(view["seats"]):
                if o == viewer:
                    assert info["hand"] == concealed[o]
                    continue
                assert set(info) <= PUBLIC_SEAT_KEYS, f"seat {o} shown to {viewer}: {set(info)}"
                assert all(m.get("tiles") is None for m in info["melds"] if m["concealed"])
            if viewer is None or viewer not in msg["to_act"]:
                assert "legal" not in msg and not view.get("legal")
            checked += 1
    assert checked >= 5 * len(rec.actions)
    # the seats' own hands are in their messages, so the string search above can find hands
    assert all(any(f'"hand":"{states[0][1][x]}"' in t for t in logs[x]) for x in range(4))
    assert not any(states[0][1][x] in t for x in range(4) for t in logs[4][:3])
    assert finals[0]["result"]["returns"] == list(state.result.to_json()["returns"])
