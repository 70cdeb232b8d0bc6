"""event seating: the round an organizer started (events.started_round) and the event game a
table plays (tables.event_game, unique), so a restarted server goes on seating a started round
and never seats a game twice

Revision ID: 0009
Revises: 0008
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("events", sa.Column("started_round", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("tables", sa.Column("event_game", sa.Integer(), nullable=True))
    # tables seated before this revision name their event game in their settings
    tables = sa.table("tables", sa.column("id", sa.String()), sa.column("settings", sa.Text()),
                      sa.column("event_id", sa.String()), sa.column("event_game", sa.Integer()),
                      sa.column("created", sa.String()))
    conn = op.get_bind()
    seen: set[int] = set()
    rows = conn.execute(sa.select(tables.c.id, tables.c.settings).where(tables.c.event_id.is_not(None))
                        .order_by(tables.c.created, tables.c.id)).all()
    for tid, settings in rows:
        data = json.loads(settings) if isinstance(settings, str) else (settings or {})
        game = data.get("event_game")
        if isinstance(game, int) and game not in seen:
            seen.add(game)
            conn.execute(sa.update(tables).where(tables.c.id == tid).values(event_game=game))
    op.create_index("ix_tables_event_game", "tables", ["event_game"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_tables_event_game", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("event_game")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("started_round")
