"""The deal and the bidding of a 斗地主 deal (rules/doudizhu.md §2): the pack, dealing from a seed
or checking a given deal (and its redeals), the bid and call actions, the bidding of every
system, void deals and redeals, and fixing the landlord."""

from __future__ import annotations

from typing import Any

from qipai.cards import Card, make_deck, parse_card
from qipai.cards.tokens import Bid as BidToken
from qipai.core.errors import IllegalAction, NotationError, why_cause, why_inner
from qipai.core.game import Result, State
from qipai.core.rng import DealRng

try:
    from mypy_extensions import mypyc_attr
except ImportError:     # mypy is not installed (so nothing is compiled): the mark is not needed
    def mypyc_attr(*attrs: str, **kwattrs: object) -> Any:  # type: ignore[misc]
        return lambda cls: cls

from .combos import (
    NRANKS,
    ORDER,
    PACKER,
    PASS,
    Play,
)

SEATS = 3
HAND = 17
KITTY = 3
DECK = tuple(make_deck(1, jokers=True))
_BY_ID = {c.id: c for c in DECK}
# card-id order (ORDER.card_key) as one place per card, a key that sorts without a call per card
_PLACE = {c: i for i, c in enumerate(sorted(DECK, key=ORDER.card_key))}
_RANK = {c: ORDER.index[c.rank] for c in DECK}
_UNIT = PACKER.unit
_CODE = {c: _UNIT[_RANK[c]] for c in DECK}          # a card's rank as a packed count of one


# a Python class when this module is compiled (qipai.native): mypyc refuses a compiled class
# whose base has slots
@mypyc_attr(native_class=False)
class Bid(BidToken):
    """A points bid (``bid 1`` .. ``bid 3``; under ``auction_1_3`` as in OpenSpiel): the shared
    bid token, never a bomb, interned in :data:`BIDS`."""

    __slots__ = ()
    is_bomb = False

    def __repr__(self) -> str:
        return f"Bid({self.value})"

    def __reduce__(self):
        return (_bid, (self.value,))


class Call:
    """叫地主 (``call``) in the escalating ``call_1_4`` bidding."""

    __slots__ = ()
    type = "call"
    text = "call"
    is_bomb = False

    def __str__(self) -> str:
        return "call"

    def __repr__(self) -> str:
        return "CALL"

    def __reduce__(self):
        return "CALL"


BIDS = {v: Bid(v) for v in (1, 2, 3)}
CALL = Call()


def _is_bid(action: Any) -> bool:
    """A bid is a :class:`Bid` of the integer 1, 2 or 3 (§2.5); anything else is refused. (Its
    value is read as any object: compiled code would refuse a ``Bid("2")`` with a ``TypeError``
    where it must be an ``IllegalAction``.)"""
    v: Any = getattr(action, "value", None) if isinstance(action, Bid) else None
    return type(v) is int and 1 <= v <= 3


def _bid(v: int) -> Bid:
    return BIDS[v]


def _deal_json(hands: list[list[Card]], kitty: list[Card], first: int, face_up: Card | None) -> dict:
    out: dict[str, Any] = {"hands": [[c.id for c in h] for h in hands], "kitty": [c.id for c in kitty],
                           "first_bidder": first}
    if face_up is not None:
        out["face_up"] = face_up.id
    return out


def draw_deal(rng: DealRng, mode: str, prev_first: int | None) -> dict:
    """One deal from ``rng``: shuffle 54, deal round robin 17 each (card ``i`` to seat ``i mod 3``),
    3 kitty cards. ``shuffle``: first bidder by lot on the first deal, else the seat after
    ``prev_first``. ``cut_faceup``: a uniformly chosen hand card (by dealing position) is turned
    face up and its holder bids first."""
    return _drawn(rng, mode, prev_first)[0]


def _drawn(rng: DealRng, mode: str, prev_first: int | None):
    """:func:`draw_deal`'s deal object, and the deal as :func:`check_deal` returns it (a deal
    drawn here needs no checking)."""
    cards = rng.shuffle(list(DECK))
    hands = [cards[s:SEATS * HAND:SEATS] for s in range(SEATS)]
    kitty = cards[SEATS * HAND:]
    if mode == "cut_faceup":
        pos = rng.below(SEATS * HAND)
        first, face = pos % SEATS, cards[pos]
    else:
        first = rng.below(SEATS) if prev_first is None else (prev_first + 1) % SEATS
        face = None
    return _deal_json(hands, kitty, first, face), (hands, kitty, first, face)


def check_deal(data: Any, mode: str) -> tuple[list[list[Card]], list[Card], int, Card | None]:
    """Validate a deal object; returns ``(hands, kitty, first_bidder, face_up)``.
    Raises :class:`NotationError` naming the problem."""
    if not isinstance(data, dict) or not isinstance(data.get("hands"), list):
        raise NotationError("a deal is an object with 'hands' (3 lists of card ids) and 'kitty'", "deal",
                            code="notation.deal_shape")
    try:
        hands = [[_BY_ID.get(c) or parse_card(c) for c in h] for h in data["hands"]]
        kitty = [_BY_ID.get(c) or parse_card(c) for c in data.get("kitty", [])]
    except (ValueError, TypeError, AttributeError) as e:
        raise NotationError(str(e), "deal",
                            code="notation.deal_unreadable", params=why_cause(e, "unreadable")) from None
    if len(hands) != SEATS or any(len(h) != HAND for h in hands) or len(kitty) != KITTY:
        raise NotationError("a deal has 3 hands of 17 cards and 3 kitty cards", "deal",
                            code="notation.deal_cards")
    ids = [c.id for h in hands for c in h] + [c.id for c in kitty]
    if sorted(ids) != sorted(c.id for c in DECK):
        raise NotationError("the deal is not one 54-card pack with deck index 0", "deal",
                            code="notation.deal_cards")
    face = data.get("face_up")
    face_card = None
    first: Any          # read from the deal object: checked below, whatever it holds
    if face is not None:
        try:
            face_card = parse_card(face)
        except (ValueError, AttributeError):
            raise NotationError(f"bad face_up card {face!r}", "deal",
                                code="notation.deal_unreadable", params={"cause": "unreadable"}) from None
        holder = [s for s in range(SEATS) if face_card in hands[s]]
        if not holder:
            raise NotationError("the face-up card must be in a hand (D1)", "deal",
                                code="notation.deal_rule")
        first = holder[0]
    else:
        if mode == "cut_faceup":
            raise NotationError("this deal mode needs a 'face_up' card", "deal",
                                code="notation.deal_rule")
        first = data.get("first_bidder", 0)
        if type(first) is not int or first not in (0, 1, 2):
            raise NotationError("first_bidder must be 0, 1 or 2", "deal",
                                code="notation.deal_seat", params={"key": "first_bidder", "max": 2})
    if "first_bidder" in data and (type(data["first_bidder"]) is not int or data["first_bidder"] != first):
        raise NotationError("first_bidder is not the holder of the face-up card", "deal",
                            code="notation.deal_rule")
    return hands, kitty, first, face_card


def _check_redeals(deals: list, mode: str) -> None:
    """Check every deal of a given list (the deal and its redeals) before play starts, so that a
    bad redeal is refused by ``new_state`` and never in the middle of an action. Under
    ``shuffle`` each redeal's first bidder is the seat after the previous one (§2.4, D2).
    Raises :class:`NotationError` naming the deal."""
    prev = None
    for i, d in enumerate(deals, 1):
        try:
            first = check_deal(d, mode)[2]
        except NotationError as e:
            raise NotationError(f"deal {i}: {str(e).removeprefix('deal: ')}", "deal",
                                code="notation.deal_number",
                                params=why_inner(e, "unreadable", deal=i)) from None
        if mode == "shuffle" and prev is not None and first != (prev + 1) % SEATS:
            raise NotationError(f"deal {i}: after a void deal the first bidder is the next seat "
                                f"({(prev + 1) % SEATS}), not {first} (§2.4)", "deal",
                                code="notation.deal_rule")
        prev = first


# Compiled (qipai.native), Bidding and DoudizhuState are classes of mypyc with their attributes
# in C fields; serializable: copied and pickled through their attributes, as Python copies them
@mypyc_attr(serializable=True)
class Bidding(State):
    """The deal and the bidding of :class:`~.game.DoudizhuState` (its base class), up to the
    landlord taking the kitty."""

    # State's, read at every action: declared here, compiled they are C fields too
    result: Result | None
    log: list[str | list[Any]]
    # set by DoudizhuState.__init__ before the first deal
    _mode: str
    _given: list[Any]
    _rng: DealRng
    redeals: int
    forced: bool

    # ----- dealing and bidding ------------------------------------------------------------
    def _next_deal(self, prev_first: int | None) -> tuple[dict, tuple]:
        """The next deal object and its cards (``check_deal``'s tuple)."""
        k = len(self.deal)
        if self.seed is not None:
            drawn = _drawn(self._rng, self._mode, prev_first)
            if k >= len(self._given):
                return drawn
        if k < len(self._given):
            return self._given[k], check_deal(self._given[k], self._mode)
        return _drawn(self._rng, self._mode, prev_first)

    def _start_deal(self, prev_first: int | None) -> None:
        data, (hands, kitty, first, face) = self._next_deal(prev_first)
        self.deal = [*self.deal, data]
        # the rules read only the packed rank counts; the cards of each seat are sorted into
        # ranks when something asks for them (see DoudizhuState.hands)
        self._dealt: list[list[Card]] = hands
        self.codes: list[int] = [sum(map(_CODE.__getitem__, h)) for h in hands]
        self._cards: list[list[list[Card]] | None] = [None] * SEATS
        self.kitty = kitty
        self.first_bidder = first
        self.face_up = face
        self.phase = "bidding"
        self.turn = first
        self.landlord: int | None = None
        self.base = 0
        self.bombs = 0
        self.bid_log: list[tuple[int, Any]] = []
        self.play_log: list[tuple[int, Any]] = []
        self.plays_made = [0, 0, 0]
        self.top: Play | None = None
        self.top_seat: int | None = None
        self._passes = 0
        # bidding bookkeeping
        self._high = 0
        self._high_seat: int | None = None
        self._first_caller: int | None = None
        self._last_caller: int | None = None
        self._calls = 0
        self._final_call = False
        self._played_cards: list[list[Card]] = []
        self._played_read = 0
        self._played_taken = [[0] * NRANKS for _ in range(SEATS)]
        if self.game.options["bidding"] == "none":
            self._fix_landlord(first, 1)

    def _bid_actions(self) -> list[Any]:
        mode = self.game.options["bidding"]
        if mode == "call_1_4":
            return [PASS, CALL]
        return [PASS] + [BIDS[v] for v in (1, 2, 3) if v > self._high]

    def _apply_bid(self, action: Any, seat: int) -> None:
        mode = self.game.options["bidding"]
        if mode == "call_1_4":
            if action is not PASS and action is not CALL:
                raise IllegalAction("in 叫地主 bidding the actions are 'call' and 'pass'", action,
                                    code="doudizhu.bidding_actions_call_pass")
        elif action is not PASS and not _is_bid(action):
            raise IllegalAction("bidding: 'bid 1', 'bid 2', 'bid 3' or 'pass'", action,
                                code="doudizhu.bidding_bid_bid_bid")
        elif isinstance(action, Bid) and action.value <= self._high:
            raise IllegalAction(f"a bid must be higher than {self._high}", action,
                                code="doudizhu.bid_must_higher", params={"high": self._high})
        self.bid_log.append((seat, action))
        nxt = (seat + 1) % SEATS
        if mode == "points_1_3":
            if action is not PASS:
                self._high, self._high_seat = action.value, seat
                if action.value == 3:
                    return self._fix_landlord(seat, 3)
            if len(self.bid_log) == SEATS:
                if self._high_seat is None:
                    return self._void()
                return self._fix_landlord(self._high_seat, self._high)
            self.turn = nxt
        elif mode == "auction_1_3":
            if action is PASS:
                self._passes += 1
                if self._high_seat is None and self._passes == SEATS:
                    return self._void()
                if self._high_seat is not None and self._passes == SEATS - 1:
                    return self._fix_landlord(self._high_seat, self._high)
            else:
                self._passes = 0
                self._high, self._high_seat = action.value, seat
                if action.value == 3:
                    return self._fix_landlord(seat, 3)
            self.turn = nxt
        else:  # call_1_4
            if self._final_call:
                first, last = self._first_caller, self._last_caller
                assert first is not None and last is not None       # two calls or more were made
                if action is CALL:
                    return self._fix_landlord(first, self._calls + 1)
                return self._fix_landlord(last, self._calls)
            if action is CALL:
                self._calls += 1
                if self._first_caller is None:
                    self._first_caller = seat
                self._last_caller = seat
            if len(self.bid_log) == SEATS:
                if self._calls == 0:
                    return self._void()
                first = self._first_caller
                assert first is not None                              # a call was made
                if self._calls == 1:
                    return self._fix_landlord(first, 1)
                self._final_call = True
                self.turn = first
                return None
            self.turn = nxt
        return None

    def _void(self) -> None:
        if self.game.options["no_bid"] == "end":
            self.phase = "over"
            self.result = Result((0, 0, 0), "no_bid", "0 0 0", (), {"void": True})
            return
        if self.redeals >= self.game.options["max_redeals"]:
            self.forced = True                 # the redeal cap: first bidder, base 1
            return self._fix_landlord(self.first_bidder, 1)
        self.redeals += 1
        self._start_deal(self.first_bidder)

    def _fix_landlord(self, seat: int, base: int) -> None:
        self.landlord = seat
        self.base = base
        self.codes[seat] += sum(map(_CODE.__getitem__, self.kitty))
        self._cards[seat] = None
        self.phase = "play"
        self.turn = seat
        self._passes = 0
        self.top = None
        self.top_seat = None
