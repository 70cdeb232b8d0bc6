"""Helpers shared by the event tests: row counts (to show nothing changed) and draw numbers."""

from __future__ import annotations

from sqlalchemy import func, select

from qipai.competition.db import EntrantRow, EventRow, GameRow, MatchRow


def snapshot(db):
    """Row counts of every event table: equal before and after a refused request."""
    with db() as s:
        return tuple(s.scalar(select(func.count()).select_from(t)) for t in (EventRow, EntrantRow, MatchRow,
                                                                                GameRow))


def draws(db, eid):
    """Entrant id -> draw number."""
    with db() as s:
        return {e.entrant_id: e.draw for e in s.get(EventRow, eid).entrants}
