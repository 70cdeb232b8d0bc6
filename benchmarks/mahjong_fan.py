"""Fan calculations per second: qipai vs PyMahjongGB on the same 10,000 winning hands.

    .venv/bin/python benchmarks/mahjong_fan.py [--hands 10000] [--seed 7]

Both calculators score every hand once as a warm-up, then the timed pass; the best of three
timed passes is reported for each. Passes are timed in CPU time of this process
(``time.process_time``) for both, so other load on the machine does not move the ratio.
qipai caches the splits of one-suit tile patterns (a suit's nine counts) and per-suit waits,
which the warm-up fills; PyMahjongGB has no cache to fill.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from qipai.games.mahjong_gb.fans import calculate  # noqa: E402
from tests.mahjong_gen import winning_hands  # noqa: E402
from tests.mahjong_peer import peer_tile  # noqa: E402


def _peer_args(h):
    packs = []
    for m in h.melds:
        kind = {"chow": "CHI", "pung": "PENG", "kong": "GANG"}[m.kind]
        tile = m.tile + 1 if m.kind == "chow" else m.tile
        packs.append((kind, peer_tile(tile), 0 if m.concealed else 1))
    return (tuple(packs), tuple(peer_tile(t) for t in h.concealed), peer_tile(h.win), h.flowers,
            h.self_drawn, h.fourth, h.kong, h.last, h.seat_wind, h.round_wind)


def _rate(fn, items, rounds=3) -> float:
    for x in items:
        fn(x)
    best = float("inf")
    for _ in range(rounds):
        t = time.process_time()
        for x in items:
            fn(x)
        best = min(best, time.process_time() - t)
    return len(items) / best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    import MahjongGB

    hands = winning_hands(args.seed, args.hands)
    peer_args = [_peer_args(h) for h in hands]
    ours = _rate(calculate, hands)
    peer = _rate(lambda a: MahjongGB.MahjongFanCalculator(*a), peer_args)
    print(f"hands: {len(hands)} (seed {args.seed})")
    print(f"qipai       {ours:>12,.0f} fan calculations/s")
    print(f"PyMahjongGB {peer:>12,.0f} fan calculations/s")
    print(f"ratio qipai/PyMahjongGB = {ours / peer:.3f} (target >= 0.1)")


if __name__ == "__main__":
    main()
