"""The penalty ledger (competition.md §2.7) with the real games: S0 shengji's deal faults (the third
disqualifies), S2 tuolaji's follow errors (a level down after the deal, the third loses the
match), S4 wakeng's forfeited deal; presets' other keys (conduct, first_bidder) checked; bad
entries refused with nothing written; the migration keeps a single head."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from typer.testing import CliRunner

import qipai
from qipai.cli import app
from qipai.competition import EventError, create_event, open_db, penalize, run_event
from qipai.competition.config import parse_config, preset_data
from qipai.competition.db import EntrantRow, EventRow, GameRow, PenaltyRow
from qipai.competition.event import Director
from qipai.core.errors import OptionError
from tests.competition_helpers import snapshot


@pytest.fixture
def db(tmp_path):
    return open_db(f"sqlite:///{tmp_path / 'pen.db'}")


def pairs(n):
    return [{"id": f"t{i}", "bot": "random", "members": [f"t{i}a", f"t{i}b"]} for i in range(1, n + 1)]


def rows(db):
    """Row counts including the ledger: equal before and after a refused request."""
    with db() as s:
        return snapshot(db), s.scalar(select(func.count()).select_from(PenaltyRow))


def test_deal_faults_disqualify_at_the_third(db):
    eid = create_event(db, "s0_shengji", pairs(2))
    run_event(db, eid, max_games=1)
    for n in (1, 2):
        out = penalize(db, eid, "t1", "deal_fault", "kitty miscounted")
        assert out["count"] == n and "disqualified" not in out["effect"]
    out = penalize(db, eid, "t1", "deal_fault", "third fault")
    assert out["effect"].endswith("disqualified")
    with db() as s:
        ev = s.get(EventRow, eid)
        (m,) = Director(s, ev).matches(1)
        assert ev.status == "finished" and ev.outcome["champion"] == "t2"
        assert m.result["ended_by"] == "forfeit" and m.result["text"] == "forfeit by t1"
        assert next(e for e in ev.entrants if e.entrant_id == "t1").status == "disqualified"
        # the deal that was waiting is not played; the one before stands
        assert [g.source for g in sorted(m.games, key=lambda g: g.number)] == ["played", "forfeit"]
        assert s.scalar(select(func.count()).select_from(PenaltyRow)) == 3


def test_follow_errors_cost_a_level_after_the_deal_and_the_third_loses_the_match(db):
    eid = create_event(db, "s2_tuolaji", pairs(2), secret="44" * 32)
    run_event(db, eid, max_games=1)
    out = penalize(db, eid, "t1", "follow_error", "did not follow hearts")
    assert out["count"] == 1 and "one level down" in out["effect"]
    run_event(db, eid, max_games=1)                     # the penalized deal is played
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        (m,) = d.matches(1)
        second, third = sorted(m.games, key=lambda g: g.number)[1:3]
        seats = [i for i, x in enumerate(second.seats) if d.name(x) == "t1"]
        team = seats[0] % 2                              # shengji teams: seats 0+2 and 1+3
        rec = qipai.Record.from_json(second.record)
        # the game applied the entry itself, as its logged sanction, so the record replays
        assert f"fault follow {team}" in [a[1] if isinstance(a, list) else a for a in rec.actions][:1]
        assert qipai.replay(rec).result.text == second.result["text"]
        # the same deal without the entry: t1's side one level higher (never below the start)
        plain = qipai.Record.from_json({**second.record, "actions": second.record["actions"][1:],
                                        "result": {}})
        unpenalized = qipai.replay(plain).result.details
        penalized = qipai.replay(rec).result.details
        assert penalized["levels"][team] == max(2, unpenalized["levels"][team] - 1)
        if team == unpenalized["dealer_team"]:           # the declarer changes: the dealer's next seat
            assert penalized["next_dealer"] == (unpenalized["dealer"] + 1) % 4
        assert third.spec["start"][f"team{team}_level"] == min(penalized["levels"][team], 14)
    for n in (2, 3):
        out = penalize(db, eid, "t1", "follow_error", f"error {n}")
    assert out["effect"].endswith("the match is lost")
    with db() as s:
        ev = s.get(EventRow, eid)
        (m,) = Director(s, ev).matches(1)
        assert ev.status == "finished"
        assert ev.outcome["champion"] == "t2" and ev.outcome["runner_up"] == ["t1"]
        assert ev.outcome["placement_points"] == {"t1": 3, "t2": 5}
        assert m.result["text"] == "forfeit by t1"
        assert next(e for e in ev.entrants if e.entrant_id == "t1").status == "active"


def test_a_forfeited_wakeng_deal_is_scored_by_the_game(db):
    eid = create_event(db, "s4_wakeng", [{"id": f"p{i}", "bot": "random"} for i in (1, 2, 3)])
    out = penalize(db, eid, "p2", "deal_forfeit", "showed cards")
    assert "deal 1 lost by seat" in out["effect"]
    with db() as s:
        (m,) = Director(s, s.get(EventRow, eid)).matches(1)
        g = min(m.games, key=lambda g: g.number)
        seat = g.seats.index(next(x for x in g.seats if Director(s, m.event).name(x) == "p2"))
        assert g.source == "referee" and g.result["reason"] == "arbiter"
        assert qipai.replay(qipai.Record.from_json(g.record)).result.text == g.result["text"]
        assert g.result["returns"][seat] < 0 and sum(g.result["returns"]) == 0
        assert g.record["meta"]["penalty"] == "deal_forfeit"
    assert run_event(db, eid)["status"] == "finished"


def test_bad_penalties_change_nothing(db):
    eid = create_event(db, "s0_shengji", pairs(2))
    before = rows(db)
    for args, message in ((("t1", "follow_error", "x"), "has no penalty 'follow_error'; a referee may enter: "
                                                       "deal_fault"),
                          (("t1", "failed_throw", "x"), "applied by the game itself"),
                          (("t1", "deal_fault", "  "), "give the reason"),
                          (("t9", "deal_fault", "x"), "has no player 't9'")):
        with pytest.raises(EventError, match=message):
            penalize(db, eid, *args)
    assert rows(db) == before
    run_event(db, eid)
    with pytest.raises(EventError, match="is finished"):
        penalize(db, eid, "t1", "deal_fault", "late")
    wk = create_event(db, "s4_wakeng", [{"id": f"p{i}"} for i in range(1, 5)])   # humans: nothing plays
    before = rows(db)
    with db() as s:
        bye = next(m for m in Director(s, s.get(EventRow, wk)).matches(1) if m.kind == "bye")
        holder = Director(s, s.get(EventRow, wk)).name(bye.entrants[0])
    with pytest.raises(EventError, match=f"player '{holder}' has no pending match"):
        penalize(db, wk, holder, "deal_forfeit", "x")
    assert rows(db) == before


@pytest.mark.parametrize("change, message", [
    ({"penalties": {"slow_play": {}}}, "unknown penalty kind 'slow_play'"),
    ({"penalties": {"deal_fault": {"disqualify_at": 0}}}, "disqualify_at must be a whole number >= 1"),
    ({"penalties": {"deal_fault": {"source": "engine"}}}, "deal_fault.source must be 'referee'"),
    ({"penalties": {"failed_throw": {"points_per_card": 10, "source": "referee"}}},
     "failed_throw.source must be 'engine'"),
    ({"penalties": {"follow_error": {"effect": "minus_two"}}}, "follow_error.effect must be"),
    ({"penalties": {"deal_fault": {"after": 3}}}, "unknown key"),
    ({"conduct": {"partner_chat": "sometimes"}}, "conduct.partner_chat = 'sometimes'"),
    ({"first_bidder": "oldest"}, "first_bidder must be"),
    ({"emperor_pick": "lot"}, "unknown key\\(s\\) \\['emperor_pick'\\]"),
])
def test_bad_preset_keys_are_refused(change, message):
    with pytest.raises(OptionError, match=message):
        parse_config("x", {**preset_data("s0_shengji"), **change})


def test_penalties_must_fit_the_game_and_format(db):
    before = snapshot(db)
    cases = [
        ("s0_shengji", pairs(2), {"game": {"id": "shengji", "profile": "seed002"}},
         "failed_throw: shengji must charge 10 points per card itself"),
        ("s0_xiangqi", [{"id": "a"}, {"id": "b"}], {"penalties": {"follow_error": {}}},
         "needs a level session"),
        ("s0_xiangqi", [{"id": "a"}, {"id": "b"}], {"penalties": {"deal_forfeit": {}}},
         "needs a card-table session"),
        ("s2_doudizhu", [{"id": f"p{i}"} for i in range(3)],
         {"game": {"id": "doudizhu", "preset": "classic"}},
         "first_bidder = 'face_up_card' needs the doudizhu option deal = 'cut_faceup'"),
    ]
    for preset, players, over, message in cases:
        with pytest.raises(EventError, match=message):
            create_event(db, preset, players, overrides=over)
    assert snapshot(db) == before


def test_cli_penalty(tmp_path):
    url = ["--db", f"sqlite:///{tmp_path / 'cli.db'}"]
    runner = CliRunner()
    res = runner.invoke(app, ["event", "new", "--preset", "s0_shengji", "--bots", "2", "--id", "sj", *url])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["event", "penalty", "bot01", "deal_fault", "--reason", "kitty", "-e", "sj",
                              "--by", "chief", *url])
    assert res.exit_code == 0 and "deal_fault 1 of bot01" in res.output, res.output
    res = runner.invoke(app, ["event", "log", "sj", *url], env={"COLUMNS": "200"})
    assert "penalty by chief — game 1 entrant bot01 (kind=deal_fault, count=1" in res.output
    assert res.output.strip().endswith(": kitty")
    res = runner.invoke(app, ["event", "penalty", "bot01", "follow_error", "-r", "x", "-e", "sj", *url])
    assert res.exit_code == 2 and "has no penalty 'follow_error'" in res.output
    res = runner.invoke(app, ["event", "show", "sj", *url], env={"COLUMNS": "160"})
    assert res.exit_code == 0 and "Penalties" in res.output
    assert "deal_fault" in res.output and "kitty" in res.output


def test_the_migrations_have_one_head_and_0006_keeps_old_data(tmp_path):
    from alembic import command
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    from sqlalchemy import create_engine, inspect, text

    from qipai.competition import db as dbmod

    cfg = Config()
    cfg.set_main_option("script_location", str(dbmod.Path(dbmod.__file__).with_name("migrations")))
    assert len(ScriptDirectory.from_config(cfg).get_heads()) == 1      # one chain, whatever its head
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0005")
        conn.execute(text("INSERT INTO events VALUES "
                          "('old', 'n', 'p', 'g', '{}', 'running', 's', 'c', 't', NULL)"))
    assert "penalties" not in inspect(engine).get_table_names()
    db = open_db(url)                                  # upgrades to the newest revision
    assert "penalties" in inspect(create_engine(url)).get_table_names()
    with db() as s:
        assert s.get(EventRow, "old").name == "n"
        assert s.scalar(select(func.count()).select_from(EntrantRow)) == 0
        assert s.scalar(select(func.count()).select_from(GameRow)) == 0
