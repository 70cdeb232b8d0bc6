"""挖坑 breaker tests: faults found by driving the referee from outside, and an independent
check (written here from ``rules/wakeng.md`` alone) that random deals under every option are
compared against at every step: first bidder, bidding, digger and bid, first leader, every
legal action, the default action, the turn, and the score."""

from __future__ import annotations

import json
import random
import re

import pytest

import qipai
from qipai.cards import table_ids
from qipai.core.errors import IllegalAction
from tests.wakeng_helpers import run

RANKS = "456789TJQKA23"
CARD_ID = re.compile(r"\b[2-9TJQKA][SHDC]0\b")


# ----- faults ----------------------------------------------------------------------------------
@pytest.mark.parametrize("reason", ["resign", "timeout"])
def test_replayed_forfeit_never_names_a_seat_that_did_not_forfeit(reason):
    game = qipai.load("wakeng")
    for bids in ([], ["bid 1"], ["bid 2", "pass", "pass"], ["bid 3"]):
        for offender in range(3):
            s = game.new_state(seed=4)
            run(s, *bids)
            s.forfeit(offender, reason)
            again = game.state_from_json(json.loads(json.dumps(s.to_json())))
            assert (again.result.returns, again.result.text, again.result.winners,
                    again.result.reason) == (s.result.returns, s.result.text, s.result.winners, reason)
            assert again.result.details.get("offender") in (None, offender), (bids, offender)


def test_a_refused_action_changes_nothing_in_any_phase():
    game = qipai.load("wakeng", must_beat_if_able=True)
    bad = ["bid 4", "bid 0", "bid", "1 2", "foul", "", "456", "pass pass", "5H1", "AAAAA", "QKA",
           "45", "x" * 50, "LB", "cha 77"]
    for seed in range(6):
        s = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            seat = s.current_player
            legal = {str(a) for a in s.legal_actions()}
            before = json.dumps(s.to_json(), sort_keys=True)
            views = [s.view(x) for x in (0, 1, 2, None)]
            for text in bad + [a for a in ("pass", "bid 1", "3", "33", "4", "44") if a not in legal]:
                try:
                    action = game.parse_action(text, s)
                except IllegalAction:
                    continue
                if str(action) in legal:
                    continue
                with pytest.raises(IllegalAction):
                    s.apply(text)
                assert json.dumps(s.to_json(), sort_keys=True) == before
                assert [s.view(x) for x in (0, 1, 2, None)] == views
            for other in range(3):
                if other != seat:
                    with pytest.raises(IllegalAction):
                        s.apply(sorted(legal)[0], seat=other)
            s.apply(rng.choice(sorted(legal)))


def test_views_show_nothing_but_the_own_hand_and_the_diggers_pit():
    for reveal in (False, True):
        game = qipai.load("wakeng", reveal_pit=reveal)
        for seed in range(12):
            s = game.new_state(seed=seed)
            rng = random.Random(seed)
            while not s.is_terminal():
                public = None
                for seat in (0, 1, 2, None):
                    v = s.view(seat)
                    pit = sorted(c.id for c in s.pit)
                    if s.digger is None:
                        assert v["pit"] is None
                    else:
                        assert (v["pit"] is not None) == (reveal or seat == s.digger)
                        if v["pit"] is not None:
                            assert sorted(v["pit"]) == pit
                    shown = set(CARD_ID.findall(json.dumps(v)))
                    own = {c.id for c in s.hand(seat)} if seat is not None else set()
                    # the cards of every play were laid face up: public, shown by the table's
                    # labels of their ranks (qipai.cards.table_ids), never the cards taken
                    laid = [c for p in v["plays"] if len(p) > 2 for c in p[2]]
                    assert laid == table_ids((c for cards in s.play_cards for c in cards), {})
                    assert shown <= own | set(laid) | (set(pit) if v["pit"] is not None else set())
                    rest = {k: x for k, x in v.items() if k not in ("seat", "hand", "hand_ranks", "pit")}
                    assert public is None or rest == public
                    public = rest
                s.apply(rng.choice(s.legal_actions()))


# ----- independent check -----------------------------------------------------------------------
def classify(c):
    """§3.2: ``(type, length, key)`` of rank counts ``c`` or None."""
    n, sup = sum(c), [r for r in range(13) if c[r]]
    if len(sup) == 1:
        return (("single", "pair", "triple", "four")[n - 1], 1, sup[0])
    if n >= 3 and all(c[r] == 1 for r in sup) and sup[-1] <= 9 and sup[-1] - sup[0] == n - 1:
        return ("straight", n, sup[-1])
    return None


def plays_in(h):
    out = {tuple(k if x == r else 0 for x in range(13)) for r in range(13) for k in range(1, h[r] + 1)}
    for a in range(10):
        for b in range(a + 2, 10):
            if all(h[x] for x in range(a, b + 1)):
                out.add(tuple(1 if a <= x <= b else 0 for x in range(13)))
    return out


def text(c) -> str:
    return "".join(RANKS[r] * c[r] for r in range(13))


@pytest.mark.parametrize("direction", ["same", "opposite"])
@pytest.mark.parametrize("must_beat", [False, True])
def test_random_deals_agree_with_an_independent_check(direction, must_beat):
    game = qipai.load("wakeng", bid_direction=direction, must_beat_if_able=must_beat)
    step = 1 if direction == "same" else -1
    for seed in range(80):
        s = game.new_state(seed=seed)
        rng = random.Random(seed)
        held = [[c.id[:2] for c in s.hand(x)] for x in range(3)]
        first = next(x for card in ("5H", "6H", "7H", "8H", "9H") for x in range(3) if card in held[x])
        assert s.first_bidder == first and s.to_act == (first,)
        high, high_seat, turn = 0, None, first
        for _ in range(3):
            assert s.to_act == (turn,) and s.clock_phase(turn) == "bid"
            legal = ["pass"] + [f"bid {v}" for v in (1, 2, 3) if v > high]
            assert [str(a) for a in s.legal_actions()] == legal
            assert str(s.default_action(turn)) == "pass"
            act = rng.choice(legal + ["pass"])
            s.apply(act)
            if act != "pass":
                high, high_seat = int(act[-1]), turn
                if high == 3:
                    break
            turn = (turn + step) % 3
        digger, bid = (high_seat, high) if high_seat is not None else (first, 1)
        assert (s.digger, s.bid, s.forced) == (digger, bid, high_seat is None)
        held[digger] += [c.id[:2] for c in s.pit]
        h = [[sum(c[0] == r for c in held[x]) for r in RANKS] for x in range(3)]
        assert [sum(r) for r in h] == [20 if x == digger else 16 for x in range(3)]
        turn = next(x for x in range(3) if "4H" in held[x])
        assert s.first_leader == turn and s.clock_phase(turn) == "first_lead"
        top, top_seat, passes = None, None, 0
        while True:
            assert s.to_act == (turn,)
            mine = plays_in(h[turn])
            if top is None:
                legal = {text(c) for c in mine}
            else:
                beat = {text(c) for c in mine if (b := classify(c))[:2] == top[:2] and b[2] > top[2]}
                legal = beat if beat and must_beat else beat | {"pass"}
            assert {str(a) for a in s.legal_actions()} == legal
            d = str(s.default_action(turn))
            if top is None:
                low = min(r for r in range(13) if h[turn][r])
                assert d == RANKS[low]
            elif not (must_beat and legal - {"pass"}):
                assert d == "pass"
            else:
                assert d in legal
            act = rng.choice(sorted(legal))
            s.apply(act)
            if act == "pass":
                passes += 1
                turn = (turn + 1) % 3
                if passes == 2:
                    turn, top, passes = top_seat, None, 0
                continue
            c = [act.count(r) for r in RANKS]
            h[turn] = [a - b for a, b in zip(h[turn], c)]
            top, top_seat, passes = classify(c), turn, 0
            if not sum(h[turn]):
                sign = 1 if turn == digger else -1
                assert s.result.returns == tuple(2 * bid * sign if x == digger else -bid * sign
                                                 for x in range(3))
                assert s.result.winners == ((digger,) if turn == digger else
                                            tuple(x for x in range(3) if x != digger))
                assert s.result.reason == "out" and s.result.details["out"] == turn
                break
            turn = (turn + 1) % 3
