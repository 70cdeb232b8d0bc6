"""The seek pool: quick pairing of players who ask for a game, by rating, with a range that
widens with waiting time. Pure logic with an injectable clock (``now`` in seconds), so tests run
on virtual time; :mod:`.seekroutes` serves it.

A :class:`Seek` asks for one game (id, options, seat count, clock, rated or casual). Two seeks
can meet when they ask for the same game (:attr:`Seek.key`) and each one's rating lies within
the other's range. A seek's range is :data:`BASE_RANGE` rating points when it is made and
grows by :data:`GROWTH` points a second of waiting up to :data:`MAX_RANGE`; a casual seek
accepts any rating (its range is unlimited). A game of ``n`` seats is made of the oldest
waiting seek and the ``n - 1`` others nearest its rating that fit everyone's range.

A seek that has waited :data:`BOT_OFFER_AFTER` seconds is offered a bot
(:meth:`SeekPool.status` ``offer_bot``). Seeks expire after :data:`SEEK_TTL` seconds without
their owner asking for news (a closed page stops asking).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

BASE_RANGE = 100.0       # rating points either side when a seek is made
GROWTH = 10.0            # more points a second of waiting
MAX_RANGE = 500.0
BOT_OFFER_AFTER = 30.0   # seconds before a waiting seek is offered a bot
SEEK_TTL = 20.0          # seconds a seek lives without its owner polling


@dataclass
class Seek:
    """One player's request. ``rating``: theirs for this game and time class."""

    id: str
    user_id: int
    username: str
    rating: float
    game: str
    options: dict[str, Any]
    num_seats: int
    clock: str
    rated: bool
    created: float
    seen: float = 0.0                              # when the owner last asked for news
    bot: bool = False                              # the owner is a bot account
    table: str | None = None                        # set once paired
    partners: list[str] = field(default_factory=list)
    # the rating's standing, which the lobby shows ("1500?": provisional, and why)
    provisional: bool = False
    rating_games: int = 0
    deviation: float = 0.0

    @property
    def key(self) -> tuple[Any, ...]:
        """Seeks meet only when their keys are equal."""
        return (self.game, tuple(sorted((k, repr(v)) for k, v in self.options.items())),
                self.num_seats, self.clock, self.rated)

    def range(self, now: float) -> float:
        """Rating points either side this seek accepts at ``now`` (infinite when casual)."""
        if not self.rated:
            return math.inf
        return min(MAX_RANGE, BASE_RANGE + GROWTH * max(0.0, now - self.created))

    def accepts(self, other: Seek, now: float) -> bool:
        return abs(self.rating - other.rating) <= self.range(now)


class SeekPool:
    """Waiting seeks and the pairing between them. ``clock``: the current time in seconds."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.waiting: dict[str, Seek] = {}
        self.done: dict[str, Seek] = {}            # paired or given a bot, kept for their owners
        #: ids of the seeks changed (added, paired, asked about, gone) since the owner of the
        #: pool last saved them (:mod:`.lobbystate`, with several workers)
        self.dirty: set[str] = set()

    def add(self, seek: Seek) -> None:
        """Add ``seek``, replacing any other waiting seek of its owner."""
        for s in [s for s in self.waiting.values() if s.user_id == seek.user_id]:
            del self.waiting[s.id]
            self.dirty.add(s.id)
        seek.seen = seek.created
        self.waiting[seek.id] = seek
        self.dirty.add(seek.id)

    def cancel(self, seek_id: str, user_id: int) -> bool:
        s = self.waiting.get(seek_id)
        if s is None or s.user_id != user_id:
            return False
        del self.waiting[seek_id]
        self.dirty.add(seek_id)
        return True

    def expire(self) -> None:
        now = self.clock()
        for s in [s for s in self.waiting.values() if now - s.seen > SEEK_TTL]:
            del self.waiting[s.id]
            self.dirty.add(s.id)
        for s in [s for s in self.done.values() if now - s.seen > 5 * SEEK_TTL]:
            del self.done[s.id]
            self.dirty.add(s.id)

    def match(self) -> list[list[Seek]]:
        """Pair what can be paired now: each group (oldest seek first) leaves the pool for
        :attr:`done`; the caller opens their table and sets each seek's ``table``."""
        self.expire()
        now = self.clock()
        groups: list[list[Seek]] = []
        for s in sorted(self.waiting.values(), key=lambda x: (x.created, x.id)):
            if s.id not in self.waiting:
                continue
            group = self._group_for(s, now)
            if group is None:
                continue
            for g in group:
                del self.waiting[g.id]
                g.partners = [x.username for x in group if x is not g]
                self.done[g.id] = g
                self.dirty.add(g.id)
            groups.append(group)
        return groups

    def unpair(self, group: list[Seek]) -> None:
        """Put the seeks of ``group`` back in the pool, waiting (their table was never made)."""
        for g in group:
            self.done.pop(g.id, None)
            g.table, g.partners = None, []
            self.waiting[g.id] = g
            self.dirty.add(g.id)

    def _group_for(self, first: Seek, now: float) -> list[Seek] | None:
        """``first`` and the nearest others that make a whole table, or None."""
        others = [s for s in self.waiting.values() if s is not first and s.key == first.key
                  and s.user_id != first.user_id and first.accepts(s, now) and s.accepts(first, now)]
        others.sort(key=lambda s: (abs(s.rating - first.rating), s.created, s.id))
        need = first.num_seats - 1
        if need == 1:
            return [first, others[0]] if others else None
        # more seats: the nearest set in which everyone accepts everyone (small pools: few tries)
        for combo in itertools.combinations(others[:12], need):
            if all(a.accepts(b, now) for a in combo for b in combo if a is not b):
                return [first, *combo]
        return None

    def status(self, seek_id: str, user_id: int) -> dict[str, Any] | None:
        """The owner's view of their seek (None: unknown or not theirs): ``{"id", "status":
        "waiting" | "paired", "waited" (s), "range" (points, null: any), "offer_bot", "table",
        "partners"}``. Asking keeps a waiting seek alive (:data:`SEEK_TTL`)."""
        now = self.clock()
        s = self.waiting.get(seek_id) or self.done.get(seek_id)
        if s is None or s.user_id != user_id:
            return None
        s.seen = now
        self.dirty.add(s.id)
        waiting = s.id in self.waiting
        rng = s.range(now)
        return {"id": s.id, "status": "waiting" if waiting else "paired", "game": s.game,
                "clock": s.clock, "rated": s.rated, "rating": round(s.rating),
                "waited": round(now - s.created, 1), "range": None if math.isinf(rng) else round(rng),
                "offer_bot": waiting and now - s.created >= BOT_OFFER_AFTER,
                "table": s.table, "partners": s.partners}

    def listing(self) -> list[dict[str, Any]]:
        """The waiting seeks as the lobby shows them (no ids of other owners' seeks are secret:
        a seek is joined by making a matching one)."""
        now = self.clock()
        return [{"id": s.id, "username": s.username, "rating": round(s.rating), "game": s.game,
                 "options": s.options, "num_seats": s.num_seats, "clock": s.clock, "rated": s.rated,
                 "waited": round(now - s.created), "provisional": s.provisional,
                 "rating_games": s.rating_games, "deviation": round(s.deviation)}
                for s in sorted(self.waiting.values(), key=lambda x: x.created)]
