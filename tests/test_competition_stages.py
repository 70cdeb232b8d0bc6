"""Multi-stage events (competition.md §2.8): Swiss then a knockout of the top 4, table Swiss then
a table knockout, draw numbers from the previous stage's final order, resume, bad input."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from qipai.cli import app
from qipai.competition import EventError, create_event, open_db, run_event
from qipai.competition.db import EventRow, StageRow
from qipai.competition.event import Director
from tests import match_games  # noqa: F401  (test-nim, test-high)
from tests.competition_helpers import snapshot

NIM = {"game": {"id": "test-nim"}, "placement_points": {"champion": 5, "runner_up": 3, "other": 1},
       "stage": {"kind": "swiss", "rounds": 3},
       "then": [{"kind": "knockout", "take": 4, "draw": "from_previous_stage"}]}


@pytest.fixture
def db(tmp_path):
    return open_db(f"sqlite:///{tmp_path / 'st.db'}")


def bots(n):
    return [{"id": f"p{i:02d}", "bot": "random"} for i in range(1, n + 1)]


def test_swiss_then_knockout_of_the_top_four(db):
    eid = create_event(db, "s2_xiangqi", bots(9), overrides=NIM)      # best of three in the knockout
    # stop after stage 1 and resume from the database: the knockout starts where it should
    first = run_event(db, eid, max_games=12)
    assert first["status"] == "running"
    out = run_event(db, eid)
    assert out["status"] == "finished"
    with db() as s:
        ev = s.get(EventRow, eid)
        swiss = Director(s, ev, 1)
        ko = Director(s, ev)
        assert (swiss.stage, ko.stage, ko.stage_no, ko.round0) == ("swiss", "knockout", 2, 3)
        top = [r["id"] for r in swiss.standings()][:4]
        # draw numbers 1..4 are the Swiss places: 1 meets 4, 2 meets 3
        assert [ko.by_draw[d].entrant_id for d in range(1, 5)] == top
        (row,) = s.query(StageRow).filter_by(event_id=eid).all()
        assert row.draws == top and row.first_round == 4
        semis = ko.matches(4)
        assert [m.entrants for m in semis] == [[1, 4], [2, 3]]
        assert all(m.stage == 2 for m in ko.matches()) and len(ko.matches()) == 3
        assert all(m.stage == 1 for m in swiss.matches()) and swiss.current_round() == 3
        final = ko.matches(5)[0]
        assert out["outcome"]["champion"] == ko.name(final.result["winner"])
        assert out["outcome"]["stages"] == [{"stage": 1, "kind": "swiss",
                                             "order": [r["id"] for r in swiss.standings()]}]
    pts = out["outcome"]["placement_points"]
    assert len(pts) == 9 and sorted(pts.values(), reverse=True)[:2] == [5, 3]
    # everyone played in the Swiss: "other" (1 point) for all who were not champion or runner-up
    assert sorted(pts.values()) == [1] * 7 + [3, 5]
    res = CliRunner().invoke(app, ["event", "show", eid, "--db", str(db.kw["bind"].url)])
    assert res.exit_code == 0 and "stage 2 of 2" in res.output and "champion:" in res.output


def test_table_swiss_then_table_knockout(db):
    over = {"game": {"id": "test-high"}, "stage": {"kind": "table_swiss", "rounds": 2},
            "match": {"session": {"seats": 3, "end": {"deals": 2}}},
            "then": [{"kind": "table_knockout", "take": 3, "draw": "random"}]}
    eid = create_event(db, "s0_doudizhu", bots(7), overrides=over)
    out = run_event(db, eid)
    assert out["status"] == "finished"
    with db() as s:
        ev = s.get(EventRow, eid)
        first, final = Director(s, ev, 1), Director(s, ev)
        top = {r["id"] for r in first.standings()[:3]}
        assert {e.entrant_id for e in final.by_draw.values()} == top
        (table,) = final.matches()
        assert table.kind == "session" and table.round == 3
        assert out["outcome"]["champion"] == final.name(table.result["winner"])


def test_bad_stage_chains_change_nothing(db):
    before = snapshot(db)
    cases = [
        ({**NIM, "stage": {"kind": "knockout"}}, "follows a knockout stage"),
        ({**NIM, "then": [{"kind": "knockout", "take": 1}]}, "take must be a whole number of at least 2"),
        ({**NIM, "then": [{"kind": "knockout", "take": 4, "draw": "seeded"}]}, "draw must be"),
        ({**NIM, "then": [{"kind": "knockout", "take": 4, "seats": 2}]}, "unknown key"),
        ({**NIM, "then": [{"kind": "ladder", "take": 4}]}, "stage.kind must be"),
        ({**NIM, "then": [{"kind": "knockout", "take": 12}]}, "stage 2 takes 12 entrants but only 9"),
        ({**NIM, "then": {"kind": "knockout"}}, "then must be a list"),
    ]
    for over, msg in cases:
        with pytest.raises(EventError, match=msg):
            create_event(db, "s2_xiangqi", bots(9), overrides=over)
    assert snapshot(db) == before
