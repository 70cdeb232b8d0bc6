"""The fan calculator of Chinese Official Mahjong (rule file sections 3 and 4).

:func:`calculate` takes a :class:`qipai.tiles.Hand` (concealed tiles, melds, winning tile and
the win flags) and returns a :class:`FanResult`: the fans with their values and counts, and the
totals with and without flowers. It scores every interpretation of the hand — each split into
sets and a pair, seven pairs, thirteen orphans, honors and knitted tiles, knitted straight with
a set and a pair — applies the exclusion principles (non-repeat through the "not counted"
table, non-separation by scoring one split at a time, non-identical and account-once through
the set-combination rules of 4.3) and keeps the highest total, the first one found in a fixed
order on ties. Exclusions follow PyMahjongGB 1.4.0 by default; ``exclusions="strict1998"`` and
``mixed_kongs="separate"`` give the variants of rule file 4.6.

Errors: :class:`NotWinning` (a :class:`~qipai.core.errors.QipaiError`) when the tiles form no
winning hand; :class:`~qipai.core.errors.NotationError` for a malformed hand line or a kind held
more than four times.
"""

from __future__ import annotations

from itertools import compress
from typing import NamedTuple

from qipai.core.errors import NotationError, QipaiError
from qipai.tiles.meld import CHOW as M_CHOW
from qipai.tiles.meld import PUNG as M_PUNG
from qipai.tiles.notation import Hand, check_counts, parse_hand
from qipai.tiles.shapes import CHOW, KONG, PAIR, PUNG, decompositions, waits
from qipai.tiles.tile import format_tiles

from .fantable import (
    ALL_CHOWS,
    ALL_EVEN_PUNGS,
    ALL_FIVE,
    ALL_GREEN,
    ALL_HONORS,
    ALL_PUNGS,
    ALL_SIMPLES,
    ALL_TERMINALS,
    ALL_TERMINALS_AND_HONORS,
    ALL_TYPES,
    BIG_FOUR_WINDS,
    BIG_THREE_DRAGONS,
    BIG_THREE_WINDS,
    CHICKEN_HAND,
    CLOSED_WAIT,
    CONCEALED_HAND,
    CONCEALED_KONG,
    DOUBLE_PUNG,
    DRAGON_PUNG,
    EDGE_WAIT,
    FANS,
    FLOWER_TILES,
    FOUR_CONCEALED_PUNGS,
    FOUR_KONGS,
    FOUR_PURE_SHIFTED_CHOWS,
    FOUR_PURE_SHIFTED_PUNGS,
    FULL_FLUSH,
    FULLY_CONCEALED_HAND,
    GREATER_HONORS_AND_KNITTED,
    HALF_FLUSH,
    KNITTED_STRAIGHT,
    LAST_TILE,
    LAST_TILE_CLAIM,
    LAST_TILE_DRAW,
    LESSER_HONORS_AND_KNITTED,
    LITTLE_FOUR_WINDS,
    LITTLE_THREE_DRAGONS,
    LOWER_FOUR,
    LOWER_TILES,
    MELDED_HAND,
    MELDED_KONG,
    MIDDLE_TILES,
    MIXED_DOUBLE_CHOW,
    MIXED_KONGS,
    MIXED_SHIFTED_CHOWS,
    MIXED_SHIFTED_PUNGS,
    MIXED_STRAIGHT,
    MIXED_TRIPLE_CHOW,
    NINE_GATES,
    NO_HONORS,
    ONE_VOIDED_SUIT,
    OUT_WITH_REPLACEMENT_TILE,
    OUTSIDE_HAND,
    PREVALENT_WIND,
    PUNG_OF_TERMINALS_OR_HONORS,
    PURE_DOUBLE_CHOW,
    PURE_SHIFTED_CHOWS,
    PURE_SHIFTED_PUNGS,
    PURE_STRAIGHT,
    PURE_TERMINAL_CHOWS,
    PURE_TRIPLE_CHOW,
    QUADRUPLE_CHOW,
    REVERSIBLE_TILES,
    ROBBING_THE_KONG,
    SEAT_WIND,
    SELF_DRAWN,
    SEVEN_PAIRS,
    SEVEN_SHIFTED_PAIRS,
    SHORT_STRAIGHT,
    SINGLE_WAIT,
    TABLE_SIZE,
    THIRTEEN_ORPHANS,
    THREE_CONCEALED_PUNGS,
    THREE_KONGS,
    THREE_SUITED_TERMINAL_CHOWS,
    TILE_HOG,
    TRIPLE_PUNG,
    TWO_CONCEALED_KONGS,
    TWO_CONCEALED_PUNGS,
    TWO_DRAGON_PUNGS,
    TWO_MELDED_KONGS,
    TWO_TERMINAL_CHOWS,
    UPPER_FOUR,
    UPPER_TILES,
    VALUES,
)


class NotWinning(QipaiError):
    """The tiles do not form a winning hand (no standard or special shape)."""


# ----- tile facts, indexed by kind 0..33 ----------------------------------------------------
SUIT = [t // 9 if t < 27 else 3 for t in range(34)]
RANK = [t % 9 + 1 if t < 27 else 0 for t in range(34)]
# sort key of the reference calculator: characters, bamboo, dots, then honors
ORDER = [t if t < 9 else (t + 9 if t < 18 else (t - 9 if t < 27 else t)) for t in range(34)]
TERMINAL = [t < 27 and t % 9 in (0, 8) for t in range(34)]
TERM_OR_HONOR = [TERMINAL[t] or t >= 27 for t in range(34)]
WIND = [27 <= t <= 30 for t in range(34)]
DRAGON = [31 <= t <= 33 for t in range(34)]
GREEN = frozenset([19, 20, 21, 23, 25, 32])                 # 2 3 4 6 8 s, F
REVERSIBLE = frozenset([9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33])
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
KNITTED = tuple(
    tuple(sorted(9 * s + r for s, start in zip(suits, (0, 1, 2)) for r in (start, start + 3, start + 6)))
    for suits in ((0, 2, 1), (0, 1, 2), (2, 0, 1), (1, 0, 2), (2, 1, 0), (1, 2, 0))
)


class FanResult(NamedTuple):
    """The scored hand: ``fans`` is a list of ``(fan number, count)`` in standard order
    (numbers of rule file 4.2; 82 = 明暗杠), ``total`` includes the flowers, ``base_total``
    does not (the 8-fan minimum is checked on it)."""

    fans: tuple[tuple[int, int], ...]
    total: int
    base_total: int

    def items(self) -> list[tuple[str, int, int]]:
        """``(Chinese name, value, count)`` for each fan."""
        return [(FANS[n][0], FANS[n][2], c) for n, c in self.fans]

    def describe(self, english: bool = False) -> str:
        parts = []
        for n, c in self.fans:
            name = FANS[n][1] if english else FANS[n][0]
            parts.append(f"{name} {FANS[n][2]}" + (f" ×{c}" if c > 1 else ""))
        return ", ".join(parts) + f" — total {self.total}"

    def to_json(self) -> dict:
        return {"fans": [{"no": n, "name": FANS[n][0], "en": FANS[n][1], "value": FANS[n][2], "count": c}
                         for n, c in self.fans],
                "total": self.total, "base_total": self.base_total}


# ----- set combinations (rule file 4.3 step 3) -----------------------------------------------
def _two_chows(a: int, b: int) -> int:
    if SUIT[a] != SUIT[b]:
        return MIXED_DOUBLE_CHOW if RANK[a] == RANK[b] else 0
    if a + 3 == b or b + 3 == a:
        return SHORT_STRAIGHT
    ra, rb = RANK[a], RANK[b]
    if (ra == 2 and rb == 8) or (ra == 8 and rb == 2):
        return TWO_TERMINAL_CHOWS
    if a == b:
        return PURE_DOUBLE_CHOW
    return 0


def _three_chows(a: int, b: int, c: int) -> int:
    sa, sb, sc = SUIT[a], SUIT[b], SUIT[c]
    ra, rb, rc = RANK[a], RANK[b], RANK[c]
    if sa != sb and sa != sc and sb != sc:
        if _sorted_shift(ra, rb, rc):
            return MIXED_SHIFTED_CHOWS
        if ra == rb == rc:
            return MIXED_TRIPLE_CHOW
        if sorted((ra, rb, rc)) == [2, 5, 8]:
            return MIXED_STRAIGHT
        return 0
    if sa == sb == sc:   # chows arrive sorted; one suit is decided by all three agreeing
        if a + 3 == b and b + 3 == c:
            return PURE_STRAIGHT
        if (a + 2 == b and b + 2 == c) or (a + 1 == b and b + 1 == c):
            return PURE_SHIFTED_CHOWS
        if a == b == c:
            return PURE_TRIPLE_CHOW
        return 0
    return _two_suit_three(a, b, c)


def _sorted_shift(ra: int, rb: int, rc: int) -> bool:
    x = sorted((ra, rb, rc))
    return x[0] + 1 == x[1] and x[1] + 1 == x[2]


def _two_suit_three(a: int, b: int, c: int) -> int:
    # two suits among three chows: the reference treats "not three suits" as one suit and
    # tests the same-suit patterns on the tile values, which never match across suits
    if a + 3 == b and b + 3 == c and SUIT[a] == SUIT[c]:
        return PURE_STRAIGHT
    if ((a + 2 == b and b + 2 == c) or (a + 1 == b and b + 1 == c)) and SUIT[a] == SUIT[c]:
        return PURE_SHIFTED_CHOWS
    if a == b == c:
        return PURE_TRIPLE_CHOW
    return 0


def _extra_chow(t0: int, t1: int, t2: int, extra: int) -> int:
    fans = (_two_chows(t0, extra), _two_chows(t1, extra), _two_chows(t2, extra))
    for f in (PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS):
        if f in fans:
            return f
    return 0


_PAIR_FANS = (PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS)


def _limit_pair_fans(found: list[int], limit: int, f: list[int]) -> None:
    counts = [0, 0, 0, 0]
    total = 0
    for x in found:
        if x:
            counts[_PAIR_FANS.index(x)] += 1
            total += 1
    keep = 1
    while total > limit and keep >= 0:
        idx = 4
        while total > limit and idx > 0:
            idx -= 1
            while counts[idx] > keep and total > limit:
                counts[idx] -= 1
                total -= 1
        keep -= 1
    for i, fan in enumerate(_PAIR_FANS):
        f[fan] = counts[i]


def _chows(mids: list[int], f: list[int]) -> None:
    n = len(mids)
    if n == 4:
        a, b, c, d = mids
        if (a + 2 == b and b + 2 == c and c + 2 == d) or (a + 1 == b and b + 1 == c and c + 1 == d):
            if SUIT[a] == SUIT[d]:
                f[FOUR_PURE_SHIFTED_CHOWS] = 1
                return
        if a == b == c == d:
            f[QUADRUPLE_CHOW] = 1
            return
        for i, j, k, x in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            fan = _three_chows(mids[i], mids[j], mids[k])
            if fan:
                f[fan] = 1
                extra = _extra_chow(mids[i], mids[j], mids[k], mids[x])
                if extra:
                    f[extra] = 1
                return
        pf = [_two_chows(a, b), _two_chows(a, c), _two_chows(a, d),
              _two_chows(b, c), _two_chows(b, d), _two_chows(c, d)]
        limit = 3
        if not (pf[0] or pf[1] or pf[2]):
            limit -= 1
        if not (pf[0] or pf[3] or pf[4]):
            limit -= 1
        if not (pf[1] or pf[3] or pf[5]):
            limit -= 1
        if not (pf[2] or pf[4] or pf[5]):
            limit -= 1
        if limit > 0:
            _limit_pair_fans(pf, limit, f)
    elif n == 3:
        fan = _three_chows(mids[0], mids[1], mids[2])
        if fan:
            f[fan] = 1
            return
        _limit_pair_fans([_two_chows(mids[0], mids[1]), _two_chows(mids[0], mids[2]),
                          _two_chows(mids[1], mids[2])], 2, f)
    elif n == 2:
        fan = _two_chows(mids[0], mids[1])
        if fan:
            f[fan] += 1


def _two_pungs(a: int, b: int) -> int:
    if a < 27 and b < 27:
        return 3 if RANK[a] == RANK[b] else 0          # DOUBLE_PUNG marker
    if DRAGON[a] and DRAGON[b]:
        return 4                                        # TWO_DRAGON_PUNGS marker
    return 0


_TWO_PUNG_FAN = {3: DOUBLE_PUNG, 4: TWO_DRAGON_PUNGS}


def _three_pungs(a: int, b: int, c: int) -> int:
    if a < 27 and b < 27 and c < 27:
        sa, sb, sc = SUIT[a], SUIT[b], SUIT[c]
        if sa != sb and sa != sc and sb != sc:
            if _sorted_shift(RANK[a], RANK[b], RANK[c]):
                return MIXED_SHIFTED_PUNGS
            if RANK[a] == RANK[b] == RANK[c]:
                return TRIPLE_PUNG
        elif a + 1 == b and b + 1 == c and SUIT[a] == SUIT[c]:
            return PURE_SHIFTED_PUNGS
        return 0
    if a >= 27 and (a, b, c) in ((27, 28, 29), (27, 28, 30), (27, 29, 30), (28, 29, 30)):
        return BIG_THREE_WINDS
    if (a, b, c) == (31, 32, 33):
        return BIG_THREE_DRAGONS
    return 0


def _pungs(tiles: list[int], f: list[int]) -> None:
    n = len(tiles)
    if n == 4:
        a, b, c, d = tiles
        if a < 27 and a + 1 == b and b + 1 == c and c + 1 == d and SUIT[a] == SUIT[d]:
            f[FOUR_PURE_SHIFTED_PUNGS] = 1
            return
        if (a, b, c, d) == (27, 28, 29, 30):
            f[BIG_FOUR_WINDS] = 1
            return
        for i, j, k, free in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            fan = _three_pungs(tiles[i], tiles[j], tiles[k])
            if fan:
                f[fan] = 1
                for x in range(4):
                    if x != free:
                        two = _two_pungs(tiles[x], tiles[free])
                        if two:
                            f[_TWO_PUNG_FAN[two]] += 1
                            break
                return
        for i in range(4):
            for j in range(i + 1, 4):
                two = _two_pungs(tiles[i], tiles[j])
                if two:
                    f[_TWO_PUNG_FAN[two]] += 1
    elif n == 3:
        fan = _three_pungs(tiles[0], tiles[1], tiles[2])
        if fan:
            f[fan] = 1
            return
        for i, j in ((0, 1), (0, 2), (1, 2)):
            two = _two_pungs(tiles[i], tiles[j])
            if two:
                f[_TWO_PUNG_FAN[two]] += 1
    elif n == 2:
        two = _two_pungs(tiles[0], tiles[1])
        if two:
            f[_TWO_PUNG_FAN[two]] += 1


def _kongs(pungs: list[tuple[int, int, bool]], f: list[int], separate: bool) -> None:
    """Kong and concealed-pung fans (4.3 step 4), then 碰碰和 and the single-pung fans."""
    mk = ck = cp = 0
    for ty, _t, melded in pungs:
        if melded:
            if ty == KONG:
                mk += 1
        elif ty == KONG:
            ck += 1
        else:
            cp += 1
    kongs = mk + ck
    if kongs == 0:
        concealed = cp
    elif kongs == 1:
        if mk:
            f[MELDED_KONG] = 1
            concealed = cp if cp >= 2 else 0
        else:
            f[CONCEALED_KONG] = 1
            concealed = cp + 1
    elif kongs == 2:
        if ck == 0:
            f[TWO_MELDED_KONGS] = 1
            concealed = 2 if cp == 2 else 0
        elif ck == 1:
            if separate:
                f[MELDED_KONG] = 1
                f[CONCEALED_KONG] = 1
            else:
                f[MIXED_KONGS] = 1
            concealed = cp + 1
        else:
            f[TWO_CONCEALED_KONGS] = 1
            concealed = cp + 2 if cp else 0
    elif kongs == 3:
        f[THREE_KONGS] = 1
        if ck == 0:
            concealed = 0
        elif ck == 1:
            concealed = 2 if cp else 0
        else:
            concealed = ck + cp
    else:
        f[FOUR_KONGS] = 1
        concealed = ck if ck >= 2 else 0
    if concealed == 2:
        f[TWO_CONCEALED_PUNGS] = 1
    elif concealed == 3:
        f[THREE_CONCEALED_PUNGS] = 1
    elif concealed == 4:
        f[FOUR_CONCEALED_PUNGS] = 1
    if len(pungs) == 4 and not f[FOUR_KONGS] and not f[FOUR_CONCEALED_PUNGS]:
        f[ALL_PUNGS] = 1
    for _ty, t, _m in pungs:
        if DRAGON[t]:
            f[DRAGON_PUNG] += 1
        elif TERM_OR_HONOR[t]:
            f[PUNG_OF_TERMINALS_OR_HONORS] += 1


# ----- whole-hand fans (4.3 step 5), which depend on the tiles only ---------------------------
SUIT_MASKS = tuple(((1 << 9) - 1) << (9 * i) for i in range(3))
HONOR_MASK = ((1 << 7) - 1) << 27
WIND_MASK = 0b1111 << 27
DRAGON_MASK = 0b111 << 31
TERM_HONOR_MASK = sum(1 << t for t in range(34) if TERM_OR_HONOR[t])
TERMINAL_MASK = sum(1 << t for t in range(34) if TERMINAL[t])
GREEN_MASK = sum(1 << t for t in GREEN)
REVERSIBLE_MASK = sum(1 << t for t in REVERSIBLE)


KNITTED_MASKS = tuple(sum(1 << t for t in p) for p in KNITTED)


_BIT = tuple(1 << t for t in range(34))
_KINDS = range(TABLE_SIZE)


def _mask(c: list[int]) -> int:
    """Bitmask of the kinds present in the 34 counts ``c``."""
    m = 0
    for t in compress(_KINDS, c):
        m |= _BIT[t]
    return m


def _suit_fans(m: int, f: list[int]) -> None:
    """无字, 缺一门, 混一色, 清一色, 五门齐 from the bitmask of kinds present."""
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


def _trait_fans(m: int, f: list[int], strict_pairs: bool = False) -> None:
    """断幺, 推不倒, 绿一色, then 字一色 / 清幺九 / 混幺九."""
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


def _rank_fans(m: int, f: list[int]) -> None:
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


def _hog(c: list[int], kongs: int, f: list[int]) -> None:
    f[TILE_HOG] = c.count(4) - kongs


# ----- exclusions (rule file 4.2 "not counted", in the reference order) ----------------------
# Each rule: (fan, fans it removes, fans it also removes under strict1998), checked in this
# order, a rule applying only while its fan is still counted (the reference's order).
_EXCLUDES: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...] = (
    (BIG_FOUR_WINDS, (BIG_THREE_WINDS, ALL_PUNGS, PUNG_OF_TERMINALS_OR_HONORS), ()),
    (BIG_THREE_DRAGONS, (TWO_DRAGON_PUNGS, DRAGON_PUNG), (ONE_VOIDED_SUIT,)),
    (ALL_GREEN, (HALF_FLUSH, ONE_VOIDED_SUIT), ()),
    # also one 幺九刻 less, and 不求人 becomes 自摸 (below)
    (NINE_GATES, (FULL_FLUSH, CONCEALED_HAND, ONE_VOIDED_SUIT, NO_HONORS), ()),
    (FOUR_KONGS, (SINGLE_WAIT,), ()),
    (SEVEN_SHIFTED_PAIRS, (SEVEN_PAIRS, FULL_FLUSH, CONCEALED_HAND, ONE_VOIDED_SUIT, NO_HONORS), ()),
    (THIRTEEN_ORPHANS, (ALL_TYPES, CONCEALED_HAND, SINGLE_WAIT), ()),
    (ALL_TERMINALS, (ALL_TERMINALS_AND_HONORS, ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS,
                     NO_HONORS, DOUBLE_PUNG), (TRIPLE_PUNG,)),
    (LITTLE_FOUR_WINDS, (BIG_THREE_WINDS, PUNG_OF_TERMINALS_OR_HONORS), ()),
    (LITTLE_THREE_DRAGONS, (TWO_DRAGON_PUNGS, DRAGON_PUNG), (ONE_VOIDED_SUIT,)),
    (ALL_HONORS, (ALL_TERMINALS_AND_HONORS, ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS,
                  ONE_VOIDED_SUIT), ()),
    # also 不求人 becomes 自摸 (below)
    (FOUR_CONCEALED_PUNGS, (ALL_PUNGS, CONCEALED_HAND), ()),
    (PURE_TERMINAL_CHOWS, (SEVEN_PAIRS, FULL_FLUSH, ALL_CHOWS, PURE_DOUBLE_CHOW, TWO_TERMINAL_CHOWS,
                           ONE_VOIDED_SUIT, NO_HONORS), ()),
    (QUADRUPLE_CHOW, (PURE_SHIFTED_PUNGS, TILE_HOG, PURE_DOUBLE_CHOW), (ONE_VOIDED_SUIT,)),
    (FOUR_PURE_SHIFTED_PUNGS, (PURE_TRIPLE_CHOW, ALL_PUNGS), (ONE_VOIDED_SUIT,)),
    (FOUR_PURE_SHIFTED_CHOWS, (PURE_SHIFTED_CHOWS, TWO_TERMINAL_CHOWS, SHORT_STRAIGHT), (ONE_VOIDED_SUIT,)),
    (ALL_TERMINALS_AND_HONORS, (ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS), ()),
    (SEVEN_PAIRS, (CONCEALED_HAND, SINGLE_WAIT), ()),
    (GREATER_HONORS_AND_KNITTED, (ALL_TYPES, CONCEALED_HAND), ()),
    (ALL_EVEN_PUNGS, (ALL_PUNGS, ALL_SIMPLES, NO_HONORS), ()),
    (FULL_FLUSH, (ONE_VOIDED_SUIT, NO_HONORS), ()),
    (PURE_TRIPLE_CHOW, (PURE_SHIFTED_PUNGS, PURE_DOUBLE_CHOW), ()),
    (PURE_SHIFTED_PUNGS, (PURE_TRIPLE_CHOW,), ()),
    (UPPER_TILES, (UPPER_FOUR, NO_HONORS), ()),
    (MIDDLE_TILES, (ALL_SIMPLES, NO_HONORS), ()),
    (LOWER_TILES, (LOWER_FOUR, NO_HONORS), ()),
    (THREE_SUITED_TERMINAL_CHOWS, (ALL_CHOWS, NO_HONORS, MIXED_DOUBLE_CHOW, TWO_TERMINAL_CHOWS), ()),
    (ALL_FIVE, (ALL_SIMPLES, NO_HONORS), ()),
    (LESSER_HONORS_AND_KNITTED, (ALL_TYPES, CONCEALED_HAND), ()),
    (UPPER_FOUR, (NO_HONORS,), ()),
    (LOWER_FOUR, (NO_HONORS,), ()),
    # also three 幺九刻 less unless 字一色 or 混幺九 already removed them (below)
    (BIG_THREE_WINDS, (), (ONE_VOIDED_SUIT,)),
    (REVERSIBLE_TILES, (ONE_VOIDED_SUIT,), ()),
    (LAST_TILE_DRAW, (SELF_DRAWN,), ()),
    (OUT_WITH_REPLACEMENT_TILE, (SELF_DRAWN,), ()),
    (ROBBING_THE_KONG, (LAST_TILE,), ()),
    (TWO_CONCEALED_KONGS, (CONCEALED_KONG,), ()),
    (HALF_FLUSH, (ONE_VOIDED_SUIT,), ()),
    (MELDED_HAND, (SINGLE_WAIT,), ()),
    (TWO_DRAGON_PUNGS, (DRAGON_PUNG,), ()),
    (FULLY_CONCEALED_HAND, (SELF_DRAWN,), ()),
    (TWO_MELDED_KONGS, (MELDED_KONG,), ()),
    (ALL_CHOWS, (NO_HONORS,), ()),
    (ALL_SIMPLES, (NO_HONORS,), ()),
)
_EXCLUDE_STEP = [-1] * TABLE_SIZE
for _i, (_fan, _z, _s) in enumerate(_EXCLUDES):
    _EXCLUDE_STEP[_fan] = _i


def _exclude(f: list[int], strict: bool) -> None:
    """Remove the fans the counted ones imply (rule file 4.2, "not counted"); only the rules of
    fans present are visited."""
    steps = [k for k in map(_EXCLUDE_STEP.__getitem__, compress(_KINDS, f)) if k >= 0]
    if len(steps) > 1:
        steps.sort()
    for k in steps:
        fan, zeroed, strict_zeroed = _EXCLUDES[k]
        if not f[fan]:
            continue
        for z in zeroed:
            f[z] = 0
        if strict:
            for z in strict_zeroed:
                f[z] = 0
        if fan == NINE_GATES or fan == FOUR_CONCEALED_PUNGS:
            if fan == NINE_GATES:
                f[PUNG_OF_TERMINALS_OR_HONORS] -= 1
            if f[FULLY_CONCEALED_HAND]:
                f[FULLY_CONCEALED_HAND] = 0
                f[SELF_DRAWN] = 1
        elif fan == BIG_THREE_WINDS and not f[ALL_HONORS] and not f[ALL_TERMINALS_AND_HONORS]:
            f[PUNG_OF_TERMINALS_OR_HONORS] -= 3


def _winds(t: int, prevalent: int, seat: int, f: list[int]) -> None:
    deducted = f[BIG_THREE_WINDS] or f[ALL_TERMINALS_AND_HONORS] or f[ALL_HONORS] or f[LITTLE_FOUR_WINDS]
    d = t - 27
    if d == prevalent:
        f[PREVALENT_WIND] = 1
        if not deducted:
            f[PUNG_OF_TERMINALS_OR_HONORS] -= 1
    if d == seat:
        f[SEAT_WIND] = 1
        if seat != prevalent and not deducted:
            f[PUNG_OF_TERMINALS_OR_HONORS] -= 1


def _win_flags(ctx: _Ctx, f: list[int]) -> None:
    if ctx.fourth:
        f[LAST_TILE] = 1
    if ctx.last:
        f[LAST_TILE_DRAW if ctx.self_drawn else LAST_TILE_CLAIM] = 1
    if ctx.kong:
        f[OUT_WITH_REPLACEMENT_TILE if ctx.self_drawn else ROBBING_THE_KONG] = 1
    if ctx.self_drawn:
        f[SELF_DRAWN] = 1


class _Ctx:
    __slots__ = ("standing", "standing_counts", "win", "self_drawn", "fourth", "kong", "last",
                 "seat", "prevalent", "fixed", "melded", "strict", "separate", "_waits")

    def wait_kinds(self) -> list[int]:
        if self._waits is None:
            self._waits = waits(self.standing_counts, seven_pairs=not self.fixed)
        return self._waits


def _wait_fan(concealed_packs, win: int, f: list[int], ctx: _Ctx | None = None) -> None:
    """边张, 嵌张 or 单钓将 from where the winning tile sits; with ``ctx``, only when the
    concealed tiles wait on exactly one kind (the waits are computed once per hand)."""
    pos = 0
    for ty, t in concealed_packs:
        if ty == CHOW:
            if t == win:
                pos |= 2
            elif t + 1 == win or t - 1 == win:
                pos |= 1
        elif ty == PAIR and t == win:
            pos |= 4
    if not pos or (ctx is not None and len(ctx.wait_kinds()) != 1):
        return
    if pos & 1:
        f[EDGE_WAIT] = 1
    elif pos & 2:
        f[CLOSED_WAIT] = 1
    elif pos & 4:
        f[SINGLE_WAIT] = 1


def _standard(packs: list[tuple[int, int]], ctx: _Ctx, base: list[int]) -> list[int]:
    """Fans of one split: ``packs`` = the fixed melds then the concealed sets, the pair last."""
    f = list(base)
    fixed = ctx.fixed
    win = ctx.win
    chows: list[int] = []
    pungs: list[tuple[int, int, bool]] = []
    concealed_chow_has_win = False
    nfixed = len(fixed)
    for ty, t, melded in fixed:
        if ty == CHOW:
            chows.append(t)
        else:
            pungs.append((ty, t, melded))
    for ty, t in packs[nfixed:4]:
        if ty == CHOW:
            chows.append(t)
            if t == win or t - 1 == win or t + 1 == win:
                concealed_chow_has_win = True
        else:
            pungs.append((ty, t, False))
    pair = packs[4][1]
    if not ctx.self_drawn and not concealed_chow_has_win:
        pungs = [(ty, t, True) if (t == win and not m) else (ty, t, m) for ty, t, m in pungs]
    if pungs:
        _kongs(pungs, f, ctx.separate)
    nc = len(chows)
    if nc == 4:
        if _three_suited_terminal(chows, pair):
            f[THREE_SUITED_TERMINAL_CHOWS] = 1
        elif _pure_terminal(chows, pair):
            f[PURE_TERMINAL_CHOWS] = 1
        else:
            _chows(sorted(chows, key=ORDER.__getitem__), f)
    elif nc == 3:
        _chows(sorted(chows, key=ORDER.__getitem__), f)
    elif nc == 2:
        _chows(chows, f)
        _pungs([p[1] for p in pungs], f)
    elif nc == 1:
        _pungs(sorted((p[1] for p in pungs), key=ORDER.__getitem__), f)
    else:
        _pungs(sorted((p[1] for p in pungs), key=ORDER.__getitem__), f)
    # pair-dependent fans
    if nc == 4:
        if pair < 27:
            f[ALL_CHOWS] = 1
    elif f[TWO_DRAGON_PUNGS]:
        if DRAGON[pair]:
            f[LITTLE_THREE_DRAGONS] = 1
            f[TWO_DRAGON_PUNGS] = 0
    elif f[BIG_THREE_WINDS]:
        if WIND[pair]:
            f[LITTLE_FOUR_WINDS] = 1
            f[BIG_THREE_WINDS] = 0
    _group_traits(packs, f)
    if not f[MELDED_HAND] and not f[FOUR_KONGS]:
        _wait_fan(packs[nfixed:], win, f, ctx)
    _exclude(f, ctx.strict)
    if not f[BIG_FOUR_WINDS]:
        for _ty, t, _m in pungs:
            if WIND[t]:
                _winds(t, ctx.prevalent, ctx.seat, f)
    if not any(f):
        f[CHICKEN_HAND] = 1
    return f


def _pack_trait(ty: int, t: int) -> int:
    """1: the group holds a terminal or honor; 2: a five; 4: an even pung or pair; else 0."""
    if t >= 27:
        return 1
    r = RANK[t]
    if ty == CHOW:
        return 1 if r in (2, 8) else (2 if 4 <= r <= 6 else 0)
    return 1 if r in (1, 9) else (2 if r == 5 else (4 if r % 2 == 0 else 0))


_PACK_TRAIT = {(ty, t): _pack_trait(ty, t) for ty in (CHOW, PUNG, KONG, PAIR) for t in range(34)}


def _group_traits(packs, f: list[int]) -> None:
    """全带幺, else 全带五, else 全双刻: the trait every group shares."""
    acc = 7
    for p in packs:
        acc &= _PACK_TRAIT[p]
    if acc:
        f[OUTSIDE_HAND if acc == 1 else (ALL_FIVE if acc == 2 else ALL_EVEN_PUNGS)] = 1


def _three_suited_terminal(chows: list[int], pair: int) -> bool:
    if pair >= 27 or RANK[pair] != 5:
        return False
    ps = SUIT[pair]
    low = set()
    high = set()
    for t in chows:
        s = SUIT[t]
        if s == ps:
            return False
        r = RANK[t]
        if r == 2:
            low.add(s)
        elif r == 8:
            high.add(s)
        else:
            return False
    others = {0, 1, 2} - {ps}
    return low == others and high == others


def _pure_terminal(chows: list[int], pair: int) -> bool:
    if pair >= 27 or RANK[pair] != 5:
        return False
    ps = SUIT[pair]
    low = high = 0
    for t in chows:
        if SUIT[t] != ps:
            return False
        r = RANK[t]
        if r == 2:
            low += 1
        elif r == 8:
            high += 1
        else:
            return False
    return low == 2 and high == 2


def _nine_gates(c: list[int]) -> bool:
    for s in (0, 9, 18):
        if c[s] == 3 and c[s + 8] == 3 and all(c[s + i] == 1 for i in range(1, 8)):
            return True
    return False


def _total(f: list[int]) -> int:
    return sum([VALUES[i] * f[i] for i in compress(_KINDS, f)])


# ----- special forms ---------------------------------------------------------------------------
def _special(c14: list[int], ctx: _Ctx) -> list[int] | None:
    """Seven pairs, thirteen orphans, honors and knitted (no melds)."""
    f = [0] * TABLE_SIZE
    present = [t for t in range(34) if c14[t]]
    if all(c14[t] % 2 == 0 for t in present):
        pair_kinds = sorted(present, key=ORDER.__getitem__)
        shifted = (len(pair_kinds) == 7 and all(c14[t] == 2 for t in pair_kinds)
                   and pair_kinds[0] < 27 and pair_kinds[6] == pair_kinds[0] + 6
                   and SUIT[pair_kinds[0]] == SUIT[pair_kinds[6]])
        if shifted:
            f[SEVEN_SHIFTED_PAIRS] = 1
            _trait_fans(_mask(c14), f)
        else:
            f[SEVEN_PAIRS] = 1
            m = _mask(c14)
            _suit_fans(m, f)
            _trait_fans(m, f, strict_pairs=ctx.strict)
            if not ctx.strict:
                _rank_fans(m, f)
            _hog(c14, 0, f)
    elif all(TERM_OR_HONOR[t] for t in present) and len(present) == 13:
        f[THIRTEEN_ORPHANS] = 1
    elif not _honors_knitted(c14, f):
        return None
    _win_flags(ctx, f)
    _exclude(f, ctx.strict)
    return f


def _honors_knitted(c: list[int], f: list[int]) -> bool:
    if any(n > 1 for n in c):
        return False
    numbered = [t for t in range(27) if c[t]]
    if not 7 <= len(numbered) <= 9:
        return False
    if not any(set(numbered) <= set(p) for p in KNITTED):
        return False
    if len(numbered) == 7:
        f[GREATER_HONORS_AND_KNITTED] = 1
    else:
        f[LESSER_HONORS_AND_KNITTED] = 1
        if len(numbered) == 9:
            f[KNITTED_STRAIGHT] = 1
    return True


def _knitted_straight(c14: list[int], ctx: _Ctx, melds) -> list[int] | None:
    """Knitted straight + one set + the pair (at most one declared set)."""
    m = _mask(c14)
    pattern = next((p for p, pm in zip(KNITTED, KNITTED_MASKS) if m & pm == pm), None)
    if pattern is None:
        return None
    rest = list(c14)
    for t in pattern:
        rest[t] -= 1
    fixed = ctx.fixed
    if fixed:
        ty, t, melded = fixed[0]
        pairs = [k for k in range(34) if rest[k]]
        if len(pairs) != 1 or rest[pairs[0]] != 2:
            return None
        packs = [(ty, t), (PAIR, pairs[0])]
        set_melded = melded
    else:
        splits = decompositions(rest)
        if len(splits) != 1:
            return None
        packs = splits[0]
        set_melded = False
    f = [0] * TABLE_SIZE
    f[KNITTED_STRAIGHT] = 1
    ty, t = packs[0]
    pair = packs[1][1]
    if ty == CHOW:
        if pair < 27:
            f[ALL_CHOWS] = 1
    else:
        _kongs([(ty, t, set_melded)], f, ctx.separate)
    _win_flags(ctx, f)
    if not fixed or (ty == KONG and not set_melded):
        f[FULLY_CONCEALED_HAND if ctx.self_drawn else CONCEALED_HAND] = 1
    whole = [0] * 34
    for x in pattern:
        whole[x] += 1
    for x in ((t - 1, t, t + 1) if ty == CHOW else (t,) * (4 if ty == KONG else 3)):
        whole[x] += 1
    whole[pair] += 2
    _suit_fans(_mask(whole), f)
    _hog(whole, 1 if ty == KONG else 0, f)
    if not fixed:
        rest[ctx.win] -= 1
        if rest[ctx.win] >= 0:
            if len(waits(rest)) == 1:
                _wait_fan(packs, ctx.win, f)
    elif ctx.standing_counts[ctx.win] > 0:
        f[SINGLE_WAIT] = 1
    _exclude(f, ctx.strict)
    if WIND[t] and ty != CHOW:
        _winds(t, ctx.prevalent, ctx.seat, f)
    return f


# ----- entry points ----------------------------------------------------------------------------
def fan_table(hand: Hand, *, exclusions: str = "pymahjonggb",
              mixed_kongs: str = "combined") -> list[int] | None:
    """The fan counts (index = fan number) of the best interpretation, flowers not included;
    ``None`` when the hand is not a winning shape. ``hand.win`` must be set."""
    return _best(hand, exclusions, mixed_kongs)[0]


def _best(hand: Hand, exclusions: str, mixed_kongs: str) -> tuple[list[int] | None, int]:
    """(fan counts, their total without flowers) of the best interpretation; ``(None, 0)`` when
    the hand is not a winning shape."""
    win = hand.win
    if win is None:
        raise NotationError("the hand has no winning tile", "hand",
                            code="notation.no_winning_tile")
    melds = hand.melds
    standing_counts = [0] * 34
    for t in hand.concealed:
        standing_counts[t] += 1
    c14 = standing_counts.copy()
    c14[win] += 1
    kongs = melded = 0
    fixed: list[tuple[int, int, bool]] = []
    if melds:
        whole = c14.copy()
        for mld in melds:
            kind, t = mld.kind, mld.tile
            if kind == M_CHOW:
                fixed.append((CHOW, t + 1, True))
                whole[t] += 1
                whole[t + 1] += 1
                whole[t + 2] += 1
                melded += 1
            elif kind == M_PUNG:
                fixed.append((PUNG, t, True))
                whole[t] += 3
                melded += 1
            else:
                fixed.append((KONG, t, not mld.concealed))
                whole[t] += 4
                kongs += 1
                melded += not mld.concealed
    else:
        whole = c14
    if max(whole) > 4:
        check_counts(hand)   # raises NotationError naming a kind held more than four times
    # win-flag corrections, as the reference does
    fourth = hand.fourth
    in_standing = standing_counts[win] > 0
    in_fixed = whole[win] - c14[win]
    if in_standing:
        fourth = False
    if in_fixed == 3:
        fourth = True
    kong = hand.kong
    if kong:
        if hand.self_drawn:
            if not kongs:
                kong = False
        elif in_fixed or in_standing:
            kong = False
    ctx = _Ctx()
    ctx.standing = hand.concealed
    ctx.standing_counts = standing_counts
    ctx.win = win
    ctx.self_drawn = hand.self_drawn
    ctx.fourth = fourth
    ctx.kong = kong
    ctx.last = hand.last
    ctx.seat = hand.seat_wind
    ctx.prevalent = hand.round_wind
    ctx.fixed = fixed
    ctx.melded = melded
    ctx.strict = exclusions == "strict1998"
    ctx.separate = mixed_kongs == "separate"
    ctx._waits = None

    best: list[int] | None = None
    best_total = 0
    special = None
    m = _mask(whole)
    if len(fixed) <= 1:
        if bin(m & ~HONOR_MASK).count("1") >= 9:
            special = _knitted_straight(c14, ctx, hand.melds)
        if special is None and not fixed and (
                max(c14) == 1 or (1 not in c14 and 3 not in c14) or not m & ~TERM_HONOR_MASK):
            special = _special(c14, ctx)
        if special is not None:
            best = special
            best_total = _total(special)
    if best is None or special[SEVEN_PAIRS]:
        splits = decompositions(c14)
        if splits:
            if len(splits) > 1:
                splits.sort(key=_split_order)
            # the fans every split shares: win flags, concealment, 九莲宝灯, tile-set fans
            base = [0] * TABLE_SIZE
            _win_flags(ctx, base)
            melded_sets = ctx.melded
            if melded_sets == 0:
                base[FULLY_CONCEALED_HAND if ctx.self_drawn else CONCEALED_HAND] = 1
                if _nine_gates(standing_counts):
                    base[NINE_GATES] = 1
            elif melded_sets == 4 and not ctx.self_drawn:
                base[MELDED_HAND] = 1
            _suit_fans(m, base)
            _trait_fans(m, base)
            _rank_fans(m, base)
            _hog(whole, kongs, base)
            fixed_packs = [(ty, t) for ty, t, _m in fixed]
            seven_pairs = special is not None and special[SEVEN_PAIRS]
            for sp in splits:
                f = _standard(fixed_packs + sp, ctx, base)
                total = _total(f)
                if total > best_total:
                    best, best_total = f, total
                elif total == best_total and (f[PURE_TRIPLE_CHOW] or f[TRIPLE_PUNG] or seven_pairs):
                    best = f   # the reference prefers these readings on a tie
    return best, best_total


def _split_order(split: list[tuple[int, int]]) -> tuple:
    keys = []
    for ty, t in split[:-1]:
        low = t - 1 if ty == CHOW else t
        keys.append((ORDER[low], 1 if ty == CHOW else 0))
    keys.sort()
    return tuple(keys)


def calculate(hand: Hand | str, *, exclusions: str = "pymahjonggb",
              mixed_kongs: str = "combined") -> FanResult:
    """Score a winning hand (a :class:`Hand` or its one-line text).

    Returns the best interpretation's fans (rule file 4.2-4.3) with ``花牌`` added for the
    flowers. Raises :class:`NotWinning` when the tiles are not a winning shape and
    :class:`NotationError` for malformed text or impossible counts.
    """
    if isinstance(hand, str):
        hand = parse_hand(hand)
    else:
        if len(hand.concealed) != 13 - 3 * len(hand.melds):
            raise NotationError(f"{len(hand.melds)} melds need {13 - 3 * len(hand.melds)} concealed tiles, "
                                f"got {len(hand.concealed)}", "hand",
                                code="notation.hand_size",
                                params={"melds": len(hand.melds), "want": 13 - 3 * len(hand.melds),
                                        "got": len(hand.concealed)})
    f, base_total = _best(hand, exclusions, mixed_kongs)
    if f is None:
        shown = " ".join([format_tiles(hand.concealed)] + [str(m) for m in hand.melds])
        raise NotWinning(f"not a winning hand: {shown} + {format_tiles([hand.win])}")
    fans = [(i, f[i]) for i in compress(_KINDS, f)]
    if hand.flowers:
        fans.append((FLOWER_TILES, hand.flowers))
    if f[MIXED_KONGS]:
        fans.sort(key=lambda x: _DISPLAY_ORDER[x[0]])
    return FanResult(tuple(fans), base_total + hand.flowers, base_total)


# 明暗杠 (82) is listed after 双暗杠 (53), where its value places it
_DISPLAY_ORDER = {i: (53.5 if i == MIXED_KONGS else i) for i in range(TABLE_SIZE)}
