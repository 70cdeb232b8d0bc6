"""Issue 15: a redeal cap for the games whose deal can be voided by everyone passing (doudizhu
§2.7, baohuang §2.6), so that default actions (timeouts, trusteeship) always finish a game."""

from __future__ import annotations

import asyncio

import pytest

import qipai
from qipai.core.errors import IllegalAction, OptionError
from qipai.match import GameRunner, VirtualTime
from qipai.match.players import Player


def _defaults_to_the_end(state, limit=5000):
    for n in range(limit):
        if state.is_terminal():
            return n
        seat = state.to_act[0]
        state.apply(state.default_action(seat), seat=seat)
    raise AssertionError(f"not finished after {limit} default actions")


# ----- doudizhu --------------------------------------------------------------------------------
@pytest.mark.parametrize("bidding", ["points_1_3", "call_1_4", "auction_1_3"])
@pytest.mark.parametrize("seed", range(4))
def test_doudizhu_default_actions_finish_every_deal(bidding, seed):
    state = qipai.load("doudizhu", bidding=bidding).new_state(seed=seed)
    _defaults_to_the_end(state)
    assert state.redeals == 3 and state.forced
    assert state.result.reason == "out" and state.result.details["base"] == 1
    assert state.result.details["forced"] is True


@pytest.mark.parametrize("cap", [0, 1, 5])
def test_doudizhu_after_max_redeals_the_first_bidder_is_landlord_at_one(cap):
    state = qipai.load("doudizhu", max_redeals=cap).new_state(seed=11)
    for _ in range(cap):
        for _ in range(3):
            state.apply("pass")
        assert state.phase == "bidding" and not state.forced
    assert state.redeals == cap
    first = state.first_bidder
    state.apply("pass")
    state.apply("pass")
    state.apply("pass")
    assert state.phase == "play" and state.forced
    assert state.landlord == first and state.base == 1 and state.turn == first
    assert len(state.hand(first)) == 20
    assert state.view(None)["forced"] is True


def test_doudizhu_forced_landlord_replays_from_its_record():
    state = qipai.load("doudizhu", max_redeals=1).new_state(seed=5)
    _defaults_to_the_end(state)
    again = qipai.replay(state.to_record())
    assert again.result.returns == state.result.returns and again.forced


def test_doudizhu_max_redeals_is_an_integer_at_least_zero():
    with pytest.raises(OptionError):
        qipai.load("doudizhu", max_redeals=-1)
    assert qipai.load("doudizhu").options["max_redeals"] == 3


def test_doudizhu_no_bid_end_is_unaffected_by_the_cap():
    state = qipai.load("doudizhu", preset="openspiel", max_redeals=0).new_state(seed=2)
    while state.phase == "bidding":
        state.apply("pass")
    assert state.result.reason == "no_bid"


# ----- baohuang --------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(4))
def test_baohuang_default_actions_finish_every_deal(seed):
    state = qipai.load("baohuang").new_state(seed=seed)
    _defaults_to_the_end(state, limit=20000)
    assert state.voids >= 3
    assert state.result.details["forced"] is True


def test_baohuang_after_max_redeals_c0_must_accept_on_its_final_decision():
    game = qipai.load("baohuang", max_redeals=0)
    for seed in range(40):
        state = game.new_state(seed=seed)
        while state.phase == "select" and not (state._second and state.turn == state.c0):
            state.apply(state.default_action(state.turn))
        if state.phase == "select":
            break
    else:
        raise AssertionError("no deal reached c0's final decision")
    c0 = state.c0
    assert state.triples(c0) and state.forced_accept
    assert state.legal_actions() == [qipai.games.baohuang.actions.ACCEPT]
    before = state.to_json()
    with pytest.raises(IllegalAction) as e:
        state.apply(state._default_decline(c0))
    assert e.value.code == "baohuang.must_accept_after_redeals"
    assert state.to_json() == before
    assert str(state.default_action(c0)) == "accept"
    state.apply("accept")
    assert state.emperor == c0 and state.phase == "declare"


def test_baohuang_without_the_cap_reached_c0_may_still_decline_and_void():
    state = qipai.load("baohuang", max_redeals=3).new_state(seed=1)
    while state.voids == 0:
        state.apply(state.default_action(state.turn))
    assert state.phase == "select" and not state.forced_accept


def test_baohuang_max_redeals_option():
    with pytest.raises(OptionError):
        qipai.load("baohuang", max_redeals=-1)
    assert qipai.load("baohuang").options["max_redeals"] == 3


# ----- the match runner's trusteeship ------------------------------------------------------------
@pytest.mark.parametrize("game_id", ["doudizhu", "baohuang"])
def test_a_table_of_seats_in_trusteeship_finishes(game_id):
    game = qipai.load(game_id)
    n = game.seats[0]
    runner = GameRunner(game, [Player() for _ in range(n)], clock="card_default", time=VirtualTime(),
                        seed=4, trustee=range(n))
    out = asyncio.run(runner.run())
    assert out.result is not None and out.result.details.get("forced") is True
    assert qipai.replay(out.record).result.returns == out.result.returns
