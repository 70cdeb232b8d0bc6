"""Terminal play and the built-in go bots."""

from __future__ import annotations

import io

from rich.console import Console

import qipai
from qipai.bots import bot_names, make_bot
from qipai.games.go.play import run


def scripted(lines):
    it = iter(lines)

    def read_line(prompt: str) -> str:
        return next(it)
    return read_line


def test_terminal_game_to_a_counted_end():
    buf = io.StringIO()
    console = Console(file=buf, width=120, color_system=None)
    game = qipai.load("go", board_size=5, scoring="free_komi", komi=0.5)
    # the greedy bot (White) answers; the human passes until the bot passes, then accepts
    lines = ["C3", "I3", "pass"] + ["pass"] * 40 + ["done"] * 5
    run(game, bot="greedy", seat=0, seed=1, console=console, read_line=scripted(lines))
    out = buf.getvalue()
    assert "no column I" in out
    assert "Game over:" in out
    # the komi in points, as English go players say it
    assert "; Komi 0.5." in out and "gives" not in out, out[-300:]


def test_the_komi_is_said_in_points_in_english_and_in_stones_in_chinese():
    from qipai import i18n
    from qipai.games.go.play import komi_points_words, komi_words
    was = i18n.current()
    try:
        i18n.use("en")
        assert [komi_words(k) for k in (8, 7.5, 0, -1, 2, 6.5)] == [
            "Komi 8", "Komi 7.5", "no komi", "Reverse komi 1", "Komi 2", "Komi 6.5"]
        i18n.use("zh")
        # Chinese rules: komi 7.5 points is 贴 3¾ 子 (half the points, in stones of the area count)
        assert [komi_words(k) for k in (8, 7.5, 0, -1, 0.5, 6.5)] == [
            "黑贴 4 子", "黑贴 3¾ 子", "不贴子", "白贴 ½ 子", "黑贴 ¼ 子", "黑贴 3¼ 子"]
        # the score line's komi is in points, as its verdict (黑贴 8 目 → 白胜 89 目)
        assert [komi_points_words(k) for k in (8, 7.5, 0, -1)] == [
            "黑贴 8 目", "黑贴 7½ 目", "不贴目", "白贴 1 目"]
    finally:
        i18n.use(was)


def test_terminal_resign_and_illegal_limit():
    buf = io.StringIO()
    console = Console(file=buf, width=120, color_system=None)
    game = qipai.load("go", board_size=9)
    run(game, bot="random", seat=1, seed=2, console=console, read_line=scripted(["resign"]))
    assert "Game over: You lost — you resigned." in buf.getvalue()
    buf = io.StringIO()
    console = Console(file=buf, width=120, color_system=None)
    run(qipai.load("go", board_size=9, illegal_limit=2), bot="random", seat=0, seed=2,
        console=console, read_line=scripted(["E5", "E5", "Z1", "E5"]))
    # the typo Z1 is answered but not counted: the second occupied E5 is the second refusal
    out = buf.getvalue()
    assert "'Z1' is neither a move nor a command" in out
    assert "refused submission 2 of 2" in out and "You lost — illegal moves" in out


def test_bots_play_legal_games_and_greedy_captures():
    assert {"random", "greedy"} <= set(bot_names("go"))
    wins = 0
    for k in range(6):
        s = qipai.load("go", board_size=9).new_state()
        bots = [make_bot("go", "random", k), make_bot("go", "greedy", k)]
        while not s.is_terminal():
            seat = s.to_act[0]
            action = bots[seat].choose(s, seat)
            assert str(action) in {str(a) for a in s.legal_actions(seat)}
            s.apply(action, seat=seat)
        wins += 1 in s.result.winners
    assert wins >= 4
    # a capture is taken at once
    from tests.go_peers import position

    s = qipai.load("go").new_state(position=position(19, ["C4", "E4", "D5"], ["D4", "Q16"]))
    assert str(make_bot("go", "greedy", 0).choose(s, 0)) == "D3"
    # the random bot never fills its own eye
    s = qipai.load("go", board_size=5).new_state(
        position=position(5, ["A2", "B1", "B2"], ["E5"]))
    bot = make_bot("go", "random", 0)
    assert all(str(bot.choose(s, 0)) != "A1" for _ in range(200))
