"""山东保皇 as the provisional completion of ``rules/baohuang.md`` Part B §B4 (option set
``sdbh.provisional``): **experimental**, not for competition (D13; the open questions of §B5 are
listed in docs/games/baohuang.md). Loaded as ``qipai.load("baohuang", ruleset="sdbh.provisional")``.

Four seats, one 54-card pack, play ``s -> s+1``. Each seat draws a card for the start player
(``BJ > LJ > A > K > … > 2``, suits ``S > H > C > D``); the cards go back and the pack is dealt one
at a time from the start player (he and the next seat get 14, the others 13). A play is a *set*
(one or more cards of one rank; the two jokers are two ranks) or a *straight* (three or more
consecutive ranks of ``A 2 3 … K A``, one card each, no jokers, the ace once). A follower plays the
same kind with as many cards and a higher key, or passes; after three passes the last player leads.
The deal ends when a seat has played its last card: every other seat scores the points of the cards
it holds (``A`` 1, ``2``–``10`` face value, ``J`` 11, ``Q`` 12, ``K`` 13, jokers 20) and the lowest
score wins. ``returns`` are those scores negated (the seat that went out 0).

Actions: ``pass``; a play as a rank string (``777``, ``A23``, ``TJQKA``, ``L``) or card codes
(``7H 7S``); the referee takes the lowest card ids of each rank. A straight's canonical text lists
its ranks in sequence order (``A2345``, ``QKA``); thirteen ranks are read with the ace high.
"""

from __future__ import annotations

import re
from typing import Any

from qipai.cards import Card, make_deck, parse_card
from qipai.cards.hand import RankHand
from qipai.cards.order import NATURAL
from qipai.cards.playtext import plays_view, read_counts
from qipai.cards.rankplay import RankPlay
from qipai.core.errors import IllegalAction, Message, NotationError, why, why_cause
from qipai.core.game import Result, State
from qipai.core.rng import DealRng

RULESET = "sdbh.provisional"
SEATS = 4
ORDER = NATURAL                      # 2 < 3 < … < A < small joker < big joker (§B2.2)
NRANKS = len(ORDER)                  # 15
ACE = ORDER.index["A"]               # 12
SMALL, BIG = ORDER.index["L"], ORDER.index["B"]
DECK = tuple(make_deck(1, jokers=True))
_BY_ID = {c.id: c for c in DECK}
SUIT_RANK = {"S": 3, "H": 2, "C": 1, "D": 0}      # start-player draw tie-break (§B4)
POINTS = {**{r: i + 2 for i, r in enumerate("23456789")}, "T": 10, "J": 11, "Q": 12, "K": 13,
          "A": 1, "L": 20, "B": 20}
TITLES = ("保皇", "反保", "草头", "包庄")           # reported only (§B4)


def _pos_rank(p: int) -> int:
    """Rank index of straight position ``p`` (0 = A low, 1 = 2, …, 12 = K, 13 = A high)."""
    return ACE if p in (0, 13) else p - 1


class SdPlay(RankPlay):
    """A set (``type`` ``set``: ``length`` cards, ``key`` the rank index) or a straight
    (``straight``: ``length`` ranks, ``key`` the position of its top card in ``A 2 … K A``)."""

    __slots__ = ()
    order = ORDER

    def __init__(self, type_: str, length: int, key: int, counts: tuple[int, ...]) -> None:
        super().__init__(type_, length, key, counts)
        if type_ == "straight":
            low = key - length + 1
            self.text = "".join(ORDER.ranks[_pos_rank(p)] for p in range(low, key + 1))

    def beats(self, other: RankPlay) -> bool:
        return self.type == other.type and self.length == other.length and self.key > other.key

    def to_json(self) -> dict:
        return {"type": self.type, "length": self.length, "cards": self.text}


def _counts(ranks: dict[int, int]) -> tuple[int, ...]:
    return tuple(ranks.get(i, 0) for i in range(NRANKS))


SETS = {(r, n): SdPlay("set", n, r, _counts({r: n}))
        for r in range(NRANKS) for n in range(1, (1 if r >= SMALL else 4) + 1)}
STRAIGHTS = {(n, top): SdPlay("straight", n, top,
                               _counts({_pos_rank(p): 1 for p in range(top - n + 1, top + 1)}))
             for n in range(3, 14) for top in range(n - 1, 14)}
BY_COUNTS: dict[tuple[int, ...], SdPlay] = {}
for _p in [*SETS.values(), *sorted(STRAIGHTS.values(), key=lambda p: p.key)]:
    BY_COUNTS[_p.counts] = _p            # thirteen ranks: the ace-high straight (the later key)


class SdPass:
    """``pass``."""

    __slots__ = ()
    type = "pass"
    text = "pass"

    def __str__(self) -> str:
        return "pass"

    def __reduce__(self):
        return "PASS"


PASS = SdPass()


def parse(text: Any, hand: RankHand | None = None) -> Any:
    """The action written ``text``. Raises :class:`IllegalAction` naming what is wrong."""
    if isinstance(text, (SdPlay, SdPass)):
        return text
    if not isinstance(text, str):
        raise IllegalAction("an action is written as text", text, code="sdbh.action_text")
    t = text.strip()
    if t.lower() in ("pass", "p", "过", "不要"):
        return PASS
    try:
        counts = tuple(read_counts(t, ORDER, hand))
    except ValueError as e:
        raise IllegalAction(f"cannot read {t!r}: {e}", text, code="sdbh.cannot_read",
                            params={"text": t, **why(e, "unreadable")}) from None
    play = BY_COUNTS.get(counts)
    if play is None:
        raise IllegalAction("a play is cards of one rank or a straight of three or more ranks "
                            "(A 2 3 … K A, one card each, no jokers, the ace once)", text,
                            code="sdbh.not_a_play")
    return play


def start_player(draws: list[Card]) -> int:
    """The seat whose drawn card is highest (rank, then suit ``S > H > C > D``)."""
    return max(range(SEATS), key=lambda s: (ORDER.index[draws[s].rank], SUIT_RANK.get(draws[s].suit, 0)))


def draw_deal(rng: DealRng) -> dict[str, Any]:
    """The start-player draw (four cards of one shuffle, returned) and the deal (a second
    shuffle, one card at a time from the start player)."""
    drawn = rng.shuffle(list(DECK))[:SEATS]
    start = start_player(drawn)
    cards = rng.shuffle(list(DECK))
    hands: list[list[str]] = [[] for _ in range(SEATS)]
    for i, c in enumerate(cards):
        hands[(start + i) % SEATS].append(c.id)
    return {"draw": [c.id for c in drawn], "hands": hands}


def check_deal(data: Any) -> tuple[list[list[Card]], list[Card], int]:
    """``(hands, draw, start)`` of a deal ``{"draw": 4 card ids, "hands": 4 lists}``: the hands
    hold the pack, the start player (highest draw) and the next seat 14 cards, the others 13.
    Raises :class:`NotationError`."""
    if not isinstance(data, dict) or not isinstance(data.get("hands"), list) \
            or not isinstance(data.get("draw"), list):
        raise NotationError("a deal is an object with 'draw' (4 card ids) and 'hands' (4 lists)", "deal",
                            code="notation.deal_shape")
    try:
        hands = [[_BY_ID.get(c) or parse_card(c) for c in h] for h in data["hands"]]
        draw = [_BY_ID.get(c) or parse_card(c) for c in data["draw"]]
    except (ValueError, TypeError, AttributeError) as e:
        raise NotationError(str(e), "deal",
                            code="notation.deal_unreadable", params=why_cause(e, "unreadable")) from None
    if len(hands) != SEATS or len(set(draw)) != SEATS or len(draw) != SEATS \
            or any(c not in DECK for c in draw):
        raise NotationError("4 hands and 4 different drawn cards of the pack", "deal",
                            code="notation.deal_cards")
    if sorted(c.id for h in hands for c in h) != sorted(c.id for c in DECK):
        raise NotationError("the hands hold one 54-card pack (deck index 0)", "deal",
                            code="notation.deal_cards")
    start = start_player(draw)
    want = [14 if (s - start) % SEATS < 2 else 13 for s in range(SEATS)]
    if [len(h) for h in hands] != want:
        raise NotationError(f"the start player (seat {start}) and the next seat hold 14 cards, "
                            "the others 13", "deal",
                            code="notation.deal_rule")
    return hands, draw, start


class ShandongState(State):
    """One deal of the experimental 山东保皇. Read-only attributes: ``phase`` (``play``,
    ``over``), ``start`` (start player), ``draw`` (the drawn cards), ``turn``, ``top`` /
    ``top_seat`` (the play to beat, ``None`` on a lead), ``plays`` (``(seat, action)``)."""

    def __init__(self, game: Any, *, seed: Any = None, deal: Any = None) -> None:
        super().__init__(game, seed=seed, deal=deal, num_seats=SEATS)
        if deal is not None and seed is not None:
            raise NotationError("give a seed or a deal, not both", "deal",
                                code="notation.seed_and_deal")
        data = deal if deal is not None else draw_deal(DealRng(seed))
        hands, self.draw, self.start = check_deal(data)
        self.dealt = {"draw": [c.id for c in self.draw], "hands": [[c.id for c in h] for h in hands]}
        self.hands = [RankHand(ORDER, h) for h in hands]
        self.phase = "play"
        self.turn = self.start
        self.top: SdPlay | None = None
        self.top_seat: int | None = None
        self._passes = 0
        self.plays: list[tuple[int, Any]] = []
        self.play_cards: list[list[Card]] = []

    # ----- turn and actions ---------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.result is not None else (self.turn,)

    def _legal_actions(self, seat: int) -> list[Any]:
        held = self.hands[seat].counts
        if self.top is not None:
            out: list[Any] = [PASS]
            out += [p for p in self._plays(held) if p.beats(self.top)]
            return out
        return self._plays(held)

    @staticmethod
    def _plays(held: list[int]) -> list[SdPlay]:
        out = [SETS[(r, n)] for r in range(NRANKS) for n in range(1, held[r] + 1)]
        have = [held[_pos_rank(p)] > 0 and _pos_rank(p) < SMALL for p in range(14)]
        for (n, top), p in STRAIGHTS.items():
            if all(have[q] for q in range(top - n + 1, top + 1)) and BY_COUNTS[p.counts] is p:
                out.append(p)
        return out

    def _apply(self, action: Any, seat: int) -> None:
        action = parse(action, self.hands[seat])
        if action is PASS:
            if self.top is None:
                raise IllegalAction("the leader must play", action, code="sdbh.leader_must_play")
            self.plays.append((seat, PASS))
            self._passes += 1
            if self._passes == SEATS - 1:
                self.turn, self.top, self.top_seat, self._passes = self.top_seat, None, None, 0
            else:
                self.turn = (seat + 1) % SEATS
            return
        if not self.hands[seat].holds(action.counts):
            raise IllegalAction(f"{action.text} is not in your hand", action, code="sdbh.not_in_hand",
                                params={"play": action.text})
        if self.top is not None and not action.beats(self.top):
            raise IllegalAction(_why_not(action, self.top), action)
        self.play_cards.append(self.hands[seat].take(action.counts))
        self.plays.append((seat, action))
        self.top, self.top_seat, self._passes = action, seat, 0
        if not len(self.hands[seat]):
            self._finish(seat, "out")
        else:
            self.turn = (seat + 1) % SEATS

    def default_action(self, seat: int) -> Any:
        """A follower passes; a leader plays one card of its lowest rank."""
        if self.result is not None or seat != self.turn:
            return None
        if self.top is not None:
            return PASS
        return SETS[(next(r for r in range(NRANKS) if self.hands[seat].counts[r]), 1)]

    # ----- end ----------------------------------------------------------------------------
    def points(self, seat: int) -> int:
        """The points of the cards ``seat`` holds (§B4)."""
        return sum(POINTS[c.rank] for c in self.hands[seat].cards())

    def _finish(self, out: int | None, reason: str, forfeit: int | None = None) -> None:
        self.result = self._score(out, reason, forfeit)
        self.phase = "over"

    def _score(self, out: int | None, reason: str, forfeit: int | None = None) -> Result:
        pts = [0 if s == out else self.points(s) for s in range(SEATS)]
        if forfeit is not None:          # decision: the forfeiting seat scores every card still held
            pts[forfeit] = sum(self.points(s) for s in range(SEATS))
        best = min(pts)
        ranked = sorted(set(pts), reverse=True)
        titles = [TITLES[min(ranked.index(p), 3)] for p in pts]
        returns = tuple(-p for p in pts)
        winners = tuple(s for s in range(SEATS) if pts[s] == best)
        text = " ".join(str(r) for r in returns) + (f" forfeit by {forfeit}" if forfeit is not None else "")
        return Result(returns, reason, text, winners,
                      {"ruleset": RULESET, "points": pts, "out": out, "titles": titles,
                       "start": self.start, **({"forfeit": forfeit} if forfeit is not None else {})})

    def _loss_result(self, seat: int, reason: str) -> Result:
        self.phase = "over"
        return self._score(None, reason, forfeit=seat)

    def _result_from_text(self, text: str, reason: str) -> Result:
        """A recorded forfeit (``"-0 -53 -404 -31 forfeit by 2"``): re-made from the position."""
        m = re.fullmatch(r".* forfeit by ([0-3])", text.strip()) if isinstance(text, str) else None
        if m is None:
            raise IllegalAction(f"a 山东保皇 ending other than a finished deal is a forfeit "
                                f"('… forfeit by N'), not {text!r}", code="sdbh.result_text",
                                params={"text": text})
        res = self._loss_result(int(m.group(1)), reason)
        if res.text != text.strip():
            raise IllegalAction(f"the recorded scores {text!r} are not those of this position",
                                code="sdbh.result_mismatch", params={"text": text})
        return res

    # ----- views ----------------------------------------------------------------------------
    def hand(self, seat: int) -> list[Card]:
        return self.hands[seat].cards()

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None`` = spectator): its own hand, every seat's card count,
        the start draw, every play and pass, the play to beat; every hand once the deal is over."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < SEATS):
            raise IllegalAction(f"no seat {seat!r} (seats are 0..3; None for a spectator)",
                                code="sdbh.no_seat", params={"seat": seat})
        over = self.result is not None
        return {
            "game": "baohuang", "ruleset": RULESET, "marking": "experimental", "seat": seat,
            "phase": self.phase, "to_act": list(self.to_act),
            "hand": [c.id for c in self.hand(seat)] if seat is not None else None,
            "hand_ranks": self.hands[seat].ranks() if seat is not None else None,
            "counts": [len(h) for h in self.hands], "start": self.start,
            "draw": [c.id for c in self.draw],
            "plays": plays_view(self.plays, self.play_cards),
            "top": None if self.top is None else {"seat": self.top_seat, "play": self.top.text,
                                                   "type": self.top.type},
            "hands": [[c.id for c in h.cards()] for h in self.hands] if over else None,
            "result": self.result.to_json() if over else None,
        }



def _why_not(play: SdPlay, top: SdPlay) -> Message:
    if play.type != top.type:
        return Message(f"a {play.type} does not answer a {top.type}", code="sdbh.other_kind",
                       params={"type": play.type, "type2": top.type})
    if play.length != top.length:
        return Message(f"{play.text} has another number of cards than {top.text}",
                       code="sdbh.other_length", params={"text": play.text, "text2": top.text})
    return Message(f"{play.text} is not higher than {top.text}", code="sdbh.not_higher",
                   params={"text": play.text, "text2": top.text})


class ShandongMatch:
    """§B4 match: ``deals`` deals (10), the lowest total wins, ties shared."""

    def __init__(self, deals: int = 10) -> None:
        self.deals = deals
        self.totals = [0] * SEATS
        self.played = 0

    def add(self, result: Result) -> None:
        for s, p in enumerate(result.details["points"]):
            self.totals[s] += p
        self.played += 1

    @property
    def over(self) -> bool:
        return self.played >= self.deals

    def winners(self) -> list[int]:
        best = min(self.totals)
        return [s for s in range(SEATS) if self.totals[s] == best]

