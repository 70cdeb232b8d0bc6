"""The fast core of the gomoku/renju referee: the board, lines, fives and Black's forbidden points.

Encoding (plain Python values, so it stays fast):

* a **point** is ``row * 15 + col`` with ``col`` 0..14 = ``a``..``o`` and ``row`` 0..14 = ranks
  1..15 (Black's side at the bottom); ``h8`` is point 112;
* the :class:`Board` keeps a padded grid of 25 x 25 one-character cells (``.`` empty, ``x``
  black, ``o`` white, ``#`` off the board) so that the 11 cells of a line centred on any point,
  five each side, are one slice with a step: ``cells[c - 5 * d : c + 5 * d + 1 : d]``.

The forbidden-move test implements rules/gomoku.md §3.2-3.3 (RIF 1996/1998 definitions):

* the shape of one direction through the tested point ``p`` depends only on those 11 cells, so
  it is computed once per distinct 11-character string and cached (:func:`line_shape`): whether
  ``p`` makes a five or an overline there, how many fours, and the points ``e`` that would turn
  the line into a straight four containing ``p`` and ``e`` (candidate threes);
* a candidate three counts only if one of its points ``e`` is not itself forbidden once ``p`` is
  on the board, which is the recursive part; it runs only when at least two directions hold
  candidate threes, so almost every test is four cached look-ups.

The scan of every forbidden point is kept from one position to the next
(:class:`ForbiddenScan`): a verdict reads only the cells on the four lines through its point,
five each side, and, when it recursed, those through the points it recursed into; a point
whose read cells did not change keeps its verdict.
"""

from __future__ import annotations

from functools import cache

SIZE = 15
NPOINTS = SIZE * SIZE
PAD = 5
WIDTH = SIZE + 2 * PAD            # 25
CENTER = 7 * SIZE + 7             # h8
COLUMNS = "abcdefghijklmno"

EMPTY, BLACK, WHITE, EDGE = ".", "x", "o", "#"
# padded-grid steps of the four directions: horizontal, vertical, diagonal, anti-diagonal
DIRECTIONS = (1, WIDTH, WIDTH + 1, WIDTH - 1)

OVERLINE, DOUBLE_FOUR, DOUBLE_THREE = "overline", "double_four", "double_three"
FIVE = "five"


def point(col: int, row: int) -> int:
    """The point at 0-based ``col`` (a..o) and ``row`` (rank 1..15 -> 0..14)."""
    return row * SIZE + col


def point_name(p: int) -> str:
    """``h8`` style name of point ``p`` (lowercase column letter, 1-based row)."""
    return COLUMNS[p % SIZE] + str(p // SIZE + 1)


def cell_of(p: int) -> int:
    """Index in the padded grid of point ``p``."""
    return (p // SIZE + PAD) * WIDTH + p % SIZE + PAD


CELL = tuple(cell_of(p) for p in range(NPOINTS))
POINT_OF_CELL = {c: p for p, c in enumerate(CELL)}
# the cells a verdict at a cell reads before any recursion: its four lines, five cells each
# side (the windows of line_shape); a cell is on another's lines exactly when that one is on
# its lines, so these are also the cells whose verdicts read a given cell
NEAR = {c: frozenset(c + k * d for d in DIRECTIONS for k in range(-5, 6)) for c in CELL}


# ----- one line through the tested point -----------------------------------------------------

def _run(a: list[str], i: int) -> tuple[int, int]:
    """Bounds (inclusive) of the black run through index ``i`` of the 11-cell list ``a``."""
    lo = i
    while lo > 0 and a[lo - 1] == BLACK:
        lo -= 1
    hi = i
    while hi < 10 and a[hi + 1] == BLACK:
        hi += 1
    return lo, hi


@cache
def line_shape(window: str) -> tuple[bool, bool, int, tuple[int, ...]]:
    """Shape made by a black stone at the centre of an 11-cell line ``window``.

    ``window`` holds the cells from 5 before to 5 after the tested point (``.`` ``x`` ``o``
    ``#``); its centre is taken as black whatever it holds. Returns ``(five, overline, fours,
    threes)``:

    * ``five``: the run through the centre is exactly five stones;
    * ``overline``: the run is six or more;
    * ``fours``: the number of empty points ``e`` such that adding ``e`` makes a five containing
      the centre and ``e``, counting the two ends of a straight four (run of exactly four) once;
    * ``threes``: offsets (-3..3) of the empty points ``e`` such that adding ``e`` gives a
      straight four (a run of exactly four with both ends empty, each end making exactly five)
      containing the centre and ``e``. Empty when the line holds a five, an overline or a four:
      a line is classified by its strongest shape.
    """
    a = list(window)
    a[5] = BLACK
    lo, hi = _run(a, 5)
    length = hi - lo + 1
    if length == 5:
        return True, False, 0, ()
    if length >= 6:
        return False, True, 0, ()
    fours = 0
    for e in range(1, 10):
        if a[e] != EMPTY:
            continue
        a[e] = BLACK
        l2, h2 = _run(a, 5)
        if h2 - l2 == 4 and l2 <= e <= h2:
            fours += 1
        a[e] = EMPTY
    if fours == 2 and length == 4:
        fours = 1                       # the two ends of one straight four
    if fours:
        return False, False, fours, ()
    threes = []
    for e in range(2, 9):
        if a[e] != EMPTY:
            continue
        a[e] = BLACK
        l2, h2 = _run(a, 5)
        if (h2 - l2 == 3 and l2 <= e <= h2 and a[l2 - 1] == EMPTY and a[h2 + 1] == EMPTY
                and a[l2 - 2] != BLACK and a[h2 + 2] != BLACK):
            threes.append(e - 5)
        a[e] = EMPTY
    return False, False, 0, tuple(threes)


# ----- the board -----------------------------------------------------------------------------

class Board:
    """A 15 x 15 board of black and white stones (no rules of turn or result).

    ``cells`` is the padded grid described in the module docstring; use :meth:`get`,
    :meth:`place` and :meth:`remove` with points (0..224), not cells. ``open`` is a
    ``bytearray`` of one flag per point, ``1`` where it is empty (kept by :meth:`place` and
    :meth:`remove`; read only).
    """

    __slots__ = ("cells", "open", "_forbidden")
    _forbidden: ForbiddenScan | None

    def __init__(self) -> None:
        cells = [EDGE] * (WIDTH * WIDTH)
        for c in CELL:
            cells[c] = EMPTY
        self.cells = cells
        self.open = bytearray(b"\x01" * NPOINTS)
        self._forbidden = None

    def copy(self) -> Board:
        b = Board.__new__(Board)
        b.cells = self.cells[:]
        b.open = self.open[:]
        b._forbidden = self._forbidden
        return b

    def get(self, p: int) -> str:
        """``.`` (empty), ``x`` (black) or ``o`` (white) at point ``p``."""
        return self.cells[CELL[p]]

    def place(self, p: int, colour: str) -> None:
        self.cells[CELL[p]] = colour
        self.open[p] = colour == EMPTY

    def remove(self, p: int) -> None:
        self.cells[CELL[p]] = EMPTY
        self.open[p] = 1

    def stones(self, colour: str) -> list[int]:
        cells = self.cells
        return [p for p in range(NPOINTS) if cells[CELL[p]] == colour]

    def empties(self) -> list[int]:
        cells = self.cells
        return [p for p in range(NPOINTS) if cells[CELL[p]] == EMPTY]

    # ----- lines ---------------------------------------------------------------------------
    def run_lengths(self, p: int, colour: str) -> tuple[int, int, int, int]:
        """Length of the ``colour`` run through ``p`` in each direction, ``p`` counted as
        ``colour`` whatever it holds."""
        cells = self.cells
        c = CELL[p]
        out = []
        for d in DIRECTIONS:
            n = 1
            i = c + d
            while cells[i] == colour:
                n += 1
                i += d
            i = c - d
            while cells[i] == colour:
                n += 1
                i -= d
            out.append(n)
        return out[0], out[1], out[2], out[3]

    def line_through(self, p: int, length: int, colour: str) -> list[int] | None:
        """The points of the first run through ``p`` of exactly ``length`` (or, when ``length``
        is 0, the longest run) of ``colour`` stones, ``p`` included; None if there is none."""
        cells = self.cells
        c = CELL[p]
        best: list[int] | None = None
        for d in DIRECTIONS:
            lo = c
            while cells[lo - d] == colour:
                lo -= d
            hi = c
            while cells[hi + d] == colour:
                hi += d
            run = [POINT_OF_CELL[i] for i in range(lo, hi + 1, d)]
            if length and len(run) == length:
                return run
            if not length and (best is None or len(run) > len(best)):
                best = run
        return best

    # ----- Black's forbidden points (renju) ------------------------------------------------
    def forbidden(self, p: int) -> str | None:
        """Why a black stone at the empty point ``p`` would be forbidden, or None if it is not.

        Returns ``"overline"``, ``"double_four"`` or ``"double_three"`` (rules/gomoku.md §3.3);
        a stone that makes an exact five is never forbidden. The board is left unchanged.
        """
        kind = self._classify(CELL[p])
        return None if kind is FIVE else kind

    def _classify(self, c: int, centres: set[int] | None = None) -> str | None:
        """FIVE, a forbidden kind, or None (an ordinary stone) for a black stone at cell ``c``.
        ``centres`` (optional) gathers the cells of the recursive verdicts it needed."""
        cells = self.cells
        shapes = []
        fours = 0
        overline = False
        for d in DIRECTIONS:
            shape = line_shape("".join(cells[c - 5 * d:c + 5 * d + 1:d]))
            if shape[0]:
                return FIVE
            if shape[1]:
                overline = True
            fours += shape[2]
            if shape[3]:
                shapes.append((d, shape[3]))
        if overline:
            return OVERLINE
        if fours >= 2:
            return DOUBLE_FOUR
        if len(shapes) < 2:
            return None
        # A candidate three is real when one of its extension points e is an ordinary stone
        # with c on the board: e neither makes a five (§3.2 condition 1) nor is forbidden (3).
        cells[c] = BLACK
        try:
            real = 0
            left = len(shapes)
            for d, offsets in shapes:
                left -= 1
                for o in offsets:
                    e = c + o * d
                    if centres is not None:
                        centres.add(e)
                    if self._classify(e, centres) is None:
                        real += 1
                        break
                if real >= 2 or real + left < 2:
                    break
        finally:
            cells[c] = EMPTY
        return DOUBLE_THREE if real >= 2 else None

    def forbidden_points(self) -> dict[int, str]:
        """Every empty point where a black stone would be forbidden, with the reason, in point
        order (a new dict). The scan is kept with the cells it was made on: the same position
        answers at once, a later one re-examines only the points whose verdicts read a cell
        that changed (:class:`ForbiddenScan`)."""
        scan = self._forbidden
        if scan is None:
            scan = ForbiddenScan.full(self)
        elif scan.key != self.cells:
            scan = scan.follow(self)
        self._forbidden = scan
        return dict(scan.points)

    # ----- display ---------------------------------------------------------------------------
    def diagram(self, black: str = "x", white: str = "o", empty: str = ".") -> str:
        """Rows 15 to 1, one line each, columns a..o: the diagram format of the test fixtures."""
        cells = "".join(self.cells)
        rows = (cells[(row + PAD) * WIDTH + PAD:(row + PAD) * WIDTH + PAD + SIZE]
                for row in range(SIZE - 1, -1, -1))
        return "\n".join(rows).translate(str.maketrans({BLACK: black, WHITE: white, EMPTY: empty}))


class ForbiddenScan:
    """Black's forbidden points of one position, kept to be brought up to date.

    ``key`` is a copy of the board's cells the scan was made on, ``points`` maps each
    forbidden point to its kind (in point order) and ``deep`` each point whose verdict
    recursed (a candidate three tested through its extension points) to the cells it recursed
    into. A verdict at cell ``c`` reads the cells ``NEAR[c]`` and those near each cell it
    recursed into, nothing else; so after some cells change only the empty points near a
    changed cell, and the deep points whose recursion cells are near one, are classified
    again, and every other verdict is the one the whole scan would give."""

    __slots__ = ("key", "points", "deep")

    def __init__(self, key: list[str], points: dict[int, str], deep: dict[int, frozenset[int]]) -> None:
        self.key = key
        self.points = points
        self.deep = deep

    @classmethod
    def full(cls, board: Board) -> ForbiddenScan:
        """The scan of every empty point of ``board``."""
        cells = board.cells
        return cls._classified(board, [c for c in CELL if cells[c] == EMPTY], {}, {})

    def follow(self, board: Board) -> ForbiddenScan:
        """This scan brought to ``board``'s cells (a new scan; this one is unchanged)."""
        cells, key = board.cells, self.key
        changed = [c for c in CELL if cells[c] != key[c]]
        near: set[int] = set().union(*(NEAR[c] for c in changed))
        stale = near.union(c for c, inner in self.deep.items() if not inner.isdisjoint(near))
        points = {p: k for p, k in self.points.items() if CELL[p] not in stale}
        deep = {c: inner for c, inner in self.deep.items() if c not in stale}
        return self._classified(board, [c for c in stale if cells[c] == EMPTY], points, deep)

    @classmethod
    def _classified(cls, board: Board, todo: list[int], points: dict[int, str],
                    deep: dict[int, frozenset[int]]) -> ForbiddenScan:
        """The scan holding ``points`` and ``deep`` plus the verdicts of the empty cells
        ``todo``."""
        for c in todo:
            centres: set[int] = set()
            kind = board._classify(c, centres)
            if centres:
                deep[c] = frozenset(centres)
            if kind is not None and kind is not FIVE:
                points[POINT_OF_CELL[c]] = kind
        return cls(board.cells[:], dict(sorted(points.items())), deep)
