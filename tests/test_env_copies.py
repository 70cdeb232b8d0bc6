"""Every research env pickles and deep-copies: a copy taken mid-game plays on exactly as the
original (observations, masks, rewards, terminations) for the same further actions, and
stepping the copy leaves the original alone (vectorised runners pickle envs to workers,
search code deep-copies them)."""

from __future__ import annotations

import copy
import pickle
import random
import warnings

import numpy as np
import pytest

import qipai.env as E
from qipai.env.registry import ENCODERS
from tests.env_helpers import GAMES

COPIES = {"pickle": lambda env: pickle.loads(pickle.dumps(env)), "deepcopy": copy.deepcopy}


def test_every_registered_game_is_covered():
    assert {g for g, _ in GAMES} == set(ENCODERS)


def _same_obs(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for key in a:
        assert np.array_equal(a[key], b[key]), key


def _frozen(obs: dict) -> dict:
    return {k: np.array(v, copy=True) for k, v in obs.items()}


def _make(door, game_id: str, options: dict):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # PettingZoo's advice for dict observations
        return door(game_id, **options)


def every_game_and_copy(test):
    test = pytest.mark.parametrize("how", COPIES)(test)
    return pytest.mark.parametrize("game_id,options", GAMES, ids=[g for g, _ in GAMES])(test)


def _legal(obs: dict, rng: random.Random) -> int:
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


@every_game_and_copy
def test_pettingzoo_env_copy_plays_on_as_the_original(game_id, options, how):
    env = _make(E.pettingzoo, game_id, options)
    env.reset(seed=7)
    rng = random.Random(7)
    for _ in range(6):
        if env.state.is_terminal():
            break
        env.step(_legal(env.observe(env.agent_selection), rng))
    twin = COPIES[how](env)
    for _ in range(200):
        agent = env.agent_selection
        assert twin.agent_selection == agent
        obs, reward, term, trunc, _ = env.last()
        seen, twin_reward, twin_term, twin_trunc, _ = twin.last()
        _same_obs(obs, seen)
        assert (reward, term, trunc) == (twin_reward, twin_term, twin_trunc)
        assert env.rewards == twin.rewards and env.terminations == twin.terminations
        assert env.truncations == twin.truncations
        if term or trunc:
            break
        before = _frozen(obs)
        action = _legal(obs, rng)
        twin.step(action)                    # the copy moves first: the original must not see it
        _same_obs(env.observe(agent), before)
        env.step(action)


@every_game_and_copy
def test_gymnasium_env_copy_plays_on_as_the_original(game_id, options, how):
    env = _make(E.gymnasium, game_id, options)
    obs, _ = env.reset(seed=7)
    rng = random.Random(7)
    for _ in range(3):
        obs, _, term, trunc, _ = env.step(_legal(obs, rng))
        if term or trunc:
            obs, _ = env.reset(seed=8)
    twin = COPIES[how](env)
    _same_obs(twin.aec.observe(twin.agent), obs)
    for _ in range(200):
        before = _frozen(obs)
        action = _legal(obs, rng)
        seen, twin_reward, twin_term, twin_trunc, _ = twin.step(action)
        _same_obs(env.aec.observe(env.agent), before)
        obs, reward, term, trunc, _ = env.step(action)
        _same_obs(obs, seen)
        assert (reward, term, trunc) == (twin_reward, twin_term, twin_trunc)
        if term or trunc:
            break
