"""Declared sets (melds): chow, pung, kong (exposed or concealed).

Text forms of the rule file: ``[234m]`` chow, ``[555p]`` exposed pung, ``[5555p]`` exposed kong
(claimed from a discard or added to a pung), ``(5555p)`` concealed kong.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from qipai.core.errors import NotationError

from .tile import NAMES, format_tiles, parse_tiles

CHOW, PUNG, KONG = "chow", "pung", "kong"


@dataclass(frozen=True)
class Meld:
    """One declared set.

    ``tile`` is the lowest tile of a chow, the tile of a pung or kong. ``concealed`` is true only
    for a concealed kong. ``claimed`` is the tile taken from another seat (``None`` for a
    concealed kong), ``source`` the seat it came from, ``added`` marks a kong made by adding a
    tile to one's own pung (it can be robbed).
    """

    kind: str
    tile: int
    concealed: bool = False
    claimed: int | None = None
    source: int | None = None
    added: bool = False

    @property
    def tiles(self) -> list[int]:
        if self.kind == CHOW:
            return [self.tile, self.tile + 1, self.tile + 2]
        return [self.tile] * (3 if self.kind == PUNG else 4)

    @property
    def is_kong(self) -> bool:
        return self.kind == KONG

    def __str__(self) -> str:
        body = _body(self.kind, self.tile)
        return f"({body})" if self.concealed else f"[{body}]"

    def to_json(self) -> dict:
        out = {"kind": self.kind, "tiles": _body(self.kind, self.tile), "concealed": self.concealed}
        if self.claimed is not None:
            out["claimed"] = NAMES[self.claimed]
        if self.source is not None:
            out["source"] = self.source
        if self.added:
            out["added"] = True
        return out


@cache
def _body(kind: str, tile: int) -> str:
    """The tiles text of a set of ``kind`` on ``tile`` (``345m``, ``5555p``)."""
    return format_tiles(Meld(kind, tile).tiles)


def chow_starts(counts: list[int], t: int, barred: frozenset[int] = frozenset()) -> list[int]:
    """The lowest tiles of the chows a hand with the 34 ``counts`` can make with a claimed
    ``t``: the two other tiles held, none of them (nor ``t``) of a ``barred`` kind."""
    if t >= 27 or t in barred:
        return []
    out = []
    r = t % 9
    for low in (t - 2, t - 1, t):
        if 0 <= low - (t - r) <= 6:
            need = [x for x in (low, low + 1, low + 2) if x != t]
            if all(counts[x] and x not in barred for x in need):
                out.append(low)
    return out


def parse_meld(text: str, offset: int = 0) -> Meld:
    """``[234m]``, ``[555p]``, ``[5555p]`` or ``(5555p)``. Raises :class:`NotationError`."""
    text = text.strip()
    if len(text) < 2 or (text[0], text[-1]) not in (("[", "]"), ("(", ")")):
        raise NotationError(f"a meld is written [..] or (..), got {text!r} at position {offset + 1}", "meld",
                            code="notation.bad_meld")
    tiles = sorted(parse_tiles(text[1:-1], offset + 1))
    concealed = text[0] == "("
    where = f"{text!r} at position {offset + 1}"
    if any(t >= 34 for t in tiles):
        raise NotationError(f"a flower cannot be in a meld: {where}", "meld",
                            code="notation.bad_meld")
    if len(tiles) == 4 and len(set(tiles)) == 1:
        return Meld(KONG, tiles[0], concealed=concealed)
    if concealed:
        raise NotationError(f"only a kong can be concealed (..): {where}", "meld",
                            code="notation.bad_meld")
    if len(tiles) == 3 and len(set(tiles)) == 1:
        return Meld(PUNG, tiles[0])
    if (len(tiles) == 3 and tiles[0] < 27 and tiles[1] == tiles[0] + 1 and tiles[2] == tiles[0] + 2
            and tiles[0] // 9 == tiles[2] // 9):
        return Meld(CHOW, tiles[0])
    raise NotationError(f"not a chow, pung or kong: {where}", "meld",
                        code="notation.bad_meld")
