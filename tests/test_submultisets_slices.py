"""Slices of the lazy legal lists (``SubMultisets``, ``Concat``) equal the slices of the lists
they stand for; the env's chooser takes the first action of each block through them."""

import random

from qipai.cards.submultisets import Concat, SubMultisets


def test_slices_equal_list_slices() -> None:
    rng = random.Random(1)
    for _ in range(300):
        parts: list = []
        for _ in range(rng.randint(1, 3)):
            items = [(chr(97 + i), rng.randint(0, 3)) for i in range(rng.randint(0, 6))]
            parts.append(SubMultisets(items, rng.randint(0, 6)))
        if rng.random() < 0.3:
            parts.append([("x",)] * rng.randint(0, 5))
        whole = Concat(parts)
        for seq in [whole, *(p for p in parts if isinstance(p, SubMultisets))]:
            listed = list(seq)
            n = len(listed)
            for _ in range(20):
                a, b = rng.randint(-2, n + 2), rng.randint(-2, n + 2)
                step = rng.choice([1, 1, 2, 3, 7, 64, -1, -2])
                assert seq[a:b:step] == listed[a:b:step], (a, b, step)
                if n:
                    start = rng.randrange(n)
                    step = rng.randint(1, n)
                    count = len(range(start, n, step))
                    assert seq.take(start, step, count) == listed[start::step]
                    at = sorted(rng.sample(range(n), rng.randint(0, n)))
                    assert seq.pick(at) == [listed[i] for i in at]


def test_count_and_order_match_a_brute_force_listing() -> None:
    """``len`` and the listing are every distinct sub-multiset of the size, once each (the count
    table is a running sum over the row below)."""
    from itertools import combinations

    rng = random.Random(2)
    for _ in range(200):
        items = [(i, rng.randint(0, 4)) for i in range(rng.randint(0, 7))]
        size = rng.randint(0, 9)
        flat = [k for k, c in items for _ in range(c)]
        brute = sorted(set(combinations(flat, size)))
        seq = SubMultisets(items, size)
        assert len(seq) == len(brute)
        assert sorted(seq) == brute


def test_listing_level_by_level_equals_the_walk_and_indexing(monkeypatch) -> None:
    """A set of at most ``LISTED`` members is listed item by item; a larger one by the walk:
    both give the members in index order. ``resized`` shares the count table and equals a set
    built for that size."""
    import qipai.cards.submultisets as sm

    rng = random.Random(3)
    for _ in range(300):
        items = [(i, rng.randint(0, 4)) for i in range(rng.randint(0, 7))]
        size = rng.randint(0, 9)
        seq = SubMultisets(items, size)
        indexed = [seq[i] for i in range(len(seq))]
        assert list(seq) == indexed
        monkeypatch.setattr(sm, "LISTED", -1)
        assert list(seq) == indexed
        monkeypatch.undo()
        for k in range(size + 1):
            small = seq.resized(k)
            fresh = SubMultisets(items, k)
            assert len(small) == len(fresh) and list(small) == list(fresh)
            assert small[-1:] == fresh[-1:] and small.pick(range(len(small))) == list(fresh)


def test_a_pick_of_many_from_many_items_passes_over_the_items_not_taken() -> None:
    """A pick of at least ``SKIPPING`` members of a set of at least ``SKIPPING`` items (a kitty
    burial's page) finds each member's next item taken by a binary search: the same members
    as indexing one by one."""
    import qipai.cards.submultisets as sm

    rng = random.Random(4)
    picked = 0
    for _ in range(200):
        items = [(i, rng.randint(0, 3)) for i in range(rng.randint(sm.SKIPPING, 40))]
        seq = SubMultisets(items, rng.randint(0, 10))
        n = len(seq)
        at = sorted(rng.randrange(n) for _ in range(rng.randint(sm.SKIPPING, 70))) if n else []
        assert seq.pick(at) == [seq[i] for i in at]
        assert seq[0:n:max(1, n // 64)] == [seq[i] for i in range(0, n, max(1, n // 64))]
        picked += len(seq.items) >= sm.SKIPPING and len(at) >= sm.SKIPPING
    assert picked > 100


def test_a_pick_of_consecutive_members_walks_from_each_to_the_next() -> None:
    """A pick of at least ``RUN`` consecutive members (a page of 64 inside a block) unranks
    the first and steps to each next member: the same members as indexing one by one, to the
    last member of the set, for sets of many and few items, large and small counts."""
    import qipai.cards.submultisets as sm

    rng = random.Random(6)
    walked = 0
    for _ in range(300):
        items = [(i, rng.randint(0, 4)) for i in range(rng.randint(1, 30))]
        seq = SubMultisets(items, rng.randint(0, 9), lambda t: ("play", t))
        n = len(seq)
        if not n:
            continue
        start = rng.choice([0, rng.randrange(n), max(0, n - rng.randint(1, 70))])
        count = min(n - start, rng.randint(1, 70))
        want = [seq[i] for i in range(start, start + count)]
        assert seq.pick(range(start, start + count)) == want
        assert seq.pick(list(range(start, start + count))) == want
        assert seq.take(start, 1, count) == want
        walked += count >= sm.RUN
    assert walked > 100


def test_a_pick_that_only_looks_like_a_run_and_items_sharing_a_key() -> None:
    """``pick`` takes any indices in range: a list whose ends are ``RUN - 1`` apart but that
    goes back or repeats one is not a run; and two items may share a key (the members are
    counted item by item, not read back from the keys): both are indexed as one by one."""
    import qipai.cards.submultisets as sm

    seq = SubMultisets([("a", 3), ("b", 3), ("c", 3)], 4)
    for at in ([0, 2, 1, 3, 4, 5, 6, 7], [0, 1, 1, 2, 3, 4, 5, 7], [3, 4, 5, 6, 7, 8, 9, 10, 9, 10]):
        assert seq.pick(at) == [seq[i] for i in at]
    rng = random.Random(9)
    walked = 0
    for _ in range(300):
        items = [(rng.randint(0, 5), rng.randint(0, 4)) for _ in range(rng.randint(2, 12))]
        seq = SubMultisets(items, rng.randint(0, 12))
        n = len(seq)
        if n < sm.RUN:
            continue
        start = rng.randrange(n - sm.RUN + 1)
        at = range(start, min(n, start + rng.randint(sm.RUN, 80)))
        assert seq.pick(at) == [seq[i] for i in at]
        walked += 1
    assert walked > 100
