"""Self-play at scale: many games in a process pool, each seeded, each written as a qipai
record that ``qipai replay`` re-checks move by move.

Every game goes through the PettingZoo door (so it exercises the same masks and
observations a learner sees). Game ``i`` of a run with seed ``s`` deals with seed ``s + i``
and its policy draws from a generator seeded with ``s + i``, so any one game can be played
again alone. Policies: ``random`` (uniform over the mask) or the name of a built-in bot
(``rule``, ``greedy``, ...), which plays every seat.

Command line::

    python -m qipai.env.selfplay doudizhu --games 1000 --workers 2 --seed 0 --out runs/ddz
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class GameJob:
    game_id: str
    options: dict[str, Any]
    seed: int
    policy: str
    out: str | None
    observe: bool = True


def play_one(job: GameJob) -> dict[str, Any]:
    """Play one game; write its record to ``job.out`` (a folder) when given. Returns a summary
    ``{seed, steps, returns, reason, path}``."""
    from qipai.bots import make_bot

    from .aec import QipaiAEC

    env = QipaiAEC(job.game_id, **job.options)
    env.reset(seed=job.seed)
    rng = random.Random(job.seed)
    bots = ({s: make_bot(env.game.id, job.policy, job.seed * 31 + s) for s in range(env.num_seats)}
            if job.policy != "random" else {})
    steps = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last(observe=job.observe or not bots)
        if term or trunc:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        if bots:
            env.state.apply(bots[seat].choose(env.state, seat), seat=seat)
            env.steps += 1
            env._after_step()
        else:
            env.step(int(rng.choice(env.legal_slots(agent))))
        steps += 1
    state = env.state
    path = None
    if job.out:
        meta = {"source": "qipai.env.selfplay", "policy": job.policy}
        record = state.to_record(seats=[f"{job.policy}_{s}" for s in range(env.num_seats)], meta=meta)
        path = os.path.join(job.out, f"{env.game.id}-{job.seed}.json")
        Path(path).write_text(record.dumps(), encoding="utf-8")
    res = state.result
    return {"seed": job.seed, "steps": steps, "returns": state.returns(),
            "reason": res.reason if res else "truncated", "path": path}


def run(game_id: str, games: int, *, seed: int = 0, workers: int | None = None, policy: str = "random",
        out: str | os.PathLike | None = None, observe: bool = True, **options: Any) -> list[dict[str, Any]]:
    """Play ``games`` games of ``game_id`` (seeds ``seed .. seed+games-1``) in ``workers``
    processes (default: the CPU count; 0 plays in this process). ``out``: a folder for the
    records (created). Returns the per-game summaries in seed order."""
    if out is not None:
        Path(out).mkdir(parents=True, exist_ok=True)
    jobs = [GameJob(game_id, options, seed + i, policy, None if out is None else str(out), observe)
            for i in range(games)]
    if workers == 0:
        return [play_one(j) for j in jobs]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        chunk = max(1, games // (4 * (workers or os.cpu_count() or 1)))
        return list(pool.map(play_one, jobs, chunksize=chunk))


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m qipai.env.selfplay", description=__doc__.split("\n\n")[0])
    p.add_argument("game")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--policy", default="random")
    p.add_argument("--out", default=None, help="folder for the records")
    p.add_argument("--option", action="append", default=[], metavar="NAME=JSON",
                   help="a game option, e.g. --option hands_per_match=1")
    a = p.parse_args(argv)
    options = {}
    for o in a.option:
        name, _, value = o.partition("=")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    t = time.perf_counter()
    results = run(a.game, a.games, seed=a.seed, workers=a.workers, policy=a.policy, out=a.out, **options)
    dt = time.perf_counter() - t
    steps = sum(r["steps"] for r in results)
    print(f"{len(results)} games, {steps} steps in {dt:.1f} s ({len(results) / dt:.1f} games/s, "
          f"{steps / dt:.0f} steps/s)")


if __name__ == "__main__":
    main()
