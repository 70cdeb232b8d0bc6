"""Encodings of the piece-moving games: chinese-checkers (跳棋) and junqi (军棋).

* chinese-checkers: planes ``(9, 17, 17)`` over the axial grid ``(r + 8, q + 8)`` of the 121
  holes; actions are from-to pairs of hole indices, ``from * 121 + to`` (a multi-jump is named
  by its start and end: the game lists one path per destination).
* junqi: planes ``(C, points)`` over the board's points in index order (junqi's board is a
  graph of posts, railways and camps, not a grid; ``qipai.games.junqi.board`` names the
  points); actions are the layout choices of the layout phase (16 slots, an index into the
  legal list) and then from-to pairs of points.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from qipai.games.chinese_checkers.board import CAMPS, COORDS, HOLE_NAMES, LAYOUTS, NHOLES, OPPOSITE
from qipai.games.junqi.board import BOARDS
from qipai.games.junqi.pieces import CODE

from .base import Encoder, FixedActions, TensorFollower, relative, unless_absent


class CheckersEncoder(Encoder):
    def __init__(self, game: Any, num_seats: int) -> None:
        super().__init__(game, num_seats)
        self.camps = LAYOUTS[num_seats]
        self.shape = (9, 17, 17)
        self.high = np.ones(self.shape, np.float32)
        self.rows = ([(f"player_{k}", "17×17",
                       unless_absent(f"marbles of the seat {k} places after this one (0 = itself)",
                                     k, range(num_seats, 6), f"{num_seats} seats play"))
                      for k in range(6)]
                     + [("holes", "17×17", "ones on the 121 holes of the board"),
                        ("home", "17×17", "the seat's home camp"),
                        ("target", "17×17", "the seat's target camp (the opposite camp)")])
        holes = np.zeros((17, 17), np.float32)
        for q, r in COORDS:
            holes[r + 8, q + 8] = 1
        # per seat: the planes that do not change (holes, home camp, target camp)
        self.fixed = np.zeros((num_seats, 3, 17, 17), np.float32)
        for seat in range(num_seats):
            self.fixed[seat, 0] = holes
            home = self.camps[seat]
            for plane, camp in ((1, home), (2, OPPOSITE[home])):
                for i in CAMPS[camp]:
                    q, r = COORDS[i]
                    self.fixed[seat, plane, r + 8, q + 8] = 1
        self.cell = {name: (COORDS[i][1] + 8, COORDS[i][0] + 8) for i, name in enumerate(HOLE_NAMES)}
        self.hole_cell = [(r + 8, q + 8) for q, r in COORDS]      # by hole index
        self.actions = FixedActions(
            NHOLES * NHOLES, _jump_index,
            "Discrete(14641): from*121 + to, holes indexed as qipai.games.chinese_checkers.board.COORDS "
            "(axial q,r, rows from r=-8)",
            batch=_jump_slots)

    def encode(self, view: dict[str, Any], seat: int) -> np.ndarray:
        out = np.zeros(self.shape, np.float32)
        for player, holes in enumerate(view.get("marbles") or ()):
            self._place(out, seat, player, holes)
        out[6:] = self.fixed[seat]
        return out

    def _place(self, out: np.ndarray, seat: int, player: int, holes: list[str]) -> None:
        """Put ``player``'s marbles (``holes``) on its plane of ``out`` (a zeroed plane)."""
        if holes:
            cell = self.cell
            rows, cols = zip(*[cell[h] if h in cell else _cell_of(h) for h in holes])
            out[relative(seat, player, self.num_seats), rows, cols] = 1

    def follower(self, seat: int) -> TensorFollower:
        return CheckersTensor(self, seat)


class CheckersTensor(TensorFollower):
    """One seat's Chinese checkers tensor, kept: a move takes a marble off one hole and puts
    it on another, so only the holes the game names as changed since the seat's last
    observation (``state.seen_changes``, what ``view(seat)["marbles"]`` gained and lost) are
    written; the whole tensor is encoded from ``view(seat)`` at a new state object.
    ``update`` (from a followed view) keeps the per-seat marble sets instead."""

    def __init__(self, encoder: CheckersEncoder, seat: int) -> None:
        super().__init__(encoder, seat)
        self._out: np.ndarray | None = None
        self._marbles: list[set[str]] = []
        self._state: Any = None           # the state object of the kept tensor and its mark
        self._mark = 0

    def follow(self, state: Any, views: Any) -> np.ndarray:
        enc, out = self.encoder, self._out
        if state is not self._state or out is None:
            out = self._out = enc.encode(views.follow(state), self.seat)
            self._state, self._mark = state, state.seen_changes(self.seat)[0]
            self._marbles = []            # update() starts again from a whole view
            return out.copy()
        self._mark, changes = state.seen_changes(self.seat, self._mark)
        cell, seat, n = enc.hole_cell, self.seat, enc.num_seats
        for hole, owner in changes:
            r, c = cell[hole]
            out[:6, r, c] = 0
            if owner >= 0:
                out[(owner - seat) % n, r, c] = 1
        return out.copy()

    def update(self, view: dict[str, Any], delta: Any) -> np.ndarray:
        self._state = None                # the kept tensor follows views now, not the state
        marbles = view.get("marbles") or ()
        kept = self._marbles
        if self._out is None or len(marbles) != len(kept):
            self._out = self.encoder.encode(view, self.seat)
            self._marbles = [set(m) for m in marbles]
            return self._out.copy()
        out, enc = self._out, self.encoder
        cell = enc.cell
        for player, holes in enumerate(marbles):
            now, before = set(holes), kept[player]
            if now != before:
                plane = out[relative(self.seat, player, enc.num_seats)]
                for h in before - now:
                    plane[cell[h] if h in cell else _cell_of(h)] = 0
                for h in now - before:
                    plane[cell[h] if h in cell else _cell_of(h)] = 1
                kept[player] = now
        return out.copy()


# the chinese-checkers numbering's parts, module functions so that an env pickles
def _jump_index(move: Any, _position: int = 0) -> int:
    return move.path[0] * NHOLES + move.path[-1]


def _jump_slots(moves: Any) -> list[int]:
    return [m.path[0] * NHOLES + m.path[-1] for m in moves]


def _cell_of(hole: str) -> tuple[int, int]:
    """Row and column of a hole written ``q,r`` in the 17 × 17 planes."""
    q, r = map(int, hole.split(","))
    return r + 8, q + 8


_TYPES = [CODE[k] for k in sorted(CODE, key=lambda k: -k if isinstance(k, int) else 0)]


class JunqiEncoder(Encoder):
    """Planes over the board's points: for the seat's own pieces their kind (12 planes) and
    whether each has moved; for every other seat (relative) its occupied points, moved pieces
    and every identity the view shows (revealed flags, allies or open play); the static camps,
    headquarters and railway points; and a layout-phase flag."""

    layout_slots = 16

    def __init__(self, game: Any, num_seats: int) -> None:
        super().__init__(game, num_seats)
        self.board = BOARDS[game.options["variant"]]
        n, npts = num_seats, self.board.n
        self.kinds = _TYPES
        self._kind_of = {k: i for i, k in enumerate(self.kinds)}      # a piece's kind plane
        per_other = 2 + len(self.kinds)
        self.channels = len(self.kinds) + 1 + (n - 1) * per_other + 4
        self.shape = (self.channels, npts)
        self.high = np.ones(self.shape, np.float32)
        self.rows = ([(f"own_{k}", str(npts), f"the seat's pieces of kind {k}") for k in self.kinds]
                     + [("own_moved", str(npts), "the seat's pieces that have moved")]
                     + [(f"seat{r}_{what}", str(npts), f"seat {r} places after this one: {what}")
                        for r in range(1, n) for what in ["occupied", "moved", *self.kinds]]
                     + [("camp", str(npts), "camps (行营)"), ("headquarters", str(npts), "headquarters"),
                        ("railway", str(npts), "railway points"),
                        ("layout", str(npts), "all ones in the layout phase")])
        self.static = np.zeros((3, npts), np.float32)
        self.static[0] = self.board.camp
        self.static[1] = self.board.hq
        self.static[2] = self.board.rail
        L = self.layout_slots
        self.actions = FixedActions(
            L + npts * npts, self._index,
            f"Discrete({L + npts * npts}): 0..{L - 1} the layout choices of the layout phase (their "
            f"order in the legal list), then {L} + from*{npts} + to for a move (points in the board's "
            "index order)", batch=self._moves)

    def _index(self, action: Any, position: int) -> int:
        if hasattr(action, "frm"):
            idx = self.board.index
            return self.layout_slots + idx[action.frm] * self.board.n + idx[action.to]
        if position >= self.layout_slots:
            raise IndexError(f"layout choice {position} beyond the {self.layout_slots} layout slots")
        return position

    def _moves(self, actions: Any) -> list[int]:
        """The slots of a list of moves (a layout choice has no ``frm``: the list is then
        numbered one by one)."""
        idx, npts, base = self.board.index, self.board.n, self.layout_slots
        return [base + idx[a.frm] * npts + idx[a.to] for a in actions]

    def encode(self, view: dict[str, Any], seat: int) -> np.ndarray:
        out = np.zeros(self.shape, np.float32)
        idx = self.board.index
        ones: list[int] = []              # flat indices channel * points + point set to 1
        for p in view.get("pieces") or ():
            self.piece_ones(ones, seat, idx[p["point"]], p)
        if ones:
            out.reshape(-1)[ones] = 1
        out[-4:-1] = self.static
        out[-1] = view.get("phase") == "layout"
        return out

    def piece_ones(self, ones: list[int], seat: int, i: int, piece: dict[str, Any]) -> None:
        """Add to ``ones`` the flat indices (channel * points + ``i``) that a view's piece
        entry on point ``i`` sets to 1 in ``seat``'s tensor."""
        nk, npts = len(self.kinds), self.board.n
        k = (piece["seat"] - seat) % self.num_seats
        kind = self._kind_of.get(str(piece.get("piece")))
        if k == 0:
            if kind is not None:
                ones.append(kind * npts + i)
            if piece.get("moved"):
                ones.append(nk * npts + i)
        else:
            base = (nk + 1 + (k - 1) * (2 + nk)) * npts + i
            ones.append(base)
            if piece.get("moved"):
                ones.append(base + npts)
            if kind is not None:
                ones.append(base + (2 + kind) * npts)

    def follower(self, seat: int) -> TensorFollower:
        return JunqiTensor(self, seat)


class JunqiTensor(TensorFollower):
    """One seat's junqi tensor, kept: a move changes the pieces of one or two points (a
    seat's defeat in siguo clears its points), so only the points the game names as changed
    since the seat's last observation (``state.seen_changes``: each with its entry as
    ``view(seat)["pieces"]`` lists it) are written again. The whole tensor is encoded from
    ``view(seat)`` at a new state object and whenever the game says so (a new phase, a seat
    laid out, a flag revealed, the game's end)."""

    def __init__(self, encoder: JunqiEncoder, seat: int) -> None:
        super().__init__(encoder, seat)
        self._out: np.ndarray | None = None
        self._state: Any = None           # the state object of the kept tensor and its mark
        self._mark: Any = None

    def follow(self, state: Any, views: Any) -> np.ndarray:
        kept = self._mark if state is self._state else None
        self._mark, changes = state.seen_changes(self.seat, kept)
        self._state = state
        if changes is None:
            self._out = self.encoder.encode(views.follow(state), self.seat)
            return self._out.copy()
        out, enc, seat = self._out, self.encoder, self.seat
        if changes:
            pieces = out[:-4]             # the static planes and the layout flag stay
            ones: list[int] = []
            for i, entry in changes:
                pieces[:, i] = 0
                if entry is not None:
                    enc.piece_ones(ones, seat, i, entry)
            if ones:
                out.reshape(-1)[ones] = 1
        return out.copy()

    def update(self, view: dict[str, Any], delta: Any) -> np.ndarray:
        self._state = None                # followed by views now: the next follow starts whole
        return self.encoder.encode(view, self.seat)
