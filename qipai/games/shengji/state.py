"""One hand of 升级: deal with declarations, kitty exchange, tricks, scoring (rules/shengji.md).

Phases: ``deal`` (declaration prompts while cards are dealt, §2.7), ``window`` (the final
declaration window), ``bao`` and ``fan`` (报主 and 反主 after the deal, §2.5), ``bury`` (§2.10),
``play`` (§3) and ``over``. With ``deal_prompt="when_able"`` (the default) seats without a
legal declaration are never prompted: their answer would be ``pass``, and skipping them keeps
the schedule short. With ``"every_card"`` the seat dealt each card is prompted, and every seat
in each later round of asking, ``pass`` its only action when it cannot declare: the schedule
then tells nobody who could declare (docs/games/shengji.md, "Phases and prompts").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from qipai.cards.card import Card, parse_card
from qipai.cards.submultisets import Concat, SubMultisets
from qipai.cards.trickseen import TrickSeen
from qipai.core.errors import IllegalAction, Message, NotationError, why_cause
from qipai.core.errors import why as why_of
from qipai.core.game import State
from qipai.core.viewdelta import ViewDelta, continues, growing_delta

from . import combos as cb
from . import declare as dc
from .actions import PASS, Action, Fault, canonical_key, canonical_order, parse_action
from .declaring import Declaring
from .ending import Ending
from .seats import SEATS, team_of
from .trump import TRUMP, Trump, face_points, trump_of

BIDDING = ("deal", "window", "bao", "fan")   # the phases in which trump is declared (§2)
LIST_LIMIT = 200           # legal sets up to this size are lists; larger ones are lazy sequences


def _hand_total(hand: dict[str, int]) -> int:
    return sum(hand.values())


class ShengjiState(Ending, Declaring, State):
    """One hand. Public attributes (read-only by convention): ``phase``, ``levels`` (team 0 =
    seats 0+2, team 1 = seats 1+3), ``dealer`` (``None`` until fixed in hand 1), ``p`` (deal-start
    seat), ``level`` (hand level), ``trump`` (:class:`Trump` once fixed), ``declarations``,
    ``hands`` (face → count per seat), ``kitty``, ``buried``, ``trick`` (plays of the current
    trick), ``tricks`` (completed tricks), ``trick_points``, ``penalty``, ``failed_throws``."""

    def __init__(self, game, *, seed: Any = None, deal: Any = None, position: str | None = None) -> None:
        super().__init__(game, seed=seed, deal=None, position=position, num_seats=SEATS)
        o = game.options
        self.opt = o
        self.decks = o["decks"]
        self.kitty_size = o["kitty_size"]
        self.hand_size = (54 * self.decks - self.kitty_size) // SEATS
        self.levels = list(game.levels)
        self.system = o["declaration"]
        self.every_card = o["deal_prompt"] == "every_card"
        self.first_hand = o["dealer"] is None
        data = self._make_deal(seed, deal) if position is None else \
            {"order": [], "provisional_dealer": 0, "kitty_flip": []}
        self.deal = data if position is None else None
        self.order = [parse_card(c) for c in data["order"]] if position is None else []
        self.p = o["dealer"] if not self.first_hand else data["provisional_dealer"]
        self.dealer: int | None = None if self.first_hand else o["dealer"]
        ref = self.dealer if self.dealer is not None else self.p
        self.level = self.levels[team_of(ref)]
        self.hands: list[Counter] = [Counter() for _ in range(SEATS)]
        self.cards: list[dict[str, list[Card]]] = [{} for _ in range(SEATS)]
        self.dealt = 0
        self.kitty: list[Card] = []
        self.kitty_shown: list[str] = []           # kitty cards turned face up (§2.8)
        self.buried: list[Card] = []
        self.declarations: list[dict[str, Any]] = []
        self.standing: Any = None
        self.standing_suit: str | None = None
        self.standing_seat: int | None = None
        self.first_declarer: int | None = None
        self.trump: Trump | None = None
        self.trump_name = ""
        self.queue: list[int] = []
        self.passed: set[int] = set()
        self.turn: int | None = None
        self.window_next = 0
        self.bao_order: list[int] = []
        self.bao_seat: int | None = None
        self.fan_accepted = False
        self.trick: list[tuple[int, tuple[str, ...]]] = []
        self.trick_leader: int | None = None
        self.lead_fmt: list[tuple[str, int]] = []
        self.lead_suit = ""
        self.lead_n = 0
        self.win_seat: int | None = None
        self.win_key: tuple | None = None
        self.win_suit = ""
        self.tricks: list[dict[str, Any]] = []
        self.trick_points = 0
        self.captured: list[str] = []
        self.played: list[list[str]] = [[] for _ in range(SEATS)]
        self.penalty = 0
        self.failed_throws: list[dict[str, Any]] = []
        self.faults: list[dict[str, Any]] = []           # sanctions entered (§5.3)
        self.follow_errors = [0, 0]
        self.count_errors = [0, 0]
        self._refused: tuple[int, Any] | None = None     # last refused submission (not state)
        self.phase = "deal"
        if position is not None:
            self._setup_position(position)
        else:
            self._start_declarations()

    def _setup_position(self, text: str) -> None:
        """A play-phase position (rule tests, analysis): JSON with ``hands`` (4 lists of face
        codes, equal sizes), ``level``, ``trump`` (``S H D C`` or ``NT``), ``dealer``, optional
        ``leader`` (default the dealer), ``buried``, ``levels`` ([team 0, team 1]; default
        both ``level`` for the dealer's team), ``trick_points``. Raises :class:`NotationError`."""
        import json

        def cards(items: Any) -> list[str]:
            if not isinstance(items, list):
                raise TypeError(f"a list of cards, not {items!r}")
            out = [parse_card(c) for c in items]
            bad = [c.id for c in out if c.deck >= self.decks]
            if bad:
                raise ValueError(f"{bad[0]} does not exist with {self.decks} decks")
            return [c.face for c in out]

        def whole(value: Any, name: str, low: int, high: int) -> int:
            if type(value) is not int or not low <= value <= high:
                raise ValueError(f"{name} must be an integer {low}..{high}, not {value!r}")
            return value

        try:
            data = json.loads(text)
            if not isinstance(data, dict) or not isinstance(data.get("hands"), list):
                raise TypeError("a position is an object with 'hands' (4 lists of cards)")
            hands = [cards(h) for h in data["hands"]]
            buried = cards(data.get("buried", []))
            level, trump = whole(data["level"], "level", 2, 14), data["trump"]
            dealer = whole(data["dealer"], "dealer", 0, SEATS - 1)
            leader = whole(data.get("leader", dealer), "leader", 0, SEATS - 1)
            levels = data.get("levels")
            if levels is not None:
                if not isinstance(levels, list) or len(levels) != 2:
                    raise TypeError(f"levels must be [team 0, team 1], not {levels!r}")
                levels = [whole(x, "a team level", 2, 14) for x in levels]
            trick_points = whole(data.get("trick_points", 0), "trick_points", 0, 300 * self.decks)
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise NotationError(f"bad shengji position: {e}", "position",
                                code="notation.position_unreadable",
                                params=why_cause(e, "unreadable")) from None
        if len(hands) != SEATS or len({len(h) for h in hands}) != 1 or not hands[0]:
            raise NotationError("a position has 4 non-empty hands of equal size", "position",
                                code="notation.position_syntax")
        if trump not in ("S", "H", "D", "C", "NT"):
            raise NotationError("position: trump is S/H/D/C/NT", "position",
                                code="notation.position_syntax")
        used: dict[str, int] = {}

        def copy(f: str) -> Card:
            """The next copy of face ``f`` (deck 0 first)."""
            n = used.get(f, 0)
            if n >= self.decks:
                raise NotationError(f"more than {self.decks} copies of {f}", "position",
                                    code="notation.too_many_copies", params={"card": f, "most": self.decks})
            used[f] = n + 1
            return parse_card(f + str(n))

        for seat, h in enumerate(hands):
            hand, held = self.hands[seat], self.cards[seat]
            for f in h:
                card = copy(f)
                hand[f] += 1
                held.setdefault(f, []).append(card)
        self.buried += [copy(f) for f in buried]
        self.levels = levels or [level, level]
        self.dealer = dealer
        self.level = level
        self.levels[team_of(dealer)] = level
        self.trump = trump_of(level, None if trump == "NT" else trump, self.opt["two_always_trump"])
        self.trick_points = trick_points
        self.phase = "play"
        self.turn = leader
        self.trick_leader = leader

    # ----- contract hooks ----------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        if self.result is not None or self.turn is None:
            return ()
        return (self.turn,)

    def sides(self) -> list[tuple[int, ...]]:
        return [(0, 2), (1, 3)]

    def turns_private(self) -> bool:
        """§2.7: while trump is declared (``deal``, ``window``, ``bao``, ``fan``) a seat is
        asked only when it can declare (``deal_prompt="when_able"``), so who is asked would
        tell the others that it holds (or was just dealt) a level card, a joker or a pair of
        them, even when it passes. A view and a server then tell each seat only whether it is
        asked itself; the others see that the deal waits for someone (:meth:`seen_to_act`).
        With ``"every_card"`` who is asked is public anyway, but whether a seat had a choice
        is not: a server's private windows answer a seat's lone ``pass`` for it after the same
        minimum time as any other prompt."""
        return self.result is None and self.phase in BIDDING

    def deal_prompt_open(self) -> bool:
        """With ``deal_prompt="every_card"``, every prompt while cards are still dealt (the
        seat dealt a card, and the seats asked after a declaration during the deal): a server
        holds each the same short time (``deal_window_ms``), whoever could declare."""
        return self.every_card and self.result is None and self.phase == "deal"

    #: with one person and bots answering at once, a prompt's time depends only on the
    #: person's own answer: no minimum time (see ``TableGame.window_hold``)
    fixed_window_time = False

    def seen_to_act(self, seat: int | None) -> list[int]:
        """``to_act`` as ``seat`` may see it (``None``: a spectator): while trump is declared,
        only whether ``seat`` itself is asked (:meth:`turns_private`)."""
        if self.turns_private():
            return [seat] if seat in self.to_act else []
        return list(self.to_act)

    def seen_counts(self, seat: int | None) -> list[int]:
        """The seats' card counts as ``seat`` may see them: during the deal a prompt stops it
        right after the card of the seat asked, so exact counts would name that seat; each
        other seat is shown with the cards of the complete rounds dealt (its own count is the
        seat's hand)."""
        counts = [_hand_total(h) for h in self.hands]
        if self.phase != "deal" or self.result is not None:
            return counts
        return [c if s == seat else self.dealt // SEATS for s, c in enumerate(counts)]

    def _legal_actions(self, seat: int) -> Sequence[Action]:
        if self.phase in ("deal", "window", "bao", "fan"):
            return [PASS] + [Action("declare", f) for f in self._candidates(seat)]
        if self.phase == "bury":
            return _small(SubMultisets(_items(self.hands[seat]), self.kitty_size,
                                       lambda t: Action("bury", t, ordered=True)))
        if not self.trick:
            return _small(self._leads(seat))
        return _small(self._follows(seat))

    def _leads(self, seat: int) -> Sequence[Action]:
        groups: dict[str, list[tuple[str, int]]] = {}
        for f, c in _items(self.hands[seat]):
            groups.setdefault(self.trump.eff[f], []).append((f, c))
        parts = []
        for _suit, items in sorted(groups.items()):
            whole = SubMultisets(items, sum(c for _, c in items), _ordered_play)
            parts += [whole.resized(k) for k in range(1, whole.size + 1)]
        return Concat(parts)

    def _suit_holding(self, seat: int, suit: str) -> dict[str, int]:
        eff = self.trump.eff
        return {f: c for f, c in self.hands[seat].items() if c and eff[f] == suit}

    def _follows(self, seat: int) -> Sequence[Action]:
        he = self._suit_holding(seat, self.lead_suit)
        n = self.lead_n
        total_he = sum(he.values())
        if total_he <= n:
            base = tuple(f for f, c in he.items() for _ in range(c))
            rest = [(f, c) for f, c in _items(self.hands[seat]) if f not in he]
            return SubMultisets(rest, n - total_he, lambda t: _play(base + t))
        items = _items(he)
        if self._free_follow():
            return SubMultisets(items, n, _ordered_play)
        if self.decks >= 3:
            from .titanic import best_vector, shapes_in_order
            shapes = shapes_in_order(self.lead_fmt)
            target = best_vector(he, self.trump.pos, shapes)
            return [a for a in SubMultisets(items, n, _ordered_play)
                    if best_vector(dict(Counter(a.faces)), self.trump.pos, shapes) == target]
        ok = cb.follow_checker(he, self.trump.pos, self.lead_fmt)
        return [_ordered_play(t) for t in SubMultisets(items, n) if ok(cb.counts(t))]

    def _free_follow(self) -> bool:
        return all(k == "single" for k, _ in self.lead_fmt)

    def _follow_ok(self, play: Counter, he: dict[str, int]) -> bool:
        if self.decks >= 3:
            from .titanic import follow_ok3
            return follow_ok3(dict(play), he, self.trump.pos, self.lead_fmt, self.lead_n)
        return cb.follow_ok_suited(dict(play), he, self.trump.pos, self.lead_fmt)

    def default_action(self, seat: int) -> Action | None:
        """§5.4: ``pass`` at a declaration prompt; the kitty buried unchanged; a lead of one
        card (lowest non-trump by ``pos``, ties D < C < H < S; else the lowest trump); the
        minimal legal follow. ``None`` when ``seat`` is not to act."""
        if seat not in self.to_act:
            return None
        if self.phase in ("deal", "window", "bao", "fan"):
            return PASS
        if self.phase == "bury":
            return Action("bury", tuple(c.face for c in self.kitty))
        key = self.trump.sort_key
        hand = [f for f, c in self.hands[seat].items() for _ in range(c)]
        if not self.trick:
            return _play((min(hand, key=key),))
        he = self._suit_holding(seat, self.lead_suit)
        n = self.lead_n
        if sum(he.values()) <= n:
            rest = sorted((f for f in hand if f not in he), key=key)
            mine = tuple(f for f, c in he.items() for _ in range(c))
            return _play(mine + tuple(rest[:n - len(mine)]))
        mine = sorted((f for f, c in he.items() for _ in range(c)), key=key)
        if self._free_follow():
            return _play(tuple(mine[:n]))
        best = min(self._follows(seat), key=lambda a: sorted(key(f) for f in a.faces))
        return best

    # ----- applying actions ----------------------------------------------------------------------
    def apply(self, action: Any, seat: int | None = None) -> None:
        """As :meth:`State.apply`, plus sanction entries (§5.3): ``fault …`` is accepted only for
        the team of the seat that enters it (a seat never faults the other team). Count and
        follow errors may be entered for a seat that is not on turn (a referee's entry, logged
        as ``[seat, text]``); play and bury faults need ``strict`` with the s000 sanctions and
        come from the seat on turn. Raises :class:`IllegalAction`, changing nothing."""
        fault = _as_fault(action, self.decks)
        if fault is not None and self.result is None and type(seat) is int and 0 <= seat < SEATS \
                and seat not in self.to_act:
            self._check_fault(fault, seat)
            self._apply_fault(fault)
            self.log.append([seat, str(fault)])
            return
        try:
            super().apply(action, seat)
        except IllegalAction:
            if self.result is None:
                self._refused = (self.turn if seat is None else seat, action)
            raise
        self._refused = None

    def apply_legal(self, action: Action, seat: int) -> None:
        """Apply ``action``, taken from this very state's ``legal_actions(seat)``, as
        :meth:`apply` does, without checking a play again (a search bot's tree moves and
        playouts): the same change and log entry."""
        if self.phase != "play" or self.result is not None or seat != self.turn:
            return self.apply(action, seat)
        faces = action.faces
        if self.trick:
            self._follow(seat, faces)
        else:
            self._lead(seat, faces, self.trump.eff[faces[0]])
        self.log.append(action.text)
        self._refused = None

    def _apply(self, action: Any, seat: int) -> None:
        if isinstance(action, Fault):
            self._check_fault(action, seat)
            return self._apply_fault(action)
        if not isinstance(action, Action):
            raise IllegalAction("not a shengji action (write pass, declare …, bury … or cards)", action,
                                code="shengji.not_shengji_action_write")
        if self.phase in ("deal", "window", "bao", "fan"):
            return self._apply_declaration(action, seat)
        if self.phase == "bury":
            return self._apply_bury(action, seat)
        if action.kind != "play":
            raise IllegalAction("it is the play: name the cards to play", action,
                                code="shengji.play_name_cards_play")
        return self._apply_play(action, seat)

    def _has(self, seat: int, faces: tuple[str, ...]) -> str | None:
        need = Counter(faces)
        missing = [f for f, c in need.items() if self.hands[seat][f] < c]
        if missing:
            cards = " ".join(sorted(missing, key=canonical_order))
            return Message("not in your hand: " + cards, code="not_in_hand", params={"cards": cards})
        return None

    def _apply_declaration(self, action: Action, seat: int) -> None:
        if action.kind == "pass":
            return self._answer(seat, False)
        if action.kind != "declare":
            raise IllegalAction("it is a declaration prompt: answer 'declare …' or 'pass'", action,
                                code="shengji.declaration_prompt_answer_declare")
        why = self._has(seat, action.faces)
        if why:
            raise IllegalAction(why, action)
        phase = self.phase if self.system == "bao" else ""
        level = self._decl_level(seat)
        try:
            strength, suit, name = dc.classify(self.system, action.faces, level, phase)
        except ValueError as e:
            raise IllegalAction(str(e), action, code="because", params=why_of(e, "unreadable")) from None
        if self.system == "ladder2" and self.standing is None and strength > 2:
            raise IllegalAction("the first declaration of a hand shows level cards (no direct no-trump)",
                                action, code="shengji.first_declaration_hand_shows")
        if self.phase == "fan" and seat == self.bao_seat and not self.fan_accepted:
            raise IllegalAction("the 报主 seat may 反主 only after another seat's 反主", action,
                                code="shengji.seat_may_only_after")
        if self.standing is not None and not strength > self.standing:
            raise IllegalAction("not stronger than the standing declaration", action,
                                code="shengji.not_stronger_standing_declaration")
        self.standing, self.standing_suit, self.standing_seat = strength, suit, seat
        self.trump_name = name
        if self.first_declarer is None and self.system != "bao":
            self.first_declarer = seat
        self.declarations.append({"seat": seat, "cards": list(action.faces), "trump": suit or "NT",
                                  "name": name})
        return self._answer(seat, True)

    def _answer(self, seat: int, accepted: bool) -> None:
        if self.system == "bao":
            return self._bao_answer(seat, accepted)
        return self._after_answer(seat, accepted)

    def _apply_bury(self, action: Action, seat: int) -> None:
        if action.kind != "bury":
            raise IllegalAction(f"the dealer buries {self.kitty_size} cards: 'bury …'", action,
                                code="shengji.dealer_buries_cards_bury",
                                params={"kitty_size": self.kitty_size})
        if len(action.faces) != self.kitty_size:
            raise IllegalAction(f"bury exactly {self.kitty_size} cards, not {len(action.faces)}", action,
                                code="shengji.bury_exactly_cards_not",
                                params={"kitty_size": self.kitty_size, "n_faces": len(action.faces)})
        why = self._has(seat, action.faces)
        if why:
            raise IllegalAction(why, action)
        for f in action.faces:
            self.buried.append(self._take(seat, f))
        self.phase = "play"
        self.trick_leader = seat
        self.turn = seat

    def _take(self, seat: int, face: str) -> Card:
        lst = self.cards[seat][face]
        card = min(lst, key=_deck) if len(lst) > 1 else lst[0]
        lst.remove(card)
        self.hands[seat][face] -= 1
        if not self.hands[seat][face]:
            del self.hands[seat][face]
        return card

    def _apply_play(self, action: Action, seat: int) -> None:
        why = self._has(seat, action.faces)
        if why:
            raise IllegalAction(why, action)
        eff = self.trump.eff
        faces = action.faces
        if not self.trick:
            suits = {eff[f] for f in faces}
            if len(suits) != 1:
                raise IllegalAction("a lead is cards of one effective suit (trumps count as one suit)",
                                    action, code="shengji.lead_cards_effective_suit")
            return self._lead(seat, faces, suits.pop())
        n = self.lead_n
        if len(faces) != n:
            raise IllegalAction(f"play exactly {n} cards (as many as the lead)", action,
                                code="shengji.play_exactly_cards_many", params={"n": n})
        he = self._suit_holding(seat, self.lead_suit)
        total_he = sum(he.values())
        play = Counter(faces)
        suit_name = "trumps" if self.lead_suit == TRUMP else f"suit {self.lead_suit}"
        if total_he <= n:
            if any(play[f] < c for f, c in he.items()):
                raise IllegalAction(f"you must play all your {suit_name} ({total_he}) first", action,
                                    code="shengji.must_play_all_first",
                                    params={"suit_name": self.lead_suit, "total_he": total_he})
        else:
            if any(eff[f] != self.lead_suit for f in faces):
                raise IllegalAction(f"you must follow with {suit_name}", action,
                                    code="shengji.must_follow", params={"suit_name": self.lead_suit})
            if not self._follow_ok(play, he):
                raise IllegalAction(self._why_follow(play, he), action)
        self._follow(seat, faces)

    def _why_follow(self, play: Counter, he: dict[str, int]) -> str:
        pos = self.trump.pos
        lengths = tuple(l for k, l in self.lead_fmt if k == "tractor")
        if lengths and cb.tractor_coverage(dict(play), pos, lengths) < cb.tractor_coverage(he, pos, lengths):
            return Message("you hold tractors of the led suit: follow the led tractor with them",
                           code="shengji.hold_tractors_led_suit")
        return Message("you must play pairs of the led suit to match the lead's pairs (as many as you hold)",
                       code="shengji.must_play_pairs_led")

    def _lead(self, seat: int, faces: tuple[str, ...], suit: str) -> None:
        pos = self.trump.pos
        comps = cb.decompose(cb.counts(faces), pos, self.decks)
        lead = faces
        if len(comps) > 1:
            beatable = [c for c in comps if any(
                cb.beats_component(c, self._suit_holding(o, suit), pos) for o in range(SEATS) if o != seat)]
            if beatable:
                forced = cb.forced_component(beatable)
                lead = forced.faces
                comps = [forced]
                pen = 10 * len(faces) if self.opt["failed_throw_penalty"] == "per_card_10" else 0
                attacker = team_of(seat) != team_of(self.dealer)
                self.penalty += -pen if attacker else pen
                self.failed_throws.append({"seat": seat, "attempted": list(faces),
                                           "forced": list(forced.faces), "penalty": pen,
                                           "trick": len(self.tricks) + 1})
        self.lead_fmt = cb.format_of(comps)
        self.lead_suit = suit
        self.lead_n = len(lead)
        self.trick_leader = seat
        self.win_seat = seat
        self.win_suit = suit
        self.win_key = cb.contender_key(cb.counts(lead), pos, self.lead_fmt, self.opt["throw_beat_rule"])
        self._put(seat, tuple(lead))

    def _put(self, seat: int, faces: tuple[str, ...]) -> None:
        for f in faces:
            self._take(seat, f)
        self.played[seat].extend(faces)
        self.trick.append((seat, tuple(sorted(faces, key=canonical_key))))
        if len(self.trick) == SEATS:
            self._end_trick()
        else:
            self.turn = (seat + 1) % SEATS

    def _follow(self, seat: int, faces: tuple[str, ...]) -> None:
        eff = self.trump.eff
        suits = {eff[f] for f in faces}
        if len(suits) == 1:
            s = suits.pop()
            if s in (self.lead_suit, TRUMP):
                key = cb.contender_key(cb.counts(faces), self.trump.pos, self.lead_fmt,
                                       self.opt["throw_beat_rule"])
                if key is not None:
                    if s == TRUMP and self.win_suit != TRUMP:
                        self.win_seat, self.win_key, self.win_suit = seat, key, TRUMP
                    elif s == self.win_suit and self._beats(key, self.win_key):
                        self.win_seat, self.win_key = seat, key
        self._put(seat, faces)

    def _beats(self, new: tuple, old: tuple) -> bool:
        if self.opt["throw_beat_rule"] == "all":
            return cb.beats_all(new, old, self.lead_fmt)
        return new > old

    def _end_trick(self) -> None:
        winner = self.win_seat
        pts = sum(face_points(f) for _, fs in self.trick for f in fs)
        attackers_win = team_of(winner) != team_of(self.dealer)
        if attackers_win:
            self.trick_points += pts
            self.captured.extend(f for _, fs in self.trick for f in fs if face_points(f))
        self.tricks.append({"leader": self.trick_leader, "plays": [[s, list(fs)] for s, fs in self.trick],
                            "winner": winner, "points": pts, "format": [list(s) for s in self.lead_fmt]})
        last_fmt = self.lead_fmt
        self.trick = []
        if not any(self.hands[s] for s in range(SEATS)):
            self._score(winner, last_fmt)
            return
        self.trick_leader = winner
        self.turn = winner

    # ----- views ---------------------------------------------------------------------------------
    def hand_faces(self, seat: int) -> list[str]:
        """``seat``'s cards as face codes, strongest group first (trumps, then S H C D)."""
        faces = [f for f, c in self.hands[seat].items() for _ in range(c)]
        if self.trump is not None:
            return sorted(faces, key=self.trump.display_keys().__getitem__)
        return sorted(faces, key=canonical_order)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees (``None`` = spectator): its own hand, card counts, levels, dealer,
        declarations, trump, the current and the last completed trick, every completed trick of
        the hand (``tricks``: ``[{"leader", "plays": [[seat, [faces]]...], "winner", "points"}]``,
        public: the cards were played face up; a competition table may show only the last,
        competition.md §5.8), the attackers' captured point cards, its own played cards, failed
        throws (public, §3.6), kitty cards turned up (§2.8); the buried cards only for the dealer,
        and for everyone after the hand. Never another seat's hand. Raises
        :class:`IllegalAction` for a bad seat."""
        out = self._view(seat)
        out["tricks"] = _tricks_view(self.tricks)
        return out

    def view_delta(self, seat: int | None, since: Any = None) -> ViewDelta:
        """The view as a change (:mod:`qipai.core.viewdelta`): ``tricks`` grows through the
        hand (a trick is appended when it is complete and never changes after); every other
        key is given again. ``legal`` is in the view only while the seat is to act: a change
        from a view with it to one without (or back) is a whole view."""
        def fixed() -> dict[str, Any]:
            out = self._view(seat)
            del out["tricks"]
            return out

        acting = seat is not None and seat in self.to_act
        return growing_delta(self, seat, since, (acting, len(self.tricks)), fixed,
                             lambda mark: {"tricks": _tricks_view(self.tricks[mark[1]:])})

    def seen_tricks(self, seat: int, since: Any = None) -> TrickSeen:
        """What ``view(seat)`` shows that the research tensor reads, without building the view
        (:class:`~qipai.cards.trickseen.TrickSeen`): the small keys (phase, counts, trump,
        roles, level, tricks played, the attackers' points), the seat's hand when it changed
        otherwise than by the seat's own plays since ``since`` (cards dealt, the kitty taken
        up, the burial), the current trick, the last completed trick when it changed since
        ``since``, and the public card lists' faces past ``since`` (the buried cards only to
        the dealer, and to everyone after the hand)."""
        over = self.result is not None
        buried = self.buried if (over or seat == self.dealer) and self.buried else ()
        tricks, captured, played, shown = self.tricks, self.captured, self.played[seat], self.kitty_shown
        # the hand changes by the cards dealt, the kitty taken up (with the trump fixed), the
        # cards buried and the seat's plays (the lengths marked)
        mark = (seat, len(shown), len(buried), len(captured), len(played), len(tricks),
                self.dealt, self.trump is not None, len(self.buried))
        keys = {"phase": self.phase, "counts": self.seen_counts(seat),
                "trump": self.trump.spec if self.trump else None, "dealer": self.dealer,
                "deal_start": self.p, "winning": self.win_seat if self.trick else None,
                "level": self.level, "tricks_played": len(tricks),
                "attacker_points": self.trick_points}
        whole = not continues(since, mark)
        if whole:
            since = (seat, 0, 0, 0, 0, -1)
        last = hand = None
        if since[5] != len(tricks):
            last = tuple((s, tuple(fs)) for s, fs in tricks[-1]["plays"]) if tricks else ()
        if whole or since[6:] != mark[6:]:
            hand = dict(self.hands[seat])
        public = (shown[since[1]:], [c.face for c in buried[since[2]:]], captured[since[3]:],
                  played[since[4]:])
        return TrickSeen(keys, hand, tuple(self.trick), last, public, mark, whole)

    def _view(self, seat: int | None) -> dict[str, Any]:
        """The view with ``tricks`` left ``None`` (the key in its place of the view)."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < SEATS):
            raise IllegalAction(f"no seat {seat!r} (seats are 0..3; None for a spectator)",
                                code="shengji.no_seat_seats_none", params={"seat": seat})
        over = self.result is not None
        out: dict[str, Any] = {
            "game": "shengji", "seat": seat, "phase": self.phase, "to_act": self.seen_to_act(seat),
            "hand": self.hand_faces(seat) if seat is not None else None,
            "counts": self.seen_counts(seat),
            "levels": list(self.levels), "dealer": self.dealer, "deal_start": self.p,
            "level": self.level, "trump": self.trump.spec if self.trump else None,
            "trump_name": self.trump_name,
            "declarations": [dict(d, cards=list(d["cards"])) for d in self.declarations],
            "kitty_shown": list(self.kitty_shown),
            "buried": ([c.face for c in self.buried]
                       if (over or seat == self.dealer) and self.buried else None),
            "trick": [[s, list(fs)] for s, fs in self.trick],
            "lead_format": [cb.shape_text(s) for s in self.lead_fmt] if self.trick else None,
            "winning": self.win_seat if self.trick else None,
            "last_trick": _copy_trick(self.tricks[-1]) if self.tricks else None,
            "tricks_played": len(self.tricks),
            "tricks": None,
            "attacker_points": self.trick_points, "captured": list(self.captured),
            "penalty": self.penalty,
            "played": list(self.played[seat]) if seat is not None else None,
            "failed_throws": [dict(x, attempted=list(x["attempted"]), forced=list(x["forced"]))
                              for x in self.failed_throws],
            "result": self.result.to_json() if over else None,
        }
        if seat is not None and seat in self.to_act:
            out["legal"] = self._legal_summary(seat)
        return out

    def _legal_summary(self, seat: int) -> dict[str, Any]:
        if self.phase in ("deal", "window", "bao", "fan"):
            return {"kind": "declaration", "actions": ["pass"] + [str(Action("declare", f))
                                                                  for f in self._candidates(seat)]}
        if self.phase == "bury":
            return {"kind": "bury", "count": self.kitty_size}
        if not self.trick:
            return {"kind": "lead", "count": "any, one effective suit"}
        return {"kind": "follow", "count": self.lead_n, "suit": self.lead_suit}

    def clone(self) -> ShengjiState:
        import copy
        return copy.deepcopy(self)

    def play_copy(self) -> ShengjiState:
        """A copy of a play-phase (or bury-phase) state that play may change independently (a
        search's playouts): what the bury and the play change is copied (the hands, the cards
        held, the buried cards, the plays, the tricks, the log), the rest shared (the deal, the
        trump, the options); another phase's or a finished state is cloned whole
        (:meth:`clone`)."""
        if self.phase not in ("play", "bury") or self.result is not None:
            return self.clone()
        import copy
        new = copy.copy(self)
        new.hands = [h.copy() for h in self.hands]
        new.cards = [{f: list(cs) for f, cs in held.items()} for held in self.cards]
        new.played = [list(p) for p in self.played]
        for name in ("log", "trick", "tricks", "captured", "failed_throws", "faults", "follow_errors",
                     "count_errors", "levels", "buried"):
            setattr(new, name, list(getattr(self, name)))
        return new

    def unbury(self) -> None:
        """Put a play-phase position (:meth:`_setup_position`) before its bury, no card played:
        the buried cards back in the dealer's hand, the dealer to bury (a search's sample of
        the dealer's bury)."""
        if self.phase != "play" or self.tricks or self.trick:
            raise ValueError("only a position before its first lead goes back to its bury")
        seat = self.dealer
        for card in self.buried:
            self.hands[seat][card.face] += 1
            self.cards[seat].setdefault(card.face, []).append(card)
        self.buried = []
        self.phase = "bury"
        self.turn = seat
        self.trick_leader = None


def _as_fault(action: Any, decks: int) -> Fault | None:
    """``action`` as a :class:`Fault` when it is one (object or ``fault …`` text), else ``None``."""
    if isinstance(action, Fault):
        return action
    if isinstance(action, str) and action.split()[:1] and action.split()[0].lower() == "fault":
        parsed = parse_action(action, decks)
        return parsed if isinstance(parsed, Fault) else None
    return None


def _tricks_view(tricks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"leader": t["leader"], "plays": [[s, list(fs)] for s, fs in t["plays"]],
             "winner": t["winner"], "points": t["points"]} for t in tricks]


def _copy_trick(t: dict[str, Any]) -> dict[str, Any]:
    return {**t, "plays": [[s, list(fs)] for s, fs in t["plays"]], "format": [list(x) for x in t["format"]]}


def _play(faces: tuple[str, ...]) -> Action:
    return Action("play", faces)


def _ordered_play(faces: tuple[str, ...]) -> Action:
    return Action("play", faces, ordered=True)


def _items(hand: dict[str, int]) -> list[tuple[str, int]]:
    """``(face, count)`` pairs in canonical order, so sub-multisets come out ordered."""
    return [(f, hand[f]) for f in sorted((f for f, c in hand.items() if c), key=canonical_key)]


def _deck(card: Card) -> int:
    return card.deck


def _small(seq: Sequence[Action]) -> Sequence[Action]:
    return list(seq) if len(seq) <= LIST_LIMIT else seq
