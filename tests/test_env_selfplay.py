"""The self-play runner (qipai.env.selfplay): games in a process pool, seeded, written as
records that ``qipai replay`` checks move by move."""

from __future__ import annotations

import subprocess
import sys

from qipai.env.selfplay import run


def test_selfplay_in_a_pool_writes_records_that_replay(tmp_path):
    out = tmp_path / "ddz"
    results = run("doudizhu", 4, seed=10, workers=2, out=out)
    assert [r["seed"] for r in results] == [10, 11, 12, 13]
    assert sorted(p.name for p in out.iterdir()) == [f"doudizhu-{s}.json" for s in (10, 11, 12, 13)]
    assert all(sum(r["returns"]) == 0 and r["reason"] != "truncated" for r in results)
    # the same seeds give the same games, alone and in this process
    again = run("doudizhu", 1, seed=12, workers=0)
    assert again[0]["returns"] == results[2]["returns"] and again[0]["steps"] == results[2]["steps"]
    done = subprocess.run([sys.executable, "-m", "qipai.cli", "replay", str(out)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 games: 4 OK, 0 failed" in done.stdout


def test_selfplay_with_bots_and_options_from_the_command_line(tmp_path):
    out = tmp_path / "mj"
    done = subprocess.run([sys.executable, "-m", "qipai.env.selfplay", "laizi-mahjong", "--games", "2",
                           "--workers", "0", "--policy", "rule", "--option", "hands_per_match=1",
                           "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("2 games, ")
    check = subprocess.run([sys.executable, "-m", "qipai.cli", "replay", "-q", str(out)],
                           capture_output=True, text=True, timeout=300)
    assert check.returncode == 0 and "2 games: 2 OK" in check.stdout, check.stdout
