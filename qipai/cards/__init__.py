"""Card primitives shared by every card game: physical cards with a deck index, 1-10 packs with
or without jokers, per-game rank orders, the rule files' card codes in and out, rank-count
multisets, seeded shuffling and dealing, and verifiable deals (commit-reveal)."""

from .card import (
    BIG_JOKER,
    RANKS,
    SMALL_JOKER,
    SUIT_ORDER,
    SUITS,
    Card,
    is_card_code,
    make_deck,
    parse_card,
    parse_cards,
    shown,
    shown_ids,
    table_card,
    table_ids,
    table_seen,
)
from .deal import Deal, commitment, deal_round_robin, seeded_deal, shuffled, verify, verify_deal
from .multiset import Packer
from .order import DOUDIZHU, NATURAL, WAKENG, RankOrder

__all__ = [
    "BIG_JOKER", "DOUDIZHU", "NATURAL", "RANKS", "SMALL_JOKER", "SUITS", "SUIT_ORDER", "WAKENG",
    "Card", "Deal", "Packer", "RankOrder", "commitment", "deal_round_robin", "is_card_code",
    "make_deck", "parse_card", "parse_cards", "seeded_deal", "shown", "shown_ids", "shuffled",
    "table_card", "table_ids", "table_seen", "verify",
    "verify_deal",
]
