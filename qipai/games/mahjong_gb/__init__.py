"""Guobiao mahjong (国标麻将, Mahjong Competition Rules), game id ``mahjong-gb``.

Rules: ``rules/mahjong-gb.md``. The referee is :mod:`.state`, the fan calculator
:mod:`.fans` (all 81 fans), actions :mod:`.actions`, record readers (PMN, Botzone logs)
:mod:`.records`, terminal play :mod:`.play`. See ``docs/games/mahjong-gb.md``.
"""

from __future__ import annotations

from . import records  # noqa: E402,F401  (registers the PMN and Botzone readers)
from .actions import Action, parse_action
from .fans import FanResult, NotWinning, calculate
from .game import MahjongGB
from .state import MahjongState

__all__ = ["Action", "FanResult", "MahjongGB", "MahjongState", "NotWinning", "calculate", "parse_action"]
