"""Who plays a seat in trusteeship at a live table (competition.md §4.6; issue 13): at a lobby
card or tile table the game's bot, from the first timeout; at an event's table the rules'
default action, from the second."""

from __future__ import annotations

import dataclasses
import zlib
from typing import Any

from qipai.bots import make_bot
from qipai.match.presets import CARD_GAMES

from .tabledefaults import default_bot

#: the games whose seat in trusteeship at a lobby table (its player left, asked for it, or let
#: the clock run out twice) is played by the game's built-in bot, not by the rules' timeout
#: answer (pass, or the lowest card; discard the tile drawn, mahjong rule file 2.10): every card
#: and tile game. An event's table keeps the rules' answer (competition.md §4.6).
BOT_TRUSTEE = CARD_GAMES


def bot_trustee(game_id: str, seed: Any) -> Any:
    """The trusteeship policy of :data:`BOT_TRUSTEE`: the game's default bot, seeded from the
    table's seed, the position and the seat (the same choice when a journal is replayed)."""
    name = default_bot(game_id)

    def play(state: Any, seat: int) -> Any:
        key = zlib.crc32(f"{seed}:{len(state.log)}:{seat}".encode())
        return make_bot(game_id, name, seed=key).choose(state, seat)
    return play


def trustee_policy(game_id: str, seed: Any, event_id: Any) -> Any:
    """Who plays a seat in trusteeship at a table of ``game_id``: at a lobby table of a card or
    tile game the game's bot (:func:`bot_trustee`); else None, the rules' default action
    (an event's table, competition.md §4.6)."""
    return bot_trustee(game_id, seed) if event_id is None and game_id in BOT_TRUSTEE else None


def lobby_trustee_at_once(runner: Any, event_id: Any, game_id: str, clock: Any) -> None:
    """At a lobby card or tile table the first timeout puts the seat in trusteeship (its player
    is away; issue 13: the computer plays it until the player takes it back), not the second as
    at an event's table (competition.md §4.6, ``trustee_after`` 2); a clock that names its own
    ``trustee_after`` keeps it."""
    if event_id is not None or game_id not in BOT_TRUSTEE:
        return
    if isinstance(clock, dict) and "trustee_after" in clock:
        return
    for c in runner.clocks:
        c.spec = dataclasses.replace(c.spec, trustee_after=1)
