"""Reading a play of a climbing game (挖坑, 4A4, ...) written as rank strings, card codes, or
both (rule files §6): ``456``, ``KK``, ``333444+56``, ``5H 5S``, ``4S 4H A``, ``LB``. The play
is a rank multiset, so what is read is its rank counts."""

from __future__ import annotations

from .card import Card, is_card_code, parse_card
from .hand import RankHand
from .order import RankOrder


def read_counts(text: str, order: RankOrder, hand: RankHand | None = None) -> list[int]:
    """Rank counts (per rank index of ``order``) of the play written ``text``.

    Tokens are separated by spaces or commas; a token that is a face code or card id (``5H``,
    ``5H0``, ``LJ``) names one physical card of pack 0, anything else is a rank string. When
    ``hand`` is given, every named card must be in it. Raises ``ValueError`` saying what is
    wrong: a rank or card the game does not use, a card named twice, a named card not held.
    """
    counts = [0] * len(order)
    named: list[Card] = []
    for tok in text.replace(",", " ").split():
        if len(tok) in (2, 3) and not tok.isdecimal() and is_card_code(tok):
            card = parse_card(tok)
            if card.deck != 0 or card.rank not in order.index:
                raise ValueError(f"{card.id[:-1] if card.deck == 0 else card.id} is not a card of this game")
            named.append(card)
            counts[order.index[card.rank]] += 1
            continue
        for i, c in enumerate(order.parse_counts(tok)):
            counts[i] += c
    if len(set(named)) != len(named):
        raise ValueError("the same card is named twice")
    if hand is not None:
        missing = [c.face for c in named if not hand.holds_card(c)]
        if missing:
            raise ValueError(f"not in your hand: {' '.join(missing)}")
    return counts


def plays_view(play_log: list[tuple[int, object]], play_cards: list[list[Card]]) -> list[list]:
    """The ``plays`` entry of a climbing game's view: ``[seat, text]`` for a pass and
    ``[seat, text, card ids]`` for a play, whose ids are the physical cards taken from the hand
    (``play_cards`` holds them, one list per non-pass entry of ``play_log`` in order). Played
    cards are public: they were laid face up."""
    cards = iter(play_cards)
    out: list[list] = []
    for seat, action in play_log:
        text = str(action)
        if text == "pass":
            out.append([seat, text])
        else:
            out.append([seat, text, [c.id for c in next(cards, [])]])
    return out
