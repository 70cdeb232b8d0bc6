"""Load and failover of a cluster (docs/deploy.md): the same games on 1, 2 and 4 workers on
PostgreSQL and Redis, then a worker killed under load. One command:

    .venv/bin/python benchmarks/cluster_load.py                      # 500 games, 30 s a run
    .venv/bin/python benchmarks/cluster_load.py -n 50 --seconds 10   # a small version

Each run is ``benchmarks/server_load.py`` (its clients, figures and checks): ``n`` concurrent
games over WebSockets through one port (the workers share it, SO_REUSEPORT), each with one
scripted person (a move every ``--think`` seconds on average) and the server's bots in the
other seats, on a fresh PostgreSQL database (made from ``--postgres``, dropped afterwards) and a
cluster name of its own in Redis. Rows:

* ``sqlite`` — one process on SQLite, as shipped (the figure a cluster should hold);
* ``pg×1``, ``pg×2``, ``pg×4`` — 1, 2 and 4 workers on PostgreSQL and Redis;
* ``failover`` — ``--failover-workers`` workers (default 2); one is killed with SIGKILL
  ``--kill-after`` seconds into the run and its clients reconnect (to another worker): the
  time from the kill until the last broken game was served again, and positions acknowledged
  to a client and missing after the reconnect (must be 0), as well as every game's stored
  record (``lost``).

Columns: moves/s handled (every ply, people and bots), the person's move round trip p50 and
p99 in ms (and the steady-state p99, leaving out the first seconds and the end), errors and
lost games, the server's CPU per ply, and the load average before/after the run — on a shared
machine read the figures next to it. Exit status 1 when something was lost or failed.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from types import SimpleNamespace

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import server_load  # noqa: E402

ADMIN = os.environ.get("QIPAI_TEST_POSTGRES", "postgresql://root@127.0.0.1:5432/test")


def admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(ADMIN, autocommit=True, connect_timeout=5) as c:
        c.execute(sql)


class Database:
    """A new empty PostgreSQL database on the ``--postgres`` server (the workers migrate it)."""

    def __enter__(self) -> str:
        self.name = "qipai_load_" + secrets.token_hex(4)
        admin(f'CREATE DATABASE "{self.name}"')
        base = ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://", 1)
        return f"{base}/{self.name}"

    def __exit__(self, *exc) -> None:
        admin(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{self.name}'")
        admin(f'DROP DATABASE IF EXISTS "{self.name}"')


ROW = [("run", 9), ("workers", 7), ("games", 5), ("moves/s", 8), ("p50 ms", 7), ("p99 ms", 7),
       ("steady p99", 10), ("errors", 6), ("lost", 4), ("cpu ms/ply", 10), ("load", 9),
       ("take-over s", 11), ("acked lost", 10)]


def row(name: str, workers: int, r: dict) -> str:
    f = r.get("failover") or {}
    cells = [name, workers, r["games"], r["moves_per_s"], r["rtt_p50_ms"], r["rtt_p99_ms"],
             r["steady_p99_ms"], r["errors"], r["lost_games"], r["server_cpu_ms_per_ply"], r["load"],
             f.get("takeover_s", "-") if f else "-", f.get("acked_lost", "-") if f else "-"]
    return " ".join(f"{c!s:>{w}}" for c, (_, w) in zip(cells, ROW))


async def one(name: str, workers: int, args, kill_after: float | None = None) -> tuple[int, dict]:
    ns = SimpleNamespace(n=[args.n], seconds=args.seconds, think=args.think, warmup=args.warmup,
                         bot=args.bot, timeline=False, json=False, writer=args.writer, workers=workers,
                         database_url=None, redis_url=None, kill_after=kill_after,
                         client_procs=args.client_procs)
    print(f"--- {name}: {workers} worker(s), {args.n} games, {args.seconds} s", flush=True)
    if name == "sqlite":
        status, results = await server_load.measure(ns)
        return status, results[0]
    with Database() as url:
        ns.database_url, ns.redis_url = url, args.redis_url
        status, results = await server_load.measure(ns)
    return status, results[0]


async def main_async(args) -> int:
    failed = 0
    rows: list[str] = []
    plan = ([("sqlite", 1)] if not args.no_sqlite else []) + [(f"pg×{w}", w) for w in args.workers]
    for name, w in plan:
        status, r = await one(name, w, args)
        failed |= status
        rows.append(row(name, w, r))
    if args.failover_workers:
        status, r = await one("failover", args.failover_workers, args, args.kill_after)
        f = r["failover"]
        failed |= status or int(not f["killed"])
        rows.append(row("failover", args.failover_workers, r))
    print(f"\nsummary ({os.cpu_count()} cores; load average now {os.getloadavg()[0]:.1f}; "
          f"think {args.think} s; {args.seconds} s a run)")
    print(" ".join(f"{h:>{w}}" for h, w in ROW))
    for line in rows:
        print(line)
    return 1 if failed else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=500, help="concurrent games in each run")
    ap.add_argument("--seconds", type=float, default=30.0, help="length of each run")
    ap.add_argument("--think", type=float, default=1.0, help="mean thinking time of a person (s)")
    ap.add_argument("--warmup", type=float, default=3.0, help="seconds left out of the steady p99")
    ap.add_argument("--bot", default="random", help="the server's bots")
    ap.add_argument("--writer", choices=("process", "thread"), default="thread",
                    help="Settings.storage_writer (thread, the server's default: docs/server.md)")
    ap.add_argument("--workers", type=int, nargs="*", default=[1, 2, 4], help="cluster sizes to run")
    ap.add_argument("--no-sqlite", action="store_true", help="leave out the one-process SQLite run")
    ap.add_argument("--failover-workers", type=int, default=2,
                    help="workers of the failover run (0: no failover run)")
    ap.add_argument("--kill-after", type=float, default=None,
                    help="seconds into the failover run when a worker is killed (default: a third)")
    ap.add_argument("--client-procs", type=int, default=server_load.load_client.client_procs_default(),
                    help="processes of the load client (default: one per core)")
    ap.add_argument("--redis-url", default=os.environ.get("QIPAI_REDIS_URL", "redis://127.0.0.1:6379/0"))
    ap.add_argument("--postgres", default=None,
                    help="a PostgreSQL URL where databases may be made (default $QIPAI_TEST_POSTGRES, "
                         "else postgresql://root@127.0.0.1:5432/test)")
    args = ap.parse_args()
    if args.postgres:
        global ADMIN
        ADMIN = args.postgres
    if args.kill_after is None:
        args.kill_after = args.seconds / 3
    return server_load.run_with_uvloop(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
