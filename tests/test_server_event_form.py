"""The organizer's event form on the server (qipai.competition.form, POST /api/events/form): a
preset's fields with its values, each change checked with the field and the valid values named,
nothing created on a refused change, and events that no preset holds (a sandayi event, tiaoqi
tables of six) made from the form's changes."""

from __future__ import annotations

import pytest

from qipai.competition.form import FieldError, check_form, form_fields

from .server_helpers import client, post, signup


def by_path(fields):
    return {f["path"]: f for f in fields}


def test_a_presets_fields_carry_its_values():
    f = by_path(form_fields("s2_xiangqi"))
    assert f["game.id"]["value"] == "xiangqi" and "sandayi" in f["game.id"]["choices"]
    assert f["game.repetition_rule"]["value"] == "axf_simplified"
    assert "seed000_same_move" in f["game.repetition_rule"]["choices"]
    assert f["match.series.clock"]["value"] == "xq_s2_15s"
    assert (f["match.series.scheduled"]["value"], f["match.series.early_stop"]["value"]) == (3, True)
    assert f["match.series.tiebreak"]["value"] == "sudden_death"
    assert [f[f"match.series.game_points.{k}"]["value"] for k in ("win", "drawn", "loss")] == [1, 0.5, 0]
    assert f["stage.kind"]["value"] == "knockout" and f["draw.seeded.count"]["value"] == 0
    # each regulation game's clock and the extra games' clock (S0 xiangqi)
    f = by_path(form_fields("s0_xiangqi"))
    assert [f[f"match.series.clock.{k}"]["value"] for k in ("1", "2", "extra")] == \
        ["xq_s0_slow", "xq_s0_slow", "xq_s0_rapid"]
    # a card table: its size (the game's sizes), who goes through, deals, target, ties
    f = by_path(form_fields("s0_doudizhu"))
    assert f["match.session.seats"]["value"] == 3 and f["match.session.seats"]["choices"] == [3]
    assert f["match.session.end.target.score_at_least"]["value"] == 100
    assert f["match.session.ties"]["value"] == "extra_deals_all"
    assert f["match.session.clock"]["value"] == "card_default"
    # Swiss: its rounds; S2 placement points
    f = by_path(form_fields("s3_xiangqi"))
    assert f["stage.rounds"]["value"] is None and f["stage.rounds"]["nullable"]
    assert f["standings"]["value"] == "game_points" and f["game_points.loss"]["value"] == -1
    f = by_path(form_fields("s2_go"))
    assert [f[f"placement_points.{k}"]["value"] for k in ("champion", "runner_up", "other")] == [5, 3, 1]


@pytest.mark.parametrize("preset, changes, field, valid", [
    ("s2_xiangqi", {"game.repetition_rule": "sometimes"}, "game.repetition_rule",
     ["axf_simplified", "seed000_same_move", "draw_only", "none"]),
    ("s0_doudizhu", {"match.session.seats": 6}, "match.session.seats", [3]),
    ("s2_xiangqi", {"match.series.clock": "xq_s9"}, "match.series.clock", None),
    ("s2_xiangqi", {"match.series.scheduled": 0}, "match.series.scheduled", None),
    ("s2_xiangqi", {"match.series.early_stop": "yes"}, "match.series.early_stop", [True, False]),
    ("s0_doudizhu", {"stage.kind": "swiss"}, "stage.kind", ["table_knockout", "table_swiss"]),
    # a two-player knockout cannot be played at a game of four individual seats
    ("s2_xiangqi", {"game.id": "sandayi"}, "game.id", None),
    ("s2_xiangqi", {"match.session.seats": 4}, "match.session.seats", None),
])
def test_a_refused_change_names_the_field_and_the_valid_values(preset, changes, field, valid):
    with pytest.raises(FieldError) as e:
        check_form(preset, changes)
    assert e.value.field == field and e.value.value == changes[field]
    if valid is not None:
        assert e.value.valid == valid
    if field == "game.id":       # the games this event can be played at
        assert "xiangqi" in e.value.valid and "go" in e.value.valid and "sandayi" not in e.value.valid
    if field == "match.series.clock":
        assert "xq_s2_15s" in e.value.valid


def test_the_form_over_http_checks_each_change_and_creates_nothing_on_a_refusal(tmp_path):
    with client(tmp_path) as c:
        boss = signup(c, "boss")
        r = c.post("/api/events/form", json={"preset": "s2_xiangqi", "fields": {}})
        assert r.status_code == 200
        assert by_path(r.json()["fields"])["match.series.clock"]["value"] == "xq_s2_15s"
        r = c.post("/api/events/form", json={"preset": "s2_xiangqi",
                                             "fields": {"game.repetition_rule": "seed000_same_move"}})
        assert by_path(r.json()["fields"])["game.repetition_rule"]["value"] == "seed000_same_move"
        r = c.post("/api/events/form", json={"preset": "s2_xiangqi", "fields": {"game.end_rule": "mate"}})
        body = r.json()
        assert r.status_code == 400 and body["error"] == "bad_field"
        assert body["params"]["field"] == "game.end_rule" and body["params"]["value"] == "mate"
        assert body["params"]["valid"] == ["checkmate", "king_capture"]
        assert "game.end_rule" in body["message"]
        assert c.post("/api/events/form", json={"preset": "s9", "fields": {}}).json()["error"] == "bad_event"
        bots = [{"id": f"b{i}", "bot": "random"} for i in range(4)]
        r = post(c, boss, "/api/events", {"preset": "s2_xiangqi", "players": bots,
                                          "form": {"match.series.scheduled": -1}})
        assert r.status_code == 400 and r.json()["params"]["field"] == "match.series.scheduled"
        assert c.get("/api/events").json() == []          # nothing made
        r = post(c, boss, "/api/events", {"preset": "s2_xiangqi", "players": bots, "event_id": "xq",
                                          "form": {"game.repetition_rule": "seed000_same_move",
                                                   "match.series.clock": "xq_s0_rapid",
                                                   "match.series.scheduled": 1}})
        assert r.status_code == 201, r.text
        ev = c.get("/api/events/xq").json()
        assert ev["status"] == "running" and all(len(m["games"]) == 1 for m in ev["rounds"][0]["matches"])


def test_events_no_preset_holds_are_made_from_the_form(tmp_path):
    with client(tmp_path) as c:
        boss = signup(c, "boss")
        # a sandayi event: the doudizhu table knockout played at sandayi, tables of four
        r = c.post("/api/events/form", json={"preset": "s0_doudizhu", "fields": {"game.id": "sandayi"}})
        f = by_path(r.json()["fields"])
        assert f["game.id"]["value"] == "sandayi" and f["match.session.seats"]["value"] == 4
        assert "game.bidding" not in f and "game.bids" in f         # the game's own options
        bots = [{"id": f"s{i}", "bot": "random"} for i in range(8)]
        r = post(c, boss, "/api/events", {"preset": "s0_doudizhu", "players": bots, "event_id": "sdy",
                                          "form": {"game.id": "sandayi", "match.session.end.deals": 2}})
        assert r.status_code == 201, r.text
        ev = c.get("/api/events/sdy").json()
        assert ev["game"] == "sandayi" and [len(m["entrants"]) for m in ev["rounds"][0]["matches"]] == [4, 4]
        # tiaoqi tables of six
        players = [{"id": f"t{i}", "bot": "random"} for i in range(12)]
        r = post(c, boss, "/api/events", {"preset": "s3_tiaoqi", "players": players, "event_id": "tq6",
                                          "form": {"match.session.seats": 6}})
        assert r.status_code == 201, r.text
        ev = c.get("/api/events/tq6").json()
        assert [len(m["entrants"]) for m in ev["rounds"][0]["matches"]] == [6, 6]


def test_level_targets_and_a_named_rounds_own_rule_are_fields():
    from qipai.competition.event import prepare_event

    f = by_path(form_fields("s0_shengji"))
    assert f["match.session.end.target.level_beyond"]["value"] == 10
    assert f["match.session.start_level"]["value"] == 2
    # the final's own rule (§2.5): pass A in three hours
    final = {p: x for p, x in f.items() if p.startswith("stage.round_overrides.final.")}
    assert {p: x["value"] for p, x in final.items()} == {
        "stage.round_overrides.final.target.level_beyond": 14,
        "stage.round_overrides.final.time_limit.duration": "180m"}
    assert all(x["params"]["round"] == "final" for x in final.values())
    f = by_path(form_fields("s3_tuolaji"))
    assert f["match.session.end.target.level_at_least"]["value"] == 10
    assert f["match.session.start_level"]["value"] == 5
    name, fields, _ = check_form("s0_shengji", {"stage.round_overrides.final.time_limit.duration": "150m",
                                                "match.session.end.target.level_beyond": 12})
    cfg = prepare_event(name, fields=fields)[2]
    assert cfg.round_rules["final"].time_limit == 150 * 60_000
    assert cfg.session.level_target == ("beyond", 12)
    # the session hands its levels to every deal: they are its fields, not the game's options
    assert "game.start_level" not in f and "game.must_play_levels" not in f
    # S2 tuolaji's session names no must-play levels: the game's option says them
    assert "game.must_play_levels" in by_path(form_fields("s2_tuolaji"))
    assert "match.session.must_play_levels" not in by_path(form_fields("s2_tuolaji"))
    assert f["match.session.must_play_levels"]["value"] == [10, 13]
    changed = check_form("s3_tuolaji", {"match.session.must_play_levels": [10]})
    assert changed[1] == {"match.session.must_play_levels": [10]}
    assert prepare_event("s3_tuolaji", fields=changed[1])[2].session.must_play_levels == (10,)
    with pytest.raises(FieldError) as e:
        check_form("s3_tuolaji", {"match.session.must_play_levels": "10"})
    assert e.value.field == "match.session.must_play_levels"
    with pytest.raises(FieldError) as e:
        check_form("s0_shengji", {"stage.round_overrides.final.time_limit.duration": "soon"})
    assert e.value.field == "stage.round_overrides.final.time_limit.duration"


def test_a_seeded_draw_from_the_form_and_the_players_ratings(tmp_path):
    with client(tmp_path) as c:
        boss = signup(c, "boss")
        players = [{"id": n, "bot": "random", "rating": r} for n, r in (("a", 1500), ("b", 1900), ("c", 1700),
                                                                         ("d", None))]
        r = post(c, boss, "/api/events", {"preset": "s2_xiangqi", "players": players, "event_id": "sd",
                                          "form": {"draw.seeded.count": 2}})
        assert r.status_code == 201, r.text
        ev = c.get("/api/events/sd").json()
        assert ev["seeded"] == 2
        draws = {e["id"]: (e["draw"], e["rating"]) for e in ev["entrants"]}
        assert draws["b"] == (1, 1900) and draws["c"] == (2, 1700)      # §2.1: the best-rated first
        assert sorted(draws[x][0] for x in "ad") == [3, 4]


def test_a_second_stage_and_its_own_match_settings_are_fields(tmp_path):
    """After a ranking stage the form offers a second stage (a knockout of the best, §2.8); its
    match settings are fields that start from the first stage's as changed so far, and changing
    one keeps the others; none removes the stage."""
    base = {"stage.kind": "round_robin", "match.series.clock": "xq_s0_rapid"}
    _, fields, form = check_form("s2_xiangqi", {**base, "then.0.kind": "knockout",
                                                "then.0.match.series.scheduled": 5})
    got = {f["path"]: f["value"] for f in form}
    assert got["then.0.kind"] == "knockout" and got["then.0.take"] == 4
    assert got["then.0.match.series.scheduled"] == 5 and got["match.series.scheduled"] == 3
    assert got["then.0.match.series.clock"] == "xq_s0_rapid"              # copied as changed
    assert fields["then.0.match"]["series"]["first_mover"] == {"game1": "lot", "then": "alternate"}
    assert fields["then.0.match.series.scheduled"] == 5
    with pytest.raises(FieldError) as e:
        check_form("s2_xiangqi", {**base, "then.0.kind": "swiss"})
    assert e.value.field == "then.0.kind" and e.value.valid == ["knockout", "table_knockout"]
    _, fields, form = check_form("s2_xiangqi", {**base, "then.0.kind": None})
    assert not any(f["path"].startswith("then.0.match") for f in form) and fields["then"] == []
    # a knockout first stage ends in a champion: no second stage is offered
    assert not any(f["path"] == "then.0.kind" for f in form_fields("s2_xiangqi"))
    with client(tmp_path) as c:
        boss = signup(c, "boss")
        r = post(c, boss, "/api/events", {"preset": "s2_xiangqi", "event_id": "two", "players": [
            {"id": f"p{i}", "bot": "random"} for i in range(5)],
            "form": {**base, "then.0.kind": "knockout", "then.0.match.series.scheduled": 3}})
        assert r.status_code == 201, r.text
