"""``qipai account``: changes to a server's accounts made from the command line, the way an
administrator makes them (no request of the server changes a role).

``qipai account role NAME organizer|player`` sets the role of the account ``NAME`` in the
server's database and, with a Redis (``--redis-url`` or ``$QIPAI_REDIS_URL``), tells every
running worker of the cluster (``$QIPAI_CLUSTER_NAME``) at once, on the channel
``<cluster>:account`` (:data:`.cluster.ACCOUNT`): each drops what it cached of the account and
reads it again at its next request. Without a Redis, a running server sees the change within
its session cache's 30 s.
"""

from __future__ import annotations

import os
from typing import Annotated

import typer

from qipai.console import LangOpt, console, fail, said
from qipai.i18n import say

app = typer.Typer(help="Accounts of a server's database: roles (docs/server.md).", no_args_is_help=True)

ROLES = ("organizer", "player")


def set_role(db, username: str, role: str) -> tuple[int, str] | None:
    """Give the account ``username`` (found as sign-in finds it) the role ``role``; returns
    ``(its id, the role it had)``, or None when there is no such account."""
    from .auth import find_user

    with db() as s:
        user = find_user(s, username)
        if user is None:
            return None
        before, user.role = user.role, role
        s.commit()
        return user.id, before


def tell_workers(redis_url: str, cluster: str, user_id: int) -> int:
    """Publish the change of ``user_id`` to the cluster ``cluster``: the workers that heard it."""
    import redis

    from .cluster import ACCOUNT

    r = redis.Redis.from_url(redis_url, socket_timeout=5, socket_connect_timeout=5)
    try:
        return int(r.publish(ACCOUNT.format(cluster), str(user_id)))
    finally:
        r.close()


@app.command("role")
def role_cmd(
    username: Annotated[str, typer.Argument(help="The account's username.")],
    role: Annotated[str, typer.Argument(help="organizer or player.")],
    database_url: Annotated[str | None, typer.Option(
        "--database-url", help="The server's database (default $QIPAI_DATABASE_URL, else the SQLite "
                               "file of $QIPAI_DATA_DIR).")] = None,
    redis_url: Annotated[str | None, typer.Option(
        "--redis-url", help="The cluster's Redis, to tell its workers at once (default "
                            "$QIPAI_REDIS_URL).")] = None,
    lang: LangOpt = None,
) -> None:
    """Set an account's role (organizer: may make events and appoint referees; player)."""
    from qipai.competition.db import open_db
    from qipai.core.errors import QipaiError

    if role not in ROLES:
        raise typer.BadParameter("organizer or player", param_hint="ROLE")
    try:
        db = open_db(database_url)
    except QipaiError as e:
        fail(said(e))
    try:
        got = set_role(db, username, role)
    finally:
        db.kw["bind"].dispose()
    if got is None:
        fail(say("cli.account.none", {"name": username}))
    user_id, before = got
    console.print(say("cli.account.role", {"name": username, "before": before, "role": role}), markup=False)
    redis_url = redis_url or os.environ.get("QIPAI_REDIS_URL") or None
    if redis_url:
        cluster = os.environ.get("QIPAI_CLUSTER_NAME") or "qipai"
        heard = tell_workers(redis_url, cluster, user_id)
        console.print(say("cli.account.told", {"cluster": cluster, "n": heard}), markup=False)
