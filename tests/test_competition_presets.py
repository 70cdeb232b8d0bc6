"""Every preset of ``qipai/competition/presets`` (competition.md §3) runs to a champion with bots,
from the library (from the command line: test_competition_presets_cli.py). Fields are the
smallest that still have a bye or a lucky loser; bots are the quickest each game has. Every
preset's game is in qipai: none may be skipped."""

from __future__ import annotations

import pytest

from qipai.competition import create_event, open_db, run_event
from qipai.competition.config import load_preset, preset_data, preset_names
from qipai.competition.db import EventRow
from qipai.competition.event import Director

# the quickest bot that plays sensibly enough for a game to end; random everywhere else
BOTS = {"xiangqi": "greedy", "doudizhu": "rule"}


# presets whose matches are long in bot time (90-minute card tables of many deals): one table
LONG = {"s0_doudizhu", "s3_doudizhu", "s0_baohuang"}


def field(name: str, cli: bool = False) -> int:
    """Entrants: one more than a match or table holds, so the first round has a bye (two-sided
    knockouts) or a bye and a lucky loser (table knockouts); S3 xiangqi: a round robin of 3. The
    command-line runs and the long presets use a single match or table."""
    cfg = load_preset(name)
    return cfg.seats + (0 if cli or name in LONG else 1)


def entrants(name: str, n: int) -> list[dict]:
    cfg = load_preset(name)
    bot = BOTS.get(cfg.game_id, "random")
    if cfg.pairs:
        return [{"id": f"t{i}", "bot": bot, "members": [f"t{i}a", f"t{i}b"]} for i in range(1, n + 1)]
    return [{"id": f"p{i}", "bot": bot} for i in range(1, n + 1)]


@pytest.fixture
def db(tmp_path):
    return open_db(f"sqlite:///{tmp_path / 'presets.db'}")


@pytest.mark.parametrize("name", preset_names())
def test_every_preset_runs_to_a_champion_with_bots(name, db):
    data = preset_data(name)
    eid = create_event(db, name, entrants(name, field(name)))
    out = run_event(db, eid)
    assert out["status"] == "finished" and out["outcome"]["champion"], out
    assert out["outcome"]["runner_up"], out
    if data.get("placement_points"):
        pts = out["outcome"]["placement_points"]
        assert sorted(pts.values(), reverse=True)[:2] == [5, 3]
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        for m in d.matches():
            assert m.status == "finished"
            for g in m.games:
                assert g.status == "finished" and g.record, (m.round, m.index, g.number)
