"""The event's log of referee acts and players' disputes and confirmations (competition.md
§5.7: every referee action is logged with the referee's account and a written reason).

:func:`record_act` is the one place that writes it, whoever acts — a referee on the server, the
organizer at the command line, or an operation of :mod:`.results` in the same transaction as the
change it records — so the log is complete and an act and its effect are committed together.
The table is ``referee_acts`` (migration ``0012_referees``); ``user_id`` is the server account
that acted, none for the command line.

``act``: ``appoint``, ``dismiss``, ``pause``, ``resume``, ``add_time``, ``adjudicate``, ``void``,
``warning``, ``penalty``, ``disqualify``, ``enter_result``, ``dispute`` (written by a player),
``ruling`` (``data.dispute`` the dispute's id, ``data.decision`` ``upheld`` or ``rejected``),
``confirm`` (a player's or a referee's confirmation of a game's result), ``correct`` (a
referee's correction of a result, ``data.from`` and ``data.to``; ``data.reopened``: the round
it opened again, when the round was over and the corrected match needs another game),
``withdraw`` and ``no_show`` (the organizer's, at the command line), ``chat_mute`` (a referee's
chat timeout of an account, ``entrant`` its name, ``data.user``, ``data.minutes``,
``data.until``: :mod:`qipai.server.chat`). ``table_id``/``game_id``/
``seat``/``entrant`` name what it concerns; ``data`` its details.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from .common import now
from .db import Base


class RefereeActRow(Base):
    """One entry of an event's log (see the module docstring)."""

    __tablename__ = "referee_acts"
    __table_args__ = (Index("ix_referee_acts_event", "event_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id"))
    act: Mapped[str] = mapped_column(String(20))
    # the server account (``users.id``, a foreign key in the schema); none at the command line
    user_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    table_id: Mapped[str | None] = mapped_column(String(20), nullable=True)
    game_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    entrant: Mapped[str | None] = mapped_column(String(80), nullable=True)
    reason: Mapped[str] = mapped_column(String(500))
    data: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created: Mapped[str] = mapped_column(String(40), default=now)


def record_act(s: Session, event_id: str, act: str, by: str, reason: str, *, user_id: int | None = None,
               **cols: Any) -> int:
    """Add one entry to the log of event ``event_id`` in session ``s`` (the caller commits, with
    the change the act made): ``by`` the account or name that acted, ``reason`` its written
    reason; ``cols`` any of ``table_id``, ``game_id``, ``seat``, ``entrant``, ``data``. Returns
    the entry's id."""
    row = RefereeActRow(event_id=event_id, act=act, user_id=user_id, name=by, reason=reason,
                        created=now(), **cols)
    s.add(row)
    s.flush()
    return row.id


@dataclass
class Act:
    """An act to log in the same transaction as the change it makes: an operation of
    :mod:`.ops`, :mod:`.penalties` or :mod:`.results` given one calls :meth:`write` before it
    commits, so the change and its log entry are committed together or not at all.

    ``act``, ``by``, ``reason``, ``user_id`` as :func:`record_act` takes them; ``cols`` what
    the caller knows of what it concerns (``table_id``, ``data`` ...), merged over what the
    operation knows (``data`` dicts merged key by key). ``id``: the entry's id once written."""

    act: str
    by: str
    reason: str
    user_id: int | None = None
    cols: dict[str, Any] = field(default_factory=dict)
    id: int | None = None

    def write(self, s: Session, event_id: str, **known: Any) -> int:
        """Add the entry in session ``s`` (uncommitted); ``known``: the operation's columns.
        Returns the entry's id (also kept in :attr:`id`)."""
        cols = {**known, **self.cols}
        if "data" in known and "data" in self.cols:
            cols["data"] = {**(known["data"] or {}), **(self.cols["data"] or {})}
        self.id = record_act(s, event_id, self.act, self.by, self.reason, user_id=self.user_id, **cols)
        return self.id


def event_log(s: Session, event_id: str) -> list[dict[str, Any]]:
    """The event's log, oldest first."""
    q = select(RefereeActRow).where(RefereeActRow.event_id == event_id).order_by(RefereeActRow.id)
    return [{"id": r.id, "act": r.act, "by": r.name, "table": r.table_id, "game": r.game_id,
             "seat": r.seat, "entrant": r.entrant, "reason": r.reason, "data": r.data or {},
             "at": r.created} for r in s.scalars(q)]
