"""Go speed and the dead-stone proposer, in one run.

    .venv/bin/python benchmarks/go.py [--seconds S] [--diff N] [--no-proposer]

1. Random playouts to the end on 19x19 and 9x9, games/s and moves/s, for
   * qipai through its fast path (``GoState.play_hash`` + ``play_point``: a move drawn uniformly
     among the legal plays and the pass, by rejection sampling over the empty points),
   * qipai through the public contract (``legal_actions()`` then ``apply``),
   * OpenSpiel's ``go`` through pyspiel (``legal_actions()`` then ``apply_action``),
   with the ratio qipai / OpenSpiel. Both sides play to two passes or OpenSpiel's length guard
   (2 x points); qipai uses positional superko (OpenSpiel simple ko, ending on a repetition).
2. ``--diff N``: N more random 19x19 games in lockstep with OpenSpiel (legal-move sets at every
   position and the final score), beyond the 9x9 games of the unit test.
3. The dead-stone proposer on the 150 counted Chinese-rules games of ../shared/data/go
   (``pro_aeb/cn_counted``): replay each, propose dead stones for the final position, count by
   area with the record's komi, and report how many recorded results are reproduced exactly.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import qipai  # noqa: E402
from qipai.games.go.coords import PASS  # noqa: E402

SHARED = ROOT.parent / "shared" / "data" / "go"


def qipai_fast_game(game, rng: random.Random) -> int:
    state = game.new_state()
    board = state.board
    while not state.is_terminal():
        emp = board.empties
        k = len(emp)
        c = state.to_move
        while True:
            r = rng.randrange(k + 1)
            if r == k:
                state.play_point(PASS)
                break
            p = emp[r]
            if state.play_hash(p, c) != -1:
                state.play_point(p)
                break
            k -= 1
            q = emp[k]
            emp[r], emp[k] = q, p
            board.epos[q] = r
            board.epos[p] = k
    return len(state.moves)


def qipai_api_game(game, rng: random.Random) -> int:
    state = game.new_state()
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return len(state.moves)


def openspiel_game(game, rng: random.Random) -> int:
    state = game.new_initial_state()
    n = 0
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        n += 1
    return n


def rate(fn, game, seconds: float) -> tuple[float, float, int]:
    rng = random.Random(1)
    games = moves = 0
    t0 = time.perf_counter()
    while True:
        moves += fn(game, rng)
        games += 1
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return games / dt, moves / dt, games


def speed(seconds: float) -> None:
    import pyspiel

    print("Random playouts to the end (games/s, moves/s)")
    for size in (19, 9):
        ours = qipai.load("go", board_size=size, end_procedure="all_alive",
                          max_moves=2 * size * size, scoring="free_komi", komi=7.5)
        theirs = pyspiel.load_game("go", {"board_size": size, "komi": 7.5})
        fast = rate(qipai_fast_game, ours, seconds)
        api = rate(qipai_api_game, ours, seconds)
        osp = rate(openspiel_game, theirs, seconds)
        print(f"  {size}x{size}  qipai fast path {fast[0]:8.1f} games/s {fast[1]:9.0f} moves/s  "
              f"({fast[2]} games)")
        print(f"  {size}x{size}  qipai contract  {api[0]:8.1f} games/s {api[1]:9.0f} moves/s  "
              f"({api[2]} games)")
        print(f"  {size}x{size}  OpenSpiel       {osp[0]:8.1f} games/s {osp[1]:9.0f} moves/s  "
              f"({osp[2]} games)")
        print(f"  {size}x{size}  ratio qipai/OpenSpiel: fast path {fast[0] / osp[0]:.3f}, "
              f"contract {api[0] / osp[0]:.3f} (games/s)")


def differential(n: int) -> None:
    from tests.go_peers import lockstep_game

    t0 = time.perf_counter()
    superko = 0
    for seed in range(n):
        superko += lockstep_game(19, 50_000 + seed)["superko"]
    print(f"Differential 19x19: {n} games identical to OpenSpiel ({superko} ended by a "
          f"repetition), {time.perf_counter() - t0:.1f} s")


def proposer() -> None:
    from qipai.core.formats import read_records
    from qipai.core.record import replay
    from qipai.games.go.life import propose_dead

    folder = SHARED / "pro_aeb" / "cn_counted"
    files = sorted(folder.glob("*.sgf"))
    if not files:
        print(f"Proposer: {folder} not found")
        return
    same = off_by_one = wrong_winner = 0
    t0 = time.perf_counter()
    for f in files:
        rec = read_records(f.read_bytes(), str(f))[1][0]
        state = replay(rec, source=str(f), check_result=False)
        dead = propose_dead(state.board)
        b, w = state.board.area(dead)
        margin = (b - w) - state.game.komi_points()
        text = "0" if margin == 0 else f"{'B' if margin > 0 else 'W'}+{abs(margin):g}"
        want = rec.result["text"]
        if text == want:
            same += 1
        else:
            want_margin = 0.0 if want == "0" else float(want[2:]) * (1 if want[0] == "B" else -1)
            if abs(want_margin - margin) <= 2:
                off_by_one += 1
            if (want_margin > 0) != (margin > 0):
                wrong_winner += 1
    dt = time.perf_counter() - t0
    print(f"Dead-stone proposer on {len(files)} counted Chinese-rules games: {same} recorded "
          f"results reproduced exactly, {off_by_one} more within 2 points, {wrong_winner} with "
          f"the wrong winner ({dt:.1f} s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="time per engine and size")
    ap.add_argument("--diff", type=int, default=0, help="extra 19x19 lockstep games")
    ap.add_argument("--no-proposer", action="store_true")
    args = ap.parse_args()
    speed(args.seconds)
    if args.diff:
        differential(args.diff)
    if not args.no_proposer:
        proposer()


if __name__ == "__main__":
    main()
