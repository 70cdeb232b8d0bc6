"""Bad input to the 三打一 referee: garbage text, out-of-turn and unknown seats, actions of the
wrong phase, a finished hand, bad views and broken records all give a clear error and change
nothing (rules/sandayi.md §2.4 rule 5, §2.5 rule 2, §5 "invalid submissions are rejected")."""

from __future__ import annotations

import json

import pytest

import qipai
from qipai.core.errors import IllegalAction, RecordError
from qipai.core.record import Record, replay

GAME = qipai.load("sandayi")


def _snap(state):
    return json.dumps(state.to_json(), sort_keys=True)


@pytest.mark.parametrize("text, word", [
    ("", "no action"), ("   ", "no action"), ("hello", "not a card"), ("bid", "bid N"),
    ("bid sixty", "bid N"), ("trump", "name one suit"), ("trump Q", "not a suit"), ("XX", "not a card"),
    ("AS AS", "twice"), ("AS0 KS1", "one pack"),
])
def test_garbage_is_refused_with_a_reason(text, word):
    state = GAME.new_state(seed=1)
    before = _snap(state)
    with pytest.raises(IllegalAction) as e:
        state.apply(text)
    assert word in str(e.value)
    assert _snap(state) == before


def test_wrong_phase_actions_are_refused():
    state = GAME.new_state(seed=2, deal={"first_bidder": 0})
    for text, word in (("AS", "bidding is not over"), ("trump S", "bidding is not over"),
                       ("bury 3D 4D 5D 6D 7D 8D", "bidding is not over")):
        before = _snap(state)
        with pytest.raises(IllegalAction, match=word):
            state.apply(text, 0)
        assert _snap(state) == before
    state.apply("bid 80", 0)
    for s in (1, 2, 3):
        state.apply("pass", s)
    with pytest.raises(IllegalAction, match="bury"):
        state.apply("pass", 0)
    state.apply(state.default_action(0), 0)
    with pytest.raises(IllegalAction, match="name trump"):
        state.apply("bid 80", 0)
    state.apply("trump C", 0)
    with pytest.raises(IllegalAction, match="one card"):
        state.apply("pass", 0)


def test_out_of_turn_and_unknown_seats():
    state = GAME.new_state(seed=3, deal={"first_bidder": 1})
    before = _snap(state)
    with pytest.raises(IllegalAction, match="not to act"):
        state.apply("pass", 2)
    for seat in (4, -1, "1"):
        with pytest.raises(IllegalAction, match="no seat"):
            state.apply("pass", seat)
    with pytest.raises(IllegalAction, match="no seat"):
        state.view(7)
    assert _snap(state) == before


def test_finished_hand_refuses_actions():
    state = GAME.new_state(seed=4)
    while not state.is_terminal():
        state.apply(state.default_action(state.turn))
    with pytest.raises(IllegalAction, match="over"):
        state.apply("pass")
    assert state.legal_actions(0) == [] and state.default_action(0) is None


def test_record_with_an_illegal_move_names_the_move():
    state = GAME.new_state(seed=5)
    for _ in range(10):
        state.apply(state.default_action(state.turn))
    data = state.to_json()
    data["actions"][8] = "BJ" if data["actions"][8] != "BJ" else "LJ"
    with pytest.raises(RecordError) as e:
        replay(Record.from_json(data), source="hand.json")
    assert e.value.move == 9 and "hand.json" in str(e.value)


def test_record_with_a_wrong_result_is_refused():
    state = GAME.new_state(seed=6)
    while not state.is_terminal():
        state.apply(state.default_action(state.turn))
    data = state.to_json()
    data["result"]["text"] = "+1 -1 +1 -1"
    with pytest.raises(RecordError, match="recorded result"):
        replay(Record.from_json(data))


def test_external_endings_resign_and_recorded_scores():
    state = GAME.new_state(seed=7, deal={"first_bidder": 0})
    state.apply("bid 70", 0)
    for s in (1, 2, 3):
        state.apply("pass", s)
    defender = state.clone()
    state.resign(0)                                     # the dealer resigns: set at b = 3
    assert state.returns() == [-9, 3, 3, 3] and state.result.winners == (1, 2, 3)
    defender.forfeit(2, "timeout")                      # a defender: made for the dealer
    assert defender.returns() == [9, -3, -3, -3] and defender.result.reason == "timeout"
    again = replay(Record.from_json(json.loads(json.dumps(defender.to_json()))))
    assert again.returns() == defender.returns()
    early = GAME.new_state(seed=8)
    with pytest.raises(IllegalAction, match="sum to zero"):
        early.end_by_result_text("+1 +1 -1 0", "arbiter")
    with pytest.raises(IllegalAction, match="signed integers"):
        early.end_by_result_text("a b c d", "arbiter")
    early.end_by_result_text("+6 -2 -2 -2", "arbiter")
    assert early.returns() == [6, -2, -2, -2]
