"""Soak run of the crash check: kill -9 a real `qipai serve` many times with moves in flight.

    .venv/bin/python benchmarks/crash_soak.py --kills 20 --tables 8

Runs ``tests/test_server_crash.py``'s scenario with more kills and tables: after every kill the
server is restarted and play goes on; at the end every acknowledged action of every game must
be in its stored record, in order. Prints the number of actions checked.
"""

from __future__ import annotations

import argparse
import asyncio
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
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        checked = asyncio.run(scenario(Path(tmp), random.Random(seed), args.kills, args.tables))
    print(f"seed {seed}: {args.kills} kills, {args.tables} tables, {checked} acknowledged actions "
          f"checked, none lost ({time.monotonic() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
