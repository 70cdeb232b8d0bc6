"""CPU seconds a searched move of a search bot (level 3, its playout budget, no time limit), the
code of two trees side by side, and whether they choose the same moves.

Two versions of qipai cannot share a process, so each round runs one worker process per tree
(``PYTHONPATH`` set to the tree), in an order that alternates from round to round; a worker
reports the CPU time of its own process (``time.process_time``) a move. The figure is the median
over the rounds, the ratio the median of the per-round ratios (as ``timing.compare`` does).

* positions: the searched positions of ``tests/level_helpers.py`` ``play_to_search`` (each seed
  after 0, 5 and 20 searched plays), each searched with ``think(..., 300, None, seed)``;
* ``--hands``: whole hands (deals) with level 3 in seat ``seed mod seats`` and the rule bot in
  the others; every move of the hand is compared, and the CPU a searched move reported.

A tree is a checkout or an export (``git archive COMMIT qipai tests/level_helpers.py | tar -x -C
DIR``). Run: ``python benchmarks/search_speed.py --old DIR --new . [--game shengji] [--seeds 1 2
3] [--rounds 5] [--hands 1 2 3]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def worker(game_id: str, mode: str, seeds: list[int]) -> list[list]:
    """``[case, move text, CPU s]`` of every searched move (positions) or every move (hands)."""
    sys.path.insert(0, os.path.join(os.environ["PYTHONPATH"].split(os.pathsep)[0], "tests"))
    from level_helpers import play_to_search  # type: ignore[import-not-found]

    import qipai
    from qipai.bots import bot_levels, make_bot
    from qipai.bots.search import think

    game = qipai.load(game_id)
    out: list[list] = []
    for seed in seeds:
        if mode == "positions":
            for plies in (0, 5, 20):
                state, me = play_to_search(game, seed, plies)
                job = make_bot(game_id, "mcts3", seed=1).job(state, me)
                start = time.process_time()
                move = think(*job, 300, None, seed)
                out.append([f"{seed}/{plies}", move, time.process_time() - start])
            continue
        state = game.new_state(seed=seed)
        me = seed % state.num_seats
        bots = [make_bot(game_id, bot_levels(game_id)[2], seed=10 * seed + s) for s in range(state.num_seats)]
        bots[me] = make_bot(game_id, "mcts3", seed=seed)
        k = 0
        while not state.is_terminal():
            seat = state.to_act[0]
            searched = seat == me and bots[me].job(state, seat) is not None
            start = time.process_time()
            action = bots[seat].choose(state, seat)
            spent = time.process_time() - start
            out.append([f"{seed}#{k}", str(action), spent if searched else None])
            state.apply(action, seat)
            k += 1
    return out


def run(tree: str, game_id: str, mode: str, seeds: list[int]) -> list[list]:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    done = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", mode, "--game", game_id,
                           "--seeds", *map(str, seeds)], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", help="the tree of the code before")
    ap.add_argument("--new", default=".", help="the tree of the code after (default: .)")
    ap.add_argument("--game", default="shengji")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--hands", type=int, nargs="*", default=[], help="seeds of whole hands to compare too")
    ap.add_argument("--worker", choices=["positions", "hands"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(worker(args.game, args.worker, args.seeds)))
        return
    if not args.old:
        ap.error("--old DIR is needed")
    trees = {"old": args.old, "new": args.new}
    for mode, seeds, rounds in (("positions", args.seeds, args.rounds), ("hands", args.hands, 1)):
        if not seeds:
            continue
        per_move: dict[str, list[float]] = {side: [] for side in trees}
        moves: dict[str, list] = {}
        for r in range(rounds):
            order = list(trees) if r % 2 == 0 else list(trees)[::-1]
            for side in order:
                got = run(trees[side], args.game, mode, seeds)
                spent = [x[2] for x in got if x[2] is not None]
                per_move[side].append(sum(spent) / len(spent))
                texts = [x[:2] for x in got]
                if moves.setdefault(side, texts) != texts:
                    raise SystemExit(f"{side}: a search chose differently with the same seed")
            print(f"{mode} round {r + 1}: " + ", ".join(f"{s} {v[-1]:.3f}" for s, v in per_move.items())
                  + f" CPU s a searched move; load {os.getloadavg()[0]:.1f}", flush=True)
        same = moves["old"] == moves["new"]
        ratio = statistics.median(n / o for n, o in zip(per_move["new"], per_move["old"]))
        print(f"{args.game} {mode} (seeds {' '.join(map(str, seeds))}): old "
              f"{statistics.median(per_move['old']):.3f}, new {statistics.median(per_move['new']):.3f} "
              f"CPU s a searched move, new/old {ratio:.3f}; {len(moves['new'])} moves compared, "
              f"the same: {same}")


if __name__ == "__main__":
    main()
