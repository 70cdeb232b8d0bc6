"""The observation holds nothing its seat may not see: for every hidden-information game, the
observation (tensor, mask and candidate features) a seat gets is the same from two different
deals that agree on that seat's view — two other seats' hidden hands exchanged (junqi: the
opponent's layout changed) — while those other seats' own views do differ."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

import qipai.env as E
from tests.env_helpers import GAMES

HIDDEN = ["doudizhu", "wakeng", "fouafour", "baohuang", "shengji", "sandayi", "mahjong-gb",
          "laizi-mahjong", "baibian-bajue"]


def _twin(state, seat):
    """A copy of ``state`` in which two other seats have exchanged their hands, when that
    leaves ``seat``'s view unchanged and changes theirs; else None."""
    n = state.num_seats
    mine = state.view(seat)
    for a, b in combinations([s for s in range(n) if s != seat], 2):
        twin = state.clone()
        for attr in ("hands", "codes"):
            v = getattr(twin, attr, None)
            if isinstance(v, list) and len(v) == n:
                v[a], v[b] = v[b], v[a]
        if twin.view(seat) == mine and twin.view(a) != state.view(a):
            return twin
    return None


def _same_observation(env, agent, other_state) -> bool:
    first = env.observe(agent)
    real, env.state = env.state, other_state
    try:
        second = env.observe(agent)
    finally:
        env.state = real
    return all(np.array_equal(first[k], second[k]) for k in first)


@pytest.mark.parametrize("game_id", HIDDEN)
def test_the_observation_is_the_same_from_deals_that_agree_on_the_view(game_id):
    options = dict(GAMES)[game_id]
    env = E.pettingzoo(game_id, **options)
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    compared = 0
    for step in range(400):
        if env.state.is_terminal():
            break
        if step % 5 == 0 and not env.chooser.paging:     # a page chosen is the seat's own doing
            for seat, agent in enumerate(env.possible_agents):
                twin = _twin(env.state, seat)
                if twin is not None:
                    assert _same_observation(env, agent, twin), (game_id, step, seat)
                    compared += 1
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert compared >= 3, f"{game_id}: only {compared} positions compared"


def test_junqi_the_opponents_layout_does_not_show():
    def after_layouts(choice_1):
        env = E.pettingzoo("junqi")
        env.reset(seed=3)
        env.step(0)                              # seat 0: its first layout
        env.step(choice_1)                       # seat 1: a layout of choice_1
        return env
    a, b = after_layouts(0), after_layouts(1)
    assert a.state.view(1) != b.state.view(1)    # the layouts differ
    assert a.state.view(0) == b.state.view(0)
    for k, v in a.observe("player_0").items():
        assert np.array_equal(v, b.observe("player_0")[k])
    assert not np.array_equal(a.observe("player_1")["observation"], b.observe("player_1")["observation"])
