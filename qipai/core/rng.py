"""Seeded, portable, verifiable randomness.

Every random choice a game makes comes from a :class:`DealRng` built from the state's seed.
The generator is a SHA-256 counter stream, so the same seed gives the same deal on every
Python version and platform, and its whole state is two JSON-ready values (seed, counter).

Commit-reveal: before a deal the server publishes :func:`commitment` of the seed; after the
hand it publishes the seed, and anyone can check ``commitment(seed)`` and re-deal with it.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from functools import cache
from typing import Any


def new_seed() -> str:
    """A fresh unpredictable seed (64 hex digits)."""
    return secrets.token_hex(32)


def commitment(seed: int | str) -> str:
    """SHA-256 hex digest that commits to ``seed`` without revealing it."""
    return hashlib.sha256(f"qipai-seed:{seed}".encode()).hexdigest()


def verify(seed: int | str, published: str) -> bool:
    """True when ``published`` is the commitment of ``seed``."""
    return secrets.compare_digest(commitment(seed), published)


@cache
def _limit(n: int) -> int:
    """The largest multiple of ``n`` not above 2**256: blocks from it up are drawn again."""
    return (1 << 256) - ((1 << 256) % n)


# the decimal texts of the first block counters, written once: a deal's blocks are among the
# first few hundred of its stream (a redeal continues it)
_COUNTER_TEXT = tuple(b"%d" % k for k in range(1024))


@cache
def _limits(n: int) -> tuple[int, ...]:
    """``_limit(i + 1)`` for ``i`` in ``range(n)``: the limits of a shuffle of ``n`` items."""
    return tuple(_limit(i + 1) for i in range(n))


class DealRng:
    """Deterministic random stream: ``sha256(seed, counter)`` blocks."""

    def __init__(self, seed: int | str, counter: int = 0) -> None:
        self.seed = seed
        self.counter = counter
        self._prefix = f"qipai-rng:{seed}:".encode()

    def _block(self) -> int:
        """Block ``counter``: the SHA-256 of ``qipai-rng:{seed}:{counter}`` as an integer."""
        h = hashlib.sha256(self._prefix + b"%d" % self.counter).digest()
        self.counter += 1
        return int.from_bytes(h, "big")

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _limit(n)
        while True:
            x = self._block()
            if x < limit:
                return x % n

    def choice(self, items: Sequence[Any]) -> Any:
        return items[self.below(len(items))]

    def shuffle(self, items: list[Any]) -> list[Any]:
        """Fisher-Yates shuffle in place; returns ``items``: for ``i`` from ``len - 1`` down to
        1, ``j = below(i + 1)`` and swap. The draws are :meth:`below`'s, block for block,
        written out in one loop (a deal is mostly these draws); each block's hash continues a
        copy of the prefix's hash instead of hashing the prefix again, and the counter's text
        is read from a table of the first 1,024."""
        read, counter = int.from_bytes, self.counter
        copy = hashlib.sha256(self._prefix).copy
        limits = _limits(len(items))
        texts, ntexts = _COUNTER_TEXT, len(_COUNTER_TEXT)
        for i in range(len(items) - 1, 0, -1):
            limit = limits[i]
            while True:
                h = copy()
                h.update(texts[counter] if counter < ntexts else b"%d" % counter)
                x = read(h.digest(), "big")
                counter += 1
                if x < limit:
                    break
            j = x % (i + 1)
            items[i], items[j] = items[j], items[i]
        self.counter = counter
        return items

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "counter": self.counter}
