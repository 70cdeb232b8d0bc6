"""An act and its entry in the event's log are one transaction (competition.md §5.7: every
referee action is logged): when writing the entry fails, the act's change is not kept either,
and when it succeeds both are there. The failure is real: a SQLite trigger aborts every insert
into ``referee_acts``, as a full disk or a lost connection would at that point."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.exc import DatabaseError
from typer.testing import CliRunner

from qipai.cli import app
from qipai.competition import create_event, open_db
from qipai.competition.acts import Act, RefereeActRow, event_log
from qipai.competition.db import EventRow, GameRow, PenaltyRow
from qipai.competition.ops import disqualify, enter_result, no_show, void_game, withdraw
from qipai.competition.penalties import penalize
from tests import match_games  # noqa: F401  (test-nim)

NIM = {"game": {"id": "test-nim"}}


@pytest.fixture
def db(tmp_path):
    return open_db(f"sqlite:///{tmp_path / 'acts.db'}")


def state(db):
    """Everything an act may change: entrants' statuses, games, penalties, the log."""
    with db() as s:
        ev = s.scalars(select(EventRow)).one()
        return ([(e.entrant_id, e.status) for e in ev.entrants],
                [(g.id, g.status, g.result, g.spec) for g in s.scalars(select(GameRow).order_by(GameRow.id))],
                s.scalar(select(func.count()).select_from(PenaltyRow)),
                s.scalar(select(func.count()).select_from(RefereeActRow)))


def fail_log_writes(db, on: bool):
    with db() as s:
        if on:
            s.execute(text("CREATE TRIGGER no_log BEFORE INSERT ON referee_acts "
                           "BEGIN SELECT RAISE(ABORT, 'disk full'); END"))
        else:
            s.execute(text("DROP TRIGGER no_log"))
        s.commit()


def first_game(db):
    with db() as s:
        return min(g.id for g in s.scalars(select(GameRow).where(GameRow.status == "pending")))


ACTS = {
    "enter_result": lambda db, gid: enter_result(db, "rr", gid, "1-0",
                                                 log=Act("enter_result", "ref", "sheet")),
    "void": lambda db, gid: void_game(db, "rr", gid, {"by": "ref", "reason": "bell"},
                                      log=Act("void", "ref", "bell")),
    "disqualify": lambda db, gid: disqualify(db, "rr", "bob", log=Act("disqualify", "ref", "phone")),
    "withdraw": lambda db, gid: withdraw(db, "rr", "bob", log=Act("withdraw", "org", "ill")),
    "no_show": lambda db, gid: no_show(db, "rr", ["bob"], log=Act("no_show", "org", "absent at 9:10")),
}


@pytest.mark.parametrize("act", list(ACTS))
def test_a_failed_log_entry_keeps_no_change_and_a_written_one_comes_with_it(db, act):
    create_event(db, "s3_xiangqi", ["ann", "bob", "cy", "dee"], overrides=NIM, event_id="rr")
    gid = first_game(db)
    before = state(db)
    fail_log_writes(db, True)
    with pytest.raises(DatabaseError, match="disk full"):
        ACTS[act](db, gid)
    assert state(db) == before                         # neither the change nor the entry
    fail_log_writes(db, False)
    ACTS[act](db, gid)
    after = state(db)
    assert after != before and after[3] == before[3] + 1
    with db() as s:
        (entry,) = event_log(s, "rr")
    assert entry["act"] == act and entry["by"] in ("ref", "org")


def test_a_penalty_and_its_entry_are_one_transaction(db):
    eid = create_event(db, "s4_wakeng", [{"id": f"p{i}", "bot": "random"} for i in (1, 2, 3)], event_id="wk")
    before = state(db)
    fail_log_writes(db, True)
    with pytest.raises(DatabaseError, match="disk full"):
        penalize(db, eid, "p2", "deal_forfeit", "talked", log=Act("penalty", "ref", "talked"))
    assert state(db) == before
    fail_log_writes(db, False)
    log = Act("penalty", "ref", "talked", None, {"table_id": "ab12", "data": {"players": ["p2"]}})
    out = penalize(db, eid, "p2", "deal_forfeit", "talked", log=log)
    with db() as s:
        (entry,) = event_log(s, eid)
    assert entry["id"] == log.id and entry["table"] == "ab12" and entry["entrant"] == "p2"
    assert entry["game"] == out["game"] is not None
    # the operation's data and the caller's are merged
    assert entry["data"]["players"] == ["p2"] and entry["data"]["kind"] == "deal_forfeit"


def test_cli_result_withdraw_and_noshow_are_logged_with_who_and_why(tmp_path):
    url = ["--db", f"sqlite:///{tmp_path / 'cli.db'}"]
    runner = CliRunner()
    players = tmp_path / "players.txt"
    players.write_text("ann\nbob\ncy\ndee\n")
    res = runner.invoke(app, ["event", "new", "--preset", "s3_xiangqi", "--players", str(players),
                              "--id", "ko", "--set", "game.id=test-nim", *url])
    assert res.exit_code == 0, res.output
    db = open_db(url[1])
    with db() as s:
        ms = {g.id: [e.entrant_id for e in s.get(EventRow, "ko").entrants if e.draw in g.seats]
              for g in s.scalars(select(GameRow).where(GameRow.status == "pending"))}
    (g1, p1), (g2, p2) = list(ms.items())[:2]
    res = runner.invoke(app, ["event", "result", str(g1), "0-1", "--by", "ref", "-r", "paper sheet 4",
                              "-e", "ko", *url])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["event", "noshow", p2[0], "--reason", "absent at 9:10", "-e", "ko", *url])
    assert res.exit_code == 0, res.output
    third = p1
    res = runner.invoke(app, ["event", "withdraw", third[0], "--by", "td", "-r", "ill", "-e", "ko", *url])
    assert res.exit_code == 0, res.output
    with db() as s:
        log = event_log(s, "ko")
    assert [(e["act"], e["by"], e["game"], e["entrant"], e["reason"]) for e in log] == [
        ("enter_result", "ref", g1, None, "paper sheet 4"),
        ("no_show", "organizer", None, p2[0], "absent at 9:10"), ("withdraw", "td", None, third[0], "ill")]
    assert log[0]["data"]["result"] == "0-1" and log[1]["data"]["absent"] == [p2[0]]
    res = runner.invoke(app, ["event", "log", "ko", *url])
    assert res.exit_code == 0 and "withdraw by td — entrant" in res.output
    assert res.output.strip().endswith(": ill")
