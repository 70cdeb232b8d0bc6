"""Laizi mahjong (赖子麻将, a Hubei wildcard mahjong), game id ``laizi-mahjong``.

Rules: ``rules/laizi-mahjong.md``. The referee is :mod:`.state`, point counting (patterns,
soft and hard wins, doublings, money bands) :mod:`.points`, actions :mod:`.actions`, terminal
play :mod:`.play`. See ``docs/games/laizi-mahjong.md``.
"""

from __future__ import annotations

from .actions import Action, parse_action
from .game import LaiziMahjong
from .points import Score, best_base, money, parse_laizi_hand, score
from .state import LaiziState

__all__ = ["Action", "LaiziMahjong", "LaiziState", "Score", "best_base", "money", "parse_action",
           "parse_laizi_hand", "score"]
