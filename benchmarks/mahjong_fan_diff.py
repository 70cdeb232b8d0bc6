"""Differential run of the fan calculator against PyMahjongGB on many random winning hands.

    .venv/bin/python benchmarks/mahjong_fan_diff.py [--hands 100000] [--seed 1]

Generates seeded random winning hands (every fan of the 81 and 明暗杠 is covered; the script
checks it), scores each with both calculators and prints every disagreement (fan list or total).
Exit status 1 on any disagreement or a fan never covered.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from qipai.games.mahjong_gb.fans import NotWinning  # noqa: E402
from qipai.games.mahjong_gb.fantable import FANS  # noqa: E402
from tests.mahjong_gen import random_hand  # noqa: E402
from tests.mahjong_peer import ours, peer_fans  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    covered: collections.Counter[int] = collections.Counter()
    bad = n = rejected_both = 0
    t = time.perf_counter()
    while n < args.hands:
        h = random_hand(rng)
        if h is None:
            continue
        try:
            p = peer_fans(h)
        except TypeError:
            try:
                ours(h)
                print("qipai scores a hand PyMahjongGB rejects:", h)
                bad += 1
            except NotWinning:
                rejected_both += 1
            continue
        n += 1
        o = ours(h)
        if o != p:
            bad += 1
            print("DIFF", h, "qipai", o, "PyMahjongGB", p)
        covered.update(o[0])
    missing = [FANS[i][0] for i in FANS if i not in covered]
    print(f"{n} winning hands in {time.perf_counter() - t:.0f} s; {bad} disagreements; "
          f"{rejected_both} non-winning candidates rejected by both")
    rare = sorted(FANS, key=covered.get)[:8]
    print("least covered fans:", ", ".join(f"{FANS[i][0]} {covered[i]}" for i in rare))
    if missing:
        print("never covered:", ", ".join(missing))
    return 1 if bad or missing else 0


if __name__ == "__main__":
    sys.exit(main())
