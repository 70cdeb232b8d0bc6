"""The lobby home's seeks, challenges and answers to challenges outlive it (docs/deploy.md, "The
lobby home"): real workers on the machine's PostgreSQL and Redis; a seek waiting, a challenge
pending and another declined at the home, a third worker started, the home killed with SIGKILL;
through the third worker, which becomes the home (and never heard the answer), the accounts
that were online are still listed as online, the seek is still waiting and is paired with a
new one, the challenge is still pending and is accepted, and the challenger still sees the
answer to the other one; a seek the dead home had paired to a table it never stored is waiting
again, and a challenge it had accepted at such a table is pending again."""

from __future__ import annotations

import json
import time
import zlib

import httpx
import pytest
import redis

from .botapi_helpers import person as signed_up
from .cluster_helpers import REDIS, Worker, lease_owner, running_cluster, worker_id

pytestmark = pytest.mark.timeout(120)


def person(base: str, name: str) -> httpx.Client:
    """A signed-up client from an address of its own (the sign-up limit is per address)."""
    return signed_up(base, name, f"198.51.100.{zlib.crc32(name.encode()) % 250 + 1}")


def test_a_new_lobby_home_takes_over_the_seeks_and_challenges(pg_template, tmp_path):
    args = ("--forwarded-allow-ips", "127.0.0.1")
    with running_cluster(pg_template, tmp_path, 2, args) as (url, name, workers):
        w1, w2 = workers
        assert httpx.get(w1.base + "/api/presence", timeout=30).status_code == 200   # w1: the home
        assert lease_owner(name, "@lobby") == worker_id(name, w1)
        cat, dan, eve, fay = (person(w2.base, n) for n in ("cat", "dan", "eve", "fay"))
        r = cat.post("/api/seeks", json={"game": "gomoku"})
        assert r.status_code == 201 and r.json()["status"] == "waiting", r.text
        seek = r.json()["id"]
        r = dan.post("/api/challenge/eve", json={"game": "gomoku", "settings": {"clock": "none"}})
        assert r.status_code == 201, r.text
        challenge = r.json()["id"]
        r = dan.post("/api/challenge/eve", json={"game": "go"})
        assert r.status_code == 201, r.text
        declined = r.json()["id"]
        assert eve.post(f"/api/challenge/{declined}/decline").json() == {"ok": True}
        # a pairing the home kept just before it died, its table never stored
        gil = person(w2.base, "gil")
        now = time.time()
        ghost = {"id": "ghostseek", "user_id": gil.get("/api/me").json()["user"]["id"], "username": "gil",
                 "rating": 1500.0, "game": "xiangqi", "options": {}, "num_seats": 2,
                 "clock": "board_default", "rated": True, "created": now, "seen": now, "bot": False,
                 "table": "neverstored", "partners": ["someone"], "done": True}
        dan_id, eve_id = (c.get("/api/me").json()["user"]["id"] for c in (dan, eve))
        pending = {"id": "ghostchal", "from": "dan", "to": "eve", "game": "gomoku", "options": {},
                   "num_seats": 2, "settings": {"clock": "none"}, "seat": None, "bot": None,
                   "status": "created", "created": "2026-12-05T00:00:00Z", "from_id": dan_id,
                   "to_id": eve_id, "from_bot": False, "to_bot": False, "at": now}
        accepted = {**{k: v for k, v in pending.items() if not k.endswith("_id") and k != "at"},
                    "status": "accepted", "table": "neverstored", "pending": pending,
                    "from_id": dan_id, "at": now}
        # a worker started after the answer (it did not hear it) becomes the home
        w3 = Worker(tmp_path, url, name, 3, args)
        workers.append(w3)
        w3.wait_up()
        # cat's page asks after its seek every few seconds, which keeps it waiting (SEEK_TTL,
        # 20 s); a worker's start on a loaded machine takes longer than that
        assert cat.get(f"/api/seeks/{seek}").json()["status"] == "waiting"
        ghost["seen"] = time.time()
        r = redis.Redis.from_url(REDIS)
        r.hset(f"{name}:lobby:seeks", "ghostseek", json.dumps(ghost))
        r.hset(f"{name}:lobby:answers", "ghostchal", json.dumps(accepted))
        r.close()

        w1.proc.kill()                                 # SIGKILL: the home's memory is gone
        w1.proc.wait()
        # who is online outlives the home too (nobody asked the new home yet: an anonymous look)
        r = httpx.get(f"{w3.base}/api/presence", timeout=30)     # waits for w3 to become the home
        assert r.status_code == 200, r.text
        assert lease_owner(name, "@lobby") == worker_id(name, w3)
        online = {p["username"] for p in r.json()["players"]}
        assert {"cat", "dan", "eve"} <= online, r.json()
        r = cat.get(f"{w3.base}/api/seeks/{seek}")
        assert r.status_code == 200 and r.json()["status"] == "waiting", r.text
        assert lease_owner(name, "@lobby") == worker_id(name, w3)
        both = sorted([challenge, "ghostchal"])
        assert sorted(c["id"] for c in eve.get("/api/challenges").json()["to_me"]) == both
        mine = dan.get("/api/challenges").json()
        assert sorted(c["id"] for c in mine["from_me"]) == both
        assert [(a["id"], a["status"], a["to"]) for a in mine["answered"]] == [(declined, "declined", "eve")]
        r = gil.get("/api/seeks/ghostseek")
        assert (r.json()["status"], r.json()["table"]) == ("waiting", None), r.text

        r = fay.post("/api/seeks", json={"game": "gomoku"})
        assert r.status_code == 201 and r.json()["status"] == "paired", r.text
        mine = cat.get(f"/api/seeks/{seek}").json()
        assert mine["status"] == "paired" and mine["table"] == r.json()["table"]
        r = eve.post(f"/api/challenge/{challenge}/accept")
        assert r.status_code == 200, r.text
        names = [s["name"] for s in eve.get(f"/api/tables/{r.json()['table']}").json()["seats"]]
        assert sorted(names) == ["dan", "eve"]
        assert [c["id"] for c in eve.get("/api/challenges").json()["to_me"]] == ["ghostchal"]
        for c in (cat, dan, eve, fay, gil):
            c.close()
