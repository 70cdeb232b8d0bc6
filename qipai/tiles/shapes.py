"""Standard hand shapes: sets and one pair.

A *pack* here is ``(type, tile)``: ``CHOW`` with ``tile`` the middle tile (chows are compared
by their middle tile), ``PUNG``, or ``PAIR``. :func:`decompositions` lists every way to split a
hand's tile counts into sets and exactly one pair; :func:`is_complete` and :func:`waits`
answer the two questions a referee asks most.

Speed: a suit's splits are read from a table of every one-suit pattern of at most four sets and
a pair (built on first use), and the per-suit facts derived from them are cached, so a hand is
split by combining at most three suit answers and its honors; :func:`only_wait` asks only the
winning tile's group.
A wildcard mahjong would add a joker count and try the kinds it can stand for on top of these
functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import product
from typing import Any, Final, cast

CHOW: Final = 1
PUNG: Final = 2
KONG: Final = 3
PAIR: Final = 4
_EMPTY: Final = (0,) * 9


def suit_splits(key: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every split of one suit's 9 counts into chows, pungs and at most one pair.

    Returns a tuple of splits; a split is a tuple of ``(type, rank index 0..8)`` (the chow's
    middle index). Splits with a pair are included only when the count is 2 mod 3. Patterns of
    a hand (at most 14 tiles, 4 of a kind) are read from :func:`_pattern_table`.
    """
    got = _pattern_table().get(key)
    if got is not None:
        return got
    if sum(key) <= 14 and max(key) <= 4:
        return ()
    return _searched_splits(key)


Split1 = tuple[tuple[int, int], ...]     # one suit's split: (type, rank index) pairs, sorted


@cache
def _pattern_table() -> dict[tuple[int, ...], tuple[Split1, ...]]:
    """Every one-suit pattern of at most four sets and at most one pair, no rank held more than
    four times (21,743 patterns), with its splits: each set of sets and pair is listed once and
    filed under the pattern it makes. Built on first use (a few hundredths of a second), of
    tuples of ints only, which the garbage collector stops tracking: no list per pattern for it
    to walk."""
    # the sets in (type, rank) order, chows first: the sets of a split are added in this order,
    # so each split comes out sorted (a pair, last in that order, is added last)
    kinds = sorted([(PUNG, r) for r in range(9)] + [(CHOW, r) for r in range(1, 8)])
    tiles = [(r, r, r) if ty == PUNG else (r - 1, r, r + 1) for ty, r in kinds]
    found: dict[tuple[int, ...], tuple[Split1, ...]] = {}
    _file_sets(kinds, tiles, [0] * 9, (), 0, found)
    return {key: tuple(sorted(splits)) if len(splits) > 1 else splits for key, splits in found.items()}


def _file_sets(kinds: list[tuple[int, int]], tiles: list[tuple[int, int, int]], c: list[int],
               sets: Split1, start: int, found: dict[tuple[int, ...], tuple[Split1, ...]]) -> None:
    """File the ``sets`` (whose tiles are counted in ``c``), alone and with each pair, into
    ``found``, then add one more set from ``kinds[start:]`` (no rank above four: adding sets
    never lowers a count)."""
    key = tuple(c)
    found[key] = found.get(key, ()) + (sets,)
    for r in range(9):
        if c[r] <= 2:
            c[r] += 2
            key = tuple(c)
            found[key] = found.get(key, ()) + (sets + ((PAIR, r),),)
            c[r] -= 2
    if len(sets) == 4:
        return
    for i in range(start, len(kinds)):
        a, b, d = tiles[i]
        c[a] += 1
        c[b] += 1
        c[d] += 1
        if c[a] <= 4 and c[b] <= 4 and c[d] <= 4:
            _file_sets(kinds, tiles, c, sets + (kinds[i],), i, found)
        c[a] -= 1
        c[b] -= 1
        c[d] -= 1


@cache
def _searched_splits(key: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """:func:`suit_splits` by search, for patterns outside the table."""
    total = sum(key)
    if total % 3 == 1:
        return ()
    want_pair = total % 3 == 2
    out: set[tuple[tuple[int, int], ...]] = set()
    c = list(key)

    def rec(start: int, acc: list[tuple[int, int]], pair_used: bool) -> None:
        i = start
        while i < 9 and c[i] == 0:
            i += 1
        if i == 9:
            if pair_used == want_pair:
                out.add(tuple(sorted(acc)))
            return
        if c[i] >= 3:
            c[i] -= 3
            acc.append((PUNG, i))
            rec(i, acc, pair_used)
            acc.pop()
            c[i] += 3
        if want_pair and not pair_used and c[i] >= 2:
            c[i] -= 2
            acc.append((PAIR, i))
            rec(i, acc, True)
            acc.pop()
            c[i] += 2
        if i <= 6 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            acc.append((CHOW, i + 1))
            rec(i, acc, pair_used)
            acc.pop()
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1

    rec(0, [], False)
    return tuple(sorted(out))


def decompositions(c: Sequence[int]) -> list[list[tuple[int, int]]]:
    """Every split of the 34-long counts ``c`` into sets and exactly one pair.

    Each split is a list of packs ``(type, tile)`` (chows by middle tile); the pair is last.
    Empty list when the tiles form no standard shape.
    """
    sets: list[tuple[int, int]] = []
    pair: tuple[int, int] | None = None
    pairs = 0
    for t in range(27, 34):
        n = c[t]
        if n == 3:
            sets.append((PUNG, t))
        elif n == 2:
            pair = (PAIR, t)
            pairs += 1
        elif n:
            return []
    parts = []
    for base in (0, 9, 18):
        key = tuple(c[base:base + 9])
        if key != _EMPTY:
            splits = _placed_splits(key, base)
            if not splits:
                return []
            if splits[0][1] is not None:
                pairs += 1
            if len(splits) == 1:
                sets.extend(splits[0][0])
                if splits[0][1] is not None:
                    pair = splits[0][1]
            else:
                parts.append(splits)
    if pairs != 1:
        return []
    if not parts:
        sets.append(cast("tuple[int, int]", pair))
        return [sets]
    out = []
    for combo in product(*parts):
        packs = list(sets)
        p = pair
        for part_sets, part_pair in combo:
            packs.extend(part_sets)
            if part_pair is not None:
                p = part_pair
        packs.append(cast("tuple[int, int]", p))
        out.append(packs)
    return out


@cache
def _placed_splits(key: tuple[int, ...], base: int) -> tuple[tuple[tuple[tuple[int, int], ...], Any], ...]:
    """The splits of one suit placed at tile ``base``, each as (its sets, its pair or None);
    either every split of a pattern has a pair or none has (by the count mod 3)."""
    out = []
    for sp in suit_splits(key):
        sets = tuple((ty, base + r) for ty, r in sp if ty != PAIR)
        pair = next(((PAIR, base + r) for ty, r in sp if ty == PAIR), None)
        out.append((sets, pair))
    return tuple(out)


@cache
def _suit_status(key: tuple[int, ...]) -> tuple[bool, bool]:
    """(splits with no pair, splits with one pair) for a suit pattern."""
    total = sum(key)
    m = total % 3
    if m != 1 and total <= 14 and max(key) <= 4:
        whole = key in _pattern_table()
        return (whole, False) if m == 0 else (False, whole)
    if m == 0:
        return _sets_only(key), False
    if m == 2:
        return False, any(key[r] >= 2 and _sets_only(key[:r] + (key[r] - 2,) + key[r + 1:])
                          for r in range(9))
    return False, False


@cache
def _sets_only(key: tuple[int, ...]) -> bool:
    """Whether one suit's counts split into chows and pungs, nothing left (the lowest rank
    held starts a pung or a chow; answers of smaller patterns are shared through the cache)."""
    i = 0
    while i < 9 and key[i] == 0:
        i += 1
    if i == 9:
        return True
    if key[i] >= 3 and _sets_only(key[:i] + (key[i] - 3,) + key[i + 1:]):
        return True
    return i <= 6 and key[i + 1] > 0 and key[i + 2] > 0 and _sets_only(
        key[:i] + (key[i] - 1, key[i + 1] - 1, key[i + 2] - 1) + key[i + 3:])


def is_complete(c: Sequence[int]) -> bool:
    """True when the counts split into sets and exactly one pair."""
    pairs = 0
    for t in range(27, 34):
        n = c[t]
        if n == 2:
            pairs += 1
        elif n not in (0, 3):
            return False
    for s in range(9, 28, 9):
        key = tuple(c[s - 9:s])
        total = sum(key)
        if total == 0:
            continue
        m = total % 3
        if m == 1:
            return False
        clean, paired = _suit_status(key)
        if m == 0:
            if not clean:
                return False
        else:
            if not paired:
                return False
            pairs += 1
    return pairs == 1


@cache
def _suit_adds(key: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Ranks whose addition makes a suit pattern (sets only, sets and one pair)."""
    clean: list[int] = []
    paired: list[int] = []
    if max(key) <= 3 and sum(key) <= 13:     # every pattern one more tile makes is tabled
        table = _pattern_table()
        adds = paired if sum(key) % 3 == 1 else clean
        k = list(key)
        for r in range(9):
            k[r] += 1
            if tuple(k) in table:
                adds.append(r)
            k[r] -= 1
        return tuple(clean), tuple(paired)
    k = list(key)
    for r in range(9):
        k[r] += 1
        c, p = _suit_status(tuple(k))
        if c:
            clean.append(r)
        if p:
            paired.append(r)
        k[r] -= 1
    return tuple(clean), tuple(paired)


@cache
def _suit_info(key: tuple[int, ...], base: int) -> tuple[bool, int, tuple[int, ...], tuple[int, ...]]:
    """For one suit's counts: (splits into sets and at most one pair now, pairs it holds (0/1),
    kinds whose addition leaves sets only, kinds whose addition leaves sets and one pair)."""
    m = sum(key) % 3
    clean, paired = _suit_status(key)
    valid = (m == 0 and clean) or (m == 2 and paired)
    adds_clean, adds_paired = _suit_adds(key)
    return (valid, 1 if m == 2 else 0, tuple(base + r for r in adds_clean),
            tuple(base + r for r in adds_paired))


@cache
def _honor_info(key: tuple[int, ...]) -> tuple[bool, int, tuple[int, ...], tuple[int, ...]]:
    """The same four facts as :func:`_suit_info` for the seven honor counts."""
    valid = all(n in (0, 2, 3) for n in key)
    pairs = sum(1 for n in key if n == 2)
    adds: tuple[list[int], list[int]] = ([], [])
    for i, n in enumerate(key):
        if n not in (1, 2):
            continue
        # n == 1 -> a pair, n == 2 -> a pung; every other honor must be valid already
        if not all(m in (0, 2, 3) for j, m in enumerate(key) if j != i):
            continue
        new_pairs = sum(1 for j, m in enumerate(key) if j != i and m == 2) + (n == 1)
        if new_pairs <= 1:
            adds[new_pairs].append(27 + i)
    return valid, pairs, tuple(adds[0]), tuple(adds[1])


def waits(c: Sequence[int], seven_pairs: bool = False) -> list[int]:
    """Kinds that complete the counts ``c`` (13 − 3k tiles) into a standard shape, and into
    seven pairs too when ``seven_pairs`` (then ``c`` must be 13 concealed tiles). A kind the
    hand already holds four times is still listed when it would complete the shape (the
    reference calculator counts waits the same way)."""
    infos = (_suit_info(tuple(c[0:9]), 0), _suit_info(tuple(c[9:18]), 9),
             _suit_info(tuple(c[18:27]), 18), _honor_info(tuple(c[27:34])))
    broken = [g for g in range(4) if not infos[g][0]]
    out: list[int] = []
    if len(broken) <= 1:
        pairs = [info[1] if info[0] else 0 for info in infos]
        total = sum(pairs)
        for g in broken or (0, 1, 2, 3):
            need = 1 - (total - pairs[g])
            if need == 0 or need == 1:
                out.extend(infos[g][3] if need else infos[g][2])
    if seven_pairs and sum(c) == 13:
        odd = [k for k, n in enumerate(c) if n & 1]
        if len(odd) == 1 and odd[0] not in out:
            out.append(odd[0])
    out.sort()
    return out


def only_wait(c: Sequence[int], win: int, seven_pairs: bool = False) -> bool:
    """Whether :func:`waits` of the counts ``c`` is ``[win]`` alone, for counts that ``win``
    completes into a standard shape (sets and one pair). Only the winning tile's group is
    looked at, unless that group is already whole without it: what that group says is kept
    per (group counts, winning rank): the three suits answer alike."""
    b = bytes(c)
    if win < 27:
        rank = win % 9
        key = b[win - rank:win - rank + 9]
    else:
        rank = win
        key = b[27:34]
    verdict = _GROUP_WAIT[rank].get(key)
    if verdict is None:
        verdict = _GROUP_WAIT[rank][key] = _group_wait(tuple(key), rank)
    if verdict == _ASK_ALL:          # the group needs no tile: every group may take the wait
        return len(waits(c, seven_pairs)) == 1
    if verdict == _OTHERS:
        return False
    if seven_pairs:
        odd = b.translate(_ODD)        # 1 where a kind is held an odd number of times
        if odd.count(1) == 1 and odd.index(1) != win and sum(b) == 13:
            return False
    return True


# what the winning tile's group says of a single wait: ask every group; the winning kind alone
# completes the group; other kinds complete it too. ``_GROUP_WAIT[rank][group counts]``, by the
# winning tile's rank 0..8 in its suit (the three suits share these) or its honor kind 27..33.
_ASK_ALL: Final = 0
_ALONE: Final = 1
_OTHERS: Final = 2
_GROUP_WAIT: Final[tuple[dict[bytes, int], ...]] = tuple({} for _ in range(34))


def _group_wait(key: tuple[int, ...], rank: int) -> int:
    """The verdict of one group's counts ``key`` on a win at ``rank`` (as in ``_GROUP_WAIT``)."""
    info = _suit_info(key, 0) if rank < 27 else _honor_info(key)
    if info[0]:
        return _ASK_ALL
    # every other group is whole; this one holds the pair when it will hold 2 mod 3 tiles
    return _ALONE if len(info[3] if (sum(key) + 1) % 3 == 2 else info[2]) == 1 else _OTHERS


_ODD: Final = bytes(n & 1 for n in range(256))


@cache
def _group_blocks(key: tuple[int, ...], honors: bool) -> frozenset[tuple[int, int, int]]:
    """Every (sets, partial sets, pair 0/1) one group of counts can be cut into: a set is a
    pung or (not for honors) a chow; a partial set is two tiles a set needs one more for (a
    pair, or two ranks of a chow); the pair is the hand's one pair."""
    c = list(key)
    n = len(c)
    out: set[tuple[int, int, int]] = set()

    def rec(i: int, sets: int, partial: int, pair: int) -> None:
        while i < n and not c[i]:
            i += 1
        if i == n:
            out.add((sets, partial, pair))
            return
        if c[i] >= 3:
            c[i] -= 3
            rec(i, sets + 1, partial, pair)
            c[i] += 3
        if not honors and i + 2 < n and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            rec(i, sets + 1, partial, pair)
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
        if c[i] >= 2:
            c[i] -= 2
            if not pair:
                rec(i, sets, partial, 1)
            rec(i, sets, partial + 1, pair)
            c[i] += 2
        if not honors:
            for d in (1, 2):
                if i + d < n and c[i + d]:
                    c[i] -= 1
                    c[i + d] -= 1
                    rec(i, sets, partial + 1, pair)
                    c[i] += 1
                    c[i + d] += 1
        c[i] -= 1                       # the tile stays unused
        rec(i, sets, partial, pair)
        c[i] += 1

    rec(0, 0, 0, 0)
    return frozenset(out)


def shanten(c: Sequence[int], melds: int = 0) -> int:
    """Standard-shape shanten of the 34 concealed counts ``c`` next to ``melds`` declared sets:
    how many tiles must still be exchanged before the hand waits (0: ready, -1: complete).
    Counts 4 sets and a pair only (no seven pairs or special shapes)."""
    groups = [_group_blocks(tuple(c[b:b + 9]), False) for b in (0, 9, 18)]
    groups.append(_group_blocks(tuple(c[27:34]), True))
    # combine group by group, keeping the best partial count per (sets, pair)
    acc = {(melds, 0): 0}
    for g in groups:
        nxt: dict[tuple[int, int], int] = {}
        for (s, p), t in acc.items():
            for gs, gt, gp in g:
                if p and gp:
                    continue
                key = (min(s + gs, 4), p | gp)
                if nxt.get(key, -1) < t + gt:
                    nxt[key] = t + gt
        acc = nxt
    best = 8
    for (s, p), t in acc.items():
        best = min(best, 8 - 2 * s - min(t, 4 - s) - p)
    return best
