"""The mahjong games' observations read from ``state.seen_table`` (qipai/env/tiles.py,
``TileTensor``): no view is built at an env step, and the tensor equals the one encoded from
``view(seat)`` for every seat after every step of random games, over several hands, with
kongs (concealed ones, which another seat sees without their tiles) taken whenever offered."""

from __future__ import annotations

import numpy as np
import pytest

import qipai.env as E


@pytest.mark.parametrize("gid", ["mahjong-gb", "laizi-mahjong", "baibian-bajue"])
def test_mahjong_tensor_from_the_table_equals_the_tensor_of_the_whole_view(gid):
    env = E.pettingzoo(gid, hands_per_match=4)
    enc = E.encoder(gid, hands_per_match=4)
    rng = np.random.default_rng(11)
    hidden_kongs = 0
    for seed in range(1):
        env.reset(seed=seed)
        while not env.state.is_terminal():
            state = env.state
            for seat, agent in enumerate(env.possible_agents):
                assert np.array_equal(env.observe(agent)["observation"],
                                      enc.encode(state.view(seat), seat)), (seed, len(state.log), seat)
            hidden_kongs += sum(m.concealed for ms in state.melds for m in ms)
            obs = env.observe(env.agent_selection)
            legal = env.chooser._legal
            kongs = [i for i, a in enumerate(legal[:64]) if str(a).split()[0] in ("kong", "add", "bomb")]
            env.step(kongs[0] if kongs else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    if gid == "mahjong-gb":
        assert hidden_kongs                  # the concealed-kong path was exercised


@pytest.mark.parametrize("gid", ["mahjong-gb", "laizi-mahjong", "baibian-bajue"])
def test_mahjong_env_step_reads_no_view(gid):
    env = E.pettingzoo(gid, hands_per_match=1)
    env.reset(seed=3)
    state, calls = env.state, []
    real = state.view
    state.view = lambda seat=None, **kw: calls.append(seat) or real(seat, **kw)
    rng = np.random.default_rng(3)
    for _ in range(40):
        if state.is_terminal():
            break
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert calls == []


@pytest.mark.parametrize("gid", ["mahjong-gb", "laizi-mahjong", "baibian-bajue"])
def test_mahjong_tensor_kept_between_a_seats_own_turns_equals_the_tensor_of_the_whole_view(gid):
    """As a researcher's loop observes: each seat at its own turns only, several steps apart
    (the discards, sets, hand and windows of the steps between counted at once), over
    several hands and two matches on the same env (a new state, new hands: encoded whole)."""
    env = E.pettingzoo(gid, hands_per_match=4)
    enc = E.encoder(gid, hands_per_match=4)
    rng = np.random.default_rng(5)
    checked = 0
    for seed in (1, 2):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            seat = env.possible_agents.index(agent)
            assert np.array_equal(obs["observation"], enc.encode(env.state.view(seat), seat)), \
                (seed, len(env.state.log), seat)
            checked += 1
            if term or trunc:
                env.step(None)
                continue
            legal = env.chooser._legal
            kongs = [i for i, a in enumerate(legal[:64]) if str(a).split()[0] in ("kong", "add", "bomb")]
            env.step(kongs[0] if kongs else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert checked > 200
