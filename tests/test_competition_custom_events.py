"""Building the event you want (issue: organizers' custom rules): any preset with any of its fields
changed by dotted path (``--set``, ``fields=``), an event file (``--config``: a preset and the
fields to change, or a whole event in the presets' format), each change shown to change the
event, and a bad change refused with the field and the valid values, creating nothing."""

from __future__ import annotations

import pytest

from qipai.competition import EventError, create_event, open_db, run_event
from qipai.competition.config import set_fields
from qipai.competition.db import EventRow
from qipai.competition.event import Director
from tests.competition_helpers import snapshot
from tests.server_process import run_cli


def cli(tmp_path, *args):
    out = run_cli("event", *args, "--db", "ev.db", cwd=tmp_path)
    return out.returncode, out.stdout + out.stderr


def config(tmp_path, eid):
    db = open_db(f"sqlite:///{tmp_path / 'ev.db'}")
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        return d.cfg, [g.spec for m in d.matches() for g in m.games]


def test_set_fields_keeps_the_rest_of_each_table():
    data = {"game": {"id": "xiangqi"}, "match": {"series": {"scheduled": 2, "clock": {"1": "a"}}}}
    out = set_fields(data, {"game.repetition_rule": "draw_only", "match.series.clock": "xq_s3",
                            "stage.rounds": 5})
    assert out == {"game": {"id": "xiangqi", "repetition_rule": "draw_only"}, "stage": {"rounds": 5},
                   "match": {"series": {"scheduled": 2, "clock": "xq_s3"}}}
    assert data["game"] == {"id": "xiangqi"}                      # the preset is not changed


def test_the_command_line_sets_game_options_clocks_and_format_fields(tmp_path):
    rc, out = cli(tmp_path, "new", "--preset", "s0_xiangqi", "--bots", "4", "--id", "custom",
                  "--set", "game.repetition_rule=seed000_same_move", "--set", "match.series.clock=xq_s2_15s",
                  "--set", "match.series.scheduled=1")
    assert rc == 0, out
    cfg, specs = config(tmp_path, "custom")
    assert cfg.game_options["repetition_rule"] == "seed000_same_move"
    assert cfg.series.scheduled == 1 and all(s["clock"] == "xq_s2_15s" for s in specs)
    # the same preset untouched: its own rule and clocks
    rc, out = cli(tmp_path, "new", "--preset", "s0_xiangqi", "--bots", "4", "--id", "plain")
    cfg, specs = config(tmp_path, "plain")
    assert "repetition_rule" not in cfg.game_options and specs[0]["clock"] == "xq_s0_slow"


@pytest.mark.parametrize(("field", "says"), [
    ("game.repetition_rule=bogus", "valid values"),
    ("game.nonsense=1", "valid options"),
    ("match.series.clock=nope", "series.clock: unknown clock preset 'nope'; valid:"),
    ("draw.count=2", "draw is 'random' in this preset"),
    ("stage.kind=tournament", "stage"),
    ("nothing", "PATH=VALUE"),
])
def test_a_bad_field_is_refused_naming_it_and_nothing_is_created(tmp_path, field, says):
    rc, out = cli(tmp_path, "new", "--preset", "s0_xiangqi", "--bots", "4", "--set", field)
    assert rc != 0 and says in out, out
    db = open_db(f"sqlite:///{tmp_path / 'ev.db'}")
    assert snapshot(db) == (0, 0, 0, 0)


def test_an_event_file_changes_a_preset_or_describes_a_whole_event(tmp_path):
    (tmp_path / "go.toml").write_text('preset = "s2_go"\n[game]\nko_rule = "simple_ko"\n', encoding="utf-8")
    rc, out = cli(tmp_path, "new", "--config", "go.toml", "--bots", "2", "--id", "simpleko")
    assert rc == 0, out
    cfg, _ = config(tmp_path, "simpleko")
    assert cfg.game_options["ko_rule"] == "simple_ko" and cfg.game_id == "go"
    # a sandayi event: no preset has one
    (tmp_path / "sandayi.toml").write_text(
        'title = "Club sandayi"\ndraw = "random"\nclock = "card_default"\n'
        '[game]\nid = "sandayi"\n[stage]\nkind = "table_knockout"\nseats = 4\n'
        '[match.session]\nseats = 4\nmeasure = "score"\nend = { deals = 2 }\nadvance = 1\n'
        'ties = { extra_deals = { eligible = "all" } }\n', encoding="utf-8")
    rc, out = cli(tmp_path, "new", "--config", "sandayi.toml", "--bots", "4", "--bot", "rule", "--id", "sdy")
    assert rc == 0, out
    rc, out = cli(tmp_path, "run", "sdy", "--quiet")
    assert rc == 0 and "finished" in out, out


def test_six_player_tiaoqi_tables_from_python(tmp_path):
    db = open_db(f"sqlite:///{tmp_path / 'py.db'}")
    fields = {"stage.seats": 6, "match.session.seats": 6}
    eid = create_event(db, "s3_tiaoqi", [{"id": f"p{i}", "bot": "greedy"} for i in range(6)],
                       fields=fields, secret="07" * 32)
    out = run_event(db, eid)
    assert out["status"] == "finished" and out["outcome"]["champion"]
    with db() as s:
        (m,) = Director(s, s.get(EventRow, eid)).matches(1)
        assert len(m.entrants) == 6
    with pytest.raises(EventError, match="stage.seats .9. and match.session.seats .3. must agree"):
        create_event(db, "s3_tiaoqi", [f"q{i}" for i in range(6)], fields={"stage.seats": 9})
    with pytest.raises(EventError, match="played at tables of 2, 3, 4, 6, not 5"):
        create_event(db, "s3_tiaoqi", [f"q{i}" for i in range(6)],
                     fields={"stage.seats": 5, "match.session.seats": 5})
