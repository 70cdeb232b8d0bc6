"""Physical cards and the project-wide card notation (rule files §6).

* Suits ``S`` ♠, ``H`` ♥, ``D`` ♦, ``C`` ♣; tie-break order ascending ``D < C < H < S``.
* Ranks ``2 3 4 5 6 7 8 9 T J Q K A``; jokers have the rank characters ``L`` (small joker 小王)
  and ``B`` (big joker 大王).
* Face code = rank + suit (``5H``, ``TS``); jokers are ``LJ`` and ``BJ``.
* Card id = face code + deck index digit, 0-based (``5H0``, ``LJ0``, ``BJ2``). Cards that differ
  only in the deck index are equal for every rule; the index only names physical cards.

:class:`Card` objects are interned: ``card("5H1") is card("5H1")``.
"""

from __future__ import annotations

from collections.abc import Iterable

from qipai.core.errors import Message

SUITS = "SHDC"                 # the usual 黑红梅方 listing order
SUIT_ORDER = "DCHS"            # ascending tie-break order D < C < H < S
RANKS = "23456789TJQKA"        # the 13 ranks of a suit (not a game's rank order)
SMALL_JOKER = "L"
BIG_JOKER = "B"
JOKER_FACES = {"L": "LJ", "B": "BJ"}
MAX_DECKS = 10                 # one digit of deck index

class Card:
    """One physical card: ``rank`` (``2``..``A``, ``L``, ``B``), ``suit`` (``S H D C`` or
    ``None`` for a joker), ``deck`` (0-based pack index); ``face`` is the face code and
    ``id`` the card id. Compare cards with a game's :class:`~qipai.cards.RankOrder`."""

    __slots__ = ("rank", "suit", "deck", "face", "id")

    rank: str
    suit: str | None
    deck: int
    face: str
    id: str

    def __new__(cls, rank: str, suit: str | None, deck: int = 0) -> Card:
        key = (rank, suit, deck)
        found = _INTERNED.get(key)
        if found is not None:
            return found
        if rank in JOKER_FACES:
            if suit is not None:
                raise ValueError(Message(f"a joker has no suit (got {suit!r})", code="card.joker_suit",
                                         params={"suit": str(suit)}))
            face = JOKER_FACES[rank]
        elif rank in RANKS and len(rank) == 1:
            if suit is None or suit not in SUITS or len(suit) != 1:
                raise ValueError(Message(f"bad suit {suit!r} (valid: S H D C)", code="card.bad_suit",
                                         params={"suit": str(suit)}))
            face = rank + suit
        else:
            raise ValueError(Message(f"bad rank {rank!r} (valid: {' '.join(RANKS)} L B)",
                                     code="card.bad_rank",
                                     params={"rank": str(rank), "valid": f"{' '.join(RANKS)} L B"}))
        if not isinstance(deck, int) or not 0 <= deck < MAX_DECKS:
            raise ValueError(Message(f"bad deck index {deck!r} (0..{MAX_DECKS - 1})", code="card.bad_deck",
                                     params={"deck": str(deck), "max": MAX_DECKS - 1}))
        obj = super().__new__(cls)
        object.__setattr__(obj, "rank", rank)
        object.__setattr__(obj, "suit", suit)
        object.__setattr__(obj, "deck", deck)
        object.__setattr__(obj, "face", face)
        object.__setattr__(obj, "id", f"{face}{deck}")
        _INTERNED[key] = obj
        return obj

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    def __reduce__(self):
        return (Card, (self.rank, self.suit, self.deck))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict) -> Card:
        return self

    def __repr__(self) -> str:
        return f"Card({self.id!r})"

    def __str__(self) -> str:
        return self.id


_INTERNED: dict[tuple[str, str | None, int], Card] = {}


def parse_card(text: str) -> Card:
    """The card written ``text``: a card id (``5H0``, ``LJ1``) or a face code (``5H``, ``BJ``,
    deck index 0). Case-insensitive; ``10`` may stand for ``T``. Raises ``ValueError``."""
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    deck = 0
    if len(t) == 3 and t[2].isdecimal():
        deck = int(t[2])
        t = t[:2]
    if t in ("LJ", "BJ"):
        return Card(t[0], None, deck)
    if len(t) != 2:
        raise ValueError(Message(f"not a card: {text!r} (write e.g. 5H, TS, LJ, BJ, or 5H1 with a deck "
                                 "index)", code="card.not_card", params={"tok": text}))
    return Card(t[0], t[1], deck)


def is_card_code(text: str) -> bool:
    """True when ``text`` is a face code or card id (and not, say, a rank string)."""
    try:
        parse_card(text)
    except ValueError:
        return False
    return True


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Cards from a space/comma separated string of codes or an iterable of codes."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(t) for t in items]


def make_deck(decks: int = 1, jokers: bool = True, ranks: str = RANKS) -> list[Card]:
    """A fresh, unshuffled pack: ``decks`` packs (1..MAX_DECKS) of ``ranks`` × 4 suits, each with
    both jokers when ``jokers``. Order: deck index, then rank in ``ranks`` order, then suit
    ``S H D C``, then ``LJ``, ``BJ``."""
    if not 1 <= decks <= MAX_DECKS:
        raise ValueError(f"decks must be 1..{MAX_DECKS}")
    out: list[Card] = []
    for d in range(decks):
        for r in ranks:
            for s in SUITS:
                out.append(Card(r, s, d))
        if jokers:
            out.append(Card(SMALL_JOKER, None, d))
            out.append(Card(BIG_JOKER, None, d))
    return out
