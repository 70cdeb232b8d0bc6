"""lease epochs: the fencing token of a live table's owner (docs/deploy.md, "Workers")

``tables.lease_epoch`` is raised by one each time a server process takes a live table over (at
its start, or a worker of a cluster taking it from a stopped or frozen one); every ``actions``
row carries the ``epoch`` of the process that wrote it. On PostgreSQL a trigger refuses an
action row whose epoch is older than its table's: a frozen ex-owner cannot write to a table
another worker has taken over.

Revision ID: 0015
Revises: 0014
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

FENCE = """
CREATE FUNCTION qipai_fence_action() RETURNS trigger AS $$
DECLARE current integer;
BEGIN
    SELECT lease_epoch INTO current FROM tables WHERE id = NEW.table_id FOR SHARE;
    IF NEW.epoch IS NULL OR NEW.epoch < current THEN
        RAISE EXCEPTION 'qipai fenced: table % is owned at epoch %, not %',
            NEW.table_id, current, NEW.epoch USING ERRCODE = 'QP409';
    END IF;
    RETURN NEW;
END $$ LANGUAGE plpgsql
"""


def upgrade() -> None:
    with op.batch_alter_table("tables") as t:
        t.add_column(sa.Column("lease_epoch", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("actions") as t:
        t.add_column(sa.Column("epoch", sa.Integer(), nullable=True))
    if op.get_bind().dialect.name == "postgresql":
        op.execute(FENCE)
        op.execute("CREATE TRIGGER actions_fence BEFORE INSERT ON actions "
                   "FOR EACH ROW EXECUTE FUNCTION qipai_fence_action()")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER actions_fence ON actions")
        op.execute("DROP FUNCTION qipai_fence_action()")
    with op.batch_alter_table("actions") as t:
        t.drop_column("epoch")
    with op.batch_alter_table("tables") as t:
        t.drop_column("lease_epoch")
