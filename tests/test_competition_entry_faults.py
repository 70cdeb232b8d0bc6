"""Results entered by hand and the event command line: a win entered without its move count
is a full win (not a short game), a deal that cannot be drawn cannot be entered drawn, negative
scores are scores, not options; the command line sets the event's secret, shows each game's
clock, takes a plain file as its database, and finds bots by any alias of the game."""

from __future__ import annotations

import pytest

from qipai.competition import create_event, enter_result, open_db
from qipai.competition.db import EventRow
from qipai.competition.event import Director, EventError

from .server_process import run_cli


def pending(db, eid):
    with db() as s:
        return [g.id for g in Director(s, s.get(EventRow, eid)).pending_games()]


def standings(db, eid):
    with db() as s:
        return {r["id"]: r["points"] for r in Director(s, s.get(EventRow, eid)).standings()}


def test_an_s3_win_entered_without_moves_is_a_full_win(tmp_path):
    db = open_db(f"sqlite:///{tmp_path / 'a.db'}")
    eid = create_event(db, "s3_xiangqi", ["a", "b", "c", "d"], secret="01" * 32)
    first, second = pending(db, eid)[:2]
    g = enter_result(db, eid, first, "1-0")                 # no move count: not a short game
    assert g.result["moves"] is None
    enter_result(db, eid, second, "1-0", moves=8)           # eight moves: the short-game rule
    pts = standings(db, eid)
    winner_full = g.result["winner_draws"][0]
    with db() as s:
        names = {e.draw: e.entrant_id for e in s.get(EventRow, eid).entrants}
    assert pts[names[winner_full]] == 1                      # +1, not the short game's 0
    assert sorted(pts.values()) == [-1, -1, 0, 1]


def test_a_first_out_wins_deal_cannot_be_entered_drawn(tmp_path):
    db = open_db(f"sqlite:///{tmp_path / 'a.db'}")
    pairs = [{"id": f"t{i}", "bot": "random", "members": [f"t{i}a", f"t{i}b"]} for i in (1, 2)]
    eid = create_event(db, "s2_4a4", pairs, secret="02" * 32)
    for _ in range(4):                                      # four drawn deals: 2-2, then game 5
        enter_result(db, eid, pending(db, eid)[0], "1/2-1/2")
    (last,) = pending(db, eid)
    with db() as s:
        from qipai.competition.db import GameRow
        assert s.get(GameRow, last).spec.get("variant") == "first_out_wins"
    for text in ("1/2-1/2", "0,0,0,0"):
        with pytest.raises(EventError, match="cannot be drawn"):
            enter_result(db, eid, last, text)
    assert pending(db, eid) == [last]
    enter_result(db, eid, last, "1-0")
    with db() as s:
        assert s.get(EventRow, eid).status == "finished"


def run(*args, cwd):
    return run_cli("event", *args, cwd=cwd)


def test_the_event_command_line(tmp_path):
    secret = "ab" * 32
    out = run("new", "--preset", "s2_doudizhu", "--bots", "3", "--db", "ev.db", "--secret", secret,
              "--id", "cards", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    db = open_db(f"sqlite:///{tmp_path / 'ev.db'}")          # a plain path is a SQLite file
    with db() as s:
        assert s.get(EventRow, "cards").secret == secret
    bad = run("new", "--preset", "s2_doudizhu", "--bots", "3", "--db", "ev.db", "--secret", "xyz",
              cwd=tmp_path)
    assert bad.returncode != 0 and "64 lowercase hex" in bad.stdout + bad.stderr
    out = run("result", "1", "-188,94,94", "--db", "ev.db", cwd=tmp_path)   # a negative score
    assert out.returncode == 0 and "-188,94,94 entered" in out.stdout, out.stdout + out.stderr
    show = run("show", "--db", "ev.db", cwd=tmp_path).stdout
    assert "clock card_default" in show and "1 deal played" in show
    for preset, bot in (("s0_tiaoqi", "greedy"), ("s0_gomoku", "greedy"), ("s0_junqi", "greedy"),
                        ("s3_tuolaji", "rule")):
        out = run("new", "--preset", preset, "--bots", "4", "--bot", bot, "--db", "ev.db", cwd=tmp_path)
        assert out.returncode == 0, (preset, out.stdout + out.stderr)


def test_entered_deals_carry_their_duration_for_session_time_limits(tmp_path):
    db = open_db(f"sqlite:///{tmp_path / 'a.db'}")
    eid = create_event(db, "s0_doudizhu", [{"id": f"p{i}", "bot": "random"} for i in range(3)],
                       secret="03" * 32)              # first to +100, or the best after 90 minutes
    with pytest.raises(EventError, match="duration"):
        enter_result(db, eid, pending(db, eid)[0], "-2,1,1", duration="soon")
    g = enter_result(db, eid, pending(db, eid)[0], "-2,1,1", duration="50m")
    assert g.result["duration"] == 50 * 60_000
    assert pending(db, eid)                                # 50 minutes in: another deal
    enter_result(db, eid, pending(db, eid)[0], "4,-2,-2", duration=45 * 60_000)
    with db() as s:
        ev = s.get(EventRow, eid)
        assert ev.status == "finished", "the 90-minute limit passed during the second deal"
