"""Load test of the server: N concurrent games over loopback WebSockets.

    .venv/bin/python benchmarks/server_load.py                 # N = 10, 100, 500
    .venv/bin/python benchmarks/server_load.py -n 500 1000 --seconds 30 --think 1.0
    .venv/bin/python benchmarks/server_load.py -n 500 --timeline   # a line per second
    .venv/bin/python benchmarks/server_load.py -n 500 --workers 2 \
        --database-url postgresql+psycopg://root@127.0.0.1/qipai_load --redis-url redis://127.0.0.1:6379/0
    .venv/bin/python benchmarks/server_load.py -n 100 --workers 2 ... --kill-after 8   # failover

Starts ``qipai serve`` in its own process (one worker, SQLite, as shipped — or ``--workers N``
processes of a cluster on one port, on PostgreSQL and Redis, docs/deploy.md; rate limits raised
because every client comes from 127.0.0.1), signs up the accounts every run needs (all of them
before the first measured run: argon2 hashing never overlaps a measurement), and for each opens a
table — xiangqi and doudizhu alternately — where the account plays one seat over a WebSocket and
the server's built-in bots (``--bot``, default ``random`` so that the run measures the server
rather than a bot's search) play the others. A client thinks ``think`` seconds on average
(uniform 0.5x..1.5x) before each move, like a quick human.

The clients run in ``--client-procs K`` processes (default: one per core), each playing every
K-th game from the same start: one asyncio process alone lagged by seconds at 500 games (its
round trips then measured the client, not the server). Each process sends its round trips,
errors, lost games and loop lags back to this one, which merges them (the percentiles are over
all round trips together; the client is ``load_client.py``). ``--client-procs 1`` plays every
game in this process. It measures:

* moves/s handled: every ply the server applied (people and bots), over the run;
* round trip of a person's move: from sending it to receiving the state that contains it
  (p50, p99, max in ms), and the p99 of the steady state: after ``--warmup`` seconds (at the
  start every client opens its table at the same moment) and before the run's end (when every
  client resigns at the same moment);
* per second of the run (``--timeline``): the round trips' p50/p99/max, the server's event-loop
  lag (max) and garbage collections (from its probe, ``Settings.probe_file``), the load client's
  own loop lag (the worst of its processes: a slow client shows up as slow round trips too);
* the server's CPU time per ply (Linux), its peak resident memory (VmHWM), the load average
  (both with its writer process, ``--writer``);
* errors (error messages, failed handshakes or requests, dropped connections) and lost games:
  every game a client finishes (or resigns at the end of the run) must be answered with its
  stored record.

Target on a 2-core machine: 500 concurrent games with steady p99 under 50 ms, 1,000 under 150 ms,
no error, no lost game.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import httpx

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from qipai.server.probe import peak_rss_mb  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import load_client  # noqa: E402
from load_client import Stats, run_with_uvloop  # noqa: E402

#: the steady-state p99 each number of games must stay under (ms)
TARGETS = {500: 50, 1000: 150}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def children(pid: int | None) -> list[int]:
    """The live child processes of ``pid`` (the server's writer process; Linux /proc)."""
    out: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            out += [int(c) for c in open(f"/proc/{pid}/task/{task}/children").read().split()]
    except (OSError, ValueError, TypeError):
        pass
    return out


def cpu_seconds(pid: int | None, with_children: bool = False) -> float:
    """User + system CPU time of process ``pid`` (Linux /proc), with that of its live children
    when asked (the writer process works for the server), or 0 when unknown."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, TypeError):
        return 0.0
    return own + (sum(cpu_seconds(c) for c in children(pid)) if with_children else 0.0)


def server_code(data: str, port: int, writer: str, database_url: str | None = None,
                redis_url: str | None = None, probe: bool = True) -> str:
    """The Python source of one server (or cluster worker) process."""
    url = database_url or f"sqlite:///{data}/qipai.db"
    return (
        "from qipai.server import Limits, Settings, serve; "
        "lim = Limits(moves_ip=(1e6, 10**6), api_ip=(1e6, 10**6), signup_ip=(1e6, 10**6), "
        "login_ip=(1e6, 10**6)); "
        f"serve('127.0.0.1', {port}, Settings(database_url={url!r}, limits=lim, redis_url={redis_url!r}, "
        f"bot_delay_ms=0, probe_file={f'{data}/probe.jsonl' if probe else None!r}, "
        f"storage_writer='{writer}'), log_level='warning')"
    )


def start_server(data: str, port: int, writer: str = "thread", workers: int = 1,
                 database_url: str | None = None, redis_url: str | None = None) -> subprocess.Popen:
    """The server: one process, or (``workers`` > 1, or a ``redis_url``) a launcher whose
    children are the cluster's workers on one port (the CPU and memory figures add them up;
    the first worker writes the probe)."""
    if workers == 1 and not redis_url:
        return subprocess.Popen([sys.executable, "-c", server_code(data, port, writer, database_url)])
    codes = [server_code(data, port, writer, database_url, redis_url, probe=i == 0) for i in range(workers)]
    # a worker that has not stopped 45 s after SIGTERM is killed: left running (the benchmark
    # gives the launcher 60 s), it loaded the machine and held the benchmark's output open
    launcher = (
        "import subprocess, sys, signal, time\n"
        f"ps = [subprocess.Popen([sys.executable, '-c', c]) for c in {codes!r}]\n"
        "until = []\n"
        "def stop(*a):\n"
        "    until.append(time.monotonic() + 45)\n"
        "    for p in ps:\n        p.terminate()\n"
        "signal.signal(signal.SIGTERM, stop)\n"
        "while any(p.poll() is None for p in ps):\n"
        "    if until and time.monotonic() > until[0]:\n"
        "        for p in ps:\n            p.kill()\n"
        "    time.sleep(0.2)\n"
    )
    return subprocess.Popen([sys.executable, "-c", launcher])


def probe_lines(data: str, since: float, until: float) -> list[dict]:
    """The server probe's lines (one per second) written between ``since`` and ``until``."""
    try:
        lines = [json.loads(x) for x in open(os.path.join(data, "probe.jsonl"))]
    except OSError:
        return []
    return [x for x in lines if since <= x["t"] <= until]


def reset_peak(pid: int | None) -> None:
    """Start the server's peak resident memory (VmHWM) afresh, so that a run reports its own
    peak and not the sign-ups' (argon2 takes tens of MB per hash) (Linux; else nothing)."""
    for child in children(pid):
        reset_peak(child)
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
    except (OSError, TypeError):
        pass


async def kill_one(pid: int | None, at: float, out: dict) -> None:
    """Kill (SIGKILL) the first worker of the cluster launched as ``pid`` at ``at``
    (``time.monotonic``)."""
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    workers = children(pid)
    if workers:
        os.kill(workers[0], 9)
        out["killed_at"] = time.monotonic()


async def run(n: int, base: str, tokens: list[str], seconds: float, think: float,
              pid: int | None, bot: str, warmup: float, data: str, timeline: bool,
              kill_after: float | None = None, client_procs: int = 1) -> dict:
    killed: dict = {}
    reset_peak(pid)
    load0 = os.getloadavg()[0]
    cpu0 = cpu_seconds(pid, with_children=True)
    mine0 = cpu_seconds(os.getpid())
    mono0, wall0 = time.monotonic(), time.time()
    rng = random.Random(n)
    games = [(i, tokens[i], rng.random()) for i in range(n)]
    k = max(1, min(client_procs, n))
    reconnect = kill_after is not None
    killer: list[asyncio.Future] = []

    def started(at: float) -> None:          # the clients start at ``at``: the kill counts from it
        if kill_after is not None:
            killer.append(asyncio.ensure_future(kill_one(pid, at + kill_after, killed)))
    if k == 1:
        start = time.monotonic()
        started(start)
        stats, lags = await load_client.play_share(base, games, think, start, start + seconds, bot,
                                                   reconnect)
        others = 0.0
    else:
        stats, lags, start, others = await load_client.play_in_processes(
            k, base, games, think, seconds, bot, reconnect, started)
    for f in killer:
        f.cancel()
    wall0 += start - mono0                   # the wall-clock time of the start
    until = start + seconds
    took = time.monotonic() - start
    cpu = cpu_seconds(pid, with_children=True) - cpu0
    mine = cpu_seconds(os.getpid()) - mine0 + others
    server = probe_lines(data, wall0, wall0 + took + 1) if data else []
    if timeline:
        print_timeline(stats, lags, server, start, wall0, took)
    steady_lag = [x["lag_max_ms"] for x in server if x["t"] >= wall0 + warmup]
    q = statistics.quantiles(stats.rtt, n=100) if len(stats.rtt) > 1 else [0.0] * 99
    # steady state: after the first `warmup` seconds, in which every client opens its table at
    # once, and before the end of the run, when every client resigns at once
    steady = [r for r, at in zip(stats.rtt, stats.rtt_at) if start + warmup <= at < until]
    qs = statistics.quantiles(steady, n=100) if len(steady) > 1 else [0.0] * 99
    return {"games": n, "seconds": round(took, 1), "plies": stats.plies,
            "moves_per_s": round(stats.plies / took, 1), "person_moves": stats.human_moves,
            "rtt_p50_ms": round(statistics.median(stats.rtt), 2) if stats.rtt else 0.0,
            "rtt_p99_ms": round(q[98], 2), "rtt_max_ms": round(max(stats.rtt or [0]), 2),
            "steady_p99_ms": round(qs[98], 2),
            "finished_games": stats.finished, "errors": len(stats.errors), "lost_games": stats.lost,
            "first_errors": stats.errors[:3],
            # (not measured when a worker was killed: its CPU time leaves the sum)
            "server_cpu_ms_per_ply": round(cpu * 1000 / stats.plies, 2)
            if stats.plies and cpu > 0 and not killed else None,
            "server_cpu_share": round(cpu / took, 2) if not killed else None,
            "client_cpu_share": round(mine / took, 2),
            "client_procs": k,
            "server_peak_mb": round(sum(peak_rss_mb(p) for p in [pid, *children(pid)]), 1) if pid else None,
            "server_lag_max_ms": max(steady_lag) if steady_lag else None,
            "client_lag_max_ms": round(max((ms for at, ms in lags if at >= start + warmup), default=0.0), 1),
            "gc2": sum(x["gc"][2][0] for x in server),
            "gc2_max_ms": max((x["gc"][2][1] for x in server), default=0),
            "load": f"{load0:.1f}/{os.getloadavg()[0]:.1f}",
            # a failover run: sockets broken by the kill, the longest time until their game was
            # served again, positions acknowledged and then missing, requests sent again
            # take-over: from the kill to the last broken game served again
            "failover": {"killed": "killed_at" in killed,
                         "takeover_s": round(max(stats.back_at) - killed["killed_at"], 2)
                         if stats.back_at and "killed_at" in killed else None,
                         "broken": len(stats.gaps), "max_s": round(max(stats.gaps, default=0.0), 2),
                         "p50_s": round(statistics.median(stats.gaps), 2) if stats.gaps else None,
                         "acked_lost": stats.acked_lost, "retried": stats.retried}
            if kill_after is not None else None}


def print_timeline(stats: Stats, lags: list[tuple[float, float]], server: list[dict], start: float,
                   wall0: float, took: float) -> None:
    """One line per second of the run: round trips ended in it (count, p50, p99, max), the
    server's loop lag and full collections, the client's loop lag."""
    print(f"  {'s':>3} {'moves':>6} {'p50':>6} {'p99':>6} {'max':>6} {'srv lag':>8} {'gc0/1/2 max ms':>16} "
          f"{'cli lag':>8}")
    by_second = {int(x["t"] - wall0): x for x in server}
    for sec in range(int(took) + 1):
        rtt = sorted(r for r, at in zip(stats.rtt, stats.rtt_at) if sec <= at - start < sec + 1)
        cl = [ms for at, ms in lags if sec <= at - start < sec + 1]
        srv = by_second.get(sec)
        gc = "/".join(f"{g[1]:.0f}" for g in srv["gc"]) if srv else "-"
        p50, p99 = (rtt[int(len(rtt) * q)] for q in (0.5, 0.99)) if rtt else (0.0, 0.0)
        print(f"  {sec:>3} {len(rtt):>6} {p50:>6.1f} {p99:>6.1f} {(rtt or [0])[-1]:>6.1f} "
              f"{srv['lag_max_ms'] if srv else '-':>8} {gc:>16} {max(cl, default=0):>8.1f}")


COLUMNS = [("games", "games", 5), ("moves/s", "moves_per_s", 8), ("plies", "plies", 6),
           ("p50 ms", "rtt_p50_ms", 7), ("p99 ms", "rtt_p99_ms", 7), ("steady p99", "steady_p99_ms", 10),
           ("max ms", "rtt_max_ms", 7), ("finished", "finished_games", 8), ("errors", "errors", 6),
           ("lost", "lost_games", 4), ("cpu ms/ply", "server_cpu_ms_per_ply", 10),
           ("server cpu", "server_cpu_share", 10), ("client cpu", "client_cpu_share", 10),
           ("peak MB", "server_peak_mb", 7), ("srv lag", "server_lag_max_ms", 7),
           ("cli lag", "client_lag_max_ms", 7), ("gc2", "gc2", 4), ("gc2 ms", "gc2_max_ms", 6),
           ("load", "load", 9)]


async def main_async(args) -> int:
    return (await measure(args))[0]


async def measure(args) -> tuple[int, list[dict]]:
    """Start the server ``args`` describe, run ``args.n`` games after games, print a row each;
    returns (1 if a target was missed or anything failed else 0, each run's figures)."""
    results: list[dict] = []
    data = tempfile.mkdtemp(prefix="qipai-load-")
    port = int(os.environ.get("QIPAI_LOAD_PORT", 0)) or free_port()
    if args.workers > 1 or args.redis_url:
        if not (args.database_url and args.redis_url):
            raise SystemExit("--workers N needs --database-url postgresql+psycopg://... and --redis-url")
        os.environ["QIPAI_CLUSTER_NAME"] = f"qipai-load-{os.getpid()}"
    proc = start_server(data, port, args.writer, args.workers, args.database_url, args.redis_url) \
        if not os.environ.get("QIPAI_LOAD_PORT") else None
    base = f"127.0.0.1:{port}"
    failed = False
    try:
        async with httpx.AsyncClient(base_url="http://" + base, timeout=60) as http:
            # every worker answers: new connections (spread over the workers by the kernel)
            # until 8 per worker in a row have been answered
            answered = 0
            for _ in range(3000):
                try:
                    async with httpx.AsyncClient(base_url="http://" + base, timeout=60) as probe:
                        ok = (await probe.get("/api/games")).status_code == 200
                except httpx.HTTPError:
                    ok = False
                answered = answered + 1 if ok else 0
                if answered >= 8 * args.workers:
                    break
                if not ok:
                    await asyncio.sleep(0.1)
            # every account first: their argon2 hashing is over before any measurement begins
            need = max(args.n)
            tokens = []
            for i in range(0, need, 25):
                batch = range(i, min(need, i + 25))
                tokens += await asyncio.gather(*(load_client.signup(http, f"load{j}") for j in batch))
        await asyncio.sleep(1)
        load = os.getloadavg()[0]
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {load:.1f}; "
              f"think {args.think} s per person move, {args.seconds} s per run, server bots: {args.bot}, "
              f"writer: {args.writer}, client processes: "
              f"{getattr(args, 'client_procs', None) or load_client.client_procs_default()}")
        print(" ".join(f"{head:>{w}}" for head, _, w in COLUMNS))
        for n in args.n:
            r = await run(n, base, tokens, args.seconds, args.think, proc.pid if proc else None, args.bot,
                          args.warmup, data if proc else "", args.timeline, args.kill_after,
                          getattr(args, "client_procs", None) or load_client.client_procs_default())
            results.append(r)
            print(" ".join(f"{r[key]!s:>{w}}" for _, key, w in COLUMNS), flush=True)
            if r["failover"] is not None:
                print("  failover:", r["failover"])
                failed = failed or r["failover"]["acked_lost"] > 0 or r["failover"]["max_s"] >= 5
            if args.json:
                print(json.dumps(r))
            if r["errors"] or r["lost_games"]:
                failed = True
                print("  errors:", r["first_errors"])
            if n in TARGETS and r["steady_p99_ms"] >= TARGETS[n]:
                print(f"  target missed: steady p99 >= {TARGETS[n]} ms at {n} games")
                failed = True
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(data, ignore_errors=True)
    return (1 if failed else 0), results


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, nargs="*", default=[10, 100, 500], help="concurrent games per run")
    ap.add_argument("--seconds", type=float, default=20.0, help="length of each run")
    ap.add_argument("--think", type=float, default=1.0, help="mean thinking time of a person (s)")
    ap.add_argument("--warmup", type=float, default=3.0,
                    help="seconds at the start of a run left out of the steady-state p99")
    ap.add_argument("--bot", default="random",
                    help="the server's bots (random: the referee's cost only; xiangqi's greedy bot "
                         "searches about 1 ms per move itself)")
    ap.add_argument("--timeline", action="store_true",
                    help="a line per second: round trips p50/p99/max, server loop lag and GC, client lag")
    ap.add_argument("--json", action="store_true", help="also print each run's figures as JSON")
    ap.add_argument("--writer", choices=("process", "thread"), default="thread",
                    help="where the server's group commits run (Settings.storage_writer; thread, "
                         "the server's default: docs/server.md, 'Which writer')")
    ap.add_argument("--workers", type=int, default=1,
                    help="cluster workers sharing the port (needs --database-url and --redis-url)")
    ap.add_argument("--database-url", help="the server's database (default: a new SQLite file)")
    ap.add_argument("--redis-url", help="the cluster's Redis (docs/deploy.md)")
    ap.add_argument("--client-procs", type=int, default=load_client.client_procs_default(),
                    help="processes of the load client, each playing its share of the games "
                         "(default: one per core; 1: in this process alone)")
    ap.add_argument("--kill-after", type=float,
                    help="kill -9 one worker this many seconds into each run; clients reconnect, and "
                         "the run reports the failover time and acknowledged positions lost")
    return run_with_uvloop(main_async(ap.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
