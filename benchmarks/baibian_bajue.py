"""百变八雀 (baibian-bajue, a proposal) speed. No public library implements this game (it is the
rule file's own proposal), so there is no peer; this prints qipai's own rates:

1. random full hands per second (every legal action generated at every turn, a win taken
   whenever offered, else one chosen at random);
2. rule-bot hands per second (four ``rule`` bots, each reading ``view`` and ``legal_actions``);
3. default-action hands per second (the timeout actions).

Run: ``.venv/bin/python benchmarks/baibian_bajue.py [seconds per measurement]``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from laizi_mahjong import hand  # noqa: E402  (benchmarks/laizi_mahjong.py: one hand by a chooser)
from timing import rate  # noqa: E402  (benchmarks/timing.py)

import qipai  # noqa: E402
from qipai.bots import make_bot  # noqa: E402


def main(seconds: float = 2.0) -> None:
    game = qipai.load("baibian-bajue", hands_per_match=1)
    rng = random.Random(1)
    bot = make_bot("baibian-bajue", "rule", 0)
    counter = iter(range(10**9))

    def random_choice(state, seat):
        acts = state.legal_actions(seat)
        wins = [a for a in acts if a.kind == "win"]
        return wins[0] if wins else rng.choice(acts)

    rows = [
        ("random hands/s", rate(lambda: hand(game, next(counter), random_choice), seconds)),
        ("rule-bot hands/s", rate(lambda: hand(game, next(counter), bot.choose), seconds)),
        ("default-action hands/s", rate(lambda: hand(game, next(counter), lambda s, x: s.default_action(x)),
                                        seconds)),
    ]
    print("百变八雀 (baibian-bajue, proposal) — qipai only; no public peer implements this game, so no ratio")
    for name, value in rows:
        print(f"  {name:28s} qipai {value:10.1f}   peer      n/a   ratio n/a")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 2.0)
