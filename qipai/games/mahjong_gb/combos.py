"""The set-combination fans of one split (rule file 4.3 steps 3-4), and tables of them by packs.

A split's sets are read as three independent groups: its chows (by middle tile), its pungs and
kongs (by tile), and the counts of its melded and concealed kongs and concealed pungs.
:func:`chow_entry` and :func:`pung_entry` give the fans of a group of chows or of pung tiles
(remembered per group: at most 12,650 chow groups and 52,956 pung groups exist; every one of
them is made at import, so that a hand never met before finds its groups made; a group of both
number and honor pungs is joined from the two, and kept by key only: :data:`PUNGS_BY_KEY`), and
:data:`KONG_FANS` the kong and concealed-pung fans of every count. Each fan set is a sparse fan
table ``(counts, bits)`` (see :mod:`.tilefans`).

The rules inside follow PyMahjongGB 1.4.0: sets are compared in its order (characters, bamboo,
dots, honors), three chows or pungs are tried before pairs of them, and an extra set may
combine once with those already used (account-once, 4.3).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement
from typing import Final, cast

from qipai.tiles.shapes import CHOW, KONG, PUNG

from .fantable import (
    ALL_PUNGS,
    BIG_FOUR_WINDS,
    BIG_THREE_DRAGONS,
    BIG_THREE_WINDS,
    CONCEALED_KONG,
    DOUBLE_PUNG,
    DRAGON_PUNG,
    FOUR_CONCEALED_PUNGS,
    FOUR_KONGS,
    FOUR_PURE_SHIFTED_CHOWS,
    FOUR_PURE_SHIFTED_PUNGS,
    MELDED_KONG,
    MIXED_DOUBLE_CHOW,
    MIXED_KONGS,
    MIXED_SHIFTED_CHOWS,
    MIXED_SHIFTED_PUNGS,
    MIXED_STRAIGHT,
    MIXED_TRIPLE_CHOW,
    PUNG_OF_TERMINALS_OR_HONORS,
    PURE_DOUBLE_CHOW,
    PURE_SHIFTED_CHOWS,
    PURE_SHIFTED_PUNGS,
    PURE_STRAIGHT,
    PURE_TERMINAL_CHOWS,
    PURE_TRIPLE_CHOW,
    QUADRUPLE_CHOW,
    SHORT_STRAIGHT,
    TABLE_SIZE,
    THREE_CONCEALED_PUNGS,
    THREE_KONGS,
    THREE_SUITED_TERMINAL_CHOWS,
    TRIPLE_PUNG,
    TWO_CONCEALED_KONGS,
    TWO_CONCEALED_PUNGS,
    TWO_DRAGON_PUNGS,
    TWO_MELDED_KONGS,
    TWO_TERMINAL_CHOWS,
)
from .tilefans import DRAGON, ORDER, RANK, SUIT, TERM_OR_HONOR, WIND, sparse


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


# three of four sets (their places), then the one left: the reference's order of trying them
_THREE_OF_FOUR: Final = ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0))
_PAIR_FANS: Final = (PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS)


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
        for i, j, k, x in _THREE_OF_FOUR:
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


_TWO_PUNG_FAN: Final = {3: DOUBLE_PUNG, 4: TWO_DRAGON_PUNGS}


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
        for i, j, k, free in _THREE_OF_FOUR:
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


def _kongs(mk: int, ck: int, cp: int, pungs: int, f: list[int], separate: bool) -> None:
    """Kong and concealed-pung fans (4.3 step 4) of ``mk`` melded kongs, ``ck`` concealed kongs
    and ``cp`` concealed pungs among ``pungs`` pungs and kongs, then 碰碰和."""
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
    if pungs == 4 and not f[FOUR_KONGS] and not f[FOUR_CONCEALED_PUNGS]:
        f[ALL_PUNGS] = 1


def _pung_tiles(tiles, f: list[int]) -> None:
    """箭刻 and 幺九刻, one per pung or kong of ``tiles``."""
    for t in tiles:
        if DRAGON[t]:
            f[DRAGON_PUNG] += 1
        elif TERM_OR_HONOR[t]:
            f[PUNG_OF_TERMINALS_OR_HONORS] += 1


def pung_fans(pungs: list[tuple[int, int, bool]], f: list[int], separate: bool) -> None:
    """Kong and concealed-pung fans, 碰碰和 and the single-pung fans of ``pungs``, each
    ``(PUNG or KONG, tile, melded)``, into the full table ``f``."""
    mk = ck = cp = 0
    for ty, _t, melded in pungs:
        if melded:
            if ty == KONG:
                mk += 1
        elif ty == KONG:
            ck += 1
        else:
            cp += 1
    _kongs(mk, ck, cp, len(pungs), f, separate)
    _pung_tiles([t for _ty, t, _m in pungs], f)


def _kong_table(separate: bool) -> tuple[tuple[dict[int, int], int], ...]:
    table: list[tuple[dict[int, int], int]] = [({}, 0)] * 625
    for pungs in range(5):
        for mk in range(pungs + 1):
            for ck in range(pungs - mk + 1):
                for cp in range(pungs - mk - ck + 1):
                    f = [0] * TABLE_SIZE
                    _kongs(mk, ck, cp, pungs, f, separate)
                    table[kong_index(mk, ck, cp, pungs)] = sparse(f)
    return tuple(table)


def kong_index(mk: int, ck: int, cp: int, pungs: int) -> int:
    """The place in a :data:`KONG_FANS` table of ``mk`` melded kongs, ``ck`` concealed kongs,
    ``cp`` concealed pungs among ``pungs`` pungs and kongs (each 0..4: the digits of a number
    in base 5, so a hand's kongs give ``kong_index(mk, ck, 0, 0)`` once and each split adds
    ``5 * cp + pungs``)."""
    return ((mk * 5 + ck) * 5 + cp) * 5 + pungs


# KONG_FANS[separate][kong_index(melded kongs, concealed kongs, concealed pungs, pungs and
# kongs)]: the sparse fan table of 4.3 step 4 (``separate``: 明暗杠 scored as 明杠 + 暗杠; an
# index no hand reaches holds no fans)
KONG_FANS: Final = {False: _kong_table(False), True: _kong_table(True)}


# ----- tables by group of packs ---------------------------------------------------------------
def _pack_trait(ty: int, t: int) -> int:
    """1: the group holds a terminal or honor; 2: a five; 4: an even pung or pair; else 0."""
    if t >= 27:
        return 1
    r = RANK[t]
    if ty == CHOW:
        return 1 if r in (2, 8) else (2 if 4 <= r <= 6 else 0)
    return 1 if r in (1, 9) else (2 if r == 5 else (4 if r % 2 == 0 else 0))


CHOW_TRAIT: Final = [_pack_trait(CHOW, t) for t in range(34)]
PUNG_TRAIT: Final = [_pack_trait(PUNG, t) for t in range(34)]   # the same for kongs and the pair


# The entries are tuples of ints and of tuples of ints only, which the garbage collector stops
# tracking (a process keeps tens of thousands of them: a dict inside, or a NamedTuple, would keep
# each one tracked, and every full collection would walk them all), and which compiled code
# unpacks without a look-up by name. A group's fans are ``pairs``, its fan counts as
# ``((fan number, count), ...)`` by fan number (what ``dict.update`` takes), with ``bits`` the
# int of their fans.
#
# ChowEntry, the fans of a group of chows: ``(pairs, bits, trait, terminal)``: ``trait`` the
# traits every chow shares (see :func:`_pack_trait`), ``terminal`` four chows, each 123 or 789
# (三色双龙会 / 一色双龙会 may replace the fans with a pair of fives).
ChowEntry = tuple[tuple[tuple[int, int], ...], int, int, bool]
# PungEntry, the fans of a group of pung and kong tiles: ``(pairs, bits, trait, winds,
# pair_fan)``: the fans are the combinations, 箭刻 and 幺九刻; ``trait`` the shared traits;
# ``winds`` the wind tiles among them; ``pair_fan`` 1 when 双箭刻 becomes 小三元 with a dragon
# pair, 2 when 三风刻 becomes 小四喜 with a wind pair, else 0.
PungEntry = tuple[tuple[tuple[int, int], ...], int, int, tuple[int, ...], int]


# the entries made so far, by group (read them here first: :func:`chow_entry` and
# :func:`pung_entry` make the missing ones)
CHOW_ENTRIES: Final[dict[tuple[int, ...], ChowEntry]] = {}
PUNG_ENTRIES: Final[dict[tuple[int, ...], PungEntry]] = {}
_CHOWS: Final = CHOW_ENTRIES
_PUNGS: Final = PUNG_ENTRIES

# The same entries by an int key that a split's groups make by addition, with no sorted tuple
# of tiles: a chow group's key is the sum of ``CHOW_KEY[t] = 5 ** t`` over its middle tiles
# (at most four chows: each tile's count is one digit in base 5), a pung group's the sum of
# ``PUNG_KEY[t] = 2 ** t`` over its tiles (distinct). A split's key is its suits' keys plus its
# declared sets' keys; an int key is hashed and compared at C speed, a tuple's tile by tile.
CHOW_KEY: Final = tuple(5 ** t for t in range(27))
PUNG_KEY: Final = tuple(1 << t for t in range(34))
CHOWS_BY_KEY: Final[dict[int, ChowEntry]] = {}
PUNGS_BY_KEY: Final[dict[int, PungEntry]] = {}


def chow_key(chows: Sequence[int]) -> int:
    """The key in :data:`CHOWS_BY_KEY` of the chows with middle tiles ``chows``."""
    key = 0
    for t in chows:
        key += CHOW_KEY[t]
    return key


def pung_key(pungs: Sequence[int]) -> int:
    """The key in :data:`PUNGS_BY_KEY` of the pungs and kongs of the tiles ``pungs``."""
    key = 0
    for t in pungs:
        key += PUNG_KEY[t]
    return key


def chow_entry_by_key(key: int) -> ChowEntry:
    """The ChowEntry of the group of chows whose key is ``key`` (:func:`chow_entry`)."""
    chows: list[int] = []
    t = 0
    rest = key
    while rest:
        rest, n = divmod(rest, 5)
        chows += [t] * n
        t += 1
    got = CHOWS_BY_KEY[key] = chow_entry(tuple(chows))
    return got


def pung_entry_by_key(key: int) -> PungEntry:
    """The PungEntry of the group of pungs whose key is ``key`` (:func:`pung_entry`; a group
    of both number and honor pungs is made on its first use)."""
    got = PUNGS_BY_KEY[key] = pung_entry(tuple([t for t in range(34) if key >> t & 1]))
    return got


def chow_entry(chows: tuple[int, ...]) -> ChowEntry:
    """The ChowEntry of up to four chows (middle tiles, ascending); like the pungs'
    (:func:`pung_entry`), worked out once per class of groups that differ only by their suits."""
    got = _CHOWS.get(chows)
    if got is None:
        canon = _suits_canonical(chows)
        if canon != chows:
            got = _CHOWS[chows] = _CHOWS.get(canon) or chow_entry(canon)
            return got
        f = [0] * TABLE_SIZE
        _chows(sorted(chows, key=ORDER.__getitem__), f)
        trait = 7
        for t in chows:
            trait &= CHOW_TRAIT[t]
        terminal = len(chows) == 4 and all(RANK[t] in (2, 8) for t in chows)
        counts, bits = sparse(f)
        got = _CHOWS[chows] = (tuple(counts.items()), bits, trait, terminal)
    return got


def pung_entry(pungs: tuple[int, ...]) -> PungEntry:
    """The PungEntry of up to four pung or kong tiles (distinct, ascending).

    Number tiles and honors never combine (no pung fan joins the two, and the reference tries
    a mixed three of pungs to no effect), so the entry joins that of its number tiles and that
    of its honors, each remembered on its own. The entry of number tiles does not change when
    the suits are exchanged, so it is worked out once for the suits in a canonical order
    (:func:`_suits_canonical`) and shared by the groups that differ only by their suits."""
    got = _PUNGS.get(pungs)
    if got is None:
        split = next((i for i, t in enumerate(pungs) if t >= 27), len(pungs))
        canon = _suits_canonical(pungs) if split == len(pungs) else pungs
        if canon != pungs:
            got = _PUNGS.get(canon) or pung_entry(canon)
        elif 0 < split < len(pungs):
            got = _join_pungs(pung_entry(pungs[:split]), pung_entry(pungs[split:]))
        else:
            f = [0] * TABLE_SIZE
            _pungs(sorted(pungs, key=ORDER.__getitem__), f)
            _pung_tiles(pungs, f)
            trait = 7
            for t in pungs:
                trait &= PUNG_TRAIT[t]
            pair_fan = 1 if f[TWO_DRAGON_PUNGS] else (2 if f[BIG_THREE_WINDS] else 0)
            counts, bits = sparse(f)
            got = (tuple(counts.items()), bits, trait, tuple([t for t in pungs if WIND[t]]), pair_fan)
        _PUNGS[pungs] = got
    return got


def _join_pungs(numbers: PungEntry, honors: PungEntry) -> PungEntry:
    """The PungEntry of a group of number pungs and a group of honor pungs together."""
    a_pairs, a_bits, a_trait, _a_winds, _a_pair_fan = numbers
    b_pairs, b_bits, b_trait, b_winds, b_pair_fan = honors
    counts = dict(a_pairs)
    for fan, n in b_pairs:         # 幺九刻 comes from both
        counts[fan] = counts.get(fan, 0) + n
    return (tuple(sorted(counts.items())), a_bits | b_bits, a_trait & b_trait, b_winds, b_pair_fan)


def _fill() -> None:
    """Make the entry of every chow group (12,650), every group of number pungs (20,854) and
    every group of honor pungs (128), by tiles and by key, and of every group of both by key
    (32,004): a tenth of a second, once."""
    middles = [t for t in range(27) if 2 <= RANK[t] <= 8]
    for n in range(5):
        for group in combinations_with_replacement(middles, n):
            chow_entry(group)
        for group in combinations(range(27), n):
            pung_entry(group)
        for group in combinations(range(27, 34), n):
            pung_entry(group)
    for chows, entry in _CHOWS.items():
        CHOWS_BY_KEY[chow_key(chows)] = entry
    for pungs, pentry in _PUNGS.items():
        PUNGS_BY_KEY[pung_key(pungs)] = pentry
    # every group of both number and honor pungs (32,004), by key only: joined from its two
    # parts, they hold 176 different entries, each kept as one object (held as ``object`` on
    # the way: compiled code would make a new tuple each time it stored a PungEntry)
    numbers = [(len(g), pung_key(g), _PUNGS[g]) for n in range(1, 4) for g in combinations(range(27), n)]
    kept: dict[PungEntry, object] = {}
    mixed: dict[int, object] = {}
    for n in range(1, 4):
        for honors in combinations(range(27, 34), n):
            honors_key, honors_entry = pung_key(honors), _PUNGS[honors]
            for size, key, numbers_entry in numbers:
                if size + n <= 4:
                    joined = _join_pungs(numbers_entry, honors_entry)
                    mixed[key + honors_key] = kept.setdefault(joined, joined)
    PUNGS_BY_KEY.update(cast(dict[int, PungEntry], mixed))



def _suits_canonical(tiles: tuple[int, ...]) -> tuple[int, ...]:
    """The number tiles ``tiles`` (ascending) with their suits renamed so that the suits' rank
    tuples come in ascending order (the longest last): one group for each class of groups that
    differ only by the names of their suits."""
    by_suit: tuple[list[int], list[int], list[int]] = ([], [], [])
    for t in tiles:
        by_suit[t // 9].append(t % 9)
    ranks = sorted((len(r), r) for r in by_suit)
    return tuple(sorted(9 * s + r for s, (_n, rs) in enumerate(ranks) for r in rs))


def terminal_chows(chows, pair: int) -> int:
    """三色双龙会 or 一色双龙会 for four chows and the pair, else 0."""
    if _three_suited_terminal(chows, pair):
        return THREE_SUITED_TERMINAL_CHOWS
    if _pure_terminal(chows, pair):
        return PURE_TERMINAL_CHOWS
    return 0


def _three_suited_terminal(chows: Sequence[int], pair: int) -> bool:
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


def _pure_terminal(chows: Sequence[int], pair: int) -> bool:
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


_fill()
