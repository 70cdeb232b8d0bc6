"""Repetition adjudication (rule file section 4.3).

Positions are stored as ``bytes``: the 90 board codes followed by the side to move, so a
history entry is both the repetition key and a snapshot of the board.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .board import CANNON, HORSE, KING, PAWN, ROOK, attacked, find_king

LegalFn = Callable[[list[int], int], list[int]]

CHECK, CHASE, IDLE = "check", "chase", "idle"


def position_key(board: list[int], turn: int) -> bytes:
    return bytes(board) + bytes((turn,))


def _on_own_half(side: int, sq: int) -> bool:
    rank = sq // 9
    return rank <= 4 if side == 0 else rank >= 5


def classify_move(before: list[int], after: list[int], mover: int, legal: LegalFn) -> str:
    """``check``, ``chase`` or ``idle`` for the move of ``mover`` that led from ``before`` to
    ``after`` (section 4.3, step 3). ``legal(board, side)`` lists legal moves under the rules
    in force."""
    opp = mover ^ 1
    ksq = find_king(after, opp)
    if ksq >= 0 and attacked(after, ksq, opp):
        return CHECK
    captures = [m for m in legal(after, mover) if after[m & 127]]
    if not captures:
        return IDLE
    old_targets = {m & 127 for m in legal(before, mover) if before[m & 127]}
    replies: set[int] | None = None
    for m in captures:
        a = m >> 7
        t = m & 127
        akind = after[a] & 7
        tkind = after[t] & 7
        if akind == KING or akind == PAWN or tkind == KING:
            continue
        if tkind == PAWN and _on_own_half(opp, t):
            continue
        if t in old_targets:
            continue
        if akind == tkind:
            if replies is None:
                replies = set(legal(after, opp))
            if (t << 7 | a) in replies:
                continue
        if not (tkind == ROOK and (akind == HORSE or akind == CANNON)):
            board = list(after)
            board[t] = board[a]
            board[a] = 0
            if any(r & 127 == t for r in legal(board, opp)):
                continue
        return CHASE
    return IDLE


def adjudicate(history: Sequence[bytes], first: int, legal: LegalFn) -> tuple[int | None, list[str]]:
    """Adjudicate the span after ``history[first]`` up to the last position.

    Returns ``(loser, kinds)``: the losing side (``None`` for a draw) and the class of every
    move in the span, in order.
    """
    kinds: list[str] = []
    movers: list[int] = []
    for j in range(first + 1, len(history)):
        before = history[j - 1]
        after = history[j]
        mover = before[90]
        movers.append(mover)
        kinds.append(classify_move(list(before[:90]), list(after[:90]), mover, legal))
    return verdict(kinds, movers), kinds


def verdict(kinds: Sequence[str], movers: Sequence[int]) -> int | None:
    """Section 4.3 steps 4-5: the losing side for the span's move classes, or ``None``."""
    checks = [False, False]
    chases = [False, False]
    for side in (0, 1):
        own = [k for k, s in zip(kinds, movers) if s == side]
        checks[side] = bool(own) and all(k == CHECK for k in own)
        chases[side] = (not checks[side] and bool(own) and all(k != IDLE for k in own)
                        and any(k == CHASE for k in own))
    if checks[0] != checks[1]:
        return 0 if checks[0] else 1
    if checks[0]:
        return None
    if chases[0] != chases[1]:
        return 0 if chases[0] else 1
    return None
