"""Tile sets, seeded shuffles and the wall.

:func:`tile_set` builds the physical tiles of a game (136 playing tiles, plus the 8 flowers for
144). :func:`shuffled` orders them with :class:`qipai.core.rng.DealRng`, so a seed gives the
same wall everywhere and the server can publish ``commitment(seed)`` before the deal.

A :class:`Wall` is what is left after the deal. Two layouts:

* ``single``: one list; normal draws take the head, replacement draws (after a flower or a
  kong) take the tail; the wall is empty when nothing is left.
* ``botzone4``: four segments, one per seat; every draw of a seat (replacements too) takes the
  head of its own segment; a seat's draw finds the wall empty when its own segment is.

Games that turn up an indicator tile (the wildcard of laizi mahjong) take it with
:meth:`Wall.draw` before play and keep it beside the wall; nothing else in the tile layer knows
about wildcards: a wildcard is a kind chosen per hand and handled by the hand evaluator.
"""

from __future__ import annotations

from collections.abc import Sequence

from qipai.core.errors import NotationError
from qipai.core.rng import DealRng

from .tile import FLOWER_BASE, NUM_FLOWERS, NUM_KINDS, format_tiles, is_flower, name, parse_tiles


def tile_set(flowers: bool = True, copies: int = 4) -> list[int]:
    """Every physical tile: ``copies`` of each of the 34 kinds, then the flowers (one each)."""
    out = [k for k in range(NUM_KINDS) for _ in range(copies)]
    if flowers:
        out.extend(range(FLOWER_BASE, FLOWER_BASE + NUM_FLOWERS))
    return out


def shuffled(rng: DealRng, flowers: bool = True) -> list[int]:
    """A seeded shuffle of :func:`tile_set` (Fisher-Yates on the DealRng stream)."""
    return rng.shuffle(tile_set(flowers))


def check_tile_counts(number: int, hands: Sequence[Sequence[int]], wall: Sequence[int],
                      *others: Sequence[int]) -> None:
    """The tiles of one hand's deal (the hands, the wall and any ``others``, an indicator for
    instance) together: at most four of each playing kind and one of each flower, so never
    more than a set. Raises :class:`NotationError` naming the hand ``number`` and the first
    kind over its count."""
    from collections import Counter

    tiles = [t for h in hands for t in h] + list(wall) + [t for o in others for t in o]
    for kind, n in sorted(Counter(tiles).items()):
        most = 1 if is_flower(kind) else 4
        if n > most:
            raise NotationError(f"hand {number}: {n} copies of {name(kind)} (a set has {most})", "deal",
                                code="notation.too_many_tiles", params={"tile": name(kind), "most": most})


def deal_hands(tiles: list[int], dealer: int, seats: int = 4,
               size: int = 13) -> tuple[list[list[int]], list[int]]:
    """Deal from the head of ``tiles``: blocks of 4 from the dealer in turn order, three rounds,
    then one each. Returns ``(hands by seat, remaining tiles)``."""
    hands: list[list[int]] = [[] for _ in range(seats)]
    pos = 0
    for _ in range(size // 4):
        for i in range(seats):
            hands[(dealer + i) % seats].extend(tiles[pos:pos + 4])
            pos += 4
    for _ in range(size % 4):
        for i in range(seats):
            hands[(dealer + i) % seats].append(tiles[pos])
            pos += 1
    return hands, tiles[pos:]


class Wall:
    """The undealt tiles and where the next draws come from (see the module doc)."""

    def __init__(self, tiles: Sequence[int] | None = None, *,
                 segments: Sequence[Sequence[int]] | None = None):
        if (tiles is None) == (segments is None):
            raise ValueError("give either tiles (single layout) or segments (botzone4 layout)")
        if tiles is not None:
            self.layout = "single"
            self.tiles = list(tiles)
            self.head = 0
            self.tail = len(self.tiles) - 1
            self.segments = None
            self.used = None
        else:
            self.layout = "botzone4"
            self.tiles = None
            self.segments = [list(s) for s in segments]
            self.used = [0] * len(self.segments)

    # ----- state -----
    def remaining(self, seat: int | None = None) -> int:
        """Tiles left (in ``seat``'s segment for the botzone4 layout, in all when ``seat`` is None)."""
        if self.layout == "single":
            return self.tail - self.head + 1
        if seat is None:
            return sum(len(s) - u for s, u in zip(self.segments, self.used))
        return len(self.segments[seat]) - self.used[seat]

    def is_empty(self, seat: int | None = None) -> bool:
        """True when ``seat`` cannot draw (single layout: nothing left at all)."""
        return self.remaining(seat if self.layout != "single" else None) <= 0

    def is_last(self, seat: int, seats: int = 4, next_seat: int | None = None) -> bool:
        """After a draw by ``seat``: was it the last tile of the wall? (single: the wall is now
        empty; botzone4: the segment of the next player in turn order is empty). ``next_seat``
        is that player; by default ``seat + 1``, which is right only while seat numbers follow
        the turn order."""
        if self.layout == "single":
            return self.remaining() == 0
        return self.remaining((seat + 1) % seats if next_seat is None else next_seat) == 0

    # ----- draws -----
    def draw(self, seat: int = 0) -> int:
        """A normal draw (head). Raises ``IndexError`` when the wall is empty for ``seat``."""
        if self.layout == "single":
            if self.head > self.tail:
                raise IndexError("the wall is empty")
            t = self.tiles[self.head]
            self.head += 1
            return t
        if self.used[seat] >= len(self.segments[seat]):
            raise IndexError("the wall is empty")
        t = self.segments[seat][self.used[seat]]
        self.used[seat] += 1
        return t

    def draw_tail(self, seat: int = 0) -> int:
        """A replacement draw (tail; own segment head in botzone4)."""
        if self.layout != "single":
            return self.draw(seat)
        if self.head > self.tail:
            raise IndexError("the wall is empty")
        t = self.tiles[self.tail]
        self.tail -= 1
        return t

    # ----- serialization -----
    def to_json(self) -> dict:
        """The wall as written in records: the whole undealt order (not the draw position)."""
        if self.layout == "single":
            return {"wall": format_tiles(self.tiles, sort=False)}
        return {"segments": [format_tiles(s, sort=False) for s in self.segments]}

    @classmethod
    def from_json(cls, data: dict) -> Wall:
        """Inverse of :meth:`to_json`. Raises :class:`NotationError` for bad tile text."""
        if "wall" in data:
            return cls(parse_tiles(data["wall"]))
        if "segments" in data:
            return cls(segments=[parse_tiles(s) for s in data["segments"]])
        raise NotationError("a wall needs 'wall' or 'segments'", "deal",
                            code="notation.deal_shape")

    def copy(self) -> Wall:
        w = Wall.__new__(Wall)
        w.layout = self.layout
        w.tiles = self.tiles
        w.segments = self.segments
        if self.layout == "single":
            w.head, w.tail = self.head, self.tail
            w.used = None
        else:
            w.used = list(self.used)
        return w
