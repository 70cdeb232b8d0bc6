"""Junqi: the flag's guard for the search levels (3-5).

A flag on a headquarters has three *gates*, the points next to it: an enemy piece must stand on
one to take the flag. Around the gates are the *posts*, the points next to a gate where a piece
of the seat may stand and strike back (not the flag, not a gate, not a headquarters, whose piece
never moves). Strong players wall the flag in with mines and keep defenders at hand; so does
:func:`guarded_layout`, and the search keeps its post pieces at home (see
:meth:`qipai.bots.junqi.JunqiSearcher.candidates`).
"""

from __future__ import annotations

import random

from qipai.games.junqi.board import Board
from qipai.games.junqi.layout import format_layout
from qipai.games.junqi.notation import Layout
from qipai.games.junqi.pieces import BOMB, COUNTS, FLAG, MINE, OFFICERS

#: the officers kept on the two posts of a new layout (旅长, 团长: they beat the engineers that
#: come for the mines and cost little standing still)
POST_GUARDS = (37, 36)
#: the piece on the other headquarters (it never moves: the least of the officers)
DECOY = 33


def gates(board: Board, flag: int) -> list[int]:
    """The points next to the flag on ``flag``."""
    return list(board.steps[flag])


def posts(board: Board, flag: int) -> set[int]:
    """The points next to a gate of the flag on ``flag`` where a defender may stand: not the
    flag, not a gate, not a headquarters (camps included: a piece there cannot be attacked)."""
    near = gates(board, flag)
    return {q for g in near for q in board.steps[g]
            if q != flag and q not in near and not board.hq[q]}


def guarded_layout(board: Board, seat: int, rng: random.Random) -> dict[int, int]:
    """A legal layout (rules §4) with the flag walled in: the flag on a headquarters drawn at
    random, the three mines on its three gates, :data:`POST_GUARDS` on the posts of the back
    rows, :data:`DECOY` on the other headquarters, the bombs in rows 2-4 and the other officers
    at random on the points left (the commanders not on the back row, where they would stand
    behind the mines)."""
    flag_col = rng.choice((2, 4))
    flag = board.local_point(seat, 6, flag_col)
    out = {flag: FLAG, board.local_point(seat, 6, 6 - flag_col): DECOY}
    for g in gates(board, flag):
        out[g] = MINE
    held = sorted(p for p in posts(board, flag) if not board.camp[p])   # camps start empty
    for p, piece in zip(held, POST_GUARDS, strict=True):
        out[p] = piece
    free = [p for p in board.area_points[seat] if not board.camp[p] and p not in out]
    rest = [r for r in OFFICERS for _ in range(COUNTS[r])]
    for piece in (*POST_GUARDS, DECOY):
        rest.remove(piece)
    middle = [p for p in free if 2 <= board.local[p][0] <= 4]
    for p in rng.sample(middle, 2):
        out[p] = BOMB
        free.remove(p)
    rng.shuffle(rest)
    back = [p for p in free if board.local[p][0] == 6]
    for p in back:                      # a junior piece behind the mines
        piece = next(r for r in rest if r <= 34)
        rest.remove(piece)
        out[p] = piece
        free.remove(p)
    for p, piece in zip(free, rest, strict=True):
        out[p] = piece
    return out


def guarded_layout_action(board: Board, seat: int, rng: random.Random) -> Layout:
    """:func:`guarded_layout` as the layout action (its canonical text)."""
    return Layout(format_layout(board, guarded_layout(board, seat, rng)))

