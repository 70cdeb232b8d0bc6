"""A small Botzone-style JSON bot written for the door tests (any game): it reads the whole
history as one JSON line, checks its shape (one request more than responses), answers one legal
action, and then exits (restart per turn) or, with ``--keep``, prints
``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` and reads each next request alone.

    python tests/botzone_engine.py [--keep] [--seed N] [--fault KIND --at N [--from] [--once FILE]]

Its choice: a win (``hu``) when offered, the highest bid of doudizhu, else a seeded random one
of the listed actions (the request's ``legal``, else the view's ``legal`` / ``legal_moves``,
else the ``hint``). It keeps ``data`` (how many requests it has answered in this game) to show
the door hands it back. Faults at the N-th request of the game: ``crash`` (exit without
answering), ``hang`` (never answer), ``garbage`` (a line that is not JSON), ``illegal`` (an
action no game has). ``--from``: at every request from the N-th on; ``--once FILE``: only while
FILE does not exist (it is made then), so a restarted bot plays on."""

from __future__ import annotations

import json
import os
import random
import sys
import time


def choose(request: dict, rng: random.Random) -> str:
    view = request["view"]
    legal = request.get("legal") or view.get("legal") or view.get("legal_moves") or []
    if not legal:
        return request["hint"]
    wins = [a for a in legal if a.split()[0] in ("hu", "win")]
    if wins:
        return wins[0]
    bids = [a for a in legal if a.startswith("bid")]
    if bids:
        return bids[-1]
    return rng.choice(sorted(legal))


def main() -> None:
    args = sys.argv[1:]
    keep = "--keep" in args
    seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 0
    fault = args[args.index("--fault") + 1] if "--fault" in args else None
    at = int(args[args.index("--at") + 1]) if "--at" in args else 0
    every = "--from" in args
    once = args[args.index("--once") + 1] if "--once" in args else None
    first = json.loads(sys.stdin.readline())
    requests, responses = first["requests"], first["responses"]
    if len(requests) != len(responses) + 1 or not isinstance(first["time_limit"], (int, float)):
        print(json.dumps({"response": "bad-history"}), flush=True)
        return
    data = int(first.get("data") or 0)
    if data != len(responses) and data:
        print(json.dumps({"response": "lost-data"}), flush=True)     # data not handed back
        return
    rng = random.Random(seed * 1000 + len(requests))
    request = requests[-1]
    n = len(requests)
    while True:
        hit = fault and (n == at or (every and n >= at)) and not (once and os.path.exists(once))
        if hit and once:
            open(once, "w").close()
        if hit and fault == "crash":
            sys.exit(3)
        if hit and fault == "hang":
            time.sleep(3600)
        if hit and fault == "garbage":
            print("this is not json", flush=True)
        else:
            answer = "zz-not-an-action" if hit and fault == "illegal" else choose(request, rng)
            print(json.dumps({"response": answer, "data": str(n), "debug": f"request {n}"}), flush=True)
        if not keep:
            return
        print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
        line = sys.stdin.readline()
        if not line:
            return
        request = json.loads(line)
        n += 1


if __name__ == "__main__":
    main()
