"""The 三打一 rule bot (``rule``). Reads only ``view(seat)`` and ``legal_actions(seat)``.

* Bidding: strength = the most cards it could hold as trumps (a suit + jokers + 2s) plus half a
  point per side ace and per joker; bids up to 60 from 7, 65 from 8, 70 from 9, 75 from 10 and
  80 from 11, the highest legal bid it wants, else passes.
* Burying (dealer): plans trump as its longest suit, then buries the weakest side cards: no
  trumps, aces last, point cards first (buried points count for the dealer, §4.1), low cards
  before high.
* Naming trump: the longest suit (ties: more high cards, then D, C, H, S).
* Play: when the trick is held by its side it gives its richest legal card; otherwise it plays
  the cheapest card that takes the trick, or the cheapest card when none does. Leading, it
  cashes a side ace, else leads its lowest side card, else its lowest trump.
"""

from __future__ import annotations

from typing import Any

from qipai.bots import register_bot
from qipai.games.sandayi.actions import Bury, trump
from qipai.games.sandayi.cards import SUITS, TRUMP, eff, points, pos, read_card
from qipai.games.sandayi.game import KITTY, trick_winner

_WANT = ((11, 80), (10, 75), (9, 70), (8, 65), (7, 60))


def _suit_score(cards: list, suit: str) -> tuple[int, int]:
    mine = [c for c in cards if c.suit == suit and c.rank != "2"]
    return (len(mine), sum(pos(c, suit) for c in mine))


def best_suit(cards: list) -> str:
    """The suit with most cards (2s aside), ties by higher cards, then D, C, H, S."""
    return max(("D", "C", "H", "S")[::-1], key=lambda s: _suit_score(cards, s))


def strength(cards: list) -> float:
    extra = sum(1 for c in cards if c.suit is None or c.rank == "2")
    trumps = max(_suit_score(cards, s)[0] for s in SUITS) + extra
    aces = sum(1 for c in cards if c.rank == "A")
    jokers = sum(1 for c in cards if c.suit is None)
    return trumps + 0.5 * aces + 0.5 * jokers


class SandayiRuleBot:
    """See the module docstring. Deterministic; the seed is kept for the bot API."""

    name = "rule"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, state: Any, seat: int) -> Any:
        actions = state.legal_actions(seat)
        if not len(actions):
            raise ValueError(f"seat {seat} has no legal action")
        view = state.view(seat)
        hand = [read_card(f) for f in view["hand"]]
        phase = view["phase"]
        if phase == "bid":
            s = strength(hand)
            want = next((v for t, v in _WANT if s >= t), 0)
            bids = [a for a in actions if getattr(a, "value", 0) and a.value <= want]
            return max(bids, key=lambda a: a.value) if bids else actions[0]
        if phase == "bury":
            plan = best_suit(hand)
            side = [c for c in hand if eff(c, plan) != TRUMP]
            side.sort(key=lambda c: (c.rank == "A", -points(c), pos(c, plan)))
            rest = sorted((c for c in hand if c not in side), key=lambda c: pos(c, plan))
            return Bury(tuple((side + rest)[:KITTY]))
        if phase == "trump":
            return trump(best_suit(hand))
        return self._play(view, seat, actions)

    def _play(self, view: dict, seat: int, actions: list) -> Any:
        t = view["trump"]
        cards = {a.card: a for a in actions}
        trick = [(s, read_card(f)) for s, f in view["trick"]]

        def cheap(c):
            return (eff(c, t) == TRUMP, points(c), pos(c, t))

        if not trick:
            aces = [c for c in cards if c.rank == "A" and eff(c, t) != TRUMP]
            if aces:
                return cards[aces[0]]
            return cards[min(cards, key=cheap)]
        dealer = view["dealer"]
        holder = trick_winner(trick, t)
        if (holder == dealer) == (seat == dealer):
            return cards[max(cards, key=lambda c: (points(c), -cheap(c)[0], -pos(c, t)))]
        winning = [c for c in cards if trick_winner(trick + [(seat, c)], t) == seat]
        if winning:
            return cards[min(winning, key=cheap)]
        return cards[min(cards, key=cheap)]


register_bot("sandayi", "rule", SandayiRuleBot)
