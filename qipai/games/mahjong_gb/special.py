"""The special forms of rule file 4.1: seven pairs (and 连七对), thirteen orphans, honors and
knitted tiles (全不靠 / 七星不靠) and a knitted straight with one set and a pair (组合龙).

Each function takes the 34 counts ``c14`` of the concealed tiles with the winning tile (as
``bytes``), the hand's :class:`~.winning.WinContext` and the kind mask of ``c14``, and returns
the fans of that reading after the exclusions, as a dict ``{fan number: count}`` of nonzero
counts, or ``None`` when the tiles do not form it.
"""

from __future__ import annotations

from typing import Final

from qipai.tiles.shapes import CHOW, KONG, PAIR, decompositions, waits

from .combos import pung_fans
from .exclusions import exclude, wind_fans
from .fantable import (
    ALL_CHOWS,
    CONCEALED_HAND,
    FULLY_CONCEALED_HAND,
    GREATER_HONORS_AND_KNITTED,
    KNITTED_STRAIGHT,
    LESSER_HONORS_AND_KNITTED,
    SEVEN_PAIRS,
    SEVEN_SHIFTED_PAIRS,
    SINGLE_WAIT,
    TABLE_SIZE,
    THIRTEEN_ORPHANS,
    TILE_HOG,
)
from .tilefans import (
    HONOR_MASK,
    KNITTED,
    KNITTED_MASKS,
    TERM_HONOR_MASK,
    WIND,
    kind_mask,
    rank_fans,
    sparse,
    suit_fans,
    trait_fans,
)
from .winning import WinContext, wait_fan, win_flag_fans


def _excluded(f: list[int], strict: bool) -> dict[int, int]:
    counts, bits = sparse(f)
    exclude(counts, bits, strict)
    return counts


def special(c14: bytes, ctx: WinContext, m: int) -> dict[int, int] | None:
    """The fans of seven pairs, thirteen orphans or honors and knitted tiles (no melds; ``c14``
    the 34 counts with the winning tile, ``m`` their kind mask), after the exclusions; ``None``
    for none of them."""
    f = [0] * TABLE_SIZE
    if not bytes(c14).translate(_ODD).count(1):      # every kind held an even number of times
        if _shifted(m):       # seven kinds in a row of one suit, 14 tiles: each held twice
            f[SEVEN_SHIFTED_PAIRS] = 1
            trait_fans(m, f)
        else:
            f[SEVEN_PAIRS] = 1
            suit_fans(m, f)
            trait_fans(m, f, strict_pairs=ctx.strict)
            if not ctx.strict:
                rank_fans(m, f)
            f[TILE_HOG] = c14.count(4)
    elif not m & ~TERM_HONOR_MASK and m.bit_count() == 13:
        f[THIRTEEN_ORPHANS] = 1
    elif not _honors_knitted(c14, m, f):
        return None
    win_flag_fans(ctx, f)
    return _excluded(f, ctx.strict)


_ODD: Final = bytes(n & 1 for n in range(256))    # 1 for an odd count


def _shifted(m: int) -> bool:
    """Whether the kinds ``m`` are seven in a row of one suit."""
    low = (m & -m).bit_length() - 1
    return low < 27 and low % 9 <= 2 and m == 0x7F << low


def _honors_knitted(c: bytes, m: int, f: list[int]) -> bool:
    if max(c) > 1:
        return False
    numbered = m & ~HONOR_MASK
    n = numbered.bit_count()
    if not 7 <= n <= 9:
        return False
    if not any(not numbered & ~k for k in KNITTED_MASKS):
        return False
    if n == 7:
        f[GREATER_HONORS_AND_KNITTED] = 1
    else:
        f[LESSER_HONORS_AND_KNITTED] = 1
        if n == 9:
            f[KNITTED_STRAIGHT] = 1
    return True


def knitted_straight(c14: bytes, ctx: WinContext, m: int) -> dict[int, int] | None:
    """The fans of a knitted straight with one set and the pair (at most one declared set;
    ``m`` the kind mask of ``c14``), after the exclusions; ``None`` when the tiles do not form
    one."""
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
        pung_fans([(ty, t, set_melded)], f, ctx.separate)
    win_flag_fans(ctx, f)
    if not fixed or (ty == KONG and not set_melded):
        f[FULLY_CONCEALED_HAND if ctx.self_drawn else CONCEALED_HAND] = 1
    whole = [0] * 34
    for x in pattern:
        whole[x] += 1
    for x in ((t - 1, t, t + 1) if ty == CHOW else (t,) * (4 if ty == KONG else 3)):
        whole[x] += 1
    whole[pair] += 2
    suit_fans(kind_mask(whole), f)
    f[TILE_HOG] = whole.count(4) - (1 if ty == KONG else 0)
    if not fixed:
        rest[ctx.win] -= 1
        if rest[ctx.win] >= 0:
            if len(waits(rest)) == 1:
                fan = wait_fan((t,) if ty == CHOW else (), pair, ctx.win)
                if fan:
                    f[fan] = 1
    elif ctx.standing_counts[ctx.win] > 0:
        f[SINGLE_WAIT] = 1
    counts = _excluded(f, ctx.strict)
    if WIND[t] and ty != CHOW:
        wind_fans(counts, t, ctx.prevalent, ctx.seat)
    return counts
