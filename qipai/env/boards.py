"""Encodings of go, gomoku and xiangqi: planes ``(C, H, W)`` and point / from-to actions.

Planes are ``float32`` in ``[0, 1]``; row 0 of a plane is the row whose points have the
smallest index in the action numbering (go: the top row; gomoku: row 1; xiangqi: rank 0, Red's
back rank), so ``plane[r, c]`` and action ``r * W + c`` name the same point.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from qipai.games.go.actions import Move
from qipai.games.go.coords import GTP_COLUMNS

from .base import Encoder, FixedActions


class PlaneEncoder(Encoder):
    """An encoder of ``C`` planes of ``H × W``; subclasses give ``planes`` (documentation rows
    ``(name, meaning)``), ``H``, ``W`` and ``fill(view, seat, out)``."""

    planes: list[tuple[str, str]]

    def _setup(self, h: int, w: int) -> None:
        self.H, self.W = h, w
        self.shape = (len(self.planes), h, w)
        self.high = np.ones(self.shape, np.float32)
        self.rows = [(name, f"{h}×{w}", doc) for name, doc in self.planes]

    def encode(self, view: dict[str, Any], seat: int) -> np.ndarray:
        out = np.zeros(self.shape, np.float32)
        self.fill(view, seat, out)
        return out

    def fill(self, view: dict[str, Any], seat: int, out: np.ndarray) -> None:
        raise NotImplementedError


# ----- go ------------------------------------------------------------------------------------
class GoEncoder(PlaneEncoder):
    planes = [("own", "stones of the seat's colour"), ("opponent", "stones of the other colour"),
              ("empty", "empty points"), ("last_move", "the point of the last move"),
              ("black", "all ones when the seat plays Black"),
              ("passed", "all ones when the last move was a pass")]

    def __init__(self, game: Any, num_seats: int) -> None:
        super().__init__(game, num_seats)
        n = game.options["board_size"]
        self._setup(n, n)
        self.n = n
        marks = game.options.get("end_procedure") == "agreement"
        size = n * n + 1 + (2 * n * n + 2 if marks else 0)
        doc = (f"Discrete({size}): point r*{n}+c (row 0 at the top, as the board view) for a "
               f"stone, {n * n} pass" + (f"; {n * n + 1}+p dead p, {2 * n * n + 1}+p alive p, "
                                         f"{3 * n * n + 1} done, {3 * n * n + 2} resume "
                                         "(dead-stone marking, end_procedure=agreement)" if marks else ""))
        self.actions = FixedActions(size, self._index, doc, batch=self._points)

    def _points(self, actions: Any) -> list[int]:
        nn = self.n * self.n
        out = [a.point if a.point >= 0 else nn for a in actions if type(a) is Move]
        if len(out) != len(actions):
            raise ValueError("not only stones and passes")
        return out

    def _index(self, action: Any, position: int = 0) -> int:
        nn = self.n * self.n
        kind = getattr(action, "kind", None)
        if kind is None:
            return nn if action.point == -1 else action.point
        if kind in ("dead", "alive"):
            return nn + 1 + (0 if kind == "dead" else nn) + action.point
        return 3 * nn + 1 + ("done", "resume").index(kind)

    def fill(self, view: dict[str, Any], seat: int, out: np.ndarray) -> None:
        black = view.get("colour") == "black"
        grid = np.frombuffer("".join(view["board"]).encode(), np.uint8).reshape(self.n, self.n)
        out[:3] = _GO_PLANES_OF_BYTE[black][:, grid]       # own, opponent, empty in one look-up
        last = view.get("last_move")
        if last and last != "pass":
            out[3, self.n - int(last[1:]), GTP_COLUMNS.index(last[0])] = 1
        out[4] = black
        out[5] = last == "pass"


# per side (True: the seat plays Black), the (own, opponent, empty) planes' values of each
# byte of the board rows: "X" Black, "O" White, "." empty
_GO_PLANES_OF_BYTE = {black: np.array([[float(chr(b) == ch) for b in range(256)]
                                       for ch in ("XO." if black else "OX.")], np.float32)
                      for black in (True, False)}


# ----- gomoku ----------------------------------------------------------------------------------
_GOMOKU_EXTRA = ("pass", "swap", "claim_forbidden")
_GOMOKU_STONE = {"black": b"x", "white": b"o"}      # a colour's letter in the view's diagram


def _gomoku_point(name: str) -> tuple[int, int]:
    return int(name[1:]) - 1, ord(name[0]) - ord("a")


class GomokuEncoder(PlaneEncoder):
    planes = [("own", "stones of the seat's colour"), ("opponent", "stones of the other colour"),
              ("empty", "empty points"), ("last_move", "the last stone placed"),
              ("black", "all ones when the seat plays Black"),
              ("forbidden", "points forbidden to Black now (renju), as the view shows them"),
              ("offered", "points offered to choose from (two5 openings)"),
              ("may_swap", "all ones when the seat may swap colours now"),
              ("may_pass", "all ones when the seat may pass now"),
              ("may_claim", "all ones when the seat may claim a forbidden move")]

    def __init__(self, game: Any, num_seats: int) -> None:
        super().__init__(game, num_seats)
        self._setup(15, 15)
        offers = "two5" in game.options.get("opening", "")
        base = 225 * 2 + len(_GOMOKU_EXTRA)
        size = base + (225 * 225 if offers else 0)
        doc = (f"Discrete({size}): p = (row-1)*15 + col (a=0) places a stone; 225+p chooses offered "
               "point p; 450 pass, 451 swap, 452 claim_forbidden"
               + ("; 453 + p1*225 + p2 offers the points p1 < p2 (two5 openings)" if offers else ""))
        self.actions = FixedActions(size, self._index, doc, batch=self._slots)

    @classmethod
    def _slots(cls, actions: Any) -> list[int]:
        return [a.points[0] if a.kind == "place" else cls._index(a) for a in actions]

    @staticmethod
    def _index(action: Any, position: int = 0) -> int:
        kind = action.kind
        if kind == "place":
            return action.points[0]
        if kind == "choose":
            return 225 + action.points[0]
        if kind == "offer":
            p1, p2 = action.points
            return 453 + p1 * 225 + p2
        return 450 + _GOMOKU_EXTRA.index(kind)

    def fill(self, view: dict[str, Any], seat: int, out: np.ndarray) -> None:
        colour = view["colours"][seat] if seat is not None else None
        # the diagram's rows, row 15 first, read bottom-up: the stones of the view's list
        grid = np.frombuffer("".join(reversed(view["board"])).encode(), "S1").reshape(15, 15)
        mine = _GOMOKU_STONE.get(colour)
        out[0] = grid == mine
        out[1] = (grid != b".") & (grid != mine)
        out[2] = grid == b"."
        if view.get("last_move") and view["last_move"] not in _GOMOKU_EXTRA:
            r, c = _gomoku_point(view["last_move"])
            out[3, r, c] = 1
        out[4] = colour == "black"
        for p in view.get("forbidden") or ():
            out[5][_gomoku_point(p)] = 1
        ch = view.get("choices") or {}
        for p in ch.get("choose") or ():
            out[6][_gomoku_point(p)] = 1
        out[7] = bool(ch.get("swap"))
        out[8] = bool(ch.get("pass"))
        out[9] = bool(ch.get("claim"))


# ----- xiangqi ---------------------------------------------------------------------------------
_XQ_PIECES = "KABNRCP"


class XiangqiEncoder(PlaneEncoder):
    planes = ([(f"own_{p}", f"the seat's {name}s ({p})")
               for p, name in zip(_XQ_PIECES, "king advisor bishop knight rook cannon pawn".split())]
              + [(f"opponent_{p}", f"the opponent's {p} pieces") for p in _XQ_PIECES]
              + [("red", "all ones when the seat plays Red"),
                 ("in_check", "all ones when the side to move is in check"),
                 ("last_move", "the from and to squares of the last move")])

    def __init__(self, game: Any, num_seats: int) -> None:
        super().__init__(game, num_seats)
        self._setup(10, 9)
        self.actions = FixedActions(
            8100, lambda m, _: m.from_sq * 90 + m.to_sq,
            "Discrete(8100): from*90 + to, squares rank*9 + file (ICCS: file a..i = 0..8, "
            "rank 0..9 from Red's side); the same numbering as the planes",
            batch=lambda ms: [m.from_sq * 90 + m.to_sq for m in ms])

    def fill(self, view: dict[str, Any], seat: int, out: np.ndarray) -> None:
        red = _seat_red(view, seat)
        letters = np.frombuffer("".join(view["board"]).encode(), np.uint8)    # rank 9 first
        planes = _XQ_PLANE_OF_BYTE[red][letters]           # plane * 90 of each square, -1 empty
        pieces = planes >= 0
        out.reshape(-1)[(planes + _XQ_SQUARE)[pieces]] = 1      # plane * 90 + rank * 9 + file
        out[14] = red
        out[15] = bool(view.get("in_check"))
        last = view.get("last_move")
        if last:
            for sq in (last[:2], last[2:4]):
                out[16, int(sq[1]), ord(sq[0]) - ord("a")] = 1


def _seat_red(view: dict[str, Any], seat: int) -> bool:
    """Red is seat 0 in qipai's xiangqi (the view's ``turn`` names the seat to move and
    ``turn_colour`` its colour)."""
    if view.get("turn") == seat:
        return view.get("turn_colour") == "red"
    return view.get("turn_colour") != "red"


def _xq_type(ch: str) -> str:
    c = ch.upper()
    return {"E": "B", "H": "N"}.get(c, c)


# per side (True: the seat plays Red), a board letter -> its plane's first flat index (plane * 90)
_XQ_PLANE = {red: {ch: ((0 if ch.isupper() == red else 7) + _XQ_PIECES.index(_xq_type(ch))) * 90
                   for ch in "KABNRCPEHkabnrcpeh"}
             for red in (True, False)}
# the same by the letter's byte value (-1 for any other byte: "." is an empty point)
_XQ_PLANE_OF_BYTE = {red: np.array([planes.get(chr(b), -1) for b in range(256)], np.intp)
                     for red, planes in _XQ_PLANE.items()}
# rank * 9 + file of each square of the view's board rows read in order (rank 9 first)
_XQ_SQUARE = np.array([(9 - i) * 9 + f for i in range(10) for f in range(9)], np.intp)
