"""Round overrides (competition.md §2.5 ``round_overrides``): another match rule for a named
knockout round (the S0 shengji final: pass A in 3 hours) or a numbered round, applied to the
matches of that round only, kept across a resume, and bad overrides refused with nothing
written."""

from __future__ import annotations

import pytest

from qipai.competition import EventError, create_event, open_db, run_event
from qipai.competition.config import load_preset, round_label
from qipai.competition.db import EventRow
from qipai.competition.event import Director
from tests import match_games  # noqa: F401  (test-nim, test-high)
from tests.competition_helpers import snapshot


@pytest.fixture
def db(tmp_path):
    return open_db(f"sqlite:///{tmp_path / 'ov.db'}")


def bots(n):
    return [{"id": f"p{i:02d}", "bot": "random"} for i in range(1, n + 1)]


def test_the_s0_shengji_final_passes_a_in_three_hours():
    cfg = load_preset("s0_shengji")
    base, final = cfg.session, cfg.round_rules["final"]
    assert (base.level_target, base.time_limit) == (("beyond", 10), 90 * 60_000)
    assert (final.level_target, final.time_limit) == (("beyond", 14), 180 * 60_000)
    # everything the override does not name is the stage's rule
    assert (final.on_expiry, final.ties, final.sides, final.start_level) == \
        ("finish_current_deal", "on_stage", ((0, 2), (1, 3)), 2)
    assert cfg.rule_for("final", 3) is final and cfg.rule_for("semifinal", 2) is base
    assert cfg.rule_for(None, 1) is base
    assert [round_label("knockout", n) for n in (1, 2, 4, 8)] == ["final", "semifinal", "quarterfinal", None]
    assert round_label("table_knockout", 1) == "final" and round_label("table_knockout", 2) is None
    assert round_label("swiss", 1) is None


def test_a_knockout_final_with_more_games(db):
    over = {"game": {"id": "test-nim"},
            "stage": {"kind": "knockout", "round_overrides": {"final": {"scheduled": 3, "early_stop": True},
                                                              "round_1": {"scheduled": 1}}}}
    eid = create_event(db, "s0_xiangqi", bots(8), overrides=over)
    run_event(db, eid, max_games=3)               # stop part-way: the rule comes from stored rows
    out = run_event(db, eid)
    assert out["status"] == "finished"
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        quarters, semis, (final,) = d.matches(1), d.matches(2), d.matches(3)
        assert [d.rule(m).scheduled for m in (quarters[0], semis[0], final)] == [1, 2, 3]
        # round 1: one game each unless drawn (nim has no drawn games)
        assert all(len(m.games) == 1 for m in quarters)
        assert all(len(m.games) >= 2 for m in semis)
        assert final.result["text"] in ("2-0 after 2 games", "2-1 after 3 games", "1-2 after 3 games",
                                        "0-2 after 2 games")
        assert len(final.games) == final.result["games"]


def test_a_table_knockout_final_with_fewer_deals(db):
    over = {"game": {"id": "test-high"}, "match": {"session": {"seats": 3, "end": {"deals": 4}}},
            "stage": {"kind": "table_knockout", "seats": 3, "round_overrides": {"final": {"deals": 1}}}}
    eid = create_event(db, "s0_doudizhu", bots(6), overrides=over)
    out = run_event(db, eid)
    assert out["status"] == "finished"
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        first, (final,) = d.matches(1), d.matches(2)
        assert all(m.result["deals"] >= 4 for m in first if m.kind == "session")
        assert final.result["deals"] == 1 and d.rule(final).deals == 1
        # a tie after the one deal would go on with extra deals: every deal after the first is one
        assert all(g.spec["extra"] == (g.number > 1) for g in final.games)


@pytest.mark.parametrize("stage, message", [
    ({"kind": "knockout", "round_overrides": {"last": {"scheduled": 3}}}, "unknown round 'last'"),
    ({"kind": "knockout", "round_overrides": {"round_0": {"scheduled": 3}}}, "unknown round 'round_0'"),
    ({"kind": "knockout", "round_overrides": {"final": {}}}, "must be a non-empty table"),
    ({"kind": "knockout", "round_overrides": {"final": {"best_of": 3}}},
     "round_overrides.final: unknown series parameter"),
    ({"kind": "knockout", "round_overrides": {"final": {"scheduled": 0}}},
     "round_overrides.final: series.scheduled must be at least 1"),
    ({"kind": "round_robin", "round_overrides": {"final": {"scheduled": 2}}},
     "named rounds belong to knockouts"),
    ({"kind": "knockout", "round_overrides": "final"}, "must be a table of rounds"),
])
def test_bad_round_overrides_change_nothing(db, stage, message):
    before = snapshot(db)
    with pytest.raises(EventError, match=message):
        create_event(db, "s0_xiangqi", bots(4), overrides={"game": {"id": "test-nim"}, "stage": stage})
    assert snapshot(db) == before


def test_bad_session_round_overrides_change_nothing(db):
    before = snapshot(db)
    base = {"game": {"id": "test-high"}, "match": {"session": {"seats": 3, "end": {"deals": 4}}}}
    for ro, message in (({"semifinal": {"deals": 2}}, "a table knockout only has a final"),
                        ({"final": {"target": {"level_beyond": 14}}}, "level_beyond needs measure"),
                        ({"final": {"time_limit": {"duration": "soon"}}}, "bad duration 'soon'"),
                        ({"final": {"deals": -1}}, "end.deals must be a whole number")):
        stage = {"kind": "table_knockout", "seats": 3, "round_overrides": ro}
        with pytest.raises(EventError, match=message):
            create_event(db, "s0_doudizhu", bots(6), overrides={**base, "stage": stage})
    assert snapshot(db) == before
