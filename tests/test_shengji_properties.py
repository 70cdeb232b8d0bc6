"""Hypothesis properties of shengji: random playouts end without crashing, every offered action
applies, illegal ones are refused with the state unchanged, JSON round trips, views hide hands."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import qipai
from qipai.core.errors import IllegalAction

PROFILES = ["seed000", "seed001", "seed002", "seed003"]
FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _snap(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def _playout(state, rng: random.Random, check_every: int = 0):
    steps = 0
    while not state.is_terminal():
        seat = state.current_player
        actions = state.legal_actions(seat)
        assert len(actions) > 0
        if check_every and steps % check_every == 0:
            for a in [actions[rng.randrange(len(actions))] for _ in range(3)]:
                probe = state.clone()
                probe.apply(a, seat)              # every offered action applies
        state.apply(actions[rng.randrange(len(actions))], seat)
        steps += 1
        assert steps < 2000
    return steps


def _advanced(seed: int, steps: int):
    """A seed000 hand after up to ``steps`` random legal actions."""
    state = qipai.load("shengji").new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        acts = state.legal_actions()
        state.apply(acts[rng.randrange(len(acts))])
    return state


@FAST
@given(seed=st.integers(0, 10**6), profile=st.sampled_from(PROFILES), two=st.booleans())
def test_random_playouts_end_and_round_trip(seed, profile, two):
    game = qipai.load("shengji", profile=profile, two_always_trump=two)
    state = game.new_state(seed=seed)
    _playout(state, random.Random(seed), check_every=7)
    res = state.result
    assert res.reason == "hand_over" and res.text
    d = res.details
    assert d["attack_total"] == d["trick_points"] + d["kitty_bonus"] + d["penalty"]
    # every card point is somewhere: attackers' tricks, dealer team's tricks or the kitty
    total = sum(t["points"] for t in state.tricks) + d["kitty_points"]
    assert total == 200
    again = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert _snap(again) == _snap(state) and again.result.details == d


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_titanic_playouts_end(seed):
    game = qipai.load("shengji", profile="titanic")
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.current_player
        # the default action keeps three-deck throws small; every 5th step a random legal action
        if rng.random() < 0.2:
            actions = state.legal_actions(seat)
            state.apply(actions[rng.randrange(len(actions))], seat)
        else:
            state.apply(state.default_action(seat), seat)
    assert sum(t["points"] for t in state.tricks) + state.result.details["kitty_points"] == 300


@FAST
@given(seed=st.integers(0, 10**6), cut=st.integers(0, 120), junk=st.integers(0, 10**6))
def test_illegal_actions_are_refused_and_change_nothing(seed, cut, junk):
    state = _advanced(seed, cut)
    if state.is_terminal():
        return
    seat = state.current_player
    legal = {str(a) for a in state.legal_actions(seat)} if len(state.legal_actions(seat)) < 5000 else None
    r = random.Random(junk)
    faces = [f for f, c in state.hands[(seat + 1) % 4].items() for _ in range(c)]
    tries = ["declare " + " ".join(r.sample(faces, min(2, len(faces)))),
             "bury " + " ".join(r.sample(faces, min(3, len(faces)))),
             " ".join(r.sample(faces, min(r.randint(1, 4), len(faces)))), "pass", "fault nope 0"]
    before = _snap(state)
    views = json.dumps([state.view(s) for s in (0, 1, 2, 3, None)], sort_keys=True)
    for t in tries:
        if legal is not None and t in legal:
            continue
        try:
            probe = state.clone()
            probe.apply(t, seat)
        except IllegalAction:
            try:
                state.apply(t, seat)
            except IllegalAction as e:
                assert e.reason
            assert _snap(state) == before
            assert json.dumps([state.view(s) for s in (0, 1, 2, 3, None)], sort_keys=True) == views
    other = (seat + 1) % 4
    try:
        state.apply(state.default_action(seat), other)
        raise AssertionError("an out-of-turn action was accepted")
    except IllegalAction:
        assert _snap(state) == before


@FAST
@given(seed=st.integers(0, 10**6), cut=st.integers(0, 150))
def test_views_never_show_other_hands(seed, cut):
    state = _advanced(seed, cut)
    for seat in (0, 1, 2, 3, None):
        v = state.view(seat)
        text = json.dumps(v)
        assert "hands" not in v and "order" not in text
        if seat is not None:
            assert Counter(v["hand"]) == +state.hands[seat]
        if state.result is None and state.phase == "play" and seat != state.dealer:
            assert v["buried"] is None
    assert state.view(None)["hand"] is None


def test_default_actions_are_legal():
    for seed in range(3):
        state = qipai.load("shengji", profile=PROFILES[seed]).new_state(seed=seed)
        while not state.is_terminal():
            seat = state.current_player
            a = state.default_action(seat)
            acts = state.legal_actions(seat)
            if len(acts) < 3000:
                assert a in list(acts)
            state.apply(a, seat)
