"""Wakeng's and 4A4's level 3 search (qipai.bots.ismcts.HalvingSearcher): the rule bot's play
read from the state is the rule bot's choice, it is the first candidate, a playout is the rule
bot in every seat to the end of the deal, and the halving race keeps the rule bot's play unless
another is better on the same samples by the paired margin (halving_search's ``margin``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import qipai
from qipai.bots.fouafour import SEARCHER as FOUAFOUR
from qipai.bots.fouafour import FouafourRuleBot
from qipai.bots.ismcts import halving_search
from qipai.bots.mcts import Budget
from qipai.bots.wakeng import SEARCHER as WAKENG
from qipai.bots.wakeng import WakengRuleBot
from tests.level_helpers import check_rule_playout, rule_positions

GAMES = [("wakeng", WAKENG, WakengRuleBot), ("fouafour", FOUAFOUR, FouafourRuleBot)]


def _positions(game_id: str, rule_bot: Any, seeds: range):
    """Every decision of rule-bot deals of ``seeds`` (one play in six random), as (state, seat)."""
    return rule_positions(qipai.load(game_id), rule_bot, seeds, 1 / 6)


@pytest.mark.parametrize("game_id, searcher, rule_bot", GAMES)
def test_the_rule_play_read_from_the_state_is_the_rule_bots(game_id, searcher, rule_bot):
    bot, seen = rule_bot(0), 0
    for state, seat in _positions(game_id, rule_bot, range(12)):
        play = searcher.rule_play(state, seat, state.legal_actions(seat))
        if play is not None:
            assert str(play) == str(bot.choose(state, seat))
            seen += 1
    assert seen > 200


@pytest.mark.parametrize("game_id, searcher, rule_bot", GAMES)
def test_the_rule_bots_play_is_the_first_candidate_of_every_legal_play(game_id, searcher, rule_bot):
    bot = rule_bot(0)
    for state, seat in _positions(game_id, rule_bot, range(3)):
        if not searcher.searched(state, seat):
            continue
        cands = searcher.candidates(state, seat)
        assert str(cands[0]) == str(bot.choose(state, seat))
        assert sorted(map(str, cands)) == sorted(map(str, state.legal_actions(seat)))


@pytest.mark.parametrize("game_id, searcher, rule_bot", GAMES)
def test_a_playout_is_the_rule_bot_to_the_end_of_the_deal(game_id, searcher, rule_bot):
    state, reference = check_rule_playout(searcher, rule_bot, game_id)
    assert [str(a) for _, a in state.play_log] == [str(a) for _, a in reference.play_log]


class _Coins:
    """A searcher over a state whose actions are coins: playing coin ``k`` of a sample is worth
    ``means[k]`` plus the sample's luck (the same for every coin of a sample)."""

    def __init__(self, means: list[float]) -> None:
        self.means = means

    def candidates(self, state: Any, seat: int) -> list[int]:
        return list(range(len(self.means)))

    def copy(self, state: Any) -> Any:
        return _State(state)

    def apply(self, state: Any, action: int, seat: int) -> None:
        state["coin"] = action

    def terminal_values(self, state: Any) -> list[float]:
        return [state["luck"] + self.means[state["coin"]]]

    def playout(self, state: Any, rng: random.Random) -> list[float]:
        return self.terminal_values(state)


class _State(dict):
    def is_terminal(self) -> bool:
        return True


def _roots(noise: float):
    return lambda rng: _State(luck=rng.uniform(-noise, noise), coin=None)


def test_the_first_candidate_stays_in_the_race_and_wins_ties_by_margin():
    # the luck is common to every coin of a sample, so a real difference shows on the same
    # samples; the first coin is kept when no other is better on them
    better = _Coins([0.50, 0.40, 0.55, 0.30])
    assert halving_search(better, _roots(0.3), 0, Budget(200), random.Random(1), margin=1.0).action == "2"
    equal = _Coins([0.50, 0.50, 0.50, 0.50])
    result = halving_search(equal, _roots(0.3), 0, Budget(200), random.Random(1), margin=1.0)
    assert result.action == "0"
    # the first coin, the worst, is still played to the end of the race
    worst = _Coins([0.10, 0.40, 0.55, 0.30, 0.2, 0.3, 0.35, 0.45])
    result = halving_search(worst, _roots(0.3), 0, Budget(200), random.Random(1), margin=1.0)
    assert result.action == "2"
    plain = halving_search(worst, _roots(0.3), 0, Budget(200), random.Random(1))
    assert result.stats["0"][0] > plain.stats["0"][0]


def _window_positions(seeds: range):
    """Every 叉/勾 window of rule-bot deals of ``seeds`` in which a seat can claim, as (state,
    seat), once per window and seat."""
    game, bot = qipai.load("fouafour"), FouafourRuleBot(0)
    for seed in seeds:
        state, seen = game.new_state(seed=seed), set()
        while not state.is_terminal():
            if state.window is not None:
                for s in state.to_act:
                    key = (len(state.play_log), s)
                    if key not in seen and len(state.legal_actions(s)) > 1:
                        seen.add(key)
                        yield state.clone(), s
            seat = state.to_act[0]
            state.apply(bot.choose(state, seat), seat)


def test_fouafour_searches_its_windows_in_which_the_seat_can_claim():
    # a claim window: searched, every sample leaves it open with only the seat to answer (the
    # others decline), the rule bot's answer first; a window with only the pass: not searched
    game = qipai.load("fouafour")
    claims = only_pass = 0
    for state, seat in _window_positions(range(4)):
        assert FOUAFOUR.searched(state, seat)
        assert str(FOUAFOUR.candidates(state, seat)[0]) == str(FouafourRuleBot(0).choose(state, seat))
        roots = FOUAFOUR.root_states(game, FOUAFOUR.inputs(state, seat))
        for k in range(3):
            sample = roots(random.Random(k))
            assert sample.window is not None and sample.window["kind"] == state.window["kind"]
            assert sample.to_act == (seat,)
            assert sorted(map(str, sample.legal_actions(seat))) == sorted(map(str, state.legal_actions(seat)))
        claims += 1
        for other in state.to_act:
            if len(state.legal_actions(other)) == 1:
                assert not FOUAFOUR.searched(state, other)
                only_pass += 1
    assert claims >= 5 and only_pass >= 5, (claims, only_pass)


def test_fouafour_window_keeps_the_rule_answer_unless_shown_better():
    # with one sample a side nothing is shown better: the rule bot's answer is kept; with the
    # level's budget the answer is one of the two, and the claim is not always the answer
    from qipai.bots.search import think

    answers = []
    for state, seat in list(_window_positions(range(6)))[:5]:
        job = ("fouafour", {}, seat, FOUAFOUR.inputs(state, seat))
        rule = str(FouafourRuleBot(0).choose(state, seat))
        assert think(*job, 2, None, 1) == rule
        text = think(*job, 300, None, 1)
        assert text in {str(a) for a in state.legal_actions(seat)}
        answers.append(text != rule)
    assert len(answers) == 5 and any(answers), answers


def test_fouafour_window_search_keeps_to_its_time_limit():
    import time

    from qipai.bots.search import think

    state, seat = next(iter(_window_positions(range(2))))
    job = ("fouafour", {}, seat, FOUAFOUR.inputs(state, seat))
    think(*job, 4, None, 1)
    t0 = time.thread_time()
    text = think(*job, 10**7, 200, 1)
    assert time.thread_time() - t0 < 0.2 + 0.25
    assert text in {str(a) for a in state.legal_actions(seat)}
