"""Opening rules: the 26 designated openings, the RIF area limits, and board symmetries.

Designated openings (rules/gomoku.md §3.5): black h8, white h9 (direct, ``D1``..``D13``) or i9
(indirect, ``I1``..``I13``), and the black third stone of the table.
"""

from __future__ import annotations

from .board import CENTER, SIZE, point

# id -> (Chinese name, Japanese name, black third stone)
DESIGNATED: dict[str, tuple[str, str, str]] = {
    "D1": ("寒星", "Kansei", "h10"), "D2": ("溪月", "Keigetsu", "i10"),
    "D3": ("疏星", "Sosei", "j10"), "D4": ("花月", "Kagetsu", "i9"),
    "D5": ("残月", "Zangetsu", "j9"), "D6": ("雨月", "Ugetsu", "i8"),
    "D7": ("金星", "Kinsei", "j8"), "D8": ("松月", "Shogetsu", "h7"),
    "D9": ("丘月", "Kyugetsu", "i7"), "D10": ("新月", "Shingetsu", "j7"),
    "D11": ("瑞星", "Zuisei", "h6"), "D12": ("山月", "Sangetsu", "i6"),
    "D13": ("游星", "Yusei", "j6"),
    "I1": ("长星", "Chosei", "j10"), "I2": ("峡月", "Kyogetsu", "j9"),
    "I3": ("恒星", "Kosei", "j8"), "I4": ("水月", "Suigetsu", "j7"),
    "I5": ("流星", "Ryusei", "j6"), "I6": ("云月", "Ungetsu", "i8"),
    "I7": ("浦月", "Hogetsu", "i7"), "I8": ("岚月", "Rangetsu", "i6"),
    "I9": ("银月", "Gingetsu", "h7"), "I10": ("明星", "Meisei", "h6"),
    "I11": ("斜月", "Shagetsu", "g7"), "I12": ("名月", "Meigetsu", "g6"),
    "I13": ("彗星", "Suisei", "f6"),
}
OPENING_IDS = tuple(DESIGNATED)


def designated_stones(opening_id: str) -> tuple[str, str, str]:
    """The three stones (black, white, black) of a designated opening, as point names."""
    third = DESIGNATED[opening_id][2]
    return "h8", ("h9" if opening_id.startswith("D") else "i9"), third


def within(p: int, radius: int) -> bool:
    """True if ``p`` lies in the (2 * radius + 1)-square centred on h8."""
    return abs(p % SIZE - CENTER % SIZE) <= radius and abs(p // SIZE - CENTER // SIZE) <= radius


def area(radius: int) -> list[int]:
    return [p for p in range(SIZE * SIZE) if within(p, radius)]


# ----- symmetries ------------------------------------------------------------------------------

def _transforms():
    c = SIZE // 2

    def make(f):
        return tuple(point(*(v + c for v in f(p % SIZE - c, p // SIZE - c))) for p in range(SIZE * SIZE))

    return (
        make(lambda x, y: (x, y)), make(lambda x, y: (-y, x)), make(lambda x, y: (-x, -y)),
        make(lambda x, y: (y, -x)), make(lambda x, y: (-x, y)), make(lambda x, y: (x, -y)),
        make(lambda x, y: (y, x)), make(lambda x, y: (-y, -x)),
    )


TRANSFORMS: tuple[tuple[int, ...], ...] = _transforms()   # 8 permutations of the 225 points


def symmetries(stones: dict[int, str]) -> list[tuple[int, ...]]:
    """The board symmetries (as point permutations) that map ``stones`` (point -> colour) onto
    themselves; the identity is always one."""
    return [t for t in TRANSFORMS if all(stones.get(t[p]) == c for p, c in stones.items())]


def equivalent(p1: int, p2: int, stones: dict[int, str]) -> bool:
    """True if a symmetry of the position ``stones`` maps ``p1`` onto ``p2`` (rules §3.5 two5)."""
    return any(t[p1] == p2 for t in symmetries(stones))
