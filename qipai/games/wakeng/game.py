"""挖坑 (wakeng, "dig the pit"): deal, bidding, pit, play and scoring, as ``rules/wakeng.md``.

One :class:`WakengState` is one deal. Actions and their canonical text:

* :data:`PASS` — ``pass`` (a bidder passes, or a follower passes, 空过);
* ``Bid(1..3)`` — ``bid 1``, ``bid 2``, ``bid 3``;
* a play (:class:`~.combos.Play`) — its rank string, lowest rank first: ``4``, ``KK``, ``3333``,
  ``456``, ``9TJQK``. Input may also be card codes (``5H 5S``), which must be in the hand;
* :data:`FOUL` — ``foul``: only under ``strict_fouls``, put in the log by
  :meth:`WakengState.penalize_illegal` when the match layer reports a refused submission.

Sessions of 20 deals are scored by :mod:`qipai.games.wakeng.match`.
"""

from __future__ import annotations

import re
from typing import Any

from qipai.cards import Card, make_deck, parse_card, seeded_deal
from qipai.cards.beats import why_not_higher
from qipai.cards.hand import RankHand
from qipai.cards.playtext import (
    ClimbSeen,
    bids_view,
    log_seen,
    plays_delta,
    plays_view,
    read_counts,
)
from qipai.cards.tokens import Bid, bid, word
from qipai.core.errors import IllegalAction, NotationError, why, why_cause
from qipai.core.game import Game, Result, State
from qipai.core.options import Option
from qipai.core.registry import register
from qipai.core.viewdelta import ViewDelta

from .combos import OF_A_KIND, ORDER, Play, answers, explain, leads, play_of

SEATS = 3
HAND = 16
PIT = 4
DECK: tuple[Card, ...] = tuple(make_deck(1, jokers=False))
_DECK_IDS = sorted(c.id for c in DECK)
#: §2.3: the first bidder holds 5H, or the first of these held by a seat (D8)
FIRST_BIDDER_CARDS = tuple(parse_card(c) for c in ("5H", "6H", "7H", "8H", "9H"))
FIRST_LEAD_CARD = parse_card("4H")
BID_NAMES = {3: "头挖", 2: "二挖", 1: "烂坑"}


PASS = word("pass")
FOUL = word("foul")
BIDS = {v: bid(v) for v in (1, 2, 3)}


@register
class Wakeng(Game):
    """挖坑 for three seats; options are the variants of ``rules/wakeng.md`` §4.3."""

    id = "wakeng"
    seats = (3,)
    hidden_information = True
    option_spec = (
        Option("bid_direction", "same", choices=("same", "opposite"),
               doc="§2.1 D1: bids go in play order s -> s+1 (same) or the seed's literal "
                   "s -> s-1 (opposite)"),
        Option("reveal_pit", False, kind=bool, doc="§2.5 D2: the pit is shown to everyone once taken"),
        Option("must_beat_if_able", False, kind=bool,
               doc="§3.4 D3: a follower holding a beating play may not pass"),
        Option("strict_fouls", False, kind=bool,
               doc="§3.6: a refused submission is a foul; the offender's side loses the deal at the bid"),
        Option("scoring", "bid_each", choices=("bid_each",),
               doc="§4.2 D5: each opponent pays the bid to the digger, or the digger pays it to each"),
        Option("deals_per_match", 20, kind=int, minimum=1,
               doc="§5: deals in a match (used by qipai.games.wakeng.match)"),
    )

    def new_state(self, *, seed: int | str | None = None, deal: Any = None,
                  position: str | None = None, num_seats: int | None = None) -> WakengState:
        """One deal from ``seed`` (shuffled with :class:`~qipai.core.rng.DealRng`), or from
        ``deal`` (``{"hands": [3 lists of 16 card ids], "pit": [4 card ids]}``), or both (the
        deal must then be the seed's). Raises :class:`NotationError` on a bad deal, a position
        or a seat count other than 3."""
        if position is not None:
            raise NotationError("wakeng has no position notation; give a seed or a deal", "position",
                                code="notation.no_position")
        if num_seats not in (None, SEATS):
            raise NotationError("wakeng is played by exactly 3 seats", "num_seats",
                                code="game.seats", params={"seats": 3})
        if seed is None and deal is None:
            from qipai.core.rng import new_seed
            seed = new_seed()
        return WakengState(self, seed=seed, deal=deal)

    def parse_action(self, text: str, state: State | None = None) -> Any:
        """Read ``pass`` (also 不出, 不叫, 过), ``bid N`` (a bare ``1``..``3`` while bidding),
        ``foul``, or a play as a rank string (``456``, ``KK``; ``10`` = ``T``) or card codes
        (``5H 5S``, checked against the hand of the seat to act). Raises
        :class:`IllegalAction` naming what is wrong."""
        return parse_action(text, state)


def draw_deal(seed: int | str) -> dict[str, list[str]]:
    """§2.2: shuffle the 52 cards with ``DealRng(seed)``, deal round robin 16 each (card ``i``
    to seat ``i mod 3``); the last 4 are the pit."""
    deal, _ = seeded_deal(seed, DECK, SEATS, HAND, PIT)
    return {"hands": [[c.id for c in h] for h in deal.hands], "pit": [c.id for c in deal.kitty]}


def check_deal(data: Any) -> tuple[list[list[Card]], list[Card]]:
    """Validate a deal object; returns ``(hands, pit)``. Raises :class:`NotationError`."""
    if not isinstance(data, dict) or not isinstance(data.get("hands"), list) \
            or not isinstance(data.get("pit"), list):
        raise NotationError("a deal is an object with 'hands' (3 lists of 16 card ids) and 'pit' "
                            "(4 card ids)", "deal",
                            code="notation.deal_shape")
    try:
        hands = [[parse_card(c) for c in h] for h in data["hands"]]
        pit = [parse_card(c) for c in data["pit"]]
    except (ValueError, TypeError, AttributeError) as e:
        raise NotationError(str(e), "deal",
                            code="notation.deal_unreadable", params=why_cause(e, "unreadable")) from None
    if len(hands) != SEATS or any(len(h) != HAND for h in hands) or len(pit) != PIT:
        raise NotationError("a deal has 3 hands of 16 cards and a pit of 4", "deal",
                            code="notation.deal_cards")
    if sorted([c.id for h in hands for c in h] + [c.id for c in pit]) != _DECK_IDS:
        raise NotationError("the deal is not one 52-card pack without jokers (deck index 0)", "deal",
                            code="notation.deal_cards")
    return hands, pit


def _norm(d: dict) -> dict:
    return {"hands": [sorted(h) for h in d["hands"]], "pit": sorted(d["pit"])}


def first_bidder(hands: list[list[Card]]) -> int:
    """§2.3 / D8: the holder of 5H, else of 6H, 7H, 8H, 9H (the pit holds only 4 cards)."""
    for card in FIRST_BIDDER_CARDS:
        for s, h in enumerate(hands):
            if card in h:
                return s
    raise NotationError("5H-9H cannot all be in the pit", "deal",
                        code="notation.deal_cards")     # unreachable with 4 pit cards


class WakengState(State):
    """One deal of 挖坑. Phases ``bidding``, ``play``, ``over``.

    Public attributes (read-only by convention): ``phase``; ``hands`` (one
    :class:`~qipai.cards.hand.RankHand` per seat); ``pit``; ``first_bidder``; ``bid_log`` and
    ``play_log`` (lists of ``(seat, action)``); ``digger`` and ``bid`` (``None`` until bidding
    ends; ``forced`` tells a 烂坑 after three passes); ``first_leader`` (the 4H holder once the
    pit is taken); ``top``/``top_seat`` (the play to beat, ``None`` on a lead); ``play_cards``
    (the physical cards of each play: the lowest card ids of the ranks played).
    """

    def __init__(self, game: Wakeng, *, seed: Any = None, deal: Any = None) -> None:
        super().__init__(game, seed=seed, deal=None, num_seats=SEATS)
        self.opts = game.options
        if deal is not None:
            hands, pit = check_deal(deal)
            if seed is not None and _norm(deal) != _norm(draw_deal(seed)):
                raise NotationError("the deal does not match the seed", "deal",
                                    code="notation.deal_seed")
            self.deal = {"hands": [[c.id for c in h] for h in hands], "pit": [c.id for c in pit]}
        else:
            self.deal = draw_deal(seed)
            hands, pit = check_deal(self.deal)
        self.hands = [RankHand(ORDER, h) for h in hands]
        self.pit = list(pit)
        self.first_bidder = first_bidder(hands)
        self.phase = "bidding"
        self.turn = self.first_bidder
        self.bid_log: list[tuple[int, Any]] = []
        self.play_log: list[tuple[int, Any]] = []
        self.play_cards: list[list[Card]] = []
        self.high = 0
        self.high_seat: int | None = None
        self.digger: int | None = None
        self.bid: int | None = None
        self.forced = False
        self.first_leader: int | None = None
        self.top: Play | None = None
        self.top_seat: int | None = None
        self.passes = 0

    # ----- turn ------------------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.result is not None else (self.turn,)

    def _next_bidder(self, seat: int) -> int:
        step = 1 if self.opts["bid_direction"] == "same" else -1
        return (seat + step) % SEATS

    def clock_phase(self, seat: int) -> str | None:
        """The clock's phase name (competition.md §4.5 ``wakeng_s4``): ``bid`` while bidding,
        ``first_lead`` for the deal's opening play (60 s, D4), else ``None`` (30 s)."""
        if self.phase == "bidding":
            return "bid"
        if self.phase == "play" and not self.play_log:
            return "first_lead"
        return None

    # ----- actions ---------------------------------------------------------------------------
    def _legal_actions(self, seat: int) -> list[Any]:
        if self.phase == "bidding":
            return [PASS] + [BIDS[v] for v in (1, 2, 3) if v > self.high]
        counts = self.hands[seat].counts
        if self.top is None:
            return list(leads(counts))
        beat = answers(counts, self.top)
        if beat and self.opts["must_beat_if_able"]:
            return beat
        return [PASS, *beat]

    def _apply(self, action: Any, seat: int) -> None:
        if action is FOUL:
            if not self.opts["strict_fouls"]:
                raise IllegalAction("fouls are not sanctioned under these options (strict_fouls off)",
                                    action, code="wakeng.fouls_not_sanctioned_under")
            self.phase = "over"
            self.result = self._loss_result(seat, "foul")
            return
        if self.phase == "bidding":
            self._apply_bid(action, seat)
        else:
            self._apply_play(action, seat)

    def _apply_bid(self, action: Any, seat: int) -> None:
        if action is PASS:
            pass
        elif isinstance(action, Bid):
            if action.value not in (1, 2, 3):
                raise IllegalAction("a bid is 1, 2 or 3 points", action, code="wakeng.bid_points")
            if action.value <= self.high:
                raise IllegalAction(f"a bid must exceed the highest bid so far (bid {self.high})", action,
                                    code="wakeng.bid_must_exceed_highest", params={"high": self.high})
        else:
            raise IllegalAction("bidding is not over: 'bid 1'..'bid 3' or 'pass'", action,
                                code="wakeng.bidding_not_over_bid")
        self.bid_log.append((seat, action))
        if isinstance(action, Bid):
            self.high, self.high_seat = action.value, seat
            if action.value == 3:
                return self._take_pit(seat, 3)
        if len(self.bid_log) == SEATS:
            if self.high_seat is None:
                self.forced = True
                return self._take_pit(self.first_bidder, 1)
            return self._take_pit(self.high_seat, self.high)
        self.turn = self._next_bidder(seat)
        return None

    def _take_pit(self, digger: int, bid: int) -> None:
        """§2.5-§2.6: the digger takes the pit; the 4H holder leads."""
        self.digger, self.bid = digger, bid
        self.hands[digger].add(self.pit)
        self.first_leader = next(s for s in range(SEATS) if self.hands[s].holds_card(FIRST_LEAD_CARD))
        self.phase = "play"
        self.turn = self.first_leader

    def _apply_play(self, action: Any, seat: int) -> None:
        if action is PASS:
            if self.top is None:
                raise IllegalAction("the leader must play (a lead cannot be passed)", action,
                                    code="wakeng.leader_must_play_lead")
            if self.opts["must_beat_if_able"] and answers(self.hands[seat].counts, self.top):
                raise IllegalAction("you hold a play that beats the table and must play "
                                    "(must_beat_if_able)", action, code="wakeng.hold_play_beats_table")
            self.play_log.append((seat, PASS))
            self.passes += 1
            if self.passes == SEATS - 1:
                self.turn, self.top, self.top_seat, self.passes = self.top_seat, None, None, 0
            else:
                self.turn = (seat + 1) % SEATS
            return
        if not isinstance(action, Play):
            raise IllegalAction("during play the actions are a combination of cards or 'pass'", action,
                                code="wakeng.during_play_actions_combination")
        if self.top is not None and not action.beats(self.top):
            raise IllegalAction(why_not_higher("wakeng", action, self.top, answer="only a higher {type} does",
                                                 unit="cards"), action)
        hand = self.hands[seat]
        if not hand.holds(action.counts):
            raise IllegalAction(f"those cards are not in your hand (you hold {hand.ranks()})", action,
                                code="wakeng.those_cards_not_hand", params={"hand": hand.ranks()})
        self.play_cards.append(hand.take(action.counts))
        self.play_log.append((seat, action))
        self.top, self.top_seat, self.passes = action, seat, 0
        if not len(hand):
            self._finish(seat)
        else:
            self.turn = (seat + 1) % SEATS

    def _finish(self, out: int) -> None:
        """§4.1-§4.2: the first seat out ends the deal; ``bid_each`` scoring."""
        b = self.bid
        digger_wins = out == self.digger
        sign = 1 if digger_wins else -1
        returns = tuple(2 * b * sign if s == self.digger else -b * sign for s in range(SEATS))
        winners = (self.digger,) if digger_wins else self._opponents()
        self.phase = "over"
        self.result = Result(returns, "out", returns_text(returns), winners,
                             self._details(out=out, digger_wins=digger_wins))

    def _opponents(self) -> tuple[int, ...]:
        return tuple(s for s in range(SEATS) if s != self.digger)

    def _details(self, **extra: Any) -> dict[str, Any]:
        return {"digger": self.digger, "bid": self.bid, "bid_name": BID_NAMES.get(self.bid or 0),
                "forced": self.forced, "first_bidder": self.first_bidder,
                "first_leader": self.first_leader, "cards_left": [len(h) for h in self.hands],
                "plays": sum(1 for _, a in self.play_log if a is not PASS), **extra}

    # ----- defaults, sanctions, external endings ---------------------------------------------
    def default_action(self, seat: int) -> Any:
        """§3.5: a bidder passes; a follower passes; a leader plays its lowest single (lowest
        rank; the physical card taken is the lowest suit D < C < H < S). ``None`` when ``seat``
        is not to act."""
        if self.result is not None or seat != self.turn:
            return None
        if self.phase == "bidding" or self.top is not None:
            if self.phase == "play" and self.opts["must_beat_if_able"]:
                beat = answers(self.hands[seat].counts, self.top)
                if beat:
                    return beat[0]          # passing is refused: the smallest beating play
            return PASS
        low = self.hands[seat].lowest()
        return OF_A_KIND[1][ORDER.rank_of(low)]

    def penalize_illegal(self, seat: int) -> bool:
        """§3.6 ``strict_fouls``: the match layer calls this after :meth:`apply` refused a
        submission of ``seat``; the foul is logged (``foul``) and the offender's side loses the
        deal at the current bid, as :meth:`_loss_result`. Returns ``False`` (and does nothing)
        when the option is off. Raises :class:`IllegalAction` when the deal is over or ``seat``
        is not to act."""
        if not self.opts["strict_fouls"]:
            return False
        self.apply(FOUL, seat)
        return True

    def stake(self) -> int:
        """The bid at stake now: the bid once the digger is known, else the highest bid so far
        and at least 1."""
        return self.bid if self.bid is not None else max(self.high, 1)

    def _loss_returns(self, seat: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        b = self.stake()
        if self.digger is None or seat == self.digger:
            returns = tuple(-2 * b if s == seat else b for s in range(SEATS))
            return returns, tuple(s for s in range(SEATS) if s != seat)
        returns = tuple(2 * b if s == self.digger else -b for s in range(SEATS))
        return returns, (self.digger,)

    def _loss_result(self, seat: int, reason: str) -> Result:
        """Decision (§3.6, competition.md §5): a seat that forfeits (foul, resign, timeout,
        referee) loses the deal for its side at :meth:`stake`, scored as §4.2: the digger pays
        the stake to each opponent, or each opponent pays it to the digger. Before the digger
        is known the forfeiting seat stands alone against the other two."""
        returns, winners = self._loss_returns(seat)
        self.phase = "over"
        return Result(returns, reason, returns_text(returns), winners,
                      self._details(offender=seat, reason=reason))

    def _result_from_text(self, text: str, reason: str) -> Result:
        """A recorded external ending written as the three signed scores (``"-2 +1 +1"``, the
        form of ``Result.text``): one seat's forfeit when it matches one, else any zero-sum
        integers (a referee's decision), positive scores winning. An opponent's forfeit scores the
        same whichever opponent it was, so its replay names no ``offender``. Raises
        :class:`IllegalAction`."""
        parts = text.split() if isinstance(text, str) else []
        if len(parts) != SEATS or not all(re.fullmatch(r"[+-]?\d+", p) for p in parts):
            raise IllegalAction(f"a wakeng result is three signed integers such as '-2 +1 +1', not {text!r}",
                                code="wakeng.wakeng_result_three_signed", params={"text": text})
        returns = tuple(int(p) for p in parts)
        if sum(returns) != 0:
            raise IllegalAction(f"the scores of a deal sum to zero: {text!r}",
                                code="wakeng.scores_deal_sum_zero", params={"text": text})
        offenders = [seat for seat in range(SEATS) if self._loss_returns(seat)[0] == returns]
        if len(offenders) == 1:
            return self._loss_result(offenders[0], reason)
        # no forfeit, or an opponent's whose scores are the same for both opponents: the record
        # does not say which one, so no offender is named
        self.phase = "over"
        winners = tuple(s for s in range(SEATS) if returns[s] > 0)
        return Result(returns, reason, returns_text(returns), winners, self._details(reason=reason))

    def sides(self) -> list[tuple[int, ...]]:
        """The digger alone against the two others once bidding is over; before that, each seat."""
        if self.digger is None:
            return [(s,) for s in range(SEATS)]
        return [(self.digger,), self._opponents()]

    # ----- views -----------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None`` = spectator): its own hand, every seat's card count,
        the bids, the digger and bid, every play and pass (a play's cards shown by the table's
        labels of its ranks, :func:`~qipai.cards.playtext.plays_view`), the play to beat. The pit only to the
        digger once taken (everyone under ``reveal_pit``, and everyone once the deal is over, with
        ``remaining``: the cards left in every hand). Never another seat's cards before. Raises
        :class:`IllegalAction` for a seat other than 0, 1, 2 or ``None``."""
        return self._view(seat, bids_view(self.bid_log), plays_view(self.play_log, self.play_cards))

    def view_delta(self, seat: int | None, since: Any = None) -> ViewDelta:
        """The view as a change (:mod:`qipai.core.viewdelta`): ``bids`` and ``plays`` grow
        through the deal (one deal per state)."""
        return plays_delta(self, seat, since, 0, self._view, self.play_log, self.play_cards,
                           self.bid_log)

    def _view(self, seat: int | None, bids: list | None, plays: list | None) -> dict[str, Any]:
        if seat is not None and (type(seat) is not int or not 0 <= seat < SEATS):
            raise IllegalAction(f"no seat {seat!r} (seats are 0, 1, 2; None for a spectator)",
                                code="wakeng.no_seat_seats_none", params={"seat": seat})
        # the deal over, every seat sees the pit and the cards left in every hand (as 斗地主 shows them)
        pit_seen = self.result is not None or (
            self.digger is not None and (self.opts["reveal_pit"] or seat == self.digger))
        out = {
            "game": "wakeng", "seat": seat, "phase": self.phase, "to_act": list(self.to_act),
            "hand": [c.id for c in self.hands[seat].cards()] if seat is not None else None,
            "hand_ranks": self.hands[seat].ranks() if seat is not None else None,
            "counts": [len(h) for h in self.hands],
            "first_bidder": self.first_bidder,
            "bids": bids,
            "digger": self.digger, "bid": self.bid, "bid_name": BID_NAMES.get(self.bid or 0),
            "pit": [c.id for c in self.pit] if pit_seen else None,
            "first_leader": self.first_leader,
            "plays": plays,
            "top": self._top_view(),
            "result": self.result.to_json() if self.result is not None else None,
        }
        if self.result is not None:
            out["remaining"] = [[c.id for c in h.cards()] for h in self.hands]
        return out

    def seen_climb(self, seat: int, since: Any = None) -> ClimbSeen:
        """What ``view(seat)`` shows that the research tensor reads, without building the view
        (:class:`~qipai.cards.playtext.ClimbSeen`): the seat's hand ranks, every seat's card
        count, the bids, the digger, the bid and the first leader, the play to beat, and the
        plays since ``since``."""
        keys = {"phase": self.phase, "hand_ranks": self.hands[seat].ranks(),
                "counts": [len(h) for h in self.hands], "first_bidder": self.first_bidder,
                "bids": bids_view(self.bid_log), "digger": self.digger, "bid": self.bid,
                "first_leader": self.first_leader, "top": self._top_view()}
        return log_seen(keys, since, (0, len(self.play_log), len(self.play_cards)), self.play_log,
                        self.play_cards)

    def _top_view(self) -> dict[str, Any] | None:
        return None if self.top is None else {"seat": self.top_seat, "play": self.top.text,
                                              "type": self.top.type}

    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds, in card-id order."""
        return self.hands[seat].cards()

    def clone(self) -> WakengState:
        new = object.__new__(WakengState)
        new.__dict__.update(self.__dict__)
        new.hands = [h.copy() for h in self.hands]
        new.log = list(self.log)
        new.bid_log = list(self.bid_log)
        new.play_log = list(self.play_log)
        new.play_cards = list(self.play_cards)
        return new


def returns_text(returns: tuple[int, ...]) -> str:
    """``Result.text``: the signed score of each seat, e.g. ``+6 -3 -3``."""
    return " ".join(f"{r:+d}" if r else "0" for r in returns)


def parse_action(text: Any, state: State | None = None) -> Any:
    """See :meth:`Wakeng.parse_action`."""
    if not isinstance(text, str):
        raise IllegalAction("an action is written as text", text, code="wakeng.action_written_text")
    t = text.strip()
    low = t.lower()
    if low in ("pass", "p", "不出", "不叫", "不要", "过", "空过"):
        return PASS
    if low == "foul":
        return FOUL
    bidding = state is not None and getattr(state, "phase", None) == "bidding"
    parts = low.split()
    if parts and parts[0] == "bid":
        if len(parts) == 2 and parts[1] in ("1", "2", "3"):
            return BIDS[int(parts[1])]
        raise IllegalAction("a bid is 'bid 1', 'bid 2' or 'bid 3'", text, code="wakeng.bid_bid_bid_bid")
    if bidding and low in ("1", "2", "3"):
        return BIDS[int(low)]
    if not t:
        raise IllegalAction("no action given", text, code="wakeng.no_action_given")
    seat = state.current_player if state is not None else None
    try:
        counts = read_counts(t, ORDER, state.hands[seat] if seat is not None else None)
    except ValueError as e:
        raise IllegalAction(str(e), text, code="bad_notation",
                                params={"text": text, **why(e, "unreadable")}) from None
    if bidding:
        raise IllegalAction("bidding is not over: 'bid 1'..'bid 3' or 'pass'", text,
                            code="wakeng.bidding_not_over_bid")
    play = play_of(counts)
    if play is None:
        raise IllegalAction(explain(counts), text)
    return play
