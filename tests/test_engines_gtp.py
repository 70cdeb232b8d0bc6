"""The GTP door against GNU Go (``gnugo --mode gtp --level 1``) and qipai's own brain (``qipai
gtp``), a small referee loop of qipai's brain against GNU Go in raw GTP, and faulty engines."""

from __future__ import annotations

import io
import subprocess

import qipai
from qipai.bots import make_bot
from qipai.core import replay
from qipai.engines.brains import GtpBrain
from qipai.engines.gtp import GtpPlayer
from qipai.match import BotPlayer
from tests.engine_helpers import GNUGO, QIPAI, events, faulty, play


def sent(player: GtpPlayer) -> list[str]:
    return [s[2:] for s in player.engine.transcript if s.startswith("> ")]


def test_gnugo_plays_marks_dead_stones_and_its_score_is_advice_only():
    game = qipai.load("go", board_size=7, end_procedure="agreement", scoring="free_komi", komi=5.5)
    gnugo = GtpPlayer(GNUGO)
    out = play(game, [gnugo, BotPlayer(make_bot("go", "greedy", 2))])
    lines = sent(gnugo)
    assert lines[:4] == ["protocol_version", "boardsize 7", "clear_board", "komi 5.5"]
    assert any(s == "genmove b" for s in lines) and any(s.startswith("play w ") for s in lines)
    assert out.result.reason == "counted"
    assert replay(out.record).result.text == out.result.text      # the referee's count
    assert gnugo.advice and gnugo.advice[0] in "BW0"             # kept, not used


def test_the_clock_is_told_with_time_settings_and_time_left():
    game = qipai.load("go", board_size=7, max_moves=8)
    gnugo = GtpPlayer(GNUGO)
    clock = {"bank": "2s", "overtime": {"byoyomi": {"periods": 3, "period": "1s"}}}
    out = play(game, [BotPlayer(make_bot("go", "random", 1)), gnugo], clock=clock)
    lines = sent(gnugo)
    # GNU Go has no kgs-time_settings: the door falls back to time_settings
    assert "kgs-time_settings byoyomi 2 1 3" in lines and "time_settings 2 1 1" in lines
    assert any(s.startswith("time_left w ") for s in lines)
    assert out.result.reason == "max_moves"


def test_qipai_gtp_against_gnugo_through_the_doors():
    game = qipai.load("go", board_size=5, scoring="free_komi", komi=4.5)
    mine = GtpPlayer(QIPAI + ["gtp"])
    out = play(game, [GtpPlayer(GNUGO), mine])
    assert out.result.reason == "counted" and replay(out.record).result.text == out.result.text
    assert mine.errors == []


def test_an_illegal_genmove_is_refused_and_the_board_replayed(tmp_path):
    game = qipai.load("go", board_size=7, max_moves=12)
    gnugo = GtpPlayer(faulty("gtp", "illegal", 3, GNUGO))
    out = play(game, [gnugo, BotPlayer(make_bot("go", "random", 4))], clock={"bank": "30s"})
    refused = events(out, "refused")
    assert len(refused) == 1 and refused[0]["seat"] == 0
    assert sent(gnugo).count("clear_board") == 2          # once at the start, once to resync
    assert out.result.reason == "max_moves"


def test_a_crashed_engine_is_restarted_and_told_the_whole_board(tmp_path):
    game = qipai.load("go", board_size=7, max_moves=12)
    gnugo = GtpPlayer(faulty("gtp", "crash", 3, GNUGO, once=tmp_path / "c"))
    out = play(game, [gnugo, BotPlayer(make_bot("go", "random", 4))], clock={"bank": "30s"})
    assert gnugo.restarts == 1 and out.result.reason == "max_moves"


def test_go_forfeit_counts_when_the_game_counts_on_timeout():
    game = qipai.load("go", board_size=7, on_timeout="count")
    gnugo = GtpPlayer(faulty("gtp", "crash", 1, GNUGO, every=True), max_restarts=0)
    out = play(game, [BotPlayer(make_bot("go", "random", 4)), gnugo])
    assert out.result.reason == "timeout" and "black" in out.result.details     # counted


def gtp(proc: subprocess.Popen, line: str) -> str:
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    out = []
    while True:
        s = proc.stdout.readline()
        if not s.strip():
            if out:
                break
            continue
        out.append(s.strip())
    assert out[0].startswith("="), (line, out)
    return " ".join(out)[1:].strip()


def test_a_small_referee_loop_of_qipai_gtp_against_gnugo():
    """Raw GTP, no door: each move asked of one program, checked by qipai's referee, played
    on the other; two passes end the game and both programs' final_score is compared with the
    referee's count."""
    state = qipai.load("go", board_size=5, scoring="free_komi", komi=0.5).new_state()
    procs = [subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
             for cmd in (QIPAI + ["gtp", "--seed", "3"], GNUGO)]
    try:
        for p in procs:
            gtp(p, "boardsize 5")
            gtp(p, "clear_board")
            gtp(p, "komi 0.5")
        colours = "bw"
        while not state.is_terminal():
            me = len(state.moves) % 2
            move = gtp(procs[me], f"genmove {colours[me]}")
            if move.lower() == "resign":
                state.resign(me)
                break
            state.apply(move)                           # refereed: raises if illegal
            gtp(procs[1 - me], f"play {colours[me]} {move}")
        scores = [gtp(p, "final_score") for p in procs]
    finally:
        for p in procs:
            p.kill()
            p.wait()
    assert state.result is not None
    assert all(s[0] in "BW0" for s in scores)


def test_the_brain_refuses_illegal_moves_and_answers_every_command():
    out = io.StringIO()
    brain = GtpBrain(out, seed=1)
    for line in ("1 boardsize 5", "komi 0", "play b c3", "play w c3", "2 genmove w", "play b zz",
                 "frobnicate", "final_score", "list_commands"):
        brain.handle(line)
    answers = [a for a in out.getvalue().split("\n\n") if a.strip()]
    assert answers[0] == "=1" and answers[1] == "="
    assert answers[3].startswith("? illegal move (C3 is occupied")
    assert answers[4].startswith("=2 ") and answers[5].startswith("? ")
    assert answers[6] == "? unknown command" and answers[7][2] in "BW0"
    assert "genmove" in answers[8]
