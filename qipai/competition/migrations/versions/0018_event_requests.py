"""event requests: the keys of the organizers' "Create event" presses

A press of "Create event" and its repeats (a double click, a retry after an answer lost, the
same request sent again after a restart or to another worker of a cluster) carry one key: the
first makes the event, the others answer with it (``POST /api/events`` ``request_key``). The
keys were kept in the memory of one process, which a restart or another worker forgets; here
they are kept with the event they made (none yet while it is being made).

Revision ID: 0018
Revises: 0017
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "event_requests",
        sa.Column("request_key", sa.String(64), primary_key=True),
        sa.Column("event_id", sa.String(40), nullable=True),
        sa.Column("claimed", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("event_requests")
