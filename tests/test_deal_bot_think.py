"""A built-in bot's shown thinking time (``think_ms``, the server's ``bot_delay_ms``) inside a
private window held to a minimum time: the hold is the time every seat is seen to take, so a bot
asked with a choice answers within it and the window lasts the same whoever could declare or
claim (shengji's ``deal_prompt="every_card"``, whose prompts are held a short ``deal_hold``)."""

from __future__ import annotations

import asyncio

import qipai
from qipai.games.shengji.seats import SEATS
from qipai.match import BotPlayer
from qipai.match.runner import GameRunner
from qipai.match.timesource import VirtualTime

BIDDING = ("deal", "window", "bao", "fan")
DEAL_HOLD, WINDOW_HOLD, THINK = 250, 2000, 600


class _Passer:
    """A bot that passes every prompt of the declarations (it could declare at some)."""

    def choose(self, state, seat):
        return "pass"


class _Stop(Exception):
    """The declarations are over."""


def _deal_times(deal) -> tuple[int, int, list[int]]:
    """Virtual time at which the last card is dealt and at which the declarations end, and the
    virtual times of the state's changes during the deal, every bot thinking ``THINK`` ms (more
    than the deal's hold, as the server's default bot_delay_ms is)."""
    marks: dict[str, int] = {}
    changes: list[int] = []

    class Watched(GameRunner):
        def _sync_turns(self, t, acted):
            st = self.state
            if st.phase == "deal":
                changes.append(t)
            else:
                marks.setdefault("dealt", t)
            if st.phase not in BIDDING:
                marks["declared"] = t
                raise _Stop
            super()._sync_turns(t, acted)

    game = qipai.load("shengji", deal_prompt="every_card")
    players = [BotPlayer(_Passer(), think_ms=THINK) for _ in range(SEATS)]
    runner = Watched(game, players, clock="card_default", time=VirtualTime(),
                     state=game.new_state(deal=deal), private_hold=WINDOW_HOLD, deal_hold=DEAL_HOLD)
    try:
        asyncio.run(runner.run())
    except _Stop:
        pass
    return marks["dealt"], marks["declared"], sorted(set(changes))


def test_a_bot_with_a_choice_takes_no_longer_than_a_lone_pass_at_a_deal_prompt():
    """Seat 1 (a bot thinking 600 ms, more than the 250 ms hold) gets a 2H in the second deal
    and passes it: the deal still lasts exactly 100 holds, with the changes at the same times,
    as in the deal where it could not declare (a bot's pause of its own at the prompt where it
    had a choice would tell everyone it got a level card)."""
    from .shengji_helpers import level_card_deals

    first, second = (_deal_times(d) for d in level_card_deals())
    assert first == second
    dealt, declared, _ = first
    assert dealt == 100 * DEAL_HOLD
    assert declared == dealt + 4 * WINDOW_HOLD
