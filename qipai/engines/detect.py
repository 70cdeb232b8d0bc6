"""Which protocol an engine speaks, found by greeting it (for ``qipai serve --engine NAME=CMD``
with no protocol named): UCI (``uci`` answered by ``uciok``; an engine offering ``UCI_Variant``
with ``xiangqi`` among its variants, or any other UCI engine, plays xiangqi), GTP
(``protocol_version`` answered ``= 2``) or Gomocup (``START 15`` answered ``OK``)."""

from __future__ import annotations

import contextlib
from typing import Any

from .process import EngineError, EngineProcess

#: the game each protocol plays
GAME_OF = {"uci": "xiangqi", "ucci": "xiangqi", "gtp": "go", "gomocup": "gomoku"}
_FAILED = ("?", "UNKNOWN", "ERROR", "Unknown command")


async def _try(command: Any, line: str, ok: Any, wait: float) -> bool:
    engine = EngineProcess(command)
    await engine.start()
    try:
        await engine.send(line)
        lines = await engine.read_until(lambda s: ok(s) or s.startswith(_FAILED), wait)
        return ok(lines[-1])
    except EngineError:
        return False
    finally:
        with contextlib.suppress(Exception):
            await engine.stop()


async def detect_protocol(command: Any, wait: float = 5.0) -> str:
    """``uci``, ``gtp`` or ``gomocup``. Raises :class:`EngineError` when the engine cannot be
    started or answers none of them within ``wait`` seconds each."""
    if await _try(command, "uci", lambda s: s.strip() == "uciok", wait):
        return "uci"
    if await _try(command, "protocol_version", lambda s: s.startswith("="), wait):
        return "gtp"
    if await _try(command, "START 15", lambda s: s.strip() == "OK", wait):
        return "gomocup"
    raise EngineError("the engine answers none of UCI (uci), GTP (protocol_version) and Gomocup "
                      "(START 15): name its protocol, NAME:PROTOCOL=COMMAND")
