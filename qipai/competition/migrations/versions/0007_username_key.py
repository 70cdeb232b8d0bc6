"""username_key: usernames unique case-insensitively (after Unicode NFKC)

Every existing account gets its key (``qipai.server.auth.username_key``). When existing accounts
collide (``alice`` and ``ALICE`` were both allowed before), the oldest (lowest id) keeps the
plain key and each later one gets ``<key>#<id>``, which no new name can take (``#`` is not a
username character): nothing fails and nobody loses an account. Those later accounts keep
signing in with their exact username (sign-in tries the exact name before the key).

Revision ID: 0007
Revises: 0006
"""

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def _key(name: str) -> str:
    # the same rule as qipai.server.auth.username_key, fixed here as of this revision
    return unicodedata.normalize("NFKC", name).strip().casefold()


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("username_key", sa.String(64), nullable=True))
    conn = op.get_bind()
    users = sa.table("users", sa.column("id", sa.Integer), sa.column("username", sa.String),
                     sa.column("username_key", sa.String))
    taken: set[str] = set()
    for uid, name in conn.execute(sa.select(users.c.id, users.c.username).order_by(users.c.id)).all():
        key = _key(name)
        if key in taken:
            key = f"{key}#{uid}"
        taken.add(key)
        conn.execute(users.update().where(users.c.id == uid).values(username_key=key))
    with op.batch_alter_table("users") as batch:
        batch.alter_column("username_key", existing_type=sa.String(64), nullable=False)
        batch.create_index("ix_users_username_key", ["username_key"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_index("ix_users_username_key")
        batch.drop_column("username_key")
