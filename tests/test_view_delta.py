"""``State.view_delta``: a seat's view kept up to date from changes equals the view rebuilt
from scratch, at every step of random games of every game (and after skipped steps, a
redeal, a new state)."""

from __future__ import annotations

import random

import pytest

import qipai
from qipai.core.viewdelta import ViewFollower, continues

GAMES = {"go": {"board_size": 9}, "gomoku": {}, "xiangqi": {}, "chinese-checkers": {}, "junqi": {},
         "doudizhu": {}, "wakeng": {}, "fouafour": {}, "baohuang": {}, "shengji": {}, "sandayi": {},
         "mahjong-gb": {"hands_per_match": 1}, "laizi-mahjong": {"hands_per_match": 1},
         "baibian-bajue": {"hands_per_match": 1}}


def playout_check(game, seed: int, max_steps: int = 400) -> int:
    """Play a random game; after each step some followers (one per seat and a spectator)
    catch up and must equal ``view``. Returns how many changes (not whole views) were used."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    seats = [*range(state.num_seats), None]
    followers = {s: ViewFollower(s) for s in seats}
    changes = 0
    for _ in range(max_steps):
        for s in seats:
            if rng.random() < 0.6:                  # some seats skip steps: several changes at once
                got = followers[s].follow(state)
                assert got == state.view(s), (s, len(state.log))
                changes += not followers[s].last.whole
        if state.is_terminal():
            break
        seat = state.to_act[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
    return changes


@pytest.mark.parametrize("gid", list(GAMES))
def test_incremental_view_equals_view(gid):
    game = qipai.load(gid, **GAMES[gid])
    for seed in range(3):
        playout_check(game, seed)


@pytest.mark.parametrize("gid", ["doudizhu", "wakeng", "fouafour", "baohuang", "junqi", "shengji", "gomoku",
                                 "mahjong-gb", "laizi-mahjong", "baibian-bajue"])
def test_games_with_growing_lists_give_changes(gid):
    """These games answer changes, not whole views, once a seat has seen its view."""
    assert playout_check(qipai.load(gid), 5) > 20


def test_doudizhu_redeal_starts_the_lists_again():
    """All three pass: a new deal; the follower must not keep the old bids."""
    state = qipai.load("doudizhu").new_state(seed=3)
    f = ViewFollower(0)
    for _ in range(3):
        f.follow(state)
        state.apply("pass")
    assert state.redeals == 1 and state.phase == "bidding"
    assert f.follow(state) == state.view(0) and f.last.whole
    assert state.view(0)["bids"] == []


def test_a_new_state_starts_whole():
    game = qipai.load("doudizhu")
    f = ViewFollower(1)
    a = game.new_state(seed=1)
    a.apply(a.legal_actions()[0])
    f.follow(a)
    b = game.new_state(seed=2)
    assert f.follow(b) == b.view(1) and f.last.whole


def test_continues_needs_the_same_deal_and_no_shorter_list():
    assert continues((1, 2, 3), (1, 2, 4))
    assert not continues((1, 2, 3), (2, 2, 4))
    assert not continues((1, 2, 5), (1, 2, 4))
    assert not continues(None, (1, 2, 4))


def test_gomoku_from_a_position_keeps_the_position_stones_first():
    """A game started from a position lists the stones no move placed first; the stones the
    moves add are appended after them, as the whole view lists them."""
    game = qipai.load("gomoku")
    state = game.new_state(position="h8 j9 g7 / h9 j8")
    follower = ViewFollower(1)
    rng = random.Random(3)
    changes = 0
    for _ in range(30):
        assert follower.follow(state) == state.view(1)
        changes += not follower.last.whole
        if state.is_terminal():
            break
        seat = state.to_act[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
    assert changes > 10 and [s["n"] for s in state.view(1)["stones"][:5]] == [0] * 5
