"""actions: the append-only action log of live games, from which they are rebuilt

A game saved by an older version (its state in ``tables.live``) becomes one ``snapshot`` row.

Revision ID: 0008
Revises: 0007
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "actions",
        sa.Column("table_id", sa.String(20), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("idx", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(1000), nullable=True),
        sa.Column("t", sa.Integer(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=True),
    )
    conn = op.get_bind()
    rows = conn.execute(sa.text("SELECT id, live FROM tables WHERE status = 'playing' "
                                "AND live IS NOT NULL")).all()
    for table_id, live in rows:
        saved = json.loads(live) if isinstance(live, str) else live
        conn.execute(sa.text("INSERT INTO actions (table_id, idx, kind, t, data) "
                             "VALUES (:id, 0, 'snapshot', :t, :data)"),
                     {"id": table_id, "t": int(saved.get("now", 0)), "data": json.dumps(saved)})
    conn.execute(sa.text("UPDATE tables SET live = NULL"))


def downgrade() -> None:
    op.drop_table("actions")
