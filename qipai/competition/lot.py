"""Verifiable random decisions of an event (competition.md §6.1): commit, derive, reveal.

``seed(secret, purpose, fields)`` is HMAC-SHA256 keyed by the secret over
``"qipai-rng-v1|" + purpose + "|" + "|".join(fields)``; :class:`Stream` reads HMAC-SHA256
counter blocks of that seed as big-endian 64-bit words; ``uniform(n)`` rejects words at or
above ``2**64 - 2**64 % n``; ``shuffle`` is Fisher-Yates from the top. The commitment of a
secret is its SHA-256 in lowercase hex, published before it is used and checked after reveal.

Purposes used here: ``draw`` (draw numbers), ``lot`` (ties by lot), ``seats`` (seats at a
table), ``coin`` (first mover of a game), ``deal`` (the seed a deal is created from).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Sequence
from typing import Any

PREFIX = "qipai-rng-v1"


def new_secret() -> str:
    """32 fresh bytes from the OS, as 64 lowercase hex digits."""
    return secrets.token_hex(32)


def commitment(secret_hex: str) -> str:
    """Lowercase hex SHA-256 of the secret's bytes."""
    return hashlib.sha256(bytes.fromhex(secret_hex)).hexdigest()


def seed(secret_hex: str, purpose: str, fields: Iterable[Any]) -> bytes:
    """The 32-byte seed of one random decision. Fields must not contain ``|``."""
    parts = [str(f) for f in fields]
    if any("|" in p for p in parts) or "|" in purpose:
        raise ValueError("rng fields may not contain '|'")
    msg = "|".join([PREFIX, purpose, *parts]).encode("utf-8")
    return hmac.new(bytes.fromhex(secret_hex), msg, hashlib.sha256).digest()


class Stream:
    """The word stream of one seed (§6.1 "Stream")."""

    def __init__(self, seed_bytes: bytes) -> None:
        self.seed = seed_bytes
        self.block = 0
        self._words: list[int] = []

    def word(self) -> int:
        if not self._words:
            data = hmac.new(self.seed, self.block.to_bytes(8, "big"), hashlib.sha256).digest()
            self.block += 1
            self._words = [int.from_bytes(data[i:i + 8], "big") for i in range(0, 32, 8)]
        return self._words.pop(0)

    def uniform(self, n: int) -> int:
        """Uniform integer in [0, n), n >= 2 (n == 1 gives 0 without reading)."""
        if n < 1:
            raise ValueError("n must be >= 1")
        if n == 1:
            return 0
        limit = 2**64 - (2**64 % n)
        while True:
            x = self.word()
            if x < limit:
                return x % n

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        a = list(items)
        for i in range(len(a) - 1, 0, -1):
            j = self.uniform(i + 1)
            a[i], a[j] = a[j], a[i]
        return a


def stream(secret_hex: str, purpose: str, *fields: Any) -> Stream:
    return Stream(seed(secret_hex, purpose, fields))


def draw_order(secret_hex: str, event_id: str, stage: int, entrant_ids: Sequence[str],
               nonces: Sequence[str] = ()) -> list[str]:
    """Entrant ids in draw-number order (index 0 = draw number 1): sort by id, then shuffle."""
    return stream(secret_hex, "draw", event_id, stage, *nonces).shuffle(sorted(entrant_ids))


def seeded_draw_order(secret_hex: str, event_id: str, stage: int, ratings: dict[str, int | None],
                      count: int, nonces: Sequence[str] = ()) -> list[str]:
    """Draw with seeding (§2.1 ``draw: seeded{count}``): the ``count`` highest-rated entrants get
    draw numbers 1..count in rating order, the rest are shuffled into count+1..N exactly as
    :func:`draw_order` does. Equal ratings are ordered by lot (purpose ``lot``, context
    ``seeding``: the rated entrants sorted by id, shuffled; earlier = better).
    Raises ValueError when fewer than ``count`` entrants have a rating."""
    rated = sorted(e for e, r in ratings.items() if r is not None)
    if len(rated) < count:
        raise ValueError(f"a draw seeding {count} entrants needs {count} ratings, "
                         f"but only {len(rated)} entrant(s) have one")
    tie = {e: i for i, e in enumerate(stream(secret_hex, "lot", event_id, stage, "seeding").shuffle(rated))}
    seeds = sorted(rated, key=lambda e: (-ratings[e], tie[e]))[:count]
    rest = [e for e in ratings if e not in seeds]
    return seeds + draw_order(secret_hex, event_id, stage, rest, nonces)


def lot_order(secret_hex: str, event_id: str, stage: int, label: str, draws: Sequence[int]) -> list[int]:
    """A tie decided by lot (§5.1 purpose ``lot``): the tied draw numbers, sorted, shuffled;
    the first is best."""
    return stream(secret_hex, "lot", event_id, stage, label).shuffle(sorted(draws))


def coin(secret_hex: str, match_id: str, game_no: int, nonces: Sequence[str] = ()) -> int:
    """0: the entrant with the lower draw number moves first; 1: the other."""
    return stream(secret_hex, "coin", match_id, game_no, *nonces).uniform(2)


def deal_seed(secret_hex: str, match_id: str, deal_no: int, attempt: int = 0,
              nonces: Sequence[str] = ()) -> str:
    """The hex seed a deal's state is created from."""
    return seed(secret_hex, "deal", [match_id, deal_no, attempt, *nonces]).hex()
