"""The server's tables, in the same SQLAlchemy metadata (and Alembic chain) as the events.

* ``users``: accounts (username, argon2 hash, role ``player`` or ``organizer``);
* ``sessions``: login sessions; the cookie holds a random token, the table its SHA-256 only;
* ``known_addresses``: the addresses (hashed) each account has signed in from;
* ``tables``: lobby tables (seats, status, settings with the deal's origin); ``event_seats``:
  the accounts seated at each event table (an account's event games, on any worker);
* ``actions``: the action log of live games, from which a restarted server rebuilds them;
* ``records``: finished games (the full qipai JSON record) and who played them;
* ``chat``: lines written at tables and to an event's referees (:mod:`.chat`);
  ``chat_reports``: lines reported to an event's referees or the site's admins;
  ``chat_mutes``: an account's chat silenced for a while by a referee or an admin;
* ``event_requests``: the keys of the organizers' "Create event" presses and the events they made;
* ``event_referees``: an event's appointed referees (:mod:`.referee`); the event's log of referee
  acts (``referee_acts``) is :mod:`qipai.competition.acts`;
* ``ratings``, ``rating_changes``: each player's rating per game and time class, and every rated
  game's change (:mod:`.ratings`); ``player_settings``: a player's profile settings;
* ``api_tokens``: the Bot API's tokens (:mod:`.tokens`), SHA-256 only; ``users.bot`` marks a bot
  account and ``users.owner_id`` the account that manages a bot it created.

The migrations are ``qipai/competition/migrations/versions/0002_server.py``,
``0007_username_key.py``, ``0008_actions.py``, ``0009_event_seating.py``,
``0010_known_addresses.py``, ``0011_chat.py``, ``0012_referees.py``, ``0013_ratings.py``,
``0014_bot_tokens.py``, ``0015_lease_epochs.py``, ``0016_chat_reports.py``,
``0017_event_seats.py``, ``0018_event_requests.py``, ``0019_once_writes.py`` and
``0020_chat_mutes.py``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Index, Integer, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, Session, mapped_column

from qipai.competition.db import Base


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


#: the largest id a row may have: ids are signed 64-bit integers in PostgreSQL and SQLite
MAX_ROW_ID = 2**63 - 1


def row_by_id(s: Session, model: Any, key: Any) -> Any:
    """The ``model`` row whose primary key is ``key``, or None: also for a key a client sent that
    no row can have (not an ``int``, a ``bool``, zero or less, past :data:`MAX_ROW_ID`), which
    the database driver would refuse with an error rather than find nothing."""
    if not isinstance(key, int) or isinstance(key, bool) or not 0 < key <= MAX_ROW_ID:
        return None
    return s.get(model, key)


class UserRow(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    # auth.username_key(username): unique, so "ALICE" cannot sign up beside "alice" (0007)
    username_key: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(20), default="player")      # player | organizer
    created: Mapped[str] = mapped_column(String(40), default=now_iso)
    # a bot account (plays through the Bot API; marked as a bot in the lobby), 0014
    bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # the account that created this bot account and manages its tokens (None: its own)
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)


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
    # the fencing token of the table's owner: raised by one each time a server process takes
    # the live table over (0015; see :mod:`.leases`); writes of an older epoch are refused
    lease_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class RecordRow(Base):
    __tablename__ = "records"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # one record per table (0019): a game's record written again (a retry of the commit that
    # stored it, its answer lost) finds it by its table (:func:`.hub.write_record`)
    table_id: Mapped[str | None] = mapped_column(String(20), nullable=True, index=True, unique=True)
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


class EventSeatRow(Base):
    """An account's seat at an event table (migration 0017): ``GET /api/me/event-games`` reads
    an account's live event tables by it, the same on every worker of a cluster."""

    __tablename__ = "event_seats"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)


class EventRequestRow(Base):
    """The key of an organizer's "Create event" press and the event it made (migration 0018;
    :meth:`.eventwork.EventWork._once`): ``event_id`` is None while the event is being made,
    ``claimed`` the unix time the press was taken up."""

    __tablename__ = "event_requests"

    request_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    event_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    claimed: Mapped[float] = mapped_column(Float)


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
    # the table's lease epoch when the row was written (on PostgreSQL a row older than the
    # table's ``lease_epoch`` is refused by a trigger, 0015)
    epoch: Mapped[int | None] = mapped_column(Integer, nullable=True)


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
    # the line's own key, made when it is written (0019; None for the lines written before):
    # a line written again (a retry of the commit that stored it, its answer lost) is found by
    # it and not stored twice (:func:`.chat.insert_lines`)
    line_key: Mapped[str | None] = mapped_column(String(40), nullable=True, unique=True, index=True)


class ChatReportRow(Base):
    """A chat line reported by someone who read it (see :mod:`.chat`): read by the referees of
    ``event_id`` (a line of an event's chat or of one of its tables), or, at a lobby table
    (``event_id`` null), by the organizers (the site's admins). ``text`` and ``name`` are the
    line's as written, kept with the report. One report per line and reporter."""

    __tablename__ = "chat_reports"
    __table_args__ = (UniqueConstraint("line_id", "reporter_id", name="uq_chat_report_line_reporter"),
                      Index("ix_chat_reports_event_id", "event_id", "id"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    line_id: Mapped[int] = mapped_column(ForeignKey("chat.id"))
    channel: Mapped[str] = mapped_column(String(60))
    event_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    reporter: Mapped[str] = mapped_column(String(64))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(String(400))
    reason: Mapped[str] = mapped_column(String(400), default="")
    at: Mapped[str] = mapped_column(String(40), default=now_iso)


class ChatMuteRow(Base):
    """An account's chat silenced until ``until`` (ISO time, UTC) by a moderator (see
    :mod:`.chat`, "Mutes"): at the tables and in the chat of event ``event_id`` (by one of its
    referees), or everywhere (``event_id`` null: by an organizer, the site's admins). The latest
    row of an account and scope is the one in force: a mute of 0 minutes lifts the one before."""

    __tablename__ = "chat_mutes"
    __table_args__ = (Index("ix_chat_mutes_user_id", "user_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    event_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    until: Mapped[str] = mapped_column(String(40))
    by_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    by: Mapped[str] = mapped_column(String(64))
    reason: Mapped[str] = mapped_column(String(500), default="")
    at: Mapped[str] = mapped_column(String(40), default=now_iso)


class EventRefereeRow(Base):
    """An account appointed referee of one event by an organizer (competition.md §5.7)."""

    __tablename__ = "event_referees"

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    appointed_by: Mapped[str] = mapped_column(String(64))
    created: Mapped[str] = mapped_column(String(40), default=now_iso)


class RatingRow(Base):
    """A player's current rating in one game and time class (:mod:`.ratings`). ``system``:
    ``glicko2`` (two-sided games: ``rating``, ``deviation`` RD and ``volatility`` σ on the
    Glicko scale, 1500 / 350 / 0.06 at the start) or ``openskill`` (many seats and teams: μ and σ
    on the same scale, 1500 / 500 at the start; ``volatility`` null). ``games``: rated games."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_board", "game", "time_class", "rating"),)

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    time_class: Mapped[str] = mapped_column(String(12), primary_key=True)
    system: Mapped[str] = mapped_column(String(12))
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float | None] = mapped_column(Float, nullable=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[str] = mapped_column(String(40), default=now_iso)


class RatingChangeRow(Base):
    """One player's rating change by one rated game: written in the transaction that stores
    the game's record, and unique per (record, player), so a game rates each player once."""

    __tablename__ = "rating_changes"
    __table_args__ = (Index("ix_rating_changes_user", "user_id", "game", "time_class", "id"),
                      UniqueConstraint("record_id", "user_id", name="uq_rating_changes_record_user"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    record_id: Mapped[int] = mapped_column(ForeignKey("records.id"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    game: Mapped[str] = mapped_column(String(40))
    time_class: Mapped[str] = mapped_column(String(12))
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)          # after the game
    at: Mapped[str] = mapped_column(String(40), default=now_iso)


class PlayerSettingsRow(Base):
    """A player's profile settings: ``hide_history`` (others see only the ratings)."""

    __tablename__ = "player_settings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    hide_history: Mapped[bool] = mapped_column(Boolean, default=False)


class TokenRow(Base):
    """An API token of an account (:mod:`.tokens`): the SHA-256 (hex) of its secret, never the
    secret; ``scopes`` a space-separated list (``bot:play``, ``board:play``,
    ``challenge:write``); ``created_by`` the account that made it (the owner of a bot account, or
    the account itself); ``revoked`` the time it was revoked (None: live)."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    scopes: Mapped[str] = mapped_column(String(200))
    description: Mapped[str] = mapped_column(String(100), default="")
    created: Mapped[str] = mapped_column(String(40), default=now_iso)
    revoked: Mapped[str | None] = mapped_column(String(40), nullable=True)
