"""The check every refusal test makes: the action is refused with an IllegalAction and the
state (its JSON and the spectator's view) is exactly as before."""

from __future__ import annotations

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
