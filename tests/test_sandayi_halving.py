"""三打一's level 3 search (qipai.bots.ismcts.HalvingSearcher): the rule bot's play read from the
state is the rule bot's choice, it is the first candidate, and a playout is the rule bot in every
seat to the end of the hand."""

from __future__ import annotations

import qipai
from qipai.bots.sandayi import SEARCHER, SandayiRuleBot
from tests.level_helpers import check_rule_playout, rule_positions


def _positions(seeds: range):
    """Every decision of rule-bot hands of ``seeds`` (one play in six random), as (state, seat)."""
    return rule_positions(qipai.load("sandayi"), SandayiRuleBot, seeds, 1 / 6)


def test_the_rule_play_read_from_the_state_is_the_rule_bots():
    bot, seen = SandayiRuleBot(0), 0
    for state, seat in _positions(range(12)):
        play = SEARCHER.rule_play(state, seat, state.legal_actions(seat))
        if play is not None:
            assert str(play) == str(bot.choose(state, seat))
            seen += 1
        else:
            assert state.phase != "play"
    assert seen > 200


def test_the_rule_bots_choice_is_the_first_candidate():
    """Every decision is searched: a card, a bid or a trump among every legal one, the rule
    bot's first; a bury among a few kitties (the legal set is every six of 18 cards), the rule
    bot's first with the trump the rule bot names after it."""
    bot, seen = SandayiRuleBot(0), {}
    for state, seat in _positions(range(3)):
        assert SEARCHER.searched(state, seat)
        cands = SEARCHER.candidates(state, seat)
        rule = bot.choose(state, seat)
        if state.phase == "bury":
            after = state.clone()
            after.apply(rule, seat)
            assert str(cands[0]) == f"{rule} + {bot.choose(after, seat)}"
            hand = set(state.hands[seat])
            assert all(len(set(c.bury.cards)) == 6 and set(c.bury.cards) <= hand for c in cands)
            assert len({str(c) for c in cands}) == len(cands) > 1
        else:
            assert str(cands[0]) == str(rule)
            assert sorted(map(str, cands)) == sorted(map(str, state.legal_actions(seat)))
        seen[state.phase] = seen.get(state.phase, 0) + 1
    assert seen["play"] > 50 and seen["bid"] >= 12 and seen["bury"] >= 3 and seen["trump"] >= 3, seen


def test_a_playout_is_the_rule_bot_to_the_end_of_the_hand():
    state, reference = check_rule_playout(SEARCHER, SandayiRuleBot, "sandayi")
    assert [str(e) for e in state.log] == [str(e) for e in reference.log]
