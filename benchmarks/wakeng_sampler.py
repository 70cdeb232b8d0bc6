"""The 挖坑 sampler's full sweep: every seat's view at every turn of play of rule-bot deals (a
move in five at random) gives a state at the first draw that shows the seat the same view
(``tests/wakeng_helpers.sampler_sweep``, the check of ``tests/test_wakeng_sampler.py``, which
runs it on the deals whose pit holds the 5H and a few others). Prints the counts, the deals
that failed (seed and seat of the first view without a sample) and the time, for the pit hidden
and shown.

    nice python benchmarks/wakeng_sampler.py [--deals 300] [--shown 100]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.wakeng_helpers import sampler_sweep  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=300, help="deals with the pit hidden, seeds 0..N-1")
    ap.add_argument("--shown", type=int, default=100, help="deals with the pit shown, seeds 0..N-1")
    args = ap.parse_args()
    failures = 0
    for reveal_pit, deals in ((False, args.deals), (True, args.shown)):
        t0, c0 = time.perf_counter(), time.process_time()
        counts: Counter = Counter()
        failed = []
        for seed in range(deals):        # a deal's sweep stops at its first view without a sample
            try:
                counts += sampler_sweep(reveal_pit, [seed])
            except AssertionError as e:
                failed.append(str(e))
        failures += len(failed)
        print(f"reveal_pit={reveal_pit}, deals {deals}: {dict(counts)} (the deals that failed not "
              f"counted), failed deals {len(failed)} (seed, seat): {', '.join(failed)}, "
              f"wall {time.perf_counter() - t0:.1f} s, cpu {time.process_time() - c0:.1f} s", flush=True)
    print("failures", failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
