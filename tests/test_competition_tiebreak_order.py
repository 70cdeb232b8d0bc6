"""A stage's tie-break order (issue: organizers' custom rules, competition.md §2.8): the
``tiebreaks`` field of each stage (``stages.N.tiebreaks``), the format's own order unless set,
honoured by the standings, settable from Python, the command line and the organizer's form, and an
unknown tie-break refused with the valid ones, creating nothing."""

from __future__ import annotations

import pytest

from qipai.competition import EventError, create_event, open_db
from qipai.competition.config import TIEBREAKS, load_preset, parse_config, preset_data, set_fields
from qipai.competition.form import FieldError, check_form, form_fields
from tests import match_games  # noqa: F401  (test-nim)
from tests.competition_helpers import snapshot
from tests.test_competition_custom_events import cli, config
from tests.test_competition_formats import RR_MATCH_POINTS, play_by_hand

from .server_helpers import client, post, signup

# a round robin of five (match points, a draw half a point): a and b both score 2.5; a beat b but
# drew three games, b won two. c, d, e beat one another in a circle and stay below.
RESULTS = {("a", "b"): "a", ("a", "c"): None, ("a", "d"): None, ("a", "e"): None,
           ("b", "c"): "b", ("b", "d"): "b", ("b", "e"): None,
           ("c", "d"): "c", ("d", "e"): "d", ("c", "e"): "e"}


@pytest.fixture
def db(tmp_path):
    return open_db(f"sqlite:///{tmp_path / 'tb.db'}")


def standings(db, **kw):
    eid = create_event(db, "s3_xiangqi", [{"id": n} for n in "abcde"], overrides=RR_MATCH_POINTS, **kw)
    out = play_by_hand(db, eid, {frozenset(p): w for p, w in RESULTS.items()})
    return out["outcome"]["standings"]


def test_the_order_of_the_tie_breaks_decides_who_is_first(db):
    # the format's own order: head-to-head first, so a (who beat b) is first
    table = standings(db)
    assert [(r["id"], r["points"], r["wins"]) for r in table[:2]] == [("a", 2.5, 1), ("b", 2.5, 2)]
    assert table[0]["direct"] == 1 and not any(r.get("lot") for r in table)
    # wins first: b (two wins) is first
    table = standings(db, fields={"stages.0.tiebreaks": ["wins", "head_to_head", "sonneborn_berger"]})
    assert [r["id"] for r in table[:2]] == ["b", "a"] and table[0]["direct"] is None
    # no tie-break at all: the lot separates a and b
    table = standings(db, fields={"stages.0.tiebreaks": []}, secret="3c" * 32)
    assert {r["id"] for r in table[:2]} == {"a", "b"} and table[0]["lot"] and table[1]["lot"]


def test_the_default_is_the_formats_own_order():
    assert load_preset("s3_xiangqi").tiebreaks is None
    cfg = parse_config("x", set_fields(preset_data("s3_xiangqi"), {"stages.0.tiebreaks": ["wins"]}))
    assert cfg.tiebreaks == ("wins",)
    assert cfg.tiebreak_order("round_robin") == ("wins",)
    assert load_preset("s3_xiangqi").tiebreak_order("swiss") == TIEBREAKS["swiss"]
    # a later stage's field: then.N
    data = set_fields({"stage": {}, "then": [{"kind": "knockout"}]}, {"stages.1.tiebreaks": ["x"]})
    assert data["then"][0]["tiebreaks"] == ["x"]


@pytest.mark.parametrize(("value", "says"), [
    (["wins", "coin"], "unknown tie-break 'coin'"),
    (["wins", "wins"], "names a tie-break twice"),
    ("wins", "must be a list"),
])
def test_a_bad_order_is_refused_and_nothing_is_created(db, value, says):
    with pytest.raises(EventError, match=says) as e:
        create_event(db, "s3_xiangqi", [{"id": n} for n in "abcde"], overrides=RR_MATCH_POINTS,
                     fields={"stages.0.tiebreaks": value})
    assert "sonneborn_berger" in str(e.value) or "twice" in str(e.value)
    assert snapshot(db) == (0, 0, 0, 0)


def test_the_command_line_sets_the_order_and_refuses_an_unknown_tie_break(tmp_path):
    rc, out = cli(tmp_path, "new", "--preset", "s3_xiangqi", "--bots", "4", "--id", "tb",
                  "--set", 'stages.0.tiebreaks=["sonneborn_berger", "buchholz"]')
    assert rc == 0, out
    cfg, _ = config(tmp_path, "tb")
    assert cfg.tiebreaks == ("sonneborn_berger", "buchholz")
    rc, out = cli(tmp_path, "new", "--preset", "s3_xiangqi", "--bots", "4", "--id", "bad",
                  "--set", 'stages.0.tiebreaks=["coin"]')
    assert rc != 0 and "unknown tie-break 'coin'" in out and "valid: buchholz_cut1, buchholz" in out, out
    assert snapshot(open_db(f"sqlite:///{tmp_path / 'ev.db'}"))[0] == 1      # only "tb"
    # a knockout has no tie-breaks to order
    rc, out = cli(tmp_path, "new", "--preset", "s0_xiangqi", "--bots", "4",
                  "--set", 'stages.0.tiebreaks=["wins"]')
    assert rc != 0 and "no tie-breaks" in out, out


def test_the_form_shows_each_stages_order_and_checks_it(tmp_path):
    f = {x["path"]: x for x in form_fields("s3_xiangqi")}["stages.0.tiebreaks"]
    assert (f["type"], f["value"], f["choices"], f["label"]) == \
        ("order", list(TIEBREAKS["swiss"]), list(TIEBREAKS["swiss"]), "stage.tiebreaks")
    assert "stages.0.tiebreaks" not in {x["path"] for x in form_fields("s0_xiangqi")}    # a knockout
    _, fields, shown = check_form("s3_xiangqi", {"stages.0.tiebreaks": ["wins", "head_to_head"]})
    assert fields == {"stages.0.tiebreaks": ["wins", "head_to_head"]}
    assert {x["path"]: x for x in shown}["stages.0.tiebreaks"]["value"] == ["wins", "head_to_head"]
    with pytest.raises(FieldError) as e:
        check_form("s3_xiangqi", {"stages.0.tiebreaks": ["wins", "coin"]})
    assert (e.value.field, e.value.valid) == ("stages.0.tiebreaks", list(TIEBREAKS["swiss"]))
    with client(tmp_path) as c:
        boss = signup(c, "boss")
        r = c.post("/api/events/form", json={"preset": "s3_xiangqi",
                                             "fields": {"stages.0.tiebreaks": ["coin"]}})
        body = r.json()
        assert r.status_code == 400 and body["error"] == "bad_field"
        assert body["params"]["field"] == "stages.0.tiebreaks"
        assert body["params"]["valid"] == list(TIEBREAKS["swiss"])
        bots = [{"id": f"b{i}", "bot": "random"} for i in range(4)]
        r = post(c, boss, "/api/events", {"preset": "s3_xiangqi", "players": bots,
                                          "form": {"stages.0.tiebreaks": ["wins", "coin"]}})
        assert r.status_code == 400 and r.json()["params"]["field"] == "stages.0.tiebreaks"
        assert c.get("/api/events").json() == []
        r = post(c, boss, "/api/events", {"preset": "s3_xiangqi", "players": bots, "event_id": "tb",
                                          "form": {"stages.0.tiebreaks": ["wins"]}})
        assert r.status_code == 201, r.text
