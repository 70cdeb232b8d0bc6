"""The climbing games' observations read from ``state.seen_climb`` (qipai/env/climbing.py,
``ClimbingTensor.follow``): no view is built at an env step, what the state gives equals the
view's keys, and the kept tensor equals the one encoded from ``view(seat)`` (the tensor tests
of tests/test_env_encodings.py run every seat after every step)."""

from __future__ import annotations

import numpy as np
import pytest

import qipai
import qipai.env as E
from tests.env_helpers import step_at_random, views_read

CLIMBING = [("doudizhu", {}), ("doudizhu", {"bidding": "call_1_4"}), ("wakeng", {}),
            ("fouafour", {}), ("baohuang", {})]


def _ids(v):
    return v if isinstance(v, str) else "-".join(map(str, v.values()))


@pytest.mark.parametrize("gid,options", CLIMBING, ids=_ids)
def test_what_the_state_gives_is_what_the_view_shows(gid, options):
    game = qipai.load(gid, **options)
    rng = np.random.default_rng(5)
    for seed in (5, 6):
        state = game.new_state(seed=seed)
        marks = [None] * state.num_seats
        plays = [[] for _ in range(state.num_seats)]
        while True:
            for seat in range(state.num_seats):
                view = state.view(seat)
                seen = state.seen_climb(seat, marks[seat])
                for key, value in seen.keys.items():
                    assert value == view[key], (gid, seed, seat, key)
                plays[seat] = seen.plays if seen.whole else plays[seat] + seen.plays
                assert plays[seat] == view["plays"], (gid, seed, seat)
                marks[seat] = seen.mark
            if not step_at_random(state, rng):
                break


@pytest.mark.parametrize("gid,options", CLIMBING, ids=_ids)
def test_a_climbing_env_step_reads_no_view(gid, options):
    env = E.pettingzoo(gid, **options)
    assert views_read(env, 3, 60) == []
