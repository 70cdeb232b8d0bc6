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

import random
from typing import Any

from qipai.bots import register_bot
from qipai.bots.ismcts import HalvingSearcher, replay
from qipai.bots.search import register_searcher
from qipai.cards.sample import deal_unseen
from qipai.games.sandayi.actions import Bury, trump
from qipai.games.sandayi.cards import DECK, SUITS, TRUMP, eff, points, pos, read_card
from qipai.games.sandayi.game import HAND, KITTY, SEATS, trick_winner

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
        trick = [(s, read_card(f)) for s, f in view["trick"]]
        return rule_play(actions, seat, trick, view["trump"], view["dealer"])


def rule_play(actions: list, seat: int, trick: list, t: str, dealer: int) -> Any:
    """The rule bot's play among ``actions`` (the legal set) for ``seat``, ``trick`` the
    current trick as ``(seat, card)`` pairs, ``t`` the trump suit: see the module docstring."""
    cards = {a.card: a for a in actions}

    def cheap(c):
        return (eff(c, t) == TRUMP, points(c), pos(c, t))

    if not trick:
        aces = [c for c in cards if c.rank == "A" and eff(c, t) != TRUMP]
        if aces:
            return cards[aces[0]]
        return cards[min(cards, key=cheap)]
    holder = trick_winner(trick, t)
    if (holder == dealer) == (seat == dealer):
        return cards[max(cards, key=lambda c: (points(c), -cheap(c)[0], -pos(c, t)))]
    winning = [c for c in cards if trick_winner(trick + [(seat, c)], t) == seat]
    if winning:
        return cards[min(winning, key=cheap)]
    return cards[min(cards, key=cheap)]


register_bot("sandayi", "rule", SandayiRuleBot)


# ----- search (levels 3-5) -------------------------------------------------------------------
BURIED = "buried"


def determinize(game: Any, view: dict, rng: random.Random) -> Any:
    """A full 三打一 hand agreeing with ``view`` (one seat's view during play): the seat's own
    hand, the bids, the kitty and the buried cards where the seat saw them, trump, every trick.
    The unseen cards are dealt at random (:func:`qipai.cards.sample.deal_unseen`) into the other
    hands by their counts (and the buried six when unseen), never giving a seat a card of a suit
    it showed void in (it did not follow that suit), and keeping an exposed kitty's cards with
    the dealer (in hand or buried). A kitty the seat did not see is six random cards of the
    dealer's. Deals voided by all-pass biddings before this one are random deals. Raises
    ``ValueError`` (or the game's errors) for a sample a replayed action refuses."""
    me, dealer, trump = view["seat"], view["dealer"], view["trump"]
    kitty, buried = view["kitty"], view["buried"]
    played: dict[int, list[str]] = {s: [] for s in range(SEATS)}
    voids: dict[Any, set[str]] = {s: set() for s in range(SEATS)}
    order: list[list] = []
    for cards in [t["cards"] for t in view["tricks"]] + [view["trick"]]:
        if not cards:
            continue
        lead = eff(read_card(cards[0][1]), trump)
        for s, face in cards:
            played[s].append(face)
            order.append([s, face])
            if eff(read_card(face), trump) != lead:
                voids[s].add(lead)
    counts: dict[Any, int] = {s: view["counts"][s] for s in range(SEATS) if s != me}
    if buried is None:
        counts[BURIED] = KITTY
    with_dealer = set(kitty or ()) - set(view["hand"])

    def allowed(place: Any, face: str) -> bool:
        if face in with_dealer and place not in (dealer, BURIED):
            return False
        return place == BURIED or eff(read_card(face), trump) not in voids[place]

    gone = [f for s in range(SEATS) for f in played[s]] + list(view["hand"]) + list(buried or ())
    now = deal_unseen([c.face for c in DECK], counts, {}, gone, rng, allowed)
    now[me] = list(view["hand"])
    buried = list(buried) if buried is not None else now[BURIED]
    pool = now[dealer] + played[dealer] + buried
    if kitty is None:
        kitty = rng.sample(pool, KITTY)
    hands = [now[s] + played[s] for s in range(SEATS)]
    hands[dealer] = [f for f in pool if f not in kitty]
    deal: dict[str, Any] = {"hands": hands, "kitty": kitty, "first_bidder": view["first_bidder"]}
    if view["redeals"]:
        voided = [_random_deal(rng) for _ in range(view["redeals"])]
        deal = {**voided[0], "first_bidder": view["first_bidder"],
                "redeals": voided[1:] + [{"hands": hands, "kitty": kitty}]}
    state = game.new_state(deal=deal)
    while state.redeals < view["redeals"]:
        state.apply("pass")
    for s, text in view["bids"]:
        state.apply(text, s)
    state.apply("bury " + " ".join(buried), dealer)
    state.apply(f"trump {trump}", dealer)
    return replay(state, order)


def _random_deal(rng: random.Random) -> dict[str, list[str]]:
    faces = [c.face for c in DECK]
    rng.shuffle(faces)
    return {"hands": [faces[i * HAND:(i + 1) * HAND] for i in range(SEATS)], "kitty": faces[SEATS * HAND:]}


class SandayiSearcher(HalvingSearcher):
    """The play is searched (bidding, burying and naming trump are the rule bot's) by
    sequential halving over the seat's legal cards with common samples
    (:class:`~qipai.bots.ismcts.HalvingSearcher`): every card still in the race is played out
    from the same fresh :func:`determinize` samples and the better half goes on; the rule bot's
    card is the first candidate, races to the end, and is left only for a card better on the
    same samples by :attr:`margin` standard errors of the paired differences. A playout is the
    rule bot in every seat to the end of the hand (:func:`rule_play` read from the state), no
    random play.

    Why: docs/bots.md, "Sandayi level 3 by halving, 2026-12-07"."""

    def rule_play(self, state: Any, seat: int, actions: list) -> Any:
        """:func:`rule_play` read from the state (bidding, burying, trump: ``None``, the rule
        bot's view)."""
        if state.phase != "play":
            return None
        return rule_play(actions, seat, state.trick, state.trump, state.dealer)


#: the play is searched (bidding, burying and naming trump are the rule bot's), see
#: :class:`SandayiSearcher`
SEARCHER = SandayiSearcher("sandayi", SandayiRuleBot, determinize, phases=("play",),
                           own_hand=lambda state, seat: [c.face for c in state.hands[seat]])
register_searcher(SEARCHER, SandayiRuleBot)
