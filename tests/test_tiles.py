"""Tile codes, the one-line hand notation, walls and hand shapes."""

from __future__ import annotations

import random

import pytest

from qipai.core.errors import NotationError
from qipai.core.rng import DealRng
from qipai.tiles import (
    Meld,
    Wall,
    deal_hands,
    format_tiles,
    parse_hand,
    parse_meld,
    parse_tiles,
    shuffled,
    tile_set,
)
from qipai.tiles.shapes import (
    _pattern_table,
    _searched_splits,
    decompositions,
    is_complete,
    only_wait,
    suit_splits,
    waits,
)


def test_tile_codes_round_trip():
    tiles = parse_tiles("123m 55p 9s ESWNCFP f1f8")
    assert format_tiles(tiles, sort=False) == "123m55p9sESWNCFPf1f8"
    assert parse_tiles(format_tiles(tiles)) == sorted(tiles)
    assert len(tile_set(True)) == 144 and len(tile_set(False)) == 136


@pytest.mark.parametrize("text, where", [("12x", "'x' at position 3 is not a suit letter"),
                                          ("12 m", "position 1"), ("0m", "position 1"), ("m", "position 1"),
                                          ("f9", "position 1"),
                                          ("19m1234567z", "'z' at position 11 is not a suit letter")])
def test_bad_tiles_name_the_position(text, where):
    with pytest.raises(NotationError, match=where):
        parse_tiles(text)


def test_melds():
    assert str(parse_meld("[234m]")) == "[234m]"
    assert parse_meld("(5555p)").concealed and parse_meld("(5555p)").is_kong
    assert parse_meld("[555p]").kind == "pung"
    for bad in ("[235m]", "(555p)", "[89m1p]", "[f1f1f1]"):
        with pytest.raises(NotationError):
            parse_meld(bad)


def test_hand_line_round_trip_and_flags():
    h = parse_hand("123m 456p 789s 1p [CCC] + 1p | tsumo seat=S round=W flowers=2 last")
    assert h.self_drawn and h.last and h.seat_wind == 1 and h.round_wind == 2 and h.flowers == 2
    assert parse_hand(str(h)) == h
    assert h.melds == (Meld("pung", 31),)


@pytest.mark.parametrize("text, msg", [
    ("123m 456p 789s 1p [CCC] 1p", "missing"),
    ("123m 456p 789s 1p [CCC + 1p", "unclosed"),
    ("123m 456p 789s [CCC] + 1p", "need 10 concealed"),
    ("11111m 456p 789s 12p + 1p", "appears 5 times"),
    ("123m 456p 789s 1p [CCC] + 1p | seat=X", "seat must be"),
    ("123m 456p 789s 1p [CCC] + 1p | bogus", "unknown flag"),
    ("123m 456p 789s 1p [CCC] + 1p 2p", "exactly one winning tile"),
])
def test_malformed_hand_lines(text, msg):
    with pytest.raises(NotationError, match=msg):
        parse_hand(text)


def test_seeded_wall_is_reproducible_and_dealt_4_4_4_1():
    a = shuffled(DealRng(5))
    b = shuffled(DealRng(5))
    assert a == b and sorted(a) == tile_set(True)
    hands, rest = deal_hands(a, dealer=2)
    assert [len(h) for h in hands] == [13] * 4 and len(rest) == 144 - 52
    assert hands[2][:4] == a[:4] and hands[3][:4] == a[4:8] and hands[2][12] == a[48]


def test_wall_head_and_tail_and_segments():
    w = Wall([1, 2, 3, 4])
    assert w.draw() == 1 and w.draw_tail() == 4 and w.remaining() == 2
    assert w.draw() == 2 and w.draw_tail() == 3 and w.is_empty()
    with pytest.raises(IndexError):
        w.draw()
    s = Wall(segments=[[1], [2, 3], [], [4]])
    assert s.draw(1) == 2 and s.is_empty(2) and not s.is_empty(1)
    assert s.is_last(1) is True           # next seat's (2) segment is empty
    assert Wall.from_json(Wall([5, 6, 7]).to_json()).tiles == [5, 6, 7]


def _slow_waits(c):
    out = []
    for k in range(34):
        c[k] += 1
        if is_complete(c):
            out.append(k)
        c[k] -= 1
    return out


def test_waits_agree_with_brute_force():
    rng = random.Random(3)
    for _ in range(3000):
        n = rng.choice((1, 4, 7, 10, 13))
        pool = rng.choice([list(range(34)), list(range(9)), list(range(9)) + list(range(27, 34))])
        c = [0] * 34
        while sum(c) < n:
            t = rng.choice(pool)
            if c[t] < 4:
                c[t] += 1
        assert waits(list(c)) == _slow_waits(list(c))


def test_seven_pair_waits_agree_with_brute_force():
    """waits(..., seven_pairs=True) on 13 tiles: the standard waits plus the one kind that makes
    seven pairs, as trying every kind finds; hands drawn mostly in pairs so both cases occur."""
    rng = random.Random(7)
    pair_waits = 0
    for _ in range(3000):
        c = [0] * 34
        kinds = rng.sample(range(34), 7)
        for t in kinds[:6]:
            c[t] = 2 if rng.random() < 0.9 else rng.choice((1, 3, 4))
        c[kinds[6]] = 1
        while sum(c) > 13:
            t = rng.choice([k for k in range(34) if c[k]])
            c[t] -= 1
        while sum(c) < 13:
            t = rng.randrange(34)
            if c[t] < 4:
                c[t] += 1
        want = set(_slow_waits(list(c)))
        for k in range(34):
            d = list(c)
            d[k] += 1
            if all(n % 2 == 0 for n in d):      # four of a kind counts as two pairs
                want.add(k)
                pair_waits += 1
        assert waits(list(c), seven_pairs=True) == sorted(want), c
    assert pair_waits > 300


def test_only_wait_agrees_with_waits():
    """only_wait(c, win) is ``waits(c) == [win]`` for every winning tile of random waiting hands,
    with and without seven pairs (hands drawn in pairs and runs so both answers occur)."""
    rng = random.Random(11)
    seen = {True: 0, False: 0}
    for _ in range(1500):
        n = rng.choice((1, 4, 7, 10, 13, 13))
        suit = rng.choice((0, 9, 18))
        pool = list(range(suit, suit + 9)) + ([] if rng.random() < 0.5 else list(range(27, 34)))
        c = [0] * 34
        while sum(c) < n:
            t = rng.choice(pool)
            if c[t] < 4:
                c[t] += 1
        for sp in ((False, True) if n == 13 else (False,)):
            every = waits(list(c), seven_pairs=sp)
            for win in waits(list(c)):
                got = only_wait(list(c), win, seven_pairs=sp)
                assert got == (every == [win]), (c, win, sp)
                seen[got] += 1
    assert min(seen.values()) > 50, seen


def test_only_wait_verdicts_are_shared_by_the_three_suits():
    """A group's single-wait verdict is kept by the winning tile's rank: the same pattern met
    in another suit finds it made, and every suit's answer is that of :func:`waits`."""
    from qipai.tiles import shapes

    rng = random.Random(12)
    checked = 0
    for _ in range(300):
        ranks = [0] * 9
        n = rng.choice((4, 7, 10))
        while sum(ranks) < n:
            r = rng.randrange(9)
            if ranks[r] < 4:
                ranks[r] += 1
        first = [0] * 34
        first[0:9] = ranks
        first[27] = 3                       # the rest of the hand is whole: the pair is in the suit
        for win in waits(list(first)):
            if win >= 9:
                continue
            only_wait(list(first), win)
            made = sum(map(len, shapes._GROUP_WAIT))
            for base in (9, 18):
                other = [0] * 34
                other[base:base + 9] = ranks
                other[27] = first[27]
                got = only_wait(list(other), base + win)
                assert got == (waits(list(other)) == [base + win]), (ranks, win, base)
                checked += 1
            assert sum(map(len, shapes._GROUP_WAIT)) == made, (ranks, win)
    assert checked > 200


def test_suit_split_table_agrees_with_search():
    """The table of one-suit patterns gives a pattern's splits as the search finds them, and a
    pattern of a hand missing from it has none (seeded samples of both)."""
    table = _pattern_table()
    assert len(table) == 21743
    rng = random.Random(5)
    for key in rng.sample(sorted(table), 4000):
        assert _searched_splits(key) == table[key], key
    for _ in range(5000):
        key = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(9))
        if sum(key) <= 14:
            assert suit_splits(key) == _searched_splits(key), key


def test_decompositions_of_nine_gates():
    c = [0] * 34
    for t in parse_tiles("11123455678999m"):
        c[t] += 1
    splits = decompositions(c)
    assert splits and all(len(s) == 5 and s[-1][0] == 4 for s in splits)
    assert waits([3, 1, 1, 1, 1, 1, 1, 1, 3] + [0] * 25) == list(range(9))



def test_suit_adds_read_from_the_table_agree_with_the_search():
    """The ranks that complete a one-suit pattern, read from the table of patterns, are those
    the search finds (every pattern of at most 13 tiles and three of a rank: 405,350 keys less
    the ones with a four, sampled; and patterns holding a four, which the search answers)."""
    from qipai.tiles.shapes import _suit_adds, _suit_status

    def searched(key):
        clean, paired = [], []
        for r in range(9):
            k = key[:r] + (key[r] + 1,) + key[r + 1:]
            c, p = _suit_status(k)
            if c:
                clean.append(r)
            if p:
                paired.append(r)
        return tuple(clean), tuple(paired)

    rng = random.Random(17)
    keys = set()
    while len(keys) < 6000:
        key = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(9))
        if sum(key) <= 13:
            keys.add(key)
    found = 0
    for key in keys:
        got = _suit_adds.__wrapped__(key)
        assert got == searched(key), key
        found += bool(got[0] or got[1])
    assert found > 300
