"""Xiangqi (中国象棋): the rules of ``rules/xiangqi.md``, FEN and ICCS, perft.

Importing this package registers the game, so ``qipai.load("xiangqi", ...)`` works.
"""

from .fen import START_FEN, board_to_fen, parse_fen
from .perft import divide, perft
from .rules import Move, XiangqiGame, XiangqiState

__all__ = ["START_FEN", "Move", "XiangqiGame", "XiangqiState", "board_to_fen", "divide",
           "parse_fen", "perft"]
from . import pgn as pgn  # noqa: E402,F401  (registers the xiangqi-pgn record reader)
