"""What the other seats' passes on discards tell a mahjong seat's samples (qipai/tiles/passes.py):
the order of the discards read back from a view, the limits drawn from the passes, and samples
that keep them."""

from __future__ import annotations

import random

import pytest

import qipai
from qipai.bots import make_bot
from qipai.tiles.passes import discard_order, pass_limits
from qipai.tiles.sample import table_sample
from qipai.tiles.wall import tile_set

GAMES = [("mahjong-gb", "fast"), ("laizi-mahjong", "rule"), ("baibian-bajue", "rule")]


def _views(game_id: str, bot: str, seed: int):
    """Each view of a rule-bot hand's seat to act, with the state and the discards so far."""
    st = qipai.load(game_id, hands_per_match=1).new_state(seed=seed)
    bots = [make_bot(game_id, bot, seed=seed + s) for s in range(4)]
    made = []
    while not st.is_terminal():
        s = st.to_act[0]
        yield st, st.view(s), list(made)
        a = bots[s].choose(st, s)
        if a.kind == "discard":
            made.append((s, a.tile))
        st.apply(a, seat=s)


@pytest.mark.parametrize("game_id,bot", GAMES)
def test_the_order_of_the_discards_is_read_back_from_a_view(game_id, bot):
    seen = 0
    for _, view, made in _views(game_id, bot, seed=5):
        order = discard_order(view)
        assert order is not None and [(s, t) for s, t, _ in order] == made
        seen += bool(made)
    assert seen > 20


def test_a_seat_that_passed_is_not_sampled_a_pair_it_let_go():
    rng = random.Random(1)
    checked = 0
    for st, view, _ in _views("mahjong-gb", "fast", seed=2):
        if view["phase"] != "claim":
            continue
        limits = pass_limits(view)
        for s, lim in limits.items():
            assert s != view["you"] and all(1 <= n < 4 for n in lim.values())
        sample = table_sample(view, tile_set(st.game.options["use_flowers"]), rng)
        for s, lim in limits.items():
            assert all(sample["hands"][s][t] <= n for t, n in lim.items())
        checked += bool(limits)
    assert checked > 40


def test_a_pass_just_made_allows_one_tile_and_a_discard_in_its_window_none():
    for _st, view, made in _views("mahjong-gb", "fast", seed=3):
        if view["phase"] == "turn" and len(made) >= 4 and not any(d["claimed"] for s in view["seats"]
                                                                  for d in s["discards"]):
            break
    me = view["you"]
    frm, t = made[-1]                      # the discard just before this turn, passed by all
    limits = pass_limits(view)
    for s in range(4):
        if s not in (me, frm):
            assert limits[s][t] == 1 + (s == view["current"])
    window = {**view, "phase": "claim", "claim": {"kind": "discard", "tile": "1m", "from": frm}}
    assert pass_limits(window) != limits or frm == me
