"""server: users, sessions, tables, records

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("username", sa.String(32), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
    )
    op.create_index("ix_users_username", "users", ["username"], unique=True)
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
        sa.Column("expires", sa.Integer(), nullable=False),
    )
    op.create_index("ix_sessions_user_id", "sessions", ["user_id"])
    op.create_table(
        "tables",
        sa.Column("id", sa.String(20), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("num_seats", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("owner_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("event_id", sa.String(40), nullable=True),
        sa.Column("seed", sa.String(40), nullable=True),
        sa.Column("live", sa.JSON(), nullable=True),
        sa.Column("record_id", sa.Integer(), nullable=True),
        sa.Column("created", sa.String(40), nullable=False),
    )
    op.create_table(
        "records",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.String(20), nullable=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("names", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("finished", sa.String(40), nullable=False),
    )
    op.create_index("ix_records_table_id", "records", ["table_id"])
    op.create_table(
        "record_players",
        sa.Column("record_id", sa.Integer(), sa.ForeignKey("records.id"), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
    )
    op.create_index("ix_record_players_user_id", "record_players", ["user_id"])


def downgrade() -> None:
    for table in ("record_players", "records", "tables", "sessions", "users"):
        op.drop_table(table)
