"""A private table's code (房间号): a short code that finds the table as its link does.

A private table (setting ``private``) is unlisted: its id is 80 random bits, found only by its
link. Its ``code`` (setting, made with the table) is easier to read out or type than the link:
8 characters of :data:`ALPHABET`, shown ``K7MX-3QPA``. The alphabet has no 0/O, 1/I/L (read
aloud or typed they are confused); what a person types is read without case, spaces or dashes.

Why 8 of 31 characters (≈ 39.6 bits) and not a 6-digit 房间号: a stranger who tries codes must not
find a table. Tries are rate-limited per account (``Limits.table_code_account``: 20, then one per
30 s, counted before the code is checked, as an event's join code is), so an account gets about
2,900 tries a day; and per client address (``Limits.table_code_ip``: 60, then one per 10 s,
about 8,700 a day; an IPv6 client's /64 as one), since accounts are cheap and their tries add
up. With 10,000 private tables open at once a try finds one with probability
10,000 / 31⁸ ≈ 1.2 × 10⁻⁸: about 10⁻⁴ a day for an address. Six digits would give 1 in 100.

``POST /api/tables/by-code`` ``{"code"}`` (signed in) answers ``{"table": id}`` for an open or
running private table of this worker or of any worker of a cluster. Errors: not_signed_in
(401), rate_limited (429), no_table_code (404: no open or running private table has the code).
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from pydantic import Field

from .bodies import Body
from .conns import client_key
from .errors import ApiError
from .models import UserRow
from .ratelimit import retry_after

if TYPE_CHECKING:
    from .hub import Hub

#: the characters of a code: digits and capitals without 0, 1, I, L, O
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
#: the characters of a code
LENGTH = 8


def new_code() -> str:
    """A new code: :data:`LENGTH` characters of :data:`ALPHABET` from the system's CSPRNG."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def read_code(text: str) -> str:
    """The code a person typed, as stored: upper case, without spaces and dashes
    (``"k7mx-3qpa "`` → ``"K7MX3QPA"``)."""
    return "".join(c for c in str(text).upper() if c not in " -\t")


def shown(code: str) -> str:
    """A code as shown: two groups of four (``K7MX-3QPA``)."""
    return f"{code[:4]}-{code[4:]}"


class CodeBody(Body):
    code: str = Field(max_length=32)


def add_code_routes(app: FastAPI, hub: Hub, need_user: Callable[[Request], Awaitable[UserRow]]) -> None:
    @app.post("/api/tables/by-code", tags=["lobby"])
    async def by_code(request: Request, body: CodeBody) -> dict[str, Any]:
        """The private table with this code (see :mod:`qipai.server.tablecodes`): ``{"table"}``."""
        user = await need_user(request)
        wait = await hub.limits.hit_each([("table_code_account", str(user.id)),
                                          ("table_code_ip", client_key(request))])
        if wait:
            raise ApiError(429, "rate_limited", "too many tries at table codes; slow down",
                           retry_after=retry_after(wait), what="table_code")
        code = read_code(body.code)
        here = [t.summary() for t in hub.tables.values()           # only the ones that match
                if t.settings.get("private") and t.settings.get("code") == code]
        every = here + (await hub.cluster.lobby() if hub.cluster is not None else [])
        found = next((t for t in every if code and t["settings"].get("private")
                      and t["settings"].get("code") == code and t["status"] in ("open", "playing")), None)
        if found is None:
            raise ApiError(404, "no_table_code", "no open or running private table has this code")
        return {"table": found["id"]}
