"""The referee console's results in words for a game not begun (a live table whose players have
not sat yet, a result to correct or enter from paper): the same outcomes as a game in play."""

from __future__ import annotations

import qipai
from qipai.server.refconsole import game_outcomes, outcomes


def test_a_game_not_begun_has_the_outcomes_of_a_game_in_play():
    for game in ("xiangqi", "go"):
        got = game_outcomes(game, {})
        assert got == outcomes(qipai.load(game).new_state(seed=0))
        assert sorted(tuple(o["winners"]) for o in got) == [(), (0,), (1,)]
    assert game_outcomes("doudizhu", {}) == []            # three seats: its results are typed
