"""The signed-score notation of a card deal's result (``+9 -3 -3 -3``): one signed integer per
seat in seat order, zero written ``0``. Used as ``Result.text`` by games that settle a deal in
points, and read back from records."""

from __future__ import annotations

import re
from collections.abc import Sequence

from qipai.core.errors import Message

_SIGNED = re.compile(r"[+-]?\d+")


def signed_text(returns: Sequence[int]) -> str:
    """``[9, -3, -3, -3]`` -> ``"+9 -3 -3 -3"``."""
    return " ".join(f"{r:+d}" if r else "0" for r in returns)


def read_signed(text: object, seats: int) -> tuple[int, ...]:
    """The scores written ``text`` (``seats`` signed integers summing to zero). Raises
    ``ValueError`` saying what is wrong."""
    parts = text.split() if isinstance(text, str) else []
    if len(parts) != seats or not all(_SIGNED.fullmatch(p) for p in parts):
        example = signed_text([seats - 1] + [-1] * (seats - 1))
        raise ValueError(Message(f"a result is {seats} signed integers such as {example!r}, not {text!r}",
                                 code="result.signed", params={"seats": seats, "example": example}))
    out = tuple(int(p) for p in parts)
    if sum(out) != 0:
        raise ValueError(Message(f"the scores of a deal sum to zero: {text!r}", code="result.sum_zero"))
    return out
