"""保皇 speed. No public library plays 保皇 (none on PyPI), so there is no peer rate to print
beside ours; this prints qipai's own rates:

1. random full deals per second (selection, declaration, play to the last card; every legal
   action generated at every turn), default options;
2. full deals per second with five rule bots (what an event played by bots costs);
3. legal-action generation per second on the positions met in random deals.

Run: ``.venv/bin/python benchmarks/baohuang.py [seconds per measurement]``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import rate  # noqa: E402  (benchmarks/timing.py)

import qipai  # noqa: E402
from qipai.bots import make_bot  # noqa: E402


def random_deals(seconds: float) -> float:
    game = qipai.load("baohuang")
    rng = random.Random(1)
    counter = iter(range(10**9))

    def one() -> int:
        state = game.new_state(seed=next(counter))
        while state.result is None:
            state.apply(rng.choice(state.legal_actions()))
        return 1

    return rate(one, seconds)


def bot_deals(seconds: float) -> float:
    game = qipai.load("baohuang")
    bots = [make_bot("baohuang", "rule", seed=i) for i in range(5)]
    counter = iter(range(10**9))

    def one() -> int:
        state = game.new_state(seed=next(counter))
        while state.result is None:
            seat = state.current_player
            state.apply(bots[seat].choose(state, seat))
        return 1

    return rate(one, seconds)


def legal_generation(seconds: float) -> float:
    game = qipai.load("baohuang")
    rng = random.Random(2)
    states = []
    for seed in range(20):
        state = game.new_state(seed=f"gen{seed}")
        while state.result is None:
            if state.phase == "play":
                states.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
    states = states[:2000]

    def one() -> int:
        for s in states:
            s.legal_actions()
        return len(states)

    return rate(one, seconds)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print("peer: none (no public 保皇 implementation on PyPI); ratios cannot be given")
    print(f"{'measurement':<40} {'qipai':>12}")
    print(f"{'random full deals / s':<40} {random_deals(seconds):>12.1f}")
    print(f"{'rule-bot full deals / s':<40} {bot_deals(seconds):>12.1f}")
    print(f"{'legal_actions() calls / s':<40} {legal_generation(seconds):>12.0f}")


if __name__ == "__main__":
    main()
