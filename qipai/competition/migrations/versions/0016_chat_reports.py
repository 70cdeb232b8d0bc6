"""chat reports: a chat line reported to an event's referees or the site's admins

Revision ID: 0016
Revises: 0015
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("line_id", sa.Integer(), sa.ForeignKey("chat.id"), nullable=False),
        sa.Column("channel", sa.String(60), nullable=False),
        sa.Column("event_id", sa.String(40), nullable=True),
        sa.Column("reporter_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("reporter", sa.String(64), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("reason", sa.String(400), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.UniqueConstraint("line_id", "reporter_id", name="uq_chat_report_line_reporter"),
    )
    op.create_index("ix_chat_reports_event_id", "chat_reports", ["event_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_reports_event_id", "chat_reports")
    op.drop_table("chat_reports")
