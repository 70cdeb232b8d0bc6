"""referees: the accounts an organizer appoints to an event, and the event's log of referee acts
(competition.md §5.7)

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "event_referees",
        sa.Column("event_id", sa.String(40), sa.ForeignKey("events.id"), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("appointed_by", sa.String(64), nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
    )
    op.create_table(
        "referee_acts",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.String(40), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("act", sa.String(20), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(20), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("entrant", sa.String(80), nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("data", sa.JSON(), nullable=True),
        sa.Column("created", sa.String(40), nullable=False),
    )
    op.create_index("ix_referee_acts_event", "referee_acts", ["event_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_referee_acts_event", "referee_acts")
    op.drop_table("referee_acts")
    op.drop_table("event_referees")
