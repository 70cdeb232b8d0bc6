"""Laizi mahjong Hypothesis properties: random playouts under random options end without
crashing and are zero-sum, every offered action applies, illegal and out-of-turn ones are
refused with the state unchanged, views never show another seat's concealed tiles, the JSON
round trip replays to the same state, and every win's payments follow from its points."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import qipai
from qipai.core.errors import IllegalAction
from qipai.games.laizi_mahjong.points import money

OPTIONS = st.fixed_dictionaries({
    "allow_pihu": st.booleans(),
    "concealed_bonus": st.booleans(),
    "laizi_kong_factor": st.sampled_from([2, 4]),
    "discard_payers": st.sampled_from(["all", "discarder"]),
    "extrapolated_pairs_combos": st.booleans(),
    "hands_per_match": st.sampled_from([1, 4]),
})
SLOW = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _snap(state) -> str:
    return json.dumps([state.to_json(), [state.view(s) for s in range(4)], state.view(None)], sort_keys=True)


def _choose(state, seat, rng):
    acts = state.legal_actions(seat)
    wins = [a for a in acts if a.kind == "win"]
    if wins and rng.random() < 0.9:
        return wins[0]
    claims = [a for a in acts if a.kind in ("pung", "kong", "chow", "peel", "laizi", "add")]
    if claims and rng.random() < 0.5:
        return rng.choice(claims)
    return rng.choice(acts)


def _check_payments(state):
    o = state.game.options
    for r in state.hand_results:
        assert sum(r["payments"]) == 0
        if not r["winners"]:
            assert r["payments"] == [0, 0, 0, 0]
            continue
        w, p = r["winners"][0], r["score"]["points"]
        f, c = o["money_floor"], o["money_cap"]
        for s in range(4):
            if s == w:
                continue
            if r["from"] is None:
                want = money(p, f, c)
            elif s == r["from"]:
                want = money(2 * p, f, c)
            else:
                want = money(p, f, c) if o["discard_payers"] == "all" else 0
            assert r["payments"][s] == -want
        factor = 1
        for d in r["score"]["doublings"]:
            factor *= d["factor"]
        assert p == r["score"]["base"] * factor


@SLOW
@given(options=OPTIONS, seed=st.integers(0, 10 ** 6))
def test_random_playouts_are_zero_sum_and_refuse_illegal_actions(options, seed):
    state = qipai.load("laizi-mahjong", **options).new_state(seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        seat = rng.choice(state.to_act)
        legal = state.legal_actions(seat)
        assert legal
        if steps % 7 == 0:
            before = _snap(state)
            others = [s for s in range(4) if s not in state.to_act]
            for text in ("discard 1m", "win", "peel E", "laizi 1p", "chow 789p", "kong", "pass", "xx"):
                if text not in [str(a) for a in legal]:
                    try:
                        state.apply(text, seat=seat)
                    except IllegalAction:
                        pass
                    else:
                        raise AssertionError(f"{text} was not offered but applied")
            if others:
                try:
                    state.apply(legal[0], seat=others[0])
                except IllegalAction:
                    pass
                else:
                    raise AssertionError("an out-of-turn action applied")
            assert _snap(state) == before
        state.apply(_choose(state, seat, rng), seat=seat)
        steps += 1
    assert sum(state.returns()) == 0
    assert state.returns() == [float(x) for x in state.scores]
    _check_payments(state)


@SLOW
@given(seed=st.integers(0, 10 ** 6), cut=st.integers(0, 200))
def test_views_hide_hands_and_json_round_trips(seed, cut):
    state = qipai.load("laizi-mahjong", hands_per_match=1).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(cut):
        if state.is_terminal():
            break
        seat = rng.choice(state.to_act)
        state.apply(_choose(state, seat, rng), seat=seat)
    for seat in [None, 0, 1, 2, 3]:
        v = state.view(seat)
        text = json.dumps(v)
        for other in range(4):
            if other != seat:
                assert "hand" not in v["seats"][other] and "drawn" not in v["seats"][other]
                assert all("tiles" not in m for m in v["seats"][other]["melds"] if m.get("concealed"))
        assert "wall\": [" not in text
    again = state.game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert _snap(again) == _snap(state)
