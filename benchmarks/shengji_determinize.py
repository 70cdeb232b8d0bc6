"""CPU cost of the shengji search's root states: the determinizations (``qipai.bots.shengji``)
of this tree against those of another tree (``--before DIR``, e.g. ``git archive`` of an older
commit), interleaved in one process (``timing.compare``).

A *root* is what a search pays for one iteration: determinizations drawn until one is kept, at
most the searcher's 60 draws. Three sets of views: every seat's view at every other turn of the
play of rule-bot hands (``--hands``) and of random-play hands (half as many; throws, failed
ones among them), and the view of benchmark game 1013 on which a level-3 run stopped (the
dealer's declared jokers must both be in its hand).

    git archive 5090c01 | tar -x -C /tmp/before
    nice python benchmarks/shengji_determinize.py --before /tmp/before
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import timing  # noqa: E402

import qipai  # noqa: E402
from qipai.bots import make_bot, search  # noqa: E402
from qipai.bots.shengji import ShengjiRuleBot, determinize  # noqa: E402


def _load(name: str, path: Path, package: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = package            # its relative imports are this tree's modules
    spec.loader.exec_module(module)
    return module


def before_determinize(tree: Path):
    """The ``determinize`` of ``tree``'s shengji bot, with that tree's card sampler (its bots
    are not registered: this tree's stay)."""
    import qipai.bots as bots

    sample = _load("before_sample", tree / "qipai/cards/sample.py", "qipai.cards")
    keep = bots.register_bot, search.register_searcher
    bots.register_bot = search.register_searcher = lambda *a, **k: None
    try:
        module = _load("before_shengji", tree / "qipai/bots/shengji.py", "qipai.bots")
    finally:
        bots.register_bot, search.register_searcher = keep
    module.deal_unseen = sample.deal_unseen
    return module.determinize


def rule_views(hands: int, bot_name: str = "rule") -> list[dict]:
    """Every seat's view at every other turn of the play of ``hands`` hands of ``bot_name``."""
    game = qipai.load("shengji")
    out = []
    for seed in range(hands):
        state = game.new_state(seed=seed)
        bot = ShengjiRuleBot(seed) if bot_name == "rule" else make_bot("shengji", bot_name, seed=seed)
        turn = 0
        while not state.is_terminal():
            seat = state.to_act[0]
            if state.phase == "play" and turn % 2 == 0:
                out += [state.view(me) for me in range(4)]
            turn += state.phase == "play"
            state.apply(bot.choose(state, seat), seat)
    return out


def game_1013_view() -> dict:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from test_determinize_complete import GAME_1013

    state = qipai.load("shengji").new_state(seed=1013)
    for text in GAME_1013:
        state.apply(text)
    return state.view(1)


def roots(fn, game, views: list[dict], failed: list[int]):
    """A side of the comparison: one root per view (up to 60 draws each); counts the views
    whose 60 draws all failed in ``failed``."""
    rng = random.Random(1)

    def run() -> int:
        for view in views:
            for _ in range(60):
                try:
                    fn(game, view, rng)
                    break
                except ValueError:
                    pass
            else:
                failed[0] += 1
        return len(views)
    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, required=True, help="the other tree (git archive)")
    ap.add_argument("--hands", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=2.0)
    args = ap.parse_args()
    game = qipai.load("shengji")
    old = before_determinize(args.before)
    sets = (("rule-bot hands", rule_views(args.hands)),
            ("random-play hands (throws)", rule_views(max(1, args.hands // 2), "random")),
            ("game 1013", [game_1013_view()] * 20))
    for label, views in sets:
        fails = {"before": [0], "after": [0]}
        res = timing.compare({"before": roots(old, game, views, fails["before"]),
                              "after": roots(determinize, game, views, fails["after"])},
                             args.seconds, args.rounds)
        print(f"{label} ({len(views)} views): roots per CPU s before {res.median('before'):,.0f}, "
              f"after {res.median('after'):,.0f}, after/before {res.ratio('after', 'before'):.2f}; "
              f"roots that failed 60 draws: before {fails['before'][0]}, after {fails['after'][0]}",
              flush=True)


if __name__ == "__main__":
    main()
