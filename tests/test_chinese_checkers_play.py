"""Chinese checkers bots (random, greedy) and terminal play."""

from __future__ import annotations

import io
import re
import time

import pytest
from rich.console import Console

import qipai
from qipai.bots import bot_names, make_bot
from qipai.core.errors import IllegalAction
from qipai.games.chinese_checkers import play

from .chinese_checkers_helpers import camp, position, state_at


def test_bots_registered():
    assert {"random", "greedy"} <= set(bot_names("chinese-checkers"))


def test_greedy_takes_the_longest_stride_toward_the_target():
    s = state_at(position(S=["0,0"], N=["0,-1", "1,-3", "2,-5", "2,-1"]))
    assert str(make_bot("chinese-checkers", "greedy", 0).choose(s, 0)) == "0,0>0,-2>2,-4>2,-6"


def test_greedy_clears_home_before_a_checkpoint():
    """Own move 29 next, two marbles still at home: 10 must be out after move 30 (§4.3), so
    the bot moves a home marble out (here the jump -3,6>-1,4) rather than racing ahead."""
    s = state_at(position(S=["-2,5", "-3,6"] + ["0,0", "1,0", "2,0", "3,0", "4,0", "0,1", "1,1", "2,1"],
                          N=["0,-4", "1,-4", "2,-4"], moves=(28, 28)))
    assert str(make_bot("chinese-checkers", "greedy", 3).choose(s, 0)) == "-3,6>-1,4"


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_greedy_games_end_fast_and_mostly_by_finishing(n):
    game = qipai.load("tiaoqi")
    reasons = []
    start = time.process_time()
    for seed in range(4):
        bots = [make_bot(game.id, "greedy", seed * 10 + s) for s in range(n)]
        state = game.new_state(num_seats=n)
        while not state.is_terminal():
            state.apply(bots[state.current_player].choose(state, state.current_player))
        reasons.append(state.result.reason)
    assert (time.process_time() - start) / 4 < 2.0
    assert reasons.count("finished") + reasons.count("equal_moves_draw") >= 2


def test_random_bot_plays_legal_moves_to_the_end():
    game = qipai.load("chinese-checkers")
    bots = [make_bot(game.id, "random", s) for s in range(3)]
    state = game.new_state(num_seats=3)
    while not state.is_terminal():
        state.apply(bots[state.current_player].choose(state, state.current_player))
    assert state.result.reason in ("stalling", "finished", "max_moves", "all_pass")


def _run(lines, seat=0, **options):
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    feed = iter(lines)
    play.run(qipai.load("tiaoqi", **options), bot="greedy", seat=seat, seed=1, console=console,
             read_line=lambda prompt: next(feed))
    return out.getvalue()


def test_terminal_play_moves_refusals_and_resign():
    text = _run(["help", "moves", "hello", "0,0>1,0", "-4,6>-4,4", "", "resign"])
    assert "Type a move" in text
    # the legal moves in cell names (column letter, row number), never as q,r holes
    listed = next(line for line in text.splitlines() if "l3>n5" in line)
    assert re.fullmatch(r"([a-hj-z]\d+(>[a-hj-z]\d+)+ ?)+", listed.strip()), listed
    assert not re.search(r"-?\d+,-?\d+", listed)
    assert "Refused: not a move" in text and "Refused: there is no marble on n9" in text
    assert "N plays" in text
    assert "Game over: You lost — you resigned." in text


def test_terminal_play_as_second_seat_and_quit():
    text = _run(["quit"], seat=1)
    assert "S plays" in text and "Game abandoned" in text
    with pytest.raises(IllegalAction, match="two-player"):
        _run([], seat=2)


def test_terminal_board_shows_every_hole():
    s = state_at(position(S=camp("S"), N=camp("N")))
    *board, legend = play.board_text(s).plain.splitlines()
    drawn = "\n".join(board)
    assert drawn.count("●") == 10 and drawn.count("○") == 10 and drawn.count("·") == 101
    assert legend == "● S  ○ N"


@pytest.mark.parametrize("lang, legend", [("en", "● S (you)  ○ N"), ("zh", "● 南方（你）  ○ 北方")])
def test_the_sides_are_told_apart_without_colour(lang, legend):
    """Piped or NO_COLOR, the board draws each side's marbles in a shape of its own (● S, ○ N)
    and names them in a legend, in the terminal's language; in a colour terminal they keep
    their colours too."""
    from typer.testing import CliRunner

    from qipai import i18n
    from qipai.cli import app

    try:
        r = CliRunner().invoke(app, ["play", "tiaoqi", "--lang", lang, "--seed", "1"], input="quit\n",
                               env={"NO_COLOR": "1"})
    finally:
        i18n.use("en")
    lines = r.output.splitlines()
    assert legend in lines and "\x1b[" not in r.output, r.output
    assert sum(line.count("●") for line in lines) == 11 and sum(line.count("○") for line in lines) == 11
    out = io.StringIO()
    Console(file=out, force_terminal=True, color_system="standard").print(
        play.board_text(qipai.load("tiaoqi").new_state(num_seats=2), 0))
    assert "\x1b[1;31m●" in out.getvalue() and "\x1b[1;36m○" in out.getvalue()


def test_match_runner_timeouts_skip_then_eliminate_and_two_player_timeout_loses():
    """competition.md clocks: tiaoqi_multi skips a timed-out turn (the ``timeout`` action) and
    the third strike eliminates; board_default makes a two-player timeout lose. The records
    replay to the same results."""
    import asyncio

    from qipai.core.record import Record, replay
    from qipai.match.players import BotPlayer, Player
    from qipai.match.runner import GameRunner

    game = qipai.load("tiaoqi")
    players = [BotPlayer(make_bot(game.id, "greedy", s)) for s in range(2)] + [Player()]
    out = asyncio.run(GameRunner(game, players, clock="tiaoqi_multi", num_seats=3,
                                 trustee=[2]).run())
    assert out.record.actions[2] == "timeout" and out.state.status[2] == "out"
    assert out.result.details["places"][2] == 3
    assert replay(Record.from_json(out.record.to_json())).result.text == out.result.text
    players = [Player(), BotPlayer(make_bot(game.id, "greedy", 1))]
    out = asyncio.run(GameRunner(game, players, clock="board_default", trustee=[0]).run())
    assert out.result.text == "0-1" and out.result.winners == (1,)


def test_terminal_board_names_the_cells_and_takes_them():
    """The board's edges carry the cell names (column letters above and below, the row number
    after each row), the bot's move is told by them, and a move may be typed by them."""
    text = _run(["q4>p5", "resign"])
    lines = text.splitlines()
    ruler = next(i for i, line in enumerate(lines) if line.strip() == "abcdefghjklmnopqrstuvwxyz")
    tip = lines[ruler + 1]                                    # row 17: N's tip, in column n
    assert tip.rstrip().endswith("17") and tip.index("○") == lines[ruler].index("n")
    assert not re.search(r"\br\s*-?\d+\s+q", text)             # no axial q,r row labels
    assert re.search(r"N plays [a-hj-z]\d+(>[a-hj-z]\d+)+", text), text
    assert "Refused" not in text                              # q4>p5 taken
    from qipai import i18n
    assert i18n.t("refusal.chinese-checkers.no_marble", {"a": "0,0"}, lang="zh") == "n9 上没有棋子"
    jump = i18n.t("refusal.chinese-checkers.not_jump_jumps_go",
                  {"x": "-4,8", "land": "-4,6", "rule": "adjacent", "how": "over the next hole"}, lang="zh")
    assert jump.startswith("n1>l3 不是一跳（一子跳：") and not re.search("[A-Za-z]{3,}", jump), jump
