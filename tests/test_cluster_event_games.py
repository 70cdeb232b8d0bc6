"""An event player's banner with several workers (GET /api/me/event-games): every worker of a
cluster answers the same list of his live event tables, read from the database, whichever
worker serves them (two real workers on the machine's PostgreSQL and Redis)."""

from __future__ import annotations

import contextlib
import time
import zlib

import httpx
import pytest
from websockets.sync.client import connect

from .botapi_helpers import person as signed_up
from .cluster_helpers import lease_owner, running_cluster, worker_id

pytestmark = pytest.mark.timeout(120)


def person(base: str, name: str) -> httpx.Client:
    """A signed-up client from an address of its own (the sign-up limit is per address)."""
    return signed_up(base, name, f"198.51.100.{zlib.crc32(name.encode()) % 250 + 1}")


def _games(c: httpx.Client, base: str) -> list[dict]:
    r = c.get(base + "/api/me/event-games")
    assert r.status_code == 200, r.text
    return [{**g, "hold": g["hold"] and {k: v for k, v in g["hold"].items() if k != "in_ms"}}
            for g in r.json()]


def test_every_worker_lists_a_players_event_tables(pg_template, tmp_path):
    env = {"QIPAI_READY_GRACE_SECONDS": "600"}            # the first games wait for their players
    with running_cluster(pg_template, tmp_path, 2, ("--forwarded-allow-ips", "127.0.0.1"), env) \
            as (_, name, (w1, w2)):
        boss = person(w1.base, "boss")                    # the first account: an organizer
        players = ["p1", "p2", "p3", "p4"]
        clients = {p: person(w1.base, p) for p in players}
        body = {"preset": "s3_xiangqi", "event_id": "rr", "players": players}
        assert boss.post(w1.base + "/api/events", json=body).status_code == 201
        r = boss.post(w1.base + "/api/events/rr/start")   # both tables seated and served by w1
        assert r.status_code == 200, r.text
        tables = set(r.json()["tables"])
        assert {lease_owner(name, x) for x in tables} == {worker_id(name, w1)}
        p1 = clients["p1"]
        mine = _games(p1, w1.base)
        assert len(mine) == 1 and mine[0]["table"] in tables and mine[0]["event"] == "rr", mine
        assert not mine[0]["started"] and mine[0]["hold"]["kind"] == "ready"
        assert _games(p1, w2.base) == mine                # w2 serves none of them: the same
        assert _games(boss, w2.base) == []
        # the table's players arrive through w2 (served by w1: relayed): ready on w1 (§5.6), it
        # starts; both say so
        seen = mine[0]["table"]
        names = [s["name"] for s in p1.get(f"{w2.base}/api/tables/{seen}").json()["seats"]]
        with contextlib.ExitStack() as stack:
            for n in names:
                cookie = f"qipai_session={clients[n].cookies['qipai_session']}"
                stack.enter_context(connect(f"{w2.ws}/ws/tables/{seen}",
                                            additional_headers={"Cookie": cookie}))
            for _ in range(300):
                a, b = _games(p1, w1.base), _games(p1, w2.base)
                if a and a[0]["started"] and a == b:
                    break
                time.sleep(0.1)
            assert a == b and a[0]["started"] and a[0]["hold"] is None, (a, b)


def test_an_events_results_read_through_either_worker_never_go_back(pg_template, tmp_path):
    """GET /api/events/{id} answered by both workers in turn, as a page polling behind a load
    balancer is: a result recorded through one worker (entered, then corrected so that the final
    needs another game) is in every later answer of either, never hidden again (the rounds held
    are read with the event, and a round opened again by a correction is not held)."""
    with running_cluster(pg_template, tmp_path, 2, ("--forwarded-allow-ips", "127.0.0.1")) \
            as (_, _, (w1, w2)):
        boss = person(w1.base, "boss")                    # the first account: an organizer
        bots = [{"id": "b1", "bot": "random"}, {"id": "b2", "bot": "random"}]
        r = boss.post("/api/events", json={"preset": "s2_go", "event_id": "fin", "players": bots})
        assert r.status_code == 201, r.text
        public = httpx.Client(timeout=30)

        def game(base: str) -> dict:
            r = public.get(base + "/api/events/fin")
            assert r.status_code == 200, r.text
            return r.json()["rounds"][0]["matches"][0]["games"][0]

        gid = game(w2.base)["id"]
        seen: list[str | None] = []
        for base, body in ((w1.base, {"act": "enter_result", "result": "B+R"}),
                           (w2.base, {"act": "correct", "result": "0"})):
            r = boss.post(base + "/api/events/fin/acts", json={**body, "game": gid, "reason": "scoresheet"})
            assert r.status_code == 200, r.text
            for _ in range(3):
                seen += [game(w1.base)["result"], game(w2.base)["result"]]
        assert seen == ["B+R"] * 6 + ["0"] * 6, seen
        public.close()
        boss.close()
