"""Who is online and who is playing, for the lobby (``GET /api/presence``).

A signed-in account is *online* while it is in the lobby (whose page asks ``/api/presence``
every few seconds; seeking and challenging count too: it was seen in the last
:data:`ONLINE_WINDOW` seconds) or sits at a game in play; it is *playing* while seated at a table
whose game is on. The record is in this process's memory; in a cluster every presence request
goes to the lobby home (docs/deploy.md), which counts the players of the other workers' games
from their lobby summaries.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

ONLINE_WINDOW = 60.0     # seconds since an account's last request that it counts as online
LISTED = 100             # names a presence answer lists at most


class Presence:
    """Last request per account; ``clock`` gives seconds (injectable for tests)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.seen: dict[int, tuple[str, float]] = {}      # user id -> (username, when)

    def touch(self, user_id: int, username: str) -> None:
        self.seen[user_id] = (username, self.clock())

    def snapshot(self, tables: list[Any]) -> dict[str, Any]:
        """``{"online": n, "playing": n, "players": [{"username", "playing": table id or
        null}]}``: the online accounts (those playing first, then by name), from ``tables``
        (the hub's live tables) and the requests seen."""
        now = self.clock()
        for uid in [u for u, (_, at) in self.seen.items() if now - at > ONLINE_WINDOW]:
            del self.seen[uid]
        online: dict[int, dict[str, Any]] = {uid: {"username": name, "playing": None}
                                             for uid, (name, _) in self.seen.items()}
        for t in tables:
            if t.status != "playing":
                continue
            for s in t.seats:
                if s and s.get("user") is not None:
                    online[s["user"]] = {"username": s["name"], "playing": t.id}
        players = sorted(online.values(), key=lambda p: (p["playing"] is None, p["username"].lower()))
        return {"online": len(online), "playing": sum(p["playing"] is not None for p in players),
                "players": players[:LISTED]}
