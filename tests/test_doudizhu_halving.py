"""Doudizhu's level 3 search (qipai.bots.doudizhu.DoudizhuSearcher, a HalvingSearcher): the rule
bot's play read from the state is the rule bot's choice, it is the first candidate, a playout is
the rule bot in every seat to the end of the deal, the race keeps the rule bot's play when no
other play is better on the same samples and leaves it for one that is, the bidding is raced
the same way by the deal's points, and a level-3 decision keeps to its budget's time limit."""

from __future__ import annotations

import random
import time

import qipai
from qipai.bots import make_bot
from qipai.bots.doudizhu import SEARCHER, DoudizhuRuleBot
from qipai.bots.mcts import Budget, result_values
from qipai.bots.search import LEVEL_BUDGETS, think
from tests.level_helpers import play_to_search, rule_positions


def _positions(seeds: range):
    """Every decision of rule-bot deals of ``seeds`` (one play in six random), as (state, seat)."""
    return rule_positions(qipai.load("doudizhu"), DoudizhuRuleBot, seeds, 1 / 6)


def _rule_deal(seed: int, plies: int):
    """The deal of ``seed`` after ``plies`` actions of rule bots (the bidding counted)."""
    state, bot = qipai.load("doudizhu").new_state(seed=seed), DoudizhuRuleBot(0)
    for _ in range(plies):
        seat = state.to_act[0]
        state.apply(bot.choose(state, seat), seat)
    return state, state.to_act[0]


def _value(state, action, seat: int) -> float:
    """``seat``'s value of ``action`` played in a copy of ``state`` and played out: won 1, lost 0."""
    s = state.clone()
    s.apply(action, seat)
    if not s.is_terminal():
        SEARCHER.playout(s, random.Random(0))
    return result_values(s)[seat]


def test_the_rule_play_read_from_the_state_is_the_rule_bots():
    bot, seen = DoudizhuRuleBot(0), 0
    for state, seat in _positions(range(12)):
        play = SEARCHER.rule_play(state, seat, state.legal_actions(seat))
        if play is None:
            assert state.phase != "play"
            continue
        assert str(play) == str(bot.choose(state, seat))
        seen += 1
    assert seen > 200


def test_the_rule_bots_play_is_the_first_candidate_and_every_main_part_is_raced():
    bot, seen = DoudizhuRuleBot(0), 0
    for state, seat in _positions(range(4)):
        if not SEARCHER.searched(state, seat) or state.phase != "play":
            continue
        cands = [str(a) for a in SEARCHER.candidates(state, seat)]
        legal = state.legal_actions(seat)
        assert cands[0] == str(bot.choose(state, seat))
        assert len(set(cands)) == len(cands) and set(cands) <= {str(a) for a in legal}
        # one kicker choice per main part at least: every kind of play is in the race
        parts = {(a.type, a.main) for a in legal if str(a) != "pass"}
        assert {(a.type, a.main) for a in SEARCHER.candidates(state, seat) if str(a) != "pass"} == parts
        seen += 1
    assert seen > 50


def test_a_playout_is_the_rule_bot_to_the_end_of_the_deal():
    state, _ = play_to_search(qipai.load("doudizhu"), 5, 0)
    reference = state.clone()
    values = SEARCHER.playout(state, random.Random(1))
    bot = DoudizhuRuleBot(0)
    while not reference.is_terminal():
        seat = reference.to_act[0]
        reference.apply(bot.choose(reference, seat), seat)
    assert state.log == reference.log and values == SEARCHER.terminal_values(reference)


def test_the_rule_bots_play_is_kept_when_every_play_ties():
    # seed 0 after one play: every candidate of seat 2 wins the deal when the rule bots play on
    state, seat = _rule_deal(0, 1)
    cands = SEARCHER.candidates(state, seat)
    assert len(cands) > 20 and {_value(state, a, seat) for a in cands} == {1.0}
    result = SEARCHER.search(lambda rng: state.clone(), seat, Budget(300), random.Random(3))
    assert result.action == str(cands[0]) == str(DoudizhuRuleBot(0).choose(state, seat))


def test_a_play_better_than_the_rule_bots_is_chosen():
    # seed 8 after four plies: the rule bot's 4 loses the deal for seat 1, a Q or a K wins it
    state, seat = _rule_deal(8, 4)
    rule = DoudizhuRuleBot(0).choose(state, seat)
    cands = SEARCHER.candidates(state, seat)
    wins = {str(a) for a in cands if _value(state, a, seat) == 1.0}
    assert str(rule) == "4" and _value(state, rule, seat) == 0.0 and wins == {"Q", "K"}
    result = SEARCHER.search(lambda rng: state.clone(), seat, Budget(300), random.Random(3))
    assert result.action in wins


def test_a_level_3_decision_keeps_to_its_time_limit():
    state, me = play_to_search(qipai.load("doudizhu"), 3, 0)
    bot = make_bot("doudizhu", "mcts3", seed=1)
    job = bot.job(state, me)
    think(*job, 4, None, 1)                  # imports and caches: not the decision's
    budget = LEVEL_BUDGETS[3]
    t0 = time.thread_time()
    text = think(*job, 10**7, budget.ms, 1)  # a budget it cannot spend: the limit stops it
    took = time.thread_time() - t0
    assert text in {str(a) for a in state.legal_actions(me)}
    assert took < budget.ms / 1000 + 0.25, took


def _bids(seed: int, bids: int):
    """The deal of ``seed`` after ``bids`` bids of rule bots, and the seat to bid."""
    state, bot = qipai.load("doudizhu").new_state(seed=seed), DoudizhuRuleBot(0)
    for _ in range(bids):
        seat = state.to_act[0]
        state.apply(bot.choose(state, seat), seat)
    assert state.phase == "bidding"
    return state, state.to_act[0]


def _points(state, bid, seat: int) -> float:
    """``seat``'s points of ``bid`` made in a copy of ``state``, the rule bots bidding and playing on."""
    s = state.clone()
    s.apply(bid, seat)
    SEARCHER.playout(s, random.Random(0))
    return float(s.result.returns[seat])


def test_the_bidding_is_searched_by_the_deals_points_from_the_rule_bots_bid():
    assert SEARCHER.searched(_bids(3, 0)[0], 0)
    bot = DoudizhuRuleBot(0)
    # a playout from the bidding is the rule bots' bidding and play to the end of the deal
    state, seat = _bids(5, 0)
    reference = state.clone()
    SEARCHER.playout(state, random.Random(1))
    while not reference.is_terminal():
        s = reference.to_act[0]
        reference.apply(bot.choose(reference, s), s)
    assert state.log == reference.log
    # seed 3: the rule bot's bid 2 makes 4 points, bid 3 makes 6 (the same deal won at a higher
    # stake): the race, on the true deal, bids 3
    state, seat = _bids(3, 0)
    cands = SEARCHER.candidates(state, seat)
    assert str(cands[0]) == str(bot.choose(state, seat)) == "bid 2"
    assert sorted(map(str, cands)) == sorted(map(str, state.legal_actions(seat)))
    assert {str(a): _points(state, a, seat) for a in cands} == {"bid 2": 4.0, "pass": -1.0, "bid 1": 2.0,
                                                                 "bid 3": 6.0}
    result = SEARCHER.search(lambda rng: state.clone(), seat, Budget(300), random.Random(3))
    assert result.action == "bid 3" and SEARCHER.points
    # seed 4: the rule bot's bid 1 and the pass both lose 2 points, bids 2 and 3 lose more: bid 1
    state, seat = _bids(4, 0)
    assert [(str(a), _points(state, a, seat)) for a in SEARCHER.candidates(state, seat)] == \
        [("bid 1", -2.0), ("pass", -2.0), ("bid 2", -4.0), ("bid 3", -6.0)]
    assert SEARCHER.search(lambda rng: state.clone(), seat, Budget(300), random.Random(3)).action == "bid 1"
    # a play is raced by the deal won or lost again
    state, seat = _rule_deal(8, 4)
    SEARCHER.search(lambda rng: state.clone(), seat, Budget(30), random.Random(3))
    assert not SEARCHER.points
