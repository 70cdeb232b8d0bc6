"""once writes: one record per table, a key of its own for each chat line

A commit whose answer was lost (the connection broken after COMMIT was sent) may have gone
through, and the server writes its batch again; the calls in it run again too. A finished game's
record was then stored twice (two ``records`` rows of one table), a chat line twice. Now a
record is found by its table (``records.table_id`` unique) and a chat line by its own random
key (``chat.line_key``, unique; none for the lines written before), and a retry that finds
them stored writes nothing.

The records stored twice before are made one first: of a table's records, the one its
``tables.record_id`` names is kept (else the first), and the others are removed with their
``record_players`` and ``rating_changes`` rows (the ratings themselves are left as they are).

Revision ID: 0019
Revises: 0018
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    twice = conn.execute(sa.text(
        "SELECT r.id, r.table_id, t.record_id FROM records r LEFT JOIN tables t ON t.id = r.table_id "
        "WHERE r.table_id IN (SELECT table_id FROM records WHERE table_id IS NOT NULL "
        "GROUP BY table_id HAVING COUNT(*) > 1) ORDER BY r.id")).all()
    ids: dict[str, list[int]] = {}
    named: dict[str, int | None] = {}
    for rid, tid, record_id in twice:
        ids.setdefault(tid, []).append(rid)
        named[tid] = record_id
    gone = []
    for tid, rids in ids.items():
        keep = named[tid] if named[tid] in rids else rids[0]
        gone.extend(r for r in rids if r != keep)
    for i in range(0, len(gone), 500):
        part = {"ids": gone[i:i + 500]}
        for table in ("record_players", "rating_changes"):
            conn.execute(sa.text(f"DELETE FROM {table} WHERE record_id IN :ids")
                         .bindparams(sa.bindparam("ids", expanding=True)), part)
        conn.execute(sa.text("DELETE FROM records WHERE id IN :ids")
                     .bindparams(sa.bindparam("ids", expanding=True)), part)
    op.drop_index("ix_records_table_id", "records")
    op.create_index("ix_records_table_id", "records", ["table_id"], unique=True)
    op.add_column("chat", sa.Column("line_key", sa.String(40), nullable=True))
    op.create_index("ix_chat_line_key", "chat", ["line_key"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_chat_line_key", "chat")
    with op.batch_alter_table("chat") as batch:
        batch.drop_column("line_key")
    op.drop_index("ix_records_table_id", "records")
    op.create_index("ix_records_table_id", "records", ["table_id"])
