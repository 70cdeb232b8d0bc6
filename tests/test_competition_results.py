"""Confirming and correcting results (competition.md §5.7): players confirm, a referee confirms
at once or corrects with a written reason; the match is decided again, a knockout's later round
is paired again while nobody has played it, standings and the outcome follow, and every act is
in the event's log with who and why."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from typer.testing import CliRunner

from qipai.cli import app
from qipai.competition import EventError, create_event, enter_result, open_db
from qipai.competition.acts import event_log
from qipai.competition.db import EntrantRow, EventRow, GameRow, MatchRow
from qipai.competition.event import Director
from qipai.competition.results import confirm_result, correct_result
from tests import match_games  # noqa: F401  (test-nim)

NIM = {"game": {"id": "test-nim"}}


@pytest.fixture
def db(tmp_path):
    return open_db(f"sqlite:///{tmp_path / 'res.db'}")


def rows(db):
    """Everything a refused correction must leave as it was."""
    with db() as s:
        return (tuple(s.scalar(select(func.count()).select_from(t)) for t in (MatchRow, GameRow)),
                [(g.id, g.status, g.result) for g in s.scalars(select(GameRow).order_by(GameRow.id))],
                [(m.id, m.entrants, m.status) for m in s.scalars(select(MatchRow).order_by(MatchRow.id))])


def seats(db, gid):
    with db() as s:
        g = s.get(GameRow, gid)
        d = Director(s, g.match.event, g.match.stage)
        return [d.name(x) for x in g.seats]


def round_of(db, eid, rnd):
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        return [([d.name(x) for x in m.entrants], [g.id for g in m.games]) for m in d.matches(rnd)]


def test_players_confirm_a_referee_confirms_and_a_correction_repairs_the_knockout(db):
    eid = create_event(db, "s2_go", ["ann", "bob", "cy", "dee"], overrides=NIM, event_id="ko")
    (_, (ga,)), (_, (gb,)) = round_of(db, eid, 1)
    enter_result(db, eid, ga, "1-0", moves=12)
    enter_result(db, eid, gb, "1-0", moves=9)
    a0, a1 = seats(db, ga)
    b0, b1 = seats(db, gb)
    assert sorted(round_of(db, eid, 2)[0][0]) == sorted([a0, b0])     # "1-0": the first seat won

    out = confirm_result(db, eid, ga, a0)
    assert out == {"game": ga, "confirmed": False, "confirmed_by": [a0], "waiting": [a1]}
    with pytest.raises(EventError, match="already confirmed"):
        confirm_result(db, eid, ga, a0)
    with pytest.raises(EventError, match=f"{b0!r} does not play game {ga}"):
        confirm_result(db, eid, ga, b0)
    assert confirm_result(db, eid, ga, a1)["confirmed"] is True
    with pytest.raises(EventError, match="already confirmed"):
        confirm_result(db, eid, ga, a1)
    assert confirm_result(db, eid, gb, "ref", referee=True, reason="scoresheet signed")["confirmed"]

    # the scoresheet of game a was wrong: the other player won; the final is paired again
    (final_entrants, (gf,)), = round_of(db, eid, 2)
    with pytest.raises(EventError, match="reason"):
        correct_result(db, eid, ga, "0-1", by="ref", reason=" ")
    with pytest.raises(EventError, match="has no result yet"):
        correct_result(db, eid, gf, "0-1", by="ref", reason="x")
    out = correct_result(db, eid, ga, "0-1", by="ref",
                         reason="the scoresheet was filled in the wrong way round")
    assert out["from"] == "1-0" and out["to"] == "0-1" and out["repaired"] == [2]
    (entrants, (gf2,)), = round_of(db, eid, 2)
    assert sorted(entrants) == sorted([a1, b0]) and a0 not in entrants
    with db() as s:
        g = s.get(GameRow, ga)
        assert g.result["text"] == "0-1" and g.result["moves"] == 12 and g.source == "entered"
        assert g.result["confirmed"] is True
        (c,) = g.result["corrections"]
        assert c["by"] == "ref" and c["from"] == "1-0" and c["reason"].startswith("the scoresheet")
        assert g.record["meta"]["corrected"]["previous"]["result"]["text"] == "1-0"
        m = g.match
        assert m.status == "finished" and Director(s, m.event).name(m.result["winner"]) == a1
        log = event_log(s, eid)
    assert [(e["act"], e["by"]) for e in log] == [("confirm", a0), ("confirm", a1), ("confirm", "ref"),
                                                  ("correct", "ref")]
    assert log[-1]["data"] == {"from": "1-0", "to": "0-1", "repaired": [2]} and log[-1]["game"] == ga

    # the final: entered, the event ends; corrected, the champion and placement points follow
    f0, f1 = seats(db, gf2)
    enter_result(db, eid, gf2, "1-0")
    with db() as s:
        ev = s.get(EventRow, eid)
        assert ev.status == "finished" and ev.outcome["champion"] == f0
    correct_result(db, eid, gf2, "0-1", by="chief", reason="engine defect: the last stone was miscounted")
    with db() as s:
        ev = s.get(EventRow, eid)
        assert ev.status == "finished" and ev.outcome["champion"] == f1 and ev.outcome["runner_up"] == [f0]
        assert ev.outcome["placement_points"][f1] == 5 and ev.outcome["placement_points"][f0] == 3

    # now the final has been played: a correction that changes a finalist is refused, nothing changes
    before = rows(db)
    with pytest.raises(EventError, match="round 2 is already being played"):
        correct_result(db, eid, gb, "0-1", by="ref", reason="late complaint")
    assert rows(db) == before
    # one that keeps the same winner is taken (the moves change nothing of who goes on)
    assert correct_result(db, eid, gb, "1-0", moves=40, by="ref", reason="move count")["repaired"] == []


def test_a_correction_in_a_points_format_changes_the_standings_not_the_pairings(db):
    eid = create_event(db, "s3_xiangqi", ["ann", "bob", "cy", "dee"], overrides=NIM, event_id="rr")
    r1 = round_of(db, eid, 1)
    for _, (gid,) in r1:
        enter_result(db, eid, gid, "1-0", moves=30)
    r2 = round_of(db, eid, 2)
    gid = r1[0][1][0]
    w, loser = seats(db, gid)

    def points():
        with db() as s:
            return {r["id"]: r["points"] for r in Director(s, s.get(EventRow, eid)).standings()}

    assert points()[w] == 1 and points()[loser] == -1       # S3: +1 / -1
    correct_result(db, eid, gid, "0-1", by="ref", reason="wrong data")
    assert points()[w] == -1 and points()[loser] == 1
    assert round_of(db, eid, 2) == r2                         # round 2 stands as paired
    # the short-game rule (S3) reads the corrected count: a win in 10 moves scores 0
    correct_result(db, eid, gid, "0-1", moves=10, by="ref", reason="the game was shorter")
    assert points()[loser] == 0


def test_cli_confirm_correct_and_log(tmp_path, monkeypatch):
    monkeypatch.setenv("QIPAI_DATABASE_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    runner = CliRunner()
    players = tmp_path / "players.txt"
    players.write_text("ann\nbob\ncy\ndee\n")
    res = runner.invoke(app, ["event", "new", "--preset", "s3_xiangqi", "--players", str(players),
                              "--id", "ko",
                              "--set", "game.id=test-nim"])
    assert res.exit_code == 0, res.output
    db = open_db(f"sqlite:///{tmp_path / 'cli.db'}")
    (_, (ga,)), _ = round_of(db, "ko", 1)          # round robin: round 1 of 3
    a0, a1 = seats(db, ga)
    assert runner.invoke(app, ["event", "result", str(ga), "1-0", "-e", "ko"]).exit_code == 0
    res = runner.invoke(app, ["event", "confirm", str(ga), "--by", a0, "-e", "ko"])
    assert res.exit_code == 0 and f"waiting for {a1}" in res.output
    res = runner.invoke(app, ["event", "confirm", str(ga), "--by", "zed", "-e", "ko"])
    assert res.exit_code == 2 and "'zed' does not play" in res.output
    res = runner.invoke(app, ["event", "correct", str(ga), "0-1", "--by", "ref", "-e", "ko"])
    assert res.exit_code == 2 and "--reason" in res.output
    res = runner.invoke(app, ["event", "correct", str(ga), "0-1", "--by", "ref", "--reason", "wrong sheet",
                              "-e", "ko"])
    assert res.exit_code == 0 and f"game {ga}: 1-0 corrected to 0-1" in res.output
    res = runner.invoke(app, ["event", "show", "ko"])
    assert res.exit_code == 0 and ": 0-1 (unknown), corrected" in res.output
    res = runner.invoke(app, ["event", "log", "ko"])
    assert res.exit_code == 0
    lines = res.output.strip().splitlines()
    assert f"enter_result by organizer — game {ga}" in lines[0]
    assert f"confirm by {a0} — game {ga} entrant {a0}" in lines[1]
    assert "correct by ref — game" in lines[2] and "from=1-0, to=0-1" in lines[2]
    assert lines[2].endswith(": wrong sheet")
    with db() as s:
        assert s.scalar(select(func.count()).select_from(EntrantRow)) == 4


def test_cli_void_and_disqualify_are_in_the_log(tmp_path):
    url = ["--db", f"sqlite:///{tmp_path / 'acts.db'}"]
    runner = CliRunner()
    players = tmp_path / "players.txt"
    players.write_text("ann\nbob\ncy\ndee\n")
    res = runner.invoke(app, ["event", "new", "--preset", "s3_xiangqi", "--players", str(players),
                              "--id", "rr", "--set", "game.id=test-nim", *url])
    assert res.exit_code == 0, res.output
    db = open_db(url[1])
    (_, (ga,)), _ = round_of(db, "rr", 1)
    res = runner.invoke(app, ["event", "void", str(ga), "--by", "ref", "--reason", " ", "-e", "rr", *url])
    assert res.exit_code == 2 and "give the reason" in res.output
    res = runner.invoke(app, ["event", "void", str(ga), "--by", "ref", "-r", "wrong colours", "-e", "rr",
                              *url])
    assert res.exit_code == 0 and "played again" in res.output
    res = runner.invoke(app, ["event", "disqualify", "bob", "--by", "ref", "-r", "phone rang", "-e", "rr",
                              *url])
    assert res.exit_code == 0 and "bob disqualified" in res.output
    res = runner.invoke(app, ["event", "disqualify", "bob", "--by", "ref", "-r", "again", "-e", "rr", *url])
    assert res.exit_code == 2 and "already disqualified" in res.output
    with db() as s:
        g = s.get(GameRow, ga)
        assert g.spec["attempt"] == 1 and g.spec["voided"] == [{"by": "ref", "reason": "wrong colours"}]
        assert [e.status for e in s.get(EventRow, "rr").entrants if e.entrant_id == "bob"] == ["disqualified"]
        log = event_log(s, "rr")
    assert [(e["act"], e["by"], e["game"], e["entrant"], e["reason"]) for e in log] == [
        ("void", "ref", ga, None, "wrong colours"), ("disqualify", "ref", None, "bob", "phone rang")]


def states(db, eid, at=None):
    from qipai.competition.results import result_states

    with db() as s:
        return result_states(Director(s, s.get(EventRow, eid)), at=at)


def test_engine_decided_and_entered_results_read_as_their_real_standing(db):
    """§5.7: bots' games (run from the command line) are final at once — nobody plays them in
    person to confirm or dispute; a result entered for people is provisional until they confirm
    it, the appeal window closes, or one of them starts their next match."""
    from datetime import UTC, datetime, timedelta

    from qipai.competition import run_event

    eid = create_event(db, "s2_go", [{"id": n, "bot": "random"} for n in ("a", "b", "c", "d")],
                       overrides=NIM, event_id="bots")
    run_event(db, eid)
    got = states(db, eid)
    assert got and set(got.values()) == {"final"}

    eid = create_event(db, "s2_go", ["ann", "bob", "cy", "dee"], overrides=NIM, event_id="people")
    (_, (ga,)), (_, (gb,)) = round_of(db, eid, 1)
    enter_result(db, eid, ga, "1-0", moves=12)
    enter_result(db, eid, gb, "1-0", moves=9)
    assert states(db, eid) == {ga: "provisional", gb: "provisional"}
    later = datetime.now(UTC) + timedelta(minutes=11)
    assert states(db, eid, at=later) == {ga: "final", gb: "final"}
    confirm_result(db, eid, ga, "ref", referee=True)
    assert states(db, eid) == {ga: "confirmed", gb: "provisional"}
    (_, (gf,)), = round_of(db, eid, 2)
    enter_result(db, eid, gf, "1-0", moves=10)       # the winners' next match has been played
    assert states(db, eid) == {ga: "confirmed", gb: "final", gf: "provisional"}
