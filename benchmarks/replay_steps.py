"""What one replay costs the server: ``/api/records/{id}/steps`` of a long game, computed and
encoded (:func:`qipai.server.replays.replay_steps`, then the JSON body), in CPU time and bytes.

    .venv/bin/python benchmarks/replay_steps.py [--plies 2000] [--seed 1]

Each game is a random playout (seeded; cut at ``--plies`` actions if it has not ended), stored
as its record, then replayed as the server does. This is why replays are counted per address
(``Limits.replay_ip``) and a lobby record's steps are kept once computed (``StepsCache``). No
peer: no public library serves a game's every position.
"""

from __future__ import annotations

import argparse
import random
import time

import qipai
from qipai.server import jsonbody
from qipai.server.replays import replay_steps

GAMES = ("go", "xiangqi", "doudizhu", "mahjong-gb")


def playout(game_id: str, seed: int, plies: int) -> dict:
    """The record (qipai JSON) of a random playout of ``game_id``, at most ``plies`` actions."""
    state = qipai.load(game_id).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        seat = state.to_act[0]
        state.apply(rng.choice(list(state.legal_actions(seat))), seat=seat)
    return state.to_record().to_json()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plies", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print("| game | actions | CPU ms | ms per action | body MB |\n|---|---|---|---|---|")
    for game_id in GAMES:
        record = playout(game_id, args.seed, args.plies)
        start = time.process_time()
        body = jsonbody.encode({"steps": replay_steps(record)})
        ms = (time.process_time() - start) * 1000
        n = len(record["actions"])
        print(f"| {game_id} | {n} | {ms:.0f} | {ms / max(n, 1):.2f} | {len(body) / 1e6:.2f} |")


if __name__ == "__main__":
    main()
