"""The hub's index account -> live event tables (GET /api/me/event-games reads it, not every
live table): kept where tables come and go and where seats change."""

from __future__ import annotations

from types import SimpleNamespace

from qipai.server.livetables import LiveTables


def _table(tid, event, *users):
    return SimpleNamespace(id=tid, event_id=event, seats=[{"user": u, "name": f"u{u}"} for u in users]
                           + [{"bot": "random", "name": "b"}])


def test_the_index_follows_tables_in_and_out_and_seats_changing():
    tables = LiveTables()
    a, b, lobby = _table("a", "ev", 1, 2), _table("b", "ev", 1), _table("c", None, 1)
    tables["a"], tables["b"], tables["c"] = a, b, lobby
    assert tables.events_of(1) == [a, b] and tables.events_of(2) == [a]    # lobby tables: not indexed
    assert tables.pop("a") is a                      # a table leaving: gone from the index
    assert tables.events_of(1) == [b] and tables.events_of(2) == []
    assert tables.pop("a", None) is None and tables.events_of(1) == [b]
    b.seats[0] = {"user": 3, "name": "u3"}           # seats changed
    tables.reindex(b)
    assert tables.events_of(1) == [] and tables.events_of(3) == [b]
    del tables["b"]
    assert tables.events_of(3) == []
    tables.setdefault("a", a)
    tables.update({"b": b})
    assert tables.events_of(1) == [a] and tables.events_of(3) == [b]
    tables.clear()
    assert tables.events_of(1) == [] and not tables
    tables["a"] = a
    tables["a"] = _table("a", "ev", 2)               # replaced under the same id
    assert tables.events_of(1) == [] and [t.id for t in tables.events_of(2)] == ["a"]
