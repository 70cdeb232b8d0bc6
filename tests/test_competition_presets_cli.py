"""Every preset of ``qipai/competition/presets`` (competition.md §3) runs to a champion with bots
from the command line (`event new --preset NAME --players FILE`, `event run`, `event show`),
with a single match or table each (the fields and bots of test_competition_presets.py)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from qipai.cli import app
from qipai.competition.config import load_preset, preset_names

from .test_competition_presets import entrants, field


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
    runner = CliRunner()
    res = runner.invoke(app, ["event", "new", "--preset", name, "--players", str(players), "--id", "ev", *db])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["event", "run", "ev", "--quiet", *db])
    assert res.exit_code == 0 and "champion:" in res.output, res.output
    res = runner.invoke(app, ["event", "show", "ev", *db], env={"COLUMNS": "160"})
    assert res.exit_code == 0 and "champion:" in res.output and "round 1" in res.output, res.output
