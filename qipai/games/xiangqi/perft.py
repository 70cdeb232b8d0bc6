"""Perft: the number of legal move sequences of a given length from a position.

Counts follow the move rules only (default ``checkmate`` rules): game endings such as
repetition, insufficient material or the no-capture limit do not stop the count, and a
checkmated or stalemated side simply has no moves. The last ply is counted in bulk (the
number of legal moves), the usual perft technique.
"""

from __future__ import annotations

from .board import legal_moves, perft_board
from .fen import parse_fen


def _board_and_side(position) -> tuple[list[int], int]:
    if isinstance(position, str):
        pos = parse_fen(position)
        return pos.board, pos.turn
    return list(position.board), position.turn


def perft(position, depth: int) -> int:
    """Perft of ``position`` (a FEN string or a :class:`XiangqiState`) to ``depth`` plies."""
    if not isinstance(depth, int) or depth < 0:
        raise ValueError("depth must be a non-negative integer")
    board, side = _board_and_side(position)
    return perft_board(board, side, depth)


def divide(position, depth: int) -> dict[str, int]:
    """Perft split by first move (ICCS text -> count), for debugging against other engines."""
    from .board import find_king, sq_name

    board, side = _board_and_side(position)
    out: dict[str, int] = {}
    for m in legal_moves(board, side, find_king(board, side)):
        f, t = m >> 7, m & 127
        cap = board[t]
        board[t], board[f] = board[f], 0
        out[sq_name(f) + sq_name(t)] = perft_board(board, side ^ 1, depth - 1)
        board[f], board[t] = board[t], cap
    return out
