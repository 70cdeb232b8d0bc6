"""Who may see a finished game: a game with a player who hides their history
(``PUT /api/me/settings {"hide_history": true}``) is shown only to the players of that game.
Every list and count of games (:mod:`.records`: the record lists, a profile's counts;
:mod:`.ratings`: a rating history) filters with :func:`hidden_from`, so no list or count of
anyone else's shows such a game."""

from __future__ import annotations

from typing import Any

from sqlalchemy import exists, select
from sqlalchemy.orm import Session, aliased

from .models import PlayerSettingsRow, RecordPlayer, RecordRow


def hidden_from(viewer_id: int | None) -> Any:
    """SQL condition: the record is hidden from ``viewer_id`` (None: signed out) — a player of it
    hides their history and the viewer did not play in it."""
    rp, mine = aliased(RecordPlayer), aliased(RecordPlayer)   # apart from a list's own join
    hiding = exists(select(rp.record_id).join(PlayerSettingsRow, PlayerSettingsRow.user_id == rp.user_id)
                    .where(rp.record_id == RecordRow.id, PlayerSettingsRow.hide_history.is_(True)))
    played = exists(select(mine.record_id).where(mine.record_id == RecordRow.id,
                                                 mine.user_id == (viewer_id or 0)))
    return hiding & ~played


def viewable(s: Session, row: RecordRow, viewer_id: int | None) -> bool:
    """May ``viewer_id`` see record ``row`` (:func:`hidden_from`)?"""
    return not s.scalar(select(hidden_from(viewer_id)).where(RecordRow.id == row.id))
