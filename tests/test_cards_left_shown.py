"""At the end of a climbing game's deal every seat's cards left are shown to all (the views'
``remaining``, which the table draws beside each seat), as doudizhu and wakeng did and the card
rooms do: 4A4's last player and baohuang's seats still holding cards showed a count and no cards.
Never before the deal is over."""

from __future__ import annotations

import random

import pytest

import qipai


@pytest.mark.parametrize("game_id", ["fouafour", "baohuang", "doudizhu", "wakeng"])
def test_the_cards_left_are_shown_to_all_only_once_the_deal_is_over(game_id):
    state = qipai.load(game_id).new_state(seed=3)
    seats = list(range(state.num_seats)) + [None]
    rng = random.Random(3)
    while not state.is_terminal():
        for seat in seats:
            assert "remaining" not in state.view(seat)
        seat = sorted(state.to_act)[0]
        state.apply(rng.choice(list(state.legal_actions(seat))), seat=seat)
    left = state.view(None)["remaining"]
    counts = state.view(None)["counts"]
    assert [len(h) for h in left] == counts and sum(counts) > 0
    for seat in seats:
        view = state.view(seat)
        assert view["remaining"] == left
        if seat is not None:
            assert sorted(left[seat]) == sorted(view["hand"])
