"""A built-in bot's shown thinking time (``think_ms``, the server's ``bot_delay_ms``) inside a
private window held to a minimum time: the hold is the time every seat is seen to take, so a bot
asked with a choice answers within it and the window lasts the same whoever could declare or
claim (shengji's ``deal_prompt="every_card"``, whose prompts are held a short ``deal_hold``)."""

from __future__ import annotations

DEAL_HOLD, WINDOW_HOLD, THINK = 250, 2000, 600


def _deal_times(deal) -> tuple[int, int, list[int]]:
    """Virtual time at which the last card is dealt and at which the declarations end, and the
    virtual times of the state's changes during the deal, every bot thinking ``THINK`` ms (more
    than the deal's hold, as the server's default bot_delay_ms is)."""
    from .shengji_helpers import deal_pace

    seen = deal_pace(deal, THINK, DEAL_HOLD, WINDOW_HOLD)
    return seen["dealt"], seen["declared"], seen["changes"]


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
