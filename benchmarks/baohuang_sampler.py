"""The 保皇 level-3 sampler's full sweep: every seat's view during play of rule-bot deals gets a
determinization that shows the seat the same view (``tests/baohuang_helpers.sampler_sweep``, the
check of ``tests/test_baohuang_sampler.py``, which runs it on a small sample). Prints the counts
of each case, the views that failed (the first failure's message) and the time.

    nice python benchmarks/baohuang_sampler.py [--matches 20] [--every 3] [--sdbh 100]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.baohuang_helpers import sampler_sweep  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=20, help="保皇 matches (two deals each), seeds 0..N-1")
    ap.add_argument("--every", type=int, default=3, help="保皇: the views of every N-th turn of play")
    ap.add_argument("--sdbh", type=int, default=100, help="山东保皇 deals (every turn), seeds 0..N-1")
    args = ap.parse_args()
    t0, c0 = time.perf_counter(), time.process_time()
    failures = 0
    counts = None
    try:
        counts = sampler_sweep((({}, range(args.matches), args.every),
                                ({"ruleset": "sdbh.provisional"}, range(args.sdbh), 1)))
    except AssertionError as e:      # the sweep stops at the first view without a sample
        failures = 1
        print("failed:", e)
    print(f"matches {args.matches} (every {args.every}), sdbh deals {args.sdbh}: {dict(counts or {})}, "
          f"failures {failures}, wall {time.perf_counter() - t0:.1f} s, "
          f"cpu {time.process_time() - c0:.1f} s")
    return failures


if __name__ == "__main__":
    sys.exit(main())
