"""One language at a time (tests/e2e/language.py): in a Chinese browser the table of every card
and tile game speaks Chinese: a table the player sits at with bots (some moves in, then the
seat's own clock runs out so the page also shows trusteeship or a result) and a table of bots
alone watched as a spectator (the board games: test_e2e_language_zh_boards.py)."""

from __future__ import annotations

import pytest

from .language import BOARD, GAMES, table_speaks_chinese


@pytest.mark.parametrize("game", [g for g in GAMES if g not in BOARD])
def test_a_table_of_every_card_and_tile_game_speaks_chinese(lserver, zh, game, shot):
    table_speaks_chinese(lserver, zh, game, shot)
