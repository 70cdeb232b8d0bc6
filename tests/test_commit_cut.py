"""The connection to the real PostgreSQL broken right after a COMMIT went through (a proxy drops
the server's answer to it, :mod:`tests.pgcut`): the server saw an error and wrote again, and
nothing is stored twice, lost, or answered as refused. The group commits of the store (on its
thread and, for action rows, from the event loop) and every write a request retries through
:meth:`qipai.server.store.Store.call` (:func:`qipai.server.store.again`)."""

from __future__ import annotations

import pytest
import uvloop
from sqlalchemy import func, select

from qipai.competition.acts import RefereeActRow
from qipai.competition.db import open_db
from qipai.server.models import ChatReportRow, EventRefereeRow, SessionRow, TokenRow, UserRow
from qipai.server.store import Gate, NewTable, Store
from qipai.server.tokens import token_hash
from qipai.server.writer import WriterProcess

from .pg import ADMIN
from .pgcut import CommitCut
from .server_helpers import COOKIE, client, post, signup, ws
from .test_commit_retry import game_over, move, said, stored, users
from .test_store_writer_process import stored_rows, table_values


@pytest.fixture
def cut(pg_database):
    """The proxy, and the test database's URL through it."""
    host, port = ADMIN.rsplit("@", 1)[1].split("/", 1)[0].split(":")
    proxy = CommitCut((host, int(port)))
    yield proxy, proxy.url(pg_database)
    proxy.close()


@pytest.mark.parametrize("path", ["thread", "process", "loop"])
def test_a_group_commit_cut_after_its_commit_is_stored_once(cut, path):
    proxy, url = cut
    users(open_db(url))
    seen = []

    async def scenario():
        store = Store(open_db(url), stall=5.0, loop_commits=path == "loop",
                      process=WriterProcess(url) if path == "process" else None)
        assert (store.loop is not None) == (path == "loop")
        store.listeners.append(seen.append)
        await store.start()
        try:
            t1 = Gate("t1", 0)
            store.append(t1, NewTable({**table_values("t1"), "status": "playing"}))
            store.append(t1, move(0, "h2e2"))           # opens the loop's connection too
            await store.saved(t1, 10.0)
            proxy.arm(b"INSERT INTO actions")
            for i, m in enumerate(("h9g7", "b0c2", "b9c7"), start=1):
                store.append(t1, move(i, m))
            await store.saved(t1, 10.0)
            assert proxy.cuts == 1
            proxy.arm(b"INSERT INTO records")
            got = [store.append(t1, game_over()), store.append(t1, said("gg"))]
            await store.saved(t1, 10.0)
            assert proxy.cuts == 2
            assert [e.failed for e in got] == [None, None] and store.dropped == 0
            return [e.result for e in got]
        finally:
            await store.stop(5.0)

    results = uvloop.run(scenario())
    assert stored_rows(url) == [("t1", i, m) for i, m in enumerate(("h2e2", "h9g7", "b0c2", "b9c7"))]
    now = stored(url)
    assert len(now["records"]) == 1 and len(now["players"]) == 2 and len(now["changes"]) == 2
    assert [r.games for r in now["ratings"]] == [1, 1]
    assert [c.text for c in now["chat"]] == ["gg"]
    assert results[0][0] == now["records"][0].id
    assert seen[:1] == [True] and seen[-1] is False     # down while it retried, then up again


def count(url: str, q) -> int:
    with open_db(url)() as s:
        return s.scalar(q)


def test_every_request_write_retried_after_its_commit_went_through_is_done_once(cut, tmp_path):
    """Each write a request makes through ``Store.call`` that a retry could repeat or refuse:
    its connection is cut after its COMMIT, the request still gets the answer of a first try and
    the database holds what one try writes."""
    proxy, url = cut
    with client(tmp_path, database_url=url) as c:
        boss = signup(c, "boss")            # the first account: an organizer
        # sign-up: one account, signed in (not "username taken" by its own first try)
        proxy.arm(b"INSERT INTO users")
        r = c.post("/api/signup", json={"username": "alice", "password": "correct horse"})
        assert proxy.cuts == 1 and r.status_code == 201, r.text
        alice = r.cookies[COOKIE]
        c.cookies.clear()
        assert count(url, select(func.count()).select_from(UserRow).where(UserRow.username == "alice")) == 1
        assert c.get("/api/me", headers={"Cookie": f"{COOKIE}={alice}"}).json()["user"]["username"] == "alice"
        # sign-in: one new session, the one whose token the answer gives
        sessions = select(func.count()).select_from(SessionRow).join(UserRow).where(
            UserRow.username == "alice")
        proxy.arm(b"INSERT INTO sessions")
        r = c.post("/api/login", json={"username": "alice", "password": "correct horse"})
        assert proxy.cuts == 2 and r.status_code == 200, r.text
        c.cookies.clear()
        assert count(url, sessions) == 2
        # an API token: one, and the answer's secret is its
        proxy.arm(b"INSERT INTO api_tokens")
        r = post(c, alice, "/api/account/tokens", {"scopes": ["board:play"], "description": "x"})
        assert proxy.cuts == 3 and r.status_code == 201, r.text
        mine = select(func.count()).select_from(TokenRow).where(
            TokenRow.token_hash == token_hash(r.json()["token"]))
        assert count(url, select(func.count()).select_from(TokenRow)) == 1 and count(url, mine) == 1
        # a bot account: one, not "username taken"
        proxy.arm(b"INSERT INTO users")
        r = post(c, alice, "/api/account/bots", {"username": "alicebot"})
        assert proxy.cuts == 4 and r.status_code == 201, r.text
        assert count(url, select(func.count()).select_from(UserRow).where(UserRow.owner_id.is_not(None))) == 1
        carl = signup(c, "carl")
        # a report of a chat line: one, not "already reported"
        tid = post(c, alice, "/api/tables", {"game": "xiangqi", "settings": {"clock": "none"}}).json()["id"]
        with ws(c, alice, tid) as sock:
            sock.send_json({"type": "chat", "text": "you are rubbish"})
            while (m := sock.receive_json())["type"] != "chat" or m["line"]["text"] != "you are rubbish":
                pass
        line = m["line"]
        proxy.arm(b"INSERT INTO chat_reports")
        r = post(c, carl, "/api/chat/reports", {"table": tid, "user": line["user"], "at": line["at"],
                                                 "text": line["text"], "reason": "an insult"})
        assert proxy.cuts == 5 and r.status_code == 201 and r.json()["reason"] == "an insult", r.text
        assert count(url, select(func.count()).select_from(ChatReportRow)) == 1
        # marking one's account a bot: done, not "already a bot"
        proxy.arm(b"UPDATE users SET bot")
        r = post(c, carl, "/api/account/bot")
        assert proxy.cuts == 6 and (r.status_code, r.json().get("bot")) == (200, True), r.text
        # an event's referee: appointed once, logged once
        ev = {"preset": "s3_xiangqi", "event_id": "club", "players": ["alice", "carl", "dave", "erin"]}
        for n in ("dave", "erin", "ref"):
            signup(c, n)
        assert post(c, boss, "/api/events", ev).status_code == 201
        proxy.arm(b"INSERT INTO event_referees")
        r = post(c, boss, "/api/events/club/referees", {"username": "ref"})
        assert proxy.cuts == 7 and r.status_code == 201 and r.json()["referees"] == ["ref"], r.text
        assert count(url, select(func.count()).select_from(EventRefereeRow)) == 1
        appoints = select(func.count()).select_from(RefereeActRow).where(RefereeActRow.act == "appoint")
        assert count(url, appoints) == 1
        # a referee's warning: one entry of the event's log
        ref = c.post("/api/login", json={"username": "ref", "password": "correct horse"}).cookies[COOKIE]
        c.cookies.clear()
        proxy.arm(b"INSERT INTO referee_acts")
        r = post(c, ref, "/api/events/club/acts", {"act": "warning", "entrant": "alice", "reason": "talking"})
        assert proxy.cuts == 8 and r.status_code == 200, r.text
        warnings = select(func.count()).select_from(RefereeActRow).where(RefereeActRow.act == "warning")
        assert count(url, warnings) == 1
