"""ratings: each player's rating per game and time class, every rated game's change, and the
players' profile settings (hide the history)

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("time_class", sa.String(12), primary_key=True),
        sa.Column("system", sa.String(12), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", sa.String(40), nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["game", "time_class", "rating"])
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("record_id", sa.Integer(), sa.ForeignKey("records.id"), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("time_class", sa.String(12), nullable=False),
        sa.Column("before", sa.Float(), nullable=False),
        sa.Column("after", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.UniqueConstraint("record_id", "user_id", name="uq_rating_changes_record_user"),
    )
    op.create_index("ix_rating_changes_user", "rating_changes", ["user_id", "game", "time_class", "id"])
    op.create_table(
        "player_settings",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("hide_history", sa.Boolean(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("player_settings")
    op.drop_index("ix_rating_changes_user", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_board", "ratings")
    op.drop_table("ratings")
