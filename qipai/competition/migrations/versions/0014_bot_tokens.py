"""bot accounts and API tokens: ``users.bot``, ``users.owner_id`` and ``api_tokens`` (the Bot
API, docs/server.md "Bot API")

Revision ID: 0014
Revises: 0013
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("bot", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("owner_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_users_owner_id", "users", ["owner_id"], ["id"])
        batch.create_index("ix_users_owner_id", ["owner_id"])
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_by", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("scopes", sa.String(200), nullable=False),
        sa.Column("description", sa.String(100), nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
        sa.Column("revoked", sa.String(40), nullable=True),
    )
    op.create_index("ix_api_tokens_user_id", "api_tokens", ["user_id"])
    op.create_index("ix_api_tokens_token_hash", "api_tokens", ["token_hash"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_api_tokens_token_hash", "api_tokens")
    op.drop_index("ix_api_tokens_user_id", "api_tokens")
    op.drop_table("api_tokens")
    with op.batch_alter_table("users") as batch:
        batch.drop_index("ix_users_owner_id")
        batch.drop_constraint("fk_users_owner_id", type_="foreignkey")
        batch.drop_column("owner_id")
        batch.drop_column("bot")
