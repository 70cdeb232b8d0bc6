"""Encodings of go, gomoku and xiangqi: planes ``(C, H, W)`` and point / from-to actions.

Planes are ``float32`` in ``[0, 1]``; row 0 of a plane is the row whose points have the
smallest index in the action numbering (go: the top row; gomoku: row 1; xiangqi: rank 0, Red's
back rank), so ``plane[r, c]`` and action ``r * W + c`` name the same point.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

import numpy as np

from qipai.games.go.actions import Move
from qipai.games.go.board import BLACK as GO_BLACK
from qipai.games.go.coords import GTP_COLUMNS, PASS
from qipai.games.gomoku.board import BLACK as GK_BLACK
from qipai.games.gomoku.board import PAD as _GK_PAD
from qipai.games.gomoku.board import WIDTH as _GK_WIDTH
from qipai.games.gomoku.notation import CHOOSE as GK_CHOOSE
from qipai.games.gomoku.notation import CLAIM as GK_CLAIM
from qipai.games.gomoku.notation import PASS as GK_PASS
from qipai.games.gomoku.notation import PLACE as GK_PLACE
from qipai.games.gomoku.notation import SWAP as GK_SWAP
from qipai.games.gomoku.notation import Action as GomokuAction
from qipai.games.gomoku.rules import COLOUR_NAMES
from qipai.games.xiangqi.fen import piece_letter

from .base import Encoder, FixedActions, ItemWrites, TensorFollower, unless_absent


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
_MOVE_ONLY = frozenset((Move,))
_POINT = attrgetter("point")


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
        self.actions = FixedActions(size, self._index, doc, batch=self._points, direct=self._direct)

    @staticmethod
    def _direct(state: Any, seat: int, to_act: tuple) -> tuple[bytearray, Any] | None:
        """The play phase's mask from the engine's legal-point flags (points, then the pass:
        ``state.legal_flags()``) and its table of moves (``legal_set.table``: the move of
        each point, then the pass), as action slots; ``None`` in the marking phase."""
        if state.phase != "play" or state.result is not None or seat not in to_act:
            return None
        return state.legal_flags(), state.legal_set.table

    def _points(self, actions: Any) -> list[int]:
        if set(map(type, actions)) - _MOVE_ONLY:
            raise ValueError("not only stones and passes")
        out = list(map(_POINT, actions))
        if out and out[-1] == PASS:       # the pass: the play phase lists it last
            out[-1] = self.n * self.n
        elif PASS in out:
            out[out.index(PASS)] = self.n * self.n
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


    def follower(self, seat: int) -> TensorFollower:
        return GoTensor(self, seat)


class GoTensor(ItemWrites, TensorFollower):
    """One seat's go tensor, kept between its observations and read from what the seat's
    view shows of the position (``state.seen_board``: the board, the moves, the seat's
    colour, the number of stones), without building the view. When every move since the
    seat's last observation put a stone and none was taken off (the stones on the board
    grew by the stones played), only the points played are written (their stone plane set,
    the empty plane cleared); otherwise (a capture, a new state object, another colour) the
    stone planes are written again from the board's codes in one look-up. The last-move
    point is cleared and set, the pass plane filled when it changes. ``update`` (from a
    followed view) encodes the view, as the default does."""

    def __init__(self, encoder: GoEncoder, seat: int) -> None:
        super().__init__(encoder, seat)
        self._out: np.ndarray | None = None
        self._flat: memoryview | None = None  # the same array, flat, written item by item
        n = encoder.n
        self._nn, self._nn3 = n * n, 3 * n * n   # a plane's size, the last-move plane's start
        self._state: Any = None           # the state object of the kept tensor
        self._mark = 0                    # how many of its moves the stone planes hold
        self._stones = 0                  # the stones on the board then
        self._colour: Any = None
        self._last = -1                   # the flat index set in the last-move plane, or -1
        self._passed = False

    def follow(self, state: Any, views: Any) -> np.ndarray:
        color, moves, colour, stones = state.seen_board(self.seat)
        count, mark, flat = len(moves), self._mark, self._flat
        if flat is None or state is not self._state or colour != self._colour or count < mark:
            self._restart(state, colour)
            self._planes(color, colour)
            flat = self._flat
        elif count != mark or stones != self._stones:
            nn = self._nn
            empty, placed = 2 * nn, 0
            for p in moves[mark:]:
                if p >= 0:                    # the point's stone, if it is still there
                    placed += 1
                    flat[p if color[p] == colour else nn + p] = 1.0
                    flat[empty + p] = 0.0
            if stones != self._stones + placed:
                self._planes(color, colour)   # a stone was taken off: the board again
        else:
            return self._out.copy()           # nothing changed
        self._mark, self._stones = count, stones
        last = moves[-1] if count else None
        at = self._nn3 + last if last is not None and last != PASS else -1
        if at != self._last:
            if self._last >= 0:
                flat[self._last] = 0.0
            if at >= 0:
                flat[at] = 1.0
            self._last = at
        passed = last == PASS
        if passed != self._passed:
            self._out[5] = passed
            self._passed = passed
        return self._out.copy()

    def _restart(self, state: Any, colour: Any) -> None:
        """A zero tensor for ``state`` (a new state object, or the seat's colour changed)."""
        out = self._out = np.zeros(self.encoder.shape, np.float32)
        # a memoryview's item writes cost a third of numpy's scalar writes
        self._flat = memoryview(out.reshape(-1))
        out[4] = colour == GO_BLACK
        self._state, self._colour, self._last, self._passed = state, colour, -1, False

    def _planes(self, color: Any, colour: Any) -> None:
        """The own, opponent and empty planes from the board's codes, one translation each."""
        codes, n = bytes(color), self.encoder.n
        self._out[:3] = np.frombuffer(
            b"".join([codes.translate(t) for t in _GO_PLANES_OF_CODE[colour == GO_BLACK]]),
            np.uint8).reshape(3, n, n)


# per side (True: the seat plays Black), the (own, opponent, empty) planes' values of each
# byte of the board rows: "X" Black, "O" White, "." empty
_GO_PLANES_OF_BYTE = {black: np.array([[float(chr(b) == ch) for b in range(256)]
                                       for ch in ("XO." if black else "OX.")], np.float32)
                      for black in (True, False)}
# the same by the board's point codes (0 empty, 1 Black, 2 White), as byte translations to
# 0 or 1, one per plane (own, opponent, empty)
_GO_PLANES_OF_CODE = {black: [bytes(int(c == k) for c in range(256))
                              for k in ((1, 2, 0) if black else (2, 1, 0))]
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
        opt = game.options
        offers = "two5" in opt.get("opening", "")
        renju = opt.get("ruleset") == "renju"
        # the planes these options never fill, and why (the documentation says so)
        never = {name: why for name, (no, why) in {
            "forbidden": (not renju or opt.get("forbidden_handling") == "claim",
                          "the view shows no forbidden points under these options"),
            "offered": (not offers, "this opening offers no points"),
            "may_swap": ("swap3" not in opt.get("opening", ""), "this opening has no swap"),
            "may_claim": (not renju or opt.get("forbidden_handling") != "claim",
                          "forbidden stones are not claimed under these options")}.items() if no}
        self.rows = [(name, shape, unless_absent(doc, name, never, never.get(name, "")))
                     for name, shape, doc in self.rows]
        base = 225 * 2 + len(_GOMOKU_EXTRA)
        size = base + (225 * 225 if offers else 0)
        doc = (f"Discrete({size}): p = (row-1)*15 + col (a=0) places a stone; 225+p chooses offered "
               "point p; 450 pass, 451 swap, 452 claim_forbidden"
               + ("; 453 + p1*225 + p2 offers the points p1 < p2 (two5 openings)" if offers else ""))
        self.actions = FixedActions(size, self._index, doc, batch=self._slots, direct=self._direct)

    @staticmethod
    def _direct(state: Any, seat: int, to_act: tuple) -> tuple[bytes, tuple] | None:
        """The mask of the play and choose phases from the engine's flags
        (``state.legal_flags()``: the points, then pass, swap, claim) as action slots (a
        placement's point ``p``, a choice's ``225 + p``, then 450-452), and the action of
        each slot; ``None`` in the offer phase."""
        flags = state.legal_flags() if seat in to_act else None
        if flags is None:
            return None
        if state.offered:                 # the choose phase: the points are choices
            return _GK_NO_POINTS + flags, _GK_ACTIONS
        return flags[:225] + _GK_NO_POINTS + flags[225:], _GK_ACTIONS

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


    def follower(self, seat: int) -> TensorFollower:
        return GomokuTensor(self, seat)


_GK_NO_POINTS = bytes(225)
# the action of each of the first 453 slots: a stone on each point, a choice of each point,
# pass, swap, claim_forbidden
_GK_ACTIONS = (tuple(GomokuAction(GK_PLACE, (p,)) for p in range(225))
               + tuple(GomokuAction(GK_CHOOSE, (p,)) for p in range(225))
               + tuple(GomokuAction(kind) for kind in (GK_PASS, GK_SWAP, GK_CLAIM)))


class GomokuTensor(TensorFollower):
    """One seat's gomoku tensor, kept between its observations and read from what the seat's
    view shows (``state.seen_board``: the board, the moves, the seat's colour, Black's
    forbidden points, the offered points and the choice flags), without building the view.
    A stone is never taken off, so only the stones of the moves since the seat's last
    observation are written into the stone planes (all of them again when the seat's colour
    changed, by a swap, or at a new state object); the last-move and forbidden points are
    cleared and set, the offered and flag planes written when they change. ``update`` (from a
    followed view) encodes the view, as the default does."""

    def __init__(self, encoder: GomokuEncoder, seat: int) -> None:
        super().__init__(encoder, seat)
        self._out: np.ndarray | None = None
        self._state: Any = None
        self._mark = 0                    # how many moves the stone planes hold
        self._colour: Any = None
        self._points: list[int] = []      # flat indices set in the last-move and forbidden planes
        self._rest: tuple = ()            # the offered points and the three flags written

    def follow(self, state: Any, views: Any) -> np.ndarray:
        cells, moves, colour, forbidden, offered, swap, claim, may_pass = state.seen_board(self.seat)
        out = self._out
        if state is not self._state or out is None or colour != self._colour \
                or len(moves) < self._mark:
            out = self._out = np.zeros(self.encoder.shape, np.float32)
            grid = np.frombuffer("".join(cells).encode(), "S1").reshape(_GK_WIDTH, _GK_WIDTH)
            grid = grid[_GK_PAD:_GK_PAD + 15, _GK_PAD:_GK_PAD + 15]
            mine = _GOMOKU_STONE.get(COLOUR_NAMES.get(colour))
            out[0] = grid == mine
            out[1] = (grid != b".") & (grid != mine)
            out[2] = grid == b"."
            out[4] = colour == GK_BLACK
            self._state, self._colour, self._points, self._rest = state, colour, [], ()
        else:
            flat = out.reshape(-1)
            for c, p in moves[self._mark:]:
                if p is not None:
                    flat[p if c == colour else 225 + p] = 1
                    flat[450 + p] = 0
        self._mark = len(moves)
        last = moves[-1][1] if moves else None
        points = [675 + last] if last is not None else []
        if forbidden:
            points += [1125 + p for p in forbidden]
        if points != self._points:
            flat = out.reshape(-1)
            flat[self._points] = 0
            flat[points] = 1
            self._points = points
        rest = (offered, bool(swap), bool(may_pass), bool(claim))
        if rest != self._rest:
            out[6:] = 0
            out[6].reshape(-1)[list(offered)] = 1
            out[7], out[8], out[9] = rest[1:]
            self._rest = rest
        return out.copy()


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
            8100, _xq_index,
            "Discrete(8100): from*90 + to, squares rank*9 + file (ICCS: file a..i = 0..8, "
            "rank 0..9 from Red's side); the same numbering as the planes",
            batch=_xq_slots)

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


    def follower(self, seat: int) -> TensorFollower:
        return XiangqiTensor(self, seat)


class XiangqiTensor(ItemWrites, TensorFollower):
    """One seat's xiangqi tensor, kept between its observations and read from what the
    seat's view shows (``state.seen_board``: the board, the moves, the check), without
    building the view: only the from and to squares of the moves played since the seat's
    last observation are cleared and set again from the board (the flat index set at each
    square is kept), the last-move and check planes written where they changed; a new state
    object is encoded whole. ``update`` (from a followed view) encodes the view, as the
    default does."""

    def __init__(self, encoder: XiangqiEncoder, seat: int) -> None:
        super().__init__(encoder, seat)
        self._out: np.ndarray | None = None
        self._flat: memoryview | None = None  # the same array, flat
        self._state: Any = None           # the state object of the kept tensor
        self._mark = 0                    # how many of its moves the kept tensor has seen
        self._at: list[int] = []          # per square, the flat index set for its piece, or -1
        self._last: tuple[int, ...] = ()  # the flat indices set in the last-move plane
        self._check = False

    def follow(self, state: Any, views: Any) -> np.ndarray:
        board, moves, check = state.seen_board(self.seat)
        red = self.seat == 0              # as _seat_red: Red is seat 0
        out, at, flat = self._out, self._at, self._flat
        if state is not self._state or out is None or len(moves) < self._mark:
            out = self._out = np.zeros(self.encoder.shape, np.float32)
            # item writes through a memoryview cost a third of numpy's scalar writes
            flat = self._flat = memoryview(out.reshape(-1))
            planes = _XQ_PLANE_OF_CODE[red]
            at[:] = [planes[c] + sq if c else -1 for sq, c in enumerate(board)]
            out.reshape(-1)[[i for i in at if i >= 0]] = 1
            out[14] = red
            self._state, self._last, self._check = state, (), False
        elif len(moves) > self._mark:
            planes = _XQ_PLANE_OF_CODE[red]
            for code in moves[self._mark:]:
                for sq in (code >> 7, code & 127):
                    if at[sq] >= 0:
                        flat[at[sq]] = 0.0
                    c = board[sq]
                    at[sq] = planes[c] + sq if c else -1
                    if c:
                        flat[at[sq]] = 1.0
        self._mark = len(moves)
        last = (_XQ_LAST + (moves[-1] >> 7), _XQ_LAST + (moves[-1] & 127)) if moves else ()
        if last != self._last:
            for i in self._last:
                flat[i] = 0.0
            for i in last:
                flat[i] = 1.0
            self._last = last
        if check != self._check:
            out[15] = check
            self._check = check
        return out.copy()


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
# the same by the board's piece codes (a list: read one square at a time; 0 is empty)
_XQ_PLANE_OF_CODE = {red: [planes.get(piece_letter(c), -1) if 0 < c & 7 < 8 else -1
                           for c in range(256)]
                     for red, planes in _XQ_PLANE.items()}
_XQ_LAST = 16 * 90                          # the last-move plane's start in the flat tensor


class _Slots(dict):
    """A xiangqi move's action slot, ``from * 90 + to``, kept per move (the game hands out
    the same few thousand moves)."""

    def __missing__(self, move: Any) -> int:
        slot = self[move] = move.from_sq * 90 + move.to_sq
        return slot


_XQ_SLOTS = _Slots()


# the xiangqi numbering's parts, module functions so that an env pickles
def _xq_index(move: Any, _position: int = 0) -> int:
    return move.from_sq * 90 + move.to_sq


def _xq_slots(moves: Any) -> list[int]:
    return list(map(_XQ_SLOTS.__getitem__, moves))
