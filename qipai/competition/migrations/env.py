"""Alembic environment: runs on the connection handed over by ``qipai.competition.db.migrate``
(or on ``QIPAI_DATABASE_URL`` / the default SQLite file when run from the alembic command)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from qipai.competition.db import Base, database_url

target_metadata = Base.metadata


def run() -> None:
    conn = context.config.attributes.get("connection")
    if conn is not None:
        context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(database_url())
    with engine.begin() as connection:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


run()
