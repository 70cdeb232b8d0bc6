"""Step rates of the research doors (qipai.env) against the raw engine, and doudizhu's
PettingZoo env against RLCard's doudizhu env (when rlcard is installed).

* raw engine: random games through ``legal_actions`` + ``apply`` (no view, no tensor);
* env: random masked games through the PettingZoo AEC env: ``last()`` (the view, the
  observation tensor, the mask) + ``step`` for every agent step;
* RLCard: ``rlcard.make("doudizhu")`` random games with its state encoding (``env.step``
  encodes the next player's state), the same work per step as the AEC env.

CPU time (``time.process_time``), the two sides interleaved in one process, ``--rounds``
rounds, median. Usage: ``python benchmarks/env_speed.py [--seconds 1] [--rounds 3] [game ...]``;
``--breakdown`` prints the CPU time per step of the legal list, the view, the tensor and the mask;
``--kept`` the CPU time of the kept tensor's update (``Encoder.follower``), each seat updated at
its own turns from its followed view, as in the env (min of 5 passes over 60 random games);
``--followed`` the CPU time of one followed view (``ViewFollower.follow``) at the seat's own
turns, as the env reads it (min of 5 passes over 20 random games). ``--draw nonzero`` reads the
legal slots from the mask by ``mask.view(bool).nonzero()[0]`` instead of ``np.flatnonzero``
(the same slots; the wrapper costs ~2 µs a step); ``--draw slots`` makes the env with
``action_mask=False`` and draws from ``env.legal_slots(agent)`` (no mask made or scanned).
``--free`` also times the env with each seat's tensor a copy of a zero array, in the same
rounds: the bound this loop allows with an observation that costs nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import rate  # noqa: E402

import qipai  # noqa: E402
import qipai.env as E  # noqa: E402

GAMES = {"go": {"board_size": 9}, "gomoku": {}, "xiangqi": {}, "chinese-checkers": {}, "junqi": {},
         "doudizhu": {}, "wakeng": {}, "fouafour": {}, "baohuang": {}, "shengji": {}, "sandayi": {},
         "mahjong-gb": {"hands_per_match": 1}, "laizi-mahjong": {"hands_per_match": 1},
         "baibian-bajue": {"hands_per_match": 1}}


def raw_game(game, seed: int) -> int:
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    steps = 0
    while not state.is_terminal():
        seat = state.to_act[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
        steps += 1
    return steps


def env_game(env, seed: int, legal=None) -> int:
    """One random masked game through the AEC loop; ``legal(env, agent, obs)`` gives the slots
    a draw picks from (``--draw``; by default from the mask by ``np.flatnonzero``)."""
    legal = legal or DRAWS["flatnonzero"]
    rng = random.Random(seed)
    env.reset(seed=seed)
    steps = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(legal(env, agent, obs))))
        steps += 1
    return steps


#: the loop's ways of reading the legal slots (the same slots, in order): from the mask by
#: ``np.flatnonzero`` (a Python wrapper: ravel, then nonzero) or by the array's own
#: ``nonzero``; or (``slots``) the env made with ``action_mask=False``, the slots read by
#: ``env.legal_slots(agent)`` (no mask made or scanned)
DRAWS = {"flatnonzero": lambda env, agent, obs: np.flatnonzero(obs["action_mask"].view(bool)),
         "nonzero": lambda env, agent, obs: obs["action_mask"].view(bool).nonzero()[0],
         "slots": lambda env, agent, obs: env.legal_slots(agent)}


def breakdown(gid: str, games: int = 20) -> str:
    """CPU microseconds per agent step of each part of an env step, over the positions of
    ``games`` random games: the raw engine's legal_actions + apply, the view, the tensor, the
    mask (legal actions included)."""
    from qipai.env.chooser import Chooser

    opts = GAMES[gid]
    env = E.pettingzoo(gid, **opts)
    positions = []
    rng = random.Random(0)
    for seed in range(games):
        env.reset(seed=seed)
        state = env.state
        while not state.is_terminal():
            seat = state.to_act[0]
            positions.append((state.clone(), seat))
            state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
    parts = {}
    clock = time.process_time

    def timed(name, fn):
        t = clock()
        for st, seat in positions:
            fn(st, seat)
        parts[name] = (clock() - t) / len(positions) * 1e6

    timed("legal", lambda st, seat: st.legal_actions(seat))
    timed("view", lambda st, seat: st.view(seat))            # first: a view may keep what it found
    views = [st.view(seat) for st, seat in positions]
    it = iter(views)
    timed("tensor", lambda st, seat: env.encoder.encode(next(it), seat))
    chooser = Chooser(env.encoder.actions)
    timed("mask", lambda st, seat: (chooser.reset(), chooser.observe(st, seat)))
    return f"{gid}: " + ", ".join(f"{k} {v:.0f} us" for k, v in parts.items())


def kept_tensor(gid: str, games: int = 60, passes: int = 5) -> str:
    """CPU microseconds of one kept-tensor update (``TensorFollower.update``) over the views a
    seat's follower gives at that seat's turns in ``games`` random games; min of ``passes``."""
    from qipai.core.viewdelta import ViewFollower

    env = E.pettingzoo(gid, **GAMES[gid])
    enc, n = env.encoder, env.num_seats
    runs = []
    for seed in range(games):
        state, rng = env.game.new_state(seed=seed, num_seats=n), random.Random(seed)
        followers, run = [ViewFollower(s) for s in range(n)], []
        while not state.is_terminal():
            seat = state.to_act[0]
            view = followers[seat].follow(state)
            run.append((seat, dict(view), followers[seat].last))
            state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
        runs.append(run)
    steps, best = sum(map(len, runs)), float("inf")
    for _ in range(passes):
        t = time.process_time()
        for run in runs:
            tensors = [enc.follower(s) for s in range(n)]
            for seat, view, delta in run:
                tensors[seat].update(view, delta)
        best = min(best, (time.process_time() - t) / steps * 1e6)
    return f"{gid}: kept tensor update {best:.1f} us ({steps} updates)"


def followed_view(gid: str, games: int = 20, passes: int = 5) -> str:
    """CPU microseconds of one ``ViewFollower.follow`` of the acting seat at its turns (a
    change where the game gives one, else a whole view), over ``games`` random games; min of
    ``passes``."""
    from qipai.core.viewdelta import ViewFollower

    game = qipai.load(gid, **GAMES[gid])
    runs = []
    for seed in range(games):
        state, rng, acts = game.new_state(seed=seed), random.Random(seed), []
        while not state.is_terminal():
            seat = state.to_act[0]
            action = rng.choice(state.legal_actions(seat))
            acts.append((seat, action))
            state.apply(action, seat=seat)
        runs.append((seed, acts))
    best, clock = float("inf"), time.process_time
    for _ in range(passes):
        total = n = 0
        for seed, acts in runs:
            state = game.new_state(seed=seed)
            followers = [ViewFollower(s) for s in range(state.num_seats)]
            for seat, action in acts:
                t = clock()
                followers[seat].follow(state)
                total += clock() - t
                n += 1
                state.apply(action, seat=seat)
        best = min(best, total / n * 1e6)
    return f"{gid}: followed view {best:.1f} us ({n} views)"


def free_env(gid: str, masked: bool):
    """The env of ``gid`` with each seat's tensor a copy of a zero array (no view, no seen
    form, no tensor): what is left of a step is the mask, PettingZoo's ``last`` and ``step``,
    the loop's draw and ``apply``."""
    env = E.pettingzoo(gid, action_mask=masked, **GAMES[gid])
    zero = np.zeros(env.encoder.shape, np.float32)
    for t in env._tensors:
        t.follow = lambda state, views: zero.copy()
    return env


def rlcard_game_steps():
    import rlcard

    env = rlcard.make("doudizhu", config={"seed": 0})
    rng = random.Random(0)

    def one() -> int:
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            action = rng.choice(list(state["legal_actions"]))
            state, _ = env.step(action)
            steps += 1
        return steps
    return one


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("games", nargs="*", default=list(GAMES))
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--breakdown", action="store_true",
                   help="print where an env step's time goes (view, tensor, mask) instead")
    p.add_argument("--kept", action="store_true",
                   help="print the CPU time of one kept-tensor update instead")
    p.add_argument("--draw", choices=sorted(DRAWS), default="flatnonzero",
                   help="how the env loop reads the legal slots: from the mask, or (slots) "
                        "from env.legal_slots of an env made without masks")
    p.add_argument("--followed", action="store_true",
                   help="print the CPU time of one followed view at the seat's turns instead")
    p.add_argument("--free", action="store_true",
                   help="also run the env with each seat's tensor a copy of a zero array (the "
                        "bound the loop allows with an observation that costs nothing)")
    a = p.parse_args()
    if a.followed:
        for gid in a.games:
            print(followed_view(gid), flush=True)
        return
    if a.kept:
        for gid in a.games:
            print(kept_tensor(gid), flush=True)
        return
    if a.breakdown:
        for gid in a.games:
            print(breakdown(gid), flush=True)
        return
    clock = time.process_time
    print(f"{'game':16} {'raw steps/s':>12} {'env steps/s':>12} {'env/raw':>8}"
          + (f" {'free steps/s':>12} {'free/raw':>8}" if a.free else ""))
    for gid in a.games:
        opts = GAMES[gid]
        game = qipai.load(gid, **opts)
        env = E.pettingzoo(gid, action_mask=a.draw != "slots", **opts)
        raws, envs, frees = [], [], []
        seeds = iter(range(10**6))
        free = free_env(gid, a.draw != "slots") if a.free else None
        for _ in range(a.rounds):
            raws.append(rate(lambda g=game, s=seeds: raw_game(g, next(s)), a.seconds, clock))
            envs.append(rate(lambda e=env, s=seeds: env_game(e, next(s), DRAWS[a.draw]),
                             a.seconds, clock))
            if free is not None:
                frees.append(rate(lambda e=free, s=seeds: env_game(e, next(s), DRAWS[a.draw]),
                                  a.seconds, clock))
        r, e = statistics.median(raws), statistics.median(envs)
        line = f"{gid:16} {r:12.0f} {e:12.0f} {e / r:8.2f}"
        if free is not None:
            f = statistics.median(frees)
            line += f" {f:12.0f} {f / r:8.2f}"
        print(line, flush=True)
    if "doudizhu" in a.games:
        try:
            one = rlcard_game_steps()
        except ImportError:
            print("rlcard is not installed: no RLCard comparison")
            return
        env = E.pettingzoo("doudizhu")
        ours, theirs = [], []
        seeds = iter(range(10**6))
        for _ in range(a.rounds):
            ours.append(rate(lambda: 1 if env_game(env, next(seeds)) else 1, a.seconds, clock))
            theirs.append(rate(lambda: 1 if one() else 1, a.seconds, clock))
        o, t = statistics.median(ours), statistics.median(theirs)
        print(f"doudizhu games/s with state encoding: qipai env {o:.0f} (with bidding), "
              f"RLCard env {t:.0f} (no bidding): {o / t:.2f}x")


if __name__ == "__main__":
    main()
