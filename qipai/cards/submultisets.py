"""Sub-multisets of a card multiset as an indexable sequence, without listing them.

Card games where a play is "any k cards of your hand" (burying a kitty, discarding when void)
have legal sets too large to list (8 cards of 33: millions). :class:`SubMultisets` counts them
with a small table and *unranks* an index into one sub-multiset on demand, so ``len``,
indexing, iteration and ``random.choice`` work as on a list.

Items are given as ``(key, count)`` pairs (a face code and how many copies are held); a
sub-multiset is returned as a tuple of keys, each repeated as often as chosen, in item order.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from typing import Any

#: a set of at most this many sub-multisets is iterated from a list built level by level
LISTED = 4096
#: a pick of at least this many members of a set of at least this many items passes over the
#: items not taken by a binary search (the kitty burials: 8 of some 30 kinds of card)
SKIPPING = 16
#: a pick of at least this many consecutive members walks from the first to each next one
RUN = 8


class SubMultisets(Sequence):
    """All sub-multisets of exactly ``size`` elements of the multiset ``items`` (``[(key,
    count), ...]``), in a fixed order; ``wrap(tuple_of_keys)`` turns each into an action.

    ``len`` is exact; ``seq[i]`` unranks in O(items × size). Raises ``IndexError`` out of range
    and ``ValueError`` for a negative size or count."""

    def __init__(self, items: Sequence[tuple[Any, int]], size: int,
                 wrap: Callable[[tuple[Any, ...]], Any] = tuple) -> None:
        if size < 0 or any(c < 0 for _, c in items):
            raise ValueError("size and counts must be non-negative")
        self.items = [(k, c) for k, c in items if c > 0]
        self.size = size
        self.wrap = wrap
        n = len(self.items)
        # ways[i][k]: number of ways to choose k elements from items[i:]
        ways = [[0] * (size + 1) for _ in range(n + 1)]
        ways[n][0] = 1
        for i in range(n - 1, -1, -1):
            # ways[i][k] = ways[i+1][k] + ... + ways[i+1][k-c]: a running sum over the row below
            c, below, row, acc = self.items[i][1], ways[i + 1], ways[i], 0
            for k in range(size + 1):
                acc += below[k]
                if k > c:
                    acc -= below[k - c - 1]
                row[k] = acc
        self._ways = ways

    def resized(self, size: int) -> SubMultisets:
        """The sub-multisets of ``size`` elements (``0 <= size <= self.size``) of the same items,
        sharing this one's count table (its rows count every smaller size too)."""
        if not 0 <= size <= self.size:
            raise ValueError(f"size {size} is not 0..{self.size}")
        out = object.__new__(SubMultisets)
        out.items, out.size, out.wrap, out._ways = self.items, size, self.wrap, self._ways
        return out

    def __len__(self) -> int:
        return self._ways[0][self.size]

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return _strided(self, index)
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("sub-multiset index out of range")
        return self.wrap(self._unrank(index))

    def _unrank(self, index: int, counts: list[int] | None = None) -> tuple[Any, ...]:
        """The keys of member ``index`` (in range): item by item, the count of it taken is the
        first whose completions (``ways`` of the items after) reach past what is left of
        ``index``. ``counts`` (zeros, one per item), when given, is set to the counts taken."""
        ways = self._ways
        k = self.size
        out: tuple[Any, ...] = ()
        for i, (key, _) in enumerate(self.items):
            if not k:                    # the rest take none (one way each)
                break
            below = ways[i + 1]
            t = 0
            while index >= below[k - t]:
                index -= below[k - t]
                t += 1
            if t:
                out += (key,) * t
                k -= t
                if counts is not None:
                    counts[i] = t
        return out

    def __iter__(self) -> Iterator[Any]:
        """Every sub-multiset in index order (a direct walk, faster than indexing)."""
        items, ways, wrap = self.items, self._ways, self.wrap
        n = len(items)
        if not len(self):
            return iter(())
        if len(self) <= LISTED:
            # item by item, each prefix extended in index order by every count that can still
            # be completed: the prefixes stay in index order, without a generator per level
            level: list[tuple[tuple[Any, ...], int]] = [((), self.size)]
            for i, (key, c) in enumerate(items):
                below = ways[i + 1]
                level = [(prefix + (key,) * t, k - t) for prefix, k in level
                         for t in range(min(c, k) + 1) if below[k - t]]
            return iter([wrap(prefix) for prefix, _ in level])

        def walk(i: int, k: int, prefix: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
            if i == n:
                yield prefix
                return
            key, c = items[i]
            for t in range(min(c, k) + 1):
                if ways[i + 1][k - t]:
                    yield from walk(i + 1, k - t, prefix + (key,) * t)

        return (wrap(t) for t in walk(0, self.size, ()))

    def take(self, start: int, step: int, count: int) -> list[Any]:
        """``[self[start + j * step] for j in range(count)]`` (indices in range, ``step >= 1``)."""
        return self.pick(range(start, start + step * count, step))

    def pick(self, indices: Sequence[int]) -> list[Any]:
        """``[self[i] for i in indices]`` for ``indices`` in range, without the checks of
        indexing (many of a set of many items unranked by :meth:`_unrank_skipping`)."""
        unrank, wrap = self._unrank, self.wrap
        if len(indices) >= RUN and indices[-1] - indices[0] == len(indices) - 1 and all(
                b - a == 1 for a, b in zip(indices, indices[1:])):
            return list(map(wrap, self._run(indices[0], len(indices))))
        if len(self.items) >= SKIPPING and len(indices) >= SKIPPING:
            skip = [[-w for w in column] for column in zip(*self._ways)]
            return [wrap(self._unrank_skipping(i, skip)) for i in indices]
        return [wrap(unrank(i)) for i in indices]

    def _run(self, index: int, count: int) -> list[tuple[Any, ...]]:
        """The keys of members ``index .. index + count - 1`` (in range): the first unranked,
        each next one its successor. The members are in ascending order of their count
        vectors (how many of each item, item by item), so the successor takes one more of the
        last item ``i`` that has one more to give (``t[i] < c[i]``) and leaves at least one
        taken after it, then the fewest it can of the items after ``i`` (as many as each holds,
        from the last item back)."""
        items = self.items
        n = len(items)
        counts = [0] * n       # item by item (two items may share a key: not read from the keys)
        first = self._unrank(index, counts)
        caps = [c for _, c in items]
        keys = [key for key, _ in items]
        size, member = self.size, first
        out = [first]
        for _ in range(count - 1):
            after = 0                      # how many are taken after item i
            i = n - 1
            while not (after and counts[i] < caps[i]):
                after += counts[i]
                i -= 1
            counts[i] += 1
            left = after - 1               # given to the items after i, from the last back
            tail: tuple[Any, ...] = ()
            for j in range(n - 1, i, -1):
                counts[j] = c = min(caps[j], left)
                if c:
                    tail = (keys[j],) * c + tail
                    left -= c
            member = member[:size - after] + (keys[i],) + tail
            out.append(member)
        return out

    def _unrank_skipping(self, index: int, skip: list[list[int]]) -> tuple[Any, ...]:
        """:meth:`_unrank`, the items of which none is taken passed over by a binary search:
        with ``k`` elements left to choose from item ``i`` on, the next item taken is the
        first ``j`` whose completions without it (``ways[j + 1][k]``, not increasing in
        ``j``) do not reach past ``index``; ``skip[k]`` is ``-ways[.][k]``."""
        ways, items = self._ways, self.items
        k = self.size
        out: tuple[Any, ...] = ()
        i = 0
        while k:
            j = bisect_left(skip[k], -index, i + 1) - 1
            below = ways[j + 1]
            t = 0
            while index >= below[k - t]:
                index -= below[k - t]
                t += 1
            out += (items[j][0],) * t
            k -= t
            i = j + 1
        return out


class Concat(Sequence):
    """Several sequences one after the other, indexable without copying (lazy ``a + b``)."""

    def __init__(self, parts: Sequence[Sequence[Any]]) -> None:
        self.parts = [p for p in parts if len(p)]
        self._len = sum(len(p) for p in self.parts)

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return _strided(self, index)
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("index out of range")
        for p in self.parts:
            if index < len(p):
                return p[index]
            index -= len(p)
        raise IndexError("index out of range")  # pragma: no cover

    def __iter__(self) -> Iterator[Any]:
        for p in self.parts:
            yield from p

    def take(self, start: int, step: int, count: int) -> list[Any]:
        """``[self[start + j * step] for j in range(count)]`` (indices in range, ``step >= 1``),
        each part taking its own entries in one pass."""
        return self.pick(range(start, start + step * count, step))

    def pick(self, indices: Sequence[int]) -> list[Any]:
        """``[self[i] for i in indices]`` for strictly ascending ``indices`` in range, each part
        picking its own entries in one pass."""
        out: list[Any] = []
        j, base = 0, 0
        for p in self.parts:
            size = len(p)
            mine = []
            while j < len(indices) and indices[j] < base + size:
                mine.append(indices[j] - base)
                j += 1
            if mine:
                out.extend(p.pick(mine) if hasattr(p, "pick") else [p[i] for i in mine])
            base += size
        return out


def _strided(seq: Any, index: slice) -> list[Any]:
    """``seq[index]`` of a lazy sequence: ascending slices through ``take``."""
    start, stop, step = index.indices(len(seq))
    if step < 0:
        return [seq[i] for i in range(start, stop, step)]
    return seq.take(start, step, len(range(start, stop, step)))


__all__ = ["Concat", "SubMultisets"]
