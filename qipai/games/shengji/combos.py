"""Combinations of one effective suit: decomposition of a lead, throw checks, following and
trick comparison (rules/shengji.md §3.3–§3.8, §3.10).

A *holding* is a ``dict`` face code → number of copies, all of one effective suit; ``pos`` is
the hand's order map (:class:`~.trump.Trump.pos`). A component is a :class:`Comp`; a lead's
*format* is the list of its components' shapes.

Shapes: ``("single", 1)``, ``("pair", 1)``, ``("triple", 1)``, ``("tractor", l)`` (l pairs of
consecutive ``pos``), ``("titanic", 2)`` (two triples of consecutive ``pos``, 3 decks).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from typing import NamedTuple

from .trump import SUIT_PREF

SIZE = {"single": 1, "pair": 2, "triple": 3}
# order of components in a format: titanic, tractors (longest first), triples, pairs, singles
_KIND_RANK = {"titanic": 0, "tractor": 1, "triple": 2, "pair": 3, "single": 4}


class Comp(NamedTuple):
    """One component: ``kind``, ``length`` (pairs of a tractor, 2 for a titanic, else 1),
    ``top`` (highest ``pos``), ``faces`` (the face codes with repetition)."""

    kind: str
    length: int
    top: int
    faces: tuple[str, ...]

    @property
    def shape(self) -> tuple[str, int]:
        return (self.kind, self.length)

    @property
    def size(self) -> int:
        return shape_size(self.shape)


def shape_size(shape: tuple[str, int]) -> int:
    kind, length = shape
    if kind == "tractor":
        return 2 * length
    if kind == "titanic":
        return 6
    return SIZE[kind]


def shape_order(shape: tuple[str, int]) -> tuple[int, int]:
    return (_KIND_RANK[shape[0]], -shape[1])


def shape_text(shape: tuple[str, int]) -> str:
    return f"tractor({shape[1]})" if shape[0] == "tractor" else shape[0]


def _suit_pref(face: str) -> int:
    return SUIT_PREF.get(face[1], 0) if face[1] in SUIT_PREF else 0


def counts(faces: Iterable[str]) -> dict[str, int]:
    """The holding of ``faces``: copies of each face, in the order faces first appear (as
    ``dict(Counter(faces))``)."""
    out: dict[str, int] = {}
    for f in faces:
        out[f] = out.get(f, 0) + 1
    return out


def _runs(positions: list[int]) -> list[tuple[int, int]]:
    """Maximal runs ``(low, high)`` of consecutive integers in the sorted distinct list."""
    out: list[tuple[int, int]] = []
    for p in positions:
        if out and out[-1][1] == p - 1:
            out[-1] = (out[-1][0], p)
        else:
            out.append((p, p))
    return out


def pair_positions(holding: dict[str, int], pos: dict[str, int], need: int = 2) -> list[int]:
    """Sorted distinct ``pos`` values where some face has at least ``need`` copies."""
    return sorted({pos[f] for f, c in holding.items() if c >= need})


def pair_count(holding: dict[str, int]) -> int:
    """PC: faces present at least twice (§3.3, §3.10)."""
    return sum(1 for c in holding.values() if c >= 2)


# ----- decomposition of a lead (§3.4, §3.10) ------------------------------------------------
def decompose(holding: dict[str, int], pos: dict[str, int], decks: int = 2) -> list[Comp]:
    """The canonical components of a lead (one effective suit), in format order."""
    if decks >= 3 and max(holding.values(), default=0) >= 3:
        return _decompose3(holding, pos)
    counts = dict(holding)
    comps: list[Comp] = []
    by_pos: dict[int, list[str]] = {}
    for f, c in counts.items():
        if c >= 2:
            by_pos.setdefault(pos[f], []).append(f)
    for lst in by_pos.values():
        lst.sort(key=_suit_pref)
    while True:
        runs = [r for r in _runs(sorted(p for p, lst in by_pos.items() if lst)) if r[1] > r[0]]
        if not runs:
            break
        lo, hi = max(runs, key=lambda r: (r[1] - r[0], r[1]))
        faces: list[str] = []
        for p in range(hi, lo - 1, -1):
            f = by_pos[p].pop(0)
            faces += [f, f]
            counts[f] -= 2
        comps.append(Comp("tractor", hi - lo + 1, hi, tuple(faces)))
    for f, c in counts.items():
        if c >= 2:
            comps.append(Comp("pair", 1, pos[f], (f, f)))
            c -= 2
        for _ in range(c):
            comps.append(Comp("single", 1, pos[f], (f,)))
    comps.sort(key=_format_place)
    return comps


def _format_place(c: Comp) -> tuple:
    """A component's place in a lead's format: :func:`shape_order`, higher top, then suit."""
    return (_KIND_RANK[c.kind], -c.length, -c.top, _suit_pref(c.faces[0]))


def _components(counts: dict[str, int], pos: dict[str, int]) -> list[Comp]:
    """Every single, pair, triple, tractor and titanic that can be taken from ``counts``."""
    out: list[Comp] = []
    by_pos: dict[int, list[str]] = {}
    for f, c in counts.items():
        if c <= 0:
            continue
        p = pos[f]
        out.append(Comp("single", 1, p, (f,)))
        if c >= 2:
            out.append(Comp("pair", 1, p, (f, f)))
            by_pos.setdefault(p, []).append(f)
        if c >= 3:
            out.append(Comp("triple", 1, p, (f, f, f)))
    for f, c in counts.items():
        if c >= 3:
            for g, d in counts.items():
                if d >= 3 and pos[g] == pos[f] + 1:
                    out.append(Comp("titanic", 2, pos[g], (g, g, g, f, f, f)))
    for top in by_pos:
        length = 1
        while top - length in by_pos:
            length += 1
            lists = [by_pos[top - i] for i in range(length)]
            for choice in _product(lists):
                out.append(Comp("tractor", length, top, tuple(x for f in choice for x in (f, f))))
    return out


def _decompose3(holding: dict[str, int], pos: dict[str, int]) -> list[Comp]:
    """§3.10: the split whose sizes (descending) are lexicographically greatest; then more
    titanics; then higher tops. Every such split starts with a largest possible component, so
    the search takes one of those and recurses on the rest (memoised on the remaining cards)."""
    memo: dict[tuple, tuple] = {}

    def best(counts: dict[str, int]) -> tuple:
        key = tuple(sorted((f, c) for f, c in counts.items() if c))
        if not key:
            return ((), 0, (), ())
        if key in memo:
            return memo[key]
        comps = _components(counts, pos)
        size = max(c.size for c in comps)
        found = None
        for comp in comps:
            if comp.size != size:
                continue
            rest = dict(counts)
            for x in comp.faces:
                rest[x] -= 1
            sizes, tits, tops, parts = best(rest)
            cand = ((size, *sizes), tits + (comp.kind == "titanic"),
                    tuple(sorted((comp.top, *tops), reverse=True)), (comp, *parts))
            if found is None or cand[:3] > found[:3]:
                found = cand
        memo[key] = found
        return found

    return sorted(best(dict(holding))[3], key=lambda c: (shape_order(c.shape), -c.top))


def format_of(comps: list[Comp]) -> list[tuple[str, int]]:
    return [c.shape for c in comps]


def pairs_in_format(fmt: list[tuple[str, int]]) -> int:
    """pF: the number of pairs in a format (a tractor(l) counts l)."""
    return sum(l if k == "tractor" else 1 for k, l in fmt if k in ("tractor", "pair"))


# ----- throw check (§3.6) -------------------------------------------------------------------
def beats_component(comp: Comp, holding: dict[str, int], pos: dict[str, int]) -> bool:
    """True when ``holding`` (another seat's cards of the same effective suit) beats ``comp``."""
    t = comp.top
    if comp.kind == "single":
        return any(pos[f] > t for f, c in holding.items() if c)
    if comp.kind == "pair":
        return any(pos[f] > t for f, c in holding.items() if c >= 2)
    if comp.kind == "triple":
        return any(pos[f] > t for f, c in holding.items() if c >= 3)
    need = 3 if comp.kind == "titanic" else 2
    for lo, hi in _runs(pair_positions(holding, pos, need)):
        if hi - lo + 1 >= comp.length and hi > t:
            return True
    return False


def forced_component(beatable: list[Comp]) -> Comp:
    """§3.6 step 3: lowest top ``pos``, then fewer cards, then top card's suit S, H, C, D."""
    return min(beatable, key=lambda c: (c.top, c.size, _suit_pref(c.faces[0])))


# ----- following (§3.7) --------------------------------------------------------------------
@lru_cache(maxsize=4096)
def _cover(segments: tuple[int, ...], caps: tuple[int, ...]) -> int:
    """Max pairs covered by disjoint runs, run j of 2..caps[j] pairs, cut from ``segments``."""
    if not caps or not segments:
        return 0
    cap, rest = caps[0], caps[1:]
    best = _cover(segments, rest)                  # R_j empty
    for i, m in enumerate(segments):
        others = segments[:i] + segments[i + 1:]
        for x in range(2, min(cap, m) + 1):
            for a in range(0, m - x + 1):
                b = m - x - a
                segs = tuple(sorted([s for s in (*others, a, b) if s >= 2], reverse=True))
                best = max(best, x + _cover(segs, rest))
    return best


def tractor_coverage(holding: dict[str, int], pos: dict[str, int], lengths: tuple[int, ...]) -> int:
    """TC(X) of §3.7 for the led tractor lengths ``lengths`` (descending): the most pairs that
    disjoint runs R1..Rk (Rj empty or 2..lengths[j] pairs of consecutive pos) take from X.
    Pairs of different faces with equal pos (the non-trump-suit level cards, the 常主 2s) may
    sit in different runs, so with two or more led tractors such a holding is searched run by
    run; otherwise the maximal runs of distinct pos are cut as segments."""
    if not lengths:
        return 0
    caps = tuple(sorted(lengths, reverse=True))
    per_pos: dict[int, int] = {}
    for f, c in holding.items():
        if c >= 2:
            per_pos[pos[f]] = per_pos.get(pos[f], 0) + 1
    if len(caps) > 1 and any(m > 1 for m in per_pos.values()):
        return _cover_multi(tuple(sorted(per_pos.items())), caps)
    segs = tuple(sorted((hi - lo + 1 for lo, hi in _runs(sorted(per_pos)) if hi > lo), reverse=True))
    return _cover(segs, caps)


@lru_cache(maxsize=4096)
def _cover_multi(avail: tuple[tuple[int, int], ...], caps: tuple[int, ...]) -> int:
    """Like :func:`_cover` when a pos may hold several pair faces: ``avail`` is ``(pos, pairs
    there)``; run j takes one pair at each of 2..caps[j] consecutive pos."""
    if not caps:
        return 0
    counts = dict(avail)
    cap, rest = caps[0], caps[1:]
    best = _cover_multi(avail, rest)                 # R_j empty
    for top in counts:
        length = 1
        while length < cap and counts.get(top - length, 0) > 0:
            length += 1
            left = dict(counts)
            for p in range(top - length + 1, top + 1):
                left[p] -= 1
            nxt = tuple(sorted((p, m) for p, m in left.items() if m))
            best = max(best, length + _cover_multi(nxt, rest))
    return best


def follow_ok_suited(play: dict[str, int], he: dict[str, int], pos: dict[str, int],
                     fmt: list[tuple[str, int]]) -> bool:
    """§3.7 when the follower holds more than N cards of the led suit and ``play`` is all led
    suit: same tractor coverage and the required number of pairs."""
    return follow_checker(he, pos, fmt)(play)


def follow_checker(he: dict[str, int], pos: dict[str, int],
                   fmt: list[tuple[str, int]]) -> Callable[[dict[str, int]], bool]:
    """``play -> follow_ok_suited(play, he, pos, fmt)``, with what ``he`` must show worked out
    once (a legal set checks every sub-multiset of one holding)."""
    lengths = tuple(l for k, l in fmt if k == "tractor")
    pf = pairs_in_format(fmt)
    coverage = tractor_coverage(he, pos, lengths)
    pairs = min(pair_count(he), pf)

    def ok(play: dict[str, int]) -> bool:
        return tractor_coverage(play, pos, lengths) == coverage and min(pair_count(play), pf) == pairs
    return ok


# ----- contenders and keys (§3.8) ------------------------------------------------------------
def key_shape(fmt: list[tuple[str, int]]) -> tuple[str, int]:
    """The key shape of a format: titanic, the longest tractor, triple, pair, else single."""
    return min(fmt, key=shape_order)


def _placements(holding: dict[str, int], pos: dict[str, int],
                fixed: list[tuple[str, int]]) -> Iterator[list[Comp]]:
    """Ways to take the titanic, tractor and triple components ``fixed`` from ``holding``."""
    if not fixed:
        yield []
        return
    kind, length = fixed[0]
    counts = holding
    if kind == "triple":
        cands = [Comp("triple", 1, pos[f], (f,) * 3) for f, c in counts.items() if c >= 3]
    else:
        need = 3 if kind == "titanic" else 2
        by_pos: dict[int, list[str]] = {}
        for f, c in counts.items():
            if c >= need:
                by_pos.setdefault(pos[f], []).append(f)
        cands = []
        for top in by_pos:
            if all(top - i in by_pos for i in range(length)):
                lists = [by_pos[top - i] for i in range(length)]
                for choice in _product(lists):
                    faces = tuple(x for f in choice for x in (f,) * need)
                    cands.append(Comp(kind, length, top, faces))
    for comp in cands:
        for x in comp.faces:
            counts[x] -= 1
        for rest in _placements(counts, pos, fixed[1:]):
            yield [comp, *rest]
        for x in comp.faces:
            counts[x] += 1


def _product(lists: list[list[str]]) -> Iterator[tuple[str, ...]]:
    if not lists:
        yield ()
        return
    for f in lists[0]:
        for rest in _product(lists[1:]):
            yield (f, *rest)


def best_splits(play: dict[str, int], pos: dict[str, int],
                fmt: list[tuple[str, int]]) -> list[list[int]] | None:
    """For every admissible split of ``play`` into the shapes of ``fmt`` (§3.8 rule 2), the
    component tops grouped by shape class in format order; ``None`` if ``play`` cannot be split.
    Pairs take the highest pair faces left, singles the highest cards left."""
    fixed = sorted([s for s in fmt if s[0] in ("titanic", "tractor", "triple")], key=shape_order)
    npairs = sum(1 for s in fmt if s[0] == "pair")
    nsingles = sum(1 for s in fmt if s[0] == "single")
    out: list[list[int]] = []
    counts = dict(play)
    for placed in _placements(counts, pos, fixed):
        rest = dict(counts)
        for comp in placed:
            for x in comp.faces:
                rest[x] -= 1
        pair_faces = sorted((f for f, c in rest.items() if c >= 2), key=lambda f: -pos[f])
        if len(pair_faces) < npairs:
            continue
        pair_tops = [pos[f] for f in pair_faces[:npairs]]
        for f in pair_faces[:npairs]:
            rest[f] -= 2
        singles = sorted((pos[f] for f, c in rest.items() for _ in range(c)), reverse=True)
        tops = [c.top for c in placed] + pair_tops + singles[:nsingles]
        out.append(tops)
    return out or None


#: copies of one face taken by a format of one single or one pair
_COPIES = {("single", 1): 1, ("pair", 1): 2}


def contender_key(play: dict[str, int], pos: dict[str, int], fmt: list[tuple[str, int]],
                  rule: str = "key") -> tuple | None:
    """The comparison key of a contender (§3.8), or ``None`` when ``play`` does not match the
    format. ``rule = "key"``: the top of the key-shape component (maximised); ``"all"``: the
    best split's tops grouped by shape class."""
    need = _COPIES.get(tuple(fmt[0])) if len(fmt) == 1 else None
    if need is not None:
        # a lone single or pair (most tricks): the best split takes the highest card or pair
        tops = [pos[f] for f, c in play.items() if c >= need]
        return (max(tops),) if tops else None
    splits = best_splits(play, pos, fmt)
    if splits is None:
        return None
    if rule == "key":
        ks = key_shape(fmt)
        idx = [i for i, s in enumerate(_fmt_sorted(fmt)) if s == ks]
        return (max(t[i] for t in splits for i in idx),)
    return tuple(max(splits))


def _fmt_sorted(fmt: list[tuple[str, int]]) -> list[tuple[str, int]]:
    fixed = sorted([s for s in fmt if s[0] in ("titanic", "tractor", "triple")], key=shape_order)
    return fixed + [s for s in fmt if s[0] == "pair"] + [s for s in fmt if s[0] == "single"]


def beats_all(new: tuple, old: tuple, fmt: list[tuple[str, int]]) -> bool:
    """``throw_beat_rule = all``: each component, shape class by shape class sorted
    descending, strictly higher than the winner's at the same place."""
    sfmt = _fmt_sorted(fmt)
    groups: dict[tuple[str, int], list[int]] = {}
    for i, s in enumerate(sfmt):
        groups.setdefault(s, []).append(i)
    for idx in groups.values():
        a = sorted((new[i] for i in idx), reverse=True)
        b = sorted((old[i] for i in idx), reverse=True)
        if any(x <= y for x, y in zip(a, b)):
            return False
    return True
