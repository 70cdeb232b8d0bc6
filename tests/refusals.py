"""The check every refusal test makes: the action is refused with an IllegalAction and the
state (its JSON and the spectator's view) is exactly as before."""

from __future__ import annotations

import random

import pytest

from qipai.core.errors import IllegalAction


def refused(state, action, seat=None) -> IllegalAction:
    """Apply ``action`` for ``seat``; it must raise IllegalAction and change nothing. Returns
    the error (its ``code`` and ``params`` for the test to check)."""
    before = state.to_json(), state.view(None)
    with pytest.raises(IllegalAction) as e:
        state.apply(action, seat=seat)
    assert (state.to_json(), state.view(None)) == before
    return e.value


def playout_turns(game, steps: int, seeds=range(2)):
    """The turns of seeded random playouts of ``game`` (one per seed, at most ``steps`` turns):
    yields ``(state, seat)`` before ``seat``'s random legal action is applied (the caller may
    try refused actions on clones meanwhile), and ``(state, None)`` once at each playout's end."""
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        for _ in range(steps):
            if state.is_terminal():
                break
            seat = rng.choice(state.to_act)
            yield state, seat
            state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
        yield state, None
