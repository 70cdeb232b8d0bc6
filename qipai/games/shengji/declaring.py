"""Dealing and declaring trump in a hand of 升级 (rules/shengji.md §2): the deal from a seed or an
explicit deal, declaration prompts while cards are dealt, the final window, 报主 and 反主 (§2.5),
and the trump that stands when the declarations close (with the kitty fallback)."""

from __future__ import annotations

from typing import Any

from qipai.cards.card import Card, make_deck, parse_card
from qipai.core.errors import IllegalAction, NotationError, why_cause
from qipai.core.errors import why as why_of
from qipai.core.rng import DealRng

from . import declare as dc
from .seats import SEATS, team_of
from .trump import trump_of


class Declaring:
    """The deal and the declarations of :class:`~.state.ShengjiState` (which mixes this in):
    phases ``deal``, ``window``, ``bao`` and ``fan`` up to the trump that stands."""

    # ----- dealing ---------------------------------------------------------------------------
    def _make_deal(self, seed: Any, deal: Any) -> dict[str, Any]:
        pack = make_deck(self.decks, jokers=True)
        made = None
        if seed is not None:
            rng = DealRng(seed)
            order = rng.shuffle(list(pack))
            p = rng.below(SEATS)
            if self.opt["provisional_dealer"] is not None:
                p = self.opt["provisional_dealer"]
            flip = rng.shuffle(list(range(self.kitty_size)))
            made = {"order": [c.id for c in order], "provisional_dealer": p, "kitty_flip": flip}
        if deal is None:
            return made
        data = _check_deal(deal, pack, self.kitty_size)
        if self.opt["provisional_dealer"] is not None:
            data["provisional_dealer"] = self.opt["provisional_dealer"]
        if made is not None and data != made:
            raise NotationError("the deal does not match the seed", "deal",
                                code="notation.deal_seed")
        return data

    def _start_declarations(self) -> None:
        if self.system == "bao":
            while self.dealt < len(self.order) - self.kitty_size:
                self._deal_one()
            self.kitty = self.order[len(self.order) - self.kitty_size:]
            self.dealt = len(self.order)
            self._start_bao()
        else:
            self._continue_deal()

    def _deal_one(self) -> int:
        seat = (self.p + self.dealt) % SEATS
        card = self.order[self.dealt]
        self.dealt += 1
        self.hands[seat][card.face] += 1
        self.cards[seat].setdefault(card.face, []).append(card)
        return seat

    def _decl_level(self, seat: int) -> int:
        """§2.5: in the 报主 phase each seat uses its own team's level; otherwise the hand level."""
        if self.system == "bao" and self.phase == "bao":
            return self.levels[team_of(seat)]
        return self.level

    def deal_prompts(self) -> bool:
        """``deal_prompt="every_card"``: the deal asks the seat dealt each card."""
        return self.every_card

    def check_ahead(self, action: Any, seat: int) -> None:
        """A declaration sent ahead during the deal (:meth:`qipai.core.game.State.check_ahead`)
        is refused when no prompt of this deal can take it from ``seat``: not a ``declare``
        (``shengji.ahead_declare_only``: a ``pass`` is the table's when the seat says nothing),
        cards that are no declaration of this system and level (the codes of
        :func:`.declare.classify`, under ``because``), or one no stronger than the standing
        declaration (``shengji.not_stronger_standing_declaration``: the standing one only grows
        stronger). Cards the seat does not hold yet are no reason: they may still be dealt to it.
        Raises :class:`IllegalAction`; changes nothing."""
        if isinstance(action, str):
            action = self.game.parse_action(action, self)
        if getattr(action, "kind", None) != "declare":
            raise IllegalAction("only a declaration ('declare …') is sent ahead", action,
                                code="shengji.ahead_declare_only")
        phase = self.phase if self.system == "bao" else ""
        try:
            strength, _, _ = dc.classify(self.system, action.faces, self._decl_level(seat), phase)
        except ValueError as e:
            raise IllegalAction(str(e), action, code="because", params=why_of(e, "unreadable")) from None
        if self.standing is not None and not strength > self.standing:
            raise IllegalAction("not stronger than the standing declaration", action,
                                code="shengji.not_stronger_standing_declaration")

    def _candidates(self, seat: int) -> list[tuple[str, ...]]:
        if self.phase == "fan" and seat == self.bao_seat and not self.fan_accepted:
            return []
        phase = self.phase if self.system == "bao" else ""
        return dc.candidates(self.system, self.hands[seat], self._decl_level(seat), self.standing, phase)

    def _asked(self, seat: int) -> bool:
        """Whether ``seat`` is asked in a round of asking (rule 2, the final window, 报主 and
        反主): with ``deal_prompt="when_able"`` only when it has a legal declaration; with
        ``"every_card"`` always (``pass`` its only answer when it has none), so the schedule
        of prompts tells nobody who could declare."""
        return self.every_card or bool(self._candidates(seat))

    def _continue_deal(self) -> None:
        """Deal until a seat must be asked (§2.7 rule 1; with ``deal_prompt="every_card"`` the
        seat dealt each card), then run the final window."""
        n_hand = len(self.order) - self.kitty_size
        while self.dealt < n_hand:
            seat = (self.p + self.dealt) % SEATS
            before = set(self._candidates(seat)) if not self.every_card else set()
            self._deal_one()
            if self.every_card or set(self._candidates(seat)) - before:
                self.queue = [seat]
                self.turn = seat
                return
        if self.phase == "deal":
            self.kitty = self.order[n_hand:]
            self.phase = "window"
            self.passed = set()
            self.window_next = self.p
        self._window_next()

    def _window_next(self) -> None:
        """§2.7 rule 3 (and the 反主 round of §2.5): ask seats in cyclic order from
        ``window_next`` until every seat asked (:meth:`_asked`) has passed since the last
        accepted declaration."""
        for i in range(SEATS):
            seat = (self.window_next + i) % SEATS
            if seat not in self.passed and self._asked(seat):
                self.turn = seat
                return
        self._close_declarations()

    def _after_answer(self, seat: int, accepted: bool) -> None:
        if self.phase == "deal":
            if accepted:
                self.queue = [(seat + i) % SEATS for i in (1, 2, 3)]
            else:
                self.queue = self.queue[1:]
            while self.queue and not self._asked(self.queue[0]):
                self.queue.pop(0)
            if self.queue:
                self.turn = self.queue[0]
                return
            self._continue_deal()
            return
        # final window
        if accepted:
            self.passed = set()
        else:
            self.passed.add(seat)
        self.window_next = (seat + 1) % SEATS
        self._window_next()

    # ----- bao (§2.5) --------------------------------------------------------------------------
    def _start_bao(self) -> None:
        self.phase = "bao"
        if self.first_hand:
            self.bao_order = [(self.p + i) % SEATS for i in range(SEATS)]
        else:
            d = self.dealer
            self.bao_order = [d, (d + 2) % SEATS, (d + 1) % SEATS, (d + 3) % SEATS]
        self._bao_next()

    def _bao_next(self) -> None:
        while self.bao_order:
            seat = self.bao_order[0]
            if self._asked(seat):
                self.turn = seat
                return
            self.bao_order.pop(0)
        self._close_declarations()

    def _fan_next(self, start: int) -> None:
        self.window_next = start
        self._window_next()

    def _bao_answer(self, seat: int, accepted: bool) -> None:
        if self.phase == "bao":
            if not accepted:
                self.bao_order.pop(0)
                self._bao_next()
                return
            self.bao_seat = seat
            if self.dealer is None or team_of(seat) != team_of(self.dealer):
                self.dealer = seat
            self.level = self.levels[team_of(self.dealer)]
            self.phase = "fan"
            self.passed = set()
            self._fan_next((seat + 1) % SEATS)
            return
        if accepted:
            self.fan_accepted = True
            self.passed = set()
        else:
            self.passed.add(seat)
        self._fan_next((seat + 1) % SEATS)

    # ----- end of declarations -----------------------------------------------------------------
    def _close_declarations(self) -> None:
        if self.dealer is None:
            self.dealer = self.first_declarer if self.first_declarer is not None else self.p
        self.level = self.levels[team_of(self.dealer)]
        if self.standing is not None:
            suit = self.standing_suit
        else:
            suit = self._fallback_trump()
        self.trump = trump_of(self.level, suit, self.opt["two_always_trump"])
        dealer = self.dealer
        for c in self.kitty:
            self.hands[dealer][c.face] += 1
            self.cards[dealer].setdefault(c.face, []).append(c)
        self.phase = "bury"
        self.turn = dealer

    def _fallback_trump(self) -> str | None:
        mode = self.opt["no_declaration"]
        k = self.kitty
        if mode == "no_trump":
            self.trump_name = "no declaration: no-trump"
            return None
        if mode in ("kitty_first", "kitty_third"):
            self.kitty_shown = [c.face for c in k]
            card = k[0] if mode == "kitty_first" else k[2]
            self.trump_name = f"kitty card {card.face}"
            return card.suit
        for i in self.deal["kitty_flip"]:
            self.kitty_shown.append(k[i].face)
            if k[i].suit is not None:
                self.trump_name = f"kitty card {k[i].face}"
                return k[i].suit
        self.trump_name = "kitty all jokers: no-trump"
        return None


def _check_deal(deal: Any, pack: list[Card], kitty_size: int) -> dict[str, Any]:
    """Validate a deal object; returns it normalised. Raises :class:`NotationError`."""
    if not isinstance(deal, dict) or not isinstance(deal.get("order"), list):
        raise NotationError("a deal is an object with 'order' (every card id in dealing order), "
                            "'provisional_dealer' and 'kitty_flip'", "deal",
                            code="notation.deal_shape")
    try:
        order = [parse_card(c).id for c in deal["order"]]
    except (ValueError, AttributeError, TypeError) as e:
        raise NotationError(str(e), "deal",
                            code="notation.deal_unreadable", params=why_cause(e, "unreadable")) from None
    if sorted(order) != sorted(c.id for c in pack):
        raise NotationError(f"the order is not the full {len(pack)}-card pack", "deal",
                            code="notation.deal_cards")
    p = deal.get("provisional_dealer", 0)
    if type(p) is not int or not 0 <= p < SEATS:
        raise NotationError("provisional_dealer must be a seat 0..3", "deal",
                            code="notation.deal_seat", params={"key": "provisional_dealer", "max": 3})
    flip = deal.get("kitty_flip", list(range(kitty_size)))
    if not isinstance(flip, list) or sorted(flip) != list(range(kitty_size)):
        raise NotationError(f"kitty_flip must be a permutation of 0..{kitty_size - 1}", "deal",
                            code="notation.deal_shape")
    return {"order": order, "provisional_dealer": p, "kitty_flip": list(flip)}
