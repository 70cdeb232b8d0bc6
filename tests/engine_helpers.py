"""Engines for the door tests: the real ones (Debian's fairy-stockfish and gnugo, installed by
.ci/run), qipai's own brains, the small Gomocup test engine and the fault wrapper."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from qipai.match import GameRunner, RealTime

FSF = "/usr/games/fairy-stockfish"
GNUGO = ["/usr/games/gnugo", "--mode", "gtp", "--level", "1"]
QIPAI = [sys.executable, "-m", "qipai.cli"]
HERE = Path(__file__).parent
GOMOCUP_TEST = [sys.executable, str(HERE / "gomocup_engine.py")]


def faulty(protocol: str, fault: str, n: int, engine: list[str], *, every: bool = False,
           once: Path | None = None) -> list[str]:
    """The command of ``engine`` misbehaving (``fault``) at its ``n``-th move request."""
    opts = [protocol, fault, str(n)] + (["--from"] if every else []) + (["--once", str(once)] if once else [])
    return [sys.executable, str(HERE / "engine_faults.py"), *opts, "--", *engine]


def play(game: Any, players: list[Any], clock: Any = "none", **kw: Any):
    """One game in real time; returns the runner's outcome."""
    async def go():
        return await GameRunner(game, players, clock=clock, time=RealTime(), **kw).run()

    return asyncio.run(go())


def events(outcome: Any, kind: str) -> list[dict[str, Any]]:
    return [e for e in outcome.record.meta["events"] if e["type"] == kind]
