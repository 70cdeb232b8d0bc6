"""Reading a play of a climbing game (挖坑, 4A4, ...) written as rank strings, card codes, or
both (rule files §6): ``456``, ``KK``, ``333444+56``, ``5H 5S``, ``4S 4H A``, ``LB``. The play
is a rank multiset, so what is read is its rank counts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from qipai.core.errors import Message
from qipai.core.viewdelta import ViewDelta, continues, growing_delta

from .card import Card, is_card_code, parse_card, table_ids, table_seen
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
                name = card.id[:-1] if card.deck == 0 else card.id
                raise ValueError(Message(f"{name} is not a card of this game", code="card.not_in_game",
                                         params={"card": name}))
            named.append(card)
            counts[order.index[card.rank]] += 1
            continue
        for i, c in enumerate(order.parse_counts(tok)):
            counts[i] += c
    if len(set(named)) != len(named):
        raise ValueError(Message("the same card is named twice", code="card.named_twice"))
    if hand is not None:
        missing = [c.face for c in named if not hand.holds_card(c)]
        if missing:
            raise ValueError(Message(f"not in your hand: {' '.join(missing)}", code="card.not_in_hand",
                                     params={"cards": ' '.join(missing)}))
    return counts


def plays_view(play_log: Sequence[tuple[int, object]], play_cards: Sequence[list[Card]],
               before: Sequence[list[Card]] = (), seen: dict[str, int] | None = None) -> list[list]:
    """The ``plays`` entry of a climbing game's view: ``[seat, text]`` for a pass and
    ``[seat, text, card ids]`` for a play (``play_cards`` holds its cards, one list per non-pass
    entry of ``play_log`` in order; ``before``, the cards of the deal's plays before them).

    A play is public, but which physical cards the referee took is not: they depend on the
    hand (the lowest card ids of each rank), so every seat and spectator is shown the table's
    labels (:func:`~qipai.cards.card.table_ids`: the ``k``-th card of a rank laid in the deal
    is shown with the ``k``-th suit of ``S H D C``), which depend only on the ranks played.
    ``seen`` (optional) stands for :func:`~qipai.cards.card.table_seen` of ``before`` (and is
    updated with the cards of these plays)."""
    if seen is None:
        seen = table_seen(before)
    cards = iter(play_cards)
    out: list[list] = []
    for seat, action in play_log:
        text = str(action)
        if text == "pass":
            out.append([seat, text])
        else:
            out.append([seat, text, table_ids(next(cards, []), seen)])
    return out


def bids_view(bid_log: Sequence[tuple[int, object]]) -> list[list]:
    """The ``bids`` entry of a climbing game's view: ``[seat, text]`` per bid or pass."""
    return [[s, str(a)] for s, a in bid_log]


def plays_delta(state: Any, seat: int | None, since: Any, deal_key: Any,
                build: Callable[[int | None, list | None, list | None], dict[str, Any]],
                play_log: list, play_cards: list, bid_log: list | None = None,
                kept: tuple[Any, Callable[[], dict[str, Any]]] | None = None) -> ViewDelta:
    """``view_delta`` (:mod:`qipai.core.viewdelta`) of a climbing game whose view is
    ``build(seat, bids, plays)``, with ``plays`` (:func:`plays_view` of ``play_log`` and
    ``play_cards``) and, when ``bid_log`` is given, ``bids`` (:func:`bids_view`) growing
    through the deal named ``deal_key`` (a value that changes when a new deal starts the lists
    again). ``build`` raises for a seat the game does not have. ``kept`` is as for
    :func:`~qipai.core.viewdelta.growing_delta` (``build`` then leaves its keys out when
    called with ``None`` lists)."""
    mark = (deal_key, len(play_log), len(play_cards), len(bid_log) if bid_log is not None else 0)

    def fixed() -> dict[str, Any]:
        out = build(seat, None, None)
        del out["plays"]
        if bid_log is not None:
            del out["bids"]
        return out

    def tails(s: tuple) -> dict[str, list]:
        out = {"plays": plays_view(play_log[s[1]:], play_cards[s[2]:], play_cards[:s[2]])}
        if bid_log is not None:
            out["bids"] = bids_view(bid_log[s[3]:])
        return out

    return growing_delta(state, seat, since, mark, fixed, tails, kept)


class ClimbSeen(NamedTuple):
    """What ``view(seat)`` of a climbing game shows that the research tensor reads, without
    building the view (``State.seen_climb(seat, since)``):

    * ``keys``: the view's small keys the tensor reads, each with the view's value (the phase,
      the roles, the counts, the play to beat, the bids, the public cards, ...); ``hand_ranks``
      stands for the seat's hand (``hand`` is left out);
    * ``plays``: the view's ``plays`` entries past ``since`` (all of them when ``whole``);
    * ``mark``: for the next call (``since``); ``whole``: ``since`` did not continue to it (a
      new deal, another state's mark, ``None``)."""

    keys: dict[str, Any]
    plays: list[list]
    mark: tuple
    whole: bool


def log_seen(keys: dict[str, Any], since: Any, mark: tuple, play_log: Sequence[Any],
             play_cards: Sequence[Any]) -> ClimbSeen:
    """A :class:`ClimbSeen` of ``keys`` for a game whose ``plays`` are :func:`plays_view` of
    ``play_log`` and ``play_cards``, marked ``mark`` = ``(deal key, len(play_log),
    len(play_cards))``: the entries past ``since``'s lengths when ``since`` continues to it
    (:func:`~qipai.core.viewdelta.continues`), else all of them (``whole``). The mark given
    back ends with the table's counts of the ranks laid (:func:`~qipai.cards.card.table_seen`
    of the plays so far), so the next call labels its new cards without counting the deal's
    earlier plays again."""
    if type(since) is tuple and len(since) == 4 and continues(since[:3], mark):
        seen = dict(since[3])
        plays = plays_view(play_log[since[1]:], play_cards[since[2]:], seen=seen)
        return ClimbSeen(keys, plays, (*mark, seen), False)
    seen = {}
    return ClimbSeen(keys, plays_view(play_log, play_cards, seen=seen), (*mark, seen), True)
