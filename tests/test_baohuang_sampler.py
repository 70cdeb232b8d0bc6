"""The 保皇 level-3 sampler (qipai.bots.baohuang.determinize): a view of a deal that really
happened always has a determinization. The 2s added to the package and a tribute the seat took
no part in are shown by their ranks only (the labels' suits are the table's, not the cards'),
so the sample gives them faces it can hold; the seat's own plays stand in for cards it could
have held after the tribute it gave (its largest)."""

from __future__ import annotations

import random

import qipai
from qipai.bots import make_bot
from qipai.bots.search import searcher_for
from qipai.games.baohuang.match import Match

from .baohuang_helpers import SAMPLER_SAMPLE, sampler_sweep


def test_the_emperor_holds_the_added_twos_whatever_their_labels_say():
    """Seed 1021 (a strength run's level-3 emperor raised "no determinization ... seat 1 would
    have given cards it never held: ['2H']"): the second 2 added is shown as ``2H0`` while the
    emperor, seat 1, holds no 2H; the sample takes the package's 2s among its own."""
    game = qipai.load("baohuang")
    state = game.new_state(seed=1021)
    rule = make_bot("baohuang", "rule", seed=0)
    while state.phase != "play":
        seat = state.to_act[0]
        state.apply(rule.choose(state, seat), seat)
    view = state.view(1)
    assert view["emperor"] == 1 and view["to_act"] == [1]
    assert [t for _, t in view["selection"]] == ["decline", "decline 2S0", "decline 2H0", "accept"]
    assert not any(c.startswith("2H") for c in view["hand"])
    root = searcher_for("baohuang").root_states(game, {"view": view})
    for k in range(5):
        assert root(random.Random(k)).view(1) == view


def test_a_giver_of_two_cards_of_one_rank_gave_the_seat_the_one_it_got():
    """Match seed 63, second deal: the last emperor (seat 3) hands two 2s in tribute, 2H to
    seat 2 and another, shown by its rank as ``2H1``, to seat 0. Which copy went where follows
    from which is larger, so seat 2's sample must draw that other 2's face to agree with the 2H
    it got (the lowest copy left, 2D, always sent 2D to seat 2)."""
    game = qipai.load("baohuang")
    match = Match(game, 63)
    rule = make_bot("baohuang", "rule", seed=0)
    for deal in range(2):
        state = match.next_state()
        while not state.is_terminal() and not (deal and state.phase == "play"):
            seat = state.to_act[0]
            state.apply(rule.choose(state, seat), seat)
        if not deal:
            match.record(state)
    view = state.view(2)
    assert [t[:2] for t in view["tribute"] if t[0] == 3] == [[3, 2], [3, 0]]
    root = searcher_for("baohuang").root_states(game, {"view": view})
    for k in range(3):
        assert root(random.Random(k)).view(2) == view


def test_every_seats_view_of_rule_bot_deals_has_a_determinization():
    """Over deals of the rule bots (both rule sets; 保皇 with and without tribute), every seat's
    view during play yields a determinization within the searcher's tries, one that shows the
    seat the same view. A sample of each case (``benchmarks/baohuang_sampler.py`` runs the same
    sweep over more deals)."""
    counts = sampler_sweep(SAMPLER_SAMPLE)
    assert counts["views"] > 4_000 and counts["sdbh"] > 3_000
    for case in ("tribute", "gave", "others_tribute", "added_twos", "plain"):
        assert counts[case] >= 100, (case, counts)
