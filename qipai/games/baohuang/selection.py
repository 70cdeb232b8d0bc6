"""The start of a 保皇 deal (rules/baohuang.md §2): the deal from a seed or a given deal, the
tribute owed from the previous deal, the candidates accepting or declining the package (with the
redeal cap), and the emperor naming the guard card."""

from __future__ import annotations

from typing import Any

from qipai.cards import Card, make_deck, parse_card, shown, table_card
from qipai.core.errors import NotationError, why_cause
from qipai.core.rng import DealRng

from . import tribute as trib
from .actions import Decline
from .sets import NRANKS, ORDER, Play

SEATS = 5
HAND = 43
DECK = tuple(make_deck(4, jokers=True))  # 216 cards
TWO = ORDER.index["2"]
ACE = ORDER.index["A"]


def reserved(game: Any) -> Card:
    return parse_card(game.options["reserved_joker"])


def draw_deal(rng: DealRng, reserve: Card) -> dict[str, Any]:
    """One deal from ``rng``: shuffle the 215 cards other than ``reserve``, deal them round robin
    (card ``i`` to seat ``i mod 5``, 43 each), then draw the first candidate ``c0``."""
    cards = rng.shuffle([c for c in DECK if c is not reserve])
    hands = [[c.id for c in cards[s::SEATS]] for s in range(SEATS)]
    return {"hands": hands, "c0": rng.below(SEATS)}


def check_deal(data: Any, reserve: Card) -> tuple[list[list[Card]], int]:
    """Validate one deal ``{"hands": 5 lists of 43 card ids, "c0": seat}``; the hands hold every
    card of the four packs except the reserved joker. Raises :class:`NotationError`."""
    if not isinstance(data, dict) or not isinstance(data.get("hands"), list):
        raise NotationError("a deal is an object with 'hands' (5 lists of 43 card ids) and 'c0'", "deal",
                            code="notation.deal_shape")
    try:
        hands = [[parse_card(c) for c in h] for h in data["hands"]]
    except (ValueError, TypeError, AttributeError) as e:
        raise NotationError(str(e), "deal",
                            code="notation.deal_unreadable", params=why_cause(e, "unreadable")) from None
    if len(hands) != SEATS or any(len(h) != HAND for h in hands):
        raise NotationError("a deal has 5 hands of 43 cards", "deal",
                            code="notation.deal_cards")
    ids = sorted(c.id for h in hands for c in h)
    if ids != sorted(c.id for c in DECK if c is not reserve):
        raise NotationError(f"the hands must hold the four packs without the reserved {reserve.id}", "deal",
                            code="notation.deal_cards")
    c0 = data.get("c0")
    if type(c0) is not int or not 0 <= c0 < SEATS:
        raise NotationError("'c0' (the first candidate) is a seat 0..4", "deal",
                            code="notation.deal_seat", params={"key": "c0", "max": 4})
    return hands, c0


class Selection:
    """The start of a deal of :class:`~.game.BaohuangState` (which mixes this in): phases
    ``select`` and ``declare``."""

    # ----- deal, tribute, selection -------------------------------------------------------
    def _start_deal(self) -> None:
        k = len(self.dealt)
        data = self._given[k] if k < len(self._given) else draw_deal(self._rng, self._reserve)
        hands, c0 = check_deal(data, self._reserve)
        self.dealt.append({"hands": [list(h) for h in data["hands"]], "c0": c0})
        self.tribute: list[tuple[int, int, Card]] = []
        if self.basis is not None:
            self.tribute = trib.transfers(self.basis, hands)
            for giver, receiver, card in self.tribute:
                hands[giver].remove(card)
                hands[receiver].append(card)
        self.hands: list[list[list[Card]]] = []
        for h in hands:
            per: list[list[Card]] = [[] for _ in range(NRANKS)]
            for c in sorted(h, key=ORDER.card_key):
                per[ORDER.index[c.rank]].append(c)
            self.hands.append(per)
        self.counts = [[len(x) for x in per] for per in self.hands]
        self.sizes = [len(h) for h in hands]
        self.phase = "select"
        self.c0 = c0
        self.candidate = c0
        self.turn = c0
        self._second = False                 # the package came back to c0 (§2.4 step 4)
        self.package: list[Card] = [self._reserve]
        # (seat, action text, automatic): every candidate answers itself (§2.4 step 2, see
        # BaohuangState.turns_private), so no entry is automatic any more
        self.selection: list[tuple[int, str, bool]] = []
        self.emperor: int | None = None
        self.guard: int | None = None
        self.named: str | None = None
        self.revealed: list[Card] = []
        self.mode: str | None = None
        self.top: Play | None = None
        self.top_seat: int | None = None
        self._passes = 0
        self._jiefeng: int | None = None     # the seat whose pass applies for 接风
        self.finished: list[int] = []
        self.plays: list[tuple[int, str, list[str]]] = []

    def triples(self, seat: int) -> dict[str, list[Card]]:
        """Face code -> the copies ``seat`` holds, for every qualifying triple (§2.3: three or
        more copies of one rank 3..A and one suit)."""
        out: dict[str, list[Card]] = {}
        for r in range(ACE + 1):
            cards = self.hands[seat][r]
            if len(cards) >= 3:
                by_face: dict[str, list[Card]] = {}
                for c in cards:
                    by_face.setdefault(c.face, []).append(c)
                out.update({f: cs for f, cs in by_face.items() if len(cs) >= 3})
        return out

    @property
    def forced_accept(self) -> bool:
        """The redeal cap (option ``max_redeals``): after that many void deals, the first
        candidate's final decision is ``accept`` whenever he holds a qualifying triple."""
        return (self.phase == "select" and self._second and self.candidate == self.c0
                and self.voids >= self.game.options["max_redeals"] and bool(self.triples(self.c0)))

    def _owes_two(self, seat: int) -> bool:
        """The decliner must add a 2 (every decliner but c0 on its first decision, D3)."""
        return not (seat == self.c0 and not self._second) and bool(self.hands[seat][TWO])

    def _default_decline(self, seat: int) -> Decline:
        """The decline with the lowest 2 held, written as the seat is shown it (shown_ids)."""
        return Decline(shown(self.hands[seat][TWO][0]) if self._owes_two(seat) else None)

    def _decline(self, seat: int, two: Card | None) -> None:
        # the 2 added is public by its rank only: a 2's suit has no rule (§2.3: no triple of 2s),
        # and the 2 taken (the lowest held, D3) would tell which 2s the decliner holds; the k-th
        # 2 added in the deal is shown as the table shows the k-th card of a rank (table_card)
        shown_two = None if two is None else table_card(two.rank, len(self.package) - 1)
        self.selection.append((seat, Decline(shown_two).text, False))
        if self._second:                     # c0 declines twice: void deal (§2.6)
            self.voids += 1
            self._start_deal()
            return
        if two is not None:
            self.hands[seat][TWO].remove(two)
            self.counts[seat][TWO] -= 1
            self.sizes[seat] -= 1
            self.package.append(two)
        nxt = (seat - 1) % SEATS
        if nxt == self.c0:
            self._second = True
        self.candidate = self.turn = nxt

    def _accept(self, seat: int) -> None:
        self.forced = self.forced_accept
        self.selection.append((seat, "accept", False))
        self.emperor = seat
        for c in self.package:
            r = ORDER.index[c.rank]
            lst = self.hands[seat][r]
            lst.append(c)
            lst.sort(key=ORDER.card_key)
            self.counts[seat][r] += 1
        self.sizes[seat] += len(self.package)
        self.phase = "declare"
        self.candidate = None

    def _declare(self, seat: int, face: str, cards: list[Card]) -> None:
        cards = self._relabel(seat, cards)
        self.named = face
        self.revealed = cards
        if len(cards) == 4:
            self.mode = "ming_du"
        else:
            r = ORDER.index[face[0]]
            holder = next(s for s in range(SEATS)
                          if any(c.face == face and c not in cards for c in self.hands[s][r]))
            if holder == seat:
                self.mode = "hidden_du"
            else:
                self.mode = "normal"
                self.guard = holder
        self.phase = "play"
        self.turn = seat

    def _relabel(self, seat: int, cards: list[Card]) -> list[Card]:
        """The revealed copies always read as the lowest pack indices (``7H0 7H1 7H2``): the four
        copies of a card are identical (rules/baohuang.md §2.2), so their labels carry no rule;
        a revealed set such as ``7H1 7H2 7H3`` would tell every seat that another seat holds the
        fourth copy (a guard, not hidden 独, [D4]). A declared copy above the lowest labels
        swaps its label with the copy that carries the lowest label, in whichever hand holds it
        (the guard's, or the emperor's own): identical cards change places, nothing else."""
        r = ORDER.index[cards[0].rank]
        face = cards[0].face
        copies = sorted((c for per in self.hands for c in per[r] if c.face == face), key=ORDER.card_key)
        want = copies[:len(cards)]
        give = [c for c in cards if c not in want]
        for low in [c for c in want if c not in cards]:
            high = give.pop(0)
            holder = next(s for s in range(SEATS) if low in self.hands[s][r])
            self.hands[holder][r][self.hands[holder][r].index(low)] = high
            self.hands[seat][r][self.hands[seat][r].index(high)] = low
            for s in {holder, seat}:
                self.hands[s][r].sort(key=ORDER.card_key)
        return want
