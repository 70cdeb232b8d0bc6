"""三打一 card order (rules/sandayi.md §3.1-§3.2) and point cards (§1).

One 54-card pack with both jokers; every card is unique, so a card is named by its face code.

* Trumps: both jokers, the four 2s and the named suit X (18 cards). ``eff(c)`` is ``"T"`` for a
  trump, else the printed suit.
* ``pos``: trumps 3X..AX = 0..11, the three other 2s = 12 (equal), 2X = 13, LJ = 14, BJ = 15;
  side suits 3..A = 0..11.
* Points: every 5 is worth 5, every T and K 10 (100 in the pack).
"""

from __future__ import annotations

from collections.abc import Iterable

from qipai.cards import Card, make_deck, parse_card
from qipai.cards.order import NATURAL

TRUMP = "T"
DECK: tuple[Card, ...] = tuple(make_deck(1, jokers=True))
DECK_IDS = frozenset(c.id for c in DECK)
SUITS = ("S", "H", "D", "C")
#: tie-break order of suits, lowest first (rule file §6: D < C < H < S)
SUIT_RANK = {"D": 0, "C": 1, "H": 2, "S": 3}
_SIDE_POS = {r: i for i, r in enumerate("3456789TJQKA")}
POINTS = {"5": 5, "T": 10, "K": 10}
TOTAL_POINTS = 100


def eff(card: Card, trump: str) -> str:
    """The effective suit of ``card`` with trump suit ``trump``: ``"T"`` or its printed suit."""
    if card.suit is None or card.rank == "2" or card.suit == trump:
        return TRUMP
    return card.suit


def pos(card: Card, trump: str) -> int:
    """The order of ``card`` within its effective suit (§3.2), 0 = lowest."""
    if card.suit is None:
        return 15 if card.rank == "B" else 14
    if card.rank == "2":
        return 13 if card.suit == trump else 12
    return _SIDE_POS[card.rank]


def points(card: Card) -> int:
    """Point value of ``card``: 5 for a five, 10 for a ten or a king, else 0."""
    return POINTS.get(card.rank, 0)


def total_points(cards: Iterable[Card]) -> int:
    return sum(POINTS.get(c.rank, 0) for c in cards)


def default_key(card: Card, trump: str) -> tuple[int, int, int]:
    """§5 timeout order, lowest first: non-trump before trump, then ``pos``, then suit D, C, H, S
    (jokers have distinct ``pos``, so their suit never decides)."""
    return (eff(card, trump) == TRUMP, pos(card, trump), SUIT_RANK.get(card.suit or "", 4))


def sort_key(card: Card) -> tuple[int, int, int]:
    """Trump-independent canonical order of card lists (texts, views): rank 2..A, LJ, BJ, then
    suit D < C < H < S."""
    return NATURAL.card_key(card)


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=NATURAL.card_key)


def read_card(text: str) -> Card:
    """The card written ``text`` (face code such as ``TH``, ``LJ``; ``10H`` and ``TH0`` are read
    too). Raises ``ValueError`` for anything else, or a deck index other than 0."""
    card = parse_card(text)
    if card.deck != 0:
        raise ValueError(f"{card.id}: 三打一 uses one pack; write the face code ({card.face})")
    return card
