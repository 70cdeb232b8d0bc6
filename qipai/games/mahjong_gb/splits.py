"""The standard splits of a hand's concealed tiles, read from tables by suit pattern.

A split is ``(chows, pungs, pair)``: the middle tiles of its chows and the tiles of its pungs,
each an ascending tuple, and its pair tile. Each suit's 9 counts (and the 7 honor counts) are
looked up once in a table of that pattern's splits, already placed at the suit's tiles and
grouped by kind of set, so that a hand's splits are the suits' splits joined: one tuple
concatenation per group, since the suits' tiles follow each other.
"""

from __future__ import annotations

from itertools import product

from qipai.tiles.shapes import CHOW, PAIR, PUNG, suit_splits

from .tilefans import ORDER

Split = tuple[tuple[int, ...], tuple[int, ...], int]
_Part = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]

# per suit (characters, dots, bamboo): 9 counts -> the pattern's splits as (chows, pungs, pair)
# with the pair a 0- or 1-tuple; () when the pattern has none
_SUITS: tuple[dict[tuple[int, ...], tuple[_Part, ...]], ...] = ({}, {}, {})
_HONORS: dict[tuple[int, ...], tuple[_Part, ...]] = {}


def _suit_parts(key: tuple[int, ...], base: int) -> tuple[_Part, ...]:
    parts = []
    for sp in suit_splits(key):         # each sorted by (type, rank)
        parts.append((tuple(base + r for ty, r in sp if ty == CHOW),
                      tuple(base + r for ty, r in sp if ty == PUNG),
                      tuple(base + r for ty, r in sp if ty == PAIR)))
    got = _SUITS[base // 9][key] = tuple(parts)
    return got


def _honor_parts(key: tuple[int, ...]) -> tuple[_Part, ...]:
    if any(n not in (0, 2, 3) for n in key):
        got: tuple[_Part, ...] = ()
    else:
        got = (((), tuple(27 + i for i, n in enumerate(key) if n == 3),
                tuple(27 + i for i, n in enumerate(key) if n == 2)),)
    _HONORS[key] = got
    return got


def splits(c: list[int]) -> list[Split]:
    """Every split of the 34 counts ``c`` into sets and exactly one pair, in the reference
    calculator's order (by the sets' lowest tiles, pungs before chows); ``[]`` for none."""
    k0, k1, k2, kh = tuple(c[0:9]), tuple(c[9:18]), tuple(c[18:27]), tuple(c[27:34])
    s0 = _SUITS[0].get(k0)
    if s0 is None:
        s0 = _suit_parts(k0, 0)
    s1 = _SUITS[1].get(k1)
    if s1 is None:
        s1 = _suit_parts(k1, 9)
    s2 = _SUITS[2].get(k2)
    if s2 is None:
        s2 = _suit_parts(k2, 18)
    h = _HONORS.get(kh)
    if h is None:
        h = _honor_parts(kh)
    if not (s0 and s1 and s2 and h):
        return []
    h = h[0]
    if len(s0) + len(s1) + len(s2) == 3:      # one split per suit: most hands
        (a,), (b,), (d,) = s0, s1, s2
        pair = a[2] + b[2] + d[2] + h[2]
        if len(pair) != 1:
            return []
        return [(a[0] + b[0] + d[0], a[1] + b[1] + d[1] + h[1], pair[0])]
    out = []
    for a, b, d in product(s0, s1, s2):
        pair = a[2] + b[2] + d[2] + h[2]
        if len(pair) != 1:
            return []     # the pair count is the same in every split of a pattern
        out.append((a[0] + b[0] + d[0], a[1] + b[1] + d[1] + h[1], pair[0]))
    out.sort(key=_order)
    return out


def _order(split: Split) -> tuple[tuple[int, int], ...]:
    chows, pungs, _pair = split
    return tuple(sorted([(ORDER[t - 1], 1) for t in chows] + [(ORDER[t], 0) for t in pungs]))
