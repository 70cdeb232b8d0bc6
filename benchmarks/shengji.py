"""Shengji speed. No public peer implements 升级/拖拉机 (not on PyPI: RLCard, OpenSpiel and the
other card-game libraries have no shengji), so this prints our own rates only.

1. Random hands per second: deal with declaration prompts, bury, 25 tricks, scoring; every legal
   set is built at every decision and a uniformly random member is played (large sets are lazy
   sequences, indexed without listing them).
2. Rule-bot hands per second (the ``rule`` bot at all four seats).
3. Whole matches per second, rule bots, profile seed000 (first to pass 10).
4. Follow-legality checks per second (§3.7) on random tractor leads.

Run: ``.venv/bin/python benchmarks/shengji.py [seconds per measurement]``.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import rate  # noqa: E402  (benchmarks/timing.py)

import qipai  # noqa: E402
from qipai.bots import make_bot  # noqa: E402
from qipai.games.shengji import combos as cb  # noqa: E402
from qipai.games.shengji.match import Match  # noqa: E402
from qipai.games.shengji.trump import FACES, Trump  # noqa: E402


def random_hands(seconds: float, profile: str = "seed000") -> float:
    game = qipai.load("shengji", profile=profile)
    rng = random.Random(1)
    seed = [0]

    def one() -> int:
        seed[0] += 1
        st = game.new_state(seed=seed[0])
        while not st.is_terminal():
            acts = st.legal_actions()
            st.apply(acts[rng.randrange(len(acts))])
        return 1
    return rate(one, seconds)


def bot_hands(seconds: float) -> float:
    game = qipai.load("shengji")
    bots = [make_bot("shengji", "rule", s) for s in range(4)]
    seed = [0]

    def one() -> int:
        seed[0] += 1
        st = game.new_state(seed=seed[0])
        while not st.is_terminal():
            s = st.current_player
            st.apply(bots[s].choose(st, s), s)
        return 1
    return rate(one, seconds)


def bot_matches(seconds: float) -> float:
    bots = [make_bot("shengji", "rule", s) for s in range(4)]
    seed = [0]

    def one() -> int:
        seed[0] += 1
        Match(seed[0]).play(bots)
        return 1
    return rate(one, seconds)


def follow_checks(seconds: float) -> float:
    rng = random.Random(3)
    trump = Trump(10, "H")
    spades = [f for f in FACES if trump.eff[f] == "S"]
    cases = []
    for _ in range(500):
        hold = Counter(rng.choices(spades, k=12))
        hold = {f: min(c, 2) for f, c in hold.items()}
        play = dict(Counter(rng.sample([f for f, c in hold.items() for _ in range(c)], 4)))
        cases.append((play, hold))
    fmt = [("tractor", 2)]

    def one() -> int:
        for play, hold in cases:
            cb.follow_ok_suited(play, hold, trump.pos, fmt)
        return len(cases)
    return rate(one, seconds)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print("shengji (no public peer exists; our rates only)")
    print(f"{'measure':<44}{'qipai':>12}")
    print(f"{'random hands/s (seed000, 2 decks)':<44}{random_hands(seconds):>12.1f}")
    print(f"{'random hands/s (titanic, 3 decks)':<44}{random_hands(seconds, 'titanic'):>12.1f}")
    print(f"{'rule-bot hands/s':<44}{bot_hands(seconds):>12.1f}")
    print(f"{'rule-bot matches/s (pass 10)':<44}{bot_matches(seconds):>12.1f}")
    print(f"{'follow checks/s (tractor lead, §3.7)':<44}{follow_checks(seconds):>12.0f}")


if __name__ == "__main__":
    main()
