"""Go (围棋): the rules of ``rules/go.md``, GTP and SGF coordinates, SGF records.

Importing this package registers the game and its SGF record reader, so
``qipai.load("go", ...)`` and ``qipai replay game.sgf`` work.
"""

from .board import BLACK, EMPTY, WHITE, Board
from .coords import PASS, from_gtp, from_sgf, to_gtp, to_sgf
from .rules import GoGame, GoState, Mark, Move, handicap_points
from .sgf import read_sgf, write_sgf

__all__ = ["BLACK", "EMPTY", "PASS", "WHITE", "Board", "GoGame", "GoState", "Mark", "Move",
           "from_gtp", "from_sgf", "handicap_points", "read_sgf", "to_gtp", "to_sgf", "write_sgf"]
