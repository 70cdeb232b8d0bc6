"""Junqi board geometry (rules/junqi.md §3): points, camps, headquarters, roads and railways.

Two boards share one model, :class:`Board`:

* ``luzhan`` (陆战棋, 2 players): 60 points named ``a1`` .. ``e12`` (column letter from South's
  left, row from South's back row). South owns rows 1-6, North rows 7-12.
* ``siguo`` (四国军棋, 4 players): 129 points, each seat's 30 named seat letter + local row +
  local column (``S31``), and the nine centre stations ``C11`` .. ``C33``.

Every seat owns a 6 x 5 area with local coordinates (r, c): r = 1 (front) .. 6 (back), c = 1 .. 5
from the owner's left. Camps are (2,2) (2,4) (3,3) (4,2) (4,4); headquarters (6,2) (6,4).

Points are integers ``0 .. n-1`` inside the engine; :attr:`Board.names` gives their names.
Precomputed per point: ``steps`` (every point one road or railway connection away), ``rays``
(for every railway line through the point and each direction, the points further along that
line, nearest first) and ``rail_adj`` (railway neighbours, for engineer runs).
"""

from __future__ import annotations

from dataclasses import dataclass, field

CAMPS = frozenset({(2, 2), (2, 4), (3, 3), (4, 2), (4, 4)})
HEADQUARTERS = frozenset({(6, 2), (6, 4)})
LOCAL_POINTS = tuple((r, c) for r in range(1, 7) for c in range(1, 6))   # local order (r, then c)

LUZHAN_SEATS = ("S", "N")
SIGUO_SEATS = ("S", "E", "N", "W")


def is_local_rail(r: int, c: int) -> bool:
    """True for a railway station of a player's area: rows 1 and 5, columns 1 and 5 of rows 1-5."""
    return r in (1, 5) or (r <= 5 and c in (1, 5))


@dataclass
class Board:
    """The geometry of one variant's board; see the module docstring."""

    variant: str
    seats: tuple[str, ...]
    names: list[str] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)
    area: list[int] = field(default_factory=list)          # owning seat, -1 for a centre station
    local: list[tuple[int, int] | None] = field(default_factory=list)
    camp: list[bool] = field(default_factory=list)
    hq: list[bool] = field(default_factory=list)
    rail: list[bool] = field(default_factory=list)
    area_points: list[list[int]] = field(default_factory=list)   # per seat, in local order
    lines: list[list[int]] = field(default_factory=list)
    rail_pairs: set[frozenset[int]] = field(default_factory=set)
    road_pairs: set[frozenset[int]] = field(default_factory=set)
    steps: list[tuple[int, ...]] = field(default_factory=list)
    rays: list[tuple[tuple[int, ...], ...]] = field(default_factory=list)
    rail_adj: list[tuple[int, ...]] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.names)

    def _add(self, name: str, seat: int, rc: tuple[int, int] | None) -> None:
        self.index[name] = len(self.names)
        self.names.append(name)
        self.area.append(seat)
        self.local.append(rc)
        self.camp.append(rc in CAMPS)
        self.hq.append(rc in HEADQUARTERS)
        self.rail.append(rc is None or is_local_rail(*rc))

    def point(self, text: str) -> int:
        """The index of the point written ``text`` (case-insensitive). Raises ``KeyError``."""
        key = text.strip()
        key = key.lower() if self.variant == "luzhan" else key.upper()
        return self.index[key]

    def local_point(self, seat: int, r: int, c: int) -> int:
        """The point at local (r, c) of ``seat``'s area."""
        return self.area_points[seat][(r - 1) * 5 + (c - 1)]

    def _finish(self, line_names: list[list[str]]) -> None:
        n = self.n
        self.area_points = [[] for _ in self.seats]
        for p in range(n):
            if self.area[p] >= 0:
                self.area_points[self.area[p]].append(p)
        for pts in self.area_points:
            pts.sort(key=lambda p: self.local[p])
        self.lines = [[self.index[x] for x in line] for line in line_names]
        for line in self.lines:
            for a, b in zip(line, line[1:]):
                self.rail_pairs.add(frozenset((a, b)))
        # roads: orthogonal neighbours in the same area that are not a railway pair, and
        # the four diagonals of every camp
        for seat in range(len(self.seats)):
            at = {self.local[p]: p for p in self.area_points[seat]}
            for (r, c), p in at.items():
                for dr, dc in ((0, 1), (1, 0)):
                    q = at.get((r + dr, c + dc))
                    if q is not None and frozenset((p, q)) not in self.rail_pairs:
                        self.road_pairs.add(frozenset((p, q)))
                if (r, c) in CAMPS:
                    for dr in (-1, 1):
                        for dc in (-1, 1):
                            q = at.get((r + dr, c + dc))
                            if q is not None:
                                self.road_pairs.add(frozenset((p, q)))
        nb: list[set[int]] = [set() for _ in range(n)]
        rail_nb: list[set[int]] = [set() for _ in range(n)]
        for pair in self.road_pairs | self.rail_pairs:
            a, b = tuple(pair)
            nb[a].add(b)
            nb[b].add(a)
        for pair in self.rail_pairs:
            a, b = tuple(pair)
            rail_nb[a].add(b)
            rail_nb[b].add(a)
        rays: list[list[tuple[int, ...]]] = [[] for _ in range(n)]
        for line in self.lines:
            for i, p in enumerate(line):
                if i + 1 < len(line):
                    rays[p].append(tuple(line[i + 1:]))
                if i > 0:
                    rays[p].append(tuple(reversed(line[:i])))
        self.steps = [tuple(sorted(s)) for s in nb]
        self.rail_adj = [tuple(sorted(s)) for s in rail_nb]
        self.rays = [tuple(r) for r in rays]


def _luzhan() -> Board:
    b = Board("luzhan", LUZHAN_SEATS)
    cols = "abcde"
    for row in range(1, 13):
        for col in range(1, 6):
            if row <= 6:
                seat, rc = 0, (7 - row, col)
            else:
                seat, rc = 1, (row - 6, 6 - col)
            b._add(f"{cols[col - 1]}{row}", seat, rc)
    lines = [
        [f"a{r}" for r in range(2, 12)],
        [f"e{r}" for r in range(2, 12)],
        [f"{c}6" for c in cols],
        [f"{c}7" for c in cols],
        [f"{c}2" for c in cols],
        [f"{c}11" for c in cols],
        ["c6", "c7"],
    ]
    b._finish(lines)
    return b


def siguo_xy(seat: str, r: int, c: int) -> tuple[int, int]:
    """Global (x, y) of local (r, c) of ``seat`` (``S``, ``E``, ``N``, ``W``) on the siguo board."""
    return {"S": (5 + c, 6 - r), "N": (11 - c, 10 + r), "E": (10 + r, 5 + c),
            "W": (6 - r, 11 - c)}[seat]


def _siguo() -> Board:
    b = Board("siguo", SIGUO_SEATS)
    for seat_i, s in enumerate(SIGUO_SEATS):
        for r, c in LOCAL_POINTS:
            b._add(f"{s}{r}{c}", seat_i, (r, c))
    for i in range(1, 4):
        for j in range(1, 4):
            b._add(f"C{i}{j}", -1, None)

    def side(s: str, c: int) -> list[str]:        # column c of rows 5..1 (back to front)
        return [f"{s}{r}{c}" for r in range(5, 0, -1)]

    def row(s: str, r: int, rev: bool = False) -> list[str]:
        out = [f"{s}{r}{c}" for c in range(1, 6)]
        return out[::-1] if rev else out

    lines = [
        side("S", 1) + ["C11", "C12", "C13"] + side("N", 5)[::-1],
        side("S", 5) + ["C31", "C32", "C33"] + side("N", 1)[::-1],
        ["S13", "C21", "C22", "C23", "N13"],
        side("W", 5) + ["C11", "C21", "C31"] + side("E", 1)[::-1],
        side("W", 1) + ["C13", "C23", "C33"] + side("E", 5)[::-1],
        ["W13", "C12", "C22", "C32", "E13"],
    ]
    for s in SIGUO_SEATS:
        lines.append(row(s, 1))
        lines.append(row(s, 5))
    lines += [
        side("S", 1) + side("W", 5)[::-1],
        side("S", 5) + side("E", 1)[::-1],
        side("N", 5) + side("W", 1)[::-1],
        side("N", 1) + side("E", 5)[::-1],
    ]
    b._finish(lines)
    return b


LUZHAN = _luzhan()
SIGUO = _siguo()
BOARDS = {"luzhan": LUZHAN, "siguo": SIGUO}
