"""CPU time of one 挖坑 determinization (``qipai.bots.wakeng.determinize``) against the code of
another tree (``--before``, e.g. a ``git archive`` of an earlier commit), interleaved in one
process: every seat's view at every play turn of rule-bot deals, one draw each, several rounds,
medians; and how many views' single draw raised (the search then draws again, up to 60 times).

    git archive f9addb0 | tar -x -C /tmp/before
    nice python benchmarks/wakeng_determinize.py --before /tmp/before --rounds 5
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import qipai  # noqa: E402
import qipai.bots.wakeng as after  # noqa: E402
from qipai.bots import make_bot  # noqa: E402


def views(deals: int) -> list[dict]:
    game = qipai.load("wakeng")
    out = []
    for seed in range(deals):
        state = game.new_state(seed=seed)
        rule = [make_bot("wakeng", "rule", seed=s) for s in range(3)]
        while not state.is_terminal():
            seat = state.to_act[0]
            if state.phase == "play":
                out += [state.view(me) for me in range(3)]
            state.apply(rule[seat].choose(state, seat), seat)
    return out


def run(determinize, game, vs: list[dict]) -> tuple[float, int]:
    """Microseconds of CPU a draw, and the draws that raised."""
    t, failed = time.process_time(), 0
    for i, v in enumerate(vs):
        try:
            determinize(game, v, random.Random(i))
        except ValueError:
            failed += 1
    return (time.process_time() - t) / len(vs) * 1e6, failed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, required=True, help="a tree holding qipai/ before")
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    spec = importlib.util.spec_from_file_location("wakeng_before", args.before / "qipai/bots/wakeng.py")
    before = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(before)
    game = qipai.load("wakeng")
    vs = views(args.deals)
    res: dict[str, list[tuple[float, int]]] = {"before": [], "after": []}
    for _ in range(args.rounds):
        for name, module in (("before", before), ("after", after)):
            res[name].append(run(module.determinize, game, vs))
    print(f"{len(vs)} views of {args.deals} rule-bot deals, {args.rounds} rounds")
    for name, rows in res.items():
        print(f"{name}: {statistics.median(r[0] for r in rows):.1f} us a draw (median), "
              f"{rows[0][1]} draws raised")


if __name__ == "__main__":
    main()
