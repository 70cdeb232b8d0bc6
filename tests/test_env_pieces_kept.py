"""The piece games' kept observations (qipai/env/pieces.py): a seat's tensor updated from the
holes the game names as changed since the seat's last observation equals the tensor encoded
from scratch from ``view(seat)``, over random playouts, and the env no longer reads a whole
view at every step."""

from __future__ import annotations

import numpy as np
import pytest

import qipai.env as E


def _check_playouts(env, want, seeds, limit, act=None) -> None:
    """Random playouts in which each seat observes only at its own turns (catching up the
    others' moves at once): every observation, and every seat's at the end, equals
    ``want(state, seat)``. ``act(env, seat, steps, seed)`` may act instead of the draw (True)."""
    rng = np.random.default_rng(len(seeds))
    for seed in seeds:
        env.reset(seed=seed)
        steps = 0
        while not env.state.is_terminal() and steps < limit:
            agent = env.agent_selection
            seat = env.possible_agents.index(agent)
            obs = env.observe(agent)
            assert np.array_equal(obs["observation"], want(env.state, seat)), (seed, steps)
            if act is None or not act(env, seat, steps, seed):
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        for seat, agent in enumerate(env.possible_agents):
            assert np.array_equal(env.observe(agent)["observation"], want(env.state, seat))


@pytest.mark.parametrize("seats", [2, 3, 6])
def test_chinese_checkers_kept_tensor_equals_the_tensor_of_the_whole_view(seats):
    # with 3+ players seats resign or forfeit on the way (their marbles leave the board)
    env = E.pettingzoo("chinese-checkers", num_seats=seats)
    fresh = E.encoder("chinese-checkers", num_seats=seats)

    def leave(env, seat, steps, seed) -> bool:
        if seats > 2 and steps in (40 + seed, 90):
            env.state.forfeit(seat, "resign" if steps < 90 else "timeout")
            env._after_step()
            return True
        return False
    _check_playouts(env, lambda state, seat: fresh.encode(state.view(seat), seat), range(3), 400, leave)


def test_chinese_checkers_env_step_reads_no_whole_view():
    # the tensor follows the game's changed holes: after a seat's first observation of a game,
    # observing builds no view (a new game starts from one)
    env = E.pettingzoo("chinese-checkers", num_seats=3)
    env.reset(seed=1)
    for agent in env.possible_agents:
        env.observe(agent)
    state, calls = env.state, []
    real = state.view
    state.view = lambda seat: calls.append(seat) or real(seat)
    rng = np.random.default_rng(1)
    for _ in range(30):
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert calls == []
    env.reset(seed=2)
    assert np.array_equal(env.observe("player_0")["observation"],
                          E.encoder("chinese-checkers", num_seats=3).encode(env.state.view(0), 0))


@pytest.mark.parametrize("options", [{}, {"variant": "siguo"},
                                     {"variant": "siguo", "visibility": "allies_visible"},
                                     {"visibility": "open"}, {"no_capture_moves": 12}],
                         ids=["luzhan", "siguo", "siguo-allies", "open", "short"])
def test_junqi_kept_tensor_equals_the_tensor_of_the_whole_view(options):
    # the others' moves, combats, flags revealed and, in siguo, a defeated seat's pieces cleared
    env = E.pettingzoo("junqi", **options)
    fresh = E.encoder("junqi", num_seats=env.num_seats, **options)
    _check_playouts(env, lambda state, seat: fresh.encode(state.view(seat), seat), range(4), 600)


def test_junqi_seen_changes_list_what_the_view_lists():
    # the game's changes, applied to the pieces of an earlier view, give the pieces of the view
    # now, for every seat and a spectator, over a random game of four seats
    game = E.pettingzoo("junqi", variant="siguo").game
    state, rng = game.new_state(seed=5), np.random.default_rng(5)
    names = state.board.names
    kept = {s: (state.seen_changes(s)[0], {p["point"]: p for p in state.view(s)["pieces"]})
            for s in (0, 1, 2, 3, None)}
    while not state.is_terminal():
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(legal[int(rng.integers(len(legal)))], seat=seat)
        for s, (mark, pieces) in kept.items():
            mark, changes = state.seen_changes(s, mark)
            if changes is None:
                pieces = {p["point"]: p for p in state.view(s)["pieces"]}
            for i, entry in changes or ():
                pieces.pop(names[i], None)
                if entry is not None:
                    pieces[names[i]] = entry
            assert pieces == {p["point"]: p for p in state.view(s)["pieces"]}
            kept[s] = (mark, pieces)


def test_junqi_env_step_reads_no_whole_view_in_play():
    env = E.pettingzoo("junqi")
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    while env.state.phase == "layout":
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    for agent in env.possible_agents:
        env.observe(agent)
    state, calls = env.state, []
    real = state.view_delta
    state.view_delta = lambda seat, since=None: calls.append(seat) or real(seat, since)
    flags = list(state.flag_revealed)
    for _ in range(20):
        if state.is_terminal() or state.flag_revealed != flags:
            break
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert calls == []
