"""``env.legal_slots(agent)``: the legal slots without the mask, and envs made with
``action_mask=False`` (observations without a mask; the loop draws from ``legal_slots``)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import qipai.env as E
from tests.env_helpers import GAMES, VARIANTS, case_id


@pytest.mark.parametrize("game_id,options", GAMES + VARIANTS, ids=case_id)
def test_legal_slots_are_the_set_items_of_the_mask(game_id, options):
    # every agent at every step of a random game: the acting agent's slots are the mask's
    # set items (ascending), every other agent's none; after the end, none
    env = E.pettingzoo(game_id, **options)
    rng = random.Random(11)
    env.reset(seed=11)
    steps = 0
    for agent in env.agent_iter(3000):
        obs, _, term, trunc, _ = env.last()
        for other in env.agents:
            if other != agent:
                assert env.legal_slots(other).size == 0
        slots = env.legal_slots(agent)
        assert slots.dtype == np.intp
        if term or trunc:
            assert slots.size == 0
            env.step(None)
            continue
        want = np.flatnonzero(obs["action_mask"])
        assert want.size and np.array_equal(slots, want), (game_id, steps)
        env.step(int(rng.choice(slots)))
        steps += 1
    assert steps > 0


@pytest.mark.parametrize("game_id,options", GAMES, ids=case_id)
def test_an_env_without_masks_plays_the_same_game(game_id, options):
    # the same seeds and draws through legal_slots give the same game as through the mask;
    # the observations hold no mask, and are in the observation space (which has none)
    def play(env, slots_of):
        rng = random.Random(4)
        env.reset(seed=4)
        seen = []
        for agent in env.agent_iter(3000):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            assert env.observation_space(agent).contains(obs)
            seen.append(obs["observation"])
            env.step(int(rng.choice(slots_of(env, agent, obs))))
        return env.state.to_record(), seen, env.rewards

    masked = play(E.pettingzoo(game_id, **options), lambda env, a, obs: np.flatnonzero(obs["action_mask"]))
    bare_env = E.pettingzoo(game_id, action_mask=False, **options)
    assert "action_mask" not in bare_env.observation_space("player_0").spaces
    bare = play(bare_env, lambda env, a, obs: (
        "action_mask" not in obs and env.legal_slots(a)))
    assert bare[0] == masked[0] and bare[2] == masked[2]
    assert len(bare[1]) == len(masked[1]) and all(map(np.array_equal, bare[1], masked[1]))


def test_a_slot_off_the_legal_slots_is_refused():
    env = E.pettingzoo("doudizhu", action_mask=False)
    env.reset(seed=2)
    agent = env.agent_selection
    legal = set(env.legal_slots(agent).tolist())
    off = next(i for i in range(env.action_space(agent).n) if i not in legal)
    before = env.state.to_record()
    with pytest.raises(Exception) as err:
        env.step(off)
    assert getattr(err.value, "code", None) == "env.masked_action"
    assert env.state.to_record() == before


def test_selfplay_with_action_mask_false_plays_the_same_games():
    # the random policy draws from env.legal_slots: an env without masks plays, and plays the
    # same games as the masked one (it read obs["action_mask"], a KeyError without masks)
    from qipai.env import selfplay

    masked = selfplay.run("gomoku", 2, seed=3, workers=0)
    bare = selfplay.run("gomoku", 2, seed=3, workers=0, action_mask=False)
    assert bare == masked and all(g["steps"] > 0 for g in bare)


def test_the_gymnasium_env_gives_its_legal_slots():
    # a single-agent env made with action_mask=False has no mask to read: legal_slots gives the
    # seat's actions, the mask's set items of the masked env in the same game
    bare = E.gymnasium("doudizhu", seat=0, opponents="rule", action_mask=False)
    masked = E.gymnasium("doudizhu", seat=0, opponents="rule")
    obs_b, _ = bare.reset(seed=5)
    obs_m, _ = masked.reset(seed=5)
    rng = random.Random(5)
    done = False
    steps = 0
    while not done:
        assert "action_mask" not in obs_b and bare.observation_space.contains(obs_b)
        slots = bare.legal_slots()
        assert slots.size and np.array_equal(slots, np.flatnonzero(obs_m["action_mask"]))
        slot = int(rng.choice(slots))
        obs_b, rew_b, done, trunc, _ = bare.step(slot)
        obs_m, rew_m, done_m, _, _ = masked.step(slot)
        assert (rew_b, done) == (rew_m, done_m) and not trunc
        steps += 1
    assert steps and bare.legal_slots().size == 0


@pytest.mark.parametrize("game_id,options", [("go", {"board_size": 9}), ("shengji", {}),
                                             ("doudizhu", {}), ("mahjong-gb", {"hands_per_match": 1})],
                         ids=case_id)
def test_truncated_and_finished_agents_have_no_legal_slots_and_an_empty_mask(game_id, options):
    # a truncated agent may only step None: its mask is the idle one, as its legal_slots are
    # empty (its mask still held the legal actions); and once every agent has stepped after
    # its end, legal_slots answers for every agent (the selected one raised KeyError)
    env = E.pettingzoo(game_id, max_steps=9, **options)
    rng = random.Random(2)
    env.reset(seed=2)
    truncated = 0
    for agent in env.agent_iter(200):
        obs, _, term, trunc, _ = env.last()
        slots = env.legal_slots(agent)
        assert np.array_equal(slots, np.flatnonzero(obs["action_mask"]))
        if term or trunc:
            truncated += trunc
            assert slots.size == 0
            env.step(None)
            continue
        env.step(int(rng.choice(slots)))
    assert truncated == env.num_seats and env.agents == []
    for agent in env.possible_agents:
        assert env.legal_slots(agent).size == 0 and not env.observe(agent)["action_mask"].any()
