"""event seats: each account's seats at event tables

``GET /api/me/event-games`` (every page of a signed-in player asks it every 3 s) reads an
account's live event tables from the database, so that every worker of a cluster answers the
same: one row per (account, event table), written with the table. The live event tables of an
existing database get theirs here.

Revision ID: 0017
Revises: 0016
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "event_seats",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("table_id", sa.String(20), sa.ForeignKey("tables.id"), primary_key=True),
    )
    conn = op.get_bind()
    rows = conn.execute(sa.text("SELECT id, seats FROM tables WHERE event_id IS NOT NULL "
                                "AND status IN ('open', 'playing')")).all()
    seats = []
    for tid, raw in rows:
        for s in (json.loads(raw) if isinstance(raw, str) else raw) or ():
            if s and s.get("user") is not None:
                seats.append({"user_id": s["user"], "table_id": tid})
    if seats:
        conn.execute(sa.text("INSERT INTO event_seats (user_id, table_id) VALUES (:user_id, :table_id)"),
                     seats)


def downgrade() -> None:
    op.drop_table("event_seats")
