"""benchmarks/bot_strength.py's points summary: per pairing of three or more seats, the level's
mean points and the opponent's from the same seat and deal, with the mean difference's 95%
interval."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path


def _bench():
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "bot_strength.py"
    spec = importlib.util.spec_from_file_location("bot_strength", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bot_strength", mod)        # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def test_points_summary_pairs_the_same_seat_and_deal(tmp_path):
    bench = _bench()
    rows = [("shengji", 2.0, 0.0), ("shengji", 1.0, 1.0), ("shengji", 0.0, 1.0),
            ("baohuang", 3.0, -1.0)]
    lines = [json.dumps({"game": g, "level": 3, "opponent": "rule (2), three seats",
                         "points": a, "baseline_points": b}) for g, a, b in rows]
    lines.append(json.dumps({"game": "junqi", "level": 3, "opponent": "greedy (2)", "points": 1.0}))
    path = tmp_path / "strength.jsonl"
    path.write_text("\n".join(lines) + "\n")
    table = bench.points(path).splitlines()
    assert len(table) == 4                                   # header, rule, shengji, baohuang
    shengji = table[2].split(" | ")
    assert shengji[3:6] == ["3", "+1.00", "+0.67"]
    # differences 2, 0, -1: mean 1/3, sd sqrt(7/3), half-width 1.96 * sd / sqrt(3) = 1.73
    assert shengji[6].startswith("+0.33 [-1.40, +2.06]")
    assert "+4.00 [-inf, +inf]" in table[3]


def test_timed_bot_keeps_its_slowest_decision():
    """The slowest decision of a game (the live limit is per move) is at most the total and at
    least the mean, and every decision is counted."""
    import qipai
    from qipai.bots import make_bot

    bench = _bench()
    game = qipai.load("gomoku")
    timed = bench.Timed(make_bot("gomoku", "greedy", seed=1))
    other = make_bot("gomoku", "random", seed=2)
    state = game.new_state(seed=0)
    mine = 0
    while not state.is_terminal() and mine < 12:
        seat = state.to_act[0]
        bot = timed if seat == 0 else other
        mine += bot is timed
        state.apply(bot.choose(state, seat), seat)
    assert timed.moves == mine > 0
    assert 0 < timed.slowest <= timed.cpu
    assert timed.slowest >= timed.cpu / timed.moves
