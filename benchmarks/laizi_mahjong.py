"""Laizi mahjong (赖子麻将) speed. No public library implements this game (the rule file says
so: no library scores the variant), so there is no peer to run beside it; this prints qipai's
own rates:

1. the wildcard search: winning hands scored per second (point counting of section 3-4 on
   random hands near a win, with one to four laizi);
2. random full hands per second (every legal action generated at every turn, a win taken
   whenever offered, else one chosen at random);
3. rule-bot hands per second (four ``rule`` bots, each reading ``view`` and ``legal_actions``);
4. default-action hands per second (the timeout actions of rules/laizi-mahjong.md 2.6).

Run: ``.venv/bin/python benchmarks/laizi_mahjong.py [seconds per measurement]``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import rate  # noqa: E402  (benchmarks/timing.py)

import qipai  # noqa: E402
from qipai.bots import make_bot  # noqa: E402
from qipai.games.laizi_mahjong.points import best_base  # noqa: E402


def hand(game, seed: int, choose) -> int:
    """One hand from ``seed``; ``choose(state, seat)`` picks each action. Returns 1."""
    state = game.new_state(seed=seed)
    while not state.is_terminal():
        seat = state.to_act[0]
        state.apply(choose(state, seat), seat=seat)
    return 1


def near_wins(rng: random.Random, n: int) -> list[tuple[list[int], int]]:
    """``n`` hands of one suit and honours with one to four tiles taken out as wildcards."""
    out = []
    for _ in range(n):
        suit = rng.randrange(3)
        kinds = [suit * 9 + r for r in range(9)] + list(range(27, 34))
        tiles = []
        for _ in range(4):
            t = rng.choice(kinds)
            tiles += [t, t + 1, t + 2] if t < 27 and t % 9 < 7 and rng.random() < 0.5 else [t] * 3
        t = rng.choice(kinds)
        tiles += [t, t]
        rng.shuffle(tiles)
        jokers = rng.randint(1, 4)
        counts = [0] * 34
        for t in tiles[jokers:]:
            counts[t] += 1
        out.append((counts, jokers))
    return out


def main(seconds: float = 2.0) -> None:
    game = qipai.load("laizi-mahjong", hands_per_match=1)
    rng = random.Random(1)
    hands = near_wins(rng, 2000)
    bot = make_bot("laizi-mahjong", "rule", 0)
    counter = iter(range(10**9))

    def scored():
        counts, jokers = hands[next(counter) % len(hands)]
        best_base(counts, jokers)
        return 1

    def random_choice(state, seat):
        acts = state.legal_actions(seat)
        wins = [a for a in acts if a.kind == "win"]
        return wins[0] if wins else rng.choice(acts)

    def default(state, seat):
        return state.default_action(seat)

    rows = [
        ("wildcard hands scored/s", rate(scored, seconds)),
        ("random hands/s", rate(lambda: hand(game, next(counter), random_choice), seconds)),
        ("rule-bot hands/s", rate(lambda: hand(game, next(counter), bot.choose), seconds)),
        ("default-action hands/s", rate(lambda: hand(game, next(counter), default), seconds)),
    ]
    print("赖子麻将 (laizi-mahjong) — qipai only; no public peer implements this game, so no ratio")
    for name, value in rows:
        print(f"  {name:28s} qipai {value:10.1f}   peer      n/a   ratio n/a")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 2.0)
