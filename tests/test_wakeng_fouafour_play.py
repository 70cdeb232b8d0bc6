"""Terminal play (``qipai play wakeng`` / ``qipai play fouafour``): a scripted human plays a whole
deal against the rule bots, typing garbage, hints and help first; quitting and end of input
leave the deal unfinished."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

import qipai
from qipai.games.fouafour import play as fouafour_play
from qipai.games.wakeng import play as wakeng_play


def scripted(state_box, seat):
    """A reader that first types junk, ``hint`` and ``help``, then always the default action."""
    junk = iter(["@@", "hint", "help", "", "7777"])

    def read_line(prompt: str) -> str:
        nxt = next(junk, None)
        if nxt is not None:
            return nxt
        state = state_box[0]
        return str(state.default_action(seat))
    return read_line


@pytest.mark.parametrize("game_id,module,seat", [("wakeng", wakeng_play, 1), ("fouafour", fouafour_play, 2)])
def test_a_whole_deal_in_the_terminal(game_id, module, seat, monkeypatch):
    out = io.StringIO()
    console = Console(file=out, width=120)
    box = [None]
    game = qipai.load(game_id)
    real_new = type(game).new_state

    def capture(self, **kw):
        box[0] = real_new(self, **kw)
        return box[0]

    monkeypatch.setattr(type(game), "new_state", capture)
    state = module.run(game, seat=seat, seed=5, console=console, read_line=scripted(box, seat))
    assert state.is_terminal()
    text = out.getvalue()
    assert "not accepted" in text and "legal:" in text and "Deal over" in text


@pytest.mark.parametrize("game_id,module", [("wakeng", wakeng_play), ("fouafour", fouafour_play)])
def test_quit_and_end_of_input_leave_the_deal_unfinished(game_id, module):
    game = qipai.load(game_id)
    console = Console(file=io.StringIO())
    assert not module.run(game, seat=0, seed=3, console=console, read_line=lambda p: "quit").is_terminal()

    def eof(prompt: str) -> str:
        raise EOFError

    assert not module.run(game, seat=0, seed=3, console=console, read_line=eof).is_terminal()
    with pytest.raises(qipai.core.errors.OptionError):
        module.run(game, seat=9, console=console)
