"""Fan calculations per CPU second: qipai against PyMahjongGB (C++), on hands never scored before.

    .venv/bin/python benchmarks/mahjong_fan.py [--hands 5000] [--rounds 5] [--seed 7]

Every hand is scored exactly once by each calculator: nothing is timed twice, so no answer
cached for a hand can serve it again. Two figures:

1. **Cold start**: a fresh Python process (qipai's caches empty: the splits of one-suit tile
   patterns, per-suit waits; the tables made when the module loads, such as the fans of every
   chow group and pung group, are made before the timing starts, as imports are not timed)
   scores ``--hands`` hands, then PyMahjongGB scores the same hands; the ratio of their rates.
   Run in a child process so nothing of this one is reused.
2. **Fresh hands, warm process**: ``--rounds`` rounds, each on a new, disjoint set of
   ``--hands`` hands (a different seed per round); in each round both calculators score the
   round's hands once, in alternating order (benchmarks/timing.py's rules: CPU time, median of
   the per-round ratios). qipai's suit-pattern caches carry over between rounds, as they do in
   a long-running server; the hands themselves are new.

Times are CPU times of the process (``time.process_time``): the machine is shared. Before each
side is timed the benchmark runs a full garbage collection (the collector stays on while
timing): otherwise the collection owed for the tens of thousands of hands the benchmark has
just made (a full one walks them all: ~70 ms on the 2-core machine) falls on whichever side
runs first, in the cold start always on qipai.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from timing import build_note  # noqa: E402  (benchmarks/timing.py)

from qipai.games.mahjong_gb.fans import calculate  # noqa: E402
from tests.mahjong_gen import winning_hands  # noqa: E402
from tests.mahjong_peer import peer_tile  # noqa: E402


def peer_args(h) -> tuple:
    """The arguments of ``MahjongGB.MahjongFanCalculator`` for the hand ``h``."""
    packs = []
    for m in h.melds:
        kind = {"chow": "CHI", "pung": "PENG", "kong": "GANG"}[m.kind]
        tile = m.tile + 1 if m.kind == "chow" else m.tile
        packs.append((kind, peer_tile(tile), 0 if m.concealed else 1))
    return (tuple(packs), tuple(peer_tile(t) for t in h.concealed), peer_tile(h.win), h.flowers,
            h.self_drawn, h.fourth, h.kong, h.last, h.seat_wind, h.round_wind)


def hand_key(h) -> tuple:
    return (h.body(), h.self_drawn, h.kong, h.last, h.fourth, h.seat_wind, h.round_wind, h.flowers)


def fresh_sets(seed: int, count: int, n: int) -> list[list]:
    """``count`` sets of ``n`` winning hands, no hand twice in any set or in two sets (set ``k``
    draws from seed ``seed + k``)."""
    seen: set[tuple] = set()
    out = []
    for k in range(count):
        hands = []
        batch = 0
        while len(hands) < n:
            for h in winning_hands(seed + k + 1000 * batch, n):
                key = hand_key(h)
                if key not in seen and len(hands) < n:
                    seen.add(key)
                    hands.append(h)
            batch += 1
        out.append(hands)
    return out


def rates(hands, args, peer_first: bool) -> tuple[float, float]:
    """(qipai, PyMahjongGB) fan calculations per CPU second, each hand scored once by each."""
    import MahjongGB

    def ours() -> float:
        gc.collect()
        t = time.process_time()
        for h in hands:
            calculate(h)
        return len(hands) / (time.process_time() - t)

    def theirs() -> float:
        peer = MahjongGB.MahjongFanCalculator
        gc.collect()
        t = time.process_time()
        for a in args:
            peer(*a)
        return len(hands) / (time.process_time() - t)

    if peer_first:
        b = theirs()
        return ours(), b
    a = ours()
    return a, theirs()


def cold(n: int, seed: int) -> None:
    """Child process: score ``n`` hands once with empty caches and print both rates."""
    hands = fresh_sets(seed, 1, n)[0]
    args = [peer_args(h) for h in hands]
    print(*rates(hands, args, peer_first=False))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=5000, help="hands per round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--cold-child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.cold_child:
        cold(args.hands, args.seed)
        return

    out = subprocess.run([sys.executable, __file__, "--cold-child", "--hands", str(args.hands),
                          "--seed", str(args.seed)], capture_output=True, text=True, check=True)
    ours, theirs = (float(x) for x in out.stdout.split())
    print(build_note())
    print(f"cold start, {args.hands} new hands (seed {args.seed}), fresh process:")
    print(f"  qipai {ours:>10,.0f}/s   PyMahjongGB {theirs:>10,.0f}/s   ratio {ours / theirs:.3f}")

    sets = fresh_sets(args.seed, args.rounds + 1, args.hands)[1:]   # set 0: the cold start's
    ratios, got = [], []
    for r, hands in enumerate(sets):
        ours, theirs = rates(hands, [peer_args(h) for h in hands], peer_first=r % 2 == 1)
        ratios.append(ours / theirs)
        got.append((ours, theirs))
    print(f"fresh hands in a warm process, {args.rounds} rounds of {args.hands} new hands each "
          f"(median):")
    print(f"  qipai {statistics.median(o for o, _ in got):>10,.0f}/s   PyMahjongGB "
          f"{statistics.median(t for _, t in got):>10,.0f}/s   ratio {statistics.median(ratios):.3f} "
          f"(rounds: {', '.join(f'{x:.3f}' for x in ratios)})")


if __name__ == "__main__":
    main()
