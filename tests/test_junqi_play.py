"""``qipai play junqi``: terminal play against the bots, both variants."""

from __future__ import annotations

import io

from rich.console import Console

import qipai
from qipai.games.junqi import play


def _run(game_id, seat, lines):
    buf = io.StringIO()
    feed = iter(lines)
    play.run(qipai.load(game_id), bot="greedy", seat=seat, seed=3,
             console=Console(file=buf, width=120), read_line=lambda prompt: next(feed))
    return buf.getvalue()


def test_play_luzhan_layout_moves_refusal_resign():
    out = _run("junqi", 0, ["layouts", "random", "moves", "zz-zz", "a1-a2", "resign"])
    assert "1: a6=" in out and "Refused: not a junqi action" in out
    assert "Refused: the mine on a1 never moves" in out     # the first offered layout has a1=M
    assert "Game over: You lost — you resigned." in out
    assert "S40" in out and "N? " in out          # own identities shown, North's hidden


def test_play_siguo_resign_lets_the_team_mate_play_on():
    out = _run("siguo-junqi", 1, ["2", "resign"])
    assert "You are out; your team-mate plays on." in out and "Game over:" in out
