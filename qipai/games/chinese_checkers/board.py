"""The star board of Chinese checkers (rules §2): holes, directions, camps and seat layouts.

Holes are axial coordinates ``(q, r)`` with ``s = -q - r``; the board is the union of the two
big triangles ``q, r, s >= -4`` and ``q, r, s <= 4`` (121 holes). Inside the engine a hole is
an index ``0 .. 120`` in screen order (row ``r`` from -8 at the top, then ``q`` left to right);
:data:`COORDS` and :data:`INDEX` convert. Every table here is computed once at import.
"""

from __future__ import annotations

from ...core.errors import IllegalAction

#: the six neighbour directions (rules §2.1), in this fixed order
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (1, -1), (0, -1), (0, 1), (-1, 1))
DIRECTION_NAMES = ("E", "W", "NE", "NW", "SE", "SW")


def _on_board(q: int, r: int) -> bool:
    s = -q - r
    return (q >= -4 and r >= -4 and s >= -4) or (q <= 4 and r <= 4 and s <= 4)


COORDS: tuple[tuple[int, int], ...] = tuple(
    (q, r) for r in range(-8, 9) for q in range(-8, 9) if _on_board(q, r))
INDEX: dict[tuple[int, int], int] = {c: i for i, c in enumerate(COORDS)}
NHOLES = len(COORDS)          # 121

#: NEIGHBOUR[i][d]: the hole next to ``i`` in direction ``d``, or -1 off the board
NEIGHBOUR: tuple[tuple[int, ...], ...] = tuple(
    tuple(INDEX.get((q + dq, r + dr), -1) for dq, dr in DIRECTIONS) for q, r in COORDS)


#: HOPS[i]: for each direction where both exist, (the next hole, the hole after it) from ``i``
HOPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((m, NEIGHBOUR[m][d]) for d, m in enumerate(NEIGHBOUR[i]) if m >= 0 and NEIGHBOUR[m][d] >= 0)
    for i in range(len(COORDS)))


def _ray(i: int, d: int) -> tuple[int, ...]:
    out = []
    j = NEIGHBOUR[i][d]
    while j >= 0:
        out.append(j)
        j = NEIGHBOUR[j][d]
    return tuple(out)


#: RAY[i][d]: the holes from ``i`` (excluded) in direction ``d`` up to the edge, nearest first
RAY: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_ray(i, d) for d in range(6)) for i in range(NHOLES))

# ----- camps (rules §2.2) ---------------------------------------------------------------------
CAMP_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
OPPOSITE = {"N": "S", "S": "N", "NE": "SW", "SW": "NE", "NW": "SE", "SE": "NW"}


def _camp_of(q: int, r: int) -> str | None:
    s = -q - r
    if r <= -5:
        return "N"
    if q >= 5:
        return "NE"
    if s <= -5:
        return "SE"
    if r >= 5:
        return "S"
    if q <= -5:
        return "SW"
    if s >= 5:
        return "NW"
    return None


#: CAMP_OF[i]: the camp name of hole ``i``, or None in the central hexagon
CAMP_OF: tuple[str | None, ...] = tuple(_camp_of(q, r) for q, r in COORDS)
#: CAMPS[name]: the 10 holes of a camp, sorted
CAMPS: dict[str, tuple[int, ...]] = {
    name: tuple(i for i in range(NHOLES) if CAMP_OF[i] == name) for name in CAMP_NAMES}

#: home camps by number of players, in turn order: seat 0 is the first camp (rules §2.3)
LAYOUTS: dict[int, tuple[str, ...]] = {
    2: ("S", "N"),
    3: ("S", "NE", "NW"),
    4: ("S", "NE", "N", "SW"),
    6: ("S", "SE", "NE", "N", "NW", "SW"),
}

#: the corner hole of each camp (farthest from the centre): the goal of the distance heuristics
TIP = {name: max(CAMPS[name], key=lambda i: max(abs(COORDS[i][0]), abs(COORDS[i][1]),
                                                 abs(COORDS[i][0] + COORDS[i][1])))
       for name in CAMP_NAMES}


def distance(a: int, b: int) -> int:
    """Hex distance (number of steps on an empty board) between holes ``a`` and ``b``."""
    (q1, r1), (q2, r2) = COORDS[a], COORDS[b]
    dq, dr = q1 - q2, r1 - r2
    return max(abs(dq), abs(dr), abs(dq + dr))


# ----- hole notation (rules §6) -----------------------------------------------------------------
HOLE_NAMES = tuple(f"{q},{r}" for q, r in COORDS)

#: the column letters of the cell names: ``a`` to ``z`` without ``i`` (25 columns)
COLUMNS = "abcdefghjklmnopqrstuvwxyz"
#: CELL_NAMES[i]: the readable name of hole ``i`` (a project addition to rules §6, for people):
#: with S at the bottom, every hole stands straight above or below others of its column, so the
#: star has 25 columns, ``a`` at the far left to ``z`` at the far right, and 17 rows, 1 at S's tip
#: to 17 at N's. Hole ``(q, r)`` is column ``2q + r`` (from -12) and row ``9 - r``: the centre
#: ``0,0`` is ``n9``, S's tip ``-4,8`` is ``n1``, the holes of S's camp are ``n1``, ``m2 o2``,
#: ``l3 n3 p3``, ``k4 m4 o4 q4``.
CELL_NAMES = tuple(f"{COLUMNS[2 * q + r + 12]}{9 - r}" for q, r in COORDS)
CELL_INDEX = {name: i for i, name in enumerate(CELL_NAMES)}



def _diagram() -> tuple[tuple[int, ...], str]:
    """The board diagram's holes in reading order (rows r = -8 .. 8, N at the top; hole
    ``(q, r)`` in column ``2q + r + 16``) and a format string with ``{}`` in their places."""
    order, lines = [], []
    for r in range(-8, 9):
        line = [" "] * 33
        for h, (q, rr) in enumerate(COORDS):
            if rr == r:
                line[2 * q + r + 16] = "{}"
                order.append(h)
        lines.append("".join(line).rstrip())
    return tuple(order), "\n".join(lines)


DIAGRAM_HOLES, DIAGRAM_FORMAT = _diagram()


def hole_name(i: int) -> str:
    """``q,r`` of hole index ``i`` (e.g. ``-1,5``)."""
    return HOLE_NAMES[i]


def names_by_owner(board: list[int], seats: int) -> list[list[str]]:
    """Per seat ``0 .. seats - 1``, the ``q,r`` names of the holes ``board`` gives it (a board
    lists each hole's owner, a negative number for an empty hole), in hole order."""
    out: list[list[str]] = [[] for _ in range(seats)]
    for h, owner in enumerate(board):
        if 0 <= owner < seats:
            out[owner].append(HOLE_NAMES[h])
    return out


def cell_name(i: int) -> str:
    """The readable name of hole index ``i`` (:data:`CELL_NAMES`, e.g. ``n9`` for ``0,0``)."""
    return CELL_NAMES[i]


def parse_hole(text: str) -> int:
    """The index of the hole written ``q,r`` (spaces allowed) or by its cell name (``n9``, any
    case). Raises :class:`IllegalAction` for text that is neither or a point off the board."""
    if text.strip().lower() in CELL_INDEX:
        return CELL_INDEX[text.strip().lower()]
    parts = text.strip().strip("()[]").split(",")
    try:
        if len(parts) != 2:
            raise ValueError(text)
        q, r = int(parts[0]), int(parts[1])
    except ValueError:
        raise IllegalAction(f"a hole is written by its cell name (n9) or q,r (two integers), "
                            f"not {text.strip()!r}",
                            code="chinese-checkers.hole_written_q_r", params={"text": text.strip()}) from None
    return hole_at(q, r)


def hole_at(q: int, r: int) -> int:
    """The index of hole ``(q, r)``. Raises :class:`IllegalAction` when it is off the board."""
    i = INDEX.get((q, r))
    if i is None:
        raise IllegalAction(f"{q},{r} is not a hole of the board",
                            code="chinese-checkers.not_hole_board", params={"q": q, "r": r})
    return i


__all__ = ["CAMPS", "CAMP_NAMES", "CAMP_OF", "CELL_INDEX", "CELL_NAMES", "COLUMNS", "COORDS", "DIRECTIONS",
           "DIRECTION_NAMES", "HOPS", "INDEX", "LAYOUTS", "NEIGHBOUR", "NHOLES", "OPPOSITE", "RAY", "TIP",
           "cell_name", "distance", "hole_at", "hole_name", "parse_hole"]
