"""chat: the lines written at tables and to an event's referees (competition.md §5.8)

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("channel", sa.String(60), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("role", sa.String(12), nullable=False),
        sa.Column("audience", sa.String(12), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
    )
    op.create_index("ix_chat_channel_id", "chat", ["channel", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_channel_id", "chat")
    op.drop_table("chat")
