"""Tile facts of the 34 kinds and the fans that depend on the tiles alone (rule file 4.3 step 5).

Kinds are 0..33: characters 0-8, dots 9-17, bamboo 18-26, winds 27-30 (E S W N), dragons
31-33. A hand's tiles enter as a *kind mask*: an int with bit ``t`` set when kind ``t`` is held.
:func:`tile_fans` gives 无字, 缺一门, 混一色, 清一色, 五门齐, 断幺, 推不倒, 绿一色, 字一色,
清幺九, 混幺九 and the rank fans (全小 ... 全大) of a mask, as a sparse fan table.

A *sparse fan table* here is ``(counts, bits)``: ``counts`` a dict ``{fan number: count}``
holding the nonzero counts, ``bits`` the int with bit ``n`` set for each fan ``n`` in it.
"""

from __future__ import annotations

from itertools import compress
from typing import Final

from .fantable import (
    ALL_GREEN,
    ALL_HONORS,
    ALL_SIMPLES,
    ALL_TERMINALS,
    ALL_TERMINALS_AND_HONORS,
    ALL_TYPES,
    FULL_FLUSH,
    HALF_FLUSH,
    LOWER_FOUR,
    LOWER_TILES,
    MIDDLE_TILES,
    NO_HONORS,
    ONE_VOIDED_SUIT,
    REVERSIBLE_TILES,
    TABLE_SIZE,
    UPPER_FOUR,
    UPPER_TILES,
)

SUIT: Final = [t // 9 if t < 27 else 3 for t in range(34)]
RANK: Final = [t % 9 + 1 if t < 27 else 0 for t in range(34)]
# sort key of the reference calculator: characters, bamboo, dots, then honors
ORDER: Final = [t if t < 9 else (t + 9 if t < 18 else (t - 9 if t < 27 else t)) for t in range(34)]
TERMINAL: Final = [t < 27 and t % 9 in (0, 8) for t in range(34)]
TERM_OR_HONOR: Final = [TERMINAL[t] or t >= 27 for t in range(34)]
WIND: Final = [27 <= t <= 30 for t in range(34)]
DRAGON: Final = [31 <= t <= 33 for t in range(34)]
GREEN: Final = frozenset([19, 20, 21, 23, 25, 32])                 # 2 3 4 6 8 s, F
REVERSIBLE: Final = frozenset([9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33])
ORPHANS: Final = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
KNITTED: Final = tuple(
    tuple(sorted(9 * s + r for s, start in zip(suits, (0, 1, 2)) for r in (start, start + 3, start + 6)))
    for suits in ((0, 2, 1), (0, 1, 2), (2, 0, 1), (1, 0, 2), (2, 1, 0), (1, 2, 0))
)

SUIT_MASKS: Final = tuple(((1 << 9) - 1) << (9 * i) for i in range(3))
HONOR_MASK: Final = ((1 << 7) - 1) << 27
WIND_MASK: Final = 0b1111 << 27
DRAGON_MASK: Final = 0b111 << 31
TERM_HONOR_MASK: Final = sum(1 << t for t in range(34) if TERM_OR_HONOR[t])
TERMINAL_MASK: Final = sum(1 << t for t in range(34) if TERMINAL[t])
GREEN_MASK: Final = sum(1 << t for t in GREEN)
REVERSIBLE_MASK: Final = sum(1 << t for t in REVERSIBLE)
KNITTED_MASKS: Final = tuple(sum(1 << t for t in p) for p in KNITTED)

BIT: Final = tuple(1 << t for t in range(34))
KINDS: Final = range(TABLE_SIZE)


def kind_mask(c: list[int]) -> int:
    """Bitmask of the kinds present in the 34 counts ``c``."""
    m = 0
    for t in range(34):
        if c[t]:
            m |= BIT[t]
    return m


def sparse(f: list[int]) -> tuple[dict[int, int], int]:
    """The sparse fan table ``(counts, bits)`` of a full table ``f`` (index = fan number)."""
    counts = {i: f[i] for i in compress(KINDS, f)}
    bits = 0
    for i in counts:
        bits |= 1 << i
    return counts, bits


def suit_fans(m: int, f: list[int]) -> None:
    """无字, 缺一门, 混一色, 清一色, 五门齐 from the kind mask ``m``, into the table ``f``."""
    honors = m & HONOR_MASK
    if not honors:
        f[NO_HONORS] = 1
    voided = (not m & SUIT_MASKS[0]) + (not m & SUIT_MASKS[1]) + (not m & SUIT_MASKS[2])
    if voided == 2:
        f[HALF_FLUSH if honors else FULL_FLUSH] = 1
    elif voided:
        f[ONE_VOIDED_SUIT] = voided
    elif m & WIND_MASK and m & DRAGON_MASK:
        f[ALL_TYPES] = 1


def trait_fans(m: int, f: list[int], strict_pairs: bool = False) -> None:
    """断幺, 推不倒, then (unless ``strict_pairs``) 绿一色 and 字一色 / 清幺九 / 混幺九."""
    if not m & TERM_HONOR_MASK:
        f[ALL_SIMPLES] = 1
    if not m & ~REVERSIBLE_MASK:
        f[REVERSIBLE_TILES] = 1
    if strict_pairs:
        return
    if not m & ~GREEN_MASK:
        f[ALL_GREEN] = 1
    if f[ALL_SIMPLES]:
        return
    if not m & ~HONOR_MASK:
        f[ALL_HONORS] = 1
    elif not m & ~TERMINAL_MASK:
        f[ALL_TERMINALS] = 1
    elif not m & ~TERM_HONOR_MASK:
        f[ALL_TERMINALS_AND_HONORS] = 1


def rank_fans(m: int, f: list[int]) -> None:
    """全小/小于五, 全大/大于五, 全中 (number tiles only)."""
    if m & HONOR_MASK:
        return
    r = (m | (m >> 9) | (m >> 18)) & 0x1FF      # bit i = rank i+1 present
    if not r & ~0b1111:
        f[LOWER_FOUR if r & 0b1000 else LOWER_TILES] = 1
    elif not r & ~0b111100000:
        f[UPPER_FOUR if r & 0b100000 else UPPER_TILES] = 1
    elif not r & ~0b111000:
        f[MIDDLE_TILES] = 1


_SUIT_FANS: Final[dict[int, tuple[dict[int, int], int]]] = {}


def tile_fans(m: int) -> tuple[dict[int, int], int]:
    """The suit, trait and rank fans of the kind mask ``m`` of a standard hand, as a sparse
    fan table (a new dict). The suit fans are kept per pattern of suits present, the others
    are a few bit tests."""
    key = (m & HONOR_MASK and (8 | (m & WIND_MASK and 16) | (m & DRAGON_MASK and 32))) | (
        (m & SUIT_MASKS[0] and 1) | (m & SUIT_MASKS[1] and 2) | (m & SUIT_MASKS[2] and 4))
    got = _SUIT_FANS.get(key)
    if got is None:
        f = [0] * TABLE_SIZE
        suit_fans(m, f)
        got = _SUIT_FANS[key] = sparse(f)
    counts = got[0].copy()
    bits = got[1]
    if not m & TERM_HONOR_MASK:
        counts[ALL_SIMPLES] = 1
        bits |= _B_ALL_SIMPLES
    elif not m & ~TERM_HONOR_MASK:
        fan = ALL_HONORS if not m & ~HONOR_MASK else (
            ALL_TERMINALS if not m & ~TERMINAL_MASK else ALL_TERMINALS_AND_HONORS)
        counts[fan] = 1
        bits |= 1 << fan
    if not m & ~REVERSIBLE_MASK:
        counts[REVERSIBLE_TILES] = 1
        bits |= _B_REVERSIBLE
    if not m & ~GREEN_MASK:
        counts[ALL_GREEN] = 1
        bits |= _B_ALL_GREEN
    if not m & HONOR_MASK:
        fan = _RANK_FAN[(m | (m >> 9) | (m >> 18)) & 0x1FF]
        if fan:
            counts[fan] = 1
            bits |= 1 << fan
    return counts, bits


_B_ALL_SIMPLES: Final = 1 << ALL_SIMPLES
_B_REVERSIBLE: Final = 1 << REVERSIBLE_TILES
_B_ALL_GREEN: Final = 1 << ALL_GREEN


def _rank_fan(r: int) -> int:
    f = [0] * TABLE_SIZE
    rank_fans(r, f)
    return next((i for i in KINDS if f[i]), 0)


# the rank fan (or 0) of each set of ranks present, bit i = rank i + 1, number tiles only
_RANK_FAN: Final = tuple(_rank_fan(r) for r in range(512))
