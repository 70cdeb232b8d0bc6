"""Gomoku and renju (五子棋, 连珠): the rules of ``rules/gomoku.md``, record formats, openings.

Importing this package registers the game ``gomoku``, its alias ``renju`` (= gomoku with the
renju rule set, the default) and its record readers.
"""

from ...core.registry import add_alias
from . import records
from .board import Board
from .notation import Action, parse_point
from .rules import GomokuGame, GomokuState

add_alias("renju", "gomoku", ruleset="renju")

__all__ = ["Action", "Board", "GomokuGame", "GomokuState", "parse_point", "records"]
