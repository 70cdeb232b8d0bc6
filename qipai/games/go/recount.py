"""Counting a finished record from its own marks: territory (Japanese style) or area (数子法).

SGF records of counted games often end with marks: ``TB``/``TW`` (the points each side owns,
dead stones included) and sometimes ``AE`` on the last node (the dead stones taken off). A
stone of one colour standing on a point the marks give to the other side, or cleared by
``AE``, is dead. From the board at the end of the main line and these marks:

* :func:`territory_count` (Japanese / Korean rules): each side scores its marked points
  (empty points and the points of dead stones), plus the stones it captured during play,
  plus the dead stones of the other side (they become its prisoners). With no ``TB``/``TW``
  marks, the territory is every empty region (after the dead stones are taken off) bordered by
  one colour only.
* :func:`area_count` (Chinese rules, rules §4.3): the dead stones are taken off and the board
  is counted by area (stones plus surrounded points, shared points half and half).

Both give ``B - W - komi`` as the margin, written as an SGF result (``B+2.5``, ``W+0.5``,
``0``), to compare with the record's ``RE``.
"""

from __future__ import annotations

from typing import NamedTuple

from .board import BLACK, EMPTY, WHITE, Board


class MarkCount(NamedTuple):
    """A count of a finished board. ``method``: ``territory`` or ``area``; ``black``/``white``:
    the points of each side (before komi); ``margin``: ``black - white - komi``; ``text``: the
    margin as an SGF result; ``dead``: the points of the stones counted as dead."""

    method: str
    black: float
    white: float
    komi: float
    margin: float
    text: str
    dead: frozenset[int]

    def describe(self) -> str:
        """``territory count: Black 20, White 16, komi 6.5 -> W+2.5``."""
        return (f"{self.method} count: Black {self.black:g}, White {self.white:g}, "
                f"komi {self.komi:g} -> {self.text}")


def result_text(margin: float) -> str:
    """``B+x`` / ``W+x`` / ``0`` for a margin of (Black - White - komi) points."""
    if margin == 0:
        return "0"
    return f"{'B' if margin > 0 else 'W'}+{abs(margin):g}"


def dead_from_marks(board: Board, black_terr, white_terr, cleared=()) -> frozenset[int]:
    """The stones the marks call dead: a white stone on a ``TB`` point, a black stone on a
    ``TW`` point, and every stone on an ``AE`` point (``cleared``)."""
    color = board.color
    dead = {p for p in black_terr if color[p] == WHITE}
    dead |= {p for p in white_terr if color[p] == BLACK}
    dead |= {p for p in cleared if color[p] != EMPTY}
    return frozenset(dead)


def territory_count(board: Board, black_terr, white_terr, komi: float,
                    cleared=()) -> MarkCount:
    """Japanese-style count from the marks: territory + prisoners + dead stones, per side.

    ``board``: the board at the end of play, with ``board.prisoners`` the stones each colour
    captured; ``black_terr``/``white_terr``: the ``TB``/``TW`` points (a side's own stones
    marked as its territory are not counted); ``cleared``: ``AE`` points; ``komi`` in points.
    """
    color = board.color
    dead = dead_from_marks(board, black_terr, white_terr, cleared)
    if black_terr or white_terr:
        tb = {p for p in black_terr if color[p] == EMPTY or p in dead}
        tw = {p for p in white_terr if color[p] == EMPTY or p in dead}
    else:
        tb, tw = set(), set()
        for pts, touches in board.regions(dead):
            if touches == BLACK:
                tb.update(pts)
            elif touches == WHITE:
                tw.update(pts)
    dead_w = sum(1 for p in dead if color[p] == WHITE)
    dead_b = sum(1 for p in dead if color[p] == BLACK)
    b = len(tb) + board.prisoners[BLACK] + dead_w
    w = len(tw) + board.prisoners[WHITE] + dead_b
    margin = b - w - komi
    return MarkCount("territory", float(b), float(w), komi, margin, result_text(margin), dead)


def area_count(board: Board, black_terr, white_terr, komi: float, cleared=()) -> MarkCount:
    """Area count (rules §4.3) of the board with the dead stones of the marks taken off."""
    dead = dead_from_marks(board, black_terr, white_terr, cleared)
    b, w = board.area(dead)
    margin = b - w - komi
    return MarkCount("area", b, w, komi, margin, result_text(margin), dead)
