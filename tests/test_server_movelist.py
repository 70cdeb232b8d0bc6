"""Move lists of the board games: in every state message (the tail, or all of it on a new
connection and on ``sync``), earlier positions on request (``position``), and in the replay steps."""

from __future__ import annotations

import pytest

from qipai.server import movetext

from .server_helpers import client, next_state, post, signup, ws


@pytest.fixture
def c(tmp_path):
    with client(tmp_path, bot_delay_ms=0) as cl:
        yield cl


def until(sock, seq):
    msg = next_state(sock)
    while msg.get("seq", -1) < seq:
        msg = next_state(sock)
    return msg


def test_xiangqi_moves_come_in_three_notations_and_earlier_positions_on_request(c):
    alice, bob = signup(c, "alice"), signup(c, "bob")
    t = post(c, alice, "/api/tables", {"game": "xiangqi", "settings": {"clock": "none"}}).json()
    post(c, bob, f"/api/tables/{t['id']}/sit")
    plays = ["h2e2", "h9g7", "b0c2", "b9c7", "h0g2", "i9h9"]
    with ws(c, alice, t["id"]) as red, ws(c, bob, t["id"]) as black:
        first = next_state(red)
        assert first["moves"] == {"from": 0, "list": []}
        next_state(black)
        for i, mv in enumerate(plays):
            sock = red if i % 2 == 0 else black
            sock.send_json({"type": "move", "seq": i, "action": mv})
            msg = until(red, i + 1)
            until(black, i + 1)
        moves = msg["moves"]
        # the tail only: the last four entries, from entry 2 on
        assert moves["from"] == len(plays) - 4 and len(moves["list"]) == 4
        red.send_json({"type": "sync"})
        full = next_state(red)["moves"]
        assert full["from"] == 0 and [m["text"] for m in full["list"]] == plays
        assert full["list"][0] == {"seat": 0, "text": "h2e2", "zh": "炮二平五", "wxf": "C2=5"}
        assert full["list"][1] == {"seat": 1, "text": "h9g7", "zh": "马8进7", "wxf": "H8+7"}
        assert full["list"][5]["zh"] == "车9平8" and full["list"][5]["seat"] == 1
        # the position after the first move, as Red saw it
        red.send_json({"type": "position", "ply": 1})
        pos = red.receive_json()
        assert pos["type"] == "position" and pos["ply"] == 1
        assert pos["view"]["last_move"] == "h2e2" and pos["view"]["plies"] == 1
        assert pos["view"]["board"][7] == ".C..C...."
        for bad in (-1, 7, "3", True, None):
            red.send_json({"type": "position", "ply": bad})
            err = red.receive_json()
            assert err["type"] == "error" and err["error"] == "bad_ply", (bad, err)


def test_junqi_layouts_stay_hidden_in_the_move_list_and_its_spectators_wait(c):
    alice = signup(c, "alice")
    t = post(c, alice, "/api/tables", {"game": "junqi", "sit": False, "bots": 2, "bot": "random",
                                       "settings": {"clock": "none", "spectator_delay_ms": 1500,
                                                    "bot_delay_ms": 400}}).json()
    with ws(c, alice, t["id"]) as sock:
        msg = next_state(sock)           # a spectator 1.5 s behind, 0.4 s a move
        assert msg["seat"] is None and msg["seq"] <= 2
        sock.send_json({"type": "position", "ply": 1})
        assert sock.receive_json()["error"] == "bad_ply"      # newer than the delay
        sock.send_json({"type": "position", "ply": 0})
        pos = sock.receive_json()
        while pos["type"] == "state":
            pos = sock.receive_json()
        assert pos["type"] == "position" and pos["view"]["phase"] == "layout"
        while msg["seq"] < 3:
            msg = next_state(sock)
        sock.send_json({"type": "sync"})
        entries = next_state(sock)["moves"]["list"]
        assert [e for e in entries[:2]] == [{"seat": 0, "kind": "layout"}, {"seat": 1, "kind": "layout"}]
        assert "-" in entries[2]["text"]          # the first move is public


def test_games_without_a_move_list_give_positions_to_their_players_only(c):
    """A card table lists its tricks itself (no "moves"); its seated player may look back at
    any earlier position of the hand in play (its own view), a spectator may not while the
    hands are hidden."""
    alice = signup(c, "alice")
    # spectators see the table 1 s late (not the server's 10 s: the watcher below waits for its first state)
    t = post(c, alice, "/api/tables", {"game": "doudizhu", "bots": 2,
                                       "settings": {"clock": "none", "spectator_delay_ms": 1000}}).json()
    with ws(c, alice, t["id"]) as sock:
        msg = next_state(sock)
        while msg.get("type") != "state":
            msg = next_state(sock)
        assert "moves" not in msg
        sock.send_json({"type": "position", "ply": 0})
        reply = sock.receive_json()
        while reply["type"] != "position":
            reply = sock.receive_json()
        assert reply["ply"] == 0 and reply["view"]["hand"] and not reply["view"].get("plays")
        sock.send_json({"type": "position", "ply": 10_000})
        reply = sock.receive_json()
        while reply["type"] != "error":
            reply = sock.receive_json()
        assert reply["error"] == "bad_ply"
    with ws(c, None, t["id"]) as watcher:
        msg = next_state(watcher)
        watcher.send_json({"type": "position", "ply": 0})
        reply = watcher.receive_json()
        while reply["type"] != "error":
            reply = watcher.receive_json()
        assert reply["error"] == "no_moves"


def test_replay_steps_carry_the_move_list(c):
    alice = signup(c, "alice")
    t = post(c, alice, "/api/tables", {"game": "xiangqi", "sit": False, "bots": 2, "bot": "random",
                                       "options": {"no_capture_plies": 20},
                                       "settings": {"clock": "none"}}).json()
    with ws(c, alice, t["id"]) as sock:
        msg = next_state(sock)
        while not msg["result"] or msg["record"] is None:
            msg = next_state(sock)
    data = c.get(f"/api/records/{msg['record']}/steps").json()
    assert "move" not in data["steps"][0]
    moves = [s["move"] for s in data["steps"][1:]]
    assert [m["text"] for m in moves] == [s["action"] for s in data["steps"][1:]]
    assert all(m["zh"] and m["wxf"] for m in moves) and [m["seat"] for m in moves[:2]] == [0, 1]
    assert msg["moves"]["list"][-1] == moves[-1]


def test_a_move_list_follows_the_log_of_every_board_game():
    import qipai

    for gid, opts in [("go", {"board_size": 9}), ("gomoku", {}), ("chinese-checkers", {}), ("junqi", {})]:
        state = qipai.load(gid, **opts).new_state(seed=3)
        ml = movetext.MoveList(state)
        for _ in range(8):
            seat = state.to_act[0]
            state.apply(state.legal_actions(seat)[0], seat=seat)
            ml.sync(state)
        assert len(ml.entries) == len(state.log) == 8, gid
        assert ml.visible(0) == 8 and ml.visible(3600) == 0
        view = movetext.position(state, 8, 0)
        assert view == state.view(0), gid
        with pytest.raises(ValueError):
            movetext.position(state, 9, 0)


def _replayed_entries(state):
    """The move list of ``state`` written from a fresh replay of its log (the reference)."""
    fresh = movetext._fresh(state)
    out = []
    for entry in state.log:
        who, text = movetext._split(entry)
        mover = who if who is not None else fresh.current_player
        out.append(movetext.describe(fresh, mover, text))
        fresh.apply(text, seat=who)
    return out


@pytest.mark.parametrize("gid,opts", [("xiangqi", {}), ("go", {"board_size": 9}), ("gomoku", {}),
                                      ("chinese-checkers", {}), ("junqi", {})])
def test_a_live_move_list_never_replays_the_game(gid, opts):
    """Each entry is written from the live state (xiangqi: just before the move, through
    ``ahead``; the others from the move's text and who was to move): the list keeps no replayed
    copy, and its entries are those a replay of the log writes."""
    import random

    import qipai

    state = qipai.load(gid, **opts).new_state(seed=5)
    rng = random.Random(5)
    ml = movetext.MoveList(state)
    for _ in range(40):
        if state.is_terminal():
            break
        seat = state.to_act[0]
        action = str(rng.choice(state.legal_actions(seat)))
        ml.ahead(state, seat, "xx-not-a-move")       # refused: leaves nothing behind
        ml.ahead(state, seat, action)
        state.apply(action, seat=seat)
        ml.sync(state)
    assert ml._shadow is None, "the live list replayed the game"
    assert ml.entries == _replayed_entries(state)


def test_a_list_made_mid_game_or_skipping_moves_catches_up_by_replay():
    import random

    import qipai

    state = qipai.load("xiangqi").new_state(seed=2)
    rng = random.Random(2)

    def play(n):
        for _ in range(n):
            seat = state.current_player
            state.apply(str(rng.choice(state.legal_actions(seat))), seat=seat)

    play(6)
    ml = movetext.MoveList(state)          # a spectator arrives in the middle of the game
    ml.sync(state)
    play(3)                                # moves made with nobody watching (no ``ahead``)
    ml.sync(state)
    assert ml.entries == _replayed_entries(state)
    assert [e["seat"] for e in ml.entries] == [i % 2 for i in range(9)]


@pytest.mark.parametrize("gid,opts", [("xiangqi", {}), ("go", {"board_size": 9}), ("doudizhu", {})])
def test_cached_positions_are_the_replayed_ones_in_any_order(gid, opts, monkeypatch):
    """A live table's earlier positions (``Positions``) are those a replay from the start gives,
    whatever order they are asked in, while the game goes on; the marks kept stay bounded (the
    step doubles) and a request replays at most a step of actions."""
    import random

    import qipai

    monkeypatch.setattr(movetext.Positions, "STEP", 2)
    monkeypatch.setattr(movetext.Positions, "MARKS", 4)
    monkeypatch.setattr(movetext.Positions, "VIEWS", 3)
    state = qipai.load(gid, **opts).new_state(seed=7)
    rng = random.Random(7)
    cache = movetext.Positions(state)
    for _ in range(5):
        for _ in range(8):
            if state.is_terminal():
                break
            seat = state.to_act[0]
            state.apply(str(rng.choice(state.legal_actions(seat))), seat=seat)
        n = len(state.log)
        for ply in [n, 0, n // 2, n, 1, n - 1, n // 2] + [rng.randint(0, n) for _ in range(4)]:
            for seat in (None, 0):
                assert cache.view(state, ply, seat) == movetext.position(state, ply, seat), (gid, ply)
        assert len(cache._marks) <= 4 and cache.step >= 2 and len(cache._views) <= 3
    with pytest.raises(ValueError):
        cache.view(state, len(state.log) + 1, 0)
