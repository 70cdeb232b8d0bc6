"""Junqi (军棋): 陆战棋 ``luzhan`` (2 players) and 四国军棋 ``siguo`` (4 players in two teams),
the rules of ``rules/junqi.md``.

Importing this package registers the game ``junqi`` and its alias ``siguo-junqi`` (= junqi with
``variant="siguo"``).
"""

from ...core.registry import add_alias
from .board import BOARDS, LUZHAN, SIGUO, Board
from .game import JunqiGame, JunqiState
from .layout import format_layout, parse_layout, random_layout
from .notation import Layout, Move, Special, parse_action
from .pieces import combat

add_alias("siguo-junqi", "junqi", variant="siguo")

__all__ = ["BOARDS", "LUZHAN", "SIGUO", "Board", "JunqiGame", "JunqiState", "Layout", "Move",
           "Special", "combat", "format_layout", "parse_action", "parse_layout", "random_layout"]
