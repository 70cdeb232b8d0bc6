"""Seeded random winning hands for the fan calculator's differential tests and benchmark.

The generator picks a *theme* per hand (one suit, a rank band, honors only, even pungs,
related chows or pungs, seven pairs, thirteen orphans, knitted tiles, ...) so that every fan of
the 81 appears in a few thousand hands, then random melds, winning tile and win flags.
"""

from __future__ import annotations

import random

from qipai.tiles.meld import CHOW, KONG, PUNG, Meld
from qipai.tiles.notation import Hand

GREEN = [19, 20, 21, 23, 25, 32]
REVERSIBLE = [9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33]
KNITTED_SUITS = [(0, 2, 1), (0, 1, 2), (2, 0, 1), (1, 0, 2), (2, 1, 0), (1, 2, 0)]
ORPHANS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]


def _kinds(rng: random.Random) -> list[int]:
    theme = rng.randrange(14)
    suits = rng.sample(range(3), rng.choice((1, 1, 2, 3)))
    if theme == 0:
        return list(range(27))
    if theme == 1:
        return [9 * s + r for s in suits for r in range(9)]
    if theme == 2:
        return [9 * s + r for s in suits for r in range(9)] + rng.sample(range(27, 34), rng.randint(1, 7))
    if theme == 3:
        lo, hi = rng.choice(((0, 3), (0, 4), (3, 6), (5, 9), (6, 9), (1, 8)))
        return [9 * s + r for s in range(3) for r in range(lo, hi)]
    if theme == 4:
        return list(range(27, 34))
    if theme == 5:
        return [9 * s + r for s in range(3) for r in (0, 8)] + rng.sample(range(27, 34), rng.randint(0, 7))
    if theme == 6:
        return GREEN
    if theme == 7:
        return REVERSIBLE
    if theme == 8:
        return [9 * s + r for s in range(3) for r in (1, 3, 5, 7)]
    if theme == 9:
        return [9 * s + r for s in range(3) for r in range(3, 6)] + [9 * s + 4 for s in range(3)]
    return list(range(34))


def _related_sets(rng: random.Random) -> list[tuple[str, int]]:
    """Chows or pungs in a pattern (shifted, identical, straight, mixed) plus random fill."""
    kind = rng.randrange(8)
    s = rng.randrange(3)
    if kind == 0:   # pure shifted / identical / straight chows in one suit
        step = rng.choice((0, 1, 2, 3))
        start = rng.randrange(0, 7 - step * 2 if step else 7)
        n = rng.choice((2, 3, 4)) if step < 3 else rng.choice((2, 3))
        return [(CHOW, 9 * s + min(start + i * step, 6)) for i in range(n)]
    if kind == 1:   # mixed chows: same rank or shifted across suits, or mixed straight
        suits = rng.sample(range(3), 3)
        mode = rng.randrange(3)
        r = rng.randrange(5)
        return [(CHOW, 9 * suits[i] + (r if mode == 0 else r + i if mode == 1 else 3 * i)) for i in range(3)]
    if kind == 2:   # pungs shifted in one suit
        start = rng.randrange(6)
        return [(PUNG, 9 * s + start + i) for i in range(rng.choice((2, 3, 4)))]
    if kind == 3:   # pungs same rank / shifted across suits
        r = rng.randrange(7)
        mode = rng.randrange(2)
        return [(PUNG, 9 * i + (r if mode == 0 else r + i)) for i in rng.sample(range(3), rng.choice((2, 3)))]
    if kind == 4:   # winds
        return [(PUNG, t) for t in rng.sample(range(27, 31), rng.choice((2, 3, 4)))]
    if kind == 5:   # dragons
        return [(PUNG, t) for t in rng.sample(range(31, 34), rng.choice((2, 3)))]
    if kind == 6:   # terminal chows
        suits = rng.sample(range(3), 2)
        return [(CHOW, 9 * s2 + r) for s2 in suits for r in (0, 6)]
    return [(CHOW, 9 * s), (CHOW, 9 * s + 6)] * rng.choice((1, 2))


def _standard(rng: random.Random) -> tuple[list[tuple[str, int]], int] | None:
    kinds = _kinds(rng)
    sets = _related_sets(rng)[:4] if rng.random() < 0.5 else []
    pung_bias = rng.choice((0.1, 0.3, 0.5, 0.9, 1.0))
    tries = 0
    while len(sets) < 4 and tries < 40:
        tries += 1
        t = rng.choice(kinds)
        if t < 27 and rng.random() > pung_bias and t % 9 <= 6 and t + 1 in kinds and t + 2 in kinds:
            sets.append((CHOW, t))
        else:
            sets.append((PUNG, t))
    if len(sets) < 4:
        return None
    if rng.random() < 0.15:
        pair = 9 * rng.randrange(3) + 4
    else:
        pair = rng.choice(kinds)
    return sets, pair


def random_hand(rng: random.Random) -> Hand | None:
    """One random hand that may or may not be a legal win (the caller filters)."""
    form = rng.random()
    flags = dict(self_drawn=rng.random() < 0.4, seat_wind=rng.randrange(4), round_wind=rng.randrange(4),
                 flowers=rng.choice((0, 0, 0, 1, 2, 5)))
    if rng.random() < 0.05:
        flags["last"] = True
    if rng.random() < 0.05:
        flags["fourth"] = True
    if rng.random() < 0.08:
        flags["kong"] = True
    if form < 0.06:
        return _special(rng, flags)
    if form < 0.10:
        return _knitted(rng, flags)
    made = _standard(rng)
    if made is None:
        return None
    sets, pair = made
    counts = [0] * 34
    for ty, t in sets:
        for x in ([t, t + 1, t + 2] if ty == CHOW else [t] * 3):
            counts[x] += 1
    counts[pair] += 2
    if max(counts) > 4:
        return None
    n_melds = rng.choice((0, 0, 1, 1, 2, 3, 4))
    order = list(range(4))
    rng.shuffle(order)
    melds: list[Meld] = []
    concealed: list[int] = [pair, pair]
    for i, (ty, t) in enumerate(sets):
        if order[i] < n_melds:
            if ty == PUNG and rng.random() < 0.35 and counts[t] == 3:
                melds.append(Meld(KONG, t, concealed=rng.random() < 0.4))
                counts[t] += 1
            else:
                melds.append(Meld(ty, t))
        else:
            if ty == PUNG and rng.random() < 0.2 and counts[t] == 3:
                melds.append(Meld(KONG, t, concealed=True))
                counts[t] += 1
            else:
                concealed.extend([t, t + 1, t + 2] if ty == CHOW else [t] * 3)
    win = concealed.pop(rng.randrange(len(concealed)))
    return Hand(tuple(sorted(concealed)), tuple(melds), win, **flags)


def _special(rng: random.Random, flags: dict) -> Hand | None:
    kind = rng.randrange(5)
    if kind == 4:    # chicken-hand shapes: two exposed chows, two concealed chows, honor pair
        a, b, c = rng.sample(range(3), 3)
        melds = (Meld(CHOW, 9 * a + rng.randrange(7)), Meld(CHOW, 9 * b + rng.randrange(7)))
        r1, r2 = rng.randrange(7), rng.randrange(7)
        tiles = [9 * c + r1, 9 * c + r1 + 1, 9 * c + r1 + 2, 9 * c + r2, 9 * c + r2 + 1, 9 * c + r2 + 2]
        pair = rng.choice(range(27, 34))
        win = tiles.pop(rng.randrange(6))
        if max(tiles.count(t) for t in tiles) > 4:
            return None
        return Hand(tuple(sorted(tiles + [pair, pair])), melds, win,
                    **{**flags, "self_drawn": False, "last": False, "kong": False, "fourth": False,
                       "seat_wind": 0, "round_wind": 0})
    if kind == 3:    # nine gates
        s = 9 * rng.randrange(3)
        tiles = [s, s, s] + list(range(s + 1, s + 8)) + [s + 8] * 3
        return Hand(tuple(tiles), (), s + rng.randrange(9), **flags)
    if kind == 0:    # seven pairs (sometimes shifted)
        if rng.random() < 0.3:
            start = 9 * rng.randrange(3) + rng.randrange(3)
            pairs = list(range(start, start + 7))
        else:
            pool = _kinds(rng)
            if len(pool) < 4:
                return None
            pairs = [rng.choice(pool) for _ in range(7)]
    elif kind == 1:  # thirteen orphans
        tiles = ORPHANS + [rng.choice(ORPHANS)]
        win = tiles.pop(rng.randrange(14))
        return Hand(tuple(sorted(tiles)), (), win, **{**flags, "kong": False})
    else:            # honors and knitted
        suits = rng.choice(KNITTED_SUITS)
        numbers = [9 * s + r for s, st in zip(suits, (0, 1, 2)) for r in (st, st + 3, st + 6)]
        n = rng.choice((7, 8, 9))
        tiles = rng.sample(numbers, n) + rng.sample(range(27, 34), 14 - n)
        win = tiles.pop(rng.randrange(14))
        return Hand(tuple(sorted(tiles)), (), win, **flags)
    tiles = [p for p in pairs for _ in range(2)]
    if max(tiles.count(t) for t in tiles) > 4:
        return None
    win = tiles.pop(rng.randrange(14))
    return Hand(tuple(sorted(tiles)), (), win, **flags)


def _knitted(rng: random.Random, flags: dict) -> Hand | None:
    suits = rng.choice(KNITTED_SUITS)
    numbers = [9 * s + r for s, st in zip(suits, (0, 1, 2)) for r in (st, st + 3, st + 6)]
    made = _standard(rng)
    if made is None:
        return None
    sets, pair = made
    ty, t = sets[0]
    extra = [t, t + 1, t + 2] if ty == CHOW else [t] * 3
    melds: tuple[Meld, ...] = ()
    tiles = numbers + [pair, pair]
    if rng.random() < 0.3:
        if rng.random() < 0.7 or ty == CHOW:
            melds = (Meld(ty, t),)
        else:
            melds = (Meld(KONG, t, concealed=rng.random() < .5),)
    else:
        tiles += extra
    counts = [0] * 34
    for x in tiles + [x for m in melds for x in m.tiles]:
        counts[x] += 1
    if max(counts) > 4:
        return None
    win = tiles.pop(rng.randrange(len(tiles)))
    return Hand(tuple(sorted(tiles)), melds, win, **flags)


def winning_hands(seed: int, n: int, accept=None) -> list[Hand]:
    """``n`` random hands that PyMahjongGB (or ``accept``) scores as wins, deterministic in ``seed``."""
    from tests.mahjong_peer import peer_fans

    rng = random.Random(seed)
    out = []
    while len(out) < n:
        h = random_hand(rng)
        if h is None:
            continue
        try:
            (accept or peer_fans)(h)
        except (TypeError, ValueError):
            continue
        out.append(h)
    return out
