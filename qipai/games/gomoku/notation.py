"""Gomoku notation: points (``h8``), actions, and the position text (rules/gomoku.md §6).

* A **point** is a column letter ``a``..``o`` (``i`` included) and a row ``1``..``15``; input is
  case-insensitive, output lowercase.
* An **action** is one of ``h8`` (place), ``pass`` (``--`` is read too), ``swap``,
  ``offer:<p1>,<p2>``, ``choose:<p>`` and ``claim_forbidden``; :class:`Action` is its value and
  ``str(action)`` its canonical text (offer points in board order).
* A **position** (``game.new_state(position=...)``) is either ``"<black points> / <white points>
  [/ b|w]"`` with points separated by spaces or commas, or a diagram of 15 rows, row 15 first,
  15 characters each: ``x``/``X``/``●`` black, ``o``/``O``/``○`` white, ``.``/``+``/``┼``
  empty. The side to move defaults to Black when the counts are equal and White when Black has
  one stone more.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...core.errors import IllegalAction, Message, NotationError, why
from .board import BLACK, COLUMNS, EMPTY, SIZE, WHITE, Board, point, point_name

PLACE, PASS, SWAP, OFFER, CHOOSE, CLAIM = "place", "pass", "swap", "offer", "choose", "claim_forbidden"

_POINT = re.compile(r"^([a-o])(1[0-5]|[1-9])$")


def parse_point(text: str) -> int:
    """The point written ``text`` (``h8``, ``H8``). Raises :class:`NotationError`."""
    m = _POINT.match(text.strip().lower())
    if not m:
        raise NotationError(Message(f"{text!r} is not a point (a1 .. o15)", code="gomoku.not_point",
                                    params={"point": text}))
    return point(COLUMNS.index(m.group(1)), int(m.group(2)) - 1)


@dataclass(frozen=True, order=True)
class Action:
    """One gomoku action. ``points`` holds the point of ``place``/``choose`` and the two points
    of ``offer`` (ascending); it is empty for ``pass``, ``swap`` and ``claim_forbidden``."""

    kind: str
    points: tuple[int, ...] = ()

    def __str__(self) -> str:
        if self.kind == PLACE:
            return point_name(self.points[0])
        if self.kind == OFFER:
            return "offer:" + ",".join(point_name(p) for p in self.points)
        if self.kind == CHOOSE:
            return "choose:" + point_name(self.points[0])
        return self.kind

    @property
    def point(self) -> int | None:
        return self.points[0] if self.kind in (PLACE, CHOOSE) else None


def place(p: int) -> Action:
    return Action(PLACE, (p,))


def offer(p1: int, p2: int) -> Action:
    return Action(OFFER, tuple(sorted((p1, p2))))


def parse_action(text: str) -> Action:
    """Read an action written in the notation of this module. Raises :class:`IllegalAction`."""
    if not isinstance(text, str):
        raise IllegalAction(f"an action must be text, not {type(text).__name__}", text,
                            code="gomoku.action_must_text_not", params={"type": type(text).__name__})
    t = text.strip().lower()
    try:
        if t in ("pass", "--"):
            return Action(PASS)
        if t == "swap":
            return Action(SWAP)
        if t in (CLAIM, "claim"):
            return Action(CLAIM)
        if t.startswith("offer"):
            rest = [s for s in re.split(r"[\s,:]+", t[5:]) if s]
            if len(rest) != 2:
                raise IllegalAction("an offer names exactly two points: offer:<p1>,<p2>", text,
                                    code="gomoku.offer_names_exactly_two")
            p1, p2 = (parse_point(s) for s in rest)
            if p1 == p2:
                raise IllegalAction("the two offered points must differ", text,
                                    code="gomoku.two_offered_points_must")
            return offer(p1, p2)
        if t.startswith("choose"):
            return Action(CHOOSE, (parse_point(t[6:].lstrip(" :")),))
        return place(parse_point(t))
    except NotationError as e:
        raise IllegalAction(str(e), text, code="bad_notation",
                                params={"text": text, **why(e, "unreadable")}) from None


# ----- positions -------------------------------------------------------------------------------

_DIAGRAM = {"x": BLACK, "X": BLACK, "●": BLACK, "o": WHITE, "O": WHITE, "○": WHITE,
            ".": EMPTY, "+": EMPTY, "┼": EMPTY, "D": EMPTY}


def parse_position(text: str) -> tuple[Board, str]:
    """Read a position: ``(board, colour to move)``. Raises :class:`NotationError`."""
    board = Board()
    text = text.strip()
    if "/" in text:
        parts = [p.strip() for p in text.split("/")]
        if len(parts) not in (2, 3):
            raise NotationError("expected '<black points> / <white points> [/ b|w]'", "position",
                                code="notation.position_syntax")
        for colour, part in zip((BLACK, WHITE), parts[:2]):
            for name in (s for s in re.split(r"[\s,]+", part) if s):
                p = parse_point(name)
                if board.get(p) != EMPTY:
                    raise NotationError(f"point {name} is given twice", "position",
                                        code="notation.twice", params={"what": name})
                board.place(p, colour)
        to_move = parts[2].lower() if len(parts) == 3 else ""
    else:
        rows = [r.strip() for r in text.splitlines() if r.strip()]
        if len(rows) != SIZE:
            raise NotationError(f"a diagram has {SIZE} rows, got {len(rows)}", "position",
                                code="notation.position_syntax")
        for i, row in enumerate(rows):
            cells = row.replace(" ", "")
            if len(cells) != SIZE:
                raise NotationError(f"row {SIZE - i} has {len(cells)} points, expected {SIZE}",
                                    "position",
                                    code="notation.position_syntax")
            for col, ch in enumerate(cells):
                if ch not in _DIAGRAM:
                    raise NotationError(f"unknown symbol {ch!r} in row {SIZE - i}", "position",
                                        code="notation.unknown_symbol", params={"symbol": ch})
                if _DIAGRAM[ch] != EMPTY:
                    board.place(point(col, SIZE - 1 - i), _DIAGRAM[ch])
        to_move = ""
    nb, nw = len(board.stones(BLACK)), len(board.stones(WHITE))
    if to_move in ("b", "black"):
        return board, BLACK
    if to_move in ("w", "white"):
        return board, WHITE
    if to_move:
        raise NotationError(f"side to move must be b or w, not {to_move!r}", "position",
                            code="notation.bad_side_to_move", params={"value": to_move})
    if nb == nw:
        return board, BLACK
    if nb == nw + 1:
        return board, WHITE
    raise NotationError(f"{nb} black and {nw} white stones: give the side to move (/ b or / w)",
                        "position",
                        code="notation.side_to_move_missing")


def position_text(board: Board, to_move: str) -> str:
    """The ``"<black> / <white> / b|w"`` text of a position (reads back with
    :func:`parse_position`)."""
    blacks = " ".join(point_name(p) for p in board.stones(BLACK))
    whites = " ".join(point_name(p) for p in board.stones(WHITE))
    return f"{blacks} / {whites} / {'b' if to_move == BLACK else 'w'}"
