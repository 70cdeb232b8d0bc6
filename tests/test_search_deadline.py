"""Every game's search keeps to its time limit: a decision with a playout budget it cannot spend
in time ends within the limit plus a margin of CPU time, whatever one playout, one sample or the
root states' preparation costs (qipai.bots.mcts.deadline). The levels 3-5 differ only in their
budget (search.LEVEL_BUDGETS), so one huge budget stands for all of them."""

from __future__ import annotations

import random
import time

import pytest

import qipai
from qipai.bots import bot_names
from qipai.bots.mcts import Budget, OutOfTime, Searcher, check_time, deadline
from qipai.bots.search import searcher_for, think
from qipai.core.registry import games

from . import level_helpers

#: every game with a search level
SEARCHED = [g.id for g in games() if "mcts3" in bot_names(g.id)]
LIMIT_MS = 200
#: CPU seconds a decision may take past its limit (one ply or sample past it, and a loaded
#: machine's noise: generous, the search's own overrun is a few ms)
MARGIN = 0.25


def test_every_searched_game_is_measured():
    assert {"go", "doudizhu", "baohuang", "shengji", "fouafour", "wakeng", "mahjong-gb"} <= set(SEARCHED)


@pytest.mark.parametrize("plies", [1, 8])
@pytest.mark.parametrize("game_id", SEARCHED)
def test_a_decision_keeps_to_its_time_limit(game_id, plies):
    state, me = level_helpers.play_to_search(qipai.load(game_id), 5, plies)
    job = (game_id, dict(state.game.options), me, searcher_for(game_id).inputs(state, me))
    think(*job, 4, None, 1)                   # imports and caches of the game: not the decision's
    t0 = time.thread_time()
    text = think(*job, 10**7, LIMIT_MS, 1)
    took = time.thread_time() - t0
    assert text in {str(a) for a in state.legal_actions(me)}
    assert took < LIMIT_MS / 1000 + MARGIN, took


class _Slow(Searcher):
    """A game whose every playout is longer than any time limit (a ply of 1 ms, 10,000 plies)."""

    def playout(self, state, rng):
        for _ in range(10_000):
            check_time()
            t = time.perf_counter()
            while time.perf_counter() < t + 0.001:
                pass
        return [0.5, 0.5]


def test_a_playout_longer_than_the_limit_is_cut_and_dropped():
    game = qipai.load("xiangqi")
    state = game.new_state(seed=1)
    t0 = time.thread_time()
    result = _Slow().search(lambda rng: state.clone(), state.to_act[0], Budget(10**6, 100), random.Random(1))
    assert time.thread_time() - t0 < 0.1 + MARGIN
    assert result.playouts == 0 and not any(v for v, _ in result.stats.values())   # cut: dropped
    assert result.action in {str(a) for a in state.legal_actions(state.to_act[0])}


def test_an_enclosing_deadline_that_comes_earlier_is_kept():
    with deadline(50) as outer:
        with deadline(10_000) as inner:
            assert inner == outer
        with deadline(None) as none:
            assert none == outer
    with deadline(None) as free:
        assert free is None
        check_time()
    with pytest.raises(OutOfTime), deadline(0):
        check_time()
