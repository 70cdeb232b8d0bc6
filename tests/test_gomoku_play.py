"""Gomoku bots and terminal play."""

from __future__ import annotations

import io

from rich.console import Console

import qipai
from qipai.bots import bot_names, make_bot
from qipai.games.gomoku import play
from qipai.games.gomoku.notation import parse_point


def test_bots_registered_for_gomoku_and_renju_alias():
    assert {"random", "greedy"} <= set(bot_names("gomoku"))
    assert qipai.load("renju").id == "gomoku"


def test_greedy_completes_five_then_blocks_four():
    g = qipai.load("gomoku")
    s = g.new_state(position="h8 i8 j8 k8 / a1 b1 c1 / b")
    assert str(make_bot("gomoku", "greedy", 1).choose(s, 0)) in ("g8", "l8")
    s = g.new_state(position="h8 a15 c15 / d5 e5 f5 g5 / b")
    assert str(make_bot("gomoku", "greedy", 1).choose(s, 0)) in ("c5", "h5")
    s = g.new_state(position="h8 a15 / h9 i9 j9 / b")          # open three: block an end
    assert str(make_bot("gomoku", "greedy", 2).choose(s, 0)) in ("g9", "k9", "f9", "l9")


def test_greedy_never_plays_a_forbidden_point_and_claims_one():
    g = qipai.load("renju")
    s = g.new_state(position="h8 i10 i11 g9 h9 / a1 c1 e1 g1 i1 / b")
    for seed in range(5):
        assert str(make_bot("gomoku", "greedy", seed).choose(s, 0)) != "i9"
    c = qipai.load("renju", forbidden_handling="claim").new_state(
        position="h8 i10 i11 g9 h9 / a1 c1 e1 g1 i1 / b")
    c.apply("i9")
    assert str(make_bot("gomoku", "greedy", 0).choose(c, 1)) == "claim_forbidden"


def test_greedy_beats_random_and_handles_openings():
    wins = 0
    for seed in range(6):
        opts = {"opening": "swap3_two5"} if seed % 2 else {}
        s = qipai.load("renju", **opts).new_state()
        bots = {0: make_bot("gomoku", "greedy", seed), 1: make_bot("gomoku", "random", seed)}
        while not s.is_terminal():
            s.apply(bots[s.current_player].choose(s, s.current_player))
        wins += 0 in s.result.winners
    assert wins >= 5


def test_terminal_game_against_the_bot():
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    inputs = iter(["help", "g8", "h8", "forbidden", "h8", "resign"])
    play.run(qipai.load("renju"), bot="greedy", seat=0, seed=3, console=console,
             read_line=lambda prompt: next(inputs))
    text = out.getvalue()
    assert "Refused: Black's first stone must be on the centre point h8" in text
    assert "Refused: h8 is occupied" in text
    assert "Game over: You lost — you resigned." in text
    assert "●" in text and "○" in text


def test_terminal_offer_and_choose_shorthand():
    assert play._normalise("offer g11 j11") == "offer:g11,j11"
    assert play._normalise("choose j11") == "choose:j11"
    s = qipai.load("renju").new_state(position="h8 i10 i11 g9 h9 / a1 c1 e1 g1 i1 / b")
    board = play.board_text(s).plain
    assert "×" in board                                    # i9 marked forbidden for Black
    assert s.board.get(parse_point("i9")) == "."
