"""Junqi faults found by black-box testing (rules/junqi.md), kept as regression tests.

1. A written combat result (``a4-a9:win``) must not let a player learn a hidden defender's
   identity: a refusal that depends on the hidden piece (or names the real outcome) is a free
   probe, since refused actions change nothing and cost nothing.
2. A test position that describes a game already decided (a ``luzhan`` seat out, a whole
   ``siguo`` team out, a seat at its timeout limit, the no-progress counter at its limit) must be
   refused instead of starting a game that never ends by the rules.
"""

from __future__ import annotations

import json

import pytest

import qipai
from qipai.core import Record, replay
from qipai.core.errors import IllegalAction, NotationError
from tests.junqi_helpers import position

LINE_UP = "S:a4=33 S:e2=34 S:b1=F N:a9=38 N:e11=33 N:b12=F"


def _snap(state) -> str:
    return json.dumps([state.to_json(), [state.view(s) for s in (0, 1, None)]], sort_keys=True)


@pytest.mark.parametrize("written", ["win", "lose", "both", "flag"])
def test_written_result_is_no_probe_of_a_hidden_defender(written):
    """§4/§5.4: whatever result a player writes on an attack of a hidden piece, the answer is
    the same (the move is played with the referee's result), so nothing about the defender
    leaks before the player commits."""
    s = position(LINE_UP)
    s.apply(f"a4-a9:{written}")
    assert s.log == ["a4-a9:lose"] and s.history == [[0, "a4-a9:lose"]]
    assert s.own[s.board.point("a9")] == 1 and s.own[s.board.point("a4")] == -1


def test_written_result_is_checked_when_the_defender_is_known():
    """Where the mover can see the defender (``open``) the written result is checked: a wrong
    one is refused, state unchanged; a right one is played."""
    s = position(LINE_UP, visibility="open")
    before = _snap(s)
    with pytest.raises(IllegalAction, match="not the combat's"):
        s.apply("a4-a9:win")
    assert _snap(s) == before
    s.apply("a4-a9:lose")
    assert s.log == ["a4-a9:lose"]


def test_written_result_on_a_revealed_flag_is_checked():
    """§5.4 flag reveal: a revealed flag is public, so ``:win`` on it is refused."""
    s = position("S:b11=33 S:b1=F N:b12=F N:e11=33 revealed=N")
    with pytest.raises(IllegalAction, match="not the combat's"):
        s.apply("b11-b12:win")
    s.apply("b11-b12:flag")
    assert s.result.reason == "flag" and s.result.winners == (0,)


def test_written_result_on_an_empty_point_is_still_refused():
    """An outcome on a move that attacks nothing is refused: that the point is empty is public."""
    s = position(LINE_UP)
    before = _snap(s)
    with pytest.raises(IllegalAction, match="no combat"):
        s.apply("a4-a5:win")
    assert _snap(s) == before


def test_record_with_a_wrong_hidden_result_replays_with_the_referees_result():
    """A record is replayed by the rules: the log keeps the referee's result."""
    s = position(LINE_UP)
    s.apply("a4-a9")
    data = s.to_json()
    data["actions"][0] = "a4-a9:win"
    again = replay(Record.from_json(json.loads(json.dumps(data))))
    assert again.log == ["a4-a9:lose"] and _snap(again) == _snap(s)


@pytest.mark.parametrize("variant, text", [
    ("luzhan", "S:a4=33 S:b1=F out=N"),
    ("luzhan", "S:a4=33 S:b1=F N:a9=33 N:b12=F timeouts=5,0"),
    ("luzhan", "S:a4=33 S:b1=F N:a9=33 N:b12=F quiet=70"),
    ("siguo", "E:E31=33 W:W31=33 E:E62=F W:W62=F out=S,N turn=E"),
    ("siguo", "S:S31=33 E:E31=33 N:N31=33 W:W31=33 timeouts=0,0,0,5"),
])
def test_positions_of_a_decided_game_are_refused(variant, text):
    """§6.1/§6.3: a seat out in ``luzhan``, a whole team out, a seat at ``max_timeouts`` or the
    counter at ``no_capture_moves`` is a finished game, not a position to play on."""
    with pytest.raises(NotationError):
        qipai.load("junqi", variant=variant).new_state(position=text)


def test_positions_just_short_of_the_limits_still_load():
    """The same counters one short of their limits are live positions."""
    s = position("S:a4=33 S:b1=F N:a9=33 N:b12=F timeouts=4,4 quiet=69")
    s.apply("a4-a5")
    assert s.result.reason == "more_attacks" or s.result.reason == "no_progress_draw"
    g = qipai.load("junqi", variant="siguo", max_timeouts=2)
    t = g.new_state(position="S:S31=33 E:E31=33 W:W31=33 timeouts=1,1,0,0 out=N")
    assert t.to_act == (0,) and t.eliminated[2] == "position"


@pytest.mark.parametrize("attacks", ["3,1", "2,2"])
def test_agreed_draw_round_trip_keeps_the_result(attacks):
    """§6.3: an agreed draw scored by ``more_attacks`` replays to the very same result,
    details (``decided_by``) included."""
    g = qipai.load("junqi")
    s = g.new_state(position=f"{LINE_UP} attacks={attacks}")
    s.apply("a4-a5")
    s.agree_draw()
    again = g.state_from_json(json.loads(json.dumps(s.to_json())))
    assert again.result.to_json() == s.result.to_json()
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(s.to_json(), sort_keys=True)
