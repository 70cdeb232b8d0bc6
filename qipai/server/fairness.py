"""Commit–reveal of a lobby table's deal (competition.md §6.1; the procedure is docs/fairness.md).

A table whose seats are all taken is a match of one game. Before anything random happens the
server draws a ``match_secret`` (32 bytes from the OS) and sends its commitment (lowercase hex
SHA-256 of the secret's bytes) to the seats. Each seated account may then send a nonce (a
lowercase hex string of at most 64 characters) within the table's nonce window; an account
that sends none contributes the empty string. The deal's seed is then

    HMAC-SHA256(key = secret, message = "qipai-rng-v1|deal|<table id>|1|0|<nonces>")

(deal number 1, attempt 0, the nonces of the seated accounts ordered by the byte order of their
decimal account ids, joined by ``|``), written as 64 lowercase hex digits; the game deals from
that seed with its own :class:`~qipai.core.rng.DealRng` and dealing map. When the game ends, the
record carries everything needed to check it (:func:`reveal`): the secret, the commitment, the
nonces and the seed.
"""

from __future__ import annotations

import re
from typing import Any

from qipai.competition import lot

#: a nonce as a client sends it: lowercase hex, at most 64 characters
NONCE = re.compile(r"[0-9a-f]{0,64}")
DEAL_NO, ATTEMPT = 1, 0


def new_match() -> dict[str, Any]:
    """The match's commit-reveal data, kept with the table's settings (never sent before the
    end but for the commitment): ``{"secret", "commitment", "nonces": {account id: nonce}}``."""
    secret = lot.new_secret()
    return {"secret": secret, "commitment": lot.commitment(secret), "nonces": {}}


def accounts(seats: list[dict[str, Any] | None]) -> list[str]:
    """The seated accounts' ids as decimal strings, in byte order (bots are not accounts)."""
    return sorted((str(s["user"]) for s in seats if s and "user" in s), key=lambda a: a.encode())


def check_nonce(value: Any) -> str | None:
    """The nonce if ``value`` is a valid one, else None."""
    return value if isinstance(value, str) and NONCE.fullmatch(value) else None


def nonce_fields(match: dict[str, Any], ids: list[str]) -> list[str]:
    """The nonces in derivation order: one per seated account (``""`` when it sent none)."""
    return [match["nonces"].get(a, "") for a in ids]


def derive(match: dict[str, Any], table_id: str, ids: list[str]) -> str:
    """The deal's seed (64 lowercase hex digits) from the secret and the nonces."""
    return lot.deal_seed(match["secret"], table_id, DEAL_NO, ATTEMPT, nonce_fields(match, ids))


def reveal(match: dict[str, Any], table_id: str, ids: list[str], seed: str) -> dict[str, Any]:
    """The record's ``meta["rng"]`` once the game is over: what ``qipai verify`` checks."""
    return {"version": lot.PREFIX, "purpose": "deal", "match": table_id,
            "commitment": match["commitment"], "secret": match["secret"],
            "deals": [{"deal": DEAL_NO, "attempt": ATTEMPT, "seed": seed}],
            "nonces": [[a, n] for a, n in zip(ids, nonce_fields(match, ids))]}
