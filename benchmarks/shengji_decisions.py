"""Shengji level 3's search settings compared decision by decision on the true deal. Hands of
the rule bot in every seat (seeds ``--first`` on); at every ``--every``-th play turn (and each
bury) the seat to act searches its view once per variant (``shengji_variants.VARIANTS``,
level 3's 300 playouts), and every play chosen (and the rule bot's) is valued on the TRUE deal:
played, then the hand played out by the rule bot in every seat (the other seats are rule
bots: the outcome is what would happen); valued by the hand's score as the search values a
playout, and by whether the seat's team wins the hand. A variant's mean true value over the
same positions, against the rule bot's play's, says what its choices gain (a whole hand's win
or loss hides most of them).

    nice -n 19 python benchmarks/shengji_decisions.py --first 7700 --games 10 --every 3 \\
        --variants main infer --json FILE
    python benchmarks/shengji_decisions.py --summary FILE
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from shengji_variants import VARIANTS  # noqa: E402

import qipai  # noqa: E402
from qipai.bots import make_bot  # noqa: E402
from qipai.bots import shengji as sj  # noqa: E402
from qipai.bots.mcts import Budget  # noqa: E402


def true_value(state: Any, action: Any, seat: int) -> tuple[float, bool]:
    """``seat``'s value (the search's) and whether its team wins, ``action`` played in the true
    ``state`` and the hand played out by the rule bot (deterministic)."""
    s = state.clone()
    s.apply(action, seat)
    rule = sj.ShengjiRuleBot()
    while not s.is_terminal():
        who = s.to_act[0]
        s.apply(rule.choose(s, who), who)
    return sj.SEARCHER.terminal_values(s)[seat], seat in s.result.winners


def run(first: int, games: int, every: int, variants: list[str], path: Path | None,
        stop: float | None) -> None:
    game = qipai.load("shengji")
    for seed in range(first, first + games):
        state = game.new_state(seed=seed)
        bots = [make_bot("shengji", "rule", s) for s in range(4)]
        turn = 0
        while not state.is_terminal():
            if stop is not None and time.monotonic() > stop:
                return
            seat = state.to_act[0]
            rule = bots[seat].choose(state, seat)
            if state.phase == "bury" or (state.phase == "play" and turn % every == 0):
                row: dict[str, Any] = {"seed": seed, "turn": turn, "seat": seat, "phase": state.phase,
                                       "lead": not state.trick, "rule": str(rule)}
                row["rule_value"], row["rule_win"] = true_value(state, rule, seat)
                resolve = sj.SEARCHER.resolver(state, seat)
                for name in variants:
                    saved = {k: getattr(sj.SEARCHER, k) for k in VARIANTS[name]}
                    for k, v in VARIANTS[name].items():
                        setattr(sj.SEARCHER, k, v)
                    try:
                        t = time.process_time()
                        roots = sj.SEARCHER.root_states(game, sj.SEARCHER.inputs(state, seat))
                        rng = random.Random(seed * 1000 + turn)
                        text = sj.SEARCHER.search(roots, seat, Budget(300), rng).action
                        cpu = time.process_time() - t
                    finally:
                        for k, v in saved.items():
                            setattr(sj.SEARCHER, k, v)
                    action = resolve(text) if text != str(rule) else rule
                    value, win = true_value(state, action, seat) if text != str(rule) else \
                        (row["rule_value"], row["rule_win"])
                    row[name] = {"play": text, "value": value, "win": win, "cpu": round(cpu, 3)}
                if path:
                    with path.open("a") as f:
                        f.write(json.dumps(row) + "\n")
                gains = {n: (row[n]["play"] != row["rule"], round(row[n]["value"] - row["rule_value"], 3))
                         for n in variants}
                print(seed, turn, state.phase, gains, file=sys.stderr, flush=True)
            turn += state.phase == "play"
            state.apply(rule, seat)


def summary(path: Path) -> str:
    rows = [json.loads(line) for line in path.open()]
    names = [k for k in rows[0] if isinstance(rows[0][k], dict)] if rows else []
    rows = [r for r in rows if all(n in r for n in names)]
    out = [f"{len(rows)} decisions (seeds {min(r['seed'] for r in rows)}-{max(r['seed'] for r in rows)})",
           "| variant | left the rule bot's play | true value − the rule bot's play's, mean [95%] "
           "| better-worse on the true deal | hand won where the rule bot's play lost - the reverse "
           f"| − {names[0] if names else ''}'s, mean [95%] | CPU s/decision |",
           "|---|---|---|---|---|---|---|"]
    for n in names:
        d = [r[n]["value"] - r["rule_value"] for r in rows]
        m = sum(d) / len(d)
        sd = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1)) if len(d) > 1 else 0.0
        se = sd / math.sqrt(len(d))
        left = sum(r[n]["play"] != r["rule"] for r in rows)
        better = sum(x > 1e-9 for x in d)
        worse = sum(x < -1e-9 for x in d)
        won = sum(r[n]["win"] and not r["rule_win"] for r in rows)
        lost = sum(r["rule_win"] and not r[n]["win"] for r in rows)
        cpu = sum(r[n]["cpu"] for r in rows) / len(rows)
        p = [r[n]["value"] - r[names[0]]["value"] for r in rows]
        pm = sum(p) / len(p)
        pse = math.sqrt(sum((x - pm) ** 2 for x in p) / (len(p) - 1) / len(p)) if len(p) > 1 else 0.0
        out.append(f"| {n} | {left} | {m:+.4f} [{m - 1.96 * se:+.4f}, {m + 1.96 * se:+.4f}] "
                   f"| {better}-{worse} | {won}-{lost} "
                   f"| {pm:+.4f} [{pm - 1.96 * pse:+.4f}, {pm + 1.96 * pse:+.4f}] | {cpu:.2f} |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--first", type=int, default=7700)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--variants", nargs="*", default=list(VARIANTS))
    ap.add_argument("--json", type=Path)
    ap.add_argument("--minutes", type=float)
    ap.add_argument("--summary", type=Path)
    args = ap.parse_args()
    if args.summary:
        print(summary(args.summary))
        return
    stop = None if args.minutes is None else time.monotonic() + 60 * args.minutes
    run(args.first, args.games, args.every, args.variants, args.json, stop)


if __name__ == "__main__":
    main()
