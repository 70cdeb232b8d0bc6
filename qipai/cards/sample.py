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
from typing import TypeVar

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


def lowest_taken(order: RankOrder, played: dict[P, list[str]]) -> Callable[[P, str], bool]:
    """``allowed(place, card id)`` for :func:`deal_unseen` in a game of rank plays
    (:class:`~qipai.cards.hand.RankHand`: a play takes the lowest card ids of each rank): a seat
    that played a card of a rank cannot hold now a card of that rank sorting below it (the play
    would have taken that one). With it a determinization replays the physical cards seen."""
    top: dict[tuple[P, int], tuple] = {}
    for place, ids in played.items():
        for cid in ids:
            c = parse_card(cid)
            k = (place, order.rank_of(c))
            key = order.card_key(c)
            if k not in top or key > top[k]:
                top[k] = key

    def allowed(place: P, cid: str) -> bool:
        c = parse_card(cid)
        high = top.get((place, order.rank_of(c)))
        return high is None or order.card_key(c) > high
    return allowed
