"""The server's tables, in the same SQLAlchemy metadata (and Alembic chain) as the events.

* ``users``: accounts (username, argon2 hash, role ``player`` or ``organizer``);
* ``sessions``: login sessions; the cookie holds a random token, the table its SHA-256 only;
* ``known_addresses``: the addresses (hashed) each account has signed in from;
* ``tables``: lobby tables (seats, status, settings with the deal's origin);
* ``actions``: the action log of live games, from which a restarted server rebuilds them;
* ``records``: finished games (the full qipai JSON record) and who played them;
* ``chat``: lines written at tables and to an event's referees (:mod:`.chat`);
* ``event_referees`` and ``referee_acts``: an event's appointed referees and its log of referee
  acts and players' disputes (:mod:`.referee`).

The migrations are ``qipai/competition/migrations/versions/0002_server.py``,
``0007_username_key.py``, ``0008_actions.py``, ``0009_event_seating.py``,
``0010_known_addresses.py``, ``0011_chat.py`` and ``0012_referees.py``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from qipai.competition.db import Base


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class UserRow(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    # auth.username_key(username): unique, so "ALICE" cannot sign up beside "alice" (0007)
    username_key: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(20), default="player")      # player | organizer
    created: Mapped[str] = mapped_column(String(40), default=now_iso)


class SessionRow(Base):
    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created: Mapped[str] = mapped_column(String(40), default=now_iso)
    expires: Mapped[float] = mapped_column(Integer)                       # unix seconds


class KnownAddressRow(Base):
    """An address an account has signed in (or up) from, as a SHA-256 of ``"<user id>:<address>"``:
    a correct password from such an address passes the per-account sign-in limit."""

    __tablename__ = "known_addresses"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    address_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    last_seen: Mapped[str] = mapped_column(String(40), default=now_iso)


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(20), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    num_seats: Mapped[int] = mapped_column(Integer)
    # per seat: {"user": id, "name": str} or {"bot": name, "name": str} or null
    seats: Mapped[list[Any]] = mapped_column(JSON)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)   # clock, spectator delay, bot delay, ...
    status: Mapped[str] = mapped_column(String(20), default="open")   # open | playing | finished
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    event_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    # the event game (``games.id``) played here; unique, so an event game is never seated twice
    event_game: Mapped[int | None] = mapped_column(Integer, nullable=True, unique=True, index=True)
    seed: Mapped[str | None] = mapped_column(String(40), nullable=True)
    live: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    record_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created: Mapped[str] = mapped_column(String(40), default=now_iso)


class RecordRow(Base):
    __tablename__ = "records"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str | None] = mapped_column(String(20), nullable=True, index=True)
    game: Mapped[str] = mapped_column(String(40))
    players: Mapped[list[Any]] = mapped_column(JSON)        # per seat: user id or null (bot)
    names: Mapped[list[Any]] = mapped_column(JSON)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    finished: Mapped[str] = mapped_column(String(40), default=now_iso)


class RecordPlayer(Base):
    """One row per (record, human account) so a player's history is an indexed query."""

    __tablename__ = "record_players"

    record_id: Mapped[int] = mapped_column(ForeignKey("records.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True, index=True)
    seat: Mapped[int] = mapped_column(Integer)


class ActionRow(Base):
    """The action log of live games (competition.md §4.7, §5.8): one row per input the match
    runner accepted, in order (``idx`` from 0 per table), written before anyone is told of its
    outcome. ``kind``: ``start`` (the game began at table time ``t``), ``move`` (``action`` by
    ``seat``; ``data.turn`` the decision it answers), ``resign``, ``draw_offer``,
    ``draw_accept``, ``draw_decline``, ``entrust`` (``seat`` asks for trusteeship, 托管),
    ``reclaim`` (``seat`` leaves trusteeship), ``expire``
    (``seat``'s deadline ``t`` passed),
    ``pause``/``resume``/``adjudicate`` (referee or storage; ``data`` holds the reason or
    result), ``restart`` (the server came back at table time ``t``; ``start`` and ``restart``
    carry ``data.wall``, the unix time then), ``snapshot`` (a game saved
    by an older version: ``data`` is its saved state). See :mod:`qipai.server.journal`."""

    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[str | None] = mapped_column(String(1000), nullable=True)
    t: Mapped[int] = mapped_column(Integer)                  # table time, ms
    data: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class ChatRow(Base):
    """One chat line (see :mod:`.chat`). ``channel``: ``table:<table id>`` or ``event:<event
    id>``; ``role`` of the writer there: ``player``, ``spectator`` or ``referee``;
    ``audience``: ``all``, ``spectators`` (a spectator's line during a lobby game: the players
    see it once the game is over) or ``referees`` (a line to an event's referees: its writer
    and the referees see it). ``text`` is plain text (at most 300 characters), never markup."""

    __tablename__ = "chat"
    __table_args__ = (Index("ix_chat_channel_id", "channel", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel: Mapped[str] = mapped_column(String(60))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    name: Mapped[str] = mapped_column(String(64))
    role: Mapped[str] = mapped_column(String(12))
    audience: Mapped[str] = mapped_column(String(12))
    text: Mapped[str] = mapped_column(String(400))
    at: Mapped[str] = mapped_column(String(40), default=now_iso)


class EventRefereeRow(Base):
    """An account appointed referee of one event by an organizer (competition.md §5.7)."""

    __tablename__ = "event_referees"

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    appointed_by: Mapped[str] = mapped_column(String(64))
    created: Mapped[str] = mapped_column(String(40), default=now_iso)


class RefereeActRow(Base):
    """The event's log of referee acts (competition.md §5.7: who, why) and of players'
    disputes. ``act``: ``pause``, ``resume``, ``add_time``, ``adjudicate``, ``void``,
    ``warning``, ``penalty``, ``disqualify``, ``enter_result``, ``dispute`` (written by a
    player: ``user_id``/``name`` are the player's), ``ruling`` (``data.dispute`` the dispute's
    id, ``data.decision`` ``upheld`` or ``rejected``). ``table_id``/``game_id``/``seat``/
    ``entrant`` name what it concerns; ``data`` its details (the result, the time added, ...)."""

    __tablename__ = "referee_acts"
    __table_args__ = (Index("ix_referee_acts_event", "event_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id"))
    act: Mapped[str] = mapped_column(String(20))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    table_id: Mapped[str | None] = mapped_column(String(20), nullable=True)
    game_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    entrant: Mapped[str | None] = mapped_column(String(80), nullable=True)
    reason: Mapped[str] = mapped_column(String(500))
    data: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created: Mapped[str] = mapped_column(String(40), default=now_iso)
