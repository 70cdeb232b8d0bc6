"""Large JSON answers encoded off the event loop.

FastAPI encodes what a route returns on the event loop (``jsonable_encoder`` walks every value in
Python, then ``json.dumps``): for an event of 1,024 entrants (300 KB) that is over 100 ms, and a
long game's replay steps are megabytes, while every live table of the server waits. Routes whose
answers can be large return :class:`Encoded` bodies made in a worker thread instead: the same
bytes FastAPI would send (UTF-8, no ASCII escapes, compact separators, NaN refused).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi.encoders import jsonable_encoder
from fastapi.responses import Response


class Encoded(Response):
    """A response whose body is already JSON bytes."""

    media_type = "application/json"


def encode(value: Any) -> bytes:
    """``value`` as FastAPI's JSON response body; values json cannot write (dates, models,
    sets) go through FastAPI's own encoder."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"),
                      default=jsonable_encoder).encode("utf-8")


async def answer(value: Any, status_code: int = 200) -> Encoded:
    """``value`` encoded in a worker thread, as a response."""
    return Encoded(await asyncio.to_thread(encode, value), status_code=status_code)
