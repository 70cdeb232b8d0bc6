"""Shengji level 3's search settings compared like for like: every deal (seed) is played once by
the rule bot in all four seats (the baseline) and once per variant with level 3 in seat
``seed % 4`` (its partner and opponents rule bots), so the variants and the rule bot meet the
same deals from the same seat. A variant is a set of :class:`~qipai.bots.shengji.ShengjiSearcher`
attributes (``VARIANTS``). Each (seed, variant) is a JSON line in the format of
``benchmarks/bot_strength.py`` (``--markdown`` and ``--points`` read it, a variant's lines by
``--variant``) with the variant's name and the decisions where level 3 left the rule bot's
choice (phase, lead or follow, trick, the two plays).

    nice -n 19 python benchmarks/shengji_variants.py --first 7000 --games 40 \\
        --variants main margin --json FILE
    python benchmarks/shengji_variants.py --summary FILE
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import qipai  # noqa: E402
from qipai.bots import bot_levels, make_bot  # noqa: E402
from qipai.bots import shengji as sj  # noqa: E402

#: the variants: ShengjiSearcher attributes set on the registered searcher
_PLAIN = partial(sj.determinize, infer=False)
VARIANTS: dict[str, dict[str, Any]] = {
    # main before this session: the duel, samples read only voids, pairs and throws
    "main": {"determinize": _PLAIN},
    "margin": {"duel": None, "margin": 1.0, "determinize": _PLAIN},
    # samples also read the rule bot's follows to one-card leads (sj._rule_follows)
    "infer": {},
    "margin_infer": {"duel": None, "margin": 1.0},
}


class Watched:
    """Level 3's bot, timed, with each decision where it left the rule bot's choice kept."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.cpu, self.moves, self.slowest = bot, 0.0, 0, 0.0
        self.left: list[dict[str, Any]] = []

    def choose(self, state: Any, seat: int) -> Any:
        rule = sj._RULE.choose(state, seat)
        t = time.process_time()
        action = self.bot.choose(state, seat)
        took = time.process_time() - t
        self.cpu += took
        self.moves += 1
        self.slowest = max(self.slowest, took)
        if str(action) != str(rule):
            kind = state.phase if state.phase != "play" else ("follow" if state.trick else "lead")
            self.left.append({"kind": kind, "trick": len(getattr(state, "tricks", []) or []) + 1,
                              "rule": str(rule), "level": str(action)})
        return action


def _play(game: Any, bots: list[Any], seed: int) -> Any:
    state = game.new_state(seed=seed)
    while not state.is_terminal():
        seat = state.to_act[0]
        state.apply(bots[seat].choose(state, seat), seat)
    return state


def one_deal(seed: int, variants: list[str]) -> list[dict[str, Any]]:
    game = qipai.load("shengji")
    me = seed % 4
    base = _play(game, [make_bot("shengji", "rule", 100 * seed + s) for s in range(4)], seed)
    out = []
    for name in variants:
        saved = {k: getattr(sj.SEARCHER, k) for k in VARIANTS[name]}
        for k, v in VARIANTS[name].items():
            setattr(sj.SEARCHER, k, v)
        try:
            bots: list[Any] = [make_bot("shengji", "rule", 100 * seed + s) for s in range(4)]
            mine = Watched(make_bot("shengji", bot_levels("shengji")[3], seed=seed))
            bots[me] = mine
            end = _play(game, bots, seed)
        finally:
            for k, v in saved.items():
                setattr(sj.SEARCHER, k, v)
        won, base_won = me in end.result.winners, me in base.result.winners
        out.append({"game": "shengji", "level": 3, "opponent": "rule (2), three seats",
                    "playouts": 300, "games": 1, "wins": int(won), "draws": 0, "losses": int(not won),
                    "cpu": mine.cpu, "moves": mine.moves, "better": int(won and not base_won),
                    "worse": int(base_won and not won), "seed": seed,
                    "outcome": "win" if won else "loss", "reason": end.result.reason,
                    "plies": len(end.log), "points": end.result.returns[me],
                    "baseline_points": base.result.returns[me], "slowest": round(mine.slowest, 3),
                    "variant": name, "attack_total": end.result.details.get("attack_total"),
                    "baseline_attack_total": base.result.details.get("attack_total"),
                    "dealer_side": me % 2 == end.dealer % 2, "left": mine.left})
    return out


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if not n:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (c - h) / d, (c + h) / d


def summary(path: Path) -> str:
    rows = [json.loads(line) for line in path.open()]
    by: dict[str, dict[int, dict]] = defaultdict(dict)
    for r in rows:
        by[r["variant"]][r["seed"]] = r
    common = set.intersection(*(set(d) for d in by.values())) if by else set()
    lo_seed, hi_seed = min(common, default=0), max(common, default=0)
    lines = [f"{len(common)} deals every variant played (seeds {lo_seed}-{hi_seed})",
             "| variant | deals | W-L | better-worse [95% Wilson] | levels − rule bot's [95%] | CPU s/move |",
             "|---|---|---|---|---|---|"]
    for name, d in by.items():
        rs = [d[s] for s in sorted(common)]
        n = len(rs)
        w = sum(r["wins"] for r in rs)
        b, wo = sum(r["better"] for r in rs), sum(r["worse"] for r in rs)
        lo, hi = wilson(b, b + wo)
        diffs = [r["points"] - r["baseline_points"] for r in rs]
        m = sum(diffs) / n if n else 0.0
        sd = math.sqrt(sum((x - m) ** 2 for x in diffs) / (n - 1)) if n > 1 else 0.0
        se = sd / math.sqrt(n) if n else 0.0
        cpu = sum(r["cpu"] for r in rs) / max(1, sum(r["moves"] for r in rs))
        lines.append(f"| {name} | {n} | {w}-{n - w} | {b}-{wo}: {100 * b / max(1, b + wo):.0f}% "
                     f"[{100 * lo:.0f}%, {100 * hi:.0f}%] | {m:+.2f} "
                     f"[{m - 1.96 * se:+.2f}, {m + 1.96 * se:+.2f}] "
                     f"| {cpu:.2f} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--first", type=int, default=7000)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--variants", nargs="*", default=list(VARIANTS))
    ap.add_argument("--json", type=Path)
    ap.add_argument("--minutes", type=float)
    ap.add_argument("--summary", type=Path)
    args = ap.parse_args()
    if args.summary:
        print(summary(args.summary))
        return
    stop = None if args.minutes is None else time.monotonic() + 60 * args.minutes
    for seed in range(args.first, args.first + args.games):
        if stop is not None and time.monotonic() > stop:
            break
        for r in one_deal(seed, args.variants):
            if args.json:
                with args.json.open("a") as f:
                    f.write(json.dumps(r) + "\n")
            print(f"seed {seed} {r['variant']}: {r['outcome']} (baseline "
                  f"{'win' if r['better'] == 0 and r['worse'] == 0 and r['wins'] or r['worse'] else 'loss'}) "
                  f"{r['points'] - r['baseline_points']:+} left {len(r['left'])} cpu {r['cpu']:.1f}",
                  file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
