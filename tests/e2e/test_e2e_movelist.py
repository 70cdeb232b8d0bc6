"""The board games' move lists, navigation and results in words, in real Chromium: for each board
game a person plays a whole game against a bot by clicking at 390 px (short options: 9x9 go with
a move cap, xiangqi and junqi with a short no-capture limit, Chinese checkers with a move cap) and
reads the result in words, then again in the other language at 1280 px; the move list navigates
by click and by keys, live and in the replay.
Screenshots at 1280 and 390 px in both languages go to tests/e2e/artifacts. Here xiangqi, gomoku
and go (the other games, the live move list and every game's results: test_e2e_movelist_more.py)."""

from __future__ import annotations

import pytest

from .movelist import whole_game


@pytest.mark.parametrize("game", ["xiangqi", "gomoku", "go"])
def test_a_whole_game_against_a_bot_with_its_move_list(server, browser, shot, game):
    whole_game(server, browser, shot, game)
