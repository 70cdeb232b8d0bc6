"""Sampling the cards a seat cannot see, for information-set search (determinization).

A search bot knows its own hand and everything laid face up; the rest — the *unseen* cards —
could be anywhere among the other hands (and hidden piles). :func:`unseen` computes them from a
pack and what the seat has seen; :func:`sample_hands` deals them at random into the places that
hold hidden cards, respecting cards already known to be in a place and cards a place cannot hold
(a seat that showed it is void in a suit). Only what the seat has seen goes in: the true deal is
never an input, so two deals that look the same to the seat give the same samples.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

from .card import parse_card
from .order import RankOrder

T = TypeVar("T", bound=Hashable)
P = TypeVar("P", bound=Hashable)


def unseen(pack: Iterable[T], seen: Iterable[T]) -> list[T]:
    """The cards of ``pack`` (a multiset: repeated codes are several physical cards) left
    after removing every card of ``seen``, in ``pack`` order. Raises ``ValueError`` when
    ``seen`` holds a card the pack does not (more often than it does)."""
    left = Counter(seen)
    out = []
    for c in pack:
        if left[c]:
            left[c] -= 1
        else:
            out.append(c)
    extra = +left
    if extra:
        raise ValueError(f"seen cards not in the pack: {sorted(map(str, extra.elements()))}")
    return out


def sample_hands(cards: list[T], sizes: dict[P, int], rng: random.Random,
                 allowed: Callable[[P, T], bool] | None = None, tries: int = 200,
                 complete: bool = True) -> dict[P, list[T]]:
    """Deal ``cards`` at random into places of the given ``sizes`` (their sum must be
    ``len(cards)``). ``allowed(place, card)`` may forbid a card in a place; the deal is then
    uniform among those that satisfy it (rejection of whole shuffles, after which the most
    constrained places are filled first, and when that runs aground :func:`fill` deals, which
    finds a deal whenever one exists). Raises ``ValueError`` when the sizes do not add up or no
    deal satisfies ``allowed`` (with ``complete=False``: none was found in ``tries`` shuffles
    and the constrained fill, for a caller that would rather relax ``allowed`` than pay for
    :func:`fill`)."""
    if sum(sizes.values()) != len(cards):
        raise ValueError(f"{len(cards)} cards for places of sizes {dict(sizes)}")
    pool = list(cards)
    for _ in range(tries):
        rng.shuffle(pool)
        out: dict[P, list[T]] = {}
        i = 0
        for place, n in sizes.items():
            out[place] = pool[i:i + n]
            i += n
        if allowed is None or all(allowed(p, c) for p, h in out.items() for c in h):
            return out
    assert allowed is not None
    return _constrained(pool, sizes, rng, allowed, complete)


def _constrained(cards: list[T], sizes: dict[P, int], rng: random.Random,
                 allowed: Callable[[P, T], bool], complete: bool) -> dict[P, list[T]]:
    """Fill the places whose cards are most limited first (a fallback when rejection fails); when
    that greedy fill runs into a card no place with room may hold, :func:`fill` deals them
    (``complete``) or ``ValueError`` is raised."""
    left = list(cards)
    rng.shuffle(left)
    out: dict[P, list[T]] = {p: [] for p in sizes}
    # cards that fit the fewest places go first
    left.sort(key=lambda c: sum(allowed(p, c) for p in sizes))
    for c in left:
        fits = [p for p in sizes if len(out[p]) < sizes[p] and allowed(p, c)]
        if not fits:
            if not complete:
                raise ValueError("no deal of the unseen cards satisfies what the seat has seen")
            return fill(cards, sizes, rng, allowed)
        out[rng.choice(fits)].append(c)
    return out


#: no limit on the copies of a card in a place (:func:`fill`)
_ANY = 1 << 30


def fill(cards: list[T], sizes: dict[P, int], rng: random.Random, allowed: Callable[[P, T], bool],
         most: Callable[[P, Hashable], int | None] | None = None,
         kind: Callable[[T], Hashable] = lambda c: c) -> dict[P, list[T]]:
    """Deal ``cards`` into places of the given ``sizes`` so that ``allowed(place, card)`` holds
    for every card and a place gets at most ``most(place, k)`` cards of each kind ``k`` (``kind(card)``,
    the card itself by default; ``None``: no limit), finding such a deal whenever one exists.

    The cards are dealt one at a time in a random order, each to a place with room drawn in
    proportion to that room (an unconstrained deal is then a plain random deal), among the places
    after which the cards left can still all be placed. Whether they can is a flow question
    (cards → kind-in-place, at most ``most`` → place, at most its room): the deal is possible
    when no cut is smaller than the cards left, and with a few places every cut is counted
    (:func:`_cuts`). Raises ``ValueError`` when no deal exists."""
    places = list(sizes)
    n = len(places)
    room = [sizes[p] for p in places]
    if sum(room) != len(cards):
        raise ValueError(f"{len(cards)} cards for places of sizes {dict(sizes)}")
    # per kind: how many cards of each set of allowed places (a bit mask) are left to deal
    left: dict[Hashable, dict[int, int]] = {}
    where: list[tuple[T, Hashable, int]] = []
    for c in cards:
        k = kind(c)
        mask = sum(1 << i for i, p in enumerate(places) if allowed(p, c))
        left.setdefault(k, {})
        left[k][mask] = left[k].get(mask, 0) + 1
        where.append((c, k, mask))
    caps: dict[Hashable, list[int]] = {}
    for k in left:
        limits = [None if most is None else most(p, k) for p in places]
        caps[k] = [_ANY if m is None else max(0, m) for m in limits]
    cut = {k: _cuts(left[k], caps[k], n) for k in left}
    total = [sum(c[t] for c in cut.values()) for t in range(1 << n)]

    def possible(cards_left: int) -> bool:
        return all(total[t] + sum(room[i] for i in range(n) if not t >> i & 1) >= cards_left
                   for t in range(1 << n))

    if not possible(len(cards)):
        raise ValueError("no deal of the unseen cards satisfies what the seat has seen")
    rng.shuffle(where)
    out: dict[P, list[T]] = {p: [] for p in places}
    for j, (c, k, mask) in enumerate(where):
        fits = [i for i in range(n) if mask >> i & 1 and room[i] and caps[k][i]]
        while True:     # a place always fits: the deal was possible before this card
            i = rng.choices(fits, [room[i] for i in fits])[0]
            limited = caps[k][i] != _ANY
            left[k][mask] -= 1
            room[i] -= 1
            caps[k][i] -= limited
            before, cut[k] = cut[k], _cuts(left[k], caps[k], n)
            total = [x - old + new for x, old, new in zip(total, before, cut[k])]
            if possible(len(where) - j - 1):
                break
            # the cards left cannot all be placed after this one there: undo, try another place
            left[k][mask] += 1
            room[i] += 1
            caps[k][i] += limited
            total = [x - new + old for x, new, old in zip(total, cut[k], before)]
            cut[k] = before
            fits.remove(i)
        out[places[i]].append(c)
    return out


def _cuts(groups: dict[int, int], cap: list[int], n: int) -> list[int]:
    """One kind's part of each cut of :func:`fill`'s flow, per set ``t`` of places (a bit mask)
    whose room is not cut: the cheapest of cutting off some of its cards (``groups``: how many
    cards may go to each set of places) and, for the others, the limits ``cap`` of the places
    of ``t`` they may go to."""
    parts = [(m, mask) for mask, m in groups.items() if m]
    if len(parts) == 1:                 # the usual kind: every card of it fits the same places
        m, mask = parts[0]
        return [min(m, sum(cap[i] for i in range(n) if (mask & t) >> i & 1)) for t in range(1 << n)]
    out = []
    for t in range(1 << n):
        best = _ANY
        for keep in range(1 << len(parts)):
            cost, reach = 0, 0
            for j, (m, mask) in enumerate(parts):
                if keep >> j & 1:
                    reach |= mask
                else:
                    cost += m
            reach &= t
            cost += sum(cap[i] for i in range(n) if reach >> i & 1)
            best = min(best, cost)
        out.append(best)
    return out


def deal_unseen(pack: Iterable[T], counts: dict[P, int], known: dict[P, list[T]],
                gone: Iterable[T], rng: random.Random,
                allowed: Callable[[P, T], bool] | None = None, tries: int = 200,
                complete: bool = True) -> dict[P, list[T]]:
    """What each place holds now, for a determinization: its ``known`` cards (or tiles) plus
    unseen ones dealt at random up to ``counts[place]``. The unseen cards are ``pack`` less
    every known card and every card in ``gone`` (played, discarded, shown: out of every
    place). ``counts`` names every hidden place (seats' hands, a kitty, a wall) and must add up
    with the known cards to the pack. Raises ``ValueError`` when they do not, when a place is
    known to hold more than its count, or when no deal satisfies ``allowed`` (see
    :func:`sample_hands`, with its ``tries`` and ``complete``)."""
    gone = list(gone)
    held = [c for p in counts for c in known.get(p, [])]
    hidden = unseen(pack, held + gone)
    sizes = {p: n - len(known.get(p, [])) for p, n in counts.items()}
    if any(n < 0 for n in sizes.values()):
        raise ValueError(f"a place holds more known cards than its count: {sizes}")
    dealt = sample_hands(hidden, sizes, rng, allowed, tries, complete)
    return {p: list(known.get(p, [])) + dealt[p] for p in counts}


def place_played(pack: Iterable[str], held: dict[P, list[str]], shown: dict[P, list[str]],
                 played: dict[P, list[str]], rng: random.Random | None = None,
                 key: Callable[[str], Any] | None = None, lowest_held: bool = True,
                 ) -> tuple[dict[P, list[str]], dict[P, list[str]]]:
    """Physical cards (or faces) standing for the cards each place laid on the table, in a
    climbing game whose views show a play by its ranks only (:func:`qipai.cards.table_ids`): a
    label says nothing of the suit that left the hand, so any card of the label's rank that is
    not known to be elsewhere may stand for it, and a determinization replays plays by their
    rank text.

    ``pack`` holds every card (a multiset of ids or faces: the rank is the first character);
    ``held`` the cards each place is known to hold now (a seat's own hand); ``shown`` the
    cards each place is known to have held since the deal (a kitty taken, a face-up card, a
    tribute received), some of which it may have played since; ``played`` the table's labels
    per place. A label takes first a ``shown`` card of its rank of that place not held now
    (the place may have played it), else a card of its rank known to be nowhere: the first in
    ``pack`` order, or one drawn with ``rng`` when given (where the suits matter elsewhere in
    the game, as for 保皇's named card). A place whose hand is ``held`` took the lowest cards
    of each rank it played (the referee's pick), so, given the game's card order ``key``, its
    labels take the lowest free cards by ``key``, and replaying its plays by their rank text
    leaves it the cards it holds. Returns ``(played cards per place, shown cards per
    place still held)``. Raises ``ValueError`` when a rank has fewer free cards than were laid,
    or (given ``key`` and ``lowest_held``, for a ``key`` that is the referee's order) when a
    place whose hand is ``held`` would have laid a card above one of its rank that it holds (a
    ``shown`` card it cannot have held, such as a guessed one: the referee would have laid the
    held card, and a replay would leave the shown one in its hand)."""
    out: dict[P, list[str]] = {}
    rest: dict[P, list[str]] = {}
    for place, cards in shown.items():
        left = Counter(held.get(place, ()))
        rest[place] = []
        for c in cards:
            if left[c]:
                left[c] -= 1
            else:
                rest[place].append(c)
    taken = Counter(c for cards in held.values() for c in cards)
    taken += Counter(c for cards in rest.values() for c in cards)
    free: dict[str, list[str]] = {}
    for c in pack:
        if taken[c]:
            taken[c] -= 1
        else:
            free.setdefault(c[0], []).append(c)
    if key is not None:
        for pool in free.values():
            pool.sort(key=key)
    for place, labels in sorted(played.items(), key=lambda x: x[0] not in held):   # held first
        mine = rest.get(place, [])
        lowest = key is not None and place in held
        laid: list[str] = []
        for label in labels:
            match = next((c for c in mine if c[0] == label[0]), None)
            if match is not None:
                mine.remove(match)
                laid.append(match)
            elif free.get(label[0]):
                pool = free[label[0]]
                laid.append(pool.pop(rng.randrange(len(pool)) if rng is not None and not lowest else 0))
            else:
                raise ValueError(f"more cards of rank {label[0]} laid than the pack has free")
        if lowest and lowest_held:
            assert key is not None
            # the referee laid the place's lowest cards of each rank, so none of those it laid
            # is above one of its rank it still holds: a shown card (or the lowest free one)
            # that is would be left in the hand by a replay, in place of a card it holds
            floor: dict[str, Any] = {}
            for c in held[place]:
                if c[0] not in floor or key(c) < floor[c[0]]:
                    floor[c[0]] = key(c)
            for c in laid:
                if c[0] in floor and key(c) > floor[c[0]]:
                    raise ValueError(f"{c} laid while a lower card of its rank is still held")
        out[place] = laid
    still = {place: rest[place] for place in shown}     # the shown cards not laid stay in hand
    return out, still


def id_order(order: RankOrder) -> Callable[[str], tuple[int, int, int]]:
    """The ``key`` of :func:`place_played` for card ids or faces: card-id order under
    ``order`` (rank, then suit ``D < C < H < S``, then deck index), the referee's pick."""
    return lambda c: order.card_key(parse_card(c))
