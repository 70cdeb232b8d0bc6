"""Events end to end: presets run to a champion with bots, persistence, crash-and-resume,
results entered by hand, withdrawals, and bad input refused with nothing changed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select
from typer.testing import CliRunner

import qipai
from qipai.cli import app
from qipai.competition import EventError, create_event, enter_result, lot, open_db, run_event, withdraw
from qipai.competition.db import EntrantRow, EventRow, GameRow, MatchRow
from qipai.competition.event import Director
from qipai.i18n import t
from tests import match_games  # noqa: F401  (test-nim, test-high)

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def db(tmp_path):
    return open_db(f"sqlite:///{tmp_path / 'ev.db'}")


def bots(n, bot="random", prefix="p"):
    return [{"id": f"{prefix}{i:02d}", "bot": bot} for i in range(1, n + 1)]


def snapshot(db):
    with db() as s:
        tables = (EventRow, EntrantRow, MatchRow, GameRow)
        return tuple(s.scalar(select(func.count()).select_from(t)) for t in tables)


def test_entrants_named_in_chinese_play_to_a_champion(db):
    """Accounts may be named in Chinese (qipai.server.auth.USERNAME), so entrants may too."""
    names = ["红方棋手", "黑方棋手", "象棋_3", "x-4"]
    eid = create_event(db, "s0_xiangqi", [{"id": n, "bot": "random"} for n in names],
                       overrides={"game": {"id": "test-nim"}}, event_id="zh-names")
    out = run_event(db, eid)
    assert out["status"] == "finished" and out["outcome"]["champion"] in names
    with pytest.raises(EventError, match="must be at most 40 letters"):
        create_event(db, "s0_xiangqi", bots(3) + [{"id": "棋" * 41}])


def test_knockout_with_byes_runs_to_a_champion(db):
    eid = create_event(db, "s0_xiangqi", bots(12), overrides={"game": {"id": "test-nim"}}, event_id="ko12")
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        r1 = d.matches(1)
        assert [m.kind for m in r1].count("bye") == 4
        assert sorted(m.entrants[0] for m in r1 if m.kind == "bye") == [1, 2, 3, 4]
    out = run_event(db, eid)
    assert out["status"] == "finished" and out["outcome"]["champion"]
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        assert [len(d.matches(r)) for r in (1, 2, 3, 4)] == [8, 4, 2, 1]
        final = d.matches(4)[0]
        assert d.by_draw[final.result["winner"]].entrant_id == out["outcome"]["champion"]
        for m in d.matches():
            if m.kind == "series":
                # every game stored with its full record and clock times
                g = m.games[0]
                assert g.record["meta"]["times"] and g.record["seats"]
                assert qipai.replay(qipai.Record.from_json(g.record)).result.text == g.result["text"]


def test_table_knockout_with_lucky_loser(db):
    over = {"game": {"id": "test-high"},
            "match": {"session": {"seats": 3, "end": {"target": {"score_at_least": 6}}}}}
    # a fixed secret and id: the same draw, seats and deals on every run
    eid = create_event(db, "s0_doudizhu", bots(4), overrides=over, event_id="lucky", secret="5e" * 32)
    out = run_event(db, eid)
    assert out["status"] == "finished"
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        r1, r2 = d.matches(1), d.matches(2)
        assert [m.kind for m in r1] == ["session", "bye"] and r1[1].entrants == [1]
        table = r1[0]
        assert len(r2) == 1 and len(r2[0].entrants) == 3
        # the final table: table winner, bye holder, and the lucky loser: the best of the other
        # two by table rank, then session score, then lot (purpose lot, §2.5 step 5) -- two
        # seats may share second place, so the lot is part of the rule, not noise
        res = table.result
        losers = [(res["ranks"][i], -res["totals"][i], x) for i, x in enumerate(table.entrants)
                  if x != res["winner"]]
        best = min(c[:2] for c in losers)
        tied = sorted(c[2] for c in losers if c[:2] == best)
        lucky = lot.stream(d.ev.secret, "lot", eid, 1, "lucky-r1").shuffle(tied)[0] if len(tied) > 1 \
            else tied[0]
        assert sorted(r2[0].entrants) == sorted([res["winner"], 1, lucky])


def test_round_robin_game_points_and_withdrawal_forfeits(db):
    eid = create_event(db, "s3_xiangqi", bots(5), overrides={"game": {"id": "test-nim", "pile": 30}})
    run_event(db, eid, max_games=2)
    withdraw(db, eid, "p05")
    with pytest.raises(EventError, match="already withdrawn"):
        withdraw(db, eid, "p05")
    out = run_event(db, eid)
    assert out["status"] == "finished"
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        assert d.stage == "round_robin" and len(d.matches()) == 5 * 3   # 5 rounds x 3 (with the phantom)
        forfeits = [g for m in d.matches() for g in m.games if g.source == "forfeit"]
        assert forfeits and all(g.result["moves"] == 0 for g in forfeits)
        table = out["outcome"]["standings"]
        assert [r["rank"] for r in table] == [1, 2, 3, 4, 5]
        # points first; ties by head-to-head, SB, wins, lot (tests/test_competition_formats.py)
        assert [r["points"] for r in table] == sorted((r["points"] for r in table), reverse=True)


def test_swiss_for_more_than_eight(db):
    eid = create_event(db, "s3_xiangqi", bots(9), overrides={"game": {"id": "test-nim", "pile": 25}})
    out = run_event(db, eid)
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        assert d.stage == "swiss" and out["status"] == "finished"
        rounds = d.cfg.swiss_rounds(9)
        assert rounds == 5 and d.current_round() == rounds      # log2 + 2 = 6, capped at 9 // 2 + 1
        met = [frozenset(m.entrants) for m in d.matches() if m.kind == "series"]
        assert len(met) == len(set(met))                         # nobody meets twice
        byes = [m.entrants[0] for m in d.matches() if m.kind == "bye"]
        assert len(byes) == rounds and len(set(byes)) == rounds   # at most one bye each


def test_results_entered_by_hand(db):
    players = [{"id": "ann"}, {"id": "bob"}, {"id": "cy", "bot": "random"}, {"id": "dee", "bot": "random"}]
    eid = create_event(db, "s2_xiangqi", players, overrides={"game": {"id": "test-nim"}})
    out = run_event(db, eid)
    assert out["status"] == "running" and out["waiting"]     # games with ann or bob wait
    gid = out["waiting"][0]
    before = snapshot(db)
    with pytest.raises(EventError, match="cannot read result") as refused:
        enter_result(db, eid, gid, "2-0")
    message = refused.value.args[0]        # the refusal names the game by its number, as its words do
    assert message.params["game"] == gid
    assert f"第 {gid} 局" in t("refusal." + message.code, message.params, lang="zh")
    with pytest.raises(EventError, match="has no game 999"):
        enter_result(db, eid, 999, "1-0")
    assert snapshot(db) == before
    enter_result(db, eid, gid, "1-0")
    with pytest.raises(EventError, match="already has a result"):
        enter_result(db, eid, gid, "0-1")
    while True:
        out = run_event(db, eid)
        if out["status"] == "finished":
            break
        enter_result(db, eid, out["waiting"][0], "1-0")
    assert out["outcome"]["champion"]


def test_bad_input_is_refused_and_changes_nothing(db):
    create_event(db, "s0_xiangqi", bots(4), overrides={"game": {"id": "test-nim"}}, event_id="e1")
    before = snapshot(db)
    with pytest.raises(EventError, match="unknown preset 'nope'"):
        create_event(db, "nope", bots(4))
    with pytest.raises(EventError, match="duplicate player 'p01'"):
        create_event(db, "s0_xiangqi", bots(3) + [{"id": "p01"}])
    with pytest.raises(EventError, match="already exists"):
        create_event(db, "s0_xiangqi", bots(4), event_id="e1")
    with pytest.raises(EventError, match="needs at least 3 players"):
        create_event(db, "s0_doudizhu", bots(2))
    with pytest.raises(EventError, match="unknown bot 'alphazero'"):
        create_event(db, "s0_xiangqi", bots(4, bot="alphazero"))
    with pytest.raises(EventError, match="must be at most 40 letters"):
        create_event(db, "s0_xiangqi", bots(3) + [{"id": "bad id"}])
    with pytest.raises(EventError, match="no event 'zz'"):
        run_event(db, "zz")
    with pytest.raises(EventError, match="has no player"):
        withdraw(db, "e1", "nobody")
    assert snapshot(db) == before


def test_crash_and_resume_gives_the_same_event(tmp_path):
    a = open_db(f"sqlite:///{tmp_path / 'a.db'}")
    b = open_db(f"sqlite:///{tmp_path / 'b.db'}")
    secret = "ab" * 32
    over = {"game": {"id": "test-nim", "pile": 21}}
    for db in (a, b):
        create_event(db, "s0_xiangqi", bots(12), overrides=over, event_id="ev", secret=secret)
    full = run_event(a, "ev")
    run_event(b, "ev", max_games=5)           # "killed" after five games, reopened from the file
    b2 = open_db(f"sqlite:///{tmp_path / 'b.db'}")
    with b2() as s:
        assert s.scalar(select(func.count()).select_from(GameRow).where(GameRow.status == "finished")) == 5
    resumed = run_event(b2, "ev")
    assert resumed["outcome"] == full["outcome"]

    def results(db):
        with db() as s:
            return [(g.match.round, g.match.index, g.number, g.result["text"], g.record["actions"])
                    for g in s.scalars(select(GameRow).order_by(GameRow.id))]

    assert results(a) == results(b2)


def test_process_killed_mid_event_loses_no_finished_game(tmp_path):
    env = {**os.environ, "QIPAI_DATABASE_URL": f"sqlite:///{tmp_path / 'k.db'}",
           "PYTHONPATH": str(ROOT)}
    script = ("import sys; from tests import match_games; from qipai.cli import app; "
              "sys.argv=['qipai']+sys.argv[1:]; app()")
    cmd = [sys.executable, "-c", script]
    subprocess.run(cmd + ["event", "new", "--preset", "s0_doudizhu", "--bots", "6", "--id", "k"],
                   env={**env}, check=True, capture_output=True)
    # make the event long enough to be killed in the middle
    db = open_db(env["QIPAI_DATABASE_URL"])
    with db() as s:
        ev = s.get(EventRow, "k")
        assert ev is not None
    proc = subprocess.Popen(cmd + ["event", "run", "k", "--quiet"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    deadline = time.time() + 60
    seen = 0
    while time.time() < deadline and proc.poll() is None:
        with db() as s:
            seen = s.scalar(select(func.count()).select_from(GameRow).where(GameRow.status == "finished"))
        if seen >= 20:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with db() as s:
        kept = s.scalar(select(func.count()).select_from(GameRow).where(GameRow.status == "finished"))
    assert kept >= seen >= 20
    out = run_event(db, "k")
    assert out["status"] == "finished" and out["outcome"]["champion"]


def test_cli_event_commands(tmp_path, monkeypatch):
    monkeypatch.setenv("QIPAI_DATABASE_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    runner = CliRunner()
    res = runner.invoke(app, ["event", "presets"])
    assert res.exit_code == 0 and "s0_xiangqi" in res.output and "s0_doudizhu" in res.output
    players = tmp_path / "players.txt"
    players.write_text("\n".join(f"x{i} Player {i} bot=greedy" for i in range(1, 13)) + "\n")
    res = runner.invoke(app, ["event", "new", "--preset", "s0_xiangqi", "--players", str(players),
                              "--id", "xq"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["event", "run", "xq", "--quiet"])
    assert res.exit_code == 0 and "champion:" in res.output
    res = runner.invoke(app, ["event", "show", "xq"])
    assert res.exit_code == 0 and "round 4" in res.output and "champion:" in res.output
    res = runner.invoke(app, ["event", "new", "--preset", "nope", "--bots", "4"])
    assert res.exit_code == 2 and "unknown preset" in res.output
    res = runner.invoke(app, ["event", "result", "12345", "1-0", "--event", "xq"])
    assert res.exit_code == 2 and "has no game 12345" in res.output
    dup = tmp_path / "dup.txt"
    dup.write_text("a\nb\na\n")
    res = runner.invoke(app, ["event", "new", "--preset", "s0_xiangqi", "--players", str(dup)])
    assert res.exit_code == 2 and "duplicate player 'a'" in res.output
