"""events, entrants, matches, games

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("preset", sa.String(80), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
        sa.Column("outcome", sa.JSON(), nullable=True),
    )
    op.create_table(
        "entrants",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.String(40), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("entrant_id", sa.String(80), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("unit", sa.String(200), nullable=True),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("bot", sa.String(80), nullable=True),
        sa.Column("draw", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.UniqueConstraint("event_id", "entrant_id"),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.String(40), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("entrants", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.UniqueConstraint("event_id", "round", "index"),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("match_id", sa.Integer(), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("spec", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("record", sa.JSON(), nullable=True),
        sa.Column("source", sa.String(20), nullable=True),
        sa.Column("finished", sa.String(40), nullable=True),
        sa.UniqueConstraint("match_id", "number"),
    )


def downgrade() -> None:
    for table in ("games", "matches", "entrants", "events"):
        op.drop_table(table)
