"""Matches of hands (rules/shengji.md §4.5, §4.6, §5) and the bots."""

from __future__ import annotations

import time

import pytest

from qipai.bots import bot_names, make_bot
from qipai.games.shengji.match import Match


def _play_hand(m: Match, bots):
    st = m.next_state()
    while not st.is_terminal():
        s = st.current_player
        st.apply(bots[s].choose(st, s), s)
    return st


def test_bots_registered_and_whole_match_is_fast():
    assert {"random", "rule"} <= set(bot_names("shengji"))
    bots = [make_bot("shengji", "rule", s) for s in range(4)]
    start = time.perf_counter()
    m = Match(5)
    winner = m.play(bots)
    assert winner in (0, 1) and m.reason == "target"
    assert m.levels[winner] > 10
    assert time.perf_counter() - start < 10


@pytest.mark.parametrize("profile", ["seed000", "seed001", "seed002", "seed003", "titanic"])
def test_random_bots_finish_a_hand_of_every_profile(profile):
    bots = [make_bot("shengji", "random", s) for s in range(4)]
    m = Match(9, profile=profile)
    st = _play_hand(m, bots)
    assert st.result.reason == "hand_over"
    m.record(st)
    assert m.dealer == st.result.details["next_dealer"]


def test_rule_bot_beats_random_bot():
    wins = 0
    for seed in range(3):
        bots = [make_bot("shengji", "rule" if s % 2 == 0 else "random", s) for s in range(4)]
        wins += Match(seed, profile="seed003").play(bots) == 0
    assert wins == 3


def test_hands_chain_levels_and_dealer():
    """§4.5: the next hand deals with the levels and dealer the previous one produced."""
    bots = [make_bot("shengji", "rule", s) for s in range(4)]
    m = Match(1)
    first = _play_hand(m, bots)
    assert first.first_hand
    m.record(first)
    second = m.next_state()
    d = first.result.details
    assert not second.first_hand and second.dealer == d["next_dealer"]
    assert second.levels == d["levels"] and second.level == d["levels"][d["next_dealer"] % 2]


def test_s8_25_time_expiry_dealer_team_wins_equal_levels():
    """§8.25: seed002, the clock expires during a hand; the hand is finished; equal levels →
    the team on stage after that hand."""
    bots = [make_bot("shengji", "rule", s) for s in range(4)]
    m = Match(2, profile="seed002")
    m.levels = [9, 9]
    st = m.next_state()
    m.time_up()
    assert m.winner is None                  # the hand in progress is played to its end
    while not st.is_terminal():
        s = st.current_player
        st.apply(bots[s].choose(st, s), s)
    winner = m.record(st)
    d = st.result.details
    if d["match_winner"] is None:
        lv = d["levels"]
        expect = (0 if lv[0] > lv[1] else 1) if lv[0] != lv[1] else d["on_stage"]
        assert winner == expect and m.reason == "time"
    with pytest.raises(RuntimeError):
        m.next_state()


def test_s8_25_time_expiry_higher_level_wins():
    """§8.25 seed000: at time-out after a hand, levels 8 and 7 → the team at 8 wins."""
    early = Match(2)
    early.time_up()
    assert early.clock_expired and early.winner is None   # before any hand: nothing to decide yet
    bots = [make_bot("shengji", "rule", s) for s in range(4)]
    m = Match(3)
    m.record(_play_hand(m, bots))
    assert m.winner is None
    m.levels = [8, 7]
    m.time_up()
    assert m.winner == 0 and m.reason == "time"


def test_third_follow_error_loses_the_match():
    """§5.3 s002: a referee-entered follow error counts whatever ``strict`` says; the third one
    in the match loses it."""
    bots = [make_bot("shengji", "rule", s) for s in range(4)]
    m = Match(4, profile="seed002")
    m.follow_errors = [0, 2]
    st = m.next_state()
    entered = False
    while not st.is_terminal():
        s = st.current_player
        if not entered and st.phase == "play":
            st.apply("fault follow 1", 1)       # entered in the name of a seat of team 1
            entered = True
        st.apply(bots[s].choose(st, s), s)
    assert st.result.details["follow_errors"] == [0, 1]
    assert m.record(st) == 0 and m.reason == "follow_errors"
