"""entrants.members: the two accounts of a pair entrant (competition.md §0.2, §6.3)

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("entrants") as batch:
        batch.add_column(sa.Column("members", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("entrants") as batch:
        batch.drop_column("members")
