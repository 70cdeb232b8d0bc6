"""Bad input to shengji gets a clear error and loses nothing: garbage text, wrong seat, out of
turn, cards not held, wrong counts, wrong phase, bad deals, positions and records."""

from __future__ import annotations

import json

import pytest

import qipai
from qipai.core.errors import IllegalAction, NotationError, RecordError
from qipai.core.record import Record, replay
from tests.shengji_helpers import position


def _snap(state):
    return json.dumps(state.to_json(), sort_keys=True)


def _at_play(seed=11):
    st = qipai.load("shengji").new_state(seed=seed)
    while st.phase != "play":
        st.apply(st.default_action(st.current_player))
    return st


@pytest.mark.parametrize("text,match", [
    ("", "empty"), ("@@ nope", "cannot read"), ("declare", "needs cards"), ("pass 2H", "no cards"),
    ("ZZ", "cannot read"), ("2H3", "does not exist"), ("fault play 0", "fault is"),
    (42, "not a shengji action"),
])
def test_garbage_text_is_refused_with_reason(text, match):
    st = _at_play()
    before = _snap(st)
    with pytest.raises(IllegalAction, match=match):
        st.apply(text)
    assert _snap(st) == before


def test_wrong_seat_and_out_of_turn():
    st = _at_play()
    before = _snap(st)
    seat = st.current_player
    for bad in (4, -1, "1", 7):
        with pytest.raises(IllegalAction, match="no seat"):
            st.apply(st.default_action(seat), bad)
    with pytest.raises(IllegalAction, match="not to act"):
        st.apply(st.default_action(seat), (seat + 1) % 4)
    with pytest.raises(IllegalAction, match="no seat"):
        st.view(9)
    assert _snap(st) == before


def test_wrong_phase_actions():
    st = qipai.load("shengji").new_state(seed=11)
    assert st.phase in ("deal", "window")
    with pytest.raises(IllegalAction, match="declaration prompt"):
        st.apply("bury 2S")
    while st.phase != "bury":
        st.apply("pass")
    with pytest.raises(IllegalAction, match="buries 8 cards"):
        st.apply("pass")
    with pytest.raises(IllegalAction, match="not in your hand"):
        st.apply("bury " + " ".join(["BJ"] * 3 + ["LJ"] * 3 + ["AS"] * 2))
    st.apply(st.default_action(st.dealer))
    with pytest.raises(IllegalAction, match="name the cards"):
        st.apply("declare 2H")


def test_plays_refused_with_reasons():
    st = position(["9H 9H 5C", "3H 4S 4S", "2C 3C 4C", "2D 3D 4D"], 2, "S")
    with pytest.raises(IllegalAction, match="not in your hand"):
        st.apply("AH")
    with pytest.raises(IllegalAction, match="one effective suit"):
        st.apply("9H 5C")
    st.apply("9H 9H")
    for text, match in (("3H", "exactly 2"), ("3H 4S 4S", "exactly 2"), ("4S 4S", "all your suit H"),
                        ("3H 3H", "not in your hand")):
        before = _snap(st)
        with pytest.raises(IllegalAction, match=match):
            st.apply(text)
        assert _snap(st) == before


def test_bad_deals_and_positions():
    game = qipai.load("shengji")
    with pytest.raises(NotationError, match="order"):
        game.new_state(deal={"cards": []})
    with pytest.raises(NotationError, match="full 108-card pack"):
        game.new_state(deal={"order": ["2S0"] * 108})
    good = game.new_state(seed=1).deal
    with pytest.raises(NotationError, match="does not match the seed"):
        game.new_state(seed=2, deal=good)
    with pytest.raises(NotationError, match="provisional_dealer"):
        game.new_state(deal={**good, "provisional_dealer": 9})
    with pytest.raises(NotationError, match="kitty_flip"):
        game.new_state(deal={**good, "kitty_flip": [0, 0]})
    with pytest.raises(NotationError, match="bad shengji position"):
        game.new_state(position="{not json")
    with pytest.raises(NotationError, match="equal size"):
        game.new_state(position=json.dumps({"hands": [["2S"], [], ["3S"], ["4S"]], "level": 2,
                                            "trump": "S", "dealer": 0}))
    with pytest.raises(NotationError, match="more than 2 copies"):
        game.new_state(position=json.dumps({"hands": [["2S"], ["2S"], ["2S"], ["4S"]], "level": 2,
                                            "trump": "S", "dealer": 0}))
    with pytest.raises(NotationError, match="trump"):
        game.new_state(position=json.dumps({"hands": [["2S"], ["3S"], ["5S"], ["4S"]], "level": 2,
                                            "trump": "X", "dealer": 0}))


def test_bad_record_names_the_move():
    st = _at_play()
    rec = st.to_record().to_json()
    rec["actions"] = rec["actions"][:3] + ["AS AS AS"] + rec["actions"][4:]
    with pytest.raises(RecordError, match="move 4"):
        replay(Record.from_json(rec))


def test_record_round_trip_with_external_ending():
    st = _at_play()
    st.resign(1)
    assert st.result.text == "forfeit by 1+3" and st.result.winners == (0, 2)
    again = qipai.load("shengji").state_from_json(st.to_json())
    assert again.result.text == "forfeit by 1+3" and again.result.reason == "resign"
    with pytest.raises(IllegalAction):
        st.apply("pass")
    fresh = _at_play()
    with pytest.raises(IllegalAction, match="forfeit by"):
        fresh.end_by_result_text("1-0", "timeout")
    with pytest.raises(IllegalAction, match="no drawn ending"):
        fresh.agree_draw()
