"""Chinese checkers (跳棋): the rules of ``rules/chinese-checkers.md`` for 2, 3, 4 or 6 players.

Importing this package registers the game ``chinese-checkers`` and its alias ``tiaoqi``.
"""

from ...core.registry import add_alias
from .board import CAMPS, COORDS, LAYOUTS, hole_at, hole_name, parse_hole
from .notation import Action, parse_action
from .rules import ChineseCheckersGame, ChineseCheckersState

add_alias("tiaoqi", "chinese-checkers")

__all__ = ["CAMPS", "COORDS", "LAYOUTS", "Action", "ChineseCheckersGame", "ChineseCheckersState",
           "hole_at", "hole_name", "parse_action", "parse_hole"]
