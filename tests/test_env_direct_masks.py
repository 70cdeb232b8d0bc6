"""The action masks that go's and gomoku's envs read from the engine's own legal set
(``FixedActions.direct``: ``state.legal_flags()``, no action list made or numbered) equal the
masks numbered from ``legal_actions`` after every step of random playouts, and the action each
slot gives is the listed action of that slot."""

from __future__ import annotations

import numpy as np
import pytest

import qipai.env as E


def _listed(env, state, seat) -> tuple[np.ndarray, dict[int, object]]:
    """The mask and the actions by slot, numbered from ``legal_actions`` one by one."""
    acts = env.encoder.actions
    mask = np.zeros(acts.size, np.int8)
    by_slot: dict[int, object] = {}
    for i, action in enumerate(state.legal_actions(seat)):
        slot = acts.index(action, i)
        mask[slot] = 1
        by_slot.setdefault(slot, action)
    return mask, by_slot


def _check(gid: str, options: dict, seeds, limit: int, special=()) -> int:
    """Random masked playouts; returns how many steps read the engine's flags."""
    env = E.pettingzoo(gid, **options)
    direct = env.encoder.actions.direct
    rng = np.random.default_rng(11)
    read = 0
    for seed in seeds:
        env.reset(seed=seed)
        steps = 0
        while not env.state.is_terminal() and steps < limit:
            state, agent = env.state, env.agent_selection
            seat = env.possible_agents.index(agent)
            mask = env.observe(agent)["action_mask"]
            want, by_slot = _listed(env, state, seat)
            assert np.array_equal(mask, want), (gid, seed, steps)
            got = direct(state, seat, state.to_act)
            if got is not None:
                read += 1
                table = got[1]
                for slot in by_slot:
                    assert table[slot] == by_slot[slot], (gid, seed, steps, slot)
            legal = np.flatnonzero(mask)
            wanted = [s for s in special if mask[s]] if steps % 7 == 3 else []
            env.step(int(wanted[0] if wanted else rng.choice(legal)))
            steps += 1
    return read


@pytest.mark.parametrize("options", [
    {"board_size": 9}, {"board_size": 5}, {"board_size": 5, "end_procedure": "agreement"},
    {"board_size": 9, "handicap": 3}, {"board_size": 5, "ko_rule": "simple_ko"},
    {"board_size": 5, "ko_rule": "situational_superko"},
    {"board_size": 5, "ko_rule": "natural_situational_superko"}],
    ids=["9x9", "5x5", "5x5-marking", "handicap", "simple-ko", "situational", "natural"])
def test_go_mask_from_the_legal_flags_equals_the_listed_mask(options):
    # small boards: captures, ko retakes forbidden by each rule, passes, the marking phase
    assert _check("go", options, range(4), 400) > 0


@pytest.mark.parametrize("options", [
    {}, {"forbidden_handling": "reject"}, {"forbidden_handling": "claim"},
    {"opening": "swap3"}, {"opening": "two5"}, {"opening": "swap3_two5"},
    {"opening": "designated_two5", "opening_name": "D4"}, {"ruleset": "freestyle"},
    {"allow_pass": True}],
    ids=["renju", "reject", "claim", "swap3", "two5", "swap3_two5", "designated_two5",
         "freestyle", "pass"])
def test_gomoku_mask_from_the_legal_flags_equals_the_listed_mask(options):
    # forbidden points refused, swaps, claims, offers (listed) and choices (flags), passes
    assert _check("gomoku", options, range(3), 150, special=(450, 451, 452)) > 0


def test_a_masked_slot_is_refused_and_changes_nothing():
    env = E.pettingzoo("go", board_size=9)
    env.reset(seed=2)
    mask = env.observe(env.agent_selection)["action_mask"]
    env.step(int(np.flatnonzero(mask)[0]))
    taken = env.state.moves[-1]
    log = list(env.state.log)
    with pytest.raises(qipai_illegal()) as e:
        env.step(taken)                   # the point just played
    assert e.value.code == "env.masked_action"
    assert env.state.log == log


def qipai_illegal():
    from qipai import IllegalAction
    return IllegalAction
