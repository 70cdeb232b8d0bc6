"""Junqi properties (Hypothesis): random playouts under every option set never crash and end,
every legal action applies, illegal moves are refused with the state unchanged, the JSON round
trip replays to the same state, and hidden identities never show in another seat's view."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import qipai
from qipai.core.errors import IllegalAction

OPTION_SETS = [
    {}, {"variant": "siguo"}, {"variant": "siguo", "visibility": "allies_visible"},
    {"visibility": "open"}, {"deadlock_rule": "draw", "no_capture_moves": 20},
    {"variant": "siguo", "deadlock_rule": "more_attacks", "first_seat": 3},
    {"max_timeouts": 2},
]


def _snap(state) -> str:
    return json.dumps([state.to_json(), [state.view(s) for s in (*range(state.num_seats), None)]],
                      sort_keys=True)


def _hidden_ok(state, viewer) -> bool:
    vis = state.game.options["visibility"]
    for x in state.view(viewer)["pieces"]:
        if x["piece"] == "?" or x["seat"] == viewer or vis == "open":
            continue
        if vis == "allies_visible" and viewer is not None and (x["seat"] - viewer) % 2 == 0:
            continue
        if not (x["piece"] == "F" and state.flag_revealed[x["seat"]]):
            return False
    return True


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=st.sampled_from(OPTION_SETS), seed=st.integers(0, 2**32 - 1))
def test_random_playouts(options, seed):
    rng = random.Random(seed)
    state = qipai.load("junqi", **options).new_state(seed=seed)
    names = state.board.names
    steps = 0
    while not state.is_terminal():
        steps += 1
        assert steps < 5000, "a game always ends (no-progress limit)"
        seat = rng.choice(state.to_act)
        actions = state.legal_actions(seat)
        assert actions
        if steps % 13 == 0:
            # every legal action applies (on a copy)
            for a in actions[:40]:
                state.clone().apply(a, seat)
            # illegal moves are refused, nothing changes
            texts = {str(a) for a in actions}
            before = _snap(state)
            for _ in range(5):
                text = f"{rng.choice(names)}-{rng.choice(names)}"
                if text not in texts:
                    try:
                        state.apply(text, seat)
                    except IllegalAction:
                        pass
                    else:
                        raise AssertionError(f"{text} was accepted but is not listed")
                    assert _snap(state) == before
            for viewer in (*range(state.num_seats), None):
                assert _hidden_ok(state, viewer)
        if rng.random() < 0.01:
            state.skip_turn(seat)
        else:
            state.apply(rng.choice(actions), seat)
    again = state.game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert _snap(again) == _snap(state)
    assert again.returns() == state.returns() and sum(state.returns()) == state.num_seats / 2
