"""One group commit of the store (:mod:`.store`): the kinds of write, how a batch of them is
written in one transaction, and what a failure means.

A write is an ``actions`` row (a dict), a new, changed or removed table (:class:`NewTable`,
:class:`TableUpdate`, :class:`DropTable`) or a function run in the transaction (:class:`Call`).
:func:`write_ops` writes a batch of them in one transaction, each kind as one statement for many
rows, after checking the tables' lease epochs (:func:`check_fences`, :class:`Fenced`).
:func:`write_or_refuse` sorts what fails: :func:`storage_error` (storage failing: retried),
:class:`BadWrite` (the database refuses the writes themselves, :func:`refused_write`: the store
leaves the refused one out), :class:`SchemaMismatch` (the schema is not the models': storage
failing). It runs in a worker thread or in the writer process (:mod:`.writer`).
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import bindparam, delete, insert, select, tuple_, update
from sqlalchemy.exc import (
    DataError,
    DBAPIError,
    IntegrityError,
    NotSupportedError,
    OperationalError,
    ProgrammingError,
)
from sqlalchemy.orm import Session, sessionmaker

from . import profiling
from .models import ActionRow, TableRow


class WriterFailed(Exception):
    """The writer process reported a storage failure (its text), or stopped."""


class SchemaMismatch(Exception):
    """The database refused a batch, and its schema is not the models' (a column or table
    missing, a column of another kind or shorter: :func:`.schemacheck.mismatch`): storage is
    failing until the schema is mended, the writes are not to blame."""


def storage_error(exc: BaseException) -> bool:
    """True for the database errors that mean "storage is failing" (not a bug in a statement):
    an operational error (locked, disk full, I/O error, cannot open), a lost connection, a
    schema that is not the models' (:class:`SchemaMismatch`; PostgreSQL's ``ProgrammingError``
    of class 42: a table, column or function that does not exist, a column of another type, a
    right not granted: the schema or the deployment, never a value), or the writer process
    failing so."""
    return isinstance(exc, (OperationalError, WriterFailed, SchemaMismatch)) or \
        (isinstance(exc, DBAPIError) and exc.connection_invalidated) or \
        (isinstance(exc, ProgrammingError) and sqlstate(exc)[:2] == "42")


class BadWrite(Exception):
    """The database refused a batch for its writes themselves (:func:`refused_write`; the text
    says why): the same writes would fail again at every try."""


def refused_write(exc: BaseException) -> bool:
    """True for an error the writes themselves cause, met again at every try: a statement the
    database refuses (a broken constraint, a value it cannot take: ``IntegrityError``,
    ``DataError``, ``ProgrammingError``, ``NotSupportedError``), a value that cannot even be
    sent (a lone surrogate), a bug in a :class:`Call`'s function. False for storage failing
    (:func:`storage_error`), the database failing otherwise (a damaged file, an internal error,
    a closed connection) and the machine (``OSError``, ``MemoryError``): retried, never taken
    for a bad write. (:func:`write_or_refuse` also compares the schema with the models before
    it takes a ``DataError`` or ``ProgrammingError`` for a bad write.)"""
    if storage_error(exc) or isinstance(exc, (OSError, MemoryError, Fenced)):
        return False
    if isinstance(exc, DBAPIError):
        return isinstance(exc, (IntegrityError, DataError, ProgrammingError, NotSupportedError))
    return True


def sqlstate(exc: BaseException) -> str:
    """The SQLSTATE of a database error ('' where the driver gives none, as SQLite's)."""
    return getattr(exc.orig, "sqlstate", None) or ""


class Fenced(Exception):
    """Writes for ``tables`` (ids) were refused: another server process holds a newer lease
    epoch of each (see :mod:`.leases`)."""

    def __init__(self, tables: Iterable[str]) -> None:
        self.tables = frozenset(tables)
        super().__init__(f"fenced: {', '.join(sorted(self.tables))}")


class NewTable:
    """Write: insert a new ``tables`` row (``values``: its columns)."""

    __slots__ = ("values",)

    def __init__(self, values: dict[str, Any]) -> None:
        self.values = values


class TableUpdate:
    """Write: a table's seats, status, seed and settings (never a finished table's)."""

    __slots__ = ("table_id", "values")

    def __init__(self, table_id: str, values: dict[str, Any]) -> None:
        self.table_id = table_id
        self.values = values


class DropTable:
    """Write: remove a table that never started."""

    __slots__ = ("table_id",)

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id


class Call:
    """Write: ``fn(session, *args)`` inside the commit's transaction. ``fn`` is a module-level
    function (the writer process is sent it by name, and ``args`` pickled); what it returns
    becomes the entry's ``result`` once the commit is durable.

    ``fn`` must be safe to run twice: a batch whose commit went through but whose answer was
    lost is run again (:func:`write_or_refuse`), its calls with it, and the second run must
    change nothing and return what the first returned. A call that inserts rows finds them by a
    key of their own first (:func:`stored_alike`: a game's record by its table, a chat line by
    its ``line_key``); one that sets columns is so by itself (:func:`.walkover.mark_void`,
    :func:`.conduct.mark_aborted`)."""

    __slots__ = ("fn", "args")

    def __init__(self, fn: Callable[..., Any], *args: Any) -> None:
        self.fn = fn
        self.args = args


Op = dict[str, Any] | NewTable | TableUpdate | DropTable | Call | None

#: the update of a table row, run for many rows at once
_TABLE_UPDATE = (update(TableRow.__table__)
                 .where(TableRow.__table__.c.id == bindparam("b_id"),
                        TableRow.__table__.c.status != "finished")
                 .values({c: bindparam(c) for c in ("seats", "status", "seed", "settings")}))


def describe(op: Op) -> str:
    """A short account of a write for the log (which row of which table; never its text)."""
    if isinstance(op, dict):
        return f"{op.get('kind')} row of table {op.get('table_id')} #{op.get('idx')}"
    if isinstance(op, NewTable):
        return f"new table {op.values.get('id')}"
    if isinstance(op, TableUpdate | DropTable):
        return f"{type(op).__name__} of table {op.table_id}"
    if isinstance(op, Call):
        return f"call {getattr(op.fn, '__name__', op.fn)}"
    return "nothing"


# ----- one commit --------------------------------------------------------------------------------
def write_ops(db: sessionmaker[Session], ops: list[Op], fences: dict[str, int] | None = None,
              again: bool = False) -> list[Any]:
    """Write ``ops`` in one transaction, grouped by kind so each kind is one statement run for
    many rows: new tables, then table updates (the last one per table: each holds the whole
    row), removed tables, log rows, and finally the calls in their order. Returns what each
    :class:`Call` returned, in order. Raises what the database raises (nothing is committed).

    ``again``: the batch may have been committed already (a try whose COMMIT was sent but whose
    answer was lost, :func:`write_or_refuse`): the new tables and log rows stored already with
    the same content count as written and are not inserted again (:func:`unwritten`); one
    stored with other content under the same key is inserted all the same, and refused by the
    database as before.

    ``fences`` (table id -> lease epoch of this process): first, inside the transaction, each
    table's stored ``lease_epoch`` is read (locked against change until the commit on
    PostgreSQL); if any is newer, :class:`Fenced` is raised with those tables and nothing is
    written (the store drops their writes and commits the rest). On PostgreSQL the store leaves
    out the tables with action rows alone: the trigger of migration 0015 checks and locks each
    row's table as it is inserted, and its refusal raises :class:`Fenced` too."""
    inserts: list[dict[str, Any]] = []
    updates: dict[str, dict[str, Any]] = {}
    deletes: list[str] = []
    rows: list[dict[str, Any]] = []
    calls: list[Call] = []
    for op in ops:
        if op is None:
            continue
        if isinstance(op, dict):
            rows.append(op)
        elif isinstance(op, NewTable):
            inserts.append(op.values)
        elif isinstance(op, TableUpdate):
            updates.pop(op.table_id, None)           # a later update replaces it
            updates[op.table_id] = {"b_id": op.table_id, **op.values}
        elif isinstance(op, DropTable):
            deletes.append(op.table_id)
        else:
            calls.append(op)
    t0 = time.perf_counter()
    with db.begin() as s:
        conn = s.connection()
        profiling.note("write.begin", time.perf_counter() - t0)
        if fences:
            with profiling.timed("write.fences"):
                check_fences(s, fences)
        if again:
            inserts, rows = unwritten(s, inserts, rows)
        if inserts:
            conn.execute(insert(TableRow), inserts)
        if updates:
            conn.execute(_TABLE_UPDATE, list(updates.values()))
        if deletes:
            conn.execute(delete(TableRow).where(TableRow.id.in_(deletes)))
        if rows:
            try:
                with profiling.timed("write.rows"):
                    conn.execute(insert(ActionRow), rows)
            except DBAPIError as e:        # the PostgreSQL trigger's refusal (0015), a backstop
                if getattr(e.orig, "sqlstate", None) != FENCED_STATE:
                    raise
                raise Fenced(FENCED_TABLE.findall(str(e.orig))) from None
        out = [c.fn(s, *c.args) for c in calls]
        t1 = time.perf_counter()
    profiling.note("write.commit", time.perf_counter() - t1)
    profiling.note("write.all", time.perf_counter() - t0)
    return out


def commit_lanes(db: sessionmaker[Session]) -> int:
    """How many group commits a store runs side by side on ``db``: one on SQLite (one writer at
    a time); elsewhere ``$QIPAI_COMMIT_LANES``, by default one as well. Several lanes let a
    move wait for one flush to disk instead of the one under way and then its own, but on a
    2-core machine busy with other work they made the tail worse, not better (docs/deploy.md,
    "Where the two-worker tail goes"): more, smaller transactions, each a flush and a round
    of the writer's CPU. Worth measuring where PostgreSQL has a slow disk and the workers spare
    cores."""
    if db.kw["bind"].dialect.name == "sqlite":
        return 1
    return max(1, int(os.environ.get("QIPAI_COMMIT_LANES") or 1))


def write_or_refuse(db: sessionmaker[Session], ops: list[Op],
                    fences: dict[str, int] | None = None) -> list[Any]:
    """:func:`write_ops`, raising :class:`BadWrite` for an error of the writes themselves
    (:func:`refused_write`); any other failure as it is. A ``DataError`` or
    ``ProgrammingError`` is the writes' only while the schema is the models'
    (:func:`.schemacheck.mismatch`): else :class:`SchemaMismatch` is raised, storage failing."""
    try:
        try:
            return write_ops(db, ops, fences)
        except IntegrityError:
            # a key stored already: this batch may be a retry of one whose COMMIT went through
            # though its answer was lost (the connection broke), so what is stored with the same
            # content counts as written; a differing row is refused again, below
            if not any(isinstance(op, dict | NewTable) for op in ops):
                raise
            return write_ops(db, ops, fences, again=True)
    except Exception as e:
        if not refused_write(e):
            raise
        said = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        if isinstance(e, DataError | ProgrammingError):
            wrong = schema_mismatch(db)
            if wrong:
                raise SchemaMismatch(f"the database's schema is not the server's ({'; '.join(wrong[:5])}): "
                                     f"{said}") from e
        raise BadWrite(said) from e


def schema_mismatch(db: sessionmaker[Session]) -> list[str]:
    """:func:`.schemacheck.mismatch` of ``db``; a failure to read the schema is storage
    failing too (raised as :class:`SchemaMismatch`)."""
    from .schemacheck import mismatch

    try:
        return mismatch(db.kw["bind"])
    except Exception as e:  # noqa: BLE001 - the schema cannot be read: not the writes' fault
        raise SchemaMismatch(f"the database's schema cannot be read: {e}") from e


#: the columns of a new table that no later write changes (its seats, status, seed and settings
#: change, :class:`TableUpdate`; its lease epoch at a take-over)
_FIXED_TABLE_COLUMNS = ("game", "options", "num_seats", "owner_id", "event_id", "event_game", "created")
_ROW_COLUMNS = ("kind", "seat", "action", "t", "data", "epoch")


def unwritten(s: Session, tables: list[dict[str, Any]],
              rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The new tables (their values) and action rows of a batch that are not stored already with
    the same content (a table's columns that never change, :data:`_FIXED_TABLE_COLUMNS`; all of
    a row's): what a retry of a commit that went through must still insert. One stored with
    other content under the same key is kept, for the database to refuse."""
    if tables:
        t = TableRow.__table__
        ids = [v["id"] for v in tables]
        stored = {}
        for i in range(0, len(ids), 500):
            for r in s.execute(select(t).where(t.c.id.in_(ids[i:i + 500]))).mappings():
                stored[r["id"]] = r
        tables = [v for v in tables
                  if not _same(stored.get(v["id"]), v, [c for c in _FIXED_TABLE_COLUMNS if c in v])]
    if rows:
        a = ActionRow.__table__
        keys = [(r["table_id"], r["idx"]) for r in rows]
        got = {}
        for i in range(0, len(keys), 500):
            q = select(a).where(tuple_(a.c.table_id, a.c.idx).in_(keys[i:i + 500]))
            for r in s.execute(q).mappings():
                got[(r["table_id"], r["idx"])] = r
        rows = [r for r in rows if not _same(got.get((r["table_id"], r["idx"])), r, _ROW_COLUMNS)]
    return tables, rows


def stored_alike(s: Session, table: Any, key: str, rows: list[dict[str, Any]]) -> dict[Any, Any]:
    """Of ``rows`` (the values of new rows of ``table``, a :class:`~sqlalchemy.Table`), those
    stored already under the same ``key`` (a unique column) with the same values in each column
    the row gives: ``{key: the stored row}``. What a :class:`Call` run again after its commit
    went through must not insert again; a row stored under its key with other content is not
    in it (inserted all the same, for the database to refuse, as :func:`unwritten` does)."""
    keys = [r[key] for r in rows if r.get(key) is not None]
    found: dict[Any, Any] = {}
    for i in range(0, len(keys), 500):
        for m in s.execute(select(table).where(table.c[key].in_(keys[i:i + 500]))).mappings():
            found[m[key]] = m
    return {r[key]: found[r[key]] for r in rows
            if r.get(key) in found and _same(found[r[key]], r, list(r))}


def _same(stored: Any, values: dict[str, Any], columns: Iterable[str]) -> bool:
    """Whether the stored row ``stored`` (None: none) holds ``values`` in ``columns`` (JSON
    compared as stored: through its text)."""
    if stored is None:
        return False
    return all(_plain(stored[c]) == _plain(values.get(c)) for c in columns)


def _plain(v: Any) -> Any:
    """``v`` as JSON gives it back (tuples as lists, keys as text)."""
    return json.loads(json.dumps(v)) if isinstance(v, dict | list | tuple) else v


#: the SQLSTATE and the message of the PostgreSQL trigger that refuses a stale action row (0015)
FENCED_STATE = "QP409"
FENCED_TABLE = re.compile(r"qipai fenced: table (\S+) is owned")


def check_fences(s: Session, fences: dict[str, int]) -> None:
    """Raise :class:`Fenced` for the tables of ``fences`` whose stored lease epoch is newer than
    the one given (rows read ``FOR SHARE`` on PostgreSQL: a take-over waits for this commit)."""
    stale: set[str] = set()
    ids = list(fences)
    for i in range(0, len(ids), 500):
        q = select(TableRow.id, TableRow.lease_epoch).where(TableRow.id.in_(ids[i:i + 500]))
        for tid, epoch in s.execute(q.with_for_update(read=True)):
            if epoch > fences[tid]:
                stale.add(tid)
    if stale:
        raise Fenced(stale)
