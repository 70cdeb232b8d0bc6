"""Hidden information: every WebSocket message of a whole doudizhu game, to each seat and to a
spectator, holds no card of another seat's hand."""

from __future__ import annotations

import json
import random
import time

from qipai.core import Record, load, replay

from .doudizhu_helpers import CARD, public_cards
from .server_helpers import client, next_state, post, receive, signup, ws


def test_no_message_leaks_another_hand(tmp_path):
    with client(tmp_path, spectator_delay_ms=30, bot_delay_ms=0) as c:
        tokens = [signup(c, n) for n in ("east", "south", "west")]
        watcher = signup(c, "watcher")
        t = post(c, tokens[0], "/api/tables", {"game": "doudizhu", "settings": {"clock": "none"}}).json()
        assert t["settings"]["spectator_delay_ms"] == 30
        for tok in tokens[1:]:
            post(c, tok, f"/api/tables/{t['id']}/sit")
        logs: list[list[str]] = [[], [], [], []]          # seats 0..2, then the spectator
        rng = random.Random(5)
        socks = [ws(c, tok, t["id"]) for tok in tokens] + [ws(c, watcher, t["id"])]
        entered = [s.__enter__() for s in socks]
        try:
            msgs = [next_state(s, logs[i]) for i, s in enumerate(entered[:3])]
            # what anyone may read about the running table (the lobby needs no login)
            lobby = c.get("/api/tables").text + c.get(f"/api/tables/{t['id']}").text
            while not msgs[0]["result"]:
                actor = msgs[0]["to_act"][0]
                legal = msgs[actor]["legal"]
                assert all("legal" not in m for i, m in enumerate(msgs) if i != actor)
                choice = legal[-1] if legal[-1].startswith("bid") else rng.choice(legal)
                entered[actor].send_json({"type": "move", "seq": msgs[actor]["seq"], "action": choice})
                msgs = [next_state(s, logs[i]) for i, s in enumerate(entered[:3])]
            finals = [next_state(s, logs[i]) for i, s in enumerate(entered[:3])]   # with the record id
            spectator = next_state(entered[3], logs[3])
            while not spectator.get("record"):
                spectator = next_state(entered[3], logs[3])
        finally:
            for s in socks:
                s.__exit__(None, None, None)
        rid = finals[0]["record"]
        record = Record.from_json(c.get(f"/api/records/{rid}").json()["record"])
    state = replay(record)
    # the secret seed (committed before the deal) is not readable while the game runs
    assert record.seed and record.seed not in lobby
    assert not any(record.seed in text for log in logs for text in log
                   if json.loads(text).get("result") is None)
    assert state.result.to_json()["returns"] == finals[0]["result"]["returns"]
    deals = record.deal
    # what the spectator's view shows after each number of actions (a message's seq): public
    public = public_cards(record)
    checked = 0
    # the pattern does find cards: each seat's messages show its own hand
    for seat in range(3):
        assert set(deals[-1]["hands"][seat]) <= set(CARD.findall(" ".join(logs[seat])))
    for who, log in enumerate(logs):
        assert log, f"no messages for {who}"
        for text in log:
            msg = json.loads(text)
            view = msg.get("view") or {}
            deal = deals[view.get("redeals", 0)] if view else deals[0]
            allowed = set(deal["kitty"])
            if "seq" in msg and msg["seq"] < len(public):
                allowed |= public[msg["seq"]]
            if who < 3:
                allowed |= set(deal["hands"][who])
            if msg.get("result") or view.get("result"):      # the deal over: every hand's cards left shown
                allowed |= {c for h in deal["hands"] for c in h}
            else:
                assert "remaining" not in view
            leaked = set(CARD.findall(text)) - allowed
            assert not leaked, f"message to {who if who < 3 else 'spectator'} shows {leaked}"
            checked += 1
    assert checked > 3 * len(record.actions)
    # the spectator saw the same game, later, without any hand
    spec_states = [json.loads(x) for x in logs[3] if '"type":"state"' in x]
    assert all(m["view"]["hand"] is None for m in spec_states)
    assert spec_states[-1]["result"] == finals[0]["result"]


def test_spectator_delay_applies_to_hidden_games_only(tmp_path):
    with client(tmp_path, spectator_delay_ms=60_000, bot_delay_ms=0) as c:
        alice = signup(c, "alice")
        card = post(c, alice, "/api/tables", {"game": "doudizhu", "bots": 2,
                                             "settings": {"clock": "none"}}).json()
        board = post(c, alice, "/api/tables", {"game": "xiangqi", "bots": 1,
                                              "settings": {"clock": "none"}}).json()
        with ws(c, None, card["id"]) as s:
            hello = receive(s)
            assert hello["type"] == "hello" and hello["delay_ms"] == 60_000
            s.send_json({"type": "ping"})
            assert receive(s)["type"] == "pong"      # nothing but the pong within the delay
        with ws(c, None, board["id"]) as s:
            assert receive(s)["type"] == "hello"
            assert next_state(s)["view"]["fen"]      # public game: at once


def test_an_event_card_table_never_shows_the_seed_of_its_deal(tmp_path):
    # the summary's settings carried event_rng.deals[].seed while the game was on: anyone
    # (the lobby list, the table's page, a seat's hello) could deal every hand again
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss = signup(c, "boss")
        tokens = [signup(c, n) for n in ("east", "south", "west")]
        body = {"preset": "s0_doudizhu", "event_id": "ddz", "players": ["east", "south", "west"]}
        assert post(c, boss, "/api/events", body).status_code == 201
        tid = post(c, boss, "/api/events/ddz/start").json()["tables"][0]
        table = c.app.state.referees.hub.tables[tid]
        with ws(c, tokens[0], tid) as sock:
            hello = receive(sock)
            state = next_state(sock)
        seed = table.settings["event_rng"]["deals"][0]["seed"]
        assert state["view"]["hand"] == load("doudizhu", **table.options).new_state(
            seed=seed, num_seats=3).view(state["seat"])["hand"]        # the seed deals this hand
        for shown in (hello, c.get(f"/api/tables/{tid}").json(), c.get("/api/tables").json()):
            assert str(seed) not in json.dumps(shown)
        assert hello["table"]["settings"]["event_rng"]["commitment"]   # what checks it later stays


def test_a_finished_table_of_a_round_still_on_is_held_from_its_socket_too(tmp_path):
    # the record of such a game was held from everyone (a duplicate round deals the same cards
    # at its other tables), but a signed-out socket to the finished table stepped through it
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss = signup(c, "boss")
        names = ["pa", "pb", "pc", "pd", "pe", "pf"]
        tokens = {n: signup(c, n) for n in names}
        watcher = signup(c, "watcher")
        body = {"preset": "s2_doudizhu", "event_id": "dup", "players": names,
                "fields": {"match.session.duplicate": True}}
        assert post(c, boss, "/api/events", body).status_code == 201
        first, other = post(c, boss, "/api/events/dup/start").json()["tables"]
        hub = c.app.state.referees.hub
        done = hub.tables[first]
        with ws(c, tokens[done.seats[0]["name"]], first) as sock:
            next_state(sock)
            sock.send_json({"type": "resign"})
            while not next_state(sock).get("result"):
                pass
        while first not in hub.finished:
            time.sleep(0.02)
        assert hub.tables[other].status == "playing"
        for who in (None, watcher):                                # signed out, or not in it
            with ws(c, who, first) as sock:
                m = receive(sock)
                assert m["error"] == "round_in_play" and m["params"] == {"round": 1}
        with ws(c, tokens[done.seats[1]["name"]], first) as sock:   # its own players see it
            assert receive(sock)["type"] == "hello"
        with ws(c, boss, first) as sock:                           # and the referees
            assert receive(sock)["type"] == "hello"
