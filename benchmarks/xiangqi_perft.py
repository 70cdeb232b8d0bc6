"""Xiangqi perft speed: qipai against OpenSpiel (C++), Fairy-Stockfish (pyffish) and the
pure-Python ``xiangqi`` package, in one run.

    .venv/bin/python benchmarks/xiangqi_perft.py [--quick] [--rounds R]

Every engine counts the same way: the last ply in bulk (the number of legal moves of each
position one ply before the horizon), the usual perft technique. Nodes/s is leaf nodes per
CPU second of this process (``time.process_time``: the machine is shared); each position is
counted ``--rounds`` times by every engine, the engines interleaved in an order that rotates
from round to round, and the median rate is kept. OpenSpiel has no FEN input, so every
position is reached from the start by playing its ICCS move list (OpenSpiel's action strings
are mapped to ICCS). Counts that differ from ours are flagged (the ``xiangqi`` package lets a
piece leave the file between the two kings, so its counts are expected to differ).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time

from qipai.games.xiangqi import START_FEN, XiangqiGame
from qipai.games.xiangqi.board import legal_moves, perft_board
from qipai.games.xiangqi.fen import parse_fen

POSITIONS = {
    "start": [],
    "middlegame 1 (central cannon vs screen horses)":
        "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 c6c5 c3c4 c5c4 h0h6 b7a7 g3g4 a9b9 b2b6 c4c3".split(),
    "middlegame 2 (a seeded random game, 30 plies)":
        ("b2e2 i9i8 a0a2 h9i7 g0i2 b7b4 e2d2 b4b1 i3i4 h7h0 f0e1 i8e8 i0h0 b1d1 i4i5 c6c5 i5i6 g6g5 "
         "a2c2 a6a5 d2d4 e8d8 d4e4 d9e8 e4e8 d8c8 h2h1 d1c1 c2c1 c9a7").split(),
}

# depth per engine: (start, middlegames); chosen so the whole run stays well under 3 minutes
DEPTHS = {"qipai": (4, 4), "OpenSpiel": (4, 4), "pyffish": (3, 3), "xiangqi pkg": (2, 2)}
QUICK = {"qipai": (3, 3), "OpenSpiel": (3, 3), "pyffish": (2, 2), "xiangqi pkg": (2, 1)}


def fen_after(moves: list[str]) -> str:
    st = XiangqiGame(repetition_rule="none", no_capture_plies=0).new_state()
    for m in moves:
        st.apply(m)
    return st.fen()


# ----- engines: each returns (leaf count, seconds) --------------------------------------

def run_qipai(moves, depth):
    pos = parse_fen(fen_after(moves))
    t = time.process_time()
    n = perft_board(pos.board, pos.turn, depth)
    return n, time.process_time() - t


def run_qipai_full(moves, depth):
    """Without bulk counting: every leaf is made and unmade (for reference)."""
    pos = parse_fen(fen_after(moves))
    board = pos.board
    kings = [board.index(1), board.index(9)]

    def walk(side, d):
        if d == 0:
            return 1
        total = 0
        ksq = kings[side]
        for m in legal_moves(board, side, ksq):
            f, t = m >> 7, m & 127
            cap = board[t]
            board[t], board[f] = board[f], 0
            if f == ksq:
                kings[side] = t
            total += walk(side ^ 1, d - 1)
            board[f], board[t] = board[t], cap
            kings[side] = ksq
        return total

    t = time.process_time()
    n = walk(pos.turn, depth)
    return n, time.process_time() - t


def _iccs_of_openspiel(text: str) -> str:
    m = re.fullmatch(r"\w\((\d),(\d)\)-\((\d),(\d)\)", text)
    r1, c1, r2, c2 = (int(x) for x in m.groups())
    return f"{'abcdefghi'[c1]}{9 - r1}{'abcdefghi'[c2]}{9 - r2}"


def run_openspiel(moves, depth):
    import pyspiel

    state = pyspiel.load_game("xiangqi").new_initial_state()
    for mv in moves:
        by_text = {_iccs_of_openspiel(state.action_to_string(a)): a for a in state.legal_actions()}
        state.apply_action(by_text[mv])

    def walk(s, d):
        acts = s.legal_actions()
        if d == 1:
            return len(acts)
        return sum(walk(s.child(a), d - 1) for a in acts)

    t = time.process_time()
    n = walk(state, depth)
    return n, time.process_time() - t


def _uci(iccs: str) -> str:
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"


def run_pyffish(moves, depth):
    import pyffish

    start = START_FEN

    def walk(hist, d):
        ms = pyffish.legal_moves("xiangqi", start, hist)
        if d == 1:
            return len(ms)
        return sum(walk(hist + [m], d - 1) for m in ms)

    t = time.process_time()
    n = walk([_uci(m) for m in moves], depth)
    return n, time.process_time() - t


def run_xiangqi_pkg(moves, depth):
    from xiangqi.board import Board
    from xiangqi.constants import Camp

    fen = fen_after(moves)
    board = Board(fen)
    camp = Camp.RED if fen.split()[1] == "w" else Camp.BLACK

    def walk(c, d):
        acts = board.get_final_valid_actions(c)
        if d == 1:
            return len(acts)
        total = 0
        for a in acts:
            ok, bak, captured = board.virtual_move(a["piece"], a["dst"])
            try:
                total += walk(c.opponent(), d - 1)
            finally:
                board.undo_virtual_move(a["piece"], bak, captured)
        return total

    t = time.process_time()
    n = walk(camp, depth)
    return n, time.process_time() - t


ENGINES = {"qipai": run_qipai, "OpenSpiel": run_openspiel, "pyffish": run_pyffish,
           "xiangqi pkg": run_xiangqi_pkg}


def interleaved(moves, depths, rounds: int) -> dict:
    """engine -> (leaf count, median CPU seconds over ``rounds`` counts), or the ImportError of
    an engine that is not installed; the engines run interleaved, in a rotating order."""
    names = list(ENGINES)
    times: dict[str, list[float]] = {name: [] for name in names}
    counts: dict = {}
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            if isinstance(counts.get(name), ImportError):
                continue
            depth = depths[name][0 if not moves else 1]
            try:
                n, dt = ENGINES[name](moves, depth)
            except ImportError as e:
                counts[name] = e
                continue
            counts[name] = n
            times[name].append(dt)
    return {name: counts[name] if isinstance(counts[name], ImportError)
            else (counts[name], statistics.median(times[name])) for name in names}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller depths (a few seconds)")
    ap.add_argument("--rounds", type=int, default=3, help="counts per engine and position")
    args = ap.parse_args(argv)
    depths = QUICK if args.quick else DEPTHS
    rates: dict[str, list[float]] = {name: [] for name in ENGINES}
    for label, moves in POSITIONS.items():
        print(f"\n== {label}: {fen_after(moves)}")
        ours: dict[int, int] = {}
        timed = interleaved(moves, depths, args.rounds)
        for name in ENGINES:
            depth = depths[name][0 if not moves else 1]
            if isinstance(timed[name], ImportError):
                print(f"  {name:12s} not installed ({timed[name]})")
                continue
            n, dt = timed[name]
            if name == "qipai":
                ours[depth] = n
            elif depth not in ours:
                ours[depth] = run_qipai(moves, depth)[0]
            flag = "" if n == ours[depth] else f"  (qipai counts {ours[depth]})"
            rate = n / dt if dt > 0 else float("inf")
            rates[name].append(rate)
            print(f"  {name:12s} depth {depth}: {n:>9} nodes  {dt:7.2f} s  {rate:>12,.0f} nodes/s{flag}")
        if not moves:
            depth = depths["qipai"][0]
            n, dt = run_qipai_full(moves, depth)
            print(f"  {'qipai, no bulk counting':12s} depth {depth}: {n} nodes  {dt:.2f} s  "
                  f"{n / dt:,.0f} nodes/s")
    print("\n== ratios (qipai nodes/s divided by theirs; mean over the positions)")
    ours_mean = sum(rates["qipai"]) / len(rates["qipai"])
    for name, rs in rates.items():
        if name == "qipai" or not rs:
            continue
        theirs = sum(rs) / len(rs)
        print(f"  qipai / {name:12s} = {ours_mean / theirs:8.2f}   "
              f"({ours_mean:,.0f} vs {theirs:,.0f} nodes/s)")
    target = rates["OpenSpiel"]
    if target:
        ok = ours_mean >= (sum(target) / len(target)) / 20
        print(f"\n  target (at least 1/20 of OpenSpiel): {'met' if ok else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
