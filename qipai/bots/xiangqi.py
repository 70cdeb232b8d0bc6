"""Xiangqi bots: ``random`` (generic) and ``greedy``.

``greedy`` looks one ply ahead: it mates when it can, then prefers the move with the best
material balance after the opponent's best immediate recapture, then checks. Ties are broken
at random (seeded), so it is not fully predictable.
"""

from __future__ import annotations

import math
import random

from qipai.bots import register_bot
from qipai.bots.mcts import Searcher
from qipai.bots.search import register_searcher

VALUES = {"k": 0, "a": 2, "b": 2, "n": 4, "r": 9, "c": 4.5, "p": 1}


def _value(piece: str | None) -> float:
    return VALUES[piece.lower()] if piece else 0.0


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state, seat: int):
        moves = state.legal_moves()
        if not moves:
            raise ValueError("no legal move")
        best, best_score = [], None
        for m in moves:
            gain = _value(state.piece_at(m.to_sq))
            child = state.clone()
            child.apply(m)
            if child.is_terminal():
                res = child.result
                if seat in res.winners:
                    return m
                score = -100.0 if res.winners else -1.0
            else:
                # the opponent's best capture in reply
                reply = max((_value(child.piece_at(r.to_sq)) for r in child.legal_moves()), default=0.0)
                score = gain - reply + (0.5 if child.in_check() else 0.0)
            if best_score is None or score > best_score:
                best, best_score = [m], score
            elif score == best_score:
                best.append(m)
        return self.rng.choice(best)


register_bot("xiangqi", "greedy", GreedyBot)


# ----- search (levels 3-5) -------------------------------------------------------------------
#: piece values by kind code (qipai.games.xiangqi.board: 1 king .. 7 pawn)
KIND_VALUES = (0.0, 0.0, 2.0, 2.0, 4.0, 9.0, 4.5, 1.0)


def _place(kind: int, file: int, rank: int) -> float:
    """What a piece of ``kind`` is worth on (``file``, ``rank``) seen from its own side (rank 0
    its back rank): its material and a small bonus or malus for where it stands. The king
    wants its home point; a horse or rook still on its first point is not developed and a
    horse on the edge file is slow; a horse gains as it advances toward the middle; a rook in
    the other half presses; a cannon on the middle file aims at the king; a pawn across the
    river counts 2, more near the middle of the other palace, less on the last rank."""
    if kind == 1:                                       # king
        return -0.4 * rank - (0.1 if file != 4 else 0.0)
    if kind == 4:                                       # horse
        v = 4.0 + 0.1 * min(rank, 7) + (0.1 if 2 <= file <= 6 else 0.0)
        if rank == 0 and file in (1, 7):
            v -= 0.4
        if file in (0, 8):
            v -= 0.3
        return v
    if kind == 5:                                       # rook
        v = 9.0
        if rank == 0 and file in (0, 8):
            v -= 0.4
        if rank >= 5:
            v += 0.2 + (0.1 if rank == 8 else 0.0)
        return v
    if kind == 6:                                       # cannon
        return 4.5 + (0.3 if file == 4 else 0.0)
    if kind == 7:                                       # pawn
        if rank < 5:
            return 1.0 + (0.1 if rank == 4 else 0.0)
        if rank == 9:
            return 1.2
        return 2.0 + (0.3 if 3 <= file <= 5 else 0.1 if file in (2, 6) else 0.0) \
            + (0.2 if rank in (6, 7) else 0.0)
    return KIND_VALUES[kind]


#: ``PLACE[code][sq]``: :func:`_place` of the piece ``code`` on ``sq``, signed for Red (Black's
#: pieces negative, their ranks counted from Black's side); 0 for an empty point
PLACE: tuple[tuple[float, ...], ...] = tuple(
    tuple(0.0 if not code & 7 else
          (-_place(code & 7, sq % 9, 9 - sq // 9) if code >> 3 else _place(code & 7, sq % 9, sq // 9))
          for sq in range(90))
    for code in range(16))


def material(board: list[int]) -> float:
    """Red's material minus Black's, with each piece's place (:func:`_place`: a pawn across the
    river counts 2, an undeveloped horse or rook or a king off its home point less)."""
    place = PLACE
    return sum(place[code][sq] for sq, code in enumerate(board) if code)


class XiangqiSearcher(Searcher):
    """Xiangqi for MCTS. The tree considers the :data:`WIDTH` best moves by the greedy bot's
    two-ply score (:meth:`candidates`). A leaf is scored without random play: a win when the
    side to move mates at once, else a capture
    search (alpha-beta over captures only, :data:`QDEPTH` plies, either side may stop
    capturing) gives the material balance it can force, turned into a value in [0, 1] by a
    logistic curve (2 points ahead is about 0.73); a finished game scores its result."""

    game_id = "xiangqi"
    QDEPTH = 4
    WIDTH = 12
    MATE = 100.0
    exploration = 0.25

    def candidates(self, state, seat: int) -> list:
        """The :data:`WIDTH` best moves by the greedy bot's two-ply score (what it wins minus
        the best capture in reply, a check worth half a pawn) plus what the move changes in
        the mover's place (:func:`_place`: quiet moves develop before they shuffle the king,
        advisors and elephants); a mate alone."""
        scored = []
        board = state.board
        sign = -1.0 if seat else 1.0
        place = PLACE
        for m in state.legal_actions(seat):
            mover, victim = board[m.from_sq], board[m.to_sq]
            # what it takes and how the mover's place changes (:func:`_place`)
            gain = sign * (place[mover][m.to_sq] - place[mover][m.from_sq] - place[victim][m.to_sq])
            child = state.clone()
            child.apply(m)
            if child.is_terminal():
                if seat in child.result.winners:
                    return [m]
                score = -100.0 if child.result.winners else -1.0
            else:
                after = child.board
                reply = max((KIND_VALUES[after[r.to_sq] & 7] for r in child.legal_actions()
                             if after[r.to_sq]), default=0.0)
                score = gain - reply + (0.5 if child.in_check() else 0.0)
            scored.append((-score, _capture_order(board, m), m))
        scored.sort(key=lambda x: x[:2])
        return [m for _, _, m in scored[:self.WIDTH]]

    def _quiesce(self, state, alpha: float, beta: float, depth: int) -> float:
        """The balance for the side to move that captures alone can reach (negamax)."""
        board = state.board
        stand = material(board) * (-1 if state.turn else 1)
        if stand >= beta or depth == 0:
            return stand
        alpha = max(alpha, stand)
        caps = sorted((m for m in state.legal_actions() if board[m.to_sq]),
                      key=lambda m: _capture_order(board, m))
        for m in caps:
            child = state.clone()
            child.apply(m)
            if child.is_terminal():
                w = child.result.winners
                score = (self.MATE if w else 0.0) if (not w or w[0] != child.turn) else -self.MATE
            else:
                score = -self._quiesce(child, -beta, -alpha, depth - 1)
            if score >= beta:
                return score
            alpha = max(alpha, score)
        return alpha

    def playout(self, state, rng: random.Random) -> list[float]:
        mover = state.turn
        for m in state.legal_actions():
            child = state.clone()
            child.apply(m)
            if child.is_terminal() and mover in child.result.winners:
                return [1.0, 0.0] if mover == 0 else [0.0, 1.0]
        score = self._quiesce(state, -1e9, 1e9, self.QDEPTH)
        red = score if state.turn == 0 else -score
        value = 1.0 / (1.0 + math.exp(-red / 2.0))
        return [value, 1.0 - value]


def _capture_order(board: list[int], m) -> tuple[float, float]:
    victim = board[m.to_sq]
    return (-KIND_VALUES[victim & 7] if victim else 1.0, KIND_VALUES[board[m.from_sq] & 7])


register_searcher(XiangqiSearcher(), GreedyBot)
