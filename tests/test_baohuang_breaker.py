"""保皇 bad input: every refusal names its reason and leaves the state unchanged; bad deals and
records name what is wrong (rules/baohuang.md §2-§3, contract)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import qipai
from qipai.core.errors import IllegalAction, NotationError, OptionError, RecordError
from qipai.core.record import Record, replay
from qipai.games.baohuang.sets import ORDER
from tests.baohuang_helpers import make_deal, set_hands, start_play


def refused(state, action, match, seat=None):
    before = json.dumps(state.to_json(), sort_keys=True)
    views = [state.view(s) for s in range(5)]
    with pytest.raises(IllegalAction, match=match):
        state.apply(action, seat=seat)
    assert json.dumps(state.to_json(), sort_keys=True) == before
    assert [state.view(s) for s in range(5)] == views


@pytest.mark.parametrize("text, match", [
    ("", "empty"), ("@@", "cannot read"), ("99TT", "one normal rank"), ("pass now", "pass"),
    ("decline 7H0", "only a 2"), ("decline 2X0", "not a card"), ("declare", "declare names"),
    ("declare 7H0 7H1", "declare names"), ("9H4", "four packs"), ("9H0 9", "not both"),
    ("9H0 9H0", "twice"), ("accept now", "nothing after"), ("declare 2S", "never a 2"),
    ("declare LJ0 LJ1 LJ2", "never a 2 or a joker"), ("declare 5S0 5S1 5H0", "same rank and suit"),
])
def test_garbage_text_is_refused_with_a_reason(text, match):
    game = qipai.load("baohuang")
    state = game.new_state(seed=1)
    with pytest.raises(IllegalAction, match=match):
        game.parse_action(text, state)
    refused(state, text, match)


def test_out_of_turn_and_wrong_seat():
    state = qipai.load("baohuang").new_state(seed=2)
    other = (state.current_player + 1) % 5
    refused(state, "decline", "not to act", seat=other)
    refused(state, "decline", "no seat", seat=7)
    refused(state, "decline", "no seat", seat="x")
    with pytest.raises(IllegalAction, match="no seat"):
        state.view(5)


def test_selection_refusals():
    deal = make_deal({2: ["9H0", "9H1", "9H2", "2S0"], 1: ["8D0", "8D1", "8D2", "2S1"]}, c0=2,
                     avoid={1: "2", 2: "2"})
    state = qipai.load("baohuang").new_state(deal=deal)
    refused(state, "decline 2S0", "first candidate's first decline adds no 2")
    refused(state, "pass", "accepts or declines")
    refused(state, "999", "accepts or declines")
    refused(state, "declare 9H", "accepts or declines")
    state.apply("decline")
    refused(state, "decline 2H0", "not in your hand")     # a card id is read as its face
    state.apply("accept")
    refused(state, "accept", "name the guard card")
    refused(state, "declare 9H", "you hold 0 copies")
    refused(state, "declare 8D0 8D1 8D2 8D3", "not in your hand: 8D3")
    refused(state, "declare 8Dx4", "4 must be revealed")


def test_accept_without_a_qualifying_triple_is_refused():
    deal = make_deal({2: ["9H0", "9H1", "9H2"]}, c0=2)
    state = qipai.load("baohuang").new_state(deal=deal)
    state.apply("decline")
    # seats 1, 0, 4, 3 hold no triple: each is asked and may only decline (accept is refused)
    for seat in (1, 0, 4, 3):
        assert state.current_player == seat
        refused(state, "accept", "no qualifying triple")
        state.apply(state.default_action(seat))
    assert state.current_player == 2
    state.hands[2][6] = state.hands[2][6][:2]      # take one 9 away to check the guard in apply
    state.counts[2][6] = 2
    refused(state, "accept", "no qualifying triple")


def test_play_refusals():
    state = start_play(0, 1)
    set_hands(state, {0: "99LL3", 1: "TTT4", 2: "444B", 3: "KKKKL", 4: "55"})
    refused(state, "pass", "leader must play")
    refused(state, "TTT", "do not hold")
    refused(state, "9D3", "hold no")                 # seat 0's 9s are 9S and 9H
    refused(state, "accept", "set of cards or 'pass'")
    state.apply("99LL")
    refused(state, "pass jiefeng", "接风")
    refused(state, "TTT4", "one normal rank")
    refused(state, "TTT", "as many cards")
    state.apply("pass")
    refused(state, "444B", "not higher")
    state.apply("pass")
    refused(state, "KKKL", "big joker")
    refused(state, "KKKK", "big joker")


def test_unbeatable_big_joker_set():
    state = start_play(0, 1)
    set_hands(state, {0: "B33", 1: "B", 2: "4", 3: "5", 4: "6"})
    state.apply("B")
    refused(state, "B", "cannot be beaten")
    assert [str(a) for a in state.legal_actions()] == ["pass"]


def test_game_over_refuses_everything():
    state = start_play(0, 1)
    state.agree_draw()
    refused(state, "pass", "over")
    assert state.returns() == [0] * 5


def test_bad_deals_and_options():
    game = qipai.load("baohuang")
    good = make_deal({}, c0=0)
    with pytest.raises(NotationError, match="5 hands of 43"):
        game.new_state(deal={**good, "hands": good["hands"][:4]})
    bad = json.loads(json.dumps(good))
    bad["hands"][0][0] = "BJ0"
    with pytest.raises(NotationError, match="without the reserved BJ0"):
        game.new_state(deal=bad)
    with pytest.raises(NotationError, match="c0"):
        game.new_state(deal={**good, "c0": 5})
    with pytest.raises(NotationError, match="not both"):
        game.new_state(seed=1, deal=good)
    with pytest.raises(NotationError, match="previous"):
        game.new_state(seed=1, deal={"previous": {"emperor": 0}})
    with pytest.raises(NotationError, match="5 seats"):
        game.new_state(seed=1, num_seats=4)
    with pytest.raises(NotationError, match="position"):
        game.new_state(position="x")
    with pytest.raises(OptionError, match="valid values"):
        qipai.load("baohuang", reserved_joker="LJ0")
    with pytest.raises(OptionError, match=">= 1"):
        qipai.load("baohuang", deals_per_match=0)


def test_bad_record_names_the_move():
    state = qipai.load("baohuang").new_state(seed=4)
    for _ in range(12):
        state.apply(state.default_action(state.current_player))
    data = state.to_json()
    data["actions"][-1] = "BBBBB"
    with pytest.raises(RecordError, match=f"move {len(data['actions'])}"):
        replay(Record.from_json(data))


def test_result_text_round_trip_and_forfeit():
    state = qipai.load("baohuang").new_state(seed=4)
    state.end_by_result_text("+4 +2 -2 -2 -2", "arbiter")
    assert state.result.winners == (0, 1)
    with pytest.raises(IllegalAction, match="five signed integers"):
        qipai.load("baohuang").new_state(seed=4).end_by_result_text("1-0", "arbiter")
    early = qipai.load("baohuang").new_state(seed=4)
    early.forfeit(early.current_player, "timeout")
    assert sorted(early.returns()) == [-4, 1, 1, 1, 1]
    late = start_play(0, 1)
    late.resign(2)                                 # a revolutionary resigns: he is last, his side loses
    assert late.result.details["order"][-1] == 2 and late.result.winners == (0, 1)


def test_explicit_deal_with_a_void_round_trips():
    """§2.6: an explicit deal where nobody can accept is voided and redealt from a generator
    derived from the deal itself, so the record replays to the same state."""
    game = qipai.load("baohuang")
    state = game.new_state(deal=make_deal({}, c0=3))
    while not state.voids:                         # every candidate declines, c0 twice
        state.apply(state.default_action(state.current_player))
    assert len(state.selection) == 0 and len(state.dealt) == state.voids + 1
    for _ in range(30):
        state.apply(state.default_action(state.current_player))
    again = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again.to_json() == state.to_json() and again.view(None) == state.view(None)
    assert again.dealt == state.dealt


# ----- adversarial findings (breaker) -------------------------------------------------------------

def _views(state):
    return [json.dumps(state.view(s), sort_keys=True) for s in (*range(5), None)]


def test_forged_card_play_objects_are_refused_unchanged():
    """apply() takes action objects as well as text; an object whose cards repeat or do not make
    its set must be refused like the same text, not crash half-way or play other cards."""
    from qipai.games.baohuang.actions import CardPlay
    from qipai.games.baohuang.sets import play
    state = start_play(0, 1)
    set_hands(state, {0: "99988", 1: "TTT4", 2: "444", 3: "KKKK", 4: "55"})
    nine = state.hands[0][ORDER.index["9"]][0]
    eight = state.hands[0][ORDER.index["8"]][0]
    before = _views(state)
    for forged in (CardPlay(play(ORDER.index["9"], 2, 0, 0), (nine, nine), ()),     # one card twice
                   CardPlay(play(ORDER.index["9"], 1, 0, 0), (eight,), ())):       # cards are not the set
        with pytest.raises(IllegalAction):
            state.apply(forged)
        assert _views(state) == before
    assert state.sizes[0] == len(state.hand(0)) == 5


def test_forged_empty_set_is_refused():
    from qipai.games.baohuang.sets import Play
    state = start_play(0, 1)
    before = _views(state)
    with pytest.raises(IllegalAction):
        state.apply(Play(None, 0, 0, 0))
    assert _views(state) == before


def test_forged_declare_with_a_repeated_card_is_refused():
    """§2.5: three copies must be revealed; the same card id twice is two copies only."""
    from qipai.cards import parse_card
    from qipai.games.baohuang.actions import Declare
    state = qipai.load("baohuang").new_state(deal=make_deal({0: ["7H0", "7H1", "9S0", "9S1", "9S2"]}, c0=0))
    state.apply("accept")
    before = _views(state)
    forged = Declare("7H", (parse_card("7H0"), parse_card("7H0"), parse_card("7H1")))
    with pytest.raises(IllegalAction):
        state.apply(forged)
    assert _views(state) == before and state.phase == "declare"


@pytest.mark.parametrize("when", ["select", "play", "draw"])
def test_external_endings_round_trip_through_the_record(when):
    """A resigned or timed-out deal reloaded from its JSON record has the same result, including
    the details the next deal's tribute is taken from (§4.4 tribute_basis)."""
    from qipai.games.baohuang.match import Match
    game = qipai.load("baohuang")
    state = game.new_state(seed=5)
    if when != "select":
        for _ in range(80):
            state.apply(state.legal_actions()[-1 if state.phase == "play" else 0])
    if when == "draw":
        state.agree_draw()
    else:
        state.forfeit(state.current_player if when == "select" else 2, "timeout")
    again = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again.result.to_json() == state.result.to_json()
    again = replay(Record.from_json(json.loads(state.to_record().dumps())))
    assert again.result.to_json() == state.result.to_json()
    if when == "play":
        basis = again.result.details["tribute_basis"]
        assert basis is not None and basis == state.result.details["tribute_basis"]
        match = Match(game, 1)
        match.states.append(again)
        assert match.next_state().tribute               # the tribute owed is still paid


def test_two_revolutionaries_forfeiting_give_distinct_records():
    """Revolutionaries share one score, so the returns alone do not say who forfeited; the
    finishing order (and so the next tribute, §4.4) does. The record must keep it."""
    game = qipai.load("baohuang")
    base = game.new_state(seed=5)
    while base.phase != "play":
        base.apply(base.legal_actions()[0])          # accept, then declare
    revs = [s for s in range(5) if s not in base.team()]
    orders = []
    for seat in revs[:2]:
        st = game.state_from_json(base.to_json())
        st.forfeit(seat, "resign")
        again = replay(Record.from_json(json.loads(st.to_record().dumps())))
        assert again.result.details["forfeit"] == seat
        assert again.result.details["order"] == st.result.details["order"]
        orders.append(st.result.details["order"])
    assert orders[0] != orders[1]


@pytest.mark.parametrize("basis", [
    {"emperor": 0, "guard": 1, "mode": "normal", "side_score": 6, "order": [4, 3, 2, 1, 0]},  # T is -6
    {"emperor": 0, "guard": None, "mode": "ming_du", "side_score": -1, "order": [4, 3, 2, 1, 0]},
    {"emperor": 2, "guard": None, "mode": "hidden_du", "side_score": 0, "order": [2, 3, 4, 0, 1]},
])
def test_tribute_basis_whose_score_contradicts_its_order_is_refused(basis):
    """§4.4 takes the tribute from the previous deal's roles, result and finishing order; the
    side score T is fixed by the order (§4.2), so a basis where they disagree is malformed and
    must not decide who pays whom."""
    with pytest.raises(NotationError, match="side_score"):
        qipai.load("baohuang").new_state(seed=1, deal={"previous": basis})


def test_rule_bot_names_a_triple_it_holds_exactly_three_of():
    """The rule bot's documented declaration: a triple held exactly three times (a guard to
    play with), not three copies of a face it holds four of (that would be a hidden 独)."""
    from qipai.bots import make_bot
    deal = make_deal({0: ["7H0", "7H1", "7H2", "7H3", "9S0", "9S1", "9S2"]}, c0=0)
    state = qipai.load("baohuang").new_state(deal=deal)
    state.apply("accept")
    action = make_bot("baohuang", "rule", 0).choose(state, 0)
    state.apply(action)
    assert state.named == "9S" and state.mode == "normal"


# ----- independent model of §3.3-§4.3, checked against the referee on random small deals --------

def _my_sets(counts):
    """Every (rank or None, n, s, b) a hand with these per-rank counts can form (§3.2)."""
    small, big = counts[13], counts[14]
    out = {(r, n, s, b) for r in range(13) for n in range(1, counts[r] + 1)
           for s in range(small + 1) for b in range(big + 1)}
    out |= {(None, 0, s, b) for s in range(small + 1) for b in range(big + 1) if s + b}
    return out


def _my_beats(f, t):
    """§3.3 written out again: same size, no big joker on the table, higher base, and a big joker
    in the follower when the table set carries small jokers."""
    def base(p):
        return p[0] if p[1] else (13 if p[2] else 14)
    size_f, size_t = sum(f[1:]), sum(t[1:])
    return (size_f == size_t and not t[3] and base(f) > base(t)
            and (not t[2] or bool(f[3])))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9))
def test_random_small_deals_follow_an_independent_model(seed):
    """Turn order, trick ends, 接风 (§3.4), legal sets (§3.3/§3.6), early finish and the finishing
    order (§3.5) and the returns of every mode and scoring option (§4.1-§4.3), each recomputed
    here without the engine's code."""
    import random

    from qipai.games.baohuang.game import PLACE_POINTS
    rng = random.Random(seed)
    mode = rng.choice(["normal", "hidden_du", "ming_du"])
    early, scoring = rng.random() < 0.5, rng.choice(["weighted", "team"])
    emperor = rng.randrange(5)
    guard = rng.choice([s for s in range(5) if s != emperor]) if mode == "normal" else None
    state = start_play(emperor, guard, four=mode == "ming_du", early_finish=early,
                       individual_scoring=scoring)
    assert state.mode == mode and state.guard == guard
    pool = list("3456789TJQKA2" * 4 + "LLLLBBB")
    rng.shuffle(pool)
    hands = {}
    for s in range(5):
        k = rng.randint(1, 7)
        hands[s], pool = "".join(pool[:k]), pool[k:]
    set_hands(state, hands)
    sizes = {s: len(hands[s]) for s in range(5)}
    team = {emperor} | ({guard} if guard is not None else set())

    def nxt(seat):
        return next((seat + k) % 5 for k in range(1, 6) if sizes[(seat + k) % 5])

    turn, top, top_seat, passes, finished, applicant = emperor, None, None, 0, [], None
    while not state.is_terminal():
        assert state.current_player == turn
        counts = state.counts[turn]
        sets = {(a.rank, a.n, a.s, a.b) for a in state.legal_actions() if a.kind == "play"}
        expected = _my_sets(counts) if top is None else {p for p in _my_sets(counts) if _my_beats(p, top)}
        assert sets == expected
        action = rng.choice(state.legal_actions())
        if action.kind == "pass":
            assert (str(action) == "pass jiefeng") == (turn == applicant)
        state.apply(action)
        if action.kind == "pass":
            applicant = None if turn == applicant else applicant
            passes += 1
            if passes == len([s for s in range(5) if sizes[s] and s != top_seat]):
                turn = top_seat if sizes[top_seat] else nxt(top_seat)
                top, passes = None, 0
            else:
                turn = nxt(turn)
            continue
        sizes[turn] -= action.size
        top, top_seat, passes, applicant = (action.rank, action.n, action.s, action.b), turn, 0, None
        if sizes[turn] == 0:
            finished.append(turn)
            left = {s for s in range(5) if sizes[s]}
            if len(left) <= 1 or (early and (left <= team or not left & team)):
                turn = nxt(turn) if left else turn
                break
            applicant = nxt(turn)
        turn = nxt(turn)
    assert state.is_terminal()
    d = state.result.details
    rest = sorted((s for s in range(5) if sizes[s]), key=lambda s: (sizes[s], (s - turn) % 5))
    assert d["order"] == finished + rest
    t = sum(PLACE_POINTS[d["order"].index(s)] for s in team)
    m = 2 if mode == "ming_du" else 1
    if scoring == "team":
        expected_returns = [m * (t if s in team else -t) for s in range(5)]
    else:
        share = {"normal": 2, "hidden_du": 4, "ming_du": 4}[mode]
        expected_returns = [m * (share * t if s == emperor else t if s in team else -t) for s in range(5)]
    assert list(state.returns()) == expected_returns
    assert d["side_score"] == t and d["early_finish"] == (state.result.reason == "early_finish")
    assert set(state.result.winners) == (team if t > 0 else set(range(5)) - team if t < 0 else set())


def test_views_cannot_tell_the_guard_or_a_hidden_du_apart():
    """§2.5/§3.6: a revolutionary's view (own hand aside) and a spectator's are the same whether
    seat 1 or seat 2 is the guard or the emperor plays a hidden 独; only the guard's own view and
    the emperor's differ."""
    def public(state, seat):
        v = state.view(seat)
        return {k: x for k, x in v.items() if k not in ("hand", "hand_ranks")}
    states = [start_play(0, 1), start_play(0, 2), start_play(0, None)]
    for seat in (3, 4, None):
        assert public(states[0], seat) == public(states[1], seat) == public(states[2], seat)
    assert states[0].view(1)["guard"] == 1 and states[1].view(2)["guard"] == 2
    assert states[0].view(2)["guard"] is None and states[1].view(1)["guard"] is None
    assert [s.view(0)["hidden_du"] for s in states] == [False, False, True]
    assert [s.view(0)["guard"] for s in states] == [None, None, None]
