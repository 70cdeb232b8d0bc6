"""A hand of physical cards kept by rank, for the climbing games (挖坑, 4A4, ...) whose plays
are rank multisets: suits never matter, so a play names how many cards of each rank leave the
hand, and the referee picks the physical cards.

Which physical cards leave: the lowest card ids of each rank played (card-id order of the rule
files §6: the game's rank order, then suit ``D < C < H < S``, then deck index). That is the
rule files' choice "wherever a default must pick one physical card", and it makes replays exact.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .card import Card
from .order import RankOrder


class RankHand:
    """The cards one seat holds, grouped by rank index of ``order``.

    ``counts[i]`` is the number of cards of rank index ``i``; ``by_rank[i]`` those cards in
    card-id order. Raises ``ValueError`` (from :meth:`RankOrder.rank_of`) for a card whose rank
    the game does not use.
    """

    __slots__ = ("order", "by_rank", "counts", "size")

    def __init__(self, order: RankOrder, cards: Iterable[Card] = ()) -> None:
        self.order = order
        self.by_rank: list[list[Card]] = [[] for _ in range(len(order))]
        self.counts: list[int] = [0] * len(order)
        self.size = 0
        self.add(cards)

    def add(self, cards: Iterable[Card]) -> None:
        """Put ``cards`` into the hand (each rank stays in card-id order)."""
        touched = set()
        for c in cards:
            r = self.order.rank_of(c)
            self.by_rank[r].append(c)
            self.counts[r] += 1
            self.size += 1
            touched.add(r)
        key = self.order.card_key
        for r in touched:
            self.by_rank[r].sort(key=key)

    def holds(self, counts: Sequence[int]) -> bool:
        """True when the hand has at least ``counts[i]`` cards of every rank index ``i``."""
        mine = self.counts
        return all(c <= mine[i] for i, c in enumerate(counts) if c)

    def holds_card(self, card: Card) -> bool:
        r = self.order.index.get(card.rank)
        return r is not None and card in self.by_rank[r]

    def take(self, counts: Sequence[int]) -> list[Card]:
        """Remove ``counts[i]`` cards of each rank index ``i`` (the lowest card ids) and return
        them. Raises ``ValueError`` and changes nothing when the hand does not hold them."""
        if not self.holds(counts):
            raise ValueError("the hand does not hold those cards")
        out: list[Card] = []
        for i, c in enumerate(counts):
            if c:
                out += self.by_rank[i][:c]
                del self.by_rank[i][:c]
                self.counts[i] -= c
                self.size -= c
        return out

    def lowest(self) -> Card | None:
        """The lowest card in card-id order (``None`` for an empty hand)."""
        for cards in self.by_rank:
            if cards:
                return cards[0]
        return None

    def cards(self) -> list[Card]:
        """Every card, in card-id order."""
        return [c for cards in self.by_rank for c in cards]

    def ranks(self) -> str:
        """The hand as a rank string, lowest rank first."""
        return self.order.format_counts(self.counts)

    def copy(self) -> RankHand:
        new = object.__new__(RankHand)
        new.order = self.order
        new.by_rank = [list(x) for x in self.by_rank]
        new.counts = list(self.counts)
        new.size = self.size
        return new

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return f"RankHand({self.ranks()!r})"
