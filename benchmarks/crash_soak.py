"""Soak run of the crash check: kill -9 a real `qipai serve` many times with moves in flight.

    .venv/bin/python benchmarks/crash_soak.py --kills 20 --tables 8 [--storage-writer process]

Runs ``tests/test_server_crash.py``'s scenario with more kills and tables: after every kill the
server is restarted and play goes on; at the end every acknowledged action of every game must
be in its stored record, in order. Prints the number of actions checked. ``--storage-writer``
is passed to ``qipai serve`` (``thread``, its default, or ``process``: the writer process).
Sign-ups hash passwords cheaply (``QIPAI_PASSWORD_HASH=cheapest``, as the test suite does):
at ``nice -n 19`` on a busy machine argon2's real parameters took longer than the client waits.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.test_server_crash import scenario  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=20)
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--storage-writer", choices=("thread", "process"), default="thread")
    args = ap.parse_args()
    os.environ.setdefault("QIPAI_PASSWORD_HASH", "cheapest")
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        checked = asyncio.run(scenario(Path(tmp), random.Random(seed), args.kills, args.tables,
                                       ("--storage-writer", args.storage_writer)))
    print(f"seed {seed}: {args.kills} kills, {args.tables} tables, {args.storage_writer} writer, "
          f"{checked} acknowledged actions checked, none lost ({time.monotonic() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
