"""Shared settings of the research-door tests: every game with small, fast options."""

from __future__ import annotations

import random

import numpy as np

# (game id, options for qipai.env.pettingzoo): short games where a game has a length option
GAMES = [
    ("go", {"board_size": 9}),
    ("gomoku", {}),
    ("xiangqi", {}),
    ("chinese-checkers", {}),
    ("junqi", {}),
    ("doudizhu", {}),
    ("wakeng", {}),
    ("fouafour", {}),
    ("baohuang", {}),
    ("shengji", {}),
    ("sandayi", {}),
    ("mahjong-gb", {"hands_per_match": 1}),
    ("laizi-mahjong", {"hands_per_match": 1}),
    ("baibian-bajue", {"hands_per_match": 1}),
]
# more seat counts and variants, each with its own action or observation shape
VARIANTS = [
    ("chinese-checkers", {"num_seats": 6}),
    ("junqi", {"variant": "siguo", "num_seats": 4}),
    ("baohuang", {"ruleset": "sdbh.provisional", "num_seats": 4}),
    ("gomoku", {"opening": "two5"}),
    ("doudizhu", {"bidding": "call_1_4"}),
    ("shengji", {"deal_prompt": "every_card"}),
    ("go", {"board_size": 5, "end_procedure": "agreement"}),
]


def play_masked(env, seed: int, max_steps: int = 20000) -> int:
    """Play ``env`` (a qipai AEC env) to its end with uniformly random masked actions; the
    number of agent steps."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    steps = 0
    for _agent in env.agent_iter(max_steps):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
        steps += 1
    return steps


def case_id(value) -> str:
    return value if isinstance(value, str) else "-".join(f"{k}={v}" for k, v in value.items())


def family_tests(family: set[str]):
    """The PettingZoo API + seeding test and the Gymnasium checker, parametrized over the
    games of ``family`` (one test file per family, so they run on different workers)."""
    import warnings

    import pytest
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test, seed_test

    import qipai.env as E

    @pytest.mark.parametrize("game_id,options", [c for c in GAMES + VARIANTS if c[0] in family], ids=case_id)
    def test_pettingzoo_api_and_seed(game_id, options):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")      # PettingZoo's advice for dict observations
            api_test(E.pettingzoo(game_id, **options), num_cycles=40)
            seed_test(lambda: E.pettingzoo(game_id, **options), num_cycles=20)

    @pytest.mark.parametrize("game_id,options", [c for c in GAMES if c[0] in family], ids=case_id)
    def test_gymnasium_check_env(game_id, options):
        check_env(E.gymnasium(game_id, **options), skip_render_check=True)     # opponents="rule"

    return test_pettingzoo_api_and_seed, test_gymnasium_check_env


def step_at_random(state, rng) -> bool:
    """One random legal action by the seat to act; False (nothing done) once the game is over."""
    if state.is_terminal():
        return False
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    state.apply(legal[int(rng.integers(len(legal)))], seat=seat)
    return True


def views_read(env, seed: int, steps: int) -> list:
    """Reset ``env`` with ``seed`` and take up to ``steps`` random masked steps: the seats
    whose ``view`` or ``view_delta`` was read meanwhile (an env that keeps its tensors from
    the state's seen forms reads none)."""
    env.reset(seed=seed)
    state, calls = env.state, []
    real, real_delta = state.view, state.view_delta
    state.view = lambda seat=None, **kw: calls.append(seat) or real(seat, **kw)
    state.view_delta = lambda seat=None, since=None: calls.append(seat) or real_delta(seat, since)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return calls


def kept_playouts(env, fresh, seeds, every_seat: bool) -> int:
    """Random masked playouts of ``env``; every observation (every seat's after each step when
    ``every_seat``, else the acting seat's), and every seat's at the end, equals ``fresh``'s
    encoding of the seat's whole view. The number of observations compared."""
    rng = np.random.default_rng(len(seeds))
    compared = 0
    for seed in seeds:
        env.reset(seed=seed)
        while True:
            agents = env.possible_agents if every_seat or env.state.is_terminal() else [env.agent_selection]
            for agent in agents:
                seat = env.possible_agents.index(agent)
                want = fresh.encode(env.state.view(seat), seat)
                obs = env.observe(agent)["observation"]
                assert np.array_equal(obs, want), (seed, len(env.state.log), seat)
                compared += 1
            if env.state.is_terminal():
                break
            obs = env.observe(env.agent_selection)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return compared


def copies_keep_tensors(env, fresh, seed: int, before: int, after: int) -> None:
    """``before`` random masked steps of ``env`` from ``seed``, then a deep copy and a pickled
    copy each take up to ``after`` more: every observation of a copy equals ``fresh``'s
    encoding of the seat's whole view (a copy's kept tensors are made again over its own
    buffers and follow the copied state)."""
    import copy
    import pickle

    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(before):
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        for _ in range(after):
            if twin.state.is_terminal():
                break
            agent = twin.agent_selection
            seat = twin.possible_agents.index(agent)
            obs = twin.observe(agent)
            assert np.array_equal(obs["observation"], fresh.encode(twin.state.view(seat), seat))
            twin.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
