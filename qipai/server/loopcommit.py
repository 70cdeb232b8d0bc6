"""Group commits of action rows alone on PostgreSQL, on the event loop (psycopg's async
connection, the whole transaction sent as one pipeline), for the store (:mod:`.store`).

Almost every commit of a busy server holds only rows of the live games' action logs (the moves).
Run in a worker thread (:func:`.commit.write_ops`), such a commit is several steps — begin, the
insert, the commit, then the answer handed back to the loop — and at each the thread waits for
the interpreter, which the event loop holds under load for up to its switch interval (5 ms)
every time: the thread's waits, not PostgreSQL's work, were most of a move's commit (docs/deploy.md,
"Where the two-worker tail goes"). :class:`LoopCommits` sends the same transaction from the event
loop in one pipeline instead — ``BEGIN``, the ``INSERT`` of every row, ``COMMIT`` — and reads the
answers when PostgreSQL has them; the loop never blocks on it, and no thread is involved.

The rows and their fencing are written exactly as :func:`.commit.write_ops` writes them (the
lease epochs of ``fences`` checked first, ``FOR SHARE``; the trigger of migration 0015 refusing a
stale row): a refused epoch raises :class:`.commit.Fenced`. Any other failure is not sorted here
(:class:`LoopFailed`): the store writes the same batch again in its thread or process, which
sorts the failure as always (storage failing, a write refused). The failed transaction may have
been committed all the same (the connection lost after ``COMMIT`` was sent, before its answer):
the rows found stored there with the same content count as written
(:func:`.commit.write_or_refuse`), so the game goes on. ``QIPAI_LOOP_COMMIT=0`` turns it off
(every commit in the thread or process, as before).
"""

from __future__ import annotations

import os
from typing import Any

from .commit import FENCED_STATE, FENCED_TABLE, Fenced

#: the columns of an ``actions`` row, in the order of :data:`_INSERT`
COLUMNS = ("table_id", "idx", "kind", "seat", "action", "t", "data", "epoch")
_INSERT = (f"INSERT INTO actions ({', '.join(COLUMNS)}) "
           f"VALUES ({', '.join(['%s'] * len(COLUMNS))})")
_FENCES = "SELECT id, lease_epoch FROM tables WHERE id = ANY(%s) FOR SHARE"


class LoopFailed(Exception):
    """The commit failed otherwise than fenced (the cause chained); it may have been committed
    all the same (its answer lost): the store writes the batch again in its thread or process,
    which counts the rows stored already as written and says what the failure means."""


def enabled(db: Any) -> bool:
    """Whether the store of ``db`` (a sessionmaker) commits its action rows on the loop:
    PostgreSQL, unless ``$QIPAI_LOOP_COMMIT`` is ``0``."""
    return db.kw["bind"].dialect.name == "postgresql" and os.environ.get("QIPAI_LOOP_COMMIT") != "0"


def rows_only(ops: list[Any]) -> bool:
    """True when ``ops`` holds action rows (dicts) and entries that write nothing, and at least
    one row."""
    return any(isinstance(op, dict) for op in ops) and all(op is None or isinstance(op, dict) for op in ops)


class LoopCommits:
    """Commits of action rows on the event loop: idle connections kept for the next commit (one
    per commit under way; a connection that failed is closed)."""

    def __init__(self, db: Any) -> None:
        url = db.kw["bind"].url.set(drivername="postgresql")
        self.conninfo = url.render_as_string(hide_password=False)
        self._idle: list[Any] = []

    async def write(self, ops: list[Any], fences: dict[str, int] | None = None) -> None:
        """Commit the action rows of ``ops`` (dicts; None entries skipped) in one transaction.
        Raises :class:`.commit.Fenced` (nothing committed) or :class:`LoopFailed`."""
        import psycopg
        from psycopg.types.json import Json

        rows = [(op["table_id"], op["idx"], op["kind"], op.get("seat"), op.get("action"), op["t"],
                 Json(op.get("data")), op.get("epoch")) for op in ops if op is not None]
        try:
            conn = self._idle.pop() if self._idle else \
                await psycopg.AsyncConnection.connect(self.conninfo, connect_timeout=10)
        except psycopg.Error as e:
            raise LoopFailed(str(e)) from e
        try:
            async with conn.pipeline(), conn.transaction(), conn.cursor() as cur:
                if fences:
                    await cur.execute(_FENCES, (list(fences),))
                    stale = {tid for tid, epoch in await cur.fetchall() if epoch > fences[tid]}
                    if stale:
                        raise Fenced(stale)
                await cur.executemany(_INSERT, rows)
        except Fenced:
            await self._keep(conn)
            raise
        except psycopg.Error as e:
            if getattr(e, "sqlstate", None) == FENCED_STATE:
                await self._keep(conn)
                raise Fenced(FENCED_TABLE.findall(str(e))) from None
            await conn.close()
            raise LoopFailed(str(e).splitlines()[0] if str(e) else type(e).__name__) from e
        except BaseException:
            await conn.close()      # cancelled mid-transaction: the connection's state is unknown
            raise
        self._idle.append(conn)

    async def _keep(self, conn: Any) -> None:
        """Keep ``conn`` for the next commit if its transaction ended cleanly, else close it."""
        from psycopg.pq import TransactionStatus

        if conn.closed or conn.info.transaction_status != TransactionStatus.IDLE:
            await conn.close()
        else:
            self._idle.append(conn)

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for conn in idle:
            await conn.close()
