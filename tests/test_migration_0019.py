"""Migration 0019 on an existing database, SQLite and PostgreSQL: a table's records stored twice
(a retry of a commit whose answer was lost ran its record's write again) are made one — the one
the table names is kept, the others removed with their players and rating changes — and from
then on a table has one record; chat lines get a unique key of their own (none for the old)."""

from __future__ import annotations

import secrets

import pytest
from sqlalchemy import create_engine, text

from .pg import _admin, alembic_upgrade, drop, skip_postgres, sqlalchemy_url


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'old.db'}"
    if skip_postgres():
        pytest.skip("QIPAI_NO_POSTGRES=1: PostgreSQL tests left out")
    name = "qipai_m19_" + secrets.token_hex(4)
    _admin(f'CREATE DATABASE "{name}"')
    request.addfinalizer(lambda: drop(name))
    return sqlalchemy_url(name)


def test_migration_0019_keeps_one_record_per_table_and_keys_chat_lines(empty_url):
    engine = create_engine(empty_url)
    alembic_upgrade(engine, "0018")
    with engine.begin() as c:
        for i, name in ((1, "alice"), (2, "bob")):
            c.execute(text("INSERT INTO users (id, username, username_key, password_hash, role, "
                           "created, bot) VALUES (:i, :n, :n, 'x', 'player', 'now', false)"),
                      {"i": i, "n": name})
        for tid, rec in (("t1", 2), ("t2", None), ("t3", 4)):
            c.execute(text("INSERT INTO tables (id, game, options, num_seats, seats, settings, status, "
                           "record_id, created, lease_epoch) VALUES (:t, 'xiangqi', '{}', 2, '[]', '{}', "
                           "'finished', :r, 'now', 0)"), {"t": tid, "r": rec})
        # t1 twice (the second named by the table), t2 three times (none named), t3 once
        for rid, tid in ((1, "t1"), (2, "t1"), (3, "t2"), (4, "t3"), (5, "t2"), (6, "t2")):
            c.execute(text("INSERT INTO records (id, table_id, game, players, names, result, record, "
                           "finished) VALUES (:r, :t, 'xiangqi', '[1, 2]', '[]', '{}', '{}', 'now')"),
                      {"r": rid, "t": tid})
            for uid in (1, 2):
                c.execute(text("INSERT INTO record_players (record_id, user_id, seat) VALUES (:r, :u, :u)"),
                          {"r": rid, "u": uid})
                c.execute(text("INSERT INTO rating_changes (record_id, user_id, game, time_class, before, "
                               "after, deviation, at) VALUES (:r, :u, 'xiangqi', 'rapid', 1500, 1510, 300, "
                               "'now')"), {"r": rid, "u": uid})
        c.execute(text("INSERT INTO chat (channel, user_id, name, role, audience, text, at) "
                       "VALUES ('table:t1', 1, 'alice', 'player', 'all', 'gg', 'now')"))
    alembic_upgrade(engine, "head")
    with engine.begin() as c:
        assert c.execute(text("SELECT id, table_id FROM records ORDER BY id")).all() == \
            [(2, "t1"), (3, "t2"), (4, "t3")]
        assert c.execute(text("SELECT DISTINCT record_id FROM record_players ORDER BY record_id")).all() == \
            [(2,), (3,), (4,)]
        assert c.execute(text("SELECT DISTINCT record_id FROM rating_changes ORDER BY record_id")).all() == \
            [(2,), (3,), (4,)]
        assert c.execute(text("SELECT text, line_key FROM chat")).all() == [("gg", None)]
    for sql in ("INSERT INTO records (table_id, game, players, names, record, finished) "
                "VALUES ('t3', 'xiangqi', '[]', '[]', '{}', 'now')",
                "INSERT INTO chat (channel, user_id, name, role, audience, text, at, line_key) "
                "VALUES ('table:t1', 1, 'alice', 'player', 'all', 'gg', 'now', 'k')"):
        if "chat" in sql:
            with engine.begin() as c:
                c.execute(text(sql))
        with pytest.raises(Exception, match="(?i)unique|duplicate"), engine.begin() as c:
            c.execute(text(sql))
    engine.dispose()
