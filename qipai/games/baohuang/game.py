"""保皇 (baohuang) for five seats: deal, tribute, emperor selection, guard declaration, play and
scoring, as specified in ``rules/baohuang.md`` Part A.

One :class:`BaohuangState` is one deal (including the redeals after a void selection, §2.6).
Phases: ``select`` (candidates accept or decline the package), ``declare`` (the emperor names
the guard card), ``play``, ``over``. Seats are 0..4; play goes ``s -> s+1``, the package goes
``s -> s-1`` (§2.1).

A deal starts from a ``seed`` (shuffled with :class:`~qipai.core.rng.DealRng`) or an explicit
``deal`` object (:func:`check_deal`). The tribute owed from the previous deal of a match is given
as ``deal={"previous": <Result.details["tribute_basis"] of that deal>}`` (with a seed), or as the
``previous`` key of an explicit deal.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from qipai.cards import Card, parse_card, shown, shown_ids, table_ids, table_seen
from qipai.cards.playtext import ClimbSeen
from qipai.core.errors import IllegalAction, Message, NotationError, why, why_cause, why_inner
from qipai.core.game import Game, Result, State
from qipai.core.options import Option
from qipai.core.registry import register
from qipai.core.rng import DealRng, commitment, new_seed
from qipai.core.viewdelta import ViewDelta, continues, growing_delta

from . import shandong
from . import tribute as trib
from .actions import ACCEPT, JIEFENG, PASS, Accept, CardPlay, Declare, Decline, Pass, parse
from .selection import SEATS, TWO, Selection, check_deal, reserved
from .sets import NORMAL, NRANKS, ORDER, Play, answers, leads, play, why_not
from .shandong_match import ShandongMatchState

PLACE_POINTS = (4, 2, 0, -2, -4)        # §4.1
PLACE_NAMES = ("头科", "二科", "第三", "二落", "大落")


@register
class Baohuang(Game):
    """保皇 (Part A of the rule file). Options are §4.5's variants, and ``ruleset``: ``seed000``
    (Part A, the default) or ``sdbh.provisional``, the experimental 山东保皇 of Part B §B4 for four
    seats (:mod:`.shandong`; Part A's options do not apply to it)."""

    id = "baohuang"
    seats = (SEATS, 4)
    hidden_information = True
    option_spec = (
        Option("ruleset", "seed000", choices=("seed000", "sdbh.provisional"),
               marks=(("sdbh.provisional", "experimental"),),
               doc="seed000 = 保皇 of seed 000 (Part A); sdbh.provisional = 山东保皇, Part B §B4's "
                   "provisional completion for 4 seats: experimental, not for competition"),
        Option("reserved_joker", "BJ0", choices=("BJ0", "BJ1", "BJ2", "BJ3"),
               doc="§2.2 D1: the big joker held back and given to the emperor with the package"),
        Option("early_finish", False, kind=bool,
               doc="§3.5: end the deal as soon as every player still holding cards is on one side"),
        Option("individual_scoring", "weighted", choices=("weighted", "team"),
               doc="§4.3 D9: weighted shares 2:1:1 (4:1 in 独, doubled in 明独), or each player "
                   "gets his side's score"),
        Option("max_redeals", 3, kind=int, minimum=0,
               doc="§2.6 void deals after which the first candidate, holding a qualifying triple on "
                   "its final decision, must accept (without one the deal is void as §2.6 says and "
                   "the next deal goes the same way), so that default actions always finish a deal"),
        Option("time_limit_min", 90, kind=int, minimum=1,
               doc="§5 D11: match length in minutes (used by the match layer)"),
        Option("deals_per_match", None, kind=int, minimum=1, nullable=True,
               doc="§5: a fixed number of completed deals instead of the time limit; with "
                   "sdbh.provisional, a state is a match of that many deals (§B4: 10), else one deal"),
    )

    def new_state(self, *, seed: int | str | None = None, deal: Any = None,
                  position: str | None = None, num_seats: int | None = None) -> BaohuangState:
        """A deal from ``seed`` or from an explicit ``deal`` (see :func:`check_deal`); ``deal``
        may also be ``{"previous": basis}`` alone, next to a seed, for the tribute. Raises
        :class:`NotationError` for a bad deal, a position, or a seat count other than 5."""
        if position is not None:
            raise NotationError("baohuang has no position notation; give a seed or a deal", "position",
                                code="notation.no_position")
        if self.options["ruleset"] == shandong.RULESET:
            if num_seats not in (None, shandong.SEATS):
                raise NotationError("山东保皇 (sdbh.provisional) is played by exactly 4 seats", "num_seats",
                                    code="game.seats", params={"seats": 4})
            if seed is None and deal is None:
                seed = new_seed()
            if self.options["deals_per_match"] is not None:
                return ShandongMatchState(self, seed=seed, deal=deal)
            return shandong.ShandongState(self, seed=seed, deal=deal)
        if num_seats not in (None, SEATS):
            raise NotationError("baohuang is played by exactly 5 seats", "num_seats",
                                code="game.seats", params={"seats": 5})
        if seed is None and not (isinstance(deal, dict) and "hands" in deal):
            seed = new_seed()
        return BaohuangState(self, seed=seed, deal=deal)

    def parse_action(self, text: str, state: State | None = None) -> Any:
        """Read an action (see :mod:`qipai.games.baohuang.actions`; 山东保皇:
        :func:`.shandong.parse`). Raises IllegalAction."""
        if self.options["ruleset"] == shandong.RULESET:
            if isinstance(state, ShandongMatchState):
                state = state.playing
            live = isinstance(state, shandong.ShandongState) and state.to_act
            hand = state.hands[state.turn] if live else None
            return shandong.parse(text, hand)
        return parse(text)

    @classmethod
    def seats_by_option(cls) -> dict[str, dict[Any, tuple[int, ...]]]:
        return {"ruleset": {"seed000": (SEATS,), shandong.RULESET: (shandong.SEATS,)}}


class BaohuangState(Selection, State):
    """One deal of 保皇. Read-only attributes: ``phase``, ``c0``, ``candidate``, ``package``
    (cards), ``emperor``, ``named`` (face code), ``revealed`` (cards), ``mode`` (``normal``,
    ``hidden_du``, ``ming_du`` once declared), ``turn``, ``top`` / ``top_seat`` (the set to beat,
    ``None`` on a lead), ``finished`` (seats in finishing order), ``plays`` (``(seat, text,
    card ids)`` of every play and pass), ``tribute`` (``(giver, receiver, card)`` of this deal),
    ``voids`` (void selections so far), ``forced_accept`` (c0 must accept now, the redeal cap),
    ``forced`` (the emperor was made by the cap). The guard is in ``guard`` (hidden from views)."""

    def __init__(self, game: Baohuang, *, seed: Any = None, deal: Any = None) -> None:
        super().__init__(game, seed=seed, deal=deal, num_seats=SEATS)
        self._reserve = reserved(game)
        explicit = isinstance(deal, dict) and "hands" in deal
        if deal is not None and not isinstance(deal, dict):
            raise NotationError("a deal is an object (hands, c0, previous, redeals)", "deal",
                                code="notation.deal_shape")
        if explicit and seed is not None:
            raise NotationError("give a seed or the hands of a deal, not both", "deal",
                                code="notation.seed_and_deal")
        basis = deal.get("previous") if isinstance(deal, dict) else None
        try:
            self.basis = trib.check_basis(basis, PLACE_POINTS) if basis is not None else None
        except ValueError as e:
            raise NotationError(str(e), "deal.previous",
                                code="notation.deal_unreadable", params=why_cause(e, "unreadable")) from None
        self._given: list[Any] = []
        if explicit:
            redeals = deal.get("redeals", [])
            if not isinstance(redeals, list):
                raise NotationError("'redeals' is a list of deals", "deal",
                                    code="notation.deal_shape")
            self._given = [deal, *redeals]
            for i, d in enumerate(self._given):
                try:
                    check_deal(d, self._reserve)
                except NotationError as e:
                    raise NotationError(f"deal {i + 1}: {str(e).removeprefix('deal: ')}", "deal",
                                        code="notation.deal_number",
                                        params=why_inner(e, "unreadable", deal=i + 1)) from None
            self._rng = DealRng("redeal:" + commitment(json.dumps(deal, sort_keys=True)))
        else:
            self._rng = DealRng(seed)
        self.voids = 0
        self.forced = False
        self.dealt: list[dict[str, Any]] = []
        self._start_deal()

    # ----- contract hooks -----------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.result is not None else (self.turn,)

    def legal_actions(self, seat: int | None = None) -> list[Any]:
        if seat is None and self.result is None:
            return self._legal_actions(self.turn)
        return super().legal_actions(seat)

    def _legal_actions(self, seat: int) -> list[Any]:
        if self.phase == "select":
            if not self.triples(seat):                 # §2.4 step 2: the decline is forced
                return [self._default_decline(seat)]
            return [ACCEPT] if self.forced_accept else [ACCEPT, self._default_decline(seat)]
        if self.phase == "declare":
            out: list[Any] = []
            for face, cards in sorted(self.triples(seat).items(), key=lambda x: ORDER.card_key(x[1][0])):
                # written with the labels the seat's hand shows (shown_ids), never its own ids
                out.append(Declare(face, tuple(shown(c, i) for i, c in enumerate(cards[:3]))))
                if len(cards) == 4:
                    out.append(Declare(face, tuple(shown(c, i) for i, c in enumerate(cards))))
            return out
        if self.top is None:
            return leads(self.counts[seat])
        return [JIEFENG if seat == self._jiefeng else PASS, *answers(self.counts[seat], self.top)]

    def apply(self, action: Any, seat: int | None = None) -> None:
        """Apply ``action`` (object or text) for ``seat`` (default: the seat to act). Raises
        :class:`IllegalAction` with the reason, changing nothing, when the deal is over, it is not
        that seat's turn, the text does not parse or the action breaks a rule. The log keeps
        the canonical text with every default resolved (``decline 2H3``, ``pass jiefeng``)."""
        if self.result is not None:
            raise IllegalAction(f"the deal is over ({self.result.reason})", action,
                                code="baohuang.deal_over", params={"reason": self.result.reason})
        seat = self._seat(seat)
        if seat != self.turn:
            raise IllegalAction(f"seat {seat} is not to act (to act: {self.turn})", action,
                                code="baohuang.seat_not_act_act", params={"seat": seat, "turn": self.turn})
        action = parse(action) if isinstance(action, str) else _canonical(action)
        text = self._apply(action, seat)
        self.log.append(text)

    def _apply(self, action: Any, seat: int) -> str:
        if self.phase == "select":
            return self._apply_select(action, seat)
        if self.phase == "declare":
            return self._apply_declare(action, seat)
        if isinstance(action, Pass):
            return self._apply_pass(action, seat)
        if isinstance(action, Play):
            p, cards = action, self._take_plan(seat, action, (), ())
        elif isinstance(action, CardPlay):
            p, cards = action.set, self._take_plan(seat, action.set, action.cards, action.faces)
        else:
            raise IllegalAction("during play the actions are a set of cards or 'pass'", action,
                                code="baohuang.during_play_actions_set")
        if self.top is not None and not p.beats(self.top):
            raise IllegalAction(why_not(p, self.top), action)
        self._play(seat, p, cards)
        return p.text if isinstance(action, Play) else " ".join(c.id for c in cards)

    def _apply_select(self, action: Any, seat: int) -> str:
        if isinstance(action, Accept):
            if not self.triples(seat):
                raise IllegalAction("you hold no qualifying triple (three identical cards of rank "
                                    "3..A), so you cannot be emperor", action,
                                    code="baohuang.hold_no_qualifying_triple")
            self._accept(seat)
            return "accept"
        if not isinstance(action, Decline):
            raise IllegalAction("the candidate accepts or declines the package", action,
                                code="baohuang.candidate_accepts_declines_package")
        if self.forced_accept:
            raise IllegalAction(f"after {self.voids} void deals the first candidate holding a "
                                "qualifying triple must accept", action,
                                code="baohuang.must_accept_after_redeals", params={"voids": self.voids})
        two = action.card
        if self._owes_two(seat):
            if two is None:
                two = self.hands[seat][TWO][0]
            else:       # a card id is read as its face: the copies are identical (lowest first)
                held = next((c for c in self.hands[seat][TWO] if c.face == two.face), None)
                if held is None:
                    raise IllegalAction(f"{two.face} is not in your hand", action,
                                        code="baohuang.not_hand_2", params={"id": two.face})
                two = held
        elif two is not None:
            why = (Message("the first candidate's first decline adds no 2 (D3)",
                           code="baohuang.first_candidate_first_decline") if seat == self.c0
                   else Message("you hold no 2", code="baohuang.hold_no"))
            raise IllegalAction(why, action)
        text = Decline(two).text
        self._decline(seat, two)
        return text

    def _apply_declare(self, action: Any, seat: int) -> str:
        if not isinstance(action, Declare):
            raise IllegalAction("the emperor must now name the guard card: declare 7H0 7H2 7H3", action,
                                code="baohuang.emperor_must_now_name")
        if len(action.face) != 2 or action.face[0] not in "3456789TJQKA" or action.face[1] not in "SHDC":
            raise IllegalAction("the named card is a rank 3..A with a suit (never a 2 or a joker)", action,
                                code="baohuang.named_card_rank_suit")
        held = [c for c in self.hands[seat][ORDER.index[action.face[0]]] if c.face == action.face]
        if action.cards:
            # card ids are read as their face (the copies are identical): the lowest held copies
            missing = [c.id for c in action.cards[len(held):]]
            if missing:
                raise IllegalAction(f"not in your hand: {' '.join(missing)}", action,
                                    code="baohuang.not_hand", params={"missing": ' '.join(missing)})
            cards = held[:len(action.cards)]
        else:
            if len(held) < action.count:
                raise IllegalAction(f"you hold {len(held)} copies of {action.face}; {action.count} must "
                                    f"be revealed", action,
                                    code="baohuang.hold_copies_must_revealed",
                                    params={"n_held": len(held), "face": action.face, "count": action.count})
            cards = held[:action.count]
        if len(cards) not in (3, 4):
            raise IllegalAction("reveal three copies (guard) or four (明独)", action,
                                code="baohuang.reveal_three_copies_guard")
        self._declare(seat, action.face, cards)
        return "declare " + " ".join(c.id for c in cards)

    def _apply_pass(self, action: Pass, seat: int) -> str:
        if self.top is None:
            raise IllegalAction("the leader must play a set (a lead cannot be passed)", action,
                                code="baohuang.leader_must_play_set")
        flag = seat == self._jiefeng
        if action.jiefeng and not flag:
            raise IllegalAction("接风 is applied for only by the next player after one who has just "
                                "played his last cards", action, code="baohuang.applied_only_next_player")
        self.plays.append((seat, "pass", []))
        self._passes += 1
        if self._jiefeng == seat:
            self._jiefeng = None
        active = self.active()
        needed = len(active) - (1 if self.top_seat in active else 0)
        if self._passes >= needed:
            lead = self.top_seat if self.top_seat in active else self._next_active(self.top_seat)
            self.top = None
            self.top_seat = None
            self._passes = 0
            self.turn = lead
        else:
            self.turn = self._next_active(seat)
        return "pass jiefeng" if flag else "pass"

    def _take_plan(self, seat: int, p: Play, exact: tuple[Card, ...], faces: tuple[str, ...]) -> list[Card]:
        """The physical cards that make ``p`` from ``seat``'s hand (the lowest copy of each named
        face, a card id read as its face, then the lowest card ids of each rank). Changes
        nothing."""
        per = self.hands[seat]
        counts = self.counts[seat]
        short = [ORDER.ranks[r] for r in range(NRANKS) if p.counts[r] > counts[r]]
        if short:
            raise IllegalAction(f"you do not hold {p.text} (short of {' '.join(short)})", p,
                                code="baohuang.do_not_hold_short",
                                params={"text": p.text, "short": ' '.join(short)})
        chosen: list[Card] = []
        # a written card id is read as its face, whichever copy it names: the copies of a face
        # are identical, and a seat is shown its hand in labels of its own (shown_ids), so the
        # labels say nothing of which physical copy is where; copies go lowest id first (the
        # revealed copies of the named card carry the lowest ids, Selection._relabel)
        faces = (*(c.face for c in exact), *faces)
        for f in faces:
            r = ORDER.index["L" if f == "LJ" else "B" if f == "BJ" else f[0]]
            c = next((x for x in per[r] if x.face == f and x not in chosen), None)
            if c is None:
                raise IllegalAction(f"you hold no (further) {f}", f,
                                    code="baohuang.hold_no_further", params={"f": f})
            chosen.append(c)
        for r in range(NRANKS):
            want = p.counts[r] - sum(1 for c in chosen if ORDER.index[c.rank] == r)
            if want > 0:
                chosen += [c for c in per[r] if c not in chosen][:want]
        return sorted(chosen, key=ORDER.card_key)

    def _play(self, seat: int, p: Play, cards: list[Card]) -> None:
        per = self.hands[seat]
        for c in cards:
            per[ORDER.index[c.rank]].remove(c)
        cnt = self.counts[seat]
        for r in range(NRANKS):
            cnt[r] -= p.counts[r]
        self.sizes[seat] -= p.size
        ids = [c.id for c in cards]
        self.plays.append((seat, p.text, ids))
        self.top, self.top_seat, self._passes = p, seat, 0
        self._jiefeng = None
        nxt = self._next_active(seat)
        if self.sizes[seat] == 0:
            self.finished.append(seat)
            active = self.active()
            if len(active) <= 1:
                self._end(nxt, early=False)
            elif self.game.options["early_finish"] and self._one_side(active):
                self._end(nxt, early=True)
            else:
                self._jiefeng = nxt
        self.turn = nxt

    def active(self) -> list[int]:
        """Seats still holding cards, in seat order."""
        return [s for s in range(SEATS) if self.sizes[s]]

    def _next_active(self, seat: int) -> int:
        for k in range(1, SEATS + 1):
            s = (seat + k) % SEATS
            if self.sizes[s]:
                return s
        return seat

    def team(self) -> tuple[int, ...]:
        """The emperor's side (emperor and guard; the emperor alone in 独); empty before the
        declaration."""
        if self.emperor is None or self.mode is None:
            return ()
        return (self.emperor,) if self.guard is None else tuple(sorted((self.emperor, self.guard)))

    def _one_side(self, seats: list[int]) -> bool:
        team = set(self.team())
        return all(s in team for s in seats) or not any(s in team for s in seats)

    # ----- end and scoring ------------------------------------------------------------------
    def _order_rest(self, start: int, seats: list[int]) -> list[int]:
        """Unfinished ``seats`` by fewer cards left, then play order from ``start`` (§3.5)."""
        return sorted(seats, key=lambda s: (self.sizes[s], (s - start) % SEATS))

    def _end(self, start: int, early: bool, reason: str | None = None) -> None:
        order = self.finished + self._order_rest(start, self.active())
        self.result = self._score(order, reason or ("early_finish" if early else "finished"))
        self.phase = "over"

    def _score(self, order: list[int], reason: str) -> Result:
        place = {s: i for i, s in enumerate(order)}
        team = self.team()
        t = sum(PLACE_POINTS[place[s]] for s in team)
        mult = 2 if self.mode == "ming_du" else 1
        if self.game.options["individual_scoring"] == "team":
            returns = tuple(mult * (t if s in team else -t) for s in range(SEATS))
        else:
            emp = 2 if self.mode == "normal" else 4
            returns = tuple(mult * (emp * t if s == self.emperor else t if s == self.guard else -t)
                            for s in range(SEATS))
        others = tuple(s for s in range(SEATS) if s not in team)
        winners = team if t > 0 else others if t < 0 else ()
        basis = {"emperor": self.emperor, "guard": self.guard, "mode": self.mode, "side_score": t,
                 "order": list(order)}
        details = {
            "emperor": self.emperor, "guard": self.guard, "mode": self.mode, "named_card": self.named,
            "revealed": [c.id for c in self.revealed], "team": list(team),
            "order": list(order), "places": [place[s] + 1 for s in range(SEATS)],
            "place_points": [PLACE_POINTS[place[s]] for s in range(SEATS)],
            "side_score": t, "multiplier": mult, "early_finish": reason == "early_finish",
            "voids": self.voids, "forced": self.forced,
            "tribute": [[g, r, c.id] for g, r, c in self.tribute],
            "previous": self.basis,
            "tribute_basis": basis,
        }
        return Result(returns, reason, _returns_text(returns), winners, details)

    def sides(self) -> list[tuple[int, ...]]:
        team = self.team()
        if not team:
            return [(s,) for s in range(SEATS)]
        return [team, tuple(s for s in range(SEATS) if s not in team)]

    def turns_private(self) -> bool:
        """§2.4 step 2: a candidate without a qualifying triple must decline, one with a triple
        may decline too; so that a decline never tells whether it was forced, every candidate
        is asked (the engine declines for nobody), and a server answers a candidate whose only
        legal action is the decline by the same path and minimum time as any answer of a
        candidate with a choice (the private windows of :mod:`qipai.match.windows`). Who is
        candidate is public (the package goes round in seat order)."""
        return self.result is None and self.phase == "select"

    #: with one person and bots answering at once, a candidate's time depends only on the
    #: person's own answer: no minimum time (see ``TableGame.window_hold``)
    fixed_window_time = False

    def default_action(self, seat: int) -> Any:
        """§3.4 D8 timeouts: a candidate declines (adding the default 2); the emperor declares
        his lowest qualifying triple with its three lowest copies; a follower passes; a leader
        plays one card of his lowest rank."""
        if self.result is not None or seat != self.turn:
            return None
        if self.phase == "select":
            return ACCEPT if self.forced_accept else self._default_decline(seat)
        if self.phase == "declare":
            return self._legal_actions(seat)[0]
        if self.top is not None:
            return JIEFENG if seat == self._jiefeng else PASS
        low = next(r for r in range(NRANKS) if self.counts[seat][r])
        return play(low, 1, 0, 0) if low < NORMAL else play(None, 0, 1 if low == NORMAL else 0,
                                                            0 if low == NORMAL else 1)

    def _loss_result(self, seat: int, reason: str) -> Result:
        """Decision (not in the seed): a seat that resigns, times out of the match or forfeits
        ends the deal. Before the guard card is named there are no sides: the seat scores −4 and
        each other +1. Afterwards the unfinished players of the other side take the best places
        left, then the forfeiting seat's partners, then the seat itself last; the deal is scored
        from that order (§4). ``Result.text`` is the five returns followed by ``forfeit by
        <seat>`` (the returns alone do not say which revolutionary forfeited, and the finishing
        order decides the next tribute), so a record replays to the same result."""
        res = self._forfeit_result(seat, reason)
        self.phase = "over"
        return res

    def _forfeit_result(self, seat: int, reason: str) -> Result:
        """The result of ``seat`` forfeiting now (see :meth:`_loss_result`); changes nothing."""
        if self.mode is None:
            returns = tuple(-4 if s == seat else 1 for s in range(SEATS))
            return Result(returns, reason, f"{_returns_text(returns)} forfeit by {seat}",
                          tuple(s for s in range(SEATS) if s != seat),
                          {"forfeit": seat, "tribute_basis": None, "voids": self.voids})
        team = set(self.team())
        mine = team if seat in team else set(range(SEATS)) - team
        start = self.turn
        rest = [s for s in self.active() if s != seat]
        order = (self.finished + self._order_rest(start, [s for s in rest if s not in mine])
                 + self._order_rest(start, [s for s in rest if s in mine]))
        order += [s for s in [seat] if s not in order]
        res = self._score(order, reason)
        res.details["forfeit"] = seat
        return dataclasses.replace(res, text=f"{res.text} forfeit by {seat}")

    def _draw_result(self, reason: str) -> Result:
        """An agreed or arbiter's draw: every player scores 0; no tribute follows."""
        self.phase = "over"
        return Result((0,) * SEATS, reason, _returns_text((0,) * SEATS), (),
                      {"tribute_basis": None, "voids": self.voids})

    def _result_from_text(self, text: str, reason: str) -> Result:
        """A recorded external ending: five signed integers (``"+4 +2 -2 -2 -2"``, an arbiter's
        scores; seats with a positive score win), or the text of a forfeit, the returns followed
        by ``forfeit by <seat>``, which is scored again from the replayed deal and must give the
        same returns. Raises IllegalAction, changing nothing."""
        parts = text.split() if isinstance(text, str) else []
        seat = None
        if len(parts) == SEATS + 3 and parts[SEATS:SEATS + 2] == ["forfeit", "by"]:
            seat = int(parts[-1]) if parts[-1] in [str(s) for s in range(SEATS)] else -1
            parts = parts[:SEATS]
        try:
            returns = tuple(int(p) for p in parts)
        except ValueError:
            returns = ()
        if len(returns) != SEATS or seat == -1:
            raise IllegalAction(f"a baohuang result is five signed integers such as '+4 +2 -2 -2 -2', "
                                f"optionally followed by 'forfeit by <seat 0..4>', not {text!r}",
                                code="baohuang.baohuang_result_five_signed", params={"text": text})
        if seat is not None:
            res = self._forfeit_result(seat, reason)
            if tuple(res.returns) != returns:
                raise IllegalAction(f"seat {seat} forfeiting here scores {res.text}, not {text!r}",
                                    code="baohuang.seat_forfeiting_here_scores",
                                    params={"seat": seat, "text": res.text, "text2": text})
            self.phase = "over"
            return res
        self.phase = "over"
        return Result(returns, reason, _returns_text(returns),
                      tuple(s for s in range(SEATS) if returns[s] > 0),
                      {"tribute_basis": None, "voids": self.voids})

    # ----- views ----------------------------------------------------------------------------
    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds, in card-id order."""
        return [c for per in self.hands[seat] for c in per]

    def hand_ranks(self, seat: int) -> str:
        return ORDER.format_counts(self.counts[seat])

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None`` = spectator), JSON-ready: own hand; every seat's card
        count; the tribute of this deal; the selection so far and the package; the emperor, the
        named card, the revealed copies and 明独; every play and pass; ``previous``, the tribute
        basis of the previous deal (public, ``None`` when no tribute is owed). The guard's identity is in
        the guard's own view only (``"guard": seat``); the emperor's view says ``hidden_du`` when
        he holds the fourth copy. Everything is shown once the deal is over (``remaining``: every
        seat's cards left). Raises
        IllegalAction for a seat that is not 0..4 or None."""
        return self._view(seat, [[s, t] for s, t, _ in self.selection], _plays_shown(self.plays))

    def view_delta(self, seat: int | None, since: Any = None) -> ViewDelta:
        """The view as a change (:mod:`qipai.core.viewdelta`): ``selection`` and ``plays`` grow
        through a deal; a redeal starts them again."""
        def fixed() -> dict[str, Any]:
            out = self._view(seat, None, None)
            del out["selection"], out["plays"]
            return out

        def tails(since: tuple) -> dict[str, list]:
            return {"selection": [[s, t] for s, t, _ in self.selection[since[1]:]],
                    "plays": _plays_shown(self.plays, since[2])}

        mark = (len(self.dealt), len(self.selection), len(self.plays))
        return growing_delta(self, seat, since, mark, fixed, tails)

    def seen_climb(self, seat: int, since: Any = None) -> ClimbSeen:
        """What ``view(seat)`` shows that the research tensor reads, without building the view
        (:class:`~qipai.cards.playtext.ClimbSeen`): the seat's hand ranks, every seat's card
        count, the voids, the emperor and (to the guard, or once the deal is over) the guard,
        the revealed copies, who has gone out, the play to beat, and the plays since ``since``
        (a redeal starts them again)."""
        keys = {"phase": self.phase, "hand_ranks": self.hand_ranks(seat), "counts": list(self.sizes),
                "voids": self.voids, "emperor": self.emperor, "guard": self._guard_seen(seat),
                "revealed": shown_ids(self.revealed), "finished": list(self.finished),
                "top": self._top_view()}
        plays = self.plays
        mark = (len(self.dealt), len(plays))
        # the mark ends with the table's counts of the ranks laid: the new plays are labelled
        # without counting the deal's earlier plays again
        if type(since) is tuple and len(since) == 3 and continues(since[:2], mark):
            seen = dict(since[2])
            return ClimbSeen(keys, _plays_shown(plays, since[1], seen), (*mark, seen), False)
        seen = {}
        return ClimbSeen(keys, _plays_shown(plays, 0, seen), (*mark, seen), True)

    def _tribute_seen(self, seat: int | None) -> list[list]:
        """The tribute ``[giver, receiver, card id]`` as ``seat`` sees it: the giver and the
        receiver (and everyone once the deal is over) see the card handed over; every other
        seat and a spectator only its rank, shown as the table shows cards
        (:func:`qipai.cards.table_ids`, counted within the tribute), since which of his cards of
        that rank a giver handed over tells which suits he held (§4.4 D10). The copies of a
        face are numbered within the list (:func:`shown_ids`)."""
        ranked = [parse_card(c) for c in table_ids((c for *_, c in self.tribute), {})]
        over = self.result is not None
        faces = shown_ids(c if over or seat in (g, r) else ranked[i]
                          for i, (g, r, c) in enumerate(self.tribute))
        return [[g, r, faces[i]] for i, (g, r, _) in enumerate(self.tribute)]

    def _guard_seen(self, seat: int | None) -> int | None:
        """The guard as ``seat`` sees it: the guard's own seat, or anyone's once the deal is over."""
        over = self.result is not None
        return self.guard if (over or (seat is not None and seat == self.guard)) else None

    def _top_view(self) -> dict[str, Any] | None:
        return None if self.top is None else {"seat": self.top_seat, "set": self.top.text}

    def _view(self, seat: int | None, selection: list | None, plays: list | None) -> dict[str, Any]:
        if seat is not None and (type(seat) is not int or not 0 <= seat < SEATS):
            raise IllegalAction(f"no seat {seat!r} (seats are 0..4; None for a spectator)",
                                code="baohuang.no_seat_seats_none", params={"seat": seat})
        over = self.result is not None
        public_mode = self.mode if (over or self.mode == "ming_du") else (
            None if self.mode is None else "declared")
        out: dict[str, Any] = {
            "game": "baohuang", "seat": seat, "phase": self.phase, "to_act": list(self.to_act),
            "hand": shown_ids(self.hand(seat)) if seat is not None else None,
            "hand_ranks": self.hand_ranks(seat) if seat is not None else None,
            "counts": list(self.sizes), "voids": self.voids,
            "must_accept": seat is not None and seat == self.candidate and self.forced_accept,
            "tribute": self._tribute_seen(seat),
            "previous": self.basis,
            "c0": self.c0, "candidate": self.candidate,
            "selection": selection,
            # the reserved joker and the 2s added, by their ranks only, as the decliners' texts
            # show them (Selection._decline)
            "package": table_ids(self.package, {}) if self.phase == "select" else None,
            "emperor": self.emperor, "named_card": self.named,
            "revealed": shown_ids(self.revealed), "mode": public_mode,
            "ming_du": self.mode == "ming_du",
            "guard": self._guard_seen(seat),
            "hidden_du": (self.mode == "hidden_du") if (over or seat == self.emperor) and self.mode else None,
            "plays": plays,
            "top": self._top_view(),
            "finished": list(self.finished),
            "jiefeng": self._jiefeng,
            "result": self.result.to_json() if over else None,
        }
        if over:      # the deal over: every seat's cards left, as doudizhu's end shows them
            out["remaining"] = [shown_ids(self.hand(s)) for s in range(SEATS)]
        return out

    def clone(self) -> BaohuangState:
        new = object.__new__(BaohuangState)
        new.__dict__.update(self.__dict__)
        new.hands = [[list(x) for x in per] for per in self.hands]
        new.counts = [list(c) for c in self.counts]
        new.sizes = list(self.sizes)
        new.package = list(self.package)
        new.selection = list(self.selection)
        new.revealed = list(self.revealed)
        new.finished = list(self.finished)
        new.plays = list(self.plays)
        new.tribute = list(self.tribute)
        new.dealt = list(self.dealt)
        new.log = list(self.log)
        new._rng = DealRng(self._rng.seed, self._rng.counter)
        return new


def _canonical(action: Any) -> Any:
    """An action object read the way its text would be, so that a hand-built object whose parts
    disagree (a card named twice, cards that are not its set, an empty set, a declaration whose
    cards are not copies of its face) is refused with :class:`IllegalAction` like that text.
    Objects of other types are returned as they are (``_apply`` refuses them)."""
    if isinstance(action, Play):
        try:
            return play(action.rank, action.n, action.s, action.b)
        except (ValueError, TypeError) as e:
            raise IllegalAction(str(e), action, code="because", params=why(e, "baohuang.not_set")) from None
    if not isinstance(action, (CardPlay, Declare, Decline, Pass, Accept)):
        return action
    parsed = parse(action.text)
    if isinstance(action, CardPlay) and parsed.set.counts != action.set.counts:
        raise IllegalAction(f"the cards {action.text} make {parsed.set.text}, not {action.set.text}", action,
                            code="baohuang.cards_make_not",
                            params={"text": action.text, "text2": parsed.set.text, "text3": action.set.text})
    if isinstance(action, Declare) and (parsed.face != action.face or parsed.count != action.count):
        raise IllegalAction(f"{action.text} does not reveal {action.count} copies of {action.face}", action,
                            code="baohuang.does_not_reveal_copies",
                            params={"text": action.text, "count": action.count, "face": action.face})
    return parsed


def _plays_shown(plays: list[tuple[int, str, list[str]]], start: int = 0,
                 seen: dict[str, int] | None = None) -> list[list]:
    """The view's ``plays`` entries from ``start`` on: ``[seat, "pass", []]`` for a pass,
    ``[seat, set text, card ids]`` for a play, its cards shown by the table's labels
    (:func:`qipai.cards.table_ids`: the ``k``-th card of a rank laid this deal shows the
    ``k``-th suit of ``S H D C``; the copies of a face numbered within the play, as
    :func:`shown_ids` numbers every list of this game), never the physical copies taken: which
    faces leave a hand would tell which it held, and a play of the named card's face would
    name the guard (§3.6: the guard is hidden). ``seen`` (optional) stands for the table's
    counts of the ranks of ``plays[:start]`` (:func:`qipai.cards.table_seen`) and is updated
    with those of the plays shown."""
    if seen is None:
        seen = table_seen([parse_card(c) for c in ids] for _, _, ids in plays[:start])
    return [[s, t, shown_ids(parse_card(c) for c in table_ids([parse_card(c) for c in ids], seen))]
            for s, t, ids in plays[start:]]


def _returns_text(returns: tuple[int, ...]) -> str:
    return " ".join(f"{r:+d}" if r else "0" for r in returns)
