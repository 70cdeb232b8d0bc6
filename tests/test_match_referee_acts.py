"""Referee acts in the match runner: added time, notes, go's forced count, the wall-clock limit
(competition.md §4.5 ``go_s2_walltime``, §5.7; go §5.2)."""

from __future__ import annotations

import qipai
from qipai.match import (
    AddTime,
    Adjudicate,
    GameRunner,
    Pause,
    RefereeNote,
    Resume,
    ScriptedPlayer,
    SeatClock,
    VirtualTime,
    clock_preset,
)
from tests import match_games  # noqa: F401  (test-nim)
from tests.test_match_pause import run_with_referee


def test_added_time_moves_the_deadline_of_a_capped_turn():
    # 15 s per move, one overrun loses; seat 0 thinks 20 s but the referee adds 10 s at 5 s
    a = ScriptedPlayer([(20_000, "1"), (1_000, "3")])
    b = ScriptedPlayer([(1_000, "1"), (1_000, "1")])
    runner = GameRunner(qipai.load("test-nim", pile=6), [a, b], clock="xq_s2_15s", time=VirtualTime())
    out = run_with_referee(runner, [(5_000, AddTime(0, 10_000, by="ref", reason="noise"))])
    assert out.result.reason == "last_stone"
    added = [e for e in out.events if e["type"] == "time_added"]
    assert added == [{"t": 5_000, "seat": 0, "type": "time_added", "ms": 10_000, "to": "turn",
                      "by": "ref", "reason": "noise"}]


def test_added_time_goes_to_the_bank_exactly():
    clock = SeatClock(clock_preset("go_s2"))
    clock.start_turn(0)
    assert clock.add_time(60_000) == "bank"
    assert clock.deadline() == 30 * 60_000 + 60_000
    clock.act(1_000)
    assert clock.bank_left == 31 * 60_000 - 1_000


def test_pause_then_added_time_then_resume_gives_back_what_was_left():
    a = ScriptedPlayer([(40_000, "1"), (1_000, "3")])
    b = ScriptedPlayer([(1_000, "1"), (1_000, "1")])
    runner = GameRunner(qipai.load("test-nim", pile=6), [a, b], clock="xq_s3", time=VirtualTime())
    out = run_with_referee(runner, [(10_000, Pause("dispute", by="ref")),
                                    (20_000, AddTime(1, 5_000, by="ref")),
                                    (30_000, Resume(by="ref")),
                                    (31_000, RefereeNote("warning", 0, by="ref", reason="talking"))])
    # seat 0 was charged its own 20 s (10 s before the pause, 10 s after), not the pause
    assert out.record.meta["times"][0][:2] == [0, 20_000]
    assert out.record.meta["times"][0][2] == [30 * 60_000 - 20_000, 30 * 60_000 + 5_000]
    kinds = [(e["type"], e.get("by")) for e in out.events]
    assert ("pause", "ref") in kinds and ("resume", "ref") in kinds and ("time_added", "ref") in kinds
    note = next(e for e in out.events if e["type"] == "warning")
    assert note["seat"] == 0 and note["reason"] == "talking"


def go_players(n):
    return [ScriptedPlayer([(1_000, "pass")] * n), ScriptedPlayer([(1_000, "pass")] * n)]


def test_forced_count_adjudication_scores_go_as_it_stands():
    a = ScriptedPlayer([(1_000, "D4"), (60_000, "Q16")])
    b = ScriptedPlayer([(1_000, "Q4"), (60_000, "D16")])
    runner = GameRunner(qipai.load("go", board_size=9), [a, b], clock="go_s2", time=VirtualTime())
    out = run_with_referee(runner, [(5_000, Adjudicate("count", "over-long game", by="ref"))])
    assert out.result.reason == "arbiter"
    ev = next(e for e in out.events if e["type"] == "adjudication")
    assert ev["by"] == "ref" and ev["result"] == out.result.text


def test_on_timeout_count_stops_and_counts_instead_of_losing():
    a = ScriptedPlayer([(1_000, "C3"), (31 * 60_000, "G7")])
    b = ScriptedPlayer([(1_000, "G3")])
    game = qipai.load("go", board_size=9, on_timeout="count")
    out = run_with_referee(GameRunner(game, [a, b], clock="go_s2", time=VirtualTime()), [])
    assert out.result.reason == "timeout"
    assert "+T" not in out.result.text            # counted, not lost on time
    lost = run_with_referee(GameRunner(qipai.load("go", board_size=9), [
        ScriptedPlayer([(1_000, "C3"), (31 * 60_000, "G7")]), ScriptedPlayer([(1_000, "G3")])],
        clock="go_s2", time=VirtualTime()), [])
    assert lost.result.text == "W+T"


def test_walltime_clock_counts_the_game_at_its_limit_excluding_pauses():
    a = ScriptedPlayer([(20 * 60_000, "C3"), (20 * 60_000, "C4"), (20 * 60_000, "C5")])
    b = ScriptedPlayer([(5 * 60_000, "G3"), (5 * 60_000, "G4"), (5 * 60_000, "G5")])
    runner = GameRunner(qipai.load("go", board_size=9), [a, b], clock="go_s2_walltime", time=VirtualTime())
    out = run_with_referee(runner, [(1_000, Pause(by="ref")), (601_000, Resume(by="ref"))])
    assert out.result.reason == "timeout"
    limit = next(e for e in out.events if e["type"] == "game_limit")
    assert limit["t"] == 60 * 60_000 + 600_000      # the 10-minute pause is not counted
    assert out.record.meta["duration"] == 60 * 60_000


def test_walltime_option_of_go_sets_the_limit_without_a_clock():
    a = ScriptedPlayer([(50 * 60_000, "C3"), (20 * 60_000, "C4")])
    b = ScriptedPlayer([(1_000, "G3")])
    game = qipai.load("go", board_size=9, time_control="seed002_walltime")
    out = run_with_referee(GameRunner(game, [a, b], time=VirtualTime()), [])
    assert out.result.reason == "timeout" and out.record.meta["duration"] == 60 * 60_000
