"""The actions of go and their text: a play or a pass (:class:`Move`), a dead-stone phase action
(:class:`Mark`), GTP point texts, and the margin of a counted result."""

from __future__ import annotations

import math
from functools import cache
from typing import Any, NamedTuple

from .coords import PASS, to_gtp


class Move(NamedTuple):
    """A play on ``point`` (``row * size + col`` from the top-left) or a pass (``point = -1``)."""

    point: int
    size: int

    def __str__(self) -> str:
        return _point_text(self.point, self.size)

    @property
    def is_pass(self) -> bool:
        return self.point == PASS


class Mark(NamedTuple):
    """A dead-stone phase action: ``dead`` / ``alive`` on the chain through ``point``, ``done``
    (submit the marks) or ``resume`` (refuse the end: play goes on)."""

    kind: str
    point: int
    size: int

    def __str__(self) -> str:
        if self.kind in ("done", "resume"):
            return self.kind
        return f"{self.kind} {_point_text(self.point, self.size)}"


def result_margin(text: str) -> float | None:
    """The margin of a counted result ``B+x`` (the ``x``): a finite number >= 0 and a multiple
    of 0.25, else ``None``. A count gives (B - W) as a whole number (§4.3: B and W are halves
    adding up to the number of points) and every komi is a multiple of 0.25, so no count
    under any komi gives another margin (``B+0.3``)."""
    try:
        x = float(text)
    except ValueError:
        return None
    return x if math.isfinite(x) and x >= 0 and x * 4 == int(x * 4) else None


def _point_text(point: Any, size: Any) -> str:
    """GTP text of a point, or its repr when it is not a point of the board (for messages)."""
    if type(point) is int and type(size) is int and (point == PASS or 0 <= point < size * size):
        return point_texts(size)[point]       # PASS (-1) is the last text
    return repr(point)


@cache
def point_texts(size: int) -> tuple[str, ...]:
    """The GTP text of every point of a ``size`` board, then ``pass``."""
    return tuple(to_gtp(p, size) for p in range(size * size)) + ("pass",)


@cache
def moves_table(size: int) -> tuple[Move, ...]:
    """One :class:`Move` per point, then the pass (so ``moves_table(n)[-1]`` is the pass)."""
    return tuple(Move(p, size) for p in range(size * size)) + (Move(PASS, size),)
