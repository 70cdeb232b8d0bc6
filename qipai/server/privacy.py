"""Who may see a finished game.

* A game with a player who hides their history (``PUT /api/me/settings {"hide_history":
  true}``) is shown only to the players of that game.
* A game played at a private table (setting ``private``: unlisted, found only by its link, whose
  id is 80 random bits) stays unlisted once over: it is shown to its players, and by its id
  (record, replay, download) to whoever holds the table's link — the request names the table
  (``?table=<table id>``) — but it is in no list or count of anyone else's: not in the list of
  recent games, nor another player's history, profile counts or rating history.

Every list and count of games (:mod:`.records`: the record lists, a profile's counts;
:mod:`.ratings`: a rating history) filters with :func:`hidden_from`, so no list or count of
anyone else's shows such a game."""

from __future__ import annotations

from typing import Any

from sqlalchemy import exists, select
from sqlalchemy.orm import Session, aliased

from .models import PlayerSettingsRow, RecordPlayer, RecordRow, TableRow


def hidden_from(viewer_id: int | None, table_key: str | None = None) -> Any:
    """SQL condition: the record is hidden from ``viewer_id`` (None: signed out), who did not
    play in it — a player of it hides their history, or it was played at a private table and the
    viewer does not hold that table's link (``table_key``, the table's id given with the
    request; None in every list)."""
    rp, mine = aliased(RecordPlayer), aliased(RecordPlayer)   # apart from a list's own join
    hiding = exists(select(rp.record_id).join(PlayerSettingsRow, PlayerSettingsRow.user_id == rp.user_id)
                    .where(rp.record_id == RecordRow.id, PlayerSettingsRow.hide_history.is_(True)))
    unlisted = exists(select(TableRow.id).where(TableRow.id == RecordRow.table_id,
                                                TableRow.settings["private"].as_boolean().is_(True)))
    if table_key:
        unlisted = unlisted & (RecordRow.table_id != table_key)
    played = exists(select(mine.record_id).where(mine.record_id == RecordRow.id,
                                                 mine.user_id == (viewer_id or 0)))
    return (hiding | unlisted) & ~played


def viewable(s: Session, row: RecordRow, viewer_id: int | None, table_key: str | None = None) -> bool:
    """May ``viewer_id`` see record ``row`` (:func:`hidden_from`), holding the link of table
    ``table_key`` (or none)?"""
    return not s.scalar(select(hidden_from(viewer_id, table_key)).where(RecordRow.id == row.id))
