"""斗地主 (doudizhu): deal, bidding, play and scoring, as specified in ``rules/doudizhu.md``.

One :class:`DoudizhuState` is one deal (一局), including any redeals after nobody bid. Matches
of several deals (first to +100, five deals, a fixed number) are scored by
:mod:`qipai.games.doudizhu.match`.

Actions (canonical text in brackets): :data:`PASS` (``pass``), bids ``Bid(1..3)`` (``bid 2``),
the 叫地主 call :data:`CALL` (``call``), and plays (:class:`~.combos.Play`, a rank string such as
``333444+56``; ``type:`` is prefixed only when the same cards read as two types under the chosen
options, e.g. ``plane_solo:333444555+666``).
"""

from __future__ import annotations

import copy
import json
import re
from functools import lru_cache, partial
from typing import Any

from qipai.cards import Card, commitment, parse_card
from qipai.cards.beats import why_not_higher
from qipai.cards.card import is_card_code
from qipai.cards.playtext import ClimbSeen, bids_view, log_seen, plays_delta, plays_view
from qipai.core.errors import IllegalAction, Message, NotationError, why
from qipai.core.game import Game, Result, State
from qipai.core.options import Option
from qipai.core.registry import register
from qipai.core.rng import DealRng
from qipai.core.viewdelta import ViewDelta

from .bidding import _PLACE, _RANK, BIDS, CALL, SEATS, Bid, Bidding, Call, _check_redeals, draw_deal
from .combos import (
    GUARD,
    NRANKS,
    ORDER,
    PACKER,
    PASS,
    TYPES,
    KickerRules,
    Pass,
    Play,
    PlayTable,
    explain_no_reading,
    table,
)

PRESETS: dict[str, dict[str, Any]] = {
    "classic": {"deal": "shuffle", "bidding": "points_1_3", "spring": True, "match": "first_to_100"},
    "seed002": {"deal": "cut_faceup", "bidding": "call_1_4", "spring": False, "match": "five_deals"},
    # OpenSpiel's dou_dizhu: face-up card picks the first bidder, open auction, no redeal,
    # adjacent-trio wings allowed, no four-with-two (docs/games/doudizhu.md lists every difference)
    "openspiel": {"deal": "cut_faceup", "bidding": "auction_1_3", "no_bid": "end", "spring": True,
                  "adjacent_trio_wings": True, "four_with_two": False, "chain_from_bomb_rank": False,
                  "bomb_answers_rocket": True},
    # RLCard's doudizhu environment: no bidding, the first seat dealt is landlord
    "rlcard": {"deal": "shuffle", "bidding": "none", "spring": True},
}

_RULE_FLAGS = KickerRules.names()


@register
class Doudizhu(Game):
    """斗地主 for three seats. Options are the variants of ``rules/doudizhu.md`` §4.4 plus the
    kicker decisions of §3.3/D10 as switches; ``preset`` fills in a coherent set (``classic``,
    ``seed002``, ``openspiel``) and explicitly given options override it."""

    id = "doudizhu"
    seats = (3,)
    hidden_information = True
    option_spec = (
        Option("preset", "classic", choices=tuple(PRESETS), doc="§1 presets: classic = seeds 000/001/003, "
               "seed002 = seed 002, openspiel = OpenSpiel's dou_dizhu rules"),
        Option("deal", "shuffle", choices=("shuffle", "cut_faceup"), doc="§2.2/§2.3 deal and first bidder"),
        Option("bidding", "points_1_3", choices=("points_1_3", "call_1_4", "auction_1_3", "none"),
               doc="§2.5 one bid each 1/2/3; §2.6 叫地主 up to 4; auction_1_3 = OpenSpiel's open auction; "
                   "none = the first bidder is landlord at base 1 (RLCard, Botzone FightTheLandlord)"),
        Option("no_bid", "redeal", choices=("redeal", "end"),
               doc="§2.7 nobody bids: redeal (rule file) or end the game scoreless (OpenSpiel)"),
        Option("max_redeals", 3, kind=int, minimum=0,
               doc="§2.7 redeals after nobody bids before the next all-pass deal makes the first "
                   "bidder landlord at base 1 (so that default actions always finish a deal)"),
        Option("spring", True, kind=bool, doc="§4.2 spring and anti-spring double"),
        Option("rocket_doubles", True, kind=bool, doc="§4.2 D5 the rocket doubles like a bomb"),
        Option("adjacent_trio_wings", False, kind=bool, doc="§3.4 drop K4 (trio wings next to the body)"),
        Option("four_with_two", True, kind=bool, doc="§3.2 types 13-14 exist (OpenSpiel: no)"),
        Option("four_two_solo_pair", True, kind=bool, doc="D10 444455 is four_two_solo"),
        Option("four_two_same_pairs", False, kind=bool, doc="D10 44445555 is four_two_pair"),
        Option("wings_body_rank", False, kind=bool, doc="drop K1 (33334444 = 333444+34)"),
        Option("bomb_in_wings", False, kind=bool, doc="drop K3 (four cards of a rank among single wings)"),
        Option("rocket_in_wings", False, kind=bool, doc="drop K2 (both jokers as kickers)"),
        Option("chain_from_bomb_rank", True, kind=bool,
               doc="a chain may start at a rank the player holds four of (OpenSpiel: no)"),
        Option("bomb_answers_rocket", False, kind=bool,
               doc="any bomb may answer the rocket (OpenSpiel: yes; §3.5: nothing beats it)"),
        Option("match", "first_to_100", choices=("first_to_100", "five_deals", "fixed_n"),
               doc="§5 match scoring (used by qipai.games.doudizhu.match)"),
        Option("match_deals", 10, kind=int, minimum=1, doc="§5.3 number of deals for match = fixed_n"),
    )

    def __init__(self, **options: Any) -> None:
        preset = options.get("preset", "classic")
        merged = {**(PRESETS.get(preset, {}) if isinstance(preset, str) else {}), **options}
        super().__init__(**merged)
        self.rules = KickerRules(**{k: self.options[k] for k in _RULE_FLAGS})
        self.table: PlayTable = table(self.rules)

    def new_state(self, *, seed: int | str | None = None, deal: Any = None,
                  position: str | None = None, num_seats: int | None = None) -> DoudizhuState:
        """A deal from ``seed`` (shuffled with :class:`~qipai.core.rng.DealRng`), or from ``deal``
        (one deal object or a list for the deal and its redeals; see :func:`deal_to_json`), or
        both (the deal must then match the seed). Raises :class:`NotationError` on a bad deal."""
        if position is not None:
            raise NotationError("doudizhu has no position notation; give a seed or a deal", "position",
                                code="notation.no_position")
        if num_seats not in (None, SEATS):
            raise NotationError("doudizhu is played by exactly 3 seats", "num_seats",
                                code="game.seats", params={"seats": 3})
        if seed is None and deal is None:
            from qipai.core.rng import new_seed
            seed = new_seed()
        return DoudizhuState(self, seed=seed, deal=deal)

    def parse_action(self, text: Any, state: State | None = None) -> Any:
        """Read an action: ``pass`` (also 不出/不叫), ``bid N``, ``call`` (叫), or a play as a rank
        string (``333444+56``, ``4444LB``), card codes (``3S 3H 3D 4C``, ``LJ``), or both, with an
        optional ``type:`` prefix. Raises :class:`IllegalAction` naming what is wrong."""
        return parse_action(self, text, state)


class DoudizhuState(Bidding):
    """One deal of doudizhu. Phases: ``bidding``, ``play``, ``over``.

    Public attributes (read-only by convention): ``phase``, ``landlord`` (seat or ``None``),
    ``base`` (winning bid/count), ``bombs`` (bombs and rockets that double), ``kitty``,
    ``bid_log`` and ``play_log`` (lists of ``(seat, action)``), ``play_cards`` (the physical cards
    of each play, in order: the referee takes the lowest card ids of the ranks played),
    ``top`` and ``top_seat`` (the play to beat, ``None`` on a lead), ``first_bidder``,
    ``face_up``, ``redeals``, ``forced`` (the first bidder was made landlord at base 1 after
    ``max_redeals`` redeals).
    """

    def __init__(self, game: Doudizhu, *, seed: Any = None, deal: Any = None) -> None:
        super().__init__(game, seed=seed, deal=None, num_seats=SEATS)
        self.table = game.table
        opts = game.options
        self._mode = opts["deal"]
        given = deal if isinstance(deal, list) else ([deal] if deal is not None else [])
        self._given = list(given)
        _check_redeals(given, self._mode)
        if seed is not None:
            self._rng = DealRng(seed)
        else:
            self._rng = DealRng("redeal:" + commitment(json.dumps(given, sort_keys=True)))
        if seed is not None and given:
            probe = DealRng(seed)
            prev = None
            for i, d in enumerate(given):
                want = draw_deal(probe, self._mode, prev)
                prev = want["first_bidder"]
                if _norm(d) != _norm(want):
                    raise NotationError(f"deal {i + 1} does not match the seed", "deal",
                                        code="notation.deal_seed")
        self.deal = []
        self.redeals = 0
        self.forced = False
        self._start_deal(None)

    # ----- contract hooks --------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.result is not None else (self.turn,)

    def legal_actions(self, seat: Any = None) -> list[Any]:
        if seat is None and self.result is None:          # fast path, same result as the base
            if self.phase == "play":
                if self.top is None:
                    return self.table.leads(self.codes[self.turn])
                return self.table.answers(self.codes[self.turn], self.top, PASS)
            if self.phase == "bidding":
                return self._bid_actions()
        return super().legal_actions(seat)

    def apply(self, action: Any, seat: Any = None) -> None:
        if self.result is None and (seat is None or seat == self.turn):   # fast path, same checks
            kind = type(action)
            if self.phase == "play" and kind is Play:
                self._play(action, self.turn)
            elif self.phase == "play" and kind is Pass:
                self._pass(self.turn)
            elif kind is Pass or kind is Play or kind is Bid or kind is Call:
                self._apply(action, self.turn)
            else:
                return super().apply(action, seat)
            self.log.append(action.text)
            return None
        return super().apply(action, seat)

    def _legal_actions(self, seat: int) -> list[Any]:
        if self.phase == "bidding":
            return self._bid_actions()
        if self.top is None:
            return self.table.leads(self.codes[seat])
        return self.table.answers(self.codes[seat], self.top, PASS)

    def _apply(self, action: Any, seat: int) -> None:
        if self.phase == "bidding":
            return self._apply_bid(action, seat)
        if action is PASS or isinstance(action, Pass):
            return self._pass(seat)
        if not isinstance(action, Play):
            raise IllegalAction("during play the actions are a combination of cards or 'pass'", action,
                                code="doudizhu.during_play_actions_combination")
        return self._play(action, seat)

    def _pass(self, seat: int) -> None:
        """``seat`` passes (refused on a lead); after two passes the last player leads."""
        if self.top is None:
            raise IllegalAction("the leader must play (a lead cannot be passed)", PASS,
                                code="doudizhu.leader_must_play_lead")
        self.play_log.append((seat, PASS))
        self._passes += 1
        if self._passes == SEATS - 1:
            self.turn = self.top_seat
            self.top = None
            self.top_seat = None
            self._passes = 0
        else:
            self.turn = (seat + 1) % SEATS

    def _play(self, play: Play, seat: int) -> None:
        """``seat`` plays ``play`` (checked first: nothing changes if it is refused)."""
        self._check_play(play, seat)
        left = self.codes[seat] = self.codes[seat] - play.code
        self.plays_made[seat] += 1
        if play.power and (play.power == 1 or self.game.options["rocket_doubles"]):
            self.bombs += 1
        self.play_log.append((seat, play))
        self.top = play
        self.top_seat = seat
        self._passes = 0
        if left == 0:
            self._finish(seat)
        else:
            self.turn = (seat + 1) % SEATS

    def _check_play(self, play: Play, seat: int) -> None:
        table = self.table
        if play not in table.members:
            raise IllegalAction("not a combination under this game's options", play,
                                code="doudizhu.not_combination_under_game")
        hand = self.codes[seat]
        if ((hand | GUARD) - play.code) & GUARD != GUARD:
            raise IllegalAction("those cards are not in your hand", play,
                                code="doudizhu.those_cards_not_hand")
        if table.no_bomb_heads and table.head_on_bomb(hand, play):
            raise IllegalAction("under these options a chain may not start at a rank you hold four of", play,
                                code="doudizhu.under_these_options_chain")
        top = self.top
        if top is not None and not play.beats(top) and not (
                top.power == 2 and play.power == 1 and table.rules.bomb_answers_rocket):
            raise IllegalAction(_why_not_beats(play, top), play)

    def _finish(self, winner: int) -> None:
        lord = self.landlord
        assert lord is not None                 # play starts once the landlord is fixed
        lord_wins = winner == lord
        mult = 2 ** self.bombs
        spring = anti = False
        if self.game.options["spring"]:
            if lord_wins and all(self.plays_made[s] == 0 for s in range(SEATS) if s != lord):
                spring = True
            elif not lord_wins and self.plays_made[lord] == 1:
                anti = True
            if spring or anti:
                mult *= 2
        u = self.base * mult
        sign = 1 if lord_wins else -1
        returns = tuple(2 * u * sign if s == lord else -u * sign for s in range(SEATS))
        winners = (lord,) if lord_wins else tuple(s for s in range(SEATS) if s != lord)
        self.phase = "over"
        details = {"landlord": lord, "base": self.base, "multiplier": mult, "bombs": self.bombs,
                   "spring": spring, "anti_spring": anti, "out": winner}
        if self.forced:
            details["forced"] = True            # the redeal cap made the landlord
        self.result = Result(returns, "out", _returns_text(returns), winners, details)

    def sides(self) -> list[tuple[int, ...]]:
        if self.landlord is None:
            return [(s,) for s in range(SEATS)]
        return [(self.landlord,), tuple(s for s in range(SEATS) if s != self.landlord)]

    def default_action(self, seat: int) -> Any:
        """§3.6 D4: a bidder or follower passes; a leader plays its lowest single card."""
        if self.phase == "bidding" or self.top is not None:
            return PASS
        code = self.codes[seat]
        low = next(r for r in range(NRANKS) if PACKER.count(code, r))
        return self.table.readings([1 if r == low else 0 for r in range(NRANKS)])[0]

    def _loss_result(self, seat: int, reason: str) -> Result:
        """Decision: a seat that forfeits (resign, timeout, illegal moves) loses the deal for its
        side at the current stake (base, or during bidding the highest bid or the count of calls so
        far and at least 1, times the doublings so far)."""
        returns, winners = self._forfeit_returns(seat)
        self.phase = "over"
        return Result(returns, reason, _returns_text(returns), winners, {"landlord": self.landlord})

    def _forfeit_returns(self, seat: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """``(returns, winners)`` when ``seat`` forfeits now; changes nothing."""
        u = max(self.base, self._high, self._calls, 1) * 2 ** self.bombs
        if self.landlord is None or seat == self.landlord:
            returns = tuple(-2 * u if s == seat else u for s in range(SEATS))
            winners = tuple(s for s in range(SEATS) if s != seat)
        else:
            returns = tuple(2 * u if s == self.landlord else -u for s in range(SEATS))
            winners = (self.landlord,)
        return returns, winners

    def _result_from_text(self, text: Any, reason: str) -> Result:
        """A recorded external ending (resign, timeout, arbiter ...) written as the signed returns
        of the three seats (``"-2 +1 +1"``, the form of ``Result.text``). When the scores are
        those of one seat's forfeit (see :meth:`_loss_result`) that forfeit is the result;
        otherwise any zero-sum integer scores are taken as given (an arbiter's decision), the
        seats with a positive score winning. Raises :class:`IllegalAction` for anything else."""
        parts = text.split() if isinstance(text, str) else []
        if len(parts) != SEATS or not all(re.fullmatch(r"[+-]?\d+", p) for p in parts):
            raise IllegalAction(f"a doudizhu result is three signed integers such as '-2 +1 +1', "
                                f"not {text!r}",
                                code="doudizhu.doudizhu_result_three_signed", params={"text": text})
        returns = tuple(int(p) for p in parts)
        if sum(returns) != 0:
            raise IllegalAction(f"the scores of a deal sum to zero: {text!r}",
                                code="doudizhu.scores_deal_sum_zero", params={"text": text})
        for seat in range(SEATS):
            if self._forfeit_returns(seat)[0] == returns:
                return self._loss_result(seat, reason)
        self.phase = "over"
        winners = tuple(s for s in range(SEATS) if returns[s] > 0)
        return Result(returns, reason, _returns_text(returns), winners, {"landlord": self.landlord})

    # ----- the cards ------------------------------------------------------------------------
    # The rules read only the packed rank counts (``codes``). Which cards of a rank a play takes
    # is fixed (the lowest card ids first), so the cards held and the cards of each play are
    # read from the deal and the counts when asked, never booked action by action.
    def _all_cards(self, seat: int) -> list[list[Card]]:
        """Every card ``seat`` has held this deal (its 17, and the kitty for the landlord), by
        rank, each rank's cards in card-id order."""
        per = self._cards[seat]
        if per is None:
            per = [[] for _ in range(NRANKS)]
            cards = self._dealt[seat] + self.kitty if seat == self.landlord else self._dealt[seat]
            for c in sorted(cards, key=_PLACE.__getitem__):
                per[_RANK[c]].append(c)
            self._cards[seat] = per
        return per

    @property
    def hands(self) -> list[list[list[Card]]]:
        """The cards each seat holds, by rank (a new list each time): of each rank the highest
        card ids, as many as the seat's count (plays take the lowest first)."""
        out = []
        for seat, code in enumerate(self.codes):
            per = self._all_cards(seat)
            out.append([cards[len(cards) - PACKER.count(code, r):] for r, cards in enumerate(per)])
        return out

    @property
    def play_cards(self) -> list[list[Card]]:
        """The cards of each play of this deal, in order (one list per play in ``play_log``):
        of each rank played, the lowest card ids the seat still held. Read from the play log
        as far as it has grown since the last call."""
        done = self._played_cards
        log = self.play_log
        if self._played_read < len(log):
            taken = self._played_taken          # cards of each rank each seat has played so far
            for seat, action in log[self._played_read:]:
                if action is PASS:
                    continue
                per, held = self._all_cards(seat), taken[seat]
                cards: list[Card] = []
                for r, n in action.parts:
                    k = held[r]
                    cards += per[r][k:k + n]
                    held[r] = k + n
                done.append(cards)
            self._played_read = len(log)
        return done

    # ----- views and copies ------------------------------------------------------------------
    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds, in card-id order."""
        return [c for per in self.hands[seat] for c in per]

    def hand_ranks(self, seat: int) -> str:
        return _ranks_text(self.codes[seat])

    def view(self, seat: Any) -> dict[str, Any]:
        """What ``seat`` may see (None = spectator): own hand, every seat's card count, the bids,
        the kitty once the landlord is fixed, the face-up card (seed002), and every play and pass
        of this deal, a play's cards shown by the table's labels of its ranks
        (:func:`~qipai.cards.playtext.plays_view`), never the cards the referee took. Nothing of
        another seat's hand until the deal is over; then ``remaining``, every seat's cards left
        (as card tables show them at the end). Raises
        :class:`IllegalAction` for a seat that is not 0, 1, 2 or None."""
        return self._view(seat, bids_view(self.bid_log), plays_view(self.play_log, self.play_cards))

    def view_delta(self, seat: Any, since: Any = None) -> ViewDelta:
        """The view as a change (:mod:`qipai.core.viewdelta`): ``bids`` and ``plays`` grow
        through a deal; a redeal starts them again. The seat's ``hand`` and ``hand_ranks``
        change only when it plays or takes the kitty."""
        kept = None
        if type(seat) is int and 0 <= seat < SEATS:
            kept = ((self.plays_made[seat], self.landlord), partial(self._hand_view, seat))
        return plays_delta(self, seat, since, len(self.deal), self._view, self.play_log,
                           self.play_cards, self.bid_log, kept)

    def seen_climb(self, seat: int, since: Any = None) -> ClimbSeen:
        """What ``view(seat)`` shows that the research tensor reads, without building the view
        (:class:`~qipai.cards.playtext.ClimbSeen`): the seat's hand ranks, every seat's card
        count, the bids, the roles, the scores' numbers, the kitty once it is turned, the play
        to beat, and the plays since ``since`` (a redeal starts them again)."""
        keys = {"phase": self.phase, "hand_ranks": _ranks_text(self.codes[seat]),
                "counts": list(map(_card_count, self.codes)), "first_bidder": self.first_bidder,
                "redeals": self.redeals, "bids": bids_view(self.bid_log), "landlord": self.landlord,
                "base": self.base, "bombs": self.bombs,
                "kitty": [c.id for c in self.kitty] if self.landlord is not None else None,
                "top": self._top_view()}
        mark = (len(self.deal), len(self.play_log), len(self.play_cards))
        return log_seen(keys, since, mark, self.play_log, self.play_cards)

    def _top_view(self) -> dict[str, Any] | None:
        return None if self.top is None else {"seat": self.top_seat, "play": self.top.text,
                                              "type": self.top.type}

    def _hand_view(self, seat: int | None) -> dict[str, Any]:
        return {"hand": [c.id for c in self.hand(seat)] if seat is not None else None,
                "hand_ranks": self.hand_ranks(seat) if seat is not None else None}

    def _view(self, seat: Any, bids: list | None, plays: list | None) -> dict[str, Any]:
        """The view with ``bids`` and ``plays`` as given; without them (``None``), no
        ``hand`` and ``hand_ranks`` either (see :meth:`view_delta`)."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < SEATS):
            raise IllegalAction(f"no seat {seat!r} (seats are 0, 1, 2; None for a spectator)",
                                code="doudizhu.no_seat_seats_none", params={"seat": seat})
        counts = list(map(_card_count, self.codes))
        out: dict[str, Any] = {
            "game": "doudizhu", "seat": seat, "phase": self.phase, "to_act": list(self.to_act),
            "hand": None, "hand_ranks": None,
            "counts": counts, "first_bidder": self.first_bidder, "redeals": self.redeals,
            "forced": self.forced,
            "bids": bids,
            "landlord": self.landlord, "base": self.base, "bombs": self.bombs,
            "kitty": [c.id for c in self.kitty] if self.landlord is not None else None,
            "plays": plays,
            "top": self._top_view(),
            "result": self.result.to_json() if self.result is not None else None,
        }
        if self.face_up is not None:
            out["face_up"] = {"card": self.face_up.id, "seat": self.first_bidder}
        if self.result is not None:       # the deal is over: every seat's cards left are shown
            out["remaining"] = [[c.id for c in self.hand(s)] for s in range(SEATS)]
        if plays is None:
            del out["hand"], out["hand_ranks"]
        else:
            out.update(self._hand_view(seat))
        return out

    def deal_hands(self) -> list[list[Card]]:
        """The hands of the current deal as dealt (17 each)."""
        return [[parse_card(c) for c in h] for h in self.deal[-1]["hands"]]

    def clone(self) -> DoudizhuState:
        new = copy.copy(self)                       # every attribute, then the lists apart
        new.codes = list(self.codes)
        new._cards = list(self._cards)             # each seat's sorted cards are never changed
        new.log = list(self.log)
        new.bid_log = list(self.bid_log)
        new.play_log = list(self.play_log)
        new._played_cards = list(self._played_cards)
        new._played_taken = [list(t) for t in self._played_taken]
        new.plays_made = list(self.plays_made)
        new.deal = list(self.deal)
        new._rng = DealRng(self._rng.seed, self._rng.counter)
        return new


#: the number of cards of a packed hand (every view's ``counts``), kept for the hands met
_card_count = lru_cache(maxsize=65536)(PACKER.total)


@lru_cache(maxsize=4096)
def _ranks_text(code: int) -> str:
    """The rank string of a packed hand (``hand_ranks`` of the view)."""
    return ORDER.format_counts(PACKER.counts(code))


def _norm(d: Any) -> Any:
    if not isinstance(d, dict):
        return d
    out = {"hands": [sorted(h) for h in d.get("hands", [])], "kitty": sorted(d.get("kitty", []))}
    for k in ("first_bidder", "face_up"):
        if d.get(k) is not None:
            out[k] = d[k]
    return out


def _returns_text(returns: tuple[int, ...]) -> str:
    return " ".join(f"{r:+d}" if r else "0" for r in returns)


def _why_not_beats(play: Play, top: Play) -> str:
    if top.type == "rocket":
        return Message("nothing beats the rocket; you must pass", code="doudizhu.nothing_beats_rocket_must")
    if top.type == "bomb":
        return Message(f"only a higher bomb or the rocket beats the bomb {top.text}",
                       code="doudizhu.only_higher_bomb_rocket", params={"text": top.text})
    if play.type == top.type and play.length != top.length and play.type in ("plane_solo", "plane_pair"):
        return Message(f"kicker count does not match airplane length: {top.text} has {top.length} "
                       f"trios, {play.text} has {play.length}",
                       code="doudizhu.kicker_count_does_not_3",
                       params={"text": top.text, "length": top.length, "text2": play.text,
                               "length2": play.length})
    return why_not_higher("doudizhu", play, top, answer="play a {type}, a bomb or the rocket")


def parse_action(game: Doudizhu, text: Any, state: Any = None) -> Any:
    if not isinstance(text, str):
        raise IllegalAction("an action is written as text", text, code="doudizhu.action_written_text")
    t = text.strip()
    low = t.lower()
    if low in ("pass", "p", "不出", "不叫", "不要", "过"):
        return PASS
    if low in ("call", "叫", "叫地主"):
        return CALL
    parts = low.split()
    if parts and parts[0] == "bid":
        if len(parts) == 2 and parts[1] in ("1", "2", "3"):
            return BIDS[int(parts[1])]
        raise IllegalAction("a bid is 'bid 1', 'bid 2' or 'bid 3'", text, code="doudizhu.bid_bid_bid_bid")
    if state is not None and getattr(state, "phase", None) == "bidding" and low in ("1", "2", "3"):
        return BIDS[int(low)]
    want_type = None
    body = t
    if ":" in t:
        want_type, body = (x.strip() for x in t.split(":", 1))
        if want_type not in TYPES:
            raise IllegalAction(f"unknown combination type {want_type!r}; types: {', '.join(TYPES)}", text,
                                code="doudizhu.unknown_combination_type_types",
                                params={"want_type": want_type, "TYPES": ', '.join(TYPES)})
    if not body:
        raise IllegalAction("no cards given", text, code="doudizhu.no_cards_given")
    counts = [0] * NRANKS
    named: list[Card] = []
    for tok in body.replace(",", " ").split():
        if len(tok) >= 2 and is_card_code(tok) and not tok.replace("+", "").isdecimal():
            card = parse_card(tok)
            if card.deck != 0:
                raise IllegalAction(f"doudizhu uses one pack: {card.id} does not exist", text,
                                    code="doudizhu.doudizhu_uses_pack_does", params={"id": card.id})
            named.append(card)
            counts[ORDER.index[card.rank]] += 1
            continue
        try:
            for i, c in enumerate(ORDER.parse_counts(tok)):
                counts[i] += c
        except ValueError as e:
            raise IllegalAction(f"cannot read {tok!r}: {e}", text,
                                code="doudizhu.cannot_read",
                                params={"tok": tok, **why(e, "unreadable")}) from None
    if len({c.id for c in named}) != len(named):
        raise IllegalAction("the same card is named twice", text, code="doudizhu.same_card_named_twice")
    if state is not None and named:
        seat = state.current_player
        held = {c.id for c in state.hand(seat)} if seat is not None else set()
        missing = [c.id for c in named if c.id not in held]
        if missing:
            raise IllegalAction(f"not in your hand: {' '.join(missing)}", text,
                                code="doudizhu.not_hand", params={"missing": ' '.join(missing)})
    if state is not None and getattr(state, "phase", None) == "bidding":
        raise IllegalAction("bidding is not over: bid, call or pass", text,
                            code="doudizhu.bidding_not_over_bid")
    readings = game.table.readings(counts)
    if not readings:
        raise IllegalAction(explain_no_reading(counts, game.rules), text)
    if want_type is not None:
        chosen = [p for p in readings if p.type == want_type]
        if not chosen:
            kinds = ", ".join(p.type for p in readings)
            raise IllegalAction(f"these cards are not a {want_type} (they read as {kinds})", text,
                                code="doudizhu.these_cards_not_they",
                                params={"want_type": want_type, "kinds": kinds})
        return chosen[0]
    if len(readings) > 1:
        opts = " or ".join(p.text for p in readings)
        raise IllegalAction(f"ambiguous under these options: write {opts}", text,
                            code="doudizhu.ambiguous_under_these_options", params={"opts": opts})
    return readings[0]
