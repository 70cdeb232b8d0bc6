"""挖坑 properties (hypothesis): random playouts end without error under every option set, every
legal action applies, illegal ones are refused with the state unchanged, the JSON round trip
replays to the same state, views never show another seat's cards, and deals are zero-sum."""

from __future__ import annotations

import json
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

import qipai
from qipai.bots import make_bot
from qipai.cards import table_ids
from qipai.core.errors import IllegalAction
from qipai.games.wakeng import ALL_PLAYS

OPTION_SETS = st.fixed_dictionaries({
    "bid_direction": st.sampled_from(["same", "opposite"]),
    "reveal_pit": st.booleans(),
    "must_beat_if_able": st.booleans(),
    "strict_fouls": st.booleans(),
})
CANDIDATES = ["pass", "bid 1", "bid 2", "bid 3", "foul"] + [p.text for p in ALL_PLAYS]
CARD_ID = re.compile(r"\b[2-9TJQKA][SHDC]0\b")


def snap(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), options=OPTION_SETS)
def test_random_playouts_end_and_round_trip(seed, options):
    game = qipai.load("wakeng", **options)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(400):
        if state.is_terminal():
            break
        seat = state.current_player
        legal = state.legal_actions()
        legal_texts = {str(a) for a in legal}
        # an illegal candidate is refused and changes nothing
        bad = rng.choice([c for c in CANDIDATES if c not in legal_texts and not (
            state.phase == "bidding" and c in ("1", "2", "3"))])    # bare "3" bids 3 (§2.1)
        before = snap(state)
        try:
            state.apply(bad)
        except IllegalAction:
            assert snap(state) == before
        else:
            assert bad == "foul" and options["strict_fouls"] and state.is_terminal()
            break
        # views: own cards only
        for s in (0, 1, 2, None):
            shown = set(CARD_ID.findall(json.dumps(state.view(s))))
            allowed = {c.id for c in state.hand(s)} if s is not None else set()
            if state.digger is not None and (options["reveal_pit"] or s == state.digger):
                allowed |= {c.id for c in state.pit}
            # laid face up, shown by the table's labels of their ranks (never the cards taken)
            allowed |= set(table_ids((c for cards in state.play_cards for c in cards), {}))
            assert shown <= allowed
        # every legal action applies to a copy
        for a in legal[:12]:
            state.clone().apply(a)
        state.apply(rng.choice(legal), seat=seat)
    assert state.is_terminal()
    res = state.result
    assert sum(res.returns) == 0
    if res.details["digger"] is not None:
        assert abs(res.returns[res.details["digger"]]) == 2 * res.details["bid"]
    else:            # a foul while bidding: the offender alone against the other two (§3.6)
        assert res.details["offender"] is not None and res.returns[res.details["offender"]] < 0
    again = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert snap(again) == snap(state) and again.result.returns == res.returns
    assert again.view(None) == state.view(None)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_rule_bots_finish_a_deal(seed):
    state = qipai.load("wakeng").new_state(seed=seed)
    bots = [make_bot("wakeng", "rule", seed), make_bot("wakeng", "rule", seed + 1),
            make_bot("wakeng", "random", seed)]
    while not state.is_terminal():
        s = state.current_player
        state.apply(bots[s].choose(state, s), seat=s)
    assert state.result.reason == "out"


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9), steps=st.integers(0, 60))
def test_default_action_is_always_legal(seed, steps):
    state = qipai.load("wakeng", must_beat_if_able=seed % 2 == 0).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        state.apply(rng.choice(state.legal_actions()))
    if not state.is_terminal():
        seat = state.current_player
        assert str(state.default_action(seat)) in {str(a) for a in state.legal_actions(seat)}
