"""4A4 / 四幺四 (fouafour): deal, play with 叉/勾, and the team outcome, as ``rules/fouafour.md``.

Four seats in two fixed teams: seats 0 and 2 against 1 and 3 (partners sit opposite). One
:class:`FouafourState` is one deal. Actions and their canonical text:

* :data:`PASS` — ``pass``: a follower passes, or a seat declines a 叉/勾 window;
* a play (:class:`~.combos.Play`) — its rank string, lowest rank first: ``7``, ``55``, ``345``,
  ``334455``, ``888``, ``2222``, ``LB`` (the joker bomb), ``44A``. Input may also be card codes
  (``7S 7H``, ``LJ BJ``);
* a claim (:class:`~.combos.Claim`) — ``cha 77`` (叉) or ``gou 7`` (勾), out of turn, only in the
  window that follows a single or a 叉 (§3.4). In a window the bare cards (``77``, ``7``) are
  read as the claim.

叉/勾 windows: after every single of a rank ``3``..``2`` every other seat still holding cards is
to act at once (``to_act`` lists them all, so nobody learns who could answer); each answers
``pass`` or, if it holds two cards of that rank, ``cha``. After a 叉 every seat still holding
cards but the 叉 player answers ``pass`` or, holding the fourth card, ``gou``.

Match play (best of three deals and the extra deals) is :mod:`qipai.games.fouafour.match`.
"""

from __future__ import annotations

from typing import Any

from qipai.cards import Card, make_deck, parse_card
from qipai.cards.beats import why_not_higher
from qipai.cards.hand import RankHand
from qipai.cards.playtext import ClimbSeen, log_seen, plays_delta, plays_view, read_counts
from qipai.cards.tokens import word
from qipai.core.errors import IllegalAction, Message, NotationError, why, why_cause
from qipai.core.game import Game, Result, State
from qipai.core.options import Option
from qipai.core.registry import register
from qipai.core.rng import DealRng
from qipai.core.viewdelta import ViewDelta

from .combos import OF_A_KIND, ORDER, SMALL, Claim, Play, claim, explain, leads, play_of

SEATS = 4
DECK: tuple[Card, ...] = tuple(make_deck(1, jokers=True))
_DECK_IDS = sorted(c.id for c in DECK)
FIRST_LEAD_CARD = parse_card("3H")
PASS = word("pass")
TEAM_TEXT = {0: "1-0", 1: "0-1", None: "1/2-1/2"}


def team_of(seat: int) -> int:
    """Team index of ``seat``: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return seat % 2


def partner(seat: int) -> int:
    return (seat + 2) % SEATS


@register
class Fouafour(Game):
    """4A4 for four seats in two teams; the only option is the sudden-death deal of §5."""

    id = "fouafour"
    seats = (4,)
    hidden_information = True
    option_spec = (
        Option("first_out_wins", False, kind=bool,
               doc="§5: the deal ends when the first player goes out and that player's team wins "
                   "(the second extra deal of a match; competition.md extra_variant)"),
    )

    def new_state(self, *, seed: int | str | None = None, deal: Any = None,
                  position: str | None = None, num_seats: int | None = None) -> FouafourState:
        """One deal. ``seed`` alone: the dealer is drawn and the cards shuffled with
        :class:`~qipai.core.rng.DealRng` (see :func:`draw_deal`). ``deal`` is either
        ``{"dealer": d}`` with a seed (the match layer's rotating dealer, §2.2), or a whole deal
        ``{"dealer": d, "hands": [4 lists of card ids]}`` (with a seed it must be the seed's).
        Raises :class:`NotationError` on a bad deal, a position or a seat count other than 4."""
        if position is not None:
            raise NotationError("fouafour has no position notation; give a seed or a deal", "position",
                                code="notation.no_position")
        if num_seats not in (None, SEATS):
            raise NotationError("fouafour is played by exactly 4 seats", "num_seats",
                                code="game.seats", params={"seats": 4})
        if seed is None and (deal is None or not isinstance(deal, dict) or "hands" not in deal):
            from qipai.core.rng import new_seed
            seed = new_seed()
        return FouafourState(self, seed=seed, deal=deal)

    def parse_action(self, text: str, state: State | None = None) -> Any:
        """Read ``pass`` (also 不出, 不要, 过), ``cha 77`` / ``叉 77``, ``gou 7`` / ``勾 7``, or a
        play as a rank string (``345``, ``LB``, ``44A``; ``10`` = ``T``) or card codes (``7S 7H``,
        ``LJ BJ``). In a 叉 (勾) window, two cards (one card) of the window's rank are read as
        the claim. Raises :class:`IllegalAction` naming what is wrong."""
        return parse_action(text, state)


def draw_deal(seed: int | str, dealer: int | None = None) -> dict[str, Any]:
    """§2.2: ``DealRng(seed)`` first draws a dealer (``below(4)``; ``dealer`` overrides the
    draw, the draw is made anyway), then shuffles the 54 cards; card ``i`` goes to seat
    ``(dealer + 1 + i) mod 4``, so seats ``dealer+1`` and ``dealer+2`` hold 14, the others 13."""
    rng = DealRng(seed)
    drawn = rng.below(SEATS)
    d = drawn if dealer is None else dealer
    cards = rng.shuffle(list(DECK))
    hands: list[list[str]] = [[] for _ in range(SEATS)]
    for i, c in enumerate(cards):
        hands[(d + 1 + i) % SEATS].append(c.id)
    return {"dealer": d, "hands": hands}


def hand_sizes(dealer: int) -> list[int]:
    """Cards per seat when ``dealer`` deals: 14 for the two seats after the dealer, else 13."""
    return [14 if (s - dealer) % SEATS in (1, 2) else 13 for s in range(SEATS)]


def check_deal(data: Any) -> tuple[int, list[list[Card]]]:
    """Validate a whole deal; returns ``(dealer, hands)``. Raises :class:`NotationError`."""
    if not isinstance(data, dict) or not isinstance(data.get("hands"), list):
        raise NotationError("a deal is an object with 'dealer' (0-3) and 'hands' (4 lists of card ids)",
                            "deal",
                            code="notation.deal_shape")
    dealer = data.get("dealer")
    if type(dealer) is not int or not 0 <= dealer < SEATS:
        raise NotationError("'dealer' must be a seat 0-3", "deal",
                            code="notation.deal_seat", params={"key": "dealer", "max": 3})
    try:
        hands = [[parse_card(c) for c in h] for h in data["hands"]]
    except (ValueError, TypeError, AttributeError) as e:
        raise NotationError(str(e), "deal",
                            code="notation.deal_unreadable", params=why_cause(e, "unreadable")) from None
    if [len(h) for h in hands] != hand_sizes(dealer):
        raise NotationError(f"with dealer {dealer} the hands hold {hand_sizes(dealer)} cards (§2.2)", "deal",
                            code="notation.deal_cards")
    if sorted(c.id for h in hands for c in h) != _DECK_IDS:
        raise NotationError("the deal is not one 54-card pack with both jokers (deck index 0)", "deal",
                            code="notation.deal_cards")
    return dealer, hands


class FouafourState(State):
    """One deal of 4A4. Phases ``play``, ``cha`` and ``gou`` (the windows of §3.4), ``over``.

    Public attributes (read-only by convention): ``hands`` (one
    :class:`~qipai.cards.hand.RankHand` per seat), ``dealer``, ``first_leader`` (the 3H holder),
    ``finished`` (seats in the order they went out), ``play_log`` (``(seat, action)`` for every
    play, pass, 叉 and 勾; window declines are not in it), ``top``/``top_seat`` (the play to beat;
    ``None`` on a lead), ``window`` (``None`` or the open 叉/勾 window).
    """

    def __init__(self, game: Fouafour, *, seed: Any = None, deal: Any = None) -> None:
        super().__init__(game, seed=seed, deal=None, num_seats=SEATS)
        self.first_out_wins = game.options["first_out_wins"]
        if isinstance(deal, dict) and "hands" in deal:
            dealer, hands = check_deal(deal)
            if seed is not None and _norm(draw_deal(seed, dealer)) != _norm(deal):
                raise NotationError("the deal does not match the seed", "deal",
                                    code="notation.deal_seed")
        else:
            given = None
            if deal is not None:
                given = deal.get("dealer") if isinstance(deal, dict) else deal
                if type(given) is not int or not 0 <= given < SEATS or \
                        (isinstance(deal, dict) and set(deal) != {"dealer"}):
                    raise NotationError("a partial deal is {'dealer': 0-3}", "deal",
                                        code="notation.deal_shape")
            dealer, hands = check_deal(draw_deal(seed, given))
        self.deal = {"dealer": dealer, "hands": [[c.id for c in h] for h in hands]}
        self.dealer = dealer
        self.hands = [RankHand(ORDER, h) for h in hands]
        self.first_leader = next(s for s in range(SEATS) if FIRST_LEAD_CARD in hands[s])
        self.turn = self.first_leader
        self.finished: list[int] = []
        self.play_log: list[tuple[int, Any]] = []
        self.play_cards: list[list[Card]] = []     # the cards of each non-pass entry of play_log
        self.top: Play | Claim | None = None
        self.top_seat: int | None = None
        self.passed: set[int] = set()
        self.window: dict[str, Any] | None = None

    # ----- turn ------------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        if self.result is not None:
            return "over"
        return self.window["kind"] if self.window is not None else "play"

    @property
    def to_act(self) -> tuple[int, ...]:
        if self.result is not None:
            return ()
        if self.window is not None:
            return tuple(self.window["waiting"])
        return (self.turn,)

    def active(self, seat: int) -> bool:
        """True while ``seat`` still holds cards."""
        return len(self.hands[seat]) > 0

    def _next_active(self, seat: int) -> int:
        for k in range(1, SEATS + 1):
            t = (seat + k) % SEATS
            if self.active(t):
                return t
        raise AssertionError("no seat holds cards")     # unreachable: the deal would be over

    def clock_phase(self, seat: int) -> str | None:
        """The clock's phase name (competition.md §4.5 ``card_default``): ``claim`` in a 叉/勾
        window (10 s), ``first_lead`` for the deal's opening play (60 s), else ``None`` (30 s)."""
        if self.window is not None:
            return "claim"
        return "first_lead" if not self.play_log else None

    # ----- actions ---------------------------------------------------------------------------
    def apply(self, action: Any, seat: int | None = None) -> None:
        """As :meth:`State.apply`; an action given as text is read for ``seat``, so card codes
        (``7C 7D``) must be in that seat's hand also in a 叉/勾 window where several seats are
        asked at once (``current_player`` is then ``None``). Raises :class:`IllegalAction`."""
        if isinstance(action, str) and seat is not None and self.result is None \
                and seat in self.to_act:
            action = parse_action(action, self, seat)
        super().apply(action, seat)

    def _legal_actions(self, seat: int) -> list[Any]:
        counts = self.hands[seat].counts
        w = self.window
        if w is not None:
            need = 2 if w["kind"] == "cha" else 1
            return [PASS, claim(w["kind"], w["rank"])] if counts[w["rank"]] >= need else [PASS]
        if self.top is None:
            return leads(counts)
        return [PASS, *(p for p in leads(counts) if p.beats(self._top_play()))]

    def _top_play(self) -> Play:
        top = self.top
        return top.play if isinstance(top, Claim) else top

    def _apply(self, action: Any, seat: int) -> None:
        if self.window is not None:
            return self._apply_window(action, seat)
        if isinstance(action, Claim):
            raise IllegalAction("no 叉/勾 window is open: cha answers a single, gou answers a cha", action,
                                code="fouafour.no_window_open_cha")
        if action is PASS:
            if self.top is None:
                raise IllegalAction("the leader must play (a lead cannot be passed)", action,
                                    code="fouafour.leader_must_play_lead")
            self.play_log.append((seat, PASS))
            self.passed.add(seat)
            if all(s in self.passed for s in range(SEATS) if s != self.top_seat and self.active(s)):
                return self._end_trick(self.top_seat)
            self.turn = self._next_active(seat)
            return None
        if not isinstance(action, Play):
            raise IllegalAction("the actions are a combination of cards or 'pass'", action,
                                code="fouafour.actions_combination_cards_pass")
        if self.top is not None and not action.beats(self._top_play()):
            raise IllegalAction(why_not_beats(action, self._top_play()), action)
        self._take(seat, action)
        self.play_log.append((seat, action))
        self.top, self.top_seat, self.passed = action, seat, set()
        if self._went_out(seat):
            return None
        if action.type == "single" and action.key < SMALL:
            self._open("cha", action.key, seat)
        else:
            self.turn = self._next_active(seat)
        return None

    def _take(self, seat: int, play: Play) -> None:
        hand = self.hands[seat]
        if not hand.holds(play.counts):
            raise IllegalAction(f"those cards are not in your hand (you hold {hand.ranks()})", play,
                                code="fouafour.those_cards_not_hand", params={"hand": hand.ranks()})
        self.play_cards.append(hand.take(play.counts))

    def _open(self, kind: str, rank: int, by: int) -> None:
        """Open a 叉 (``by`` played the single) or 勾 (``by`` played the 叉) window: every other
        seat still holding cards answers."""
        waiting = [s for s in range(SEATS) if s != by and self.active(s)]
        self.window = {"kind": kind, "rank": rank, "by": by, "waiting": waiting}

    def _apply_window(self, action: Any, seat: int) -> None:
        w = self.window
        name = "叉 (cha)" if w["kind"] == "cha" else "勾 (gou)"
        want = claim(w["kind"], w["rank"])
        if action is PASS:
            w["waiting"] = [s for s in w["waiting"] if s != seat]
            if w["waiting"]:
                return None
            self.window = None
            if w["kind"] == "cha":              # nobody 叉'd: the next regular turn
                self.turn = self._next_active(w["by"])
                return None
            return self._end_trick(w["by"])     # nobody 勾'd: the 叉 player wins the trick
        if action is not want:
            if w["kind"] == "gou":
                raise IllegalAction(f"after a 叉 only the 勾 card ('{want.text}') or 'pass'; no bomb "
                                    "or higher pair may be played", action,
                                    code="fouafour.after_only_card_pass", params={"text": want.text})
            raise IllegalAction(f"a {name} window is open: answer '{want.text}' or 'pass'", action,
                                code="fouafour.window_open_answer_pass",
                                params={"name": w["kind"], "text": want.text})
        self._take(seat, want.play)
        self.play_log.append((seat, want))
        self.window = None
        self.top, self.top_seat, self.passed = want, seat, set()
        if self._went_out(seat):
            return None
        if w["kind"] == "cha":
            self._open("gou", w["rank"], seat)
        else:
            self._end_trick(seat)
        return None

    def _end_trick(self, winner: int) -> None:
        """The trick is over; its winner leads, or the partner if the winner has gone out (接风)."""
        self.turn = winner if self.active(winner) else partner(winner)
        self.top, self.top_seat, self.passed, self.window = None, None, set(), None

    def _went_out(self, seat: int) -> bool:
        """Record ``seat`` going out if its hand is empty; end the deal when §4.1 (or
        ``first_out_wins``) says so. True when the deal is over."""
        if self.active(seat):
            return False
        self.finished.append(seat)
        if self.first_out_wins:
            self._finish(team_of(seat), "first_out")
            return True
        if partner(seat) in self.finished:
            first_team = team_of(self.finished[0])
            self._finish(first_team if team_of(seat) == first_team else None, "out")
            return True
        return False

    def _finish(self, team: int | None, reason: str) -> None:
        """§4.2: ``team`` (0 = seats 0+2, 1 = seats 1+3) wins, or ``None`` for a draw."""
        self.window = None
        self.result = self._team_result(team, reason)

    def _team_result(self, team: int | None, reason: str, **extra: Any) -> Result:
        """The deal's result; any open 叉/勾 window is closed (an external ending may come in one)."""
        self.window = None
        if team is None:
            returns, winners = (0.5,) * SEATS, ()
        else:
            returns = tuple(1.0 if team_of(s) == team else 0.0 for s in range(SEATS))
            winners = tuple(s for s in range(SEATS) if team_of(s) == team)
        details = {"outcome": "draw" if team is None else "win", "team": team,
                   "order": list(self.finished), "dealer": self.dealer, "first_leader": self.first_leader,
                   "first_out_wins": self.first_out_wins, "cards_left": [len(h) for h in self.hands],
                   **extra}
        return Result(returns, reason, TEAM_TEXT[team], winners, details)

    # ----- defaults and external endings -----------------------------------------------------
    def turns_private(self) -> bool:
        """§3.4: while a 叉/勾 window is open, who has still to answer is not shown."""
        return self.window is not None

    def default_action(self, seat: int) -> Any:
        """§3.5 D6: in a window, decline; a follower passes; a leader plays its lowest single
        (the lowest card in card-id order). ``None`` when ``seat`` is not to act."""
        if seat not in self.to_act:
            return None
        if self.window is not None or self.top is not None:
            return PASS
        return OF_A_KIND[1][ORDER.rank_of(self.hands[seat].lowest())]

    def sides(self) -> list[tuple[int, ...]]:
        return [(0, 2), (1, 3)]

    def _loss_result(self, seat: int, reason: str) -> Result:
        """A seat that forfeits (resign, timeout, referee) loses the deal for its team."""
        return self._team_result(1 - team_of(seat), reason, offender=seat)

    def _draw_result(self, reason: str) -> Result:
        if self.first_out_wins:
            raise IllegalAction("a first_out_wins deal cannot be drawn: the team that goes out first wins",
                                code="fouafour.first_out_wins_no_draw")
        return self._team_result(None, reason)

    def _result_from_text(self, text: str, reason: str) -> Result:
        """A recorded external ending: ``1-0`` (seats 0 and 2 win), ``0-1`` (seats 1 and 3 win)
        or ``1/2-1/2`` (drawn). Raises :class:`IllegalAction` for anything else."""
        for team, t in TEAM_TEXT.items():
            if text == t:
                return self._draw_result(reason) if team is None else self._team_result(team, reason)
        raise IllegalAction(f"a fouafour result is '1-0', '0-1' or '1/2-1/2', not {text!r}",
                            code="fouafour.fouafour_result_not", params={"text": text})

    # ----- views -----------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None`` = spectator): its own hand, every seat's card count,
        the 3H shown by the first leader, every play, pass, 叉 and 勾 (their cards shown by the
        table's labels of their ranks, :func:`~qipai.cards.playtext.plays_view`), the play to beat, the open
        window's kind and rank (not who could answer), who has gone out. Never another seat's
        cards while the deal goes on; once it is over, ``remaining``: every seat's cards left.
        Raises :class:`IllegalAction` for a seat other than 0-3 or ``None``."""
        return self._view(seat, None, plays_view(self.play_log, self.play_cards))

    def view_delta(self, seat: int | None, since: Any = None) -> ViewDelta:
        """The view as a change (:mod:`qipai.core.viewdelta`): ``plays`` grow
        through the deal (one deal per state)."""
        return plays_delta(self, seat, since, 0, self._view, self.play_log, self.play_cards)

    def _view(self, seat: int | None, bids: list | None, plays: list | None) -> dict[str, Any]:
        if seat is not None and (type(seat) is not int or not 0 <= seat < SEATS):
            raise IllegalAction(f"no seat {seat!r} (seats are 0-3; None for a spectator)",
                                code="fouafour.no_seat_seats_none", params={"seat": seat})
        w = self.window
        to_act = list(self.to_act)
        if w is not None:           # §3.4: only whether this seat itself still has to answer
            to_act = [seat] if seat in to_act else []
        return {
            "game": "fouafour", "seat": seat, "phase": self.phase, "to_act": to_act,
            "hand": [c.id for c in self.hands[seat].cards()] if seat is not None else None,
            "hand_ranks": self.hands[seat].ranks() if seat is not None else None,
            "counts": [len(h) for h in self.hands],
            "teams": [[0, 2], [1, 3]], "dealer": self.dealer,
            "first_leader": self.first_leader, "shown": FIRST_LEAD_CARD.id,
            "finished": list(self.finished),
            "plays": plays,
            "top": self._top_view(),
            "window": None if w is None else {"kind": w["kind"], "rank": ORDER.ranks[w["rank"]],
                                              "by": w["by"]},
            "result": self.result.to_json() if self.result is not None else None,
            # the deal over: every seat's cards left, as doudizhu's and the card rooms' end
            # shows them (the record shows the whole deal then); never before
            **({"remaining": [[c.id for c in h.cards()] for h in self.hands]}
               if self.result is not None else {}),
        }

    def seen_climb(self, seat: int, since: Any = None) -> ClimbSeen:
        """What ``view(seat)`` shows that the research tensor reads, without building the view
        (:class:`~qipai.cards.playtext.ClimbSeen`): the seat's hand ranks, every seat's card
        count, the dealer and the first leader, the card shown, who has gone out, the play to
        beat, and the plays since ``since``."""
        keys = {"phase": self.phase, "hand_ranks": self.hands[seat].ranks(),
                "counts": [len(h) for h in self.hands], "dealer": self.dealer,
                "first_leader": self.first_leader, "shown": FIRST_LEAD_CARD.id,
                "finished": list(self.finished), "top": self._top_view()}
        return log_seen(keys, since, (0, len(self.play_log), len(self.play_cards)), self.play_log,
                        self.play_cards)

    def _top_view(self) -> dict[str, Any] | None:
        return None if self.top is None else {"seat": self.top_seat, "play": str(self.top),
                                              "type": self.top.type}

    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds, in card-id order."""
        return self.hands[seat].cards()

    def clone(self) -> FouafourState:
        new = object.__new__(FouafourState)
        new.__dict__.update(self.__dict__)
        new.hands = [h.copy() for h in self.hands]
        new.log = list(self.log)
        new.finished = list(self.finished)
        new.play_log = list(self.play_log)
        new.play_cards = list(self.play_cards)
        new.passed = set(self.passed)
        if self.window is not None:
            new.window = {**self.window, "waiting": list(self.window["waiting"])}
        return new


def _norm(d: dict) -> dict:
    return {"dealer": d["dealer"], "hands": [sorted(h) for h in d["hands"]]}


def why_not_beats(play: Play, top: Play) -> str:
    if top.type == "fouafour":
        return Message("nothing beats 44A; you must pass", code="fouafour.nothing_beats_must_pass")
    if top.bomb:
        if top.bomb == 3:
            return Message("only 44A beats the joker bomb", code="fouafour.only_beats_joker_bomb")
        return (Message(f"{play.text} does not beat the bomb {top.text}: play a higher bomb of its size "
                "or a bigger bomb class",
                    code="fouafour.does_not_beat_bomb", params={"text": play.text, "text2": top.text}))
    return why_not_higher("fouafour", play, top, answer="play a higher {type} or a bomb", unit="ranks")


def parse_action(text: Any, state: State | None = None, seat: int | None = None) -> Any:
    """See :meth:`Fouafour.parse_action`. Card codes are checked against the hand of ``seat``
    (default: the seat to act, when only one seat is)."""
    if not isinstance(text, str):
        raise IllegalAction("an action is written as text", text, code="fouafour.action_written_text")
    t = text.strip()
    low = t.lower()
    if low in ("pass", "p", "不出", "不要", "过"):
        return PASS
    kind = None
    for k, words in (("cha", ("cha", "叉")), ("gou", ("gou", "勾"))):
        for w in words:
            if low.startswith(w):
                kind, t = k, t[len(w):].strip()
                break
        if kind:
            break
    if not t:
        raise IllegalAction("no cards given", text, code="fouafour.no_cards_given")
    if seat is None and state is not None:
        seat = state.current_player
    try:
        counts = read_counts(t, ORDER, state.hands[seat] if state is not None and seat is not None else None)
    except ValueError as e:
        raise IllegalAction(str(e), text, code="bad_notation",
                                params={"text": text, **why(e, "unreadable")}) from None
    window = getattr(state, "window", None)
    ranks = [r for r, c in enumerate(counts) if c]
    if kind is not None:
        need = 2 if kind == "cha" else 1
        if len(ranks) != 1 or counts[ranks[0]] != need or ranks[0] >= SMALL:
            raise IllegalAction(f"'{kind}' takes {need} card(s) of one rank 3-2, e.g. "
                                f"'{'cha 77' if kind == 'cha' else 'gou 7'}'", text,
                                code="fouafour.takes_card_rank_e",
                                params={"kind": kind,
                                        "need": need,
                                        "what": 'cha 77' if kind == 'cha' else 'gou 7'})
        return claim(kind, ranks[0])
    if window is not None and ranks == [window["rank"]] and \
            counts[ranks[0]] == (2 if window["kind"] == "cha" else 1):
        return claim(window["kind"], window["rank"])
    play = play_of(counts)
    if play is None:
        raise IllegalAction(explain(counts), text)
    return play
