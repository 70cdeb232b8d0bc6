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


def refusals_at(state, tries, ignore: tuple[type[Exception], ...] = ()):
    """Try each ``(action, seat)`` of ``tries`` on a clone of ``state``, leaving ``state`` as it
    is; yields ``(action, error)`` for each one refused with an IllegalAction, after checking that
    the refusal changed nothing (the clone's JSON and spectator view are as before). One clone
    serves every try that is refused (a refusal must not change it); an action accepted, or one
    raising an exception of ``ignore`` (skipped), costs a fresh clone."""
    work, before = None, None
    for action, seat in tries:
        if work is None:
            work = state.clone()
            before = work.to_json(), work.view(None)
        try:
            work.apply(action, seat=seat)
        except IllegalAction as e:
            assert (work.to_json(), work.view(None)) == before, (action, seat, e.code)
            yield action, e
            continue
        except ignore:
            pass
        work = None


def playout_turns(game, steps: int, seeds=range(2)):
    """The turns of seeded random playouts of ``game`` (one per seed, at most ``steps`` turns):
    yields ``(state, seat)`` before ``seat``'s random legal action is applied (the caller may
    try refused actions meanwhile, on a clone: :func:`refusals_at`), and ``(state, None)`` once at
    each playout's end."""
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
