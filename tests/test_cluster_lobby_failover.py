"""The lobby home's seeks and challenges outlive it (docs/deploy.md, "The lobby home"): two real
workers on the machine's PostgreSQL and Redis; a seek waiting and a challenge pending at the
home, the home killed with SIGKILL; through the other worker, which becomes the home, the seek
is still waiting and is paired with a new one, and the challenge is still pending and is
accepted."""

from __future__ import annotations

import zlib

import httpx
import pytest

from .botapi_helpers import person as signed_up
from .cluster_helpers import lease_owner, running_cluster, worker_id

pytestmark = pytest.mark.timeout(120)


def person(base: str, name: str) -> httpx.Client:
    """A signed-up client from an address of its own (the sign-up limit is per address)."""
    return signed_up(base, name, f"198.51.100.{zlib.crc32(name.encode()) % 250 + 1}")


def test_a_new_lobby_home_takes_over_the_seeks_and_challenges(pg_template, tmp_path):
    with running_cluster(pg_template, tmp_path, 2, ("--forwarded-allow-ips", "127.0.0.1")) \
            as (_, name, (w1, w2)):
        assert httpx.get(w1.base + "/api/presence", timeout=30).status_code == 200   # w1: the home
        assert lease_owner(name, "@lobby") == worker_id(name, w1)
        cat, dan, eve, fay = (person(w2.base, n) for n in ("cat", "dan", "eve", "fay"))
        r = cat.post("/api/seeks", json={"game": "gomoku"})
        assert r.status_code == 201 and r.json()["status"] == "waiting", r.text
        seek = r.json()["id"]
        r = dan.post("/api/challenge/eve", json={"game": "gomoku", "settings": {"clock": "none"}})
        assert r.status_code == 201, r.text
        challenge = r.json()["id"]

        w1.proc.kill()                                 # SIGKILL: the home's memory is gone
        w1.proc.wait()
        r = cat.get(f"/api/seeks/{seek}")              # waits for w2 to become the home
        assert r.status_code == 200 and r.json()["status"] == "waiting", r.text
        assert lease_owner(name, "@lobby") == worker_id(name, w2)
        assert [c["id"] for c in eve.get("/api/challenges").json()["to_me"]] == [challenge]
        assert [c["id"] for c in dan.get("/api/challenges").json()["from_me"]] == [challenge]

        r = fay.post("/api/seeks", json={"game": "gomoku"})
        assert r.status_code == 201 and r.json()["status"] == "paired", r.text
        mine = cat.get(f"/api/seeks/{seek}").json()
        assert mine["status"] == "paired" and mine["table"] == r.json()["table"]
        r = eve.post(f"/api/challenge/{challenge}/accept")
        assert r.status_code == 200, r.text
        names = [s["name"] for s in eve.get(f"/api/tables/{r.json()['table']}").json()["seats"]]
        assert sorted(names) == ["dan", "eve"]
        assert eve.get("/api/challenges").json()["to_me"] == []
        for c in (cat, dan, eve, fay):
            c.close()
