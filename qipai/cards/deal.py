"""Seeded shuffling and dealing, and verification of a published deal (commit-reveal).

Before a deal the server publishes ``commitment(seed)``; after the hand it reveals the seed, and
anyone can check :func:`verify_deal`: that the seed matches the commitment and re-deals to the
same hands. Shuffles use only :class:`qipai.core.rng.DealRng`, so they are identical on every
platform and Python version.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from qipai.core.rng import DealRng, commitment, verify

from .card import Card, parse_card


@dataclass
class Deal:
    """Hands (one list of cards per seat) and the undealt cards (kitty, 底牌, pit, stock)."""

    hands: list[list[Card]]
    kitty: list[Card] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"hands": [[c.id for c in h] for h in self.hands], "kitty": [c.id for c in self.kitty]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Deal:
        """Read ``{"hands": [[ids]...], "kitty": [ids]}``. Raises ``ValueError`` on bad codes."""
        return cls([[parse_card(c) for c in h] for h in data["hands"]],
                   [parse_card(c) for c in data.get("kitty", [])])

    def all_cards(self) -> list[Card]:
        return [c for h in self.hands for c in h] + list(self.kitty)


def shuffled(cards: Sequence[Card], rng: DealRng) -> list[Card]:
    """A uniformly shuffled copy of ``cards`` (Fisher-Yates on the seeded stream)."""
    return rng.shuffle(list(cards))


def deal_round_robin(cards: Sequence[Card], seats: int, per_hand: int, kitty: int | None = None) -> Deal:
    """Deal ``cards`` in order one at a time: card ``i`` goes to seat ``i mod seats`` until each
    seat has ``per_hand``; the rest (or the next ``kitty`` cards) is the kitty."""
    n = seats * per_hand
    if n > len(cards):
        raise ValueError(f"{len(cards)} cards cannot make {seats} hands of {per_hand}")
    hands = [list(cards[s:n:seats]) for s in range(seats)]
    rest = list(cards[n:]) if kitty is None else list(cards[n:n + kitty])
    return Deal(hands, rest)


def seeded_deal(seed: int | str, deck: Sequence[Card], seats: int, per_hand: int,
                kitty: int | None = None) -> tuple[Deal, DealRng]:
    """Shuffle ``deck`` with ``DealRng(seed)`` and deal it round robin; returns the deal and the
    generator (positioned after the shuffle, for any further random choice of the same deal)."""
    rng = DealRng(seed)
    return deal_round_robin(shuffled(deck, rng), seats, per_hand, kitty), rng


def verify_deal(seed: int | str, published: str, deal: Deal,
                redeal: Callable[[int | str], Deal]) -> bool:
    """True when ``seed`` matches the ``published`` commitment and ``redeal(seed)`` reproduces
    ``deal`` card for card (hands in seat order, then the kitty)."""
    if not verify(seed, published):
        return False
    again = redeal(seed)
    return [[c.id for c in h] for h in again.hands] == [[c.id for c in h] for h in deal.hands] and \
        [c.id for c in again.kitty] == [c.id for c in deal.kitty]


__all__ = ["Deal", "commitment", "deal_round_robin", "seeded_deal", "shuffled", "verify", "verify_deal"]
