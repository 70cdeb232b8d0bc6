"""4A4 properties (hypothesis): random playouts (with 叉/勾 windows answered in random seat
order) end without error, every legal action applies, illegal ones are refused with the state
unchanged, the JSON round trip replays to the same state, views never show another seat's
cards, and every outcome is one of the rule file's three cases."""

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
from qipai.games.fouafour import ALL_PLAYS, partner, team_of

CANDIDATES = ["pass", "cha 77", "gou 7", "cha 22", "gou 3"] + [p.text for p in ALL_PLAYS]
CARD_ID = re.compile(r"\b(?:[2-9TJQKA][SHDC]|LJ|BJ)0\b")


def _reads_as_legal(game, state, text, legal) -> bool:
    """True when ``text`` is read as one of the ``legal`` actions (a bare ``7`` is a 勾 in a
    勾 window of 7s)."""
    try:
        return game.parse_action(text, state) in legal
    except IllegalAction:
        return False


def snap(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9), first_out=st.booleans())
def test_random_playouts_end_and_round_trip(seed, first_out):
    game = qipai.load("fouafour", first_out_wins=first_out)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(600):
        if state.is_terminal():
            break
        seat = rng.choice(state.to_act)
        legal = state.legal_actions(seat)
        bad = rng.choice([c for c in CANDIDATES if not _reads_as_legal(game, state, c, legal)])
        before = snap(state)
        try:
            state.apply(bad, seat=seat)
            raise AssertionError(f"{bad!r} was accepted for seat {seat}")
        except IllegalAction:
            assert snap(state) == before
        others = [s for s in range(4) if s not in state.to_act]
        if others:
            try:
                state.apply(legal[0], seat=others[0])
                raise AssertionError("a seat not to act was accepted")
            except IllegalAction:
                assert snap(state) == before
        for s in (0, 1, 2, 3, None):
            shown = set(CARD_ID.findall(json.dumps(state.view(s)))) - {"3H0"}
            # played face up, shown by the table's labels of their ranks (never the cards taken)
            laid = set(table_ids((c for cards in state.play_cards for c in cards), {}))
            assert shown <= ({c.id for c in state.hand(s)} if s is not None else set()) | laid
        for a in legal[:12]:
            state.clone().apply(a, seat=seat)
        state.apply(rng.choice(legal), seat=seat)
    assert state.is_terminal()
    res = state.result
    order = res.details["order"]
    if first_out:
        assert len(order) == 1
        assert res.winners == tuple(s for s in range(4) if team_of(s) == team_of(order[0]))
    elif res.details["outcome"] == "win":
        assert team_of(order[0]) == res.details["team"] and partner(order[0]) in order
    else:
        assert len(order) == 3 and team_of(order[1]) == team_of(order[2]) != team_of(order[0])
    assert sum(res.returns) == 2
    again = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert snap(again) == snap(state) and again.result.returns == res.returns
    assert all(again.view(s) == state.view(s) for s in (0, 1, 2, 3, None))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_rule_bots_finish_a_deal(seed):
    state = qipai.load("fouafour").new_state(seed=seed)
    bots = [make_bot("fouafour", "rule", seed + s) if s % 2 == 0 else make_bot("fouafour", "random", seed + s)
            for s in range(4)]
    while not state.is_terminal():
        for s in state.to_act:
            if s in state.to_act:
                state.apply(bots[s].choose(state, s), seat=s)
    assert state.result.reason == "out"


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9), steps=st.integers(0, 80))
def test_default_action_is_always_legal(seed, steps):
    state = qipai.load("fouafour").new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        seat = rng.choice(state.to_act)
        state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
    if not state.is_terminal():
        for seat in state.to_act:
            assert str(state.default_action(seat)) in {str(a) for a in state.legal_actions(seat)}
