"""One "Create event" press makes one event, whatever happens to the server in between
(competition.md §4.7): the press's ``request_key`` is kept in the database (``event_requests``,
migration 0018), so the same request sent again after a restart, or to another worker of a
cluster, answers with the event made, never a second one. On SQLite and PostgreSQL."""

from __future__ import annotations

import shutil
import threading
import time

import httpx
import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import sessionmaker

from qipai.server.errors import ApiError
from qipai.server.eventwork import EventWork
from qipai.server.models import EventRequestRow

from .conftest import migrated_sqlite
from .e2e.conftest import running_server


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path):
    """A migrated database's sessionmaker, on SQLite (a file) or PostgreSQL."""
    if request.param == "sqlite":
        shutil.copyfile(migrated_sqlite(), tmp_path / "q.db")
        url = f"sqlite:///{tmp_path}/q.db"
    else:
        url = request.getfixturevalue("pg_database")
    engine = create_engine(url)
    yield sessionmaker(engine)
    engine.dispose()


def never() -> str:
    raise AssertionError("a second event was made for one press")


def test_a_press_seen_by_another_worker_answers_with_the_event_made(db):
    """Two workers (two EventWork over one database): the second, given the first's key, answers
    with its event; a press whose making failed lets its key go, so the mended form may be sent
    again with it."""
    one, two = EventWork(db, None), EventWork(db, None)
    assert one._once("k1", lambda: "ev1") == "ev1"
    assert two._once("k1", never) == "ev1"
    assert one._once("k1", never) == "ev1"

    def refused() -> str:
        raise ApiError(400, "bad_event", "no")
    with pytest.raises(ApiError):
        one._once("k2", refused)
    assert two._once("k2", lambda: "ev2") == "ev2"
    with db() as s:
        assert s.scalars(select(EventRequestRow.event_id).order_by(EventRequestRow.request_key)).all() == \
            ["ev1", "ev2"]


def test_a_press_being_made_elsewhere_is_waited_for(db):
    """The same press reaching a second worker while the first still makes its event (which may
    take seconds) waits for it and answers with it."""
    one, two = EventWork(db, None), EventWork(db, None)
    go = threading.Event()
    got: list[str] = []

    def slow() -> str:
        assert go.wait(30)
        return "ev3"
    first = threading.Thread(target=lambda: got.append(one._once("k3", slow)))
    first.start()
    deadline = time.monotonic() + 30
    while True:                                   # the first worker has claimed the key
        with db() as s:
            if s.get(EventRequestRow, "k3") is not None:
                break
        assert time.monotonic() < deadline
        time.sleep(0.02)
    second = threading.Thread(target=lambda: got.append(two._once("k3", never)))
    second.start()
    go.set()
    first.join(30)
    second.join(30)
    assert got == ["ev3", "ev3"]


def test_the_same_press_after_a_restart_makes_no_second_event(tmp_path):
    """A real server: the form's request, sent again after the server was stopped and started
    again (its answer lost on the way), answers with the event made the first time."""
    body = {"preset": "s3_xiangqi", "players": [{"id": f"b{i}", "bot": "random"} for i in range(4)],
            "request_key": "a1b2c3d4e5f60718293a4b5c6d7e8f90"}
    with running_server(tmp_path) as base:
        boss = httpx.Client(base_url=base, timeout=60)
        signup = boss.post("/api/signup", json={"username": "boss", "password": "correct horse"})
        assert signup.status_code == 201, signup.text
        first = boss.post("/api/events", json=body)
        assert first.status_code == 201, first.text
    with running_server(tmp_path) as base:
        boss = httpx.Client(base_url=base, timeout=60, cookies=boss.cookies)
        again = boss.post("/api/events", json=body)
        assert again.status_code == 201, again.text
        assert again.json()["id"] == first.json()["id"]
        assert [e["id"] for e in boss.get("/api/events").json()] == [first.json()["id"]]
