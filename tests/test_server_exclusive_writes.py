"""Checks and the writes they allow are one step, whatever the timing: an account is never both
an entrant and an appointed referee of one event, a Join pressed twice at once enters once (and
a repeated Join is no error), and the caps on bot accounts and live tokens are never passed by
requests sent at the same moment. The requests run in real threads against one database, on
SQLite and PostgreSQL; where the race window is a few microseconds wide, the test holds one
request inside it (a hook that waits for the other) so that the old code fails every time."""

from __future__ import annotations

import asyncio
import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import pytest
from sqlalchemy import create_engine, event, func, select
from sqlalchemy.orm import sessionmaker

from qipai.competition import registration as reg
from qipai.competition.db import EntrantRow
from qipai.server import appointments
from qipai.server.appointments import Appointments
from qipai.server.errors import ApiError
from qipai.server.eventwork import EventWork
from qipai.server.models import EventRefereeRow, UserRow
from qipai.server.store import Store

from .conftest import migrated_sqlite
from .server_helpers import as_user, client, signup

#: how long a request held inside its window waits for the other one (which, once the window is
#: closed by a lock, never comes: this is then the time the other waits for the lock)
HOLD = 0.4


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    """A migrated database's URL, a SQLite file or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        shutil.copyfile(migrated_sqlite(), tmp_path / "q.db")
        return f"sqlite:///{tmp_path}/q.db"
    return request.getfixturevalue("pg_database")


@pytest.fixture
def db(url):
    engine = create_engine(url)
    yield sessionmaker(engine, expire_on_commit=False)
    engine.dispose()


def _event(db, *names: str) -> tuple[str, str, dict[str, int]]:
    """An event open for registration and accounts ``names``: (event id, join code, ids)."""
    eid, code = reg.open_registration(db, "s2_xiangqi")
    with db() as s:
        rows = [UserRow(username=n, username_key=n, password_hash="!", role=role)
                for n, role in [("org", "organizer"), *((n, "player") for n in names)]]
        s.add_all(rows)
        s.commit()
        return eid, code, {r.username: r.id for r in rows}


def _appointments(db) -> Appointments:
    a = Appointments()
    a.hub = SimpleNamespace(store=Store(db, loop_commits=False))
    return a


def _outcome(fn) -> str:
    try:
        fn()
        return "ok"
    except ApiError as e:
        return e.code


def _held(monkeypatch, module, name: str, arrived: threading.Event, go_on: threading.Event) -> None:
    """Make ``module.name`` (called inside a request's check-then-write window) signal
    ``arrived`` and wait up to HOLD for ``go_on`` before doing its work."""
    real = getattr(module, name)

    def hold(*args, **kw):
        if not arrived.is_set():
            arrived.set()
            go_on.wait(HOLD)
        return real(*args, **kw)
    monkeypatch.setattr(module, name, hold)


@pytest.mark.parametrize("first", ["join", "appoint"])
def test_a_join_and_an_appointment_at_the_same_moment_never_both_pass(db, monkeypatch, first):
    """X presses Join while the organizer appoints X referee: the request that is inside its
    check when the other comes holds there; the other must wait for it and see what it wrote.
    Exactly one passes (the first), the other is refused, and X is never both."""
    eid, code, ids = _event(db, "xavier")
    work, appoint = EventWork(db, None), _appointments(db)
    org = SimpleNamespace(id=ids["org"], username="org")
    inside, other_done = threading.Event(), threading.Event()
    if first == "join":
        _held(monkeypatch, reg, "check_players", inside, other_done)
    else:
        _held(monkeypatch, appointments, "plays_in", inside, other_done)

    def do_join():
        return _outcome(lambda: work.join(eid, "xavier", code, None, None))

    def do_appoint():
        return _outcome(lambda: asyncio.run(appoint.appoint(eid, org, "xavier")))

    def second(fn):
        assert inside.wait(10)
        try:
            return fn()
        finally:
            other_done.set()
    with ThreadPoolExecutor(2) as pool:
        if first == "join":
            a, b = pool.submit(do_join), pool.submit(second, do_appoint)
        else:
            a, b = pool.submit(do_appoint), pool.submit(second, do_join)
        outcomes = a.result(30), b.result(30)
    with db() as s:
        entrant = s.scalar(select(func.count()).select_from(EntrantRow).where(
            EntrantRow.event_id == eid, EntrantRow.entrant_id == "xavier"))
        referee = s.get(EventRefereeRow, (eid, ids["xavier"])) is not None
    assert outcomes == ("ok", "plays_in_event" if first == "join" else "referees_event"), outcomes
    assert (entrant, referee) == ((1, False) if first == "join" else (0, True))


def test_join_pressed_twice_at_once_enters_once_and_both_answer(db, monkeypatch):
    """Two workers (two EventWork over one database) take the same account's two presses of
    Join at once: one entry, and neither press fails (no unique-key error, no "duplicate
    player"); a third press later is no error either."""
    eid, code, _ = _event(db, "jane")
    one, two = EventWork(db, None), EventWork(db, None)
    inside, other_in = threading.Event(), threading.Event()
    real = reg.check_players

    def hold(*args, **kw):
        if not inside.is_set():
            inside.set()
            other_in.wait(HOLD)
        else:
            other_in.set()
        return real(*args, **kw)
    monkeypatch.setattr(reg, "check_players", hold)

    def press(work):
        return _outcome(lambda: work.join(eid, "jane", code, None, None))

    def later(work):
        assert inside.wait(10)
        return press(work)
    with ThreadPoolExecutor(2) as pool:
        outcomes = pool.submit(press, one).result(30), pool.submit(later, two).result(30)
    assert outcomes == ("ok", "ok")
    assert press(one) == "ok"
    with db() as s:
        assert s.scalars(select(EntrantRow.entrant_id).where(EntrantRow.event_id == eid)).all() == ["jane"]


@pytest.mark.parametrize("what", ["bots", "tokens"])
def test_caps_hold_against_requests_sent_at_once(tmp_path, url, what):
    """An account near its cap (8 of 10 bot accounts, 18 of 20 live tokens) sends six requests
    at once, each held a moment just before its insert (so that all six have counted before
    any has written, on the old code): two are made, four refused, and the cap holds."""
    cap, code = {"bots": (10, "too_many_bots"), "tokens": (20, "too_many_tokens")}[what]
    with client(tmp_path, database_url=url) as c:
        me = as_user(signup(c, "owner"))
        n = iter(range(1000))

        def make():
            body = {"username": f"runner{next(n)}"} if what == "bots" else {"scopes": ["board:play"]}
            r = c.post(f"/api/account/{what}", json=body, headers=me)
            return r.status_code, (r.json().get("error") if r.status_code != 201 else None)
        for _ in range(cap - 2):
            assert make() == (201, None)
        table = "users" if what == "bots" else "tokens"

        def slow_insert(conn, cursor, statement, parameters, context, executemany):
            if statement.lstrip().upper().startswith(f"INSERT INTO {table.upper()}"):
                time.sleep(0.05)
        engine = c.app.state.hub.store.db.kw["bind"]
        event.listen(engine, "before_cursor_execute", slow_insert)
        try:
            with ThreadPoolExecutor(6) as pool:
                answers = sorted(pool.map(lambda _: make(), range(6)), key=str)
        finally:
            event.remove(engine, "before_cursor_execute", slow_insert)
        listed = c.get("/api/account/tokens", headers=me).json()
    assert answers == [(201, None)] * 2 + [(409, code)] * 4, answers
    count = sum(1 for a in listed["accounts"] if a.get("bot")) if what == "bots" else len(listed["tokens"])
    assert count == cap
