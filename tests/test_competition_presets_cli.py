"""Every preset of ``qipai/competition/presets`` (competition.md §3) runs to a champion with bots
from the command line (`event new --preset NAME --players FILE`, `event run`, `event show`),
with a single match or table each (the fields and bots of test_competition_presets.py).

The library's test (test_competition_presets.py) plays every preset's sessions as the preset
gives them; here the card presets whose sessions run for an hour or more of bot time, or twenty
deals, are given a shorter end with ``--set`` (15 minutes, or 3 deals): the same command-line
path to a champion, and `--set` on a preset's session and on a round's override, for a fraction
of the deals."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from qipai.cli import app
from qipai.competition.config import load_preset, preset_names

from .test_competition_presets import entrants, field

#: a shorter session end for the presets whose single match or table plays many deals; the rest
#: of each preset (game, stage, ties, clocks, penalties) as it is
SHORTER = {
    "s0_doudizhu": ["match.session.end.time_limit.duration=15m"],
    "s3_doudizhu": ["match.session.end.time_limit.duration=15m"],
    "s0_baohuang": ["match.session.end.time_limit.duration=15m"],
    "s2_tuolaji": ["match.session.end.time_limit.duration=15m"],
    "s3_tuolaji": ["match.session.end.time_limit.duration=15m"],
    # a single match is the final: its round override gives the end
    "s0_shengji": ["stage.round_overrides.final.time_limit.duration=15m"],
    "s4_wakeng": ["match.session.end.deals=3"],
}


def test_the_shorter_ends_name_presets_that_exist():
    assert set(SHORTER) <= set(preset_names())


@pytest.mark.parametrize("name", preset_names())
def test_every_preset_from_the_command_line(name, tmp_path):
    cfg = load_preset(name)
    lines = []
    for p in entrants(name, field(name, cli=True)):
        members = f" members={','.join(p['members'])}" if cfg.pairs else ""
        lines.append(f"{p['id']} bot={p['bot']}{members}")
    players = tmp_path / "players.txt"
    players.write_text("\n".join(lines) + "\n")
    db = ["--db", f"sqlite:///{tmp_path / 'cli.db'}"]
    shorter = [arg for text in SHORTER.get(name, []) for arg in ("--set", text)]
    runner = CliRunner()
    res = runner.invoke(app, ["event", "new", "--preset", name, "--players", str(players), "--id", "ev",
                              *shorter, *db])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["event", "run", "ev", "--quiet", *db])
    assert res.exit_code == 0 and "champion:" in res.output, res.output
    res = runner.invoke(app, ["event", "show", "ev", *db], env={"COLUMNS": "160"})
    assert res.exit_code == 0 and "champion:" in res.output and "round 1" in res.output, res.output
