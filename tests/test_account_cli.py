"""``qipai account role``: an account's role set in a server's database from the command line
(a real SQLite database, migrated as the server does); a name that is no account, or a role
that does not exist, is refused with exit status 2 and nothing changed."""

from __future__ import annotations

from sqlalchemy import select
from typer.testing import CliRunner

from qipai.cli import app
from qipai.competition.db import open_db
from qipai.server import auth
from qipai.server.models import UserRow


def test_a_role_is_set_from_the_command_line(tmp_path):
    url = f"sqlite:///{tmp_path / 'qipai.db'}"
    db = open_db(url)
    with db() as s:
        s.add(UserRow(username="Alice", username_key=auth.username_key("Alice"), password_hash="!",
                      role="player"))
        s.commit()
    run = CliRunner().invoke
    got = run(app, ["account", "role", "ALICE", "organizer", "--database-url", url])
    assert got.exit_code == 0, got.output
    assert got.output == "ALICE: player -> organizer\n"       # found as sign-in finds it
    for args, says in ((["nobody", "player"], "no account 'nobody'"),
                       (["Alice", "admin"], "organizer or player")):
        got = run(app, ["account", "role", *args, "--database-url", url])
        assert got.exit_code == 2 and says in got.output, got.output
    with db() as s:
        assert s.scalars(select(UserRow.role)).all() == ["organizer"]
    db.kw["bind"].dispose()
