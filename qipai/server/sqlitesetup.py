"""SQLite as the server uses it, and the storage fault hook.

:func:`tune_sqlite` sets each connection's pragmas (write-ahead log, a short busy timeout).

Test hook (never on by default): with ``Settings.storage_faults`` (or the environment variable
``QIPAI_STORAGE_FAULTS=1`` for ``qipai serve``), every INSERT, UPDATE or DELETE first looks
for the file ``<database file>.fault``; while it exists the statement fails as SQLite fails
when the disk is full (the file's text ``locked`` makes it fail as a locked database instead):
the store (:mod:`.store`) takes it for storage failing. The text ``lost`` lets every write
through but makes each commit fail as a lost connection does *after* it went through: the
commit whose answer never came, which the store must not take for anything but storage failing
(its retry finds its rows stored already, :func:`.commit.write_or_refuse`).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

#: how long one SQLite statement waits for a lock held elsewhere before failing (then retried)
BUSY_TIMEOUT_MS = 1000


def tune_sqlite(db: sessionmaker[Session]) -> None:
    """SQLite: write-ahead log and ``synchronous=NORMAL`` (a commit does not wait for the disk;
    a power cut may lose the last commits, never corrupt the file), and a short busy timeout:
    a locked database fails fast, and the store retries."""
    engine = db.kw["bind"]
    if engine.dialect.name != "sqlite":
        return

    @event.listens_for(engine, "connect")
    def _pragmas(conn, _record) -> None:
        cur = conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cur.close()

    engine.dispose()         # connections opened by the migrations get the pragmas on reconnect


# ----- the fault hook ----------------------------------------------------------------------------
def fault_file(db: sessionmaker[Session]) -> Path | None:
    """``<database file>.fault`` for a SQLite file database, else None."""
    engine = db.kw["bind"]
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    return Path(path + ".fault") if path and path != ":memory:" else None


def install_fault_hook(db: sessionmaker[Session]) -> Path | None:
    """Make every write fail while the fault file exists (see the module docstring). Returns
    the file's path (None: not a SQLite file database; nothing installed)."""
    path = fault_file(db)
    if path is None:
        return None
    engine = db.kw["bind"]

    @event.listens_for(engine, "before_cursor_execute")
    def _fail_writes(conn, cursor, statement, parameters, context, executemany) -> None:
        if statement.lstrip()[:6].upper() not in ("INSERT", "UPDATE", "DELETE"):
            return
        kind = _fault(path)
        if kind is None or kind == "lost":
            return
        reason = "database is locked" if kind == "locked" else "database or disk is full"
        raise OperationalError(statement, parameters, sqlite3.OperationalError(reason))

    @event.listens_for(engine, "commit")
    def _lose_answer(conn) -> None:
        if _fault(path) == "lost":
            conn.connection.dbapi_connection.commit()      # it went through; the answer is lost
            raise OperationalError("COMMIT", None, sqlite3.OperationalError("disk I/O error"))

    return path


def _fault(path: Path) -> str | None:
    """The fault file's text, None while it does not exist."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        return None


def faults_enabled(flag: bool) -> bool:
    return flag or os.environ.get("QIPAI_STORAGE_FAULTS") == "1"
