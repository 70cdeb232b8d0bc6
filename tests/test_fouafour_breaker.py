"""4A4 breaker tests: faults found by driving the referee from outside, and an independent
shadow referee (written here from ``rules/fouafour.md`` alone) that random deals are compared
against at every step: who is to act, every seat's legal actions, the 叉/勾 windows, 接风 and
the outcome."""

from __future__ import annotations

import json
import random

import pytest

import qipai
from qipai.core.errors import IllegalAction
from tests.fouafour_helpers import new, run

RANKS = "3456789TJQKA2LB"
SMALL, BIG, TWO, ACE, FOUR = 13, 14, 12, 11, 1


def snap(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


# ----- faults ----------------------------------------------------------------------------------
def test_card_codes_in_a_shared_window_must_be_in_the_answering_seats_hand():
    # seat 0 leads 7H; seat 2 holds 7C 7D, seat 3 holds 7S: every other seat is asked at once
    s = new("3H 7H", "", "7C 7D", "7S")
    run(s, "7H")
    assert s.phase == "cha" and s.to_act == (1, 2, 3)
    before = snap(s)
    for seat, text in ((2, "7S 7H"), (2, "cha 7H 7S"), (2, "7C 7S"), (3, "7S 7C"), (1, "cha 7C 7D")):
        with pytest.raises(IllegalAction):
            s.apply(text, seat=seat)
        assert snap(s) == before
    s.apply("7D 7C", seat=2)                    # the cards seat 2 really holds
    assert s.play_log[-1][1].text == "cha 77" and s.phase == "gou"
    with pytest.raises(IllegalAction, match="7H"):
        s.apply("gou 7H", seat=3)               # 7H is on the table, not in seat 3's hand
    s.apply("7S", seat=3)
    assert [(seat, str(a)) for seat, a in s.play_log] == [(0, "7"), (2, "cha 77"), (3, "gou 7")]
    assert s.turn == 3 and "7S0" not in [c.id for c in s.hand(3)]


def test_an_external_ending_in_a_window_closes_the_window():
    s = new("3H 7H", "", "77")
    run(s, "7")
    assert s.phase == "cha"
    s.resign(1)
    v = s.view(0)
    assert v["phase"] == "over" and v["window"] is None and v["to_act"] == []
    assert s.clock_phase(0) is None and s.default_action(2) is None


def test_replayed_forfeit_never_names_a_seat_that_did_not_forfeit():
    game = qipai.load("fouafour")
    for offender in range(4):
        s = game.new_state(seed=4)
        s.forfeit(offender, "resign")
        again = game.state_from_json(json.loads(json.dumps(s.to_json())))
        assert again.result.returns == s.result.returns and again.result.text == s.result.text
        assert again.result.details.get("offender") in (None, offender)


# ----- hidden information in the windows ---------------------------------------------------------
def _public(state, seat):
    return {k: x for k, x in state.view(seat).items() if k not in ("hand", "hand_ranks")}


def _same_to_everyone_else(a, b, mover):
    """Everything any seat sees is the same in ``a`` and ``b`` (views without the own hand,
    to_act, default actions, clocks), and the legal actions of every seat but ``mover``."""
    assert a.to_act == b.to_act
    for seat in (0, 1, 2, 3, None):
        assert _public(a, seat) == _public(b, seat)
    for seat in range(4):
        assert str(a.default_action(seat)) == str(b.default_action(seat))
        assert a.clock_phase(seat) == b.clock_phase(seat)
        if seat != mover:
            assert a.legal_actions(seat) == b.legal_actions(seat)


def test_who_could_cha_is_never_visible():
    """Seat 2 can 叉 in one deal and nobody can in the other: nothing else differs."""
    a = new("3H 7H", "", "7C 7D", "7S")
    b = new("3H 7H", "7S", "7C", "7D")
    run(a, "7"), run(b, "7")
    assert a.phase == b.phase == "cha" and a.to_act == (1, 2, 3)
    assert [str(x) for x in a.legal_actions(2)] == ["pass", "cha 77"]
    assert [str(x) for x in b.legal_actions(2)] == ["pass"]
    _same_to_everyone_else(a, b, 2)
    for s in (a, b):
        s.apply("pass", seat=1)
        s.apply("pass", seat=3)
    _same_to_everyone_else(a, b, 2)
    assert a.to_act == (2,)


def test_who_could_gou_is_never_visible():
    """After seat 2's 叉 the fourth 7 is with seat 3 or with seat 1."""
    a = new("3H 7H", "", "7C 7D", "7S")
    b = new("3H 7H", "7S", "7C 7D", "")
    for s in (a, b):
        run(s, "7")
        s.apply("cha 77", seat=2)
    assert a.phase == b.phase == "gou" and a.to_act == (0, 1, 3)
    a_hand = {k: a.view(k)["hand"] for k in range(4)}
    assert a_hand[3] != b.view(3)["hand"]
    for seat in (0, 1, 3):
        assert {k: x for k, x in a.view(seat).items() if k not in ("hand", "hand_ranks")} == \
            {k: x for k, x in b.view(seat).items() if k not in ("hand", "hand_ranks")}
    for s in (a, b):
        s.apply("pass", seat=0)
    assert a.to_act == b.to_act == (1, 3)
    assert [str(x) for x in a.legal_actions(3)] == ["pass", "gou 7"]
    assert [str(x) for x in b.legal_actions(1)] == ["pass", "gou 7"]


def test_every_window_asks_every_other_seat_still_holding_cards():
    game = qipai.load("fouafour")
    opened = 0
    for seed in range(40):
        s = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            seat = rng.choice(s.to_act)
            was = s.phase
            s.apply(rng.choice(s.legal_actions(seat)), seat=seat)
            if s.phase in ("cha", "gou") and s.phase != was:
                by = s.window["by"]
                assert s.to_act == tuple(x for x in range(4) if x != by and len(s.hand(x)))
                opened += 1
    assert opened > 100


# ----- independent shadow referee -------------------------------------------------------------
def classify(c):
    """``(type, length, key, bomb class)`` of rank counts ``c``, or None (§3.2)."""
    n, sup = sum(c), [r for r in range(15) if c[r]]
    if n == 1:
        return ("single", 1, sup[0], 0)
    if len(sup) == 1 and sup[0] < SMALL:
        return {2: ("pair", 1, sup[0], 0), 3: ("bomb3", 1, sup[0], 1), 4: ("bomb4", 1, sup[0], 2)}.get(n)
    if sup == [SMALL, BIG]:
        return ("joker_bomb", 1, BIG, 3)
    if n == 3 and c[FOUR] == 2 and c[ACE] == 1:
        return ("fouafour", 1, ACE, 4)
    per = {c[r] for r in sup}
    if len(per) == 1 and per <= {1, 2} and len(sup) >= 3 and sup[-1] <= ACE \
            and sup[-1] - sup[0] == len(sup) - 1:
        return ("straight" if per == {1} else "sisters", len(sup), sup[-1], 0)
    return None


def beats(a, b) -> bool:
    """§3.3."""
    if a[3] != b[3]:
        return a[3] > b[3]
    if a[3] == 0:
        return a[:2] == b[:2] and a[2] > b[2]
    return a[3] in (1, 2) and a[2] > b[2]


def plays_in(h) -> list[tuple[int, ...]]:
    """Every combination inside hand counts ``h``, by brute force over the card sets that have
    one rank, or one or two cards of each rank of a run, plus LB and 44A."""
    out = set()
    for r in range(15):
        for k in range(1, h[r] + 1):
            out.add(tuple(k if x == r else 0 for x in range(15)))
    for per in (1, 2):
        for a in range(12):
            for b in range(a + 2, 12):
                if all(h[x] >= per for x in range(a, b + 1)):
                    out.add(tuple(per if a <= x <= b else 0 for x in range(15)))
    out.add(tuple(1 if x in (SMALL, BIG) else 0 for x in range(15)))
    out.add(tuple({FOUR: 2, ACE: 1}.get(x, 0) for x in range(15)))
    return [c for c in out if classify(c) and all(c[r] <= h[r] for r in range(15))]


def text(c) -> str:
    return "".join(RANKS[r] * c[r] for r in range(15))


class Shadow:
    """The deal as the rule file tells it, kept apart from the engine."""

    def __init__(self, hands, leader, first_out_wins):
        self.h, self.turn, self.fow = [list(x) for x in hands], leader, first_out_wins
        self.top = self.top_seat = self.win = self.result = None
        self.passed, self.out = set(), []

    def active(self, s):
        return sum(self.h[s]) > 0

    def next_active(self, s):
        return next((s + k) % 4 for k in range(1, 5) if self.active((s + k) % 4))

    def to_act(self):
        if self.result is not None:
            return set()
        return set(self.win["wait"]) if self.win else {self.turn}

    def legal(self, s):
        if s not in self.to_act():
            return set()
        h = self.h[s]
        if self.win:
            r, need = self.win["rank"], 2 if self.win["kind"] == "cha" else 1
            return {"pass"} | ({f"{self.win['kind']} {RANKS[r] * need}"} if h[r] >= need else set())
        if self.top is None:
            return {text(c) for c in plays_in(h)}
        return {"pass"} | {text(c) for c in plays_in(h) if beats(classify(c), self.top)}

    def went_out(self, s):
        if self.active(s):
            return False
        self.out.append(s)
        if self.fow:
            self.result = ("first_out", s % 2)
        elif (s + 2) % 4 in self.out:
            self.result = ("out", s % 2 if s % 2 == self.out[0] % 2 else None)
        return self.result is not None

    def end_trick(self, w):
        self.turn = w if self.active(w) else (w + 2) % 4
        self.top = self.top_seat = self.win = None
        self.passed = set()

    def open(self, kind, r, by):
        self.win = {"kind": kind, "rank": r, "by": by,
                    "wait": [x for x in range(4) if x != by and self.active(x)]}

    def apply(self, s, t):
        if self.win:
            w = self.win
            if t == "pass":
                w["wait"].remove(s)
                if not w["wait"]:
                    self.win = None
                    if w["kind"] == "cha":
                        self.turn = self.next_active(w["by"])
                    else:
                        self.end_trick(w["by"])
                return
            kind, cards = t.split()
            self.h[s][RANKS.index(cards[0])] -= len(cards)
            self.win = None
            if not self.went_out(s):
                self.open("gou", w["rank"], s) if kind == "cha" else self.end_trick(s)
            return
        if t == "pass":
            self.passed.add(s)
            if all(x in self.passed for x in range(4) if x != self.top_seat and self.active(x)):
                self.end_trick(self.top_seat)
            else:
                self.turn = self.next_active(s)
            return
        c = [0] * 15
        for ch in t:
            c[RANKS.index(ch)] += 1
        self.h[s] = [a - b for a, b in zip(self.h[s], c)]
        self.top, self.top_seat, self.passed = classify(c), s, set()
        if self.went_out(s):
            return
        if self.top[0] == "single" and self.top[2] < SMALL:
            self.open("cha", self.top[2], s)
        else:
            self.turn = self.next_active(s)


@pytest.mark.parametrize("first_out_wins", [False, True])
def test_random_deals_agree_with_the_shadow_referee(first_out_wins):
    game = qipai.load("fouafour", first_out_wins=first_out_wins)
    windows = claims = 0
    for seed in range(60):
        s = game.new_state(seed=seed)
        sh = Shadow([s.hands[x].counts for x in range(4)], s.first_leader, first_out_wins)
        rng = random.Random(seed)
        while not s.is_terminal():
            assert set(s.to_act) == sh.to_act()
            for seat in range(4):
                assert {str(a) for a in s.legal_actions(seat)} == sh.legal(seat), (seed, seat)
            windows += s.window is not None
            seat = rng.choice(s.to_act)
            legal = [str(a) for a in s.legal_actions(seat)]
            claim = [a for a in legal if a[:3] in ("cha", "gou")]
            if claim and rng.random() < 0.8:
                act, claims = claim[0], claims + 1
            else:
                act = rng.choice([a for a in legal if a != "pass"] or legal) if rng.random() < 0.6 \
                    else rng.choice(legal)
            s.apply(act, seat=seat)
            sh.apply(seat, act)
        assert sh.result == (s.result.reason, s.result.details["team"]), seed
        assert s.result.details["order"] == sh.out
    assert windows > 500 and claims > 20
