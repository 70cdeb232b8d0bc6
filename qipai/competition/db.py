"""Persistence of events with SQLAlchemy 2: events, entrants, stages, matches, games, results.

The database is a SQLite file in the data directory by default (``$QIPAI_DATA_DIR`` or
``~/.local/share/qipai``, file ``qipai.db``); ``QIPAI_DATABASE_URL`` selects any other database
SQLAlchemy supports. The schema is created and upgraded by the Alembic migrations shipped in
``qipai/competition/migrations`` (:func:`open_db` runs them).

Every finished game is committed on its own, with its full record, before anything else
happens; an event can therefore be killed at any moment and resumed: pending games are
simply played (or awaited) again, finished ones are never lost.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    create_engine,
    event,
    select,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship, sessionmaker


def lock_row(s: Session, model: type[Base], key: Any) -> None:
    """Hold the row of ``model`` with primary key ``key`` until ``s`` commits or rolls back, so
    that a check and the write it allows are one step: another transaction locking the same row
    waits, then reads what this one wrote (a check-then-write such as a cap counted before an
    insert, or two roles of an account that exclude each other). PostgreSQL: ``SELECT ... FOR
    UPDATE``. SQLite: a write that changes nothing, which takes the database's one write lock at
    once (a deferred transaction would read first and lock only at its own write). Call it
    before the reads it protects."""
    table = model.__table__
    (pk,) = table.primary_key.columns
    if s.get_bind().dialect.name == "sqlite":
        s.execute(update(table).where(pk == key).values({pk.name: pk}))
    else:
        s.execute(select(pk).where(pk == key).with_for_update())


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class EventRow(Base):
    __tablename__ = "events"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    preset: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(40))
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(20), default="running")   # running | finished
    secret: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    created: Mapped[str] = mapped_column(String(40), default=_now)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # the highest round an organizer started on the server: its games are seated as they come
    started_round: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    entrants: Mapped[list[EntrantRow]] = relationship(back_populates="event", order_by="EntrantRow.draw")
    matches: Mapped[list[MatchRow]] = relationship(back_populates="event",
                                                   order_by="(MatchRow.round, MatchRow.index)")


class EntrantRow(Base):
    __tablename__ = "entrants"
    __table_args__ = (UniqueConstraint("event_id", "entrant_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id"))
    entrant_id: Mapped[str] = mapped_column(String(80))
    name: Mapped[str] = mapped_column(String(200))
    unit: Mapped[str | None] = mapped_column(String(200), nullable=True)
    rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    bot: Mapped[str | None] = mapped_column(String(80), nullable=True)   # None: a human
    draw: Mapped[int] = mapped_column(Integer)                           # draw number 1..N
    status: Mapped[str] = mapped_column(String(20), default="active")    # active | out | withdrawn
    # a pair entrant's two accounts [{"id", "name", "bot"}] (None: an individual)
    members: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)

    event: Mapped[EventRow] = relationship(back_populates="entrants")


class MatchRow(Base):
    __tablename__ = "matches"
    __table_args__ = (UniqueConstraint("event_id", "round", "index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id"))
    round: Mapped[int] = mapped_column(Integer)
    index: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(20))          # series | session | bye
    entrants: Mapped[list[Any]] = mapped_column(JSON)      # draw numbers (session: by seat)
    status: Mapped[str] = mapped_column(String(20), default="pending")   # pending | finished
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    secret: Mapped[str] = mapped_column(String(64))
    absent: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)   # no-shows (draw numbers)
    stage: Mapped[int] = mapped_column(Integer, default=1, server_default="1")   # 1, 2, ... (§2.8)

    event: Mapped[EventRow] = relationship(back_populates="matches")
    games: Mapped[list[GameRow]] = relationship(back_populates="match", order_by="GameRow.number")


class StageRow(Base):
    """A later stage of a multi-stage event (stage 2, 3, ...; stage 1 uses ``entrants.draw``):
    its entrants in draw-number order and the event round its first round has."""

    __tablename__ = "stages"
    __table_args__ = (UniqueConstraint("event_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id"))
    number: Mapped[int] = mapped_column(Integer)
    first_round: Mapped[int] = mapped_column(Integer)
    draws: Mapped[list[Any]] = mapped_column(JSON)         # entrant ids; index 0 = draw number 1
    created: Mapped[str] = mapped_column(String(40), default=_now)


class GameRow(Base):
    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("match_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"))
    number: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[Any]] = mapped_column(JSON)         # draw number in each seat
    spec: Mapped[dict[str, Any]] = mapped_column(JSON)     # seed, clock, extra, ...
    status: Mapped[str] = mapped_column(String(20), default="pending")   # pending | finished
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True, deferred=True)
    source: Mapped[str | None] = mapped_column(String(20), nullable=True)   # played | entered
    finished: Mapped[str | None] = mapped_column(String(40), nullable=True)

    match: Mapped[MatchRow] = relationship(back_populates="games")


class PenaltyRow(Base):
    """One entry of the penalty ledger (competition.md §2.7): who, in which match and deal, what
    kind, entered by whom (source) and why."""

    __tablename__ = "penalties"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id"))
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), nullable=True)
    entrant_id: Mapped[str] = mapped_column(String(80))
    kind: Mapped[str] = mapped_column(String(40))
    source: Mapped[str] = mapped_column(String(20))        # engine | referee
    reason: Mapped[str] = mapped_column(String(500))
    created: Mapped[str] = mapped_column(String(40), default=_now)


def data_dir() -> Path:
    base = os.environ.get("QIPAI_DATA_DIR")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_DATA_HOME")
    return Path(xdg) / "qipai" if xdg else Path.home() / ".local" / "share" / "qipai"


def database_url() -> str:
    url = os.environ.get("QIPAI_DATABASE_URL")
    if url:
        return url
    d = data_dir()
    d.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{d / 'qipai.db'}"


#: the PostgreSQL advisory lock held while migrating: workers started together migrate in turn
MIGRATION_LOCK = 0x71_70_61_69


#: the folder of the Alembic revisions
VERSIONS = Path(__file__).with_name("migrations") / "versions"


def head_revision() -> str | None:
    """The newest Alembic revision, read from the revision files (their ``revision = "..."``
    and ``down_revision = ...`` lines): the one no other revision names as its parent. None if
    there is not exactly one such revision, or a file has no revision line."""
    import re

    revisions, parents = set(), set()
    for path in VERSIONS.glob("[!_]*.py"):
        text = path.read_text("utf-8")
        found = re.search(r'^revision = "(\w+)"$', text, re.M)
        down = re.search(r"^down_revision = (.*)$", text, re.M)
        if found is None or down is None:
            return None
        revisions.add(found[1])
        parents.update(re.findall(r'"(\w+)"', down[1]))
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


def at_head(engine: Engine) -> bool:
    """True if the database's ``alembic_version`` holds just :func:`head_revision` (nothing to
    migrate); False otherwise, also when the table is missing or cannot be read."""
    from sqlalchemy import inspect, text
    from sqlalchemy.exc import SQLAlchemyError

    head = head_revision()
    if head is None:
        return False
    try:
        with engine.connect() as conn:
            if not inspect(conn).has_table("alembic_version"):
                return False
            rows = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    except SQLAlchemyError:
        return False
    return rows == [head]


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (on PostgreSQL under an advisory lock,
    so that workers started at the same moment do it one after the other). A database already
    there (:func:`at_head`: a restart, a server's event worker, a cluster's later workers) is
    left as it is without loading Alembic (0.5 s of CPU)."""
    if at_head(engine):
        return
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    cfg = Config()
    cfg.set_main_option("script_location", str(VERSIONS.parent))
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL with synchronous=NORMAL: a committed transaction survives the process being killed
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def open_db(url: str | None = None) -> sessionmaker[Session]:
    """An engine on ``url`` (default :func:`database_url`), migrated; returns a session factory.
    Raises QipaiError ("cannot open the database ...") for a malformed URL, an unknown database
    kind or a database that cannot be opened."""
    from sqlalchemy.exc import SQLAlchemyError

    from qipai.core.errors import QipaiError

    url = url or database_url()
    try:
        shown = make_url(url).render_as_string(hide_password=True)
    except SQLAlchemyError:
        shown = url if "@" not in url else "(the URL given)"
    try:
        engine = create_engine(url)
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_pragmas)
        migrate(engine)
    except SQLAlchemyError as e:
        reason = str(getattr(e, "orig", None) or e).splitlines()[0]
        raise QipaiError(f"cannot open the database {shown}: {reason}") from None
    return sessionmaker(engine, expire_on_commit=False)
