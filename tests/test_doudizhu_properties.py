"""Hypothesis properties of doudizhu: random full games (bidding included) never crash and are
zero-sum; every legal action applies; anything else is refused with the state unchanged; JSON
round trips are exact."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import qipai
from qipai.core.errors import IllegalAction
from qipai.games.doudizhu.combos import ORDER

from .card_deal_helpers import advance

CONFIGS = [
    {"preset": "classic"}, {"preset": "seed002"}, {"preset": "openspiel"}, {"preset": "rlcard"},
    {"preset": "classic", "adjacent_trio_wings": True, "four_two_same_pairs": True, "spring": False},
    {"preset": "seed002", "wings_body_rank": True, "bomb_in_wings": True, "rocket_in_wings": True,
     "rocket_doubles": False, "four_two_solo_pair": False},
]
games = st.sampled_from(CONFIGS).map(lambda options: qipai.load("doudizhu", **options))


@settings(max_examples=40, deadline=None)
@given(games, st.integers(0, 10**9))
def test_random_games_never_crash_and_are_zero_sum(game, seed):
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        actions = state.legal_actions()
        assert actions, "a seat to act always has an action"
        texts = [str(a) for a in actions]
        assert len(set(texts)) == len(texts)
        state.apply(rng.choice(actions))
        steps += 1
        assert steps < 500
    assert sum(state.returns()) == 0
    assert state.legal_actions() == [] and state.to_act == ()


@settings(max_examples=25, deadline=None)
@given(games, st.integers(0, 10**9), st.integers(0, 60))
def test_legal_actions_apply_and_everything_else_is_refused(game, seed, depth):
    state, rng = advance(game, seed, depth)
    if state.is_terminal():
        return
    seat = state.current_player
    legal = state.legal_actions()
    legal_texts = {str(a) for a in legal}
    for action in rng.sample(legal, min(25, len(legal))):
        c = state.clone()
        c.apply(action)
        c2 = state.clone()
        c2.apply(str(action))                          # the canonical text means the same action
        assert c.to_json() == c2.to_json()
    before = state.to_json()
    hand = state.hand_ranks(seat)
    for _ in range(40):
        k = rng.randint(1, min(8, len(hand)))
        ranks = "".join(rng.sample(hand, k)) if rng.random() < 0.8 else "".join(
            rng.choice(ORDER.ranks) for _ in range(k))
        try:
            action = game.parse_action(ranks, state)
        except IllegalAction:
            continue
        if str(action) in legal_texts:
            continue
        try:
            state.apply(action)
        except IllegalAction:
            assert state.to_json() == before
        else:
            raise AssertionError(f"{action} was applied but is not among the legal actions")
    for other in range(3):
        if other != seat:
            try:
                state.apply(legal[0], seat=other)
            except IllegalAction:
                assert state.to_json() == before
            else:
                raise AssertionError("a seat acted out of turn")


@settings(max_examples=25, deadline=None)
@given(games, st.integers(0, 10**9), st.integers(0, 80))
def test_json_round_trip(game, seed, depth):
    state, _ = advance(game, seed, depth)
    again = game.state_from_json(state.to_json())
    assert again.to_json() == state.to_json()
    for seat in (0, 1, 2, None):
        assert again.view(seat) == state.view(seat)
    assert [str(a) for a in again.legal_actions()] == [str(a) for a in state.legal_actions()]
