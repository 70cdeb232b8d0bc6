"""挖坑 speed. No public library implements 挖坑 (none on PyPI), so there is no peer to run
beside it; this prints qipai's own rates:

1. random full deals per second (bidding to scoring; every legal action generated at every
   turn, one chosen at random);
2. rule-bot deals per second (three ``rule`` bots, each reading ``view`` and
   ``legal_actions``);
3. legal-action generations per second on the positions of those random deals.

Run: ``.venv/bin/python benchmarks/wakeng.py [seconds per measurement]``.
``benchmarks/fouafour.py`` measures 4A4 the same way with :func:`report`.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import rate  # noqa: E402  (benchmarks/timing.py)

import qipai  # noqa: E402
from qipai.bots import make_bot  # noqa: E402


def playout(game, seed: int, choose) -> int:
    """One deal from ``seed``; ``choose(state, seat)`` picks each action. Returns 1."""
    state = game.new_state(seed=seed)
    while not state.is_terminal():
        for seat in state.to_act:
            if seat in state.to_act:
                state.apply(choose(state, seat), seat=seat)
    return 1


def positions(game, count: int) -> list:
    """``count`` states met along random deals (copies)."""
    rng = random.Random(7)
    out = []
    seed = 0
    while len(out) < count:
        state = game.new_state(seed=seed)
        seed += 1
        while not state.is_terminal() and len(out) < count:
            seat = rng.choice(state.to_act)
            out.append((state.clone(), seat))
            state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
    return out


def report(game_id: str, seconds: float) -> None:
    game = qipai.load(game_id)
    rng = random.Random(1)
    seeds = iter(range(10**9))
    n = qipai.load(game_id).new_state(seed=0).num_seats
    print(f"{game_id}: no public peer implementation (none on PyPI); qipai rates only")
    r = rate(lambda: playout(game, next(seeds), lambda s, seat: rng.choice(s.legal_actions(seat))), seconds)
    print(f"  random deals/s           qipai {r:10.1f}   peer: none")
    bots = [make_bot(game_id, "rule", i) for i in range(n)]
    r = rate(lambda: playout(game, next(seeds), lambda s, seat: bots[seat].choose(s, seat)), seconds)
    print(f"  rule-bot deals/s         qipai {r:10.1f}   peer: none")
    pos = positions(game, 1000)

    def gen() -> int:
        for state, seat in pos:
            state.legal_actions(seat)
        return len(pos)

    r = rate(gen, seconds)
    print(f"  legal-action sets/s      qipai {r:10.1f}   peer: none")


if __name__ == "__main__":
    report("wakeng", float(sys.argv[1]) if len(sys.argv) > 1 else 2.0)
