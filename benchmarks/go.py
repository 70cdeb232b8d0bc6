"""Go speed and the dead-stone proposer, in one run.

    .venv/bin/python benchmarks/go.py [--seconds S] [--rounds R] [--diff N] [--no-proposer]

1. Random playouts to the end on 19x19 and 9x9, moves per CPU second, for
   * qipai through the public contract (``legal_actions()``, a uniform choice among them and
     the pass, ``apply``),
   * qipai's fast path (``legal_points()``: the same full legal list, as point numbers, then
     ``play_point``): the same work without action objects,
   * OpenSpiel's ``go`` through pyspiel (``legal_actions()`` then ``apply_action``),
   interleaved in rounds (benchmarks/timing.py), with the median ratio qipai / OpenSpiel.
   Both sides compute the full legal list at every move and play to two passes or OpenSpiel's
   length guard (2 x points). qipai checks positional superko (every earlier whole board is
   forbidden); OpenSpiel forbids the simple ko retake and ends the game as a draw when a play
   repeats an earlier board, so its games are a little shorter: the ratio is taken on moves
   per second, and games per second are shown beside it.
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
sys.path.insert(0, str(ROOT / "benchmarks"))

from timing import compare  # noqa: E402  (benchmarks/timing.py)

import qipai  # noqa: E402
from qipai.games.go.coords import PASS  # noqa: E402

SHARED = ROOT.parent / "shared" / "data" / "go"


def qipai_fast_game(game, rng: random.Random) -> int:
    state = game.new_state()
    while not state.is_terminal():
        points = state.legal_points()
        i = rng.randrange(len(points) + 1)
        state.play_point(points[i] if i < len(points) else PASS)
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


def playouts(play, game, lengths: list[int]):
    """A timing side: one game of ``play`` per call (moves made), each length noted."""
    rng = random.Random(1)

    def one() -> int:
        n = play(game, rng)
        lengths.append(n)
        return n
    return one


def speed(seconds: float, rounds: int) -> None:
    import pyspiel

    print(f"Random playouts to the end, full legal list every move (moves per CPU second; "
          f"{rounds} interleaved rounds of {seconds:g} s per side, median)")
    for size in (19, 9):
        ours = qipai.load("go", board_size=size, end_procedure="all_alive",
                          max_moves=2 * size * size, scoring="free_komi", komi=7.5)
        theirs = pyspiel.load_game("go", {"board_size": size, "komi": 7.5})
        lengths: dict[str, list[int]] = {"contract": [], "fast": [], "OpenSpiel": []}
        runs = compare({"contract": playouts(qipai_api_game, ours, lengths["contract"]),
                        "fast": playouts(qipai_fast_game, ours, lengths["fast"]),
                        "OpenSpiel": playouts(openspiel_game, theirs, lengths["OpenSpiel"])},
                       seconds, rounds)
        for name, label in (("contract", "qipai contract "), ("fast", "qipai fast path"),
                            ("OpenSpiel", "OpenSpiel      ")):
            moves = runs.median(name)
            mean_len = sum(lengths[name]) / len(lengths[name])
            print(f"  {size}x{size}  {label} {moves:9.0f} moves/s  {moves / mean_len:7.1f} games/s"
                  f"  ({mean_len:.0f} moves a game, spread {runs.spread(name):.0%})")
        print(f"  {size}x{size}  ratio qipai/OpenSpiel (moves/s): contract "
              f"{runs.ratio('contract', 'OpenSpiel'):.3f}, fast path "
              f"{runs.ratio('fast', 'OpenSpiel'):.3f}")


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
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per side and round")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds per board size")
    ap.add_argument("--diff", type=int, default=0, help="extra 19x19 lockstep games")
    ap.add_argument("--no-proposer", action="store_true")
    args = ap.parse_args()
    speed(args.seconds, args.rounds)
    if args.diff:
        differential(args.diff)
    if not args.no_proposer:
        proposer()


if __name__ == "__main__":
    main()
