"""stages: multi-stage events (competition.md §2.8): matches.stage and the stages table with each
later stage's entrants in draw-number order

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("stage", sa.Integer(), nullable=False, server_default="1"))
    op.create_table(
        "stages",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.String(40), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("first_round", sa.Integer(), nullable=False),
        sa.Column("draws", sa.JSON(), nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
        sa.UniqueConstraint("event_id", "number"),
    )


def downgrade() -> None:
    op.drop_table("stages")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("stage")
