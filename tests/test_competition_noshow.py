"""No-shows (competition.md §5.6): walkovers with forfeited games, empty knockout slots, absent
seats at a table played by trusteeship and ranked last, placement points, bad input."""

from __future__ import annotations

import pytest

from qipai.competition import EventError, create_event, no_show, open_db, run_event
from qipai.competition.db import EventRow
from qipai.competition.event import Director
from tests import match_games  # noqa: F401  (test-nim, test-high)
from tests.competition_helpers import draws, snapshot


@pytest.fixture
def db(tmp_path):
    return open_db(f"sqlite:///{tmp_path / 'n.db'}")


def ids_by_draw(db, eid):
    return {d: e for e, d in draws(db, eid).items()}


def bots(n):
    return [{"id": f"p{i:02d}", "bot": "random"} for i in range(1, n + 1)]


def test_walkover_and_empty_slot_in_a_knockout(db):
    over = {"game": {"id": "test-nim"}, "match": {"series": {"scheduled": 3, "early_stop": True}}}
    eid = create_event(db, "s2_go", bots(4), overrides=over)     # placement points 5 / 3 / 1
    name = ids_by_draw(db, eid)
    # round 1: (1, 4) and (2, 3). 4 does not come; neither do 2 and 3
    no_show(db, eid, [name[4], name[2], name[3]])
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        m1, m2 = d.matches(1)
        assert m1.result["decided_by"] == "walkover" and m1.result["winner"] == 1
        # best of three: two forfeited games decide it, each of 0 moves
        assert [(g.source, g.result["moves"]) for g in m1.games] == [("forfeit", 0), ("forfeit", 0)]
        assert m1.result["points"] == [2, 0]
        assert m2.result == {"winner": None, "points": [0, 0], "games": 0, "decided_by": "double_no_show",
                             "text": "both absent"}
        final = d.matches(2)
        assert len(final) == 1 and final[0].kind == "bye" and final[0].entrants == [1]
    out = run_event(db, eid)
    assert out["status"] == "finished"
    assert out["outcome"]["champion"] == name[1] and out["outcome"]["runner_up"] == []
    # champion by walkovers keeps its points; nobody else played a game: no-show points
    assert out["outcome"]["placement_points"] == {name[1]: 5, name[2]: 0, name[3]: 0, name[4]: 0}


def test_absent_seats_at_tables(db):
    over = {"game": {"id": "test-high"}, "placement_points": {"champion": 5, "runner_up": 3, "other": 1},
            "match": {"session": {"seats": 3, "end": {"target": {"score_at_least": 6}}}}}
    eid = create_event(db, "s0_doudizhu", bots(6), overrides=over)
    name = ids_by_draw(db, eid)
    with db() as s:
        t1, t2 = (m.entrants for m in Director(s, s.get(EventRow, eid)).matches(1))
    gone1 = t1[0]                  # one absent at table 1: played by trusteeship
    gone2 = t2[:2]                 # two absent at table 2: the third advances by walkover
    no_show(db, eid, [name[gone1], *(name[x] for x in gone2)])
    out = run_event(db, eid)
    assert out["status"] == "finished"
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        m1, m2 = d.matches(1)
        assert m1.result["ranking"][-1] == gone1 and m1.result["winner"] != gone1
        # the absent seat acted only through trusteeship
        seat = t1.index(gone1)
        assert sum(1 for g in m1.games for t in g.record["meta"]["times"] if t[0] == seat) > 0
        for g in m1.games:
            autos = [e for e in g.record["meta"]["events"] if e["type"] == "auto" and e["seat"] == seat]
            assert all(e["why"] == "trusteeship" for e in autos)
            assert len(autos) == sum(1 for t in g.record["meta"]["times"] if t[0] == seat)
        assert m2.result["winner"] == t2[2] and m2.result["ended_by"] == "no_show" and not m2.games
        final = d.matches(2)[0]
        # table 1 winner, table 2 walkover, and the lucky loser is table 1's present second
        assert sorted(final.entrants) == sorted([m1.result["winner"], t2[2], m1.result["ranking"][1]])
    pts = out["outcome"]["placement_points"]
    assert pts[name[gone1]] == 0 and all(pts[name[x]] == 0 for x in gone2)
    assert sorted(pts.values(), reverse=True)[:2] == [5, 3]


def test_no_show_bad_input_changes_nothing(db):
    over = {"game": {"id": "test-nim"}, "match": {"series": {"scheduled": 3, "early_stop": True}}}
    eid = create_event(db, "s2_go", bots(4), overrides=over)
    name = ids_by_draw(db, eid)
    before = snapshot(db)
    with pytest.raises(EventError, match="has no player 'zz'"):
        no_show(db, eid, [name[1], "zz"])
    with pytest.raises(EventError, match="named twice"):
        no_show(db, eid, [name[1], name[1]])
    with pytest.raises(EventError, match="at least one"):
        no_show(db, eid, [])
    assert snapshot(db) == before
    run_event(db, eid, max_games=1)          # game 1 of the first match (1 v 4) is played
    before = snapshot(db)
    with pytest.raises(EventError, match="has started: absence is now handled by the clock"):
        no_show(db, eid, [name[2], name[4]])
    assert snapshot(db) == before
    no_show(db, eid, [name[3]])              # the second match (2 v 3) had not started
    with pytest.raises(EventError, match="no pending match"):
        no_show(db, eid, [name[3]])
    with db() as s:
        m2 = Director(s, s.get(EventRow, eid)).matches(1)[1]
        assert m2.entrants == [2, 3] and m2.result["winner"] == 2 and m2.absent == [3]


def test_migration_0003_upgrades_an_existing_database(tmp_path):
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine, inspect, text

    from qipai.competition import db as dbmod

    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(dbmod.Path(dbmod.__file__).with_name("migrations")))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002")
        conn.execute(text("INSERT INTO events VALUES "
                          "('old', 'n', 'p', 'g', '{}', 'running', 's', 'c', 't', NULL)"))
        conn.execute(text('INSERT INTO matches (event_id, round, "index", kind, entrants, status, secret) '
                          "VALUES ('old', 1, 1, 'series', '[1, 2]', 'pending', 'x')"))
    assert "absent" not in {c["name"] for c in inspect(engine).get_columns("matches")}
    open_db(url)                                  # upgrades to the newest revision
    engine = create_engine(url)
    assert "absent" in {c["name"] for c in inspect(engine).get_columns("matches")}
    with engine.connect() as conn:
        assert conn.execute(text("SELECT entrants, absent FROM matches")).one() == ("[1, 2]", None)


HIGH = {"game": {"id": "test-high"}, "placement_points": {"champion": 5, "runner_up": 3, "other": 1},
        "match": {"session": {"seats": 3, "end": {"target": {"score_at_least": 6}}}}}


def test_too_few_for_the_next_table_plays_a_short_final(db):
    # 4 entrants, tables of 3: draw 1 has the bye, 2-4 sit at the table. Two of them do not
    # come: the third advances by walkover and no present loser is left to be a lucky loser,
    # so only 2 reach the final: it is played with the empty seat in trusteeship (§5.6)
    eid = create_event(db, "s0_doudizhu", bots(4), overrides=HIGH)
    name = ids_by_draw(db, eid)
    no_show(db, eid, [name[2], name[3]])
    out = run_event(db, eid)
    assert out["status"] == "finished"
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        final = d.matches(2)
        assert len(final) == 1 and final[0].kind == "session"
        f = final[0]
        assert sorted(f.entrants) == [0, 1, 4] and f.absent == [0]
        assert f.result["ranking"][-1] == 0 and f.result["winner"] in (1, 4)
        vacant = f.entrants.index(0)
        for g in f.games:
            assert g.record["seats"][vacant] == "(vacant)"
            autos = [e for e in g.record["meta"]["events"] if e["type"] == "auto" and e["seat"] == vacant]
            assert autos and all(e["why"] == "trusteeship" for e in autos)
        assert len(d.matches()) == 3          # the short final ended the event
    other = 4 if f.result["winner"] == 1 else 1
    assert out["outcome"]["champion"] == name[f.result["winner"]]
    assert out["outcome"]["runner_up"] == [name[other]]
    assert out["outcome"]["placement_points"] == {name[f.result["winner"]]: 5, name[other]: 3,
                                                  name[2]: 0, name[3]: 0}


def test_one_left_is_champion_by_walkover_and_none_left_no_champion(db):
    eid = create_event(db, "s0_doudizhu", bots(4), overrides=HIGH, event_id="one")
    name = ids_by_draw(db, eid)
    no_show(db, eid, [name[2], name[3], name[4]])        # the whole table is absent
    out = run_event(db, eid)
    assert out["status"] == "finished" and out["played"] == 0
    assert out["outcome"]["champion"] == name[1] and out["outcome"]["runner_up"] == []
    with db() as s:
        final = Director(s, s.get(EventRow, eid)).matches(2)
        assert [(m.kind, m.entrants, m.result["text"]) for m in final] == [("bye", [1], "walkover")]
    eid = create_event(db, "s0_doudizhu", bots(3), overrides=HIGH, event_id="none")
    name = ids_by_draw(db, eid)
    no_show(db, eid, [name[1], name[2], name[3]])
    out = run_event(db, eid)
    assert out["status"] == "finished" and out["outcome"]["champion"] is None
