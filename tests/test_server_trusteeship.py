"""托管 at a live card table: a player hands its seat to trusteeship (competition.md §4.6) and
the game goes on (at a lobby table by the game's bot, at an event's by the default action); the
player takes the seat back; board games refuse; the request is logged, so a restarted server
knows it."""

from __future__ import annotations

import asyncio

import pytest

import qipai
from qipai.match import Entrust, VirtualTime
from qipai.match.players import Player
from qipai.match.presets import CARD_GAMES, CLOCK_PRESETS
from qipai.match.runner import GameRunner
from qipai.server import journal
from qipai.server.trusteeship import trustee_policy

from .server_helpers import client, post, signup, until, ws

#: card_default with every cap 5 s, not 30-60 s: after the player takes the seat back, the next
#: state comes when its turn's cap runs out (the default action), which the first test waits for
SHORT_CAPS = {**CLOCK_PRESETS["card_default"], "move_cap": "5s", "first_lead_cap": "5s",
              "phase_caps": {phase: "5s" for phase in CLOCK_PRESETS["card_default"]["phase_caps"]}}


def test_a_player_entrusts_its_seat_and_takes_it_back(tmp_path):
    with client(tmp_path, bot_delay_ms=0) as c:
        alice = signup(c, "alice")
        tid = post(c, alice, "/api/tables", {"game": "doudizhu", "bots": 2, "bot": "random",
                                             "settings": {"clock": SHORT_CAPS}}).json()["id"]
        with ws(c, alice, tid) as s:
            first = until(s, lambda m: m["type"] == "state")
            s.send_json({"type": "entrust"})
            on = until(s, lambda m: m["type"] == "event" and m["event"]["type"] == "trusteeship")
            assert on["event"]["on"] is True and on["event"]["why"] == "request" and on["event"]["seat"] == 0
            # the seat plays by itself (the default action after trustee_delay): a state where it
            # is to act in trusteeship is followed by one where it has acted
            mine = until(s, lambda m: m["type"] == "state" and m["to_act"] == [0]
                         and m["clocks"][0].get("trustee"))
            after = until(s, lambda m: m["type"] == "state")
            assert after["seq"] == mine["seq"] + 1 and 0 not in after["to_act"]
            s.send_json({"type": "entrust"})
            err = until(s, lambda m: m["type"] == "error")
            assert err["error"] == "already_in_trusteeship"
            s.send_json({"type": "resume"})
            off = until(s, lambda m: m["type"] == "event" and m["event"]["type"] == "trusteeship")
            assert off["event"]["on"] is False and off["event"]["why"] == "resume"
            # asking again at once is refused with when to ask, and announces nothing: the seat
            # stays in the player's hands (taking it back is never delayed, see above)
            s.send_json({"type": "entrust"})
            err = until(s, lambda m: m["type"] in ("error", "event"))
            assert err["error"] == "trusteeship_cooldown", err
            assert 0 < err["retry_after"] <= 30 and err["params"]["seconds"] >= 1
            s.send_json({"type": "resume"})
            assert until(s, lambda m: m["type"] in ("error", "event"))["error"] == "not_in_trusteeship"
            assert first["seq"] < until(s, lambda m: m["type"] == "state")["seq"]


def test_board_games_refuse_trusteeship_and_the_request_is_logged(tmp_path):
    assert journal.encode(Entrust()) == ("entrust", None, None)
    assert journal.decode("entrust", None, None) == Entrust()
    with client(tmp_path, bot_delay_ms=0) as c:
        alice = signup(c, "alice")
        tid = post(c, alice, "/api/tables", {"game": "xiangqi", "bots": 1,
                                             "settings": {"clock": "none"}}).json()["id"]
        with ws(c, alice, tid) as s:
            until(s, lambda m: m["type"] == "state")
            s.send_json({"type": "entrust"})
            assert until(s, lambda m: m["type"] == "error")["error"] == "trusteeship_unavailable"


def test_a_restart_keeps_the_seat_in_trusteeship(tmp_path):
    with client(tmp_path, bot_delay_ms=60_000) as c:       # the bots think long: the game waits
        alice = signup(c, "alice")
        tid = post(c, alice, "/api/tables", {"game": "doudizhu", "bots": 2, "bot": "random",
                                             "settings": {"clock": "card_default"}}).json()["id"]
        with ws(c, alice, tid) as s:
            first = until(s, lambda m: m["type"] == "state")
            s.send_json({"type": "entrust"})
            until(s, lambda m: m["type"] == "event" and m["event"]["type"] == "trusteeship")
    with client(tmp_path, bot_delay_ms=60_000) as c:
        with ws(c, alice, tid) as s:
            m = until(s, lambda m: m["type"] == "state")
            assert m["clocks"][0].get("trustee") is True, m["clocks"]
            assert m["seq"] >= first["seq"]


#: a short match of each card and tile game (one hand of the tile games)
SHORT = {"mahjong-gb": {"hands_per_match": 1}, "laizi-mahjong": {"hands_per_match": 1},
         "baibian-bajue": {"hands_per_match": 1}}


@pytest.mark.parametrize("game_id", sorted(CARD_GAMES))
def test_a_lobby_seat_in_trusteeship_plays_as_the_games_bot(game_id):
    """托管 at a lobby card or tile table plays the game's built-in bot, not the rules' timeout
    answer (pass, the lowest card, the tile drawn): every action of a game whose seats are all in
    trusteeship is the one the bot chooses at that position, and some differ from the default
    action. An event's table keeps the rules' answer (competition.md §4.6)."""
    game = qipai.load(game_id, **SHORT.get(game_id, {}))
    n = game.seats[0]
    assert trustee_policy(game_id, 7, event_id=3) is None
    policy = trustee_policy(game_id, 7, event_id=None)
    assert policy is not None
    r = GameRunner(game, [Player() for _ in range(n)], clock="card_default", time=VirtualTime(),
                   seed=5, trustee=list(range(n)))
    r.trustee_policy = policy
    out = asyncio.run(r.run())
    assert out.record.result
    state = game.new_state(seed=5)
    differ = 0
    for entry in out.record.actions:
        seat, text = entry if isinstance(entry, list) else (state.to_act[0], entry)
        # the bot chooses from the seat's view, where copies of a face are labelled in order
        # (baohuang: qipai.cards.shown_ids); the log keeps the referee's own ids: both name
        # the same action when applying them leaves the same state
        chosen = state.clone()
        chosen.apply(state._action_text(policy(state, seat)), seat)
        logged = state.clone()
        logged.apply(text, seat)
        assert chosen.to_json() == logged.to_json(), text
        differ += state._action_text(state.default_action(seat)) != text
        state.apply(text, seat)
    assert differ > 0
