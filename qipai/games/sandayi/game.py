"""三打一 (sandayi, "three against one"): deal, single-round bidding, kitty exchange, naming
trump, twelve single-card tricks and the payout, as ``rules/sandayi.md``.

One :class:`SandayiState` is one counted hand, including the redeals after an all-pass bidding
(§2.4: redealt deals do not count as hands). Phases: ``bid``, ``bury``, ``trump``, ``play``,
``over``. Seats 0..3 play in order s -> s+1.

A hand starts from a ``seed`` (shuffled with :class:`~qipai.core.rng.DealRng`; redeals continue
the same stream) and an optional ``deal={"first_bidder": F}`` for hands after the first (§2.3:
the previous dealer bids first; ``Result.details["next_first_bidder"]`` gives it), or from an
explicit deal (:func:`check_deal`). Actions are in :mod:`.actions`; a match of ``hands`` hands is
scored by :mod:`.match`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from qipai.cards import Card, deal_round_robin, shuffled
from qipai.cards.scoretext import read_signed, signed_text
from qipai.cards.submultisets import SubMultisets
from qipai.cards.trickseen import TrickSeen
from qipai.core.errors import IllegalAction, NotationError, OptionError, why, why_cause, why_inner
from qipai.core.game import Game, Result, State
from qipai.core.options import Option
from qipai.core.registry import register
from qipai.core.rng import DealRng, commitment, new_seed
from qipai.core.viewdelta import continues

from . import actions as A
from .actions import PASS, Bid, Bury, NameTrump, Play
from .cards import (
    DECK,
    DECK_IDS,
    SUITS,
    TOTAL_POINTS,
    TRUMP,
    default_key,
    eff,
    pos,
    read_card,
    sort_cards,
    total_points,
)
from .scoring import Payout, base, need, settle

SEATS = 4
HAND = 12
KITTY = 6
TRICKS = 12
DEFAULT_BIDS = (60, 65, 70, 75, 80)
#: §2.3: hand 1's first bidder holds 3D, else 4D, ..., AD, 2D
FIRST_BIDDER_CARDS = tuple(read_card(r + "D") for r in "3456789TJQKA2")
#: §2.4 rule 2 (opening_minimums): the 3rd and 4th answers after passes only
OPENING_MINIMUMS = {2: 65, 3: 70}
#: §5: the default trump is the suit held most; ties go to the first of D, C, H, S
TRUMP_TIE_ORDER = ("D", "C", "H", "S")


class BidsOption(Option):
    """The ``bids`` option: an increasing list of multiples of 5 (a list, a tuple, or a text
    such as ``"60,65,70"``). Normalised to a list of ints; raises :class:`OptionError`."""

    def check(self, value: Any, game_id: str = "") -> Any:
        if isinstance(value, str):
            value = [v for v in re.split(r"[,\s]+", value.strip()) if v]
            if not all(v.isascii() and v.isdecimal() and len(v) < 10 for v in value):
                raise OptionError(f"option 'bids': write numbers such as 60,65,70, got {value!r}",
                                  code="option.bad_list", params={"label": "sandayi.bids"})
            value = [int(v) for v in value]
        if not isinstance(value, list | tuple) or not value or \
                not all(type(v) is int for v in value):
            raise OptionError(f"option 'bids': expected a non-empty list of integers, got {value!r}",
                              code="option.bad_list", params={"label": "sandayi.bids"})
        if any(v <= 0 or v % 5 for v in value) or any(b <= a for a, b in zip(value, value[1:])):
            raise OptionError(f"option 'bids': values must be positive multiples of 5 in increasing "
                              f"order, got {list(value)}",
                              code="option.bad_list", params={"label": "sandayi.bids"})
        if value[-1] > TOTAL_POINTS:
            raise OptionError(f"option 'bids': a contract cannot exceed {TOTAL_POINTS}, got {value[-1]}",
                              code="option.bad_list", params={"label": "sandayi.bids"})
        return list(value)


class ExposeOption(Option):
    """The ``expose_kitty_max`` option: a contract value (int) or ``none`` (never shown)."""

    def check(self, value: Any, game_id: str = "") -> Any:
        if value is None or (isinstance(value, str) and value.strip().lower() == "none"):
            return "none"
        text = value.strip() if isinstance(value, str) else ""
        if text.isascii() and text.isdecimal() and len(text) < 10:
            value = int(value)
        if type(value) is not int or value < 0:
            raise OptionError(f"option 'expose_kitty_max': a contract value or 'none', got {value!r}",
                              code="option.bad_value",
                              params={"label": "sandayi.expose_kitty_max", "value": value})
        return value


@register
class Sandayi(Game):
    """三打一 for four seats; options are the variants of ``rules/sandayi.md`` §1."""

    id = "sandayi"
    seats = (4,)
    hidden_information = True
    option_spec = (
        BidsOption("bids", DEFAULT_BIDS, kind=list,
                   doc="§2.4: the bid values, an increasing list of multiples of 5"),
        Option("opening_minimums", True, kind=bool,
               doc="§2.4 rule 2: after all earlier passes the 3rd bidder bids at least 65, the 4th 70"),
        Option("max_redeals", 3, kind=int, minimum=0,
               doc="§2.4 rule 4: consecutive all-pass redeals before F is made dealer at the lowest bid"),
        ExposeOption("expose_kitty_max", 65, kind=int,
                     doc="§2.5: the kitty is shown to all when the contract is at most this; 'none' = never"),
        Option("payout", "standard", choices=("standard", "simple"), doc="§4.3: payout table"),
        Option("kitty_dig", True, kind=bool,
               doc="§4.3: a defender winning the last trick digs the kitty (standard payout only)"),
        Option("hands", 20, kind=int, minimum=1, doc="§5: hands in a match (used by .match)"),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.options["bids"] = list(self.options["bids"])     # the default is a (hashable) tuple

    def new_state(self, *, seed: int | str | None = None, deal: Any = None,
                  position: str | None = None, num_seats: int | None = None) -> SandayiState:
        """One hand from ``seed`` (with ``deal={"first_bidder": F}`` for a hand after the first),
        or from an explicit ``deal`` (:func:`check_deal`). Raises :class:`NotationError` for a bad
        deal, a position, or a seat count other than 4."""
        if position is not None:
            raise NotationError("sandayi has no position notation; give a seed or a deal", "position",
                                code="notation.no_position")
        if num_seats not in (None, SEATS):
            raise NotationError("sandayi is played by exactly 4 seats", "num_seats",
                                code="game.seats", params={"seats": 4})
        if seed is None and not (isinstance(deal, dict) and "hands" in deal):
            seed = new_seed()
        return SandayiState(self, seed=seed, deal=deal)

    def parse_action(self, text: str, state: State | None = None) -> Any:
        """Read an action (see :mod:`qipai.games.sandayi.actions`). Raises IllegalAction."""
        return A.parse(text, getattr(state, "phase", None))


def draw_deal(rng: DealRng, start: int) -> dict[str, list[str]]:
    """§2.2: shuffle the 54 cards with ``rng`` and deal them one at a time in playing order from
    seat ``start`` until each seat has 12; the last 6 are the kitty."""
    cards = shuffled(DECK, rng)
    d = deal_round_robin(cards, SEATS, HAND, KITTY)
    hands: list[list[str]] = [[] for _ in range(SEATS)]
    for j, h in enumerate(d.hands):
        hands[(start + j) % SEATS] = [c.id for c in h]
    return {"hands": hands, "kitty": [c.id for c in d.kitty]}


def check_one_deal(data: Any) -> tuple[list[list[Card]], list[Card]]:
    """Validate ``{"hands": 4 lists of 12 card ids, "kitty": 6 card ids}`` holding the 54 cards
    once each; returns ``(hands, kitty)``. Raises :class:`NotationError`."""
    if not isinstance(data, dict) or not isinstance(data.get("hands"), list) \
            or not isinstance(data.get("kitty"), list):
        raise NotationError("a deal is an object with 'hands' (4 lists of 12 cards) and 'kitty' "
                            "(6 cards)", "deal",
                            code="notation.deal_shape")
    try:
        hands = [[read_card(c) for c in h] for h in data["hands"]]
        kitty = [read_card(c) for c in data["kitty"]]
    except (ValueError, TypeError, AttributeError) as e:
        raise NotationError(str(e), "deal",
                            code="notation.deal_unreadable", params=why_cause(e, "unreadable")) from None
    if len(hands) != SEATS or any(len(h) != HAND for h in hands) or len(kitty) != KITTY:
        raise NotationError("a deal has 4 hands of 12 cards and a kitty of 6", "deal",
                            code="notation.deal_cards")
    ids = [c.id for h in hands for c in h] + [c.id for c in kitty]
    if len(set(ids)) != len(ids) or set(ids) != DECK_IDS:
        raise NotationError("the deal must hold the 54 cards of one pack once each", "deal",
                            code="notation.deal_cards")
    return hands, kitty


def check_deal(deal: Any, seeded: bool) -> tuple[int | None, list[dict[str, Any]]]:
    """Validate a ``deal`` argument; returns ``(first_bidder or None, explicit deals)``.

    With a seed, ``deal`` is ``None`` or ``{"first_bidder": F}``. Without, it is ``{"hands":
    [...], "kitty": [...], "first_bidder": F (optional), "redeals": [more deals]}``: the deal,
    then the deals used, in order, after all-pass biddings (further redeals are shuffled from a
    stream seeded by the deal itself). Raises :class:`NotationError`."""
    if deal is None:
        return None, []
    if not isinstance(deal, dict):
        raise NotationError("a deal is an object (hands, kitty, first_bidder, redeals)", "deal",
                            code="notation.deal_shape")
    unknown = set(deal) - {"hands", "kitty", "first_bidder", "redeals"}
    if unknown:
        raise NotationError(f"unknown deal key {sorted(unknown)[0]!r} (valid: hands, kitty, "
                            "first_bidder, redeals)", "deal",
                            code="notation.deal_shape")
    fb = deal.get("first_bidder")
    if fb is not None and (type(fb) is not int or not 0 <= fb < SEATS):
        raise NotationError(f"'first_bidder' is a seat 0..3, not {fb!r}", "deal.first_bidder",
                            code="notation.deal_seat", params={"key": "first_bidder", "max": 3})
    explicit = "hands" in deal or "kitty" in deal
    if explicit and seeded:
        raise NotationError("give a seed or the cards of a deal, not both", "deal",
                            code="notation.seed_and_deal")
    if not explicit:
        if "redeals" in deal:
            raise NotationError("'redeals' needs explicit 'hands' and 'kitty'", "deal",
                                code="notation.deal_shape")
        return fb, []
    redeals = deal.get("redeals", [])
    if not isinstance(redeals, list):
        raise NotationError("'redeals' is a list of deals", "deal",
                            code="notation.deal_shape")
    given = [{"hands": deal.get("hands"), "kitty": deal.get("kitty")}, *redeals]
    for i, d in enumerate(given):
        try:
            check_one_deal(d)
        except NotationError as e:
            raise NotationError(f"deal {i + 1}: {str(e).removeprefix('deal: ')}", "deal",
                                code="notation.deal_number",
                                params=why_inner(e, "unreadable", deal=i + 1)) from None
    return fb, given


def first_bidder_of(hands: list[list[Card]]) -> int:
    """§2.3 hand 1: the holder of 3D, else 4D, ..., AD, 2D (the first of these some seat holds)."""
    for card in FIRST_BIDDER_CARDS:
        for s, h in enumerate(hands):
            if card in h:
                return s
    raise NotationError("the kitty cannot hold all thirteen diamonds", "deal",
                        code="notation.deal_cards")   # unreachable


class SandayiState(State):
    """One hand of 三打一. Read-only attributes:

    ``phase``; ``turn``; ``first_bidder`` (F); ``hand_one`` (F was found by §2.3's 3D rule);
    ``deals`` (every deal dealt so far, ``{"hands", "kitty"}`` of card ids; the last is in play);
    ``redeals`` (all-pass deals so far); ``bids`` (``(seat, action)`` of the current deal);
    ``forced`` (F made dealer after ``max_redeals`` redeals); ``dealer``, ``contract``;
    ``kitty`` (the 6 dealt kitty cards); ``exposed`` (shown to all, §2.5); ``buried``; ``trump``;
    ``trick`` (``(seat, card)`` of the trick in progress); ``tricks`` (``(leader, plays,
    winner)`` of completed tricks); ``defender_points`` (D, running).
    """

    def __init__(self, game: Sandayi, *, seed: Any = None, deal: Any = None) -> None:
        super().__init__(game, seed=seed, deal=deal, num_seats=SEATS)
        self.opts = game.options
        fb, given = check_deal(deal, seed is not None)
        self._given = given
        if given:
            self._rng = DealRng("redeal:" + commitment(json.dumps(deal, sort_keys=True)))
        else:
            self._rng = DealRng(seed)
        self.hand_one = fb is None
        self.first_bidder = fb if fb is not None else 0
        # §2.2: the deal starts at seat0 in hand 1, else at the first bidder
        self._start = 0 if fb is None else fb
        self.deals: list[dict[str, list[str]]] = []
        self.redeals = 0
        self.forced = False
        self.result = None
        self._new_deal()
        if self.hand_one:
            self.first_bidder = first_bidder_of(self.hands)
            self.turn = self.first_bidder

    # ----- deal and bidding ---------------------------------------------------------------
    def _new_deal(self) -> None:
        k = len(self.deals)
        data = self._given[k] if k < len(self._given) else draw_deal(self._rng, self._start)
        hands, kitty = check_one_deal(data)
        self.deals.append({"hands": [[c.id for c in h] for h in hands], "kitty": [c.id for c in kitty]})
        self.hands: list[list[Card]] = [sort_cards(h) for h in hands]
        self.kitty: list[Card] = sort_cards(kitty)
        self.phase = "bid"
        self.turn = self.first_bidder
        self.bids: list[tuple[int, Any]] = []
        self.high = 0
        self.high_seat: int | None = None
        self.dealer: int | None = None
        self.contract: int | None = None
        self.exposed = False
        self.buried: list[Card] = []
        self.trump: str | None = None
        self.trick: list[tuple[int, Card]] = []
        self.tricks: list[tuple[int, list[tuple[int, Card]], int]] = []
        self.defender_points = 0

    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.result is not None else (self.turn,)

    def bid_minimum(self) -> int:
        """The lowest value the bidder to act may bid: above the highest bid, and under
        ``opening_minimums`` 65 for the 3rd and 70 for the 4th answer after passes only."""
        low = self.high + 1
        n = len(self.bids)
        if self.opts["opening_minimums"] and self.high_seat is None and n in OPENING_MINIMUMS:
            low = max(low, OPENING_MINIMUMS[n])
        return low

    def clock_phase(self, seat: int) -> str | None:
        """The clock's phase name (competition.md §4.5 ``card_default``): ``bid``, ``bury``,
        ``declare`` (naming trump), ``first_lead`` (the hand's first lead), else ``None``."""
        if self.phase == "bid":
            return "bid"
        if self.phase == "bury":
            return "bury"
        if self.phase == "trump":
            return "declare"
        if self.phase == "play" and not self.tricks and not self.trick:
            return "first_lead"
        return None

    # ----- legal actions ------------------------------------------------------------------
    def _legal_actions(self, seat: int) -> Any:
        if self.phase == "bid":
            low = self.bid_minimum()
            return [PASS] + [A.bid(v) for v in self.opts["bids"] if v >= low]
        if self.phase == "bury":
            cards = sort_cards(self.hands[seat])
            return SubMultisets([(c, 1) for c in cards], KITTY, wrap=Bury)
        if self.phase == "trump":
            return [A.trump(s) for s in SUITS]
        return [A.play(c) for c in self.legal_cards(seat)]

    def legal_cards(self, seat: int) -> list[Card]:
        """§3.3: any card on a lead; on a follow the cards of the led effective suit, or any card
        when void in it."""
        hand = self.hands[seat]
        if not self.trick:
            return list(hand)
        led = eff(self.trick[0][1], self.trump)
        same = [c for c in hand if eff(c, self.trump) == led]
        return same or list(hand)

    # ----- apply --------------------------------------------------------------------------
    def _apply(self, action: Any, seat: int) -> None:
        if self.phase == "bid":
            self._apply_bid(action, seat)
        elif self.phase == "bury":
            self._apply_bury(action, seat)
        elif self.phase == "trump":
            self._apply_trump(action, seat)
        else:
            self._apply_play(action, seat)

    def _apply_bid(self, action: Any, seat: int) -> None:
        if isinstance(action, Bid):
            bids = self.opts["bids"]
            if type(action.value) is not int or action.value not in bids:
                raise IllegalAction(f"{action.value} is not a bid value (bids: "
                                    f"{', '.join(map(str, bids))})", action,
                                    code="sandayi.not_bid_value_bids",
                                    params={"value": action.value, "bids": ', '.join(map(str, bids))})
            if action.value <= self.high:
                raise IllegalAction(f"a bid must be higher than the highest bid so far ({self.high})",
                                    action,
                                    code="sandayi.bid_must_higher_highest", params={"high": self.high})
            low = self.bid_minimum()
            if action.value < low:
                raise IllegalAction(f"after {len(self.bids)} passes the minimum bid is {low} "
                                    "(opening_minimums, §2.4)", action,
                                    code="sandayi.after_passes_minimum_bid",
                                    params={"n_bids": len(self.bids), "low": low})
        elif action is not PASS:
            raise IllegalAction("bidding is not over: 'pass' or 'bid N'", action,
                                code="sandayi.bidding_not_over_pass")
        self.bids.append((seat, action))
        if isinstance(action, Bid):
            self.high, self.high_seat = action.value, seat
        if len(self.bids) < SEATS:
            self.turn = (seat + 1) % SEATS
            return
        if self.high_seat is not None:
            self._establish(self.high_seat, self.high)
        elif self.redeals >= self.opts["max_redeals"]:
            self.forced = True
            self._establish(self.first_bidder, self.opts["bids"][0])
        else:
            self.redeals += 1
            self._new_deal()

    def _establish(self, dealer: int, contract: int) -> None:
        """§2.5: the dealer takes the kitty (shown to all for low contracts)."""
        self.dealer, self.contract = dealer, contract
        limit = self.opts["expose_kitty_max"]
        self.exposed = limit != "none" and contract <= limit
        self.hands[dealer] = sort_cards(self.hands[dealer] + self.kitty)
        self.phase = "bury"
        self.turn = dealer

    def _apply_bury(self, action: Any, seat: int) -> None:
        if not isinstance(action, Bury):
            raise IllegalAction("the declarer must bury six cards: 'bury C1 C2 C3 C4 C5 C6'", action,
                                code="sandayi.dealer_must_bury_six")
        if len(set(action.cards)) != KITTY:
            raise IllegalAction(f"bury exactly {KITTY} different cards, not {len(set(action.cards))} "
                                "(§2.5)", action,
                                code="sandayi.bury_exactly_different_cards",
                                params={"KITTY": KITTY, "n_cards": len(set(action.cards))})
        missing = [c.face for c in action.cards if c not in self.hands[seat]]
        if missing:
            raise IllegalAction(f"not in your hand: {' '.join(missing)}", action,
                                code="sandayi.not_hand", params={"missing": ' '.join(missing)})
        self.buried = list(action.cards)
        self.hands[seat] = [c for c in self.hands[seat] if c not in action.cards]
        self.phase = "trump"

    def _apply_trump(self, action: Any, seat: int) -> None:
        if not isinstance(action, NameTrump):
            raise IllegalAction("the declarer must name trump: 'trump S', 'trump H', 'trump D' or "
                                "'trump C'", action, code="sandayi.dealer_must_name_trump")
        if action.suit not in SUITS:
            raise IllegalAction(f"{action.suit!r} is not a suit: name S, H, D or C (§2.6)", action,
                                code="sandayi.not_suit_name_h", params={"suit": action.suit})
        self.trump = action.suit
        self.phase = "play"

    def _apply_play(self, action: Any, seat: int) -> None:
        if not isinstance(action, Play):
            raise IllegalAction("play one card by its face code, e.g. 'AS'", action,
                                code="sandayi.play_card_face_code")
        card = action.card
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalAction(f"{card.face} is not in your hand", action,
                                code="sandayi.not_hand_2", params={"face": card.face})
        if self.trick:
            led = self.trick[0][1]
            e = eff(led, self.trump)
            if eff(card, self.trump) != e and any(eff(c, self.trump) == e for c in hand):
                what = "trump" if e == TRUMP else f"the led suit {e}"
                raise IllegalAction(f"you must follow {what} (led {led.face}) while you hold one (§3.3)",
                                    action,
                                    code="sandayi.must_follow_led_while",
                                    params={"what": what, "face": led.face})
        hand.remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < SEATS:
            self.turn = (seat + 1) % SEATS
            return
        winner = trick_winner(self.trick, self.trump)
        plays = self.trick
        self.tricks.append((plays[0][0], plays, winner))
        if winner != self.dealer:
            self.defender_points += total_points(c for _, c in plays)
        self.trick = []
        self.turn = winner
        if len(self.tricks) == TRICKS:
            self._finish()

    # ----- end of hand --------------------------------------------------------------------
    def payout(self) -> Payout:
        """§4.3 settlement of the finished play (all 12 tricks)."""
        last = self.tricks[-1][2] != self.dealer
        return settle(self.contract, self.defender_points, last, self.opts["payout"],
                      self.opts["kitty_dig"])

    def _finish(self) -> None:
        p = self.payout()
        returns = tuple(p.dealer if s == self.dealer else p.defender for s in range(SEATS))
        winners = (self.dealer,) if p.made else self._defenders()
        self.phase = "over"
        self.result = Result(returns, p.outcome, signed_text(returns), winners,
                             self._details(payout=p))

    def _defenders(self) -> tuple[int, ...]:
        return tuple(s for s in range(SEATS) if s != self.dealer)

    def _details(self, payout: Payout | None = None, **extra: Any) -> dict[str, Any]:
        d: dict[str, Any] = {
            "dealer": self.dealer, "contract": self.contract, "trump": self.trump,
            "first_bidder": self.first_bidder,
            "next_first_bidder": self.first_bidder if self.dealer is None else self.dealer,
            "redeals": self.redeals, "forced": self.forced, "exposed": self.exposed,
            "bids": [[s, str(a)] for s, a in self.bids],
            "defender_points": self.defender_points,
            "dealer_points": TOTAL_POINTS - self.defender_points if payout is not None else None,
            "kitty_points": total_points(self.buried) if self.buried else None,
            "buried": [c.face for c in self.buried],
            "tricks": len(self.tricks),
            "last_trick_winner": self.tricks[-1][2] if len(self.tricks) == TRICKS else None,
        }
        if payout is not None:
            d.update(outcome=payout.outcome, made=payout.made, dig=payout.dig, base=payout.base,
                     need=payout.need)
        d.update(extra)
        return d

    # ----- defaults and external endings ---------------------------------------------------
    def default_action(self, seat: int) -> Any:
        """§5 timeouts: bid -> ``pass``; bury -> the six kitty cards back unchanged; trump -> the
        suit with most cards in hand (printed suit, 2s counted; ties D, C, H, S); lead -> the
        non-trump card with the lowest pos (ties D, C, H, S), else the lowest trump; follow ->
        the lowest legal card in that order. ``None`` when ``seat`` is not to act."""
        if self.result is not None or seat != self.turn:
            return None
        if self.phase == "bid":
            return PASS
        if self.phase == "bury":
            return Bury(tuple(self.kitty))
        if self.phase == "trump":
            counts = {s: sum(1 for c in self.hands[seat] if c.suit == s) for s in SUITS}
            best = max(counts.values())
            return A.trump(next(s for s in TRUMP_TIE_ORDER if counts[s] == best))
        return A.play(min(self.legal_cards(seat), key=lambda c: default_key(c, self.trump)))

    def stake(self) -> int:
        """The base b at stake: the contract's, else the highest bid so far (at least the lowest
        bid value)."""
        c = self.contract if self.contract is not None else max(self.high, self.opts["bids"][0])
        return base(c) if self.opts["payout"] == "standard" else 1

    def _loss_returns(self, seat: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        b = self.stake()
        if self.dealer is None or seat == self.dealer:
            returns = tuple(-3 * b if s == seat else b for s in range(SEATS))
            return returns, tuple(s for s in range(SEATS) if s != seat)
        returns = tuple(3 * b if s == self.dealer else -b for s in range(SEATS))
        return returns, (self.dealer,)

    def _loss_result(self, seat: int, reason: str) -> Result:
        """Decision (docs/games/sandayi.md): a seat that forfeits (resign, timeout loss, referee)
        loses the hand for its side as a plain made/set: the dealer (or, before a contract, the
        forfeiting seat alone) pays b to each other seat; a defender's forfeit makes each
        defender pay b to the dealer (b of the contract, or of the highest bid so far; 1 under
        ``simple``)."""
        returns, winners = self._loss_returns(seat)
        self.phase = "over"
        return Result(returns, reason, signed_text(returns), winners,
                      self._details(offender=seat, reason=reason, outcome="forfeit"))

    def _result_from_text(self, text: str, reason: str) -> Result:
        """A recorded external ending written as four signed scores (``"+3 -1 -1 -1"``, the form
        of ``Result.text``) summing to zero; a seat's forfeit when it matches exactly one. Raises
        :class:`IllegalAction`."""
        try:
            returns = read_signed(text, SEATS)
        except ValueError as e:
            raise IllegalAction(str(e), code="bad_result",
                                params={"text": text, **why(e, "unreadable")}) from None
        offenders = [s for s in range(SEATS) if self._loss_returns(s)[0] == returns]
        if len(offenders) == 1:
            return self._loss_result(offenders[0], reason)
        self.phase = "over"
        winners = tuple(s for s in range(SEATS) if returns[s] > 0)
        return Result(returns, reason, signed_text(returns), winners,
                      self._details(reason=reason, outcome="external"))

    def sides(self) -> list[tuple[int, ...]]:
        """The dealer alone against the three defenders once the contract is set; before that,
        every seat alone."""
        if self.dealer is None:
            return [(s,) for s in range(SEATS)]
        return [(self.dealer,), self._defenders()]

    # ----- views --------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None`` = spectator), §2.5 and §5: its own hand; every seat's
        card count; the bids; dealer, contract, trump; the dealt kitty when exposed (to all) or to
        the dealer; the buried cards to the dealer, and to all once the hand is over; the
        current trick, the last completed trick, every completed trick of the hand (``tricks``:
        ``[{"leader", "winner", "cards": [[seat, face]...]}]``, public: played face up), tricks
        won per seat and the running D. Never another seat's hand. Raises
        :class:`IllegalAction` for a seat other than 0..3 or None."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < SEATS):
            raise IllegalAction(f"no seat {seat!r} (seats are 0..3; None for a spectator)",
                                code="sandayi.no_seat_seats_none", params={"seat": seat})
        over = self.result is not None
        dealer_seat = seat is not None and seat == self.dealer
        kitty_seen = self.dealer is not None and (self.exposed or dealer_seat)
        last = self.tricks[-1] if self.tricks else None
        won = [0] * SEATS
        for _, _, w in self.tricks:
            won[w] += 1
        return {
            "game": "sandayi", "seat": seat, "phase": self.phase, "to_act": list(self.to_act),
            "hand": [c.face for c in self.hands[seat]] if seat is not None else None,
            "counts": [len(h) for h in self.hands],
            "first_bidder": self.first_bidder, "redeals": self.redeals,
            "bids": [[s, str(a)] for s, a in self.bids],
            "dealer": self.dealer, "contract": self.contract, "forced": self.forced,
            "exposed": self.exposed,
            "kitty": [c.face for c in self.kitty] if kitty_seen else None,
            "buried": [c.face for c in self.buried] if self.buried and (dealer_seat or over) else None,
            "trump": self.trump,
            "trick": [[s, c.face] for s, c in self.trick],
            "last_trick": None if last is None else {"leader": last[0], "winner": last[2],
                                                     "cards": [[s, c.face] for s, c in last[1]]},
            "tricks": [{"leader": t[0], "winner": t[2], "cards": [[s, c.face] for s, c in t[1]]}
                       for t in self.tricks],
            "tricks_won": won, "tricks_played": len(self.tricks),
            "defender_points": self.defender_points,
            "result": self.result.to_json() if over else None,
        }

    def seen_tricks(self, seat: int, since: Any = None) -> TrickSeen:
        """What ``view(seat)`` shows that the research tensor reads, without building the view
        (:class:`~qipai.cards.trickseen.TrickSeen`): the small keys (phase, counts, bids, trump,
        dealer, first bidder, contract, tricks played, D), the seat's hand when it changed
        otherwise than by the seat's own plays since ``since`` (a deal, the kitty taken up, the
        burial), its cards played since (``played``), the current trick, the last completed
        trick when it changed, and the kitty's and the buried cards' faces once the seat may
        see them (as :meth:`view`). A redeal starts again (``whole``)."""
        over = self.result is not None
        dealer_seat = seat == self.dealer
        kitty = self.kitty if self.dealer is not None and (self.exposed or dealer_seat) else ()
        buried = self.buried if dealer_seat or over else ()
        tricks, trick = self.tricks, self.trick
        # every trick holds one card of each seat: the seat's k-th card is in trick k
        mine = [c for s, c in trick if s == seat]
        own = len(tricks) + len(mine)
        # the hand changes by the deal, the kitty taken up, the burial and the seat's plays
        stage = 0 if self.dealer is None else 1 if not self.buried else 2
        mark = ((seat, len(self.deals)), len(kitty), len(buried), own, len(tricks), stage)
        keys = {"phase": self.phase, "counts": [len(h) for h in self.hands],
                "bids": [[s, str(a)] for s, a in self.bids], "trump": self.trump,
                "dealer": self.dealer, "first_bidder": self.first_bidder, "contract": self.contract,
                "tricks_played": len(tricks), "defender_points": self.defender_points}
        whole = not continues(since, mark)
        if whole:
            since = (None, 0, 0, 0, -1, -1)
        last = hand = played = None
        if since[4] != len(tricks):
            last = tuple((s, (c.face,)) for s, c in tricks[-1][1]) if tricks else ()
        if since[5] != stage:
            hand = {c.face: 1 for c in self.hands[seat]}
        else:
            played = [c.face for t in tricks[since[3]:] for s, c in t[1] if s == seat]
            if own > len(tricks) and since[3] <= len(tricks):
                played.append(mine[0].face)
        public = ([c.face for c in kitty[since[1]:]], [c.face for c in buried[since[2]:]])
        return TrickSeen(keys, hand, tuple((s, (c.face,)) for s, c in trick), last, public, mark,
                         whole, played)

    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds (canonical order)."""
        return list(self.hands[seat])

    def clone(self) -> SandayiState:
        new = object.__new__(SandayiState)
        new.__dict__.update(self.__dict__)
        new.hands = [list(h) for h in self.hands]
        new.log = list(self.log)
        new.bids = list(self.bids)
        new.deals = list(self.deals)
        new.trick = list(self.trick)
        new.tricks = list(self.tricks)
        new.buried = list(self.buried)
        new._rng = DealRng(self._rng.seed, self._rng.counter)
        return new


def trick_winner(trick: list[tuple[int, Card]], trump: str) -> int:
    """§3.4: the highest trump by ``pos`` (equal: the earliest), else the highest card of the led
    suit. ``trick`` is ``(seat, card)`` in playing order."""
    led = eff(trick[0][1], trump)
    best_seat, best_key = trick[0][0], (led == TRUMP, pos(trick[0][1], trump))
    for seat, card in trick[1:]:
        e = eff(card, trump)
        if e != TRUMP and e != led:
            continue
        key = (e == TRUMP, pos(card, trump))
        if key > best_key:
            best_seat, best_key = seat, key
    return best_seat


__all__ = ["DEFAULT_BIDS", "HAND", "KITTY", "SEATS", "TRICKS", "Sandayi", "SandayiState",
           "check_deal", "check_one_deal", "draw_deal", "first_bidder_of", "need",
           "trick_winner"]
