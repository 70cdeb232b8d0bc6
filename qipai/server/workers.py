"""``qipai serve --workers N``: N worker processes on one port, kept running.

Each worker is a whole ``qipai serve`` of its own (the same command line without
``--workers``) in a cluster (``--redis-url``): every worker listens on the same public port with
``SO_REUSEPORT`` (the kernel spreads new connections over them) and on an internal port of its
own for requests relayed between workers (:mod:`.relay`). This process only starts them,
starts again (after a second) one that stops without being asked, and stops them all on
``SIGINT``/``SIGTERM``. Starting N processes by hand (or from a process manager) with the same
settings is the same cluster.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from qipai.i18n import say


def without_workers(argv: list[str]) -> list[str]:
    """``argv`` (the ``serve`` arguments) without ``--workers N`` / ``--workers=N``."""
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a == "--workers":
            skip = True
        elif not a.startswith("--workers="):
            out.append(a)
    return out


def run_workers(n: int, argv: list[str], restart_after: float = 1.0) -> int:
    """Run ``n`` workers of ``qipai serve`` with the arguments ``argv`` until a signal stops
    this process; returns the exit status (0 after a signal)."""
    qipai = [sys.executable, "-m", "qipai.cli"] if not (Path(sys.executable).parent / "qipai").exists() \
        else [str(Path(sys.executable).parent / "qipai")]
    command = [*qipai, "serve", *without_workers(argv)]
    procs: list[subprocess.Popen | None] = [None] * n
    died_at: list[float] = [0.0] * n
    stopping = False

    def stop(signum, _frame) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    print(say("cli.serve.workers", {"n": n}), flush=True)
    while not stopping:
        for i in range(n):
            p = procs[i]
            if p is not None and p.poll() is not None:
                print(say("cli.serve.workerStopped", {"n": i + 1, "pid": p.pid, "code": p.returncode}),
                      flush=True)
                procs[i], died_at[i] = None, time.monotonic()
            if procs[i] is None and time.monotonic() - died_at[i] >= restart_after:
                procs[i] = subprocess.Popen(command)
        time.sleep(0.2)
    for p in procs:
        if p is not None and p.poll() is None:
            p.terminate()
    for p in procs:
        if p is not None:
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
    return 0
