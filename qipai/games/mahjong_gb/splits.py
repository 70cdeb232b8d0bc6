"""The standard splits of a hand's concealed tiles, read from tables by suit pattern.

A split is ``(chows, pungs, pair, chow key, pung key)``: the middle tiles of its chows and the
tiles of its pungs, each an ascending tuple, its pair tile, and the keys of its chows and of its
pungs in the group tables of :mod:`.combos` (:func:`~.combos.chow_key`,
:func:`~.combos.pung_key`). Each suit's 9 counts (and the 7 honor counts) are looked up once in a
table of that pattern's splits, already placed at the suit's tiles and grouped by kind of set,
so that a hand's splits are the suits' splits joined: one tuple concatenation per group, since
the suits' tiles follow each other, and a sum per key.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Final

from qipai.tiles.shapes import CHOW, PAIR, PUNG, suit_splits

from .combos import chow_key, pung_key
from .tilefans import ORDER

Split = tuple[tuple[int, ...], tuple[int, ...], int, int, int]
# one suit's part of a split: (chows, pungs, pair as a 0- or 1-tuple, chow key, pung key)
_Part = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int]

_Entry = tuple[tuple[_Part, ...], int, int]
# per suit (characters, dots, bamboo): 9 counts as bytes -> (the pattern's splits as parts,
# () when the pattern has none; the kinds held as a mask; the shape flags below)
_SUITS: Final[tuple[dict[bytes, _Entry], dict[bytes, _Entry], dict[bytes, _Entry]]] = ({}, {}, {})
_HONORS: Final[dict[bytes, _Entry]] = {}


def _suit_parts(key: tuple[int, ...], base: int) -> tuple[_Part, ...]:
    parts = []
    for sp in suit_splits(key):         # each sorted by (type, rank)
        by_type: dict[int, list[int]] = {CHOW: [], PUNG: [], PAIR: []}
        for ty, r in sp:
            by_type[ty].append(base + r)
        parts.append(_part(tuple(by_type[CHOW]), tuple(by_type[PUNG]), tuple(by_type[PAIR])))
    return tuple(parts)


def _part(chows: tuple[int, ...], pungs: tuple[int, ...], pair: tuple[int, ...]) -> _Part:
    return (chows, pungs, pair, chow_key(chows), pung_key(pungs))


def _honor_parts(key: tuple[int, ...]) -> tuple[_Part, ...]:
    if any(n not in (0, 2, 3) for n in key):
        got: tuple[_Part, ...] = ()
    else:
        got = (_part((), tuple([27 + i for i, n in enumerate(key) if n == 3]),
                     tuple([27 + i for i, n in enumerate(key) if n == 2])),)
    return got


# the shape flags of a pattern (:func:`read`): every kind held at most once; no kind held once
# or three times; a kind held more than four times
SINGLES: Final = 1
EVEN: Final = 2
OVER: Final = 4


def _flags(key: bytes) -> int:
    return ((SINGLES if max(key) <= 1 else 0) | (EVEN if 1 not in key and 3 not in key else 0)
            | (OVER if max(key) > 4 else 0))


# per one-suit pattern (9 counts as bytes): its entry at ranks 0..8, which the three suits share
_RANKS: Final[dict[bytes, _Entry]] = {}


def _suit_entry(key: bytes, base: int) -> tuple[tuple[_Part, ...], int, int]:
    """The entry of the pattern ``key`` in the suit starting at tile ``base``: the pattern's
    entry at ranks 0..8 (worked out once for the three suits) moved up by ``base``."""
    ranks = _RANKS.get(key)
    if ranks is None:
        mask = 0
        for r, n in enumerate(key):
            if n:
                mask |= 1 << r
        ranks = _RANKS[key] = (_suit_parts(tuple(key), 0), mask, _flags(key))
    parts, mask, flags = ranks
    if base:
        up = base.__add__
        parts = tuple(_part(tuple(map(up, chows)), tuple(map(up, pungs)), tuple(map(up, pair)))
                      for chows, pungs, pair, _c, _p in parts)
        mask <<= base
    got = _SUITS[base // 9][key] = (parts, mask, flags)
    return got


def _honor_entry(key: bytes) -> tuple[tuple[_Part, ...], int, int]:
    mask = 0
    for i, n in enumerate(key):
        if n:
            mask |= 1 << (27 + i)
    got = _HONORS[key] = (_honor_parts(tuple(key)), mask, _flags(key))
    return got


def read(c: Sequence[int]) -> tuple[list[Split], int, int]:
    """The 34 counts ``c`` read through the tables by suit pattern: ``(splits, kind mask,
    shape flags)``; the splits as :func:`splits` gives them, the kind mask with bit ``t`` set
    for each kind held, the flags those of :data:`SINGLES`, :data:`EVEN` (every suit has them)
    and :data:`OVER` (some suit has it). Each suit's key is its 9 counts as bytes (one bytes
    object of the 34 counts, sliced)."""
    b = c if isinstance(c, bytes) else bytes(c)
    k0, k1, k2, kh = b[0:9], b[9:18], b[18:27], b[27:34]
    s0 = _SUITS[0].get(k0) or _suit_entry(k0, 0)
    s1 = _SUITS[1].get(k1) or _suit_entry(k1, 9)
    s2 = _SUITS[2].get(k2) or _suit_entry(k2, 18)
    h = _HONORS.get(kh) or _honor_entry(kh)
    m = s0[1] | s1[1] | s2[1] | h[1]
    f0, f1, f2, fh = s0[2], s1[2], s2[2], h[2]
    flags = (f0 & f1 & f2 & fh & (SINGLES | EVEN)) | ((f0 | f1 | f2 | fh) & OVER)
    return _join(s0[0], s1[0], s2[0], h[0]), m, flags


def splits(c: Sequence[int]) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
    """Every split of the 34 counts ``c`` into sets and exactly one pair, in the reference
    calculator's order (by the sets' lowest tiles, pungs before chows), each ``(chows, pungs,
    pair)``; ``[]`` for none."""
    return [(chows, pungs, pair) for chows, pungs, pair, _c, _p in read(c)[0]]


def _join(s0: tuple[_Part, ...], s1: tuple[_Part, ...], s2: tuple[_Part, ...],
          hs: tuple[_Part, ...]) -> list[Split]:
    """The splits of a hand from its suits' and honors' splits."""
    if not (s0 and s1 and s2 and hs):
        return []
    h = hs[0]
    # exactly one pair (the pair count is the same in every split of a pattern)
    if len(s0[0][2]) + len(s1[0][2]) + len(s2[0][2]) + len(h[2]) != 1:
        return []
    if len(s0) + len(s1) + len(s2) == 3:      # one split per suit: most hands
        return [_joined(s0[0], s1[0], s2[0], h)]
    out = [_joined(a, b, d, h) for a, b, d in product(s0, s1, s2)]
    out.sort(key=_order)
    return out


def _joined(a: _Part, b: _Part, d: _Part, h: _Part) -> Split:
    """The split of the suits' parts ``a``, ``b``, ``d`` and the honors' ``h``."""
    return (a[0] + b[0] + d[0], a[1] + b[1] + d[1] + h[1], (a[2] or b[2] or d[2] or h[2])[0],
            a[3] + b[3] + d[3], a[4] + b[4] + d[4] + h[4])


def _order(split: Split) -> tuple[tuple[int, int], ...]:
    chows, pungs = split[0], split[1]
    return tuple(sorted([(ORDER[t - 1], 1) for t in chows] + [(ORDER[t], 0) for t in pungs]))
