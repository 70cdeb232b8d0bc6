"""Junqi speed. No public library on PyPI plays junqi (陆战棋 / 四国军棋), so there is no peer
to print beside ours: this prints qipai's own rates.

1. Random full games per second (layouts from the offered random layouts, every legal action
   generated at every turn, random choice), ``luzhan`` and ``siguo``.
2. Greedy-bot games per second (the bot reads the seat's view at every turn).
3. Legal-move generation per second on positions sampled from random games.

Run: ``.venv/bin/python benchmarks/junqi.py [seconds per measurement]``.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import qipai  # noqa: E402
from qipai.bots import make_bot  # noqa: E402


def rate(fn, seconds: float) -> tuple[float, float]:
    """(calls of ``fn`` per second, units per second; ``fn`` returns its units)."""
    calls = units = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        units += fn()
        calls += 1
    took = time.perf_counter() - start
    return calls / took, units / took


def random_games(variant: str):
    game = qipai.load("junqi", variant=variant)
    rng = random.Random(1)
    counter = iter(range(10**9))

    def one() -> int:
        state = game.new_state(seed=next(counter))
        while not state.is_terminal():
            seat = state.to_act[0]
            state.apply(rng.choice(state.legal_actions(seat)), seat)
        return state.result.details["moves"]
    return one


def bot_games(variant: str):
    game = qipai.load("junqi", variant=variant)
    counter = iter(range(10**9))

    def one() -> int:
        n = next(counter)
        state = game.new_state(seed=n)
        bots = [make_bot("junqi", "greedy", seed=n * 10 + s) for s in range(state.num_seats)]
        while not state.is_terminal():
            seat = state.to_act[0]
            state.apply(bots[seat].choose(state, seat), seat)
        return state.result.details["moves"]
    return one


def movegen(variant: str):
    game = qipai.load("junqi", variant=variant)
    rng = random.Random(2)
    positions = []
    for n in range(30):
        state = game.new_state(seed=n)
        while not state.is_terminal():
            seat = state.to_act[0]
            if state.phase == "play" and rng.random() < 0.1:
                positions.append((state.clone(), seat))
            state.apply(rng.choice(state.legal_actions(seat)), seat)

    def one() -> int:
        for state, seat in positions:
            state.legal_actions(seat)
        return len(positions)
    return one


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print("junqi: no PyPI peer (none known), qipai rates only")
    print(f"{'measure':38} {'qipai':>14}")
    for variant in ("luzhan", "siguo"):
        games, moves = rate(random_games(variant), seconds)
        print(f"{variant + ' random games/s':38} {games:14.1f}   ({moves:,.0f} moves/s)")
        games, moves = rate(bot_games(variant), seconds)
        print(f"{variant + ' greedy-bot games/s':38} {games:14.1f}   ({moves:,.0f} moves/s)")
        _, gens = rate(movegen(variant), seconds)
        print(f"{variant + ' legal-move generations/s':38} {gens:14,.0f}")


if __name__ == "__main__":
    main()
