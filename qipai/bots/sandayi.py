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
from qipai.bots.ismcts import HalvingSearcher, halving_search, replay
from qipai.bots.mcts import Budget
from qipai.bots.search import register_searcher
from qipai.cards.sample import deal_unseen
from qipai.core.errors import IllegalAction
from qipai.games.sandayi.actions import Bury, trump
from qipai.games.sandayi.cards import DECK, SUITS, TRUMP, eff, points, pos, read_card
from qipai.games.sandayi.game import HAND, KITTY, OPENING_MINIMUMS, SEATS, trick_winner

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
            return rule_bid(hand, actions)
        if phase == "bury":
            return rule_bury(hand)
        if phase == "trump":
            return rule_trump(hand)
        trick = [(s, read_card(f)) for s, f in view["trick"]]
        return rule_play(actions, seat, trick, view["trump"], view["dealer"])


def want(hand: list) -> int:
    """The highest contract the rule bot bids with ``hand`` (0: none), by :func:`strength`."""
    s = strength(hand)
    return next((v for t, v in _WANT if s >= t), 0)


def rule_bid(hand: list, actions: list) -> Any:
    """The rule bot's bid among ``actions`` (the legal set): the highest bid up to
    :func:`want`, else the pass (the first action)."""
    w = want(hand)
    bids = [a for a in actions if getattr(a, "value", 0) and a.value <= w]
    return max(bids, key=lambda a: a.value) if bids else actions[0]


def _bury_order(hand: list, plan: str, key: Any = None) -> Bury:
    """Six cards of ``hand`` to bury with ``plan`` as trump: side cards by ``key`` (default
    the rule bot's: aces last, point cards first, low before high), then the lowest trumps."""
    key = key or (lambda c: (c.rank == "A", -points(c), pos(c, plan)))
    side = sorted((c for c in hand if eff(c, plan) != TRUMP), key=key)
    rest = sorted((c for c in hand if eff(c, plan) == TRUMP), key=lambda c: pos(c, plan))
    return Bury(tuple((side + rest)[:KITTY]))


def rule_bury(hand: list) -> Bury:
    """The rule bot's bury of the dealer's 18 cards: trump planned as :func:`best_suit`, the
    weakest side cards buried (aces last, point cards first, low before high)."""
    return _bury_order(hand, best_suit(hand))


def rule_trump(hand: list) -> Any:
    """The rule bot's trump: :func:`best_suit` of the 12 cards kept."""
    return trump(best_suit(hand))


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


#: the pre-play decisions searched (bid, bury, trump), see :class:`SandayiSearcher`
BEFORE_PLAY = ("bid", "bury", "trump")


def bid_low(bids: list, values: list[int], minimums: bool, n: int) -> int:
    """The lowest bid legal for the ``n``-th answer after the answers ``bids[:n]`` (texts),
    §2.4: above the highest so far, and 65 / 70 for the 3rd / 4th answer after passes only."""
    high = max((int(t.split()[1]) for _, t in bids[:n] if t != "pass"), default=0)
    low = high + 1
    if minimums and not high and n in OPENING_MINIMUMS:
        low = max(low, OPENING_MINIMUMS[n])
    return low


def rule_bid_text(hand: list, values: list[int], low: int) -> str:
    """:func:`rule_bid`'s text with the bid values ``values``, ``low`` the lowest legal."""
    w = want(hand)
    ok = [v for v in values if low <= v <= w]
    return f"bid {max(ok)}" if ok else "pass"


def determinize_deal(game: Any, view: dict, rng: random.Random, tries: int = 300) -> Any:
    """A full 三打一 hand agreeing with ``view`` of a seat before the play (bidding, burying or
    naming trump): its own cards (the dealer's with the kitty it took, and the cards it buried),
    the kitty where the seat saw it, the bids. The other hands (and the kitty unseen) are dealt
    at random, redrawn up to ``tries`` times until the rule bot would have answered every bid
    of the other seats as they did (:func:`rule_bid`: a pass says its hand is weak, a bid how
    strong); the draw that disagrees with the fewest answers is kept when none agrees. A
    dealer seen by another seat to have buried buries as the rule bot does."""
    return deal_sample(game, view, rng, tries)[0]


def deal_sample(game: Any, view: dict, rng: random.Random, tries: int) -> tuple[Any, bool]:
    """:func:`determinize_deal`'s state, and whether a draw agreed with every bid of the other
    seats (False: the closest of the ``tries`` draws was kept)."""
    me, phase, dealer = view["seat"], view["phase"], view["dealer"]
    hand = list(view["hand"])
    kitty = list(view["kitty"]) if view["kitty"] is not None else None
    buried = list(view["buried"] or ())
    mine = hand
    if kitty is not None and me == dealer:
        mine = [f for f in hand + buried if f not in kitty]
    seen = set(mine) | set(kitty or ())
    unseen = [c for c in DECK if c.face not in seen]
    bids = [(s, t) for s, t in view["bids"]]
    opts = game.options
    checks = [(s, t, bid_low(bids, opts["bids"], opts["opening_minimums"], n))
              for n, (s, t) in enumerate(bids) if s != me]
    others = [s for s in range(SEATS) if s != me]
    best: tuple[int, dict] | None = None
    for _ in range(max(1, tries)):
        rng.shuffle(unseen)
        hands = {s: unseen[i * HAND:(i + 1) * HAND] for i, s in enumerate(others)}
        wrong = sum(rule_bid_text(hands[s], opts["bids"], low) != t for s, t, low in checks)
        if best is None or wrong < best[0]:
            best = (wrong, {**hands, "kitty": unseen[3 * HAND:]})
        if not wrong:
            break
    assert best is not None
    agreed = not best[0]
    faces = {p: [c.face for c in cards] for p, cards in best[1].items()}
    deal: dict[str, Any] = {"hands": [mine if s == me else faces[s] for s in range(SEATS)],
                            "kitty": kitty or faces["kitty"], "first_bidder": view["first_bidder"]}
    if view["redeals"]:
        voided = [_random_deal(rng) for _ in range(view["redeals"])]
        deal = {**voided[0], "first_bidder": view["first_bidder"],
                "redeals": voided[1:] + [{k: deal[k] for k in ("hands", "kitty")}]}
    state = game.new_state(deal=deal)
    while state.redeals < view["redeals"]:
        state.apply("pass")
    for s, text in bids:
        state.apply(text, s)
    if phase == "trump":
        state.apply(Bury(tuple(read_card(f) for f in buried)) if me == dealer
                    else rule_bury(state.hands[dealer]), dealer)
    return state, agreed


class PlannedBury:
    """A bury candidate: the six cards and the trump the dealer means to name after it (a
    playout names it at once). Its text is the bury's with the plan; :meth:`SandayiSearcher.search`
    answers the bury's."""

    __slots__ = ("bury", "plan", "text")

    def __init__(self, bury: Bury, plan: str) -> None:
        self.bury, self.plan = bury, plan
        self.text = f"{bury.text} + trump {plan}"

    def __str__(self) -> str:
        return self.text


def bury_candidates(hand: list, plans: int = 3) -> list[PlannedBury]:
    """The buries a search considers for the dealer's 18 cards ``hand``, each with the trump
    it plans: the rule bot's first (its bury, then its trump of the 12 cards kept); then, for
    each of the ``plans`` suits held most (that have at most two cards fewer than the longest),
    the rule bot's order, the lowest side cards whatever their points, the lowest cards without
    points first, and each side suit short enough to be buried whole (a void), alone or with
    another, the rest in the rule bot's order."""
    first = rule_bury(hand)
    kept = [c for c in hand if c not in first.cards]
    out = [PlannedBury(first, best_suit(kept))]
    seen = {out[0].text}
    ranked = sorted(SUITS, key=lambda s: _suit_score(hand, s), reverse=True)
    top = _suit_score(hand, ranked[0])[0]
    for plan in [s for s in ranked if _suit_score(hand, s)[0] >= top - 2][:plans]:
        def rule(c, plan=plan):
            return (c.rank == "A", -points(c), pos(c, plan))
        keys = [rule, lambda c, plan=plan: (c.rank == "A", pos(c, plan)),
                lambda c, plan=plan: (c.rank == "A", points(c) > 0, pos(c, plan))]
        length = {s: sum(1 for c in hand if eff(c, plan) == s) for s in SUITS if s != plan}
        short = sorted((s for s, n in length.items() if 0 < n <= KITTY), key=lambda s: length[s])
        voids = [{s} for s in short] + [{a, b} for i, a in enumerate(short) for b in short[i + 1:]
                                        if length[a] + length[b] <= KITTY]
        keys += [lambda c, v=v, rule=rule: (c.suit not in v,) + rule(c) for v in voids]
        for key in keys:
            cand = PlannedBury(_bury_order(hand, plan, key), plan)
            if cand.text not in seen:
                seen.add(cand.text)
                out.append(cand)
    return out


class SandayiSearcher(HalvingSearcher):
    """Every decision is searched by sequential halving with common samples
    (:class:`~qipai.bots.ismcts.HalvingSearcher`): every candidate still in the race is played
    out from the same fresh samples and the better half goes on; the rule bot's choice is the
    first candidate, races to the end, and is left only for a candidate better on the same
    samples by the phase's margin (:attr:`margins`) standard errors of the paired differences.
    A playout is the rule bot in every seat to the end of the hand (bids, bury and trump
    included: :func:`rule_bid`, :func:`rule_bury`, :func:`rule_trump`, :func:`rule_play` read
    from the state), no random play.

    * The play: every legal card; samples by :func:`determinize`.
    * The bid: every legal answer (the pass and each bid value allowed); the bury: the
      kitties of :func:`bury_candidates`, each with its planned trump named at once in the
      playout; the trump: each suit. Samples by :func:`determinize_deal` (the other hands
      agreeing with the bids seen, as the rule bot bids). These decisions get
      :attr:`before_play` times the playouts of a card (there are three of them a hand against
      twelve cards), within the same time limit.

    Why: docs/bots.md, "Sandayi level 3 by halving, 2026-12-07" and "Sandayi's bid, bury and
    trump searched, 2026-12-08"."""

    #: the margin (one-sided z) by which a candidate must beat the rule bot's, by phase
    margins = {"bid": 1.5, "bury": 1.5, "trump": 1.5, "play": 1.0}
    #: the playouts of a bid, bury or trump decision, as a multiple of the level's
    before_play = 3

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._phase = "play"

    #: draws a sample before the play tries for the other seats' bids; after one sample of a
    #: decision in which none agreed (seats that bid as the rule bot never would: a person),
    #: only :attr:`few_tries`, so such a view costs about what an ordinary one does
    tries, few_tries = 300, 8

    def root_states(self, game: Any, inputs: dict[str, Any]) -> Any:
        self._phase = inputs["view"]["phase"]
        self._tries = self.tries
        return super().root_states(game, inputs)

    def determinize(self, game: Any, view: dict, rng: random.Random) -> Any:
        if view["phase"] in BEFORE_PLAY:
            state, agreed = deal_sample(game, view, rng, getattr(self, "_tries", self.tries))
            if not agreed:
                self._tries = self.few_tries
            return state
        return determinize(game, view, rng)

    def search(self, roots: Any, seat: int, budget: Any, rng: random.Random) -> Any:
        phase = self._phase
        if phase in BEFORE_PLAY:
            budget = Budget(budget.playouts * self.before_play, budget.ms)
        result = halving_search(self, roots, seat, budget, rng, self.margins.get(phase, self.margin))
        if phase == "bury":
            result.action = result.action.split(" + ")[0]
        return result

    def resolver(self, state: Any, seat: int) -> Any:
        """At the bury the legal set is every six of the dealer's 18 cards (18,564, never
        listed): a bury of six different cards of its hand is legal."""
        if state.phase != "bury":
            return super().resolver(state, seat)
        hand = set(state.hands[seat])

        def bury(text: str) -> Bury | None:
            try:
                action = state.game.parse_action(text, state)
            except IllegalAction:
                return None
            if not isinstance(action, Bury) or len(set(action.cards)) != KITTY \
                    or not set(action.cards) <= hand:
                return None
            return action
        return bury

    def candidates(self, state: Any, seat: int) -> list[Any]:
        """The rule bot's choice first; then every other legal answer (a bid, a trump, a
        card), or as the dealer's bury :func:`bury_candidates`."""
        if state.phase == "bury":
            return bury_candidates(state.hands[seat])
        return super().candidates(state, seat)

    def apply(self, state: Any, action: Any, seat: int) -> None:
        if isinstance(action, PlannedBury):
            state.apply(action.bury, seat)
            state.apply(trump(action.plan), seat)
        else:
            state.apply(action, seat)

    def rule_play(self, state: Any, seat: int, actions: Any) -> Any:
        """The rule bot's choice read from the state (the same as from the view)."""
        phase = state.phase
        if phase == "play":
            return rule_play(actions, seat, state.trick, state.trump, state.dealer)
        hand = state.hands[seat]
        if phase == "bid":
            return rule_bid(hand, actions)
        if phase == "bury":
            return rule_bury(hand)
        return rule_trump(hand)


#: every decision is searched, see :class:`SandayiSearcher`
SEARCHER = SandayiSearcher("sandayi", SandayiRuleBot, phases=(*BEFORE_PLAY, "play"),
                           own_hand=lambda state, seat: [c.face for c in state.hands[seat]])
register_searcher(SEARCHER, SandayiRuleBot)
