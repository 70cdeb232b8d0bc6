"""The doudizhu search's determinizations (:class:`qipai.bots.doudizhu.Determinizer`) of a view
whose passes and bids, read as the rule bot passes and bids, no deal fits: seat 0 bid 2 (a
hand strength of 7 to 9) and played its two aces, then passed on the landlord's K (read: it
holds nothing above a K), so its dealt hand counts 2, 6 or 10; the landlord passed on that
pair of aces (read: no pair above an ace). Against level-3 search bots (who pass by search)
this came up in the benchmark's deal 3001, where each determinization ran out its 30 tries
at the bids, each of 20 tries at the passes, and a level-4 decision took 64 CPU seconds."""

from __future__ import annotations

import random
import time

import qipai
from qipai.bots.doudizhu import DEAL_TRIES, Determinizer, bid_brackets, hand_strength, pass_bounds
from qipai.bots.search import LEVEL_BUDGETS, think

VIEW = {
    "game": "doudizhu", "seat": 1, "phase": "play", "to_act": [1],
    "hand": ["3C0", "4S0", "5D0", "5C0", "5H0", "5S0", "6C0", "7D0", "8S0", "9D0", "TD0", "TH0",
             "KH0", "AD0"],
    "hand_ranks": "3455556789TTKA", "counts": [12, 14, 15], "first_bidder": 0, "redeals": 0,
    "forced": False, "bids": [[0, "bid 2"], [1, "pass"], [2, "bid 3"]], "landlord": 2, "base": 3,
    "bombs": 0, "kitty": ["9S0", "6S0", "AS0"],
    "plays": [[2, "44", ["4S0", "4H0"]], [0, "77", ["7S0", "7H0"]], [1, "JJ", ["JS0", "JH0"]],
              [2, "QQ", ["QS0", "QH0"]], [0, "AA", ["AS0", "AH0"]], [1, "pass"], [2, "pass"],
              [0, "4", ["4D0"]], [1, "Q", ["QD0"]], [2, "K", ["KS0"]], [0, "pass"]],
    "top": {"seat": 2, "play": "K", "type": "single"}, "result": None}


def test_the_view_reads_passes_and_bids_that_no_deal_fits():
    assert bid_brackets(VIEW) == {0: (7, 10), 2: (10, 99)}
    assert pass_bounds(VIEW) == {0: {1: 10}, 2: {2: 11}}
    assert hand_strength("AA") == 2 and hand_strength("AA3333") == 6


def test_determinizations_of_a_view_no_deal_fits_draw_about_one_deal_each():
    game = qipai.load("doudizhu")
    sampler = Determinizer(game, VIEW)
    rng = random.Random(1)
    strip = [e[:2] for e in VIEW["plays"]]
    for _ in range(200):
        state = sampler(rng)
        view = state.view(1)
        assert view["hand"] == VIEW["hand"] and view["counts"] == VIEW["counts"]
        assert view["bids"] == VIEW["bids"] and [e[:2] for e in view["plays"]] == strip
        assert view["kitty"] == VIEW["kitty"] and view["landlord"] == 2
    # the readings no deal fits are dropped once, each after one determinization's tries, and
    # the bids alone (a deal in 12 fits them) soon after: before, 600 deals a determinization
    assert sampler.determinizations == 200
    assert sampler.draws < 200 + 4 * DEAL_TRIES
    assert (True, True) not in sampler.readings and (True, False) not in sampler.readings


def test_a_level_4_decision_on_that_view_keeps_to_its_budget():
    # 1200 playouts: 0.6 CPU s with the compiled modules, 64 s before (a live level 4 has 4 s)
    budget = LEVEL_BUDGETS[4]
    game = qipai.load("doudizhu")
    t = time.process_time()
    text = think("doudizhu", dict(game.options), 1, {"view": VIEW}, budget.playouts, None, 1510965778)
    assert time.process_time() - t < 4 * budget.ms / 1000
    assert text in {str(a) for a in Determinizer(game, VIEW)(random.Random(0)).legal_actions(1)}


def test_a_view_no_deal_agrees_with_raises_value_error():
    """A view whose hidden cards cannot fill the seats' counts (one card short) is refused with
    ``ValueError``, the error a searcher answers with its rule bot, after every reading is
    dropped, not with an error of the sampler's own."""
    sampler = Determinizer(qipai.load("doudizhu"), VIEW)
    sampler.hidden = sampler.hidden[1:]
    try:
        sampler.deal(random.Random(1))
    except ValueError as e:
        assert "agrees with the view" in str(e)
    else:
        raise AssertionError("a deal was made without enough cards")
    assert sampler.readings == []
