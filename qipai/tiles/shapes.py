"""Standard hand shapes: sets and one pair.

A *pack* here is ``(type, tile)``: ``CHOW`` with ``tile`` the middle tile (chows are compared
by their middle tile), ``PUNG``, or ``PAIR``. :func:`decompositions` lists every way to split a
hand's tile counts into sets and exactly one pair; :func:`is_complete` and :func:`waits`
answer the two questions a referee asks most.

Speed: each suit's 9 counts are split once and the result cached (a suit pattern recurs across
hands), so a hand is split by combining at most three cached suit answers and its honors.
A wildcard mahjong would add a joker count and try the kinds it can stand for on top of these
functions.
"""

from __future__ import annotations

from functools import cache
from itertools import product

CHOW, PUNG, KONG, PAIR = 1, 2, 3, 4
_EMPTY = (0,) * 9


@cache
def suit_splits(key: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every split of one suit's 9 counts into chows, pungs and at most one pair.

    Returns a tuple of splits; a split is a tuple of ``(type, rank index 0..8)`` (the chow's
    middle index). Splits with a pair are included only when the count is 2 mod 3.
    """
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


def _honor_split(c: list[int]) -> tuple[tuple[int, int], ...] | None:
    out = []
    for t in range(27, 34):
        n = c[t]
        if n == 0:
            continue
        if n == 3:
            out.append((PUNG, t))
        elif n == 2:
            out.append((PAIR, t))
        else:
            return None
    return tuple(out)


def decompositions(c: list[int]) -> list[list[tuple[int, int]]]:
    """Every split of the 34-long counts ``c`` into sets and exactly one pair.

    Each split is a list of packs ``(type, tile)`` (chows by middle tile); the pair is last.
    Empty list when the tiles form no standard shape.
    """
    honors = _honor_split(c)
    if honors is None:
        return []
    parts = []
    for base in (0, 9, 18):
        key = tuple(c[base:base + 9])
        if key != _EMPTY:
            splits = _placed_splits(key, base)
            if not splits:
                return []
            parts.append(splits)
    parts.append((honors,))
    out = []
    for combo in product(*parts):
        packs = [p for part in combo for p in part]
        pairs = [p for p in packs if p[0] == PAIR]
        if len(pairs) != 1:
            continue
        out.append([p for p in packs if p[0] != PAIR] + pairs)
    return out


@cache
def _placed_splits(key: tuple[int, ...], base: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    return tuple(tuple((ty, base + r) for ty, r in sp) for sp in suit_splits(key))


@cache
def _suit_status(key: tuple[int, ...]) -> tuple[bool, bool]:
    """(splits with no pair, splits with one pair) for a suit pattern."""
    splits = suit_splits(key)
    with_pair = any(any(p[0] == PAIR for p in sp) for sp in splits)
    return (bool(splits) and not with_pair, with_pair)


def is_complete(c: list[int]) -> bool:
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
    clean = []
    paired = []
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


def waits(c: list[int], seven_pairs: bool = False) -> list[int]:
    """Kinds that complete the counts ``c`` (13 − 3k tiles) into a standard shape, and into
    seven pairs too when ``seven_pairs`` (then ``c`` must be 13 concealed tiles). A kind the
    hand already holds four times is still listed when it would complete the shape (the
    reference calculator counts waits the same way)."""
    # per group: valid now, pairs now, kinds that keep it valid with 0 pairs, with 1 pair
    groups = []
    for s in (0, 9, 18):
        key = tuple(c[s:s + 9])
        if key == _EMPTY:
            groups.append((True, 0, None, s))
            continue
        m = sum(key) % 3
        clean, paired = _suit_status(key)
        valid = (m == 0 and clean) or (m == 2 and paired)
        groups.append((valid, 1 if m == 2 else 0, key, s))
    honors = c[27:34]
    h_valid = all(n in (0, 2, 3) for n in honors)
    h_pairs = sum(1 for n in honors if n == 2)
    broken = [i for i, g in enumerate(groups) if not g[0]]
    if not h_valid:
        broken.append(3)
    if len(broken) > 1:
        out = []
    else:
        pairs = [g[1] if g[0] else 0 for g in groups] + [h_pairs if h_valid else 0]
        total = sum(pairs)
        out = []
        targets = broken if broken else [0, 1, 2, 3]
        for g in targets:
            need = 1 - (total - pairs[g])
            if need not in (0, 1):
                continue
            if g == 3:
                for i, n in enumerate(honors):
                    if n == 0 or n == 3 or n == 4:
                        continue
                    # n == 1 -> pair, n == 2 -> pung; every other honor must be valid
                    others_ok = all(m in (0, 2, 3) for j, m in enumerate(honors) if j != i)
                    if not others_ok:
                        continue
                    new_pairs = sum(1 for j, m in enumerate(honors) if j != i and m == 2) + (n == 1)
                    if new_pairs == 1 - (total - pairs[3]):
                        out.append(27 + i)
                continue
            _valid, _p, key, base = groups[g]
            if key is None:
                continue   # adding one tile to an empty suit never completes it
            adds = _suit_adds(key)[need]
            out.extend(base + r for r in adds)
    if seven_pairs and sum(c) == 13:
        odd = [k for k in range(34) if c[k] % 2]
        if len(odd) == 1 and odd[0] not in out:
            out.append(odd[0])
    out.sort()
    return out
