"""Hand shapes with wildcards (jokers): how many jokers a hand needs to be complete.

A joker stands for any kind the caller allows, also as a fifth copy. Instead of trying every
kind for every joker (34⁴ readings of four jokers), each group of the hand (the three suits and
the honors) is cut once into sets, with jokers filling the holes, and the cheapest cut is
cached per pattern of counts: :func:`group_cost`. :func:`standard_cost` combines the groups
into sets and one pair; :func:`pairs_cost` is the seven-pairs shape. A hand of ``3n + 2`` tiles
with ``j`` jokers is complete when the cost is at most ``j`` (the jokers left over form whole
sets or pairs of any allowed kind).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

#: the groups of the 34 kinds: (first kind, size, chows possible)
GROUPS: tuple[tuple[int, int, bool], ...] = ((0, 9, True), (9, 9, True), (18, 9, True), (27, 7, False))
INFINITE = 99


@cache
def group_cost(key: tuple[int, ...], chows: bool, pair: bool) -> int:
    """The fewest jokers that turn one group's counts ``key`` into sets (pungs, and chows when
    ``chows``) plus exactly one pair when ``pair``. Jokers may fill any place of a set, also
    a fifth copy of a kind; an empty group with ``pair`` costs 2 (a pair of jokers)."""
    c = list(key)
    i = next((k for k, n in enumerate(c) if n), None)
    if i is None:
        return 2 if pair else 0
    best = INFINITE

    def take(parts: dict[int, int], cost: int, pair_left: bool) -> None:
        nonlocal best
        if cost >= best:
            return
        for k, n in parts.items():
            c[k] -= n
        rest = group_cost(tuple(c), chows, pair_left)
        for k, n in parts.items():
            c[k] += n
        best = min(best, cost + rest)

    for real in range(1, min(c[i], 3) + 1):          # a pung of i, jokers for the rest
        take({i: real}, 3 - real, pair)
    if pair:
        for real in range(1, min(c[i], 2) + 1):      # the pair
            take({i: real}, 2 - real, False)
    if chows:
        n = len(c)
        for start in (i - 2, i - 1, i):              # chows holding i, places below i are jokers
            if start < 0 or start + 2 >= n:
                continue
            above = [k for k in (start + 1, start + 2) if k > i]
            for mask in range(1 << len(above)):      # each place above i: a real tile or a joker
                parts = {i: 1}
                cost = i - start
                ok = True
                for b, k in enumerate(above):
                    if mask >> b & 1:
                        if not c[k]:
                            ok = False
                            break
                        parts[k] = 1
                    else:
                        cost += 1
                if ok:
                    take(parts, cost, pair)
    return best


def standard_cost(counts: Sequence[int], *, allowed: Sequence[bool] = (True,) * 4,
                  chows: Sequence[bool] = (True, True, True, False),
                  nonempty: Sequence[bool] = (False,) * 4) -> int:
    """The fewest jokers that complete the 34 ``counts`` into sets and one pair.

    Per group (characters, dots, bamboo, honors): ``allowed`` says whether its kinds may be
    used at all (a tile of a group that is not allowed makes the cost :data:`INFINITE`, and no
    joker goes there), ``chows`` whether chows may be formed there, ``nonempty`` whether the
    group must hold at least one tile when complete (a joker pair or set if it has none)."""
    costs = []
    for g, (base, size, can_chow) in enumerate(GROUPS):
        key = tuple(counts[base:base + size])
        empty = not any(key)
        if not allowed[g]:
            if not empty or nonempty[g]:
                return INFINITE
            costs.append(None)
            continue
        ch = can_chow and chows[g]
        sets = group_cost(key, ch, False)
        with_pair = group_cost(key, ch, True)
        if empty and nonempty[g]:
            sets, with_pair = 3, 2
        costs.append((sets, with_pair))
    usable = [c for c in costs if c is not None]
    if not usable:
        return INFINITE
    total = sum(c[0] for c in usable)
    return min(total - c[0] + c[1] for c in usable)


def pairs_cost(counts: Sequence[int], *, allowed: Sequence[bool] = (True,) * 4,
               nonempty: Sequence[bool] = (False,) * 4) -> int:
    """The fewest jokers that make the 34 ``counts`` (a concealed hand) seven pairs (four of a
    kind are two pairs); ``allowed`` and ``nonempty`` per group as in :func:`standard_cost`."""
    cost = 0
    for g, (base, size, _) in enumerate(GROUPS):
        key = counts[base:base + size]
        if not allowed[g]:
            if any(key) or nonempty[g]:
                return INFINITE
            continue
        cost += sum(n & 1 for n in key)
        if nonempty[g] and not any(key):
            cost += 2
    return cost
