"""known_addresses: the (hashed) addresses each account has signed in from

A correct password from one of them passes the per-account sign-in limit (docs/server.md).
Existing accounts start with none: each address becomes known at its next sign-in.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "known_addresses",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("address_hash", sa.String(64), primary_key=True),
        sa.Column("last_seen", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("known_addresses")
