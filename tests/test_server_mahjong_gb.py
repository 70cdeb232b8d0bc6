"""Guobiao mahjong over the server's WebSockets: claim windows where each seat sees only its own
turn (who is still deciding is private, as who could claim is), and no message to a seat or a
spectator ever holding another seat's concealed tiles before the hand is over."""

from __future__ import annotations

import json
import random

import qipai
from qipai.core import Record
from qipai.server.replays import patched
from qipai.tiles.tile import format_tiles

from .server_helpers import client, next_state, post, signup, ws

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


def _play_one_hand(c, token) -> int:
    """Play one hand with three random bots, checking every message; the number of claim windows
    the seat was shown."""
    t = post(c, token, "/api/tables", {"game": "mahjong-gb", "bots": 3, "bot": "random",
                                       "options": {"hands_per_match": 1},
                                       "settings": {"bot_delay_ms": 0, "clock": "none"}}).json()
    windows = mine = 0
    answered = set()
    with ws(c, token, t["id"]) as sock, ws(c, None, t["id"]) as spectator:
        msg = next_state(sock)
        while msg["result"] is None and windows < 12:
            in_window = msg["view"]["phase"] != "turn"
            if in_window:
                windows += 1
                assert msg["to_act"] in ([], [0]) and msg["view"]["to_act"] == msg["to_act"]
            else:
                assert msg["to_act"] == msg["view"]["to_act"] == [msg["view"]["current"]]
            turn = msg.get("turn")
            if 0 in msg["to_act"] and turn not in answered:
                answered.add(turn)
                legal = msg["view"]["legal"]
                if in_window:
                    mine += 1
                    assert len(legal) > 1          # a seat that can only pass is answered for it
                action = ("pass" if "pass" in legal else
                          next(a for a in legal if a.startswith("discard")))
                sock.send_json({"type": "move", "seq": msg["seq"], "turn": turn, "action": action})
            msg = next_state(sock)
            while msg["type"] == "error":
                msg = next_state(sock)
        if msg["result"] is None:
            sock.send_json({"type": "resign"})
        while True:                                # the spectator's stream, up to the end
            m = json.loads(spectator.receive_text())
            if m["type"] != "state":
                continue
            if m["result"] is not None:
                break
            if m["view"]["phase"] != "turn":
                assert m["to_act"] == [] and m["view"]["to_act"] == []
    return windows


def test_claim_windows_show_each_seat_only_its_own_answer(tmp_path):
    # every other seat answers a discard so that nobody learns who could claim (rule file 2.6):
    # at a server table who is still deciding is private too (turns_private), as in 4A4 — a
    # seat sees only its own turn and no other seat's deadline, a spectator nobody; the
    # referee answers for a seat that can only pass, and a window stays open a minimum time.
    # A seat is shown only the windows where it could claim, so a short hand may show none:
    # hands are played until three windows have been seen.
    with client(tmp_path, spectator_delay_ms=0, private_window_ms=200) as c:
        token = signup(c, "east")
        windows = 0
        for _ in range(8):
            windows += _play_one_hand(c, token)
            if windows >= 3:
                break
        assert windows >= 3


def _concealed(state, seat: int) -> str:
    return format_tiles([t for t in range(34) for _ in range(state.hands[seat][t])])


def test_no_message_shows_another_seats_concealed_tiles(tmp_path):
    # one person and three bots (claim windows are private: the person learns only its own
    # turn, and a window closes on the referee's schedule), and a spectator
    with client(tmp_path, spectator_delay_ms=20, bot_delay_ms=0, private_window_ms=50) as c:
        token = signup(c, "east")
        tid = post(c, token, "/api/tables", {"game": "mahjong-gb", "bots": 3, "bot": "random",
                                             "options": {"hands_per_match": 4},
                                             "settings": {"clock": "none"}}).json()["id"]
        watcher = signup(c, "watcher")
        logs: list[list[str]] = [[], [], [], [], []]            # seats 0..3, then the spectator
        rng = random.Random(8)
        with ws(c, token, tid) as sock, ws(c, watcher, tid) as spec:
            msg = next_state(sock, logs[0])
            answered = set()
            while not msg["result"]:
                turn = msg.get("turn")
                if 0 in msg["to_act"] and turn not in answered:
                    answered.add(turn)
                    legal = msg["view"]["legal"]
                    action = "win" if "win" in legal else rng.choice(legal)
                    sock.send_json({"type": "move", "seq": msg["seq"], "action": action, "turn": turn})
                msg = next_state(sock, logs[0])
            final = msg
            while not final.get("record"):
                final = next_state(sock, logs[0])
            spectator = next_state(spec, logs[4])
            while not spectator.get("record"):
                spectator = next_state(spec, logs[4])
        finals = [final]
        rec = Record.from_json(c.get(f"/api/records/{finals[0]['record']}").json()["record"])
        answer = c.get(f"/api/records/{finals[0]['record']}/steps")
        steps = answer.json()["steps"]
    # the replay's steps come gzipped, each seat's view as its few differences from the
    # spectator's (whole views made one hand's replay 4 MB)
    assert answer.headers["content-encoding"] == "gzip"
    assert int(answer.headers["content-length"]) * 10 < len(answer.content)
    assert len(answer.content) < 1.5 * len(json.dumps([st["public"] for st in steps]))
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
    for st, (views, _, _) in zip(steps, states, strict=True):
        assert st["public"] == views[4] and [patched(st["public"], p) for p in st["seen"]] == views[:4]
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
                assert msg["type"] in ("hello", "event", "ignored"), msg   # ignored: a stale answer
                continue
            view = msg["view"]
            if view["phase"] != "turn" and viewer is not None:
                # a window: an answer held until the window's minimum time ends its seat's turn
                # in the message before the referee applies it
                assert view["to_act"] in ([], [viewer])
                view = {**view, "to_act": views[who]["to_act"], "legal": views[who]["legal"]}
            assert view == views[who], f"message {msg['seq']} to {viewer} is not its view"
            for o, info in enumerate(view["seats"]):
                if o == viewer:
                    assert info["hand"] == concealed[o]
                    continue
                assert set(info) <= PUBLIC_SEAT_KEYS, f"seat {o} shown to {viewer}: {set(info)}"
                assert all(m.get("tiles") is None for m in info["melds"] if m["concealed"])
            if viewer is None or (viewer not in msg["to_act"] and view["phase"] == "turn"):
                assert "legal" not in msg and not msg["view"].get("legal")
            checked += 1
    # the person's and the spectator's message of every discard (a window's answers come with
    # it when only bots answer at once)
    discards = sum(1 for a in rec.actions if isinstance(a, str) and a.startswith("discard"))
    assert discards > 20 and checked >= 2 * discards
    # the seat's own hand is in its messages, so the string search above can find hands
    assert any(f'"hand":"{states[0][1][0]}"' in t for t in logs[0])
    assert not any(states[0][1][x] in t for x in range(4) for t in logs[4][:3])
    assert finals[0]["result"]["returns"] == list(state.result.to_json()["returns"])
