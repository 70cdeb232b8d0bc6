"""Chinese checkers speed: qipai beside OpenSpiel's C++ ``chinese_checkers`` (pyspiel), one run.

1. Random playouts, turns per second (2 players, 200 turns from the start, anti-stalling off so
   random games are not cut short): qipai generates every legal move (full chains) at every
   turn and applies a random one; OpenSpiel picks a random action at every decision, a chain
   being one decision per hop (so it never enumerates whole chains: it does less work).
2. Whole move sets per second on the same 2,000 positions (from greedy/random games of 2, 3 and
   6 players): qipai's move generation (``generate_moves``, what ``legal_actions()`` computes
   before caching it on the state) beside every (from, to) of OpenSpiel's state, found
   by following each hop chain with ``clone``/``apply_action`` (the sets are equal: see
   tests/test_chinese_checkers_differential.py).
3. Whole games per second with the greedy bot in every seat (qipai only, default rules).

Times are process CPU times, and the two sides of each comparison are interleaved in rounds
(median of the per-round ratios; benchmarks/timing.py), so other load on the shared machine
moves both sides alike.

Comparability: (2) is like for like (the same positions, the same move sets, both computed in
full). (1) is not: OpenSpiel never lists whole hop chains, so its turn is cheaper by design; no
OpenSpiel figure does qipai's per-turn work, and (1) is shown for scale only.
Run: ``.venv/bin/python benchmarks/chinese_checkers.py [CPU seconds per side and round] [rounds]``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import compare, rate  # noqa: E402  (benchmarks/timing.py)

import qipai  # noqa: E402
from qipai.bots import make_bot  # noqa: E402
from tests import chinese_checkers_peer as peer  # noqa: E402

TURNS = 200


def qipai_playouts():
    game = qipai.load("chinese-checkers", anti_stalling=False)
    rng = random.Random(1)

    def one() -> int:
        state = game.new_state()
        for _ in range(TURNS):
            state.apply(rng.choice(state.legal_actions()))
        return TURNS

    return one


def openspiel_playouts():
    g = peer.load(2)
    rng = random.Random(1)

    def one() -> int:
        state = g.new_initial_state()
        turns = 0
        while turns < TURNS:
            player = state.current_player()
            state.apply_action(rng.choice(state.legal_actions()))
            if state.current_player() != player:
                turns += 1
        return TURNS

    return one


def positions(count: int):
    """``count`` (qipai state, OpenSpiel state) pairs of the same positions."""
    game = qipai.load("chinese-checkers", anti_stalling=False, max_moves=10_000)
    out = []
    rng = random.Random(7)
    for g in range(1000):
        n = (2, 3, 6)[g % 3]
        greedy = make_bot(game.id, "greedy", g)
        ours, theirs = game.new_state(num_seats=n), peer.load(n).new_initial_state()
        while len(out) < count and not any(s == "finished" for s in ours.status):
            out.append((ours.clone(), theirs.clone()))
            acts = ours.legal_actions()
            move = rng.choice(acts) if rng.random() < 0.3 else greedy.choose(ours, ours.current_player)
            ours.apply(move)
            peer.play_on_peer(theirs, move.path if move.kind == "move" else None)
        if len(out) >= count:
            return out
    return out


def move_sets(pos):
    def ours() -> int:
        for s, _ in pos:
            s.generate_moves(s.current_player)      # uncached, as legal_actions computes it
        return len(pos)

    def theirs() -> int:
        for _, t in pos:
            peer.peer_pairs(t)
        return len(pos)

    return ours, theirs


def greedy_games(seconds: float, n: int) -> float:
    game = qipai.load("chinese-checkers")
    counter = iter(range(10**9))

    def one() -> int:
        k = next(counter)
        bots = [make_bot(game.id, "greedy", k * 10 + s) for s in range(n)]
        state = game.new_state(num_seats=n)
        while not state.is_terminal():
            state.apply(bots[state.current_player].choose(state, state.current_player))
        return 1

    return rate(one, seconds)


def line(label: str, runs, unit: str) -> None:
    print(f"{label:<44} qipai {runs.median('qipai'):>10,.0f} {unit}   OpenSpiel "
          f"{runs.median('OpenSpiel'):>10,.0f} {unit}   ratio {runs.ratio('qipai', 'OpenSpiel'):.2f}")


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    print(f"{rounds} interleaved rounds of {seconds:g} CPU s per side, medians")
    pos = positions(2000)
    ours, theirs = move_sets(pos)
    line(f"whole move sets ({len(pos)} positions, 2/3/6 players)",
         compare({"qipai": ours, "OpenSpiel": theirs}, seconds, rounds), "sets/s")
    line("random playouts, NOT like for like (see above)",
         compare({"qipai": qipai_playouts(), "OpenSpiel": openspiel_playouts()}, seconds, rounds),
         "turns/s")
    for n in (2, 3, 6):
        print(f"greedy bot games, {n} players (qipai only)       {greedy_games(seconds, n):>8,.1f} games/s")


if __name__ == "__main__":
    main()
