"""三打一 speed. No public library implements 三打一 (nothing on PyPI: open-spiel, rlcard,
pyffish and the others cover other games), so there is no peer to run beside it; this prints
qipai's own rates:

1. random full hands per second (bidding, redeals, burying, trump, 12 tricks, payout; every
   legal action generated at every turn, one chosen at random);
2. rule-bot hands per second (four ``rule`` bots, each reading ``view`` and ``legal_actions``);
3. default-action hands per second (the timeout actions of rules/sandayi.md §5);
4. whole 20-hand matches per second with rule bots.

Run: ``.venv/bin/python benchmarks/sandayi.py [seconds per measurement]``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import rate  # noqa: E402  (benchmarks/timing.py)

import qipai  # noqa: E402
from qipai.bots import make_bot  # noqa: E402
from qipai.games.sandayi.match import play_match  # noqa: E402


def hand(game, seed: int, choose) -> int:
    """One hand from ``seed``; ``choose(state, seat)`` picks each action. Returns 1."""
    state = game.new_state(seed=seed)
    while not state.is_terminal():
        seat = state.turn
        state.apply(choose(state, seat), seat)
    return 1


def main(seconds: float = 2.0) -> None:
    game = qipai.load("sandayi")
    rng = random.Random(1)
    bot = make_bot("sandayi", "rule", 0)
    counter = iter(range(10**9))

    def random_choice(state, seat):
        return rng.choice(state.legal_actions(seat))

    def default(state, seat):
        return state.default_action(seat)

    rows = [
        ("random hands/s", rate(lambda: hand(game, next(counter), random_choice), seconds)),
        ("rule-bot hands/s", rate(lambda: hand(game, next(counter), bot.choose), seconds)),
        ("default-action hands/s", rate(lambda: hand(game, next(counter), default), seconds)),
        ("rule-bot 20-hand matches/s",
         rate(lambda: (play_match(game, bot.choose, seed=next(counter)), 1)[1], seconds)),
    ]
    print("三打一 (sandayi) — qipai only; no public peer implements this game, so no ratio")
    for name, value in rows:
        print(f"  {name:28s} qipai {value:10.1f}   peer      n/a   ratio n/a")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 2.0)
