"""Per-game rank orders and rank strings.

A rank string writes a multiset of ranks, one character per card: ``2``..``A`` (``T`` = ten),
``L`` = small joker, ``B`` = big joker (rule files §6). Order means nothing; a ``+`` may separate
the main part from the kickers (``333444+56``) and spaces are ignored. ``10`` may stand for ``T``
and lower case is accepted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from qipai.core.errors import Message

from .card import SUIT_ORDER, Card


class RankOrder:
    """The ranks a game uses, lowest first, e.g. ``RankOrder("3456789TJQKA2LB")`` for doudizhu
    or ``RankOrder("456789TJQKA23", chain="456789TJQK")`` for 挖坑.

    ``chain`` lists the ranks that may appear in chains (straights, pair chains, planes), in
    order; by default every non-joker rank except ``2``. Rank indexes are 0-based positions in
    ``ranks``.
    """

    def __init__(self, ranks: str, chain: str | None = None, name: str = "") -> None:
        if len(set(ranks)) != len(ranks):
            raise ValueError(f"repeated rank in {ranks!r}")
        self.ranks = ranks
        self.name = name
        self.index = {r: i for i, r in enumerate(ranks)}
        if chain is None:
            chain = "".join(r for r in ranks if r not in "2LB")
        for r in chain:
            if r not in self.index:
                raise ValueError(f"chain rank {r!r} is not in {ranks!r}")
        self.chain = chain
        self.chain_index = frozenset(self.index[r] for r in chain)
        self._suit = {s: i for i, s in enumerate(SUIT_ORDER)}
        self._keys: dict[str, tuple[int, int, int]] = {}    # card id -> card_key, as met

    def __len__(self) -> int:
        return len(self.ranks)

    def __repr__(self) -> str:
        return f"RankOrder({self.ranks!r}, chain={self.chain!r})"

    def rank_of(self, card: Card) -> int:
        """Index of ``card``'s rank. Raises ``ValueError`` if the game does not use that rank."""
        try:
            return self.index[card.rank]
        except KeyError:
            raise ValueError(Message(f"{card.id} is not used in this game", code="card.not_in_game",
                                     params={"card": card.id})) from None

    def card_key(self, card: Card) -> tuple[int, int, int]:
        """Card-id order (§6): rank order, then suit ``D < C < H < S`` (jokers first), then deck."""
        key = self._keys.get(card.id)
        if key is None:
            key = (self.rank_of(card), self._suit.get(card.suit, -1) if card.suit else -1, card.deck)
            self._keys[card.id] = key
        return key

    def sort_cards(self, cards: Iterable[Card]) -> list[Card]:
        return sorted(cards, key=self.card_key)

    def is_run(self, indexes: Sequence[int]) -> bool:
        """True when ``indexes`` are consecutive chain ranks (ascending)."""
        return all(i in self.chain_index for i in indexes) and all(
            b == a + 1 for a, b in zip(indexes, indexes[1:]))

    # ----- rank strings -------------------------------------------------------------------
    def parse_counts(self, text: str) -> list[int]:
        """Counts per rank index of the rank string ``text``. Raises ``ValueError`` naming the
        first character that is not a rank of this game."""
        t = text.upper().replace("10", "T")
        counts = [0] * len(self.ranks)
        for ch in t:
            if ch in " +":
                continue
            i = self.index.get(ch)
            if i is None:
                valid = " ".join(self.ranks)
                raise ValueError(Message(f"{ch!r} is not a rank here (ranks: {valid}; L/B = small/big joker)",
                                         code="card.not_a_rank", params={"rank": ch, "valid": valid}))
            counts[i] += 1
        return counts

    def format_counts(self, counts: Sequence[int]) -> str:
        """The rank string of ``counts``, lowest rank first."""
        return "".join(self.ranks[i] * c for i, c in enumerate(counts) if c)

    def counts_of(self, cards: Iterable[Card]) -> list[int]:
        counts = [0] * len(self.ranks)
        for c in cards:
            counts[self.rank_of(c)] += 1
        return counts


DOUDIZHU = RankOrder("3456789TJQKA2LB", name="doudizhu")
"""斗地主, 4A4, 保皇: 3 < 4 < … < A < 2 < small joker < big joker; chains use 3..A."""

WAKENG = RankOrder("456789TJQKA23", chain="456789TJQK", name="wakeng")
"""挖坑: 4 < 5 < … < A < 2 < 3, no jokers; straights use 4..K."""

NATURAL = RankOrder("23456789TJQKALB", chain="23456789TJQKA", name="natural")
"""Plain face order 2..A then jokers (a neutral base for trump games such as 升级)."""
