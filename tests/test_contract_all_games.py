"""The game contract, checked the same way on every registered game.

Seeded random playouts: every view is JSON-ready and never aliases live state (a view taken
before a move still says the same after it), every offered action applies, garbage text is
refused with the state unchanged, and the JSON round trip rebuilds the same state.
"""

from __future__ import annotations

import json
import random

import pytest

import qipai
from qipai.core.errors import IllegalAction

GAME_IDS = [info.id for info in qipai.games()]
MAX_STEPS = 250


def _snapshot(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True, ensure_ascii=False)


#: texts no game may take: readers must refuse them with IllegalAction (a superscript digit passes
#: str.isdigit but not int(), a NUL, emoji, an absurd number, a negative one)
GARBAGE = ["@@ not an action @@", "²", "bid ²", "²²", "1²", "\x00", "🀄🀄", "9" * 40, "-1", "bid -1"]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_views_actions_and_round_trip(game_id):
    game = qipai.load(game_id)
    rng = random.Random(game_id)
    state = game.new_state(seed=7)
    seats = list(range(state.num_seats)) + [None]
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            break
        views = {s: state.view(s) for s in seats}
        frozen = {s: json.dumps(v, sort_keys=True, ensure_ascii=False) for s, v in views.items()}
        seat = rng.choice(state.to_act)
        before = _snapshot(state)
        for text in GARBAGE:
            with pytest.raises(IllegalAction):
                state.apply(text, seat=seat)
            assert _snapshot(state) == before
        actions = state.legal_actions(seat)
        assert actions, f"{game_id}: seat {seat} must act but has no legal action"
        state.apply(rng.choice(actions), seat=seat)
        for s, v in views.items():
            assert json.dumps(v, sort_keys=True, ensure_ascii=False) == frozen[s], \
                f"{game_id}: the view of seat {s} changed after a later move"
    again = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert _snapshot(again) == _snapshot(state)
    for s in seats:
        assert again.view(s) == state.view(s)
    assert again.returns() == state.returns()
