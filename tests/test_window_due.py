"""A search bot answering in a held private window (4A4's 叉/勾, fouafour §3.4) answers by the
end of the window's minimum time, whatever its level's limit and its clock: a window in which a
bot could claim must not stay open longer than one in which nobody could (the table would read
who holds the cards from its length)."""

from __future__ import annotations

import asyncio
import time

import qipai
from qipai.bots import make_bot
from qipai.bots.fouafour import FouafourRuleBot
from qipai.bots.search import HOP_MS, close_pool
from qipai.match import BotPlayer
from qipai.match.presets import clock_preset
from qipai.match.runner import GameRunner
from qipai.match.timesource import RealTime
from qipai.server.config import Settings


def claim_window():
    """The first 叉/勾 window of a rule-bot deal in which a seat can claim: (state, seat)."""
    game, bot = qipai.load("fouafour"), FouafourRuleBot(0)
    for seed in range(10):
        state = game.new_state(seed=seed)
        while not state.is_terminal():
            if state.window is not None:
                for s in state.to_act:
                    if len(state.legal_actions(s)) > 1:
                        return state, s
            seat = state.to_act[0]
            state.apply(bot.choose(state, seat), seat)
    raise AssertionError("no claim window in ten deals")


def test_a_level_4_window_search_answers_by_the_hold_not_by_its_clock():
    """Level 4's limit is 4 s and the card clock gives a claim 10 s (a quarter: 2.4 s); in a
    window held 2 s its answer is back within the 2 s."""
    state, seat = claim_window()
    bot = make_bot("fouafour", "mcts4", seed=1)
    assert bot.job(state, seat) is not None                  # the seat has a choice: searched
    hold = Settings().private_window_ms
    claim_ms = clock_preset("card_default").phase_caps["claim"]
    try:
        asyncio.run(bot.choose_async(state, seat, 400))      # the pool started, off the measure
        t0 = time.monotonic()
        action = asyncio.run(bot.choose_async(state, seat, claim_ms, hold))
        took = (time.monotonic() - t0) * 1000
    finally:
        close_pool()
    assert str(action) in {str(a) for a in state.legal_actions(seat)}
    assert took <= hold, took


class DueBot:
    """The 4A4 rule bot behind the search bots' ``choose_async`` signature: notes, for each
    answer, whether a private window was open and the ``due_ms`` it was given."""

    name = "due"

    def __init__(self, runner_box: list) -> None:
        self.rule = FouafourRuleBot(0)
        self.box = runner_box
        self.calls: list[tuple[bool, int | None]] = []

    def choose(self, state, seat):
        return self.rule.choose(state, seat)

    async def choose_async(self, state, seat, ms_left, due_ms=None):
        self.calls.append((state.turns_private(), due_ms))
        return self.rule.choose(state, seat)


def test_the_runner_gives_a_bot_in_a_held_window_the_time_to_its_end():
    hold = 150
    box: list = []
    bots = [DueBot(box) for _ in range(4)]
    runner = GameRunner(qipai.load("fouafour"), [BotPlayer(b) for b in bots], clock="card_default",
                        time=RealTime(), seed="due", private_hold=hold)
    out = asyncio.run(runner.run())
    assert out.result is not None
    calls = [c for b in bots for c in b.calls]
    in_window = [due for private, due in calls if private]
    outside = [due for private, due in calls if not private]
    assert in_window and outside
    assert all(due is not None and 0 <= due <= hold for due in in_window), in_window
    assert all(due is None for due in outside)


def test_a_due_time_shorter_than_the_hop_still_searches_the_minimum():
    """A window nearly over still gets a search of the minimum time (search.MIN_MS) and a legal
    answer, late by at most the hop, not an error."""
    state, seat = claim_window()
    bot = make_bot("fouafour", "mcts3", seed=2)
    try:
        action = asyncio.run(bot.choose_async(state, seat, None, HOP_MS // 2))
    finally:
        close_pool()
    assert str(action) in {str(a) for a in state.legal_actions(seat)}
