"""百变八雀 (proposal) properties (hypothesis): random playouts under every option set end, every
listed action applies, an unlisted one is refused with the state unchanged, every hand and the
match are zero-sum, the JSON round trip replays to the same state, and no view shows another
seat's concealed tiles while the hand runs."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import qipai
from qipai.core.errors import IllegalAction
from qipai.tiles.action import Action

OPTION_SETS = st.fixed_dictionaries({
    "tiles": st.sampled_from([136, 108]),
    "bomb_bonus": st.sampled_from([0, 10, 25]),
    "hands_per_match": st.sampled_from([1, 4]),
})
CANDIDATES = ["pass", "win", "pung", "bomb", "discard 5p", "discard E", "bomb 5p", "chow 345p", "chow 789s"]


def snap(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**9), options=OPTION_SETS)
def test_random_playouts_end_zero_sum_and_round_trip(seed, options):
    game = qipai.load("baibian-bajue", **options)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(3000):
        if state.is_terminal():
            break
        seat = rng.choice(state.to_act)
        legal = state.legal_actions(seat)
        texts = {str(a) for a in legal}
        bad = [c for c in CANDIDATES if c not in texts]
        before = snap(state)
        try:
            state.apply(rng.choice(bad), seat=seat)
        except IllegalAction:
            pass
        else:
            raise AssertionError("an unlisted action was applied")
        assert snap(state) == before
        for other in range(4):
            if other != seat:
                v = state.view(other)
                assert "hand" not in v["seats"][seat]
        # prefer claims and wins now and then, so that sets, bombs and wins happen
        strong = [a for a in legal if a.kind in ("win", "bomb", "pung", "chow")]
        state.apply(rng.choice(strong) if strong and rng.random() < 0.6 else rng.choice(legal), seat=seat)
    assert state.is_terminal()
    assert sum(state.result.returns) == 0
    assert all(sum(r["payments"]) == 0 for r in state.hand_results)
    again = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again.result.returns == state.result.returns and snap(again) == snap(state)


def test_an_action_object_of_another_kind_is_refused():
    state = qipai.load("baibian-bajue").new_state(seed=1)
    before = snap(state)
    for bad in (Action("kong", 3), Action("discard", 99), "discard", object()):
        try:
            state.apply(bad, seat=state.current)
        except IllegalAction:
            pass
        else:
            raise AssertionError(bad)
    assert snap(state) == before
