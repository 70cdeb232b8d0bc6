"""The 保皇 level-3 search (qipai.bots.baohuang.BaohuangSearcher). Two faults made it weaker
than the rule bot it searches with (docs/bots.md, "Baohuang's level 3, 2026-12-07"): its
playouts stopped after 40 plies of a deal of about 200 and were valued by the sets each seat
still needed, jokers apart, so the search spent jokers to shed ranks early; and a lead offered
up to 257 sets, more than level 3's 300 iterations, so a lead was picked by about one playout
a set. Playouts now go to the end of the deal, and a node considers the rule bot's play first
(with a progressive bias toward it) and, as a lead, each rank held whole (alone or with one
big joker) and the jokers alone."""

from __future__ import annotations

import random

import qipai
from qipai.bots import make_bot
from qipai.bots.baohuang import BaohuangRuleBot, _rule_play, lead_candidates
from qipai.bots.search import searcher_for
from qipai.games.baohuang.sets import BIG, NRANKS, SMALL


def rule_positions(seed: int):
    """Every turn of play of a deal of the rule bots: (state, seat, the rule bot's play)."""
    game = qipai.load("baohuang")
    state = game.new_state(seed=seed)
    rule = BaohuangRuleBot()
    while not state.is_terminal():
        seat = state.to_act[0]
        action = rule.choose(state, seat)
        if state.phase == "play":
            yield state, seat, action
        state.apply(action, seat)


def test_a_node_considers_the_rule_bots_play_first_and_few_leads():
    searcher = searcher_for("baohuang")
    leads = 0
    for state, seat, action in rule_positions(1003):
        cands = searcher.candidates(state, seat)
        legal = {str(a) for a in state.legal_actions(seat)}
        assert str(cands[0]) == str(action)
        assert len({str(a) for a in cands}) == len(cands) and {str(a) for a in cands} <= legal
        if state.top is None:
            leads += 1
            # at most each rank whole, alone and with a big joker, and three joker sets
            assert len(cands) <= 2 * 13 + 3 + 1
        else:                                    # every answer, the pass first after the rule's
            assert {str(a) for a in cands} == legal
    assert leads > 20


def test_lead_candidates_hold_each_rank_whole_and_the_jokers_alone():
    counts = [0] * NRANKS
    counts[0], counts[5], counts[SMALL], counts[BIG] = 3, 1, 1, 2
    assert [str(p) for p in lead_candidates(counts)] == ["333", "333B", "8", "8B", "LBB", "B", "L"]
    counts[BIG] = 0
    assert [str(p) for p in lead_candidates(counts)] == ["333", "8", "L"]


def test_a_playout_plays_the_deal_to_its_end():
    """Cut at 40 plies the value was a guess that ignored the jokers; a playout from the first
    lead now finishes the deal and is valued by its returns."""
    game = qipai.load("baohuang")
    searcher = searcher_for("baohuang")
    state, seat, _ = next(rule_positions(1003))
    roots = searcher.root_states(game, searcher.inputs(state, seat))
    for k in range(5):
        root = roots(random.Random(k))
        values = searcher.playout(root, random.Random(k))
        assert root.is_terminal()
        assert values == searcher.terminal_values(root)


def test_the_playout_policy_is_the_rule_bot():
    """The playouts read the rule bot's inputs from the state instead of building the view: the
    same player (checked over 5,824 plays of 30 deals when this search was examined)."""
    n = 0
    for seed in (2000, 2001, 2002):
        for state, seat, action in rule_positions(seed):
            assert str(_rule_play(state, seat)) == str(action)
            n += 1
    assert n > 300


def test_the_bias_is_baohuangs_only():
    searcher = searcher_for("baohuang")
    for options, bias in (({"ruleset": "sdbh.provisional"}, 0.0), ({}, 1.0)):
        game = qipai.load("baohuang", **options)
        state = game.new_state(seed=3)
        rule = make_bot("baohuang", "rule", seed=0)
        while not searcher.searched(state, state.to_act[0]):
            state.apply(rule.choose(state, state.to_act[0]), state.to_act[0])
        searcher.root_states(game, searcher.inputs(state, state.to_act[0]))
        assert searcher.bias == bias
