"""The Gomocup door against a small protocol-correct engine written for the test
(tests/gomocup_engine.py) and qipai's own brain (``qipai gomocup``); faulty engines."""

from __future__ import annotations

import io

import pytest

import qipai
from qipai.core import replay
from qipai.core.errors import OptionError
from qipai.engines.brains import GomocupBrain
from qipai.engines.gomocup import GomocupPlayer, check_game, from_xy, to_xy
from qipai.games.gomoku.notation import parse_point
from tests.engine_helpers import GOMOCUP_TEST, QIPAI, events, faulty, play


def sent(player: GomocupPlayer) -> list[str]:
    return [s[2:] for s in player.engine.transcript if s.startswith("> ")]


def test_piskvork_coordinates_count_rows_from_the_top():
    assert to_xy(parse_point("a15")) == "0,0" and to_xy(parse_point("h8")) == "7,7"
    assert from_xy("0,14") == "a1" and from_xy("14,0") == "o15"
    assert from_xy("15,0") == "15,0" and from_xy("hello") == "hello"    # for the referee


def test_the_test_engine_against_qipai_gomocup():
    game = qipai.load("gomoku", ruleset="freestyle")
    test_engine, mine = GomocupPlayer(GOMOCUP_TEST), GomocupPlayer(QIPAI + ["gomocup"])
    out = play(game, [test_engine, mine], clock={"bank": "30s"})
    lines = sent(test_engine)
    assert lines[:2] == ["START 15", "INFO timeout_turn 30000"] and "INFO rule 0" in lines
    assert "INFO timeout_match 30000" in lines
    assert "BEGIN" in lines and any(s.startswith("TURN ") for s in lines)
    assert any(s.startswith("INFO time_left ") for s in lines)
    assert out.result.reason == "five" and replay(out.record).result.text == out.result.text
    assert sent(mine)[-1] == "END"


def test_a_game_from_a_position_is_given_with_board_and_renju_rules():
    game = qipai.load("gomoku")
    state = game.new_state(position="h8 h9 / g7 j7")
    door = GomocupPlayer(GOMOCUP_TEST)
    out = play(game, [door, GomocupPlayer(QIPAI + ["gomocup"])], state=state)
    lines = sent(door)
    assert "INFO rule 4" in lines and "INFO timeout_turn 1000" in lines
    i = lines.index("BOARD")
    assert lines[i + 1:i + 5] == ["7,7,1", "7,6,1", "6,8,2", "9,8,2"] and lines[i + 5] == "DONE"
    assert out.result is not None


def test_the_turn_limit_follows_the_clock():
    from qipai.match.clock import ClockSpec

    door = GomocupPlayer(GOMOCUP_TEST)
    assert door.turn_limit(ClockSpec(move_cap=5000)) == 5000
    assert door.turn_limit(ClockSpec.from_dict({"bank": "60s", "overtime": {"byoyomi": {
        "periods": 3, "period": "10s"}}})) == 10_000
    assert door.turn_limit(ClockSpec()) == 1000
    assert GomocupPlayer(GOMOCUP_TEST, movetime=300).turn_limit(ClockSpec(bank=60_000)) == 300


def test_special_openings_are_refused():
    with pytest.raises(OptionError):
        check_game(qipai.load("gomoku", opening="swap3"))
    check_game(qipai.load("gomoku", opening="designated", opening_name="D1"))


def test_a_crashed_engine_is_restarted_and_given_the_board(tmp_path):
    game = qipai.load("gomoku", ruleset="freestyle")
    door = GomocupPlayer(faulty("gomocup", "crash", 3, GOMOCUP_TEST, once=tmp_path / "c"))
    out = play(game, [door, GomocupPlayer(QIPAI + ["gomocup"])], clock={"bank": "30s"})
    assert door.restarts == 1 and door.engine.starts == 2
    assert sent(door).count("START 15") == 2 and "BOARD" in sent(door)
    assert out.result.reason == "five"


def test_illegal_and_malformed_answers_are_refused_and_asked_again():
    game = qipai.load("gomoku", ruleset="freestyle")
    door = GomocupPlayer(faulty("gomocup", "illegal", 2, faulty("gomocup", "garbage", 4, GOMOCUP_TEST)))
    out = play(game, [GomocupPlayer(QIPAI + ["gomocup"]), door], clock={"bank": "30s"})
    refused = events(out, "refused")
    assert [e["seat"] for e in refused] == [1, 1] and refused[1]["action"] == "hello"
    assert out.result.reason == "five"


def test_an_engine_that_keeps_failing_with_no_clock_forfeits():
    game = qipai.load("gomoku", ruleset="freestyle")
    door = GomocupPlayer(faulty("gomocup", "illegal", 1, GOMOCUP_TEST, every=True))
    out = play(game, [door, GomocupPlayer(QIPAI + ["gomocup"])])
    assert len(events(out, "refused")) == 3 and events(out, "forfeit")
    assert out.result.reason == "timeout" and out.result.winners == (1,)


def test_a_hung_engine_loses_on_time():
    game = qipai.load("gomoku", ruleset="freestyle")
    door = GomocupPlayer(faulty("gomocup", "hang", 2, GOMOCUP_TEST))
    out = play(game, [door, GomocupPlayer(QIPAI + ["gomocup"])], clock=[{"move_cap": "1s"}, "none"])
    assert out.result.reason == "timeout" and out.result.winners == (1,)


def test_the_brain_reads_board_and_refuses_bad_input():
    out = io.StringIO()
    brain = GomocupBrain(out, seed=1)
    for line in ("START 20", "START 15", "INFO rule 1", "BOARD", "7,7,2", "7,8,1", "8,8,2", "DONE",
                 "TURN 99,1", "ABOUT", "FOO"):
        brain.handle(line)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("ERROR") and lines[1] == "OK"
    assert brain.options["ruleset"] == "standard"
    x, y = (int(v) for v in lines[2].split(","))
    assert (x, y) not in ((7, 7), (7, 8), (8, 8))
    assert lines[3].startswith("ERROR") and lines[4].startswith('name="qipai"') and lines[5] == "UNKNOWN FOO"
