"""The schema and the server on the machine's real PostgreSQL (127.0.0.1:5432, database ``test``,
trust authentication), as a deployment past SQLite runs them: every migration from an empty
database to the newest revision (0007's username keys included), the migrated schema against the
models, and a game played at a server table with its action log and record stored there.

Each test works in a database of its own, made for it and dropped after. PostgreSQL is part of
the machine this project is tested on; set ``QIPAI_NO_POSTGRES=1`` to leave these tests out on a
machine without it (they fail otherwise, rather than pass unseen)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import pytest

if os.environ.get("QIPAI_NO_POSTGRES") == "1":
    pytest.skip("QIPAI_NO_POSTGRES=1: PostgreSQL tests left out", allow_module_level=True)

import psycopg  # noqa: E402
from sqlalchemy import create_engine, inspect, text  # noqa: E402

import qipai.competition.db as qdb  # noqa: E402
from qipai.competition.db import Base, at_head, head_revision, migrate, open_db  # noqa: E402

from .pg import alembic_upgrade  # noqa: E402
from .server_helpers import client, next_state, post, signup, ws  # noqa: E402

#: the database the tests connect to in order to make and drop their own
ADMIN = os.environ.get("QIPAI_TEST_POSTGRES", "postgresql://root@127.0.0.1:5432/test")
VERSIONS = Path(qdb.__file__).with_name("migrations") / "versions"


@pytest.fixture
def pg_url():
    """A new, empty database; its SQLAlchemy URL (psycopg 3)."""
    name = "qipai_t_" + secrets.token_hex(4)
    with psycopg.connect(ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    base = ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://", 1)
    yield f"{base}/{name}"
    with psycopg.connect(ADMIN, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')


_alembic = alembic_upgrade


def test_every_migration_runs_on_postgresql_and_gives_the_models_schema(pg_url):
    engine = create_engine(pg_url)
    migrate(engine)
    insp = inspect(engine)
    for table in Base.metadata.sorted_tables:
        assert insp.has_table(table.name), table.name
        got = {c["name"] for c in insp.get_columns(table.name)}
        assert got == {c.name for c in table.columns}, table.name
    with engine.connect() as conn:
        newest = max(p.name.split("_")[0] for p in VERSIONS.glob("[0-9]*.py"))
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == newest
    engine.dispose()


def test_a_database_at_the_newest_revision_is_left_alone_and_an_older_one_is_migrated(pg_url):
    """:func:`at_head` (what lets ``migrate`` skip Alembic) agrees with Alembic's own head."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(VERSIONS.parent))
    assert [head_revision()] == ScriptDirectory.from_config(cfg).get_heads()
    engine = create_engine(pg_url)
    assert not at_head(engine)                            # no alembic_version table yet
    _alembic(engine, "0006")
    assert not at_head(engine)
    migrate(engine)                                       # from 0006 on
    assert at_head(engine)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == head_revision()
        assert inspect(conn).has_table("api_tokens")      # 0014's table
    migrate(engine)                                       # nothing to do
    engine.dispose()


def test_migration_0017_gives_the_live_event_tables_their_seats(pg_url):
    """event_seats: the live event tables of an existing database get their accounts' seats, so
    that GET /api/me/event-games lists them after the upgrade."""
    from sqlalchemy.orm import Session

    from qipai.server.models import TableRow, UserRow, now_iso

    engine = create_engine(pg_url)
    _alembic(engine, "0016")
    with Session(engine) as s:
        for i, name in ((1, "alice"), (2, "bob")):
            s.add(UserRow(id=i, username=name, username_key=name, password_hash="x", created=now_iso()))
        s.flush()

        def table(tid, status, event, seats):
            s.add(TableRow(id=tid, game="gomoku", options={}, num_seats=2, seats=seats, settings={},
                           status=status, event_id=event, created=now_iso()))
        both = [{"user": 1, "name": "alice"}, {"user": 2, "name": "bob"}]
        table("live", "open", None, both)                 # a lobby table: not an event's
        table("ev1", "playing", "e", [{"user": 1, "name": "alice"}, {"bot": "random", "name": "b"}])
        table("ev2", "finished", "e", both)               # over: not listed
        s.commit()
    _alembic(engine, "0017")
    with engine.connect() as c:
        rows = c.execute(text("SELECT user_id, table_id FROM event_seats")).all()
    engine.dispose()
    assert [tuple(r) for r in rows] == [(1, "ev1")]


def test_username_keys_are_made_for_existing_accounts_on_postgresql(pg_url):
    """0007 on accounts made before it: ``alice`` keeps the key, ``ALICE`` (allowed then) gets
    ``alice#<id>``, and the key is unique from then on."""
    engine = create_engine(pg_url)
    _alembic(engine, "0006")
    with engine.begin() as conn:
        cols = {c["name"] for c in inspect(conn).get_columns("users")}
        values = {"username": None, "password_hash": "x", "role": "player",
                  "created": "2026-01-01T00:00:00Z"}
        values = {k: v for k, v in values.items() if k in cols}
        for name in ("alice", "ALICE", "bob"):
            conn.execute(text(f"INSERT INTO users ({', '.join(values)}) VALUES "
                              f"({', '.join(':' + k for k in values)})"), {**values, "username": name})
    _alembic(engine, "head")
    with engine.connect() as conn:
        rows = dict(conn.execute(text("SELECT username, username_key FROM users")).all())
        ids = dict(conn.execute(text("SELECT username, id FROM users")).all())
    assert rows == {"alice": "alice", "ALICE": f"alice#{ids['ALICE']}", "bob": "bob"}
    with pytest.raises(Exception, match="unique|duplicate"):
        with engine.begin() as conn:
            conn.execute(text("UPDATE users SET username_key = 'alice' WHERE username = 'bob'"))
    engine.dispose()


def test_a_server_on_postgresql_stores_every_move_and_the_record(tmp_path, pg_url):
    with client(tmp_path, database_url=pg_url, bot_delay_ms=0) as c:
        alice = signup(c, "alice")
        t = post(c, alice, "/api/tables", {"game": "xiangqi", "bots": 1, "sit": True, "seat": 0,
                                           "settings": {"clock": "none"}}).json()
        with ws(c, alice, t["id"]) as sock:
            msg = next_state(sock)
            sock.send_json({"type": "move", "seq": msg["seq"], "action": "h2e2"})
            while msg["seq"] < 2:              # the move and the bot's answer
                msg = next_state(sock)
            sock.send_json({"type": "resign"})
            while msg["record"] is None:
                msg = next_state(sock)
        rec = c.get(f"/api/records/{msg['record']}").json()
    assert rec["record"]["actions"][0] == "h2e2", rec["record"]["actions"][:2]
    db = open_db(pg_url)
    with db() as s:
        kinds = [k for (k,) in s.execute(text("SELECT kind FROM actions WHERE table_id = :t ORDER BY idx"),
                                          {"t": t["id"]})]
        status = s.execute(text("SELECT status FROM tables WHERE id = :t"), {"t": t["id"]}).scalar()
    assert kinds[0] == "start" and kinds.count("move") >= 2 and "resign" in kinds, kinds
    assert status == "finished"
    db.kw["bind"].dispose()
