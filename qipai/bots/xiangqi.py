"""Xiangqi bots: ``random`` (generic) and ``greedy``.

``greedy`` looks one ply ahead: it mates when it can, then prefers the move with the best
material balance after the opponent's best immediate recapture, then checks. Ties are broken
at random (seeded), so it is not fully predictable.
"""

from __future__ import annotations

import random

from qipai.bots import register_bot

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
