"""``qipai play sandayi``: a human seat driven by scripted input, against rule bots."""

from __future__ import annotations

import io

from rich.console import Console

import qipai
from qipai.games.sandayi.play import run


def test_terminal_hand_played_to_the_end_with_defaults():
    out = io.StringIO()
    console = Console(file=out, width=140)
    holder = {}
    game = qipai.load("sandayi")
    real_new = game.new_state

    def new_state(**kw):
        holder["state"] = real_new(**kw)
        return holder["state"]

    game.new_state = new_state
    lines = iter(["hint", "garbage here"])

    def first_then_defaults(prompt):
        # after two bad lines, the seat's timeout action (always legal) as typed text
        return next(lines, None) or str(holder["state"].default_action(0))

    state = run(game, seat=0, seed=5, console=console, read_line=first_then_defaults)
    text = out.getvalue()
    assert state.is_terminal() and "Hand over" in text
    assert "not accepted" in text and "legal:" in text


def test_terminal_quit_leaves_the_hand_unfinished():
    out = io.StringIO()
    state = run(qipai.load("sandayi"), seat=2, seed=3, console=Console(file=out, width=120),
                read_line=lambda prompt: "quit")
    assert not state.is_terminal() and "you left the table" in out.getvalue()
