"""Full differential run for xiangqi: every position of every real record, and many random
playouts, against Fairy-Stockfish (pyffish) and OpenSpiel. Prints counts and any mismatch.

    python benchmarks/xiangqi_differential.py [--games N]

Needs ../shared/data/xiangqi beside the clone. Takes a few minutes (pyffish costs ~1.4 ms a call).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pyspiel  # noqa: E402

import qipai  # noqa: E402
from qipai.core.formats import read_records  # noqa: E402
from tests.xiangqi_peers import SHARED, ffish_moves, openspiel_moves  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300, help="random playouts per peer")
    args = ap.parse_args()
    game = qipai.load("xiangqi", repetition_rule="none", no_capture_plies=0)
    os_game = pyspiel.load_game("xiangqi")
    mismatches = 0
    t0 = time.perf_counter()

    def compare(st, os_st=None) -> None:
        nonlocal mismatches
        ours = {str(m) for m in st.legal_moves()}
        peers = {"pyffish": ffish_moves(st.fen())}
        if os_st is not None:
            peers["OpenSpiel"] = set(openspiel_moves(os_st))
        for name, theirs in peers.items():
            if ours != theirs:
                mismatches += 1
                print(f"MISMATCH {name} {st.fen()}: only ours {sorted(ours - theirs)}, "
                      f"only {name} {sorted(theirs - ours)}")

    rec_positions = 0
    files = sorted((SHARED / "xiangqi").rglob("*.pgn"))
    for path in files:
        for rec in read_records(path.read_bytes(), str(path))[1]:
            st, os_st = game.new_state(position=rec.position), os_game.new_initial_state()
            for text in rec.actions:
                compare(st, os_st)
                st.apply(text)
                os_st.apply_action(openspiel_moves(os_st)[st.log[-1]])
                rec_positions += 1
    print(f"real records: {len(files)} games, {rec_positions} positions")

    rng = random.Random(1)
    rnd_positions = 0
    for _ in range(args.games):
        st, os_st = game.new_state(), os_game.new_initial_state()
        while not st.is_terminal() and not os_st.is_terminal():
            compare(st, os_st)
            move = rng.choice(st.legal_moves())
            st.apply(move)
            os_st.apply_action(openspiel_moves(os_st)[str(move)])
            rnd_positions += 1
    print(f"random playouts: {args.games} games, {rnd_positions} positions")
    print(f"{rec_positions + rnd_positions} positions, {mismatches} mismatches, "
          f"{time.perf_counter() - t0:.0f} s")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
