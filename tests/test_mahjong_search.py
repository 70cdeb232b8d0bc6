"""Guobiao mahjong's level 3 search (qipai.bots.mahjong_gb.MahjongSearcher): the ``fast`` bot's
choice read from the state is its choice from the view, it is the first candidate of every legal
action (a win alone), a playout is the ``fast`` bot in every seat to the end of the hand, and a
decision is a halving race that keeps the rule bot's choice unless another is shown better."""

from __future__ import annotations

import random

import qipai
from qipai.bots import make_bot
from qipai.bots.mahjong_gb import FastBot, MahjongSearcher
from qipai.bots.mcts import Budget
from tests.level_helpers import rule_positions


def _positions(seeds: range):
    """Every decision of ``fast``-bot hands of ``seeds`` (one play in eight random), as (state, seat)."""
    return rule_positions(qipai.load("mahjong-gb", hands_per_match=1), FastBot, seeds, 1 / 8)


def test_the_rule_play_read_from_the_state_is_the_fast_bots():
    # the two bots draw their tie-breaks from the same seed in the same order
    searcher, bot = MahjongSearcher(), FastBot(0)
    searcher._policy = FastBot(0)
    kinds: set[str] = set()
    for state, seat in _positions(range(3)):
        play = searcher.rule_play(state, seat, state.legal_actions(seat))
        assert str(play) == str(bot.choose(state, seat))
        kinds.add(play.kind)
    assert {"discard", "pass"} <= kinds and kinds & {"pung", "chow", "kong"}


def test_the_fast_bots_choice_is_the_first_candidate_and_a_win_the_only_one():
    searcher, wins, searched = MahjongSearcher(), 0, 0
    for state, seat in _positions(range(4)):
        if not searcher.searched(state, seat):
            continue
        searched += 1
        searcher._policy = FastBot(0)
        cands = searcher.candidates(state, seat)
        assert str(cands[0]) == str(FastBot(0).choose(state, seat))
        legal = state.legal_actions(seat)
        if any(a.kind == "win" for a in legal):
            wins += 1
            assert [a.kind for a in cands] == ["win"]
        else:
            assert sorted(map(str, cands)) == sorted(map(str, legal))
    assert searched > 100 and wins


def test_a_playout_is_the_fast_bot_to_the_end_of_the_hand():
    searcher = MahjongSearcher()
    game = qipai.load("mahjong-gb", hands_per_match=1)
    state = game.new_state(seed=5)
    searcher.root_states(game, {"view": state.view(0)})
    values = searcher.playout(state, random.Random(1))
    assert state.is_terminal() and len(values) == 4
    assert values == searcher.terminal_values(state)


def test_level_3_keeps_the_fast_bots_discard_unless_another_is_shown_better():
    # on the first turn of a hand the race's winner is not shown better than the rule bot's
    # discard in the duel on fresh samples: the rule bot's is kept
    game = qipai.load("mahjong-gb", hands_per_match=1)
    state = game.new_state(seed=7003)
    seat = state.to_act[0]
    searcher = MahjongSearcher()
    roots = searcher.root_states(game, searcher.inputs(state, seat))
    result = searcher.search(roots, seat, Budget(60), random.Random(2))
    rule = str(FastBot(0).choose(state, seat))
    assert result.action == rule
    assert MahjongSearcher.margin is None and MahjongSearcher.duel is not None
    bot = make_bot("mahjong-gb", "mcts3", 1)
    assert str(bot.choose(state, seat)) in {str(a) for a in state.legal_actions(seat)}
