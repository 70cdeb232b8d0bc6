"""The hub's live tables by id, with an index: account -> its live event tables.

``GET /api/me/event-games`` is asked every 3 s by every page of a signed-in player; it reads the
account's event tables from the index instead of every live table of the worker. The index is
kept where tables come and go (every way into or out of the mapping) and where a table's seats
change (:meth:`LiveTables.reindex`, called by :meth:`.tables.LiveTable._seats_changed`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .tables import LiveTable


class LiveTables(dict[str, "LiveTable"]):
    """``{table id: LiveTable}`` (the hub's :attr:`~.hub.Hub.tables`) and :meth:`events_of`."""

    def __init__(self) -> None:
        super().__init__()
        self._events: dict[int, dict[str, None]] = {}   # account -> its event tables' ids, in order
        self._accounts: dict[str, set[int]] = {}    # event table id -> the accounts indexed

    def events_of(self, user_id: int) -> list[LiveTable]:
        """The live event tables where account ``user_id`` has a seat, oldest first."""
        return [t for tid in list(self._events.get(user_id, ())) if (t := self.get(tid)) is not None]

    def reindex(self, t: LiveTable) -> None:
        """``t``'s seats changed: index it again (if it is here)."""
        self._drop(t.id)
        if self.get(t.id) is t:
            self._add(t)

    def _add(self, t: LiveTable) -> None:
        if t.event_id is None:
            return
        users = {s["user"] for s in t.seats if s and "user" in s}
        self._accounts[t.id] = users
        for u in users:
            self._events.setdefault(u, {})[t.id] = None

    def _drop(self, tid: str) -> None:
        for u in self._accounts.pop(tid, ()):
            ids = self._events.get(u)
            if ids is not None:
                ids.pop(tid, None)
                if not ids:
                    del self._events[u]

    # ----- every way in and out of the mapping --------------------------------------------
    def __setitem__(self, tid: str, t: LiveTable) -> None:
        self._drop(tid)
        super().__setitem__(tid, t)
        self._add(t)

    def __delitem__(self, tid: str) -> None:
        super().__delitem__(tid)
        self._drop(tid)

    def pop(self, tid: str, *default: Any) -> Any:   # type: ignore[override]
        out = super().pop(tid, *default)
        self._drop(tid)
        return out

    def popitem(self) -> tuple[str, LiveTable]:
        tid, t = super().popitem()
        self._drop(tid)
        return tid, t

    def clear(self) -> None:
        super().clear()
        self._events.clear()
        self._accounts.clear()

    def setdefault(self, tid: str, t: LiveTable) -> LiveTable:   # type: ignore[override]
        if tid not in self:
            self[tid] = t
        return self[tid]

    def update(self, *args: Any, **kw: Any) -> None:
        for tid, t in dict(*args, **kw).items():
            self[tid] = t
