"""Sandayi's observations read from ``state.seen_tricks`` (qipai/games/sandayi/game.py,
``TrickTensor.follow`` in qipai/env/tricks.py): what the state gives equals what
``view(seat)`` shows at every step of random hands (redeals after all-pass biddings, the
kitty shown or not, the dealer forced), the kept tensor equals the one encoded from
``view(seat)`` whether each seat observes after every step or only at its own turns, a copied
env stays right, and an env step reads no view."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import qipai
import qipai.env as E
from qipai.games.sandayi.actions import PASS
from tests.env_helpers import copies_keep_tensors, kept_playouts, step_at_random, views_read

OPTIONS = [{}, {"expose_kitty_max": "none"}, {"expose_kitty_max": 100, "max_redeals": 0},
           {"payout": "simple", "opening_minimums": False}]
PUBLIC = ("kitty", "buried")


def _ids(v):
    return "-".join(f"{k}={x}" for k, x in v.items()) or "default"


def _check_seen(state, marks, hands, last, public) -> None:
    """Every seat's seen form since its last mark against its whole view."""
    for seat in range(4):
        view = state.view(seat)
        seen = state.seen_tricks(seat, marks[seat])
        for key, value in seen.keys.items():
            assert value == view[key], (seat, key)
        if seen.hand is not None:
            hands[seat] = Counter(seen.hand)
        else:                            # changed by the seat's own plays only
            assert seen.played is not None
            hands[seat] = hands[seat] - Counter(seen.played)
        assert hands[seat] == Counter(view["hand"]), seat
        assert [[s, f] for s, (f,) in seen.trick] == view["trick"]
        if seen.last_trick is not None:
            last[seat] = seen.last_trick
        shown = view["last_trick"]["cards"] if view["last_trick"] else []
        assert [[s, f] for s, (f,) in last[seat]] == shown
        for i, key in enumerate(PUBLIC):
            public[seat][i] = list(seen.public[i]) if seen.whole else public[seat][i] + list(seen.public[i])
            assert sorted(public[seat][i]) == sorted(view[key] or []), (seat, key)
        marks[seat] = seen.mark


def _books() -> tuple[list, list, list, list]:
    """Per seat: its last mark, hand, last trick and public lists as read so far."""
    return [None] * 4, [None] * 4, [()] * 4, [[[] for _ in PUBLIC] for _ in range(4)]


@pytest.mark.parametrize("options", OPTIONS, ids=_ids)
def test_what_the_state_gives_is_what_the_view_shows(options):
    game = qipai.load("sandayi", **options)
    rng = np.random.default_rng(5)
    redeals = forced = 0
    for seed in range(6):
        state = game.new_state(seed=seed)
        books = _books()
        passes = seed % 2 == 0                # every other hand: all pass once (a redeal)
        while True:
            _check_seen(state, *books)
            if passes and state.phase == "bid":
                seat = state.to_act[0]
                state.apply(PASS, seat=seat)
                continue
            if passes and (state.redeals or state.forced):
                passes = False
            if not step_at_random(state, rng):
                break
        redeals += state.redeals
        forced += state.forced
    # all passes: a redeal, or with max_redeals=0 the first bidder made dealer
    assert forced if options.get("max_redeals") == 0 else redeals


def test_a_seat_reading_only_now_and_then_catches_up():
    # marks several actions old: tricks completed, the kitty taken up and buried meanwhile
    game = qipai.load("sandayi", expose_kitty_max=100)
    rng = np.random.default_rng(8)
    for seed in range(4):
        state = game.new_state(seed=seed)
        books = _books()
        while step_at_random(state, rng):
            if rng.integers(5) == 0:
                _check_seen(state, *books)
        _check_seen(state, *books)


@pytest.mark.parametrize("options", OPTIONS, ids=_ids)
def test_the_kept_tensor_is_the_tensor_of_the_whole_view_at_the_seats_turns(options):
    env = E.pettingzoo("sandayi", **options)
    assert kept_playouts(env, E.encoder("sandayi", **options), (1, 2, 3), every_seat=False) > 100


def test_the_kept_tensor_is_the_tensor_of_the_whole_view_after_every_step():
    env = E.pettingzoo("sandayi", expose_kitty_max=100)
    assert kept_playouts(env, E.encoder("sandayi"), (4, 5), every_seat=True) > 300


def test_a_copied_env_keeps_its_tensors_right():
    copies_keep_tensors(E.pettingzoo("sandayi"), E.encoder("sandayi"), 9, 20, 20)


def test_a_sandayi_env_step_reads_no_view():
    env = E.pettingzoo("sandayi")
    assert views_read(env, 3, 80) == []
