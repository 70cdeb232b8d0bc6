"""The shengji dealer's searched bury alone, by duplicate: each deal is played twice by the rule
bot in every seat, once with the dealer's bury searched by level 3 (300 playouts, its duel with
the rule bot's kitty, ``qipai.bots.shengji.bury_candidates``) and once with the rule bot's bury;
the rest of the hand is the rule bot's both times. One JSON line a deal (the attackers' totals
and the hands' outcomes both ways, whether the search buried another kitty, its CPU seconds);
``--summary FILE`` prints the counts.

    nice -n 19 python benchmarks/shengji_bury.py --first 9000 --games 155 --json FILE
    python benchmarks/shengji_bury.py --summary FILE
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import qipai  # noqa: E402
from qipai.bots import make_bot  # noqa: E402
from qipai.bots import shengji as sj  # noqa: E402
from qipai.bots.mcts import Budget  # noqa: E402
from qipai.games.shengji.scoring import table_outcome  # noqa: E402


def deal(game, seed: int, searched: bool) -> tuple[dict, dict]:
    """The hand of ``seed`` played by rule bots, the bury searched or not: its result's
    details and what the search did."""
    state = game.new_state(seed=seed)
    rule = make_bot("shengji", "rule")
    info: dict = {}
    while not state.is_terminal():
        seat = state.to_act[0]
        action = rule.choose(state, seat)
        if searched and state.phase == "bury":
            roots = sj.SEARCHER.root_states(game, sj.SEARCHER.inputs(state, seat))
            t0 = time.process_time()
            result = sj.SEARCHER.search(roots, seat, Budget(300), random.Random(seed))
            info = {"cpu": round(time.process_time() - t0, 3), "changed": result.action != str(action),
                    "candidates": len(result.stats)}
            action = next(a for a in sj.bury_candidates(state, seat) if str(a) == result.action)
        state.apply(action, seat)
    return state.result.details, info


def rank(total: int, table: str) -> int:
    """The outcome's rank for the dealer's team (higher is better: D+3 highest)."""
    kind, k = table_outcome(total, table)
    return k if kind == "D" else 0 if kind == "take" else -k


def summary(path: Path) -> str:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    diff = [r["attack_rule"] - r["attack_search"] for r in rows]
    n = len(diff)
    mean = sum(diff) / n
    se = math.sqrt(sum((d - mean) ** 2 for d in diff) / (n - 1) / n) if n > 1 else 0.0
    better = sum(r["rank_search"] > r["rank_rule"] for r in rows)
    worse = sum(r["rank_search"] < r["rank_rule"] for r in rows)
    return (f"{n} deals (seeds {rows[0]['seed']}-{rows[-1]['seed']}), another kitty in "
            f"{sum(r['changed'] for r in rows)}; the attackers' total lower in {sum(d > 0 for d in diff)}, "
            f"higher in {sum(d < 0 for d in diff)}, {-mean:+.1f} points a hand [{-mean - 1.96 * se:+.1f}, "
            f"{-mean + 1.96 * se:+.1f}]; the dealer's outcome better in {better}, worse in {worse}; "
            f"{sum(r['cpu'] for r in rows) / n:.2f} CPU s a bury (at most {max(r['cpu'] for r in rows):.2f})")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--first", type=int, default=9000)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--json", type=Path)
    p.add_argument("--summary", type=Path)
    a = p.parse_args()
    if a.summary:
        print(summary(a.summary))
        return
    game = qipai.load("shengji")
    table = game.options["score_table"]
    for seed in range(a.first, a.first + a.games):
        searched, info = deal(game, seed, True)
        plain, _ = deal(game, seed, False)
        row = {"seed": seed, "dealer": searched["dealer"], "attack_search": searched["attack_total"],
               "attack_rule": plain["attack_total"], "rank_search": rank(searched["attack_total"], table),
               "rank_rule": rank(plain["attack_total"], table), **info}
        print(json.dumps(row), flush=True)
        if a.json:
            with a.json.open("a") as f:
                f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
