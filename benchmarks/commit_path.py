"""The commit path of moves on PostgreSQL alone, without sockets or a load client: how long a
move waits from being appended to the store until it is durable (what every acknowledgement
waits for), with the commits in a worker thread or sent from the event loop
(qipai/server/loopcommit.py), while the event loop is kept busy as a loaded server's is.

    .venv/bin/python benchmarks/commit_path.py                       # both ways, alternately
    .venv/bin/python benchmarks/commit_path.py --moves 1000 --busy 0.6 --rounds 3

Each run: a fresh database (made on ``--postgres``, dropped afterwards) with ``--tables`` live
tables, ``--moves`` action rows a second appended at random moments over ``--seconds``, and the
event loop busy ``--busy`` of the time in slices of ``--slice`` ms of pure Python (the referee,
JSON and sockets of a real server). Printed per run: append→durable p50/p90/p99/max in ms, the
commits and rows per commit, the process's CPU time per row (all threads, the busy share taken
out: with ``--busy 0`` it is the commit path's own cost, which a loaded machine does not
inflate as it does the waits), and the load average before and after (on a shared machine,
read the figures beside it). The ways alternate, so that both see the same minutes of the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import sys
import time

ADMIN = os.environ.get("QIPAI_TEST_POSTGRES", "postgresql://root@127.0.0.1:5432/test")


def admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(ADMIN, autocommit=True, connect_timeout=5) as c:
        c.execute(sql)


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return round(s[min(len(s) - 1, int(len(s) * q))] * 1000, 1) if s else 0.0


async def busy(until: float, share: float, slice_ms: float) -> None:
    """Hold the event loop ``share`` of the time, ``slice_ms`` at once (CPU in Python)."""
    while time.monotonic() < until:
        end = time.perf_counter() + slice_ms / 1000
        x = 0
        while time.perf_counter() < end:
            x += 1
        await asyncio.sleep(slice_ms / 1000 * (1 - share) / share)


async def one(url: str, loop_commits: bool, args) -> dict:
    from qipai.competition.db import open_db
    from qipai.server.commit import NewTable, write_ops
    from qipai.server.store import Gate, Store

    db = open_db(url)
    tids = [secrets.token_hex(8) for _ in range(args.tables)]
    write_ops(db, [NewTable({"id": t, "game": "xiangqi", "options": {}, "num_seats": 2,
                             "seats": [None, None], "settings": {}, "status": "playing",
                             "owner_id": None, "event_id": None, "event_game": None,
                             "created": "2026-12-06T00:00:00Z"}) for t in tids])
    store = Store(db, stall=30.0, loop_commits=loop_commits)
    await store.start()
    gates = {t: Gate(t, 0) for t in tids}
    nxt = dict.fromkeys(tids, 0)
    waits: list[float] = []
    commits = [0]
    real = store._write

    async def counted(batch):
        commits[0] += 1
        return await real(batch)

    store._write = counted                  # type: ignore[method-assign]

    async def move(t: str) -> None:
        g = gates[t]
        store.append(g, {"table_id": t, "idx": nxt[t], "kind": "move", "seat": nxt[t] % 2,
                         "action": "h2e2", "t": nxt[t] * 1000, "data": {"turn": nxt[t]}, "epoch": 0})
        nxt[t] += 1
        t0 = time.perf_counter()
        await g.wait(g.logged)
        waits.append(time.perf_counter() - t0)

    rng = random.Random(1)
    load0 = os.getloadavg()[0]
    cpu0 = time.process_time()
    start = time.monotonic()
    until = start + args.seconds
    hog = asyncio.ensure_future(busy(until, args.busy, args.slice)) if args.busy > 0 else None
    pending = []
    n = int(args.moves * args.seconds)
    if args.batch:                  # K rows at once, waited for, again: one commit of K rows each
        while time.monotonic() < until:
            await asyncio.gather(*(move(rng.choice(tids)) for _ in range(args.batch)))
        n = 0
    for i in range(n):
        at = start + i / args.moves
        delay = at - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        pending.append(asyncio.ensure_future(move(rng.choice(tids))))
    await asyncio.gather(*pending)
    if hog is not None:
        await hog
    await store.stop(10.0)
    cpu = time.process_time() - cpu0
    db.kw["bind"].dispose()
    return {"way": "loop" if loop_commits else "thread", "moves": len(waits),
            "p50": pct(waits, .5), "p90": pct(waits, .9), "p99": pct(waits, .99),
            "max": pct(waits, 1.0), "commits": commits[0],
            "rows/commit": round(len(waits) / max(1, commits[0]), 1),
            "cpu µs/row": round((cpu - (args.busy * args.seconds if args.busy > 0 else 0))
                                / max(1, len(waits)) * 1e6),
            "load": f"{load0:.1f}/{os.getloadavg()[0]:.1f}"}


async def main_async(args) -> int:
    base = ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://", 1)
    rows = []
    for _ in range(args.rounds):
        for loop_commits in (False, True):
            name = f"qipai_commit_{secrets.token_hex(4)}"
            admin(f'CREATE DATABASE "{name}"')
            try:
                row = await one(f"{base}/{name}", loop_commits, args)
            finally:
                admin(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
                admin(f'DROP DATABASE IF EXISTS "{name}"')
            rows.append(row)
            print(row, flush=True)
    print(f"\n{os.cpu_count()} cores; {args.tables} tables, {args.moves} moves/s, {args.seconds} s a run, "
          f"event loop busy {args.busy:.0%} in {args.slice} ms slices; append → durable, ms")
    cols = ["way", "moves", "p50", "p90", "p99", "max", "commits", "rows/commit", "cpu µs/row", "load"]
    print(" ".join(f"{c:>11}" for c in cols))
    for row in rows:
        print(" ".join(f"{row[c]!s:>11}" for c in cols))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=250)
    ap.add_argument("--moves", type=float, default=500.0, help="moves appended per second")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--busy", type=float, default=0.5, help="share of the time the loop is busy")
    ap.add_argument("--slice", type=float, default=2.0, help="ms the loop is held at once")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--batch", type=int, default=0,
                    help="instead of --moves: commits of this many rows, one after the other "
                         "(compares the CPU per row at one batch size)")
    args = ap.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
