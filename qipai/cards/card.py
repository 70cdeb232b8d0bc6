"""Physical cards and the project-wide card notation (rule files §6).

* Suits ``S`` ♠, ``H`` ♥, ``D`` ♦, ``C`` ♣; tie-break order ascending ``D < C < H < S``.
* Ranks ``2 3 4 5 6 7 8 9 T J Q K A``; jokers have the rank characters ``L`` (small joker 小王)
  and ``B`` (big joker 大王).
* Face code = rank + suit (``5H``, ``TS``); jokers are ``LJ`` and ``BJ``.
* Card id = face code + deck index digit, 0-based (``5H0``, ``LJ0``, ``BJ2``). Cards that differ
  only in the deck index are equal for every rule; the index only names physical cards, and
  in a game of several packs a seat is never shown it: a view labels the copies of each face
  within each list (:func:`shown_ids`), so a label says nothing about where other copies are.
* In the climbing games whose plays are rank multisets (suits never matter in play), a card laid
  on the table is shown by its rank and how many cards of that rank were shown before it in the
  deal (:func:`table_ids`), never by the physical card the referee took from the hand: which
  suits left a hand would tell the other seats which suits it held.

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
    found = _BY_TEXT.get(text) if type(text) is str else None
    if found is not None:            # a canonical id or face code read before
        return found
    card = _parse_card(text)
    if text in (card.id, card.face):     # only canonical texts: the table stays small
        _BY_TEXT[text] = card
    return card


#: cards already read, by their canonical id or face code (:func:`parse_card`)
_BY_TEXT: dict[str, Card] = {}


def _parse_card(text: str) -> Card:
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


def shown(card: Card, copy: int = 0) -> Card:
    """The card as a seat is shown it: ``card``'s face with deck index ``copy``."""
    return Card(card.rank, card.suit, copy)


def shown_ids(cards: Iterable[Card]) -> list[str]:
    """The ids of ``cards`` as a seat may be shown them: the copies of each face numbered 0, 1, …
    in their order in this list, whichever physical copies they are. The copies of a face are
    identical, so a game of several packs shows every list of cards this way (a hand, a play, a
    tribute): the labels then tell a seat nothing about where the other copies are, and no copy
    can be followed from one list to another. The referee keeps its own ids internally."""
    seen: dict[str, int] = {}
    out: list[str] = []
    for c in cards:
        k = seen.get(c.face, 0)
        seen[c.face] = k + 1
        out.append(f"{c.face}{k}")
    return out


def table_card(rank: str, k: int) -> Card:
    """The card shown for the ``k``-th (0-based) card of ``rank`` laid on the table in a deal:
    suits in the listing order ``S H D C`` (the first 2 shown is ``2S0``, the second ``2H0``, …,
    the fifth of several packs ``2S1``); the ``k``-th joker of a kind is that joker with deck
    index ``k``. Raises ``ValueError`` past the last copy that ten packs have."""
    if rank in JOKER_FACES:
        return Card(rank, None, k)
    return Card(rank, SUITS[k % len(SUITS)], k // len(SUITS))


def table_ids(cards: Iterable[Card], seen: dict[str, int]) -> list[str]:
    """The ids of ``cards`` laid on the table as every seat is shown them (:func:`table_card`):
    each card stands for the next copy of its rank, counted in ``seen`` (cards shown so far in
    the deal, per rank; updated). The shown ids depend only on the ranks played in the deal, so
    they say nothing about which physical cards, and thus which suits, a hand held; the
    referee keeps its own cards internally, and a seat's own hand shows its real cards."""
    out: list[str] = []
    for c in cards:
        rank = c.rank
        k = seen.get(rank, 0)
        seen[rank] = k + 1
        label = _TABLE_IDS.get((rank, k))
        if label is None:      # at most 4 x MAX_DECKS labels a rank, each made once
            label = _TABLE_IDS[rank, k] = table_card(rank, k).id
        out.append(label)
    return out


#: the id :func:`table_card` gives, by (rank, copy)
_TABLE_IDS: dict[tuple[str, int], str] = {}


def table_seen(plays: Iterable[Iterable[Card]]) -> dict[str, int]:
    """The ``seen`` counts of :func:`table_ids` after the cards of ``plays`` (lists of cards)."""
    seen: dict[str, int] = {}
    for cards in plays:
        for c in cards:
            seen[c.rank] = seen.get(c.rank, 0) + 1
    return seen


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
