"""Unit standings of a meet count the events still being played, provisionally (competition.md
§2.6): a points format as its current table stands (leader champion, second runner-up), a
knockout not yet decided ``other`` for each entrant who has played; marked provisional in the
data and the CSV, and final once the event ends."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from qipai.competition import create_event, enter_result, open_db
from qipai.competition.db import EventRow, GameRow
from qipai.competition.meet import unit_standings, units_csv
from tests import match_games  # noqa: F401  (test-nim)

NIM = {"game": {"id": "test-nim"}}
POINTS = {"placement_points": {"champion": 5, "runner_up": 3, "other": 1}}


@pytest.fixture
def db(tmp_path):
    return open_db(f"sqlite:///{tmp_path / 'meet.db'}")


def pending(db, eid):
    """Pending games of event ``eid``: (game id, its seats' entrant ids)."""
    with db() as s:
        ev = s.get(EventRow, eid)
        ids = {e.draw: e.entrant_id for e in ev.entrants}
        return [(g.id, [ids[d] for d in g.seats]) for g in s.scalars(select(GameRow).order_by(GameRow.id))
                if g.status == "pending" and g.match.event_id == eid]


def test_running_events_score_provisionally_and_finished_ones_for_good(db):
    units = (("ann", "Red"), ("bob", "Blue"), ("cy", "Green"), ("dee", "Gold"))
    players = [{"id": p, "unit": u} for p, u in units]
    create_event(db, "s3_xiangqi", players, overrides={**NIM, **POINTS, "meet": "Spring"}, event_id="rr")
    create_event(db, "s2_go", [{**p, "id": p["id"] + "2"} for p in players],
                 overrides={**NIM, "meet": "Spring"}, event_id="ko")
    got = unit_standings(db, "Spring")
    assert got["provisional"] and [e["provisional"] for e in got["events"]] == [True, True]
    assert sum(u["points"] for u in got["units"]) == 0              # nobody has played yet

    (g1, (a, b)), (g2, (c, d)) = pending(db, "rr")[:2]
    enter_result(db, "rr", g1, "1-0")
    enter_result(db, "rr", g2, "1-0")
    (k1, (e, f)), _ = pending(db, "ko")
    enter_result(db, "ko", k1, "1-0")
    got = unit_standings(db, "Spring")
    by_unit = {u["unit"]: u["by_event"] for u in got["units"]}
    unit = {p["id"]: p["unit"] for p in players} | {p["id"] + "2": p["unit"] for p in players}
    ko_points = {}
    for pid in (e, f):                       # the knockout's first match: both played, "other" for now
        ko_points[unit[pid]] = ko_points.get(unit[pid], 0) + 1
    assert {u: v.get("ko", 0) for u, v in by_unit.items() if v.get("ko")} == ko_points
    rr_total = sum(v.get("rr", 0) for v in by_unit.values())
    assert rr_total == 5 + 3 + 1 + 1                                # leader, second, two who played
    # a result of round 2, still being played, is not counted yet (issue 13: the standings of
    # a round in play are those at the end of the round before, as the event's page shows them)
    (g3, _), *_ = pending(db, "rr")
    enter_result(db, "rr", g3, "0-1")
    assert {u["unit"]: u["by_event"] for u in unit_standings(db, "Spring")["units"]} == by_unit
    csv = units_csv(got)
    assert "rr (provisional)" in csv.splitlines()[0] and "ko (provisional)" in csv.splitlines()[0]

    while pending(db, "rr"):                 # the round robin to its end: final, not provisional
        gid, _ = pending(db, "rr")[0]
        enter_result(db, "rr", gid, "1-0")
    got = unit_standings(db, "Spring")
    assert {e["id"]: e["provisional"] for e in got["events"]} == {"rr": False, "ko": True}
    assert got["provisional"]
    with db() as s:
        final = s.get(EventRow, "rr").outcome["placement_points"]
    by_unit = {u["unit"]: u["by_event"] for u in got["units"]}
    assert sum(v.get("rr", 0) for v in by_unit.values()) == sum(final.values())


def test_csv_cells_that_look_like_formulas_are_quoted(db):
    """A unit or player named like a spreadsheet formula is written as text in every CSV export
    (a leading ``'``); numbers, negative ones too, stay numbers."""
    from qipai.competition.director import Director
    from qipai.competition.meet import event_csv
    evil = ['=HYPERLINK("http://x","Red")', "+1+2", "-2-3", "@SUM(A1)"]
    players = [{"id": f"p{i}", "unit": u} for i, u in enumerate(evil)]
    create_event(db, "s3_xiangqi", players, overrides={**NIM, **POINTS, "meet": "Evil"}, event_id="rr")
    (g1, _), *_ = pending(db, "rr")
    enter_result(db, "rr", g1, "1-0")
    import csv as csvlib
    import io
    units = list(csvlib.reader(io.StringIO(units_csv(unit_standings(db, "Evil")))))
    assert sorted(r[1] for r in units[1:]) == sorted("'" + u for u in evil)
    assert all(r[2] in ("0", "1", "3", "5") for r in units[1:])     # points stay numbers
    create_event(db, "s2_go", players[:4], overrides={**NIM}, event_id="ko")
    with db() as s:
        table = list(csvlib.reader(io.StringIO(event_csv(Director(s, s.get(EventRow, "ko")), "standings"))))
    col = table[0].index("unit")
    assert sorted(r[col] for r in table[1:]) == sorted("'" + u for u in evil[:4])
    from qipai.competition.meet import safe_cell
    assert [safe_cell(v) for v in ("-3", "+1.5", "-0.5", 7, "=1", "a=b", "-", "\tx", "\rx")] == \
        ["-3", "+1.5", "-0.5", 7, "'=1", "a=b", "'-", "'\tx", "'\rx"]


def test_a_knockouts_standings_csv_gives_the_losers_of_a_round_a_shared_place(db):
    """Below the final the losers of one round share a place: 3= for the losing semi-finalists,
    5= for the quarter-finals' losers (no blank place)."""
    import csv as csvlib
    import io

    from qipai.competition.director import Director
    from qipai.competition.meet import event_csv
    create_event(db, "s2_go", [{"id": f"p{i}"} for i in range(8)], overrides={**NIM}, event_id="ko8")
    for _ in range(40):
        games = pending(db, "ko8")
        if not games:
            break
        enter_result(db, "ko8", games[0][0], "1-0")
    with db() as s:
        table = list(csvlib.reader(io.StringIO(event_csv(Director(s, s.get(EventRow, "ko8")), "standings"))))
    assert [r[0] for r in table[1:]] == ["1", "2", "3=", "3=", "5=", "5=", "5=", "5="], table
