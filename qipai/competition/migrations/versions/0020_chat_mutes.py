"""chat mutes: an account's chat silenced for a while by an event's referee or a site admin

Revision ID: 0020
Revises: 0019
"""

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_mutes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("event_id", sa.String(40), nullable=True),
        sa.Column("until", sa.String(40), nullable=False),
        sa.Column("by_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("by", sa.String(64), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
    )
    op.create_index("ix_chat_mutes_user_id", "chat_mutes", ["user_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_mutes_user_id", "chat_mutes")
    op.drop_table("chat_mutes")
