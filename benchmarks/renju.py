"""Forbidden-point checks per second: qipai against the ``renju`` package (PyPI), same run.

    .venv/bin/python benchmarks/renju.py [--positions 100] [--seed 3]

Both test every empty point of the same random positions (the generator of
``tests/test_gomoku_differential.py``) for Black: qipai with ``Board.forbidden(point)``, the
peer with ``renju.check_forbid.get_foul_type(grid, x, y)`` (its documented call), and also
with one ``ForbidChecker`` reused for all points of a position (its fastest use). qipai's
line-shape cache is emptied before its run, so the figure includes filling it; a second qipai
pass shows the warm rate. CPU time of this process; the four runs are interleaved in rounds
(the order rotating) and the median of each is kept.
The verdicts are compared too (any difference is reported).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# this folder holds renju.py, which would hide the ``renju`` package: search the repo instead
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

from renju.check_forbid import ForbidChecker, get_foul_type  # noqa: E402

from benchmarks.timing import once  # noqa: E402
from qipai.games.gomoku.board import line_shape  # noqa: E402
from tests.test_gomoku_differential import KINDS, random_position  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    positions = [random_position(rng) for _ in range(args.positions)]
    jobs = [(board, grid, board.empties()) for board, grid in positions]
    n = sum(len(e) for _, _, e in jobs)

    def peer_per_point():
        return [[KINDS[get_foul_type(grid, p % 15, p // 15)] for p in empties]
                for _, grid, empties in jobs]

    def peer_reused():
        for _, grid, empties in jobs:
            checker = ForbidChecker(grid, 7, 7)      # one checker per position (see renju_differential)
            for p in empties:
                checker.foulr(p % 15, p // 15, 0)

    def ours_cold():
        line_shape.cache_clear()
        return [[board.forbidden(p) for p in empties] for board, _, empties in jobs]

    def ours_warm():
        for board, _, empties in jobs:
            for p in empties:
                board.forbidden(p)

    sides = {"peer": peer_per_point, "reuse": peer_reused, "cold": ours_cold, "warm": ours_warm}
    names = list(sides)
    times: dict[str, list[float]] = {k: [] for k in names}
    for r in range(args.rounds):        # interleaved, the order rotating (benchmarks/timing.py)
        for name in names[r % len(names):] + names[:r % len(names)]:
            if name == "warm" and not times["cold"]:
                ours_cold()             # the warm pass needs a filled cache
            times[name].append(once(sides[name]))
    t_peer, t_reuse, t_cold, t_warm = (statistics.median(times[k]) for k in names)

    ours, peer = ours_cold(), peer_per_point()
    differ = sum(a != b for x, y in zip(ours, peer) for a, b in zip(x, y))
    forbidden = sum(v is not None for x in ours for v in x)
    print(f"{args.positions} positions, {n} empty points ({forbidden} forbidden), "
          f"{differ} verdicts differ; CPU time, median of {args.rounds} interleaved rounds")
    print(f"renju package, get_foul_type per point   {n / t_peer:10,.0f} checks/s")
    print(f"renju package, one checker per position  {n / t_reuse:10,.0f} checks/s")
    for label, tq in (("qipai, cache emptied first", t_cold), ("qipai, warm cache", t_warm)):
        print(f"{label:<40} {n / tq:10,.0f} checks/s   ratio {t_peer / tq:5.1f}x "
              f"(vs one checker per position {t_reuse / tq:5.1f}x)")


if __name__ == "__main__":
    main()
