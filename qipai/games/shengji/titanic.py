"""Following with three decks (profile ``titanic``, rules/shengji.md §3.10): pattern lists per
led shape, score vectors, and legality as "the best score vector the hand allows"."""

from __future__ import annotations

from collections.abc import Iterator

from .combos import _runs, pair_positions, shape_order, shape_size


def _pairs(q: dict[str, int]) -> int:
    return sum(1 for c in q.values() if c >= 2)


def _triples(q: dict[str, int]) -> int:
    return sum(1 for c in q.values() if c >= 3)


def _longest(q: dict[str, int], pos: dict[str, int], need: int) -> int:
    return max((hi - lo + 1 for lo, hi in _runs(pair_positions(q, pos, need))), default=0)


def _tractor_patterns(ell: int) -> list[tuple[int, int]]:
    cs = list(range(ell, 1, -1)) + [0]
    return sorted(((c, q) for c in cs for q in range(ell, -1, -1) if q >= c), reverse=True)


def pattern_score(q: dict[str, int], pos: dict[str, int], shape: tuple[str, int]) -> int:
    """Index (0 = best) of the best pattern of the led ``shape`` that the cards ``q`` realise."""
    kind, ell = shape
    if kind == "single":
        return 0
    if kind == "pair":
        return 0 if _pairs(q) else 1
    if kind == "triple":
        return 0 if _triples(q) else 1 if _pairs(q) else 2
    if kind == "tractor":
        run, pairs = _longest(q, pos, 2), _pairs(q)
        for i, (c, n) in enumerate(_tractor_patterns(ell)):
            if (c == 0 or run >= c) and pairs >= n:
                return i
        raise AssertionError("the last tractor pattern (0, 0) always matches")
    # titanic
    triples = _triples(q)
    if _longest(q, pos, 3) >= 2:
        return 0
    if triples >= 2:
        return 1
    if _longest(q, pos, 2) >= 2:
        return 2
    if triples and _pairs(q) >= 2:
        return 3
    if triples:
        return 4
    if _pairs(q) >= 2:
        return 5
    if _pairs(q):
        return 6
    return 7


def _subs(items: list[tuple[str, int]], size: int) -> Iterator[dict[str, int]]:
    if size == 0:
        yield {}
        return
    if not items:
        return
    (f, c), rest = items[0], items[1:]
    left = sum(x for _, x in rest)
    for t in range(min(c, size), -1, -1):
        if size - t > left:
            break
        for sub in _subs(rest, size - t):
            if t:
                sub = {**sub, f: t}
            yield sub


def best_vector(holding: dict[str, int], pos: dict[str, int],
                shapes: list[tuple[str, int]]) -> tuple[int, ...]:
    """Smallest score vector over all ways to take the components' sizes from ``holding``."""
    memo: dict[tuple, tuple[int, ...]] = {}

    def rec(rem: dict[str, int], i: int) -> tuple[int, ...]:
        if i == len(shapes):
            return ()
        key = (tuple(sorted(rem.items())), i)
        if key in memo:
            return memo[key]
        best: tuple[int, ...] | None = None
        items = sorted((f, c) for f, c in rem.items() if c)
        for sub in _subs(items, shape_size(shapes[i])):
            sc = pattern_score(sub, pos, shapes[i])
            if best is not None and sc > best[0]:
                continue
            left = {f: c - sub.get(f, 0) for f, c in rem.items()}
            v = (sc, *rec(left, i + 1))
            if best is None or v < best:
                best = v
        assert best is not None
        memo[key] = best
        return best

    return rec(dict(holding), 0)


def shapes_in_order(fmt: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """F's components in the order of §3.10: titanic, tractors (longest first), triples, pairs,
    singles."""
    return sorted(fmt, key=shape_order)


def follow_ok3(play: dict[str, int], he: dict[str, int], pos: dict[str, int],
               fmt: list[tuple[str, int]], n: int) -> bool:
    """§3.10: with more than N led-suit cards, ``play`` (all led suit) is legal iff its score
    vector equals the best one any N cards of ``he`` reach."""
    shapes = shapes_in_order(fmt)
    return best_vector(play, pos, shapes) == best_vector(he, pos, shapes)
