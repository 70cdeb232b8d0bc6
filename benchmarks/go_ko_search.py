"""Search small boards for positions where two ``ko_rule`` options give different legal moves.

Seeded random games on 4x4 and 5x5 (passes allowed) are played with one state per ko rule, in
lockstep: each move is drawn among the plays legal under every rule (or a pass). At every
position the legal-move sets of the rules are compared, and the shortest move sequence after
which each pair of rules differs is printed (GTP moves, the points that differ). The tests in
``tests/test_go_ko_rules.py`` are built from its output; a pair that never differs would be a
bug to look into.

    .venv/bin/python benchmarks/go_ko_search.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import itertools
import random
import time

import qipai
from qipai.games.go.coords import PASS, to_gtp
from qipai.games.go.rules import KO_RULES


def search(games: int, seed: int, sizes=(4, 5), pass_rate=0.2) -> tuple[dict, int]:
    """``({(rule_a, rule_b): (size, moves, only_a, only_b)}, not_nested)``: the shortest
    difference found for each pair of rules (points as ints), and the number of positions
    where the legal sets were not nested positional ⊆ situational ⊆ natural situational
    (each bans a subset of what the one before bans, so this must stay 0)."""
    rng = random.Random(seed)
    best: dict = {}
    not_nested = 0
    for g in range(games):
        size = sizes[g % len(sizes)]
        states = {r: qipai.load("go", board_size=size, ko_rule=r, end_procedure="all_alive",
                                max_moves=200).new_state() for r in KO_RULES}
        moves: list[int] = []
        while not any(s.is_terminal() for s in states.values()):
            legal = {r: set(s.legal_points()) for r, s in states.items()}
            if not (legal["positional_superko"] <= legal["situational_superko"]
                    <= legal["natural_situational_superko"]):
                not_nested += 1
            for a, b in itertools.combinations(KO_RULES, 2):
                if legal[a] != legal[b]:
                    key = (a, b)
                    if key not in best or len(moves) < len(best[key][1]):
                        best[key] = (size, list(moves), sorted(legal[a] - legal[b]),
                                     sorted(legal[b] - legal[a]))
            common = sorted(set.intersection(*legal.values()))
            p = PASS if not common or rng.random() < pass_rate else rng.choice(common)
            for s in states.values():
                s.play_point(p)
            moves.append(p)
    return best, not_nested


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    t0 = time.perf_counter()
    best, not_nested = search(args.games, args.seed)
    print(f"{args.games} games in {time.perf_counter() - t0:.1f} s (seed {args.seed}); "
          f"positions with legal sets not nested: {not_nested}")
    for a, b in itertools.combinations(KO_RULES, 2):
        if (a, b) not in best:
            print(f"{a} vs {b}: NEVER DIFFER")
            continue
        size, moves, only_a, only_b = best[(a, b)]
        print(f"{a} vs {b}: {size}x{size}, after {len(moves)} moves: "
              f"{' '.join(to_gtp(p, size) for p in moves)}")
        print(f"    legal only under {a}: {[to_gtp(p, size) for p in only_a]}; "
              f"only under {b}: {[to_gtp(p, size) for p in only_b]}")


if __name__ == "__main__":
    main()
