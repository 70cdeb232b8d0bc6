"""Full differential run for xiangqi: every position of every real record, and many random
playouts, against Fairy-Stockfish (pyffish) and OpenSpiel: the checks of
``tests/test_xiangqi_differential.py`` (``tests/xiangqi_peers.py``), which runs them on a sample.
Prints each check's count, and the first mismatch of a check that fails.

    python benchmarks/xiangqi_differential.py [--games N]

Needs ../shared/data/xiangqi beside the clone. Takes a few minutes (pyffish costs ~1.4-2.6 ms a call).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.xiangqi_peers import (  # noqa: E402
    SHARED,
    check_ffish,
    check_openspiel_playouts,
    check_openspiel_records,
    random_games,
    record_positions,
)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300, help="random playouts per peer")
    args = ap.parse_args()
    folder = SHARED / "xiangqi"
    checks = {
        "pyffish, every real record's positions": lambda: check_ffish(record_positions(folder)),
        "OpenSpiel, every real record's positions": lambda: check_openspiel_records(folder),
        f"pyffish, {args.games} random playouts' positions": lambda: check_ffish(
            random_games(args.games, seed=2026, no_capture_plies=0, repetition_rule="none")),
        f"OpenSpiel, {args.games} random playouts": lambda: dict(check_openspiel_playouts(args.games)),
    }
    failures = 0
    t0 = time.perf_counter()
    for name, check in checks.items():
        t, c = time.perf_counter(), time.process_time()
        try:
            got = check()
        except AssertionError as e:          # a check stops at its first mismatch
            failures += 1
            got = f"MISMATCH {e}"
        print(f"{name}: {got} ({time.perf_counter() - t:.0f} s, cpu {time.process_time() - c:.0f} s)",
              flush=True)
    print(f"{failures} failed checks, {time.perf_counter() - t0:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
