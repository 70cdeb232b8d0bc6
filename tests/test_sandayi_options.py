"""Every 三打一 option (rules/sandayi.md §1 options table) changes the legal set or the outcome."""

from __future__ import annotations

import qipai
from qipai.bots import make_bot
from qipai.games.sandayi.match import MatchScore, play_match

from .sandayi_helpers import faces


def _all_pass(state, times=1):
    for _ in range(times):
        f = state.first_bidder
        for k in range(4):
            state.apply("pass", (f + k) % 4)


def test_option_bids_changes_the_legal_bids():
    state = qipai.load("sandayi", bids=[60, 70, 80, 90]).new_state(seed=1, deal={"first_bidder": 0})
    assert faces(state.legal_actions(0)) == {"pass", "bid 60", "bid 70", "bid 80", "bid 90"}
    state.apply("bid 90", 0)
    assert state.contract is None
    default = qipai.load("sandayi").new_state(seed=1, deal={"first_bidder": 0})
    assert "bid 90" not in faces(default.legal_actions(0))
    assert qipai.load("sandayi", bids="60, 65").options["bids"] == [60, 65]


def test_option_opening_minimums_off_allows_60_for_the_third_bidder():
    on = qipai.load("sandayi").new_state(seed=2, deal={"first_bidder": 0})
    off = qipai.load("sandayi", opening_minimums=False).new_state(seed=2, deal={"first_bidder": 0})
    for st in (on, off):
        st.apply("pass", 0)
        st.apply("pass", 1)
    assert "bid 60" not in faces(on.legal_actions(2)) and "bid 60" in faces(off.legal_actions(2))
    off.apply("pass", 2)
    assert "bid 60" in faces(off.legal_actions(3))


def test_option_max_redeals_changes_when_the_first_bidder_is_forced():
    zero = qipai.load("sandayi", max_redeals=0).new_state(seed=3, deal={"first_bidder": 1})
    _all_pass(zero)
    assert (zero.dealer, zero.contract, zero.forced, zero.redeals) == (1, 60, True, 0)
    three = qipai.load("sandayi").new_state(seed=3, deal={"first_bidder": 1})
    _all_pass(three)
    assert three.dealer is None and three.redeals == 1
    one = qipai.load("sandayi", max_redeals=1).new_state(seed=3, deal={"first_bidder": 1})
    _all_pass(one, 2)
    assert one.forced and one.redeals == 1


def test_option_forced_contract_uses_the_lowest_custom_bid():
    st = qipai.load("sandayi", max_redeals=0, bids=[70, 80]).new_state(seed=3, deal={"first_bidder": 2})
    _all_pass(st)
    assert (st.dealer, st.contract) == (2, 70)


def _contract(game, value):
    st = game.new_state(seed=4, deal={"first_bidder": 0})
    st.apply(f"bid {value}", 0)
    for s in (1, 2, 3):
        st.apply("pass", s)
    return st


def test_option_expose_kitty_max():
    assert _contract(qipai.load("sandayi"), 65).view(2)["kitty"] is not None
    assert _contract(qipai.load("sandayi"), 70).view(2)["kitty"] is None
    assert _contract(qipai.load("sandayi", expose_kitty_max="none"), 60).view(2)["kitty"] is None
    assert _contract(qipai.load("sandayi", expose_kitty_max=75), 75).view(2)["kitty"] is not None
    assert qipai.load("sandayi", expose_kitty_max=None).options["expose_kitty_max"] == "none"


def _bot_hand(game, seed):
    bot = make_bot("sandayi", "rule", 0)
    st = game.new_state(seed=seed)
    while not st.is_terminal():
        st.apply(bot.choose(st, st.turn))
    return st


def _replayed(state, **options):
    game = qipai.load("sandayi", **options)
    again = game.new_state(seed=state.seed)
    for text in state.log:
        again.apply(text)
    return again


def test_option_payout_simple_changes_the_returns():
    st = _bot_hand(qipai.load("sandayi"), 5)
    simple = _replayed(st, payout="simple")
    assert simple.log == st.log
    assert set(map(abs, simple.returns())) == {1, 3}
    # a hand where the standard table pays more than ±3/±1
    for seed in range(40):
        st = _bot_hand(qipai.load("sandayi"), seed)
        if max(map(abs, st.returns())) > 3:
            assert _replayed(st, payout="simple").returns() != st.returns()
            return
    raise AssertionError("no hand with a standard payout above 3 in 40 seeds")


def test_option_kitty_dig_off_changes_a_dug_hand():
    for seed in range(200):
        st = _bot_hand(qipai.load("sandayi"), seed)
        if st.result.reason == "dig":
            off = _replayed(st, kitty_dig=False)
            assert off.result.reason != "dig" and off.returns() != st.returns()
            assert off.result.details["defender_points"] == st.result.details["defender_points"]
            return
    raise AssertionError("no dug hand in 200 seeds")


def test_option_hands_sets_the_match_length():
    assert MatchScore.for_game(qipai.load("sandayi")).hands == 20
    bot = make_bot("sandayi", "rule", 0)
    short = play_match(qipai.load("sandayi", hands=2), bot.choose, seed=1)
    assert short.played >= 2 and short.over
    assert MatchScore.for_game(qipai.load("sandayi", hands=5)).hands == 5
