"""Playing one game between seats: clocks, timeouts, resignation, draw offers, records.

>>> from qipai.match import GameRunner, BotPlayer, play_game_sync
"""

from .clock import Byoyomi, Canadian, ClockSpec, Consequence, SeatClock, Timeout, duration_ms
from .players import (
    AcceptDraw,
    AddTime,
    Adjudicate,
    BotPlayer,
    DeclineDraw,
    Disqualify,
    Entrust,
    Forfeit,
    InputPlayer,
    Move,
    OfferDraw,
    Pause,
    Player,
    Reclaim,
    RefereeNote,
    Resign,
    Resume,
    ScriptedPlayer,
)
from .presets import CLOCK_PRESETS, clock_preset
from .runner import GameOutcome, GameRunner, play_game, play_game_sync
from .timesource import RealTime, TimeSource, VirtualTime

__all__ = [
    "AcceptDraw", "AddTime", "Adjudicate", "BotPlayer", "Byoyomi", "CLOCK_PRESETS", "Canadian", "ClockSpec",
    "Consequence", "DeclineDraw", "Disqualify",
    "Entrust", "Forfeit", "GameOutcome", "GameRunner", "InputPlayer", "Move", "OfferDraw",
    "Pause", "Player", "RealTime", "Reclaim",
    "RefereeNote", "Resign", "Resume", "ScriptedPlayer", "SeatClock",
    "TimeSource", "Timeout", "VirtualTime", "clock_preset", "duration_ms", "play_game", "play_game_sync",
]
