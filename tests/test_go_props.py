"""Hypothesis properties of the go referee: random games never crash and stay consistent."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import qipai
from qipai.core.errors import IllegalAction
from qipai.core.record import Record, replay
from qipai.games.go import to_gtp
from qipai.games.go.rules import KO_RULES

OPTIONS = st.fixed_dictionaries({
    "board_size": st.sampled_from([5, 7, 9]),
    "ko_rule": st.sampled_from(list(KO_RULES)),
    "end_procedure": st.sampled_from(["agreement", "all_alive"]),
    "scoring": st.sampled_from(["seed002_komi4", "seed001_no_komi", "cn2017_komi_3_75"]),
    "max_moves": st.integers(20, 200),
})


@settings(max_examples=40, deadline=None)
@given(OPTIONS, st.integers(0, 2**32))
def test_random_games(options, seed):
    rng = random.Random(seed)
    game = qipai.load("go", **options)
    state = game.new_state()
    size = options["board_size"]
    steps = 0
    while not state.is_terminal() and steps < 2000:
        steps += 1
        seat = rng.choice(state.to_act)
        legal = state.legal_actions(seat)
        texts = {str(a) for a in legal}
        # an illegal play is refused and changes nothing
        probe = rng.randrange(size * size)
        text = to_gtp(probe, size)
        if state.phase == "play" and text not in texts:
            before = (state.to_json(), state.rows(), state.board.hash)
            try:
                state.apply(text, seat=seat)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{text} applied but not listed as legal")
            assert (state.to_json(), state.rows(), state.board.hash) == before
        action = rng.choice(legal)
        state.apply(action, seat=seat)
        state.board.check()
    if state.is_terminal():
        res = state.result
        if "black" in res.details:
            assert res.details["black"] + res.details["white"] == size * size
    again = replay(Record.from_json(state.to_json()))
    assert again.rows() == state.rows() and again.log == state.log
    assert (again.result is None) == (state.result is None)
    if state.result is not None:
        assert again.result.text == state.result.text
    assert again.view(0) == state.view(0)
