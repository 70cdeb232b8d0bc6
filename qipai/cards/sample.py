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
                 allowed: Callable[[P, T], bool] | None = None, tries: int = 200) -> dict[P, list[T]]:
    """Deal ``cards`` at random into places of the given ``sizes`` (their sum must be
    ``len(cards)``). ``allowed(place, card)`` may forbid a card in a place; the deal is then
    uniform among those that satisfy it (rejection of whole shuffles, after which the most
    constrained places are filled first). Raises ``ValueError`` when the sizes do not add up or
    no deal satisfying ``allowed`` is found in ``tries`` attempts."""
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
    return _constrained(pool, sizes, rng, allowed)


def _constrained(cards: list[T], sizes: dict[P, int], rng: random.Random,
                 allowed: Callable[[P, T], bool]) -> dict[P, list[T]]:
    """Fill the places whose cards are most limited first (a fallback when rejection fails)."""
    left = list(cards)
    rng.shuffle(left)
    out: dict[P, list[T]] = {p: [] for p in sizes}
    # cards that fit the fewest places go first
    left.sort(key=lambda c: sum(allowed(p, c) for p in sizes))
    for c in left:
        fits = [p for p in sizes if len(out[p]) < sizes[p] and allowed(p, c)]
        if not fits:
            raise ValueError("no deal of the unseen cards satisfies what the seat has seen")
        out[rng.choice(fits)].append(c)
    return out


def deal_unseen(pack: Iterable[T], counts: dict[P, int], known: dict[P, list[T]],
                gone: Iterable[T], rng: random.Random,
                allowed: Callable[[P, T], bool] | None = None, tries: int = 200) -> dict[P, list[T]]:
    """What each place holds now, for a determinization: its ``known`` cards (or tiles) plus
    unseen ones dealt at random up to ``counts[place]``. The unseen cards are ``pack`` less
    every known card and every card in ``gone`` (played, discarded, shown: out of every
    place). ``counts`` names every hidden place (seats' hands, a kitty, a wall) and must add up
    with the known cards to the pack. Raises ``ValueError`` when they do not, when a place is
    known to hold more than its count, or when no deal satisfies ``allowed`` (see
    :func:`sample_hands`, with its ``tries``)."""
    gone = list(gone)
    held = [c for p in counts for c in known.get(p, [])]
    hidden = unseen(pack, held + gone)
    sizes = {p: n - len(known.get(p, [])) for p, n in counts.items()}
    if any(n < 0 for n in sizes.values()):
        raise ValueError(f"a place holds more known cards than its count: {sizes}")
    dealt = sample_hands(hidden, sizes, rng, allowed, tries)
    return {p: list(known.get(p, [])) + dealt[p] for p in counts}


def place_played(pack: Iterable[str], held: dict[P, list[str]], shown: dict[P, list[str]],
                 played: dict[P, list[str]], rng: random.Random | None = None,
                 key: Callable[[str], Any] | None = None,
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
    place still held)``. Raises ``ValueError`` when a rank has fewer free cards than were laid."""
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
        out[place] = laid
    still = {place: rest[place] for place in shown}     # the shown cards not laid stay in hand
    return out, still


def id_order(order: RankOrder) -> Callable[[str], tuple[int, int, int]]:
    """The ``key`` of :func:`place_played` for card ids or faces: card-id order under
    ``order`` (rank, then suit ``D < C < H < S``, then deck index), the referee's pick."""
    return lambda c: order.card_key(parse_card(c))
