"""Actions of 三打一 and their canonical text (docs/games/sandayi.md, "Notation").

* ``pass`` — a bidder passes (不叫);
* ``bid 65`` — a bid of 65 points (a bare ``65`` is read while bidding);
* ``bury 3D 5C 9S KH LJ BJ`` — the dealer's six buried cards (扣底), face codes in canonical
  order (rank 2..A then LJ, BJ; suit D < C < H < S);
* ``trump H`` — the dealer names the trump suit (a bare ``H`` is read while naming);
* ``AS`` — a play: exactly one card, by its face code.

Actions are interned or compare by text, so ``str(action)`` is the canonical form.
"""

from __future__ import annotations

from typing import Any

from qipai.cards import Card
from qipai.cards.tokens import PASS, Bid, bid
from qipai.core.errors import IllegalAction, why

from .cards import DECK, SUITS, read_card, sort_cards

__all__ = ["PASS", "Bid", "Bury", "NameTrump", "Play", "bid", "bury", "parse", "play", "trump"]


class Play:
    """Play one card (lead or follow); ``card`` is the physical card, ``text`` its face code."""

    __slots__ = ("card", "text")
    type = "play"

    def __init__(self, card: Card) -> None:
        self.card = card
        self.text = card.face

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Play({self.text!r})"

    def __reduce__(self):
        return (play, (self.card,))


class Bury:
    """Bury the cards ``cards`` (a tuple in canonical order) as the kitty."""

    __slots__ = ("cards", "text")
    type = "bury"

    def __init__(self, cards: tuple[Card, ...]) -> None:
        self.cards = tuple(sort_cards(cards))
        self.text = "bury " + " ".join(c.face for c in self.cards)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Bury) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Bury({self.text!r})"


class NameTrump:
    """Name ``suit`` (``S``, ``H``, ``D`` or ``C``) as trump."""

    __slots__ = ("suit", "text")
    type = "trump"

    def __init__(self, suit: str) -> None:
        self.suit = suit
        self.text = f"trump {suit}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"NameTrump({self.suit!r})"

    def __reduce__(self):
        return (trump, (self.suit,))


_PLAYS = {c: Play(c) for c in DECK}
_TRUMPS = {s: NameTrump(s) for s in SUITS}


def play(card: Card) -> Play:
    """The interned play of ``card``."""
    return _PLAYS[card]


def trump(suit: str) -> NameTrump:
    """The interned naming of ``suit``. Raises ``KeyError`` for anything but S, H, D, C."""
    return _TRUMPS[suit]


def bury(cards: tuple[Card, ...] | list[Card]) -> Bury:
    return Bury(tuple(cards))


_PASS_WORDS = ("pass", "p", "不叫", "过", "不要")


def parse(text: Any, phase: str | None = None) -> Any:
    """The action written ``text``. ``phase`` (``bid``, ``bury``, ``trump``, ``play``) lets bare
    numbers and suit letters be read. Raises :class:`IllegalAction` saying what is wrong:
    not text, an empty text, a malformed bid, an unknown card, a repeated card, a multi-card
    play (§3.3: singles only), or no-trump (§2.6)."""
    if not isinstance(text, str):
        raise IllegalAction("an action is written as text", text, code="sandayi.action_written_text")
    t = text.strip()
    if not t:
        raise IllegalAction("no action given", text, code="sandayi.no_action_given")
    low = t.lower()
    if low in _PASS_WORDS:
        return PASS
    parts = t.split()
    head = parts[0].lower()
    if head == "bid" or (phase == "bid" and len(parts) == 1 and t.isascii() and t.isdecimal()):
        body = parts[1:] if head == "bid" else parts
        if len(body) != 1 or not (body[0].isascii() and body[0].isdecimal()):
            raise IllegalAction("a bid is 'bid N' with N a number of points, e.g. 'bid 65'", text,
                                code="sandayi.bid_bid_n_n")
        return bid(int(body[0]))
    if head == "trump" or (phase == "trump" and len(parts) == 1 and len(t) <= 2):
        body = parts[1:] if head == "trump" else parts
        if len(body) != 1:
            raise IllegalAction("name one suit: 'trump S', 'trump H', 'trump D' or 'trump C'", text,
                                code="sandayi.name_suit_trump_trump")
        s = body[0].upper()
        if s in ("NT", "N", "NONE", "无主"):
            raise IllegalAction("there is no no-trump in 三打一: name S, H, D or C (§2.6)", text,
                                code="sandayi.no_no_trump_name")
        if s not in _TRUMPS:
            raise IllegalAction(f"{body[0]!r} is not a suit (S, H, D, C)", text,
                                code="sandayi.not_suit_h_d", params={"body": body[0]})
        return _TRUMPS[s]
    if head == "bury":
        return Bury(tuple(_cards(parts[1:], text)))
    cards = _cards(parts, text)
    if phase == "bury":
        return Bury(tuple(cards))
    if len(cards) != 1:
        raise IllegalAction(f"every play is exactly one card, not {len(cards)} (§3.3: singles only)", text,
                            code="sandayi.every_play_exactly_card", params={"n_cards": len(cards)})
    return _PLAYS[cards[0]]


def _cards(tokens: list[str], text: str) -> list[Card]:
    out: list[Card] = []
    for tok in " ".join(tokens).replace(",", " ").split():
        try:
            out.append(read_card(tok))
        except ValueError as e:
            raise IllegalAction(f"not a card: {tok!r} ({e})", text,
                                code="sandayi.not_card",
                                params={"tok": tok, **why(e, "unreadable")}) from None
    if len(set(out)) != len(out):
        raise IllegalAction("the same card is named twice", text, code="sandayi.same_card_named_twice")
    return out
