"""PostgreSQL for the tests: one migrated template database per test process, and a fresh
database copied from it for each test that asks (``CREATE DATABASE ... TEMPLATE``, a fraction of
a second), so parallel pytest-xdist workers never share a database.

The server is the machine's PostgreSQL (``QIPAI_TEST_POSTGRES``, default
``postgresql://root@127.0.0.1:5432/test``, trust authentication). Unreachable, the tests that
need it fail; ``QIPAI_NO_POSTGRES=1`` leaves them out on a machine without it, except under CI
(the environment variable ``CI`` set), where they always run."""

from __future__ import annotations

import os
import secrets

import pytest

#: the database the tests connect to in order to make and drop their own
ADMIN = os.environ.get("QIPAI_TEST_POSTGRES", "postgresql://root@127.0.0.1:5432/test")


def skip_postgres() -> bool:
    """True when PostgreSQL tests are left out (``QIPAI_NO_POSTGRES=1`` and not under CI)."""
    return os.environ.get("QIPAI_NO_POSTGRES") == "1" and not os.environ.get("CI")


def sqlalchemy_url(name: str) -> str:
    """The SQLAlchemy URL (psycopg 3) of database ``name`` on the test server."""
    base = ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://", 1)
    return f"{base}/{name}"


def _admin(sql: str, *args) -> None:
    import psycopg

    with psycopg.connect(ADMIN, autocommit=True, connect_timeout=5) as admin:
        admin.execute(sql, args or None)


def drop(name: str) -> None:
    _admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", name)
    _admin(f'DROP DATABASE IF EXISTS "{name}"')


class Template:
    """A migrated database to copy (made on first use, dropped at the end of the session)."""

    def __init__(self) -> None:
        self.name: str | None = None

    def get(self) -> str:
        if self.name is None:
            from sqlalchemy import create_engine

            from qipai.competition.db import migrate

            name = f"qipai_tpl_{os.getpid()}_{secrets.token_hex(3)}"
            _admin(f'CREATE DATABASE "{name}"')
            engine = create_engine(sqlalchemy_url(name))
            try:
                migrate(engine)
            finally:
                engine.dispose()
            self.name = name
        return self.name

    def new_database(self) -> str:
        """A new migrated database; its name."""
        name = "qipai_t_" + secrets.token_hex(5)
        _admin(f'CREATE DATABASE "{name}" TEMPLATE "{self.get()}"')
        return name

    def close(self) -> None:
        if self.name is not None:
            drop(self.name)
            self.name = None


@pytest.fixture(scope="session")
def pg_template():
    t = Template()
    yield t
    t.close()


@pytest.fixture
def pg_database(pg_template):
    """A fresh, migrated PostgreSQL database for one test: its SQLAlchemy URL."""
    if skip_postgres():
        pytest.skip("QIPAI_NO_POSTGRES=1: PostgreSQL tests left out")
    name = pg_template.new_database()
    yield sqlalchemy_url(name)
    drop(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """The database a storage test runs on, once on each kind: a SQLite file in the test's
    folder, or a fresh PostgreSQL database (:func:`pg_database`)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'qipai.db'}"
    return request.getfixturevalue("pg_database")


def alembic_upgrade(engine, target: str) -> None:
    """Migrate the database of ``engine`` up to the Alembic revision ``target`` (``head``: all)."""
    from pathlib import Path

    from alembic import command
    from alembic.config import Config

    import qipai.competition.db as qdb

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(qdb.__file__).with_name("migrations")))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, target)
