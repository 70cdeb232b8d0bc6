"""The board games' kept observations (qipai/env/boards.py): a seat's go or xiangqi tensor,
kept between its observations and read from ``state.seen_board`` (no view built), equals the
tensor encoded from scratch from ``view(seat)`` after every step of random playouts, for the
acting seat and for every seat at the end."""

from __future__ import annotations

import numpy as np
import pytest

import qipai
import qipai.env as E
from tests.test_env_pieces_kept import _check_playouts


def _fresh(gid: str, **options):
    enc = E.encoder(gid, **options)
    return lambda state, seat: enc.encode(state.view(seat), seat)


def _check_every_seat_every_step(gid: str, seeds, limit: int, **options) -> None:
    """Both seats observe after every step (the seat not to act too), each against a fresh
    encoding of its whole view."""
    env, want = E.pettingzoo(gid, **options), _fresh(gid, **options)
    rng = np.random.default_rng(7)
    for seed in seeds:
        env.reset(seed=seed)
        steps = 0
        while not env.state.is_terminal() and steps < limit:
            for seat, agent in enumerate(env.possible_agents):
                assert np.array_equal(env.observe(agent)["observation"], want(env.state, seat)), \
                    (seed, steps, seat)
            obs = env.observe(env.agent_selection)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1


@pytest.mark.parametrize("options", [{"board_size": 9}, {"board_size": 5},
                                     {"board_size": 5, "end_procedure": "agreement"},
                                     {"board_size": 9, "handicap": 3}],
                         ids=["9x9", "5x5", "5x5-marking", "handicap"])
def test_go_kept_tensor_equals_the_tensor_of_the_whole_view(options):
    # captures, passes, the marking phase and a handicap's White-first start included
    env = E.pettingzoo("go", **options)
    _check_playouts(env, _fresh("go", **options), range(4), 400)
    _check_every_seat_every_step("go", range(2), 200, **options)


def test_xiangqi_kept_tensor_equals_the_tensor_of_the_whole_view():
    # captures, checks, the game's end; each seat catching up the other's move
    env = E.pettingzoo("xiangqi")
    _check_playouts(env, _fresh("xiangqi"), range(6), 400)
    _check_every_seat_every_step("xiangqi", range(2), 300)


def _check_from_position(gid: str, position: str, seed: int) -> None:
    """Both seats' kept tensors along a random game started from ``position``."""
    enc = E.encoder(gid)
    state = qipai.load(gid).new_state(position=position)
    kept = [enc.follower(s) for s in (0, 1)]
    rng = np.random.default_rng(seed)
    for _ in range(60):
        if state.is_terminal():
            break
        for s in (0, 1):
            assert np.array_equal(kept[s].follow(state, None), enc.encode(state.view(s), s))
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])


def test_xiangqi_kept_tensor_from_a_position():
    # a state made from a FEN (not the start position), Black to move
    _check_from_position("xiangqi",
                         "2bakab2/9/2n4c1/p1p1p3p/6p2/2P6/P3P1P1P/1C2C1N2/9/RNBAKABR1 b - - 0 1", 3)


@pytest.mark.parametrize("gid,options", [("go", {"board_size": 9}), ("xiangqi", {}), ("gomoku", {})])
def test_board_env_step_reads_no_view(gid, options):
    env = E.pettingzoo(gid, **options)
    env.reset(seed=1)
    state, calls = env.state, []
    real = state.view
    state.view = lambda seat=None: calls.append(seat) or real(seat)
    rng = np.random.default_rng(1)
    for _ in range(30):
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert calls == []


@pytest.mark.parametrize("options", [
    {}, {"forbidden_handling": "reject"}, {"forbidden_handling": "claim"},
    {"opening": "swap3"}, {"opening": "two5"}, {"opening": "swap3_two5"},
    {"opening": "designated_two5", "opening_name": "D4"}, {"ruleset": "freestyle"}],
    ids=["renju", "reject", "claim", "swap3", "two5", "swap3_two5", "designated_two5", "freestyle"])
def test_gomoku_kept_tensor_equals_the_tensor_of_the_whole_view(options):
    # forbidden points, swaps (the seat's colour changes), offers and choices, claims, passes
    env = E.pettingzoo("gomoku", **options)
    taken = set()

    def special(env, seat, steps, seed) -> bool:
        # a swap or a claim whenever the mask has one, now and then a pass
        mask = env.observe(env.agent_selection)["action_mask"]
        for slot in (451, 452) + ((450,) if steps % 17 == 5 else ()):
            if mask[slot]:
                env.step(slot)
                taken.add(slot)
                return True
        return False
    _check_playouts(env, _fresh("gomoku", **options), range(4), 300, special)
    if options.get("opening", "").startswith("swap3"):
        assert 451 in taken
    if options.get("forbidden_handling") == "claim":
        assert 452 in taken
    _check_every_seat_every_step("gomoku", range(2), 120, **options)


def test_gomoku_kept_tensor_from_a_position():
    # a starting position's stones are no move's: the kept planes start from the board
    _check_from_position("gomoku", "h8 j8 g9 / i9 h10 / b", 5)


@pytest.mark.parametrize("gid, options", [("go", {"board_size": 9}), ("xiangqi", {}),
                                          ("mahjong-gb", {"hands_per_match": 1}),
                                          ("laizi-mahjong", {"hands_per_match": 1}),
                                          ("doudizhu", {}), ("wakeng", {})])
def test_a_deep_copied_env_observes_and_steps_as_the_original(gid, options):
    """The kept tensors write through a memoryview, which cannot be copied: a deep copy makes
    it again over its own array (and the block views over its own buffer), so the copy's
    observations equal the original's and stay apart from them as both play on."""
    import copy
    env = E.pettingzoo(gid, **options)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(15):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    twin = copy.deepcopy(env)
    for _ in range(30):
        if env.state.is_terminal():
            break
        agent = env.agent_selection
        obs, seen = env.observe(agent), twin.observe(agent)
        assert np.array_equal(obs["observation"], seen["observation"])
        assert np.array_equal(obs["action_mask"], seen["action_mask"])
        seat = env.possible_agents.index(agent)
        assert np.array_equal(seen["observation"], env.encoder.encode(twin.state.view(seat), seat))
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        twin.step(action)
