"""A referee's act over a whole round reaches every worker's tables (docs/deploy.md, "The
lobby home"): an event's two tables served by two real workers on the machine's
PostgreSQL and Redis; the round paused through one worker and resumed through the other,
either worker's console lists both tables as they stand, and a warning naming an entrant sent
to the worker that does not serve the entrant's game reaches that game; so do a dispute filed
there by the entrant and the referee's ruling on it; once that game is over and the worker
that ran it has been killed, a dispute of it is still taken within the appeal window."""

from __future__ import annotations

import json
import secrets
import time
import zlib

import httpx
import pytest
from websockets.sync.client import connect

from .botapi_helpers import person as signed_up
from .cluster_helpers import move_table, running_cluster
from .e2e.timing import until as within

pytestmark = pytest.mark.timeout(120)


def person(base: str, name: str) -> httpx.Client:
    """A signed-up client from an address of its own (the sign-up limit is per address)."""
    return signed_up(base, name, f"198.51.100.{zlib.crc32(name.encode()) % 250 + 1}")


def console(ref: httpx.Client, base: str) -> dict[str, dict]:
    r = ref.get(base + "/api/events/rr/console")
    assert r.status_code == 200, r.text
    return {t["id"]: t for t in r.json()["tables"]}


def table_event(sock, kind: str) -> dict:
    """The next table event of type ``kind`` on the socket (a commitment answered on the way)."""
    while True:
        m = json.loads(sock.recv(timeout=30))
        if m["type"] == "commitment":
            sock.send(json.dumps({"type": "nonce", "nonce": secrets.token_hex(8)}))
        if m["type"] == "event" and m["event"]["type"] == kind:
            return m["event"]


def test_a_round_pause_and_resume_reach_every_workers_tables(pg_template, tmp_path):
    with running_cluster(pg_template, tmp_path, 2, ("--forwarded-allow-ips", "127.0.0.1")) \
            as (_, name, (w1, w2)):
        boss = person(w1.base, "boss")                    # the first account: an organizer
        players = ["p1", "p2", "p3", "p4"]
        clients = {p: person(w1.base, p) for p in players}
        ref = person(w2.base, "ref")
        body = {"preset": "s3_xiangqi", "name": "RR", "event_id": "rr", "players": players}
        assert boss.post("/api/events", json=body).status_code == 201
        assert boss.post("/api/events/rr/referees", json={"username": "ref"}).status_code == 201
        r = boss.post("/api/events/rr/start")             # both tables seated and served by w1
        assert r.status_code == 200, r.text
        a, b = sorted(r.json()["tables"])
        for _ in within(30):                              # until both games are under way
            if all(t["status"] == "playing" and t["clocks"] for t in console(ref, w1.base).values()):
                break
            time.sleep(0.05)
        move_table(name, b, w1, w2)                       # now w1 serves a, w2 serves b

        r = ref.post(w1.base + "/api/events/rr/acts", json={"act": "pause", "reason": "fire alarm"})
        assert r.status_code == 200, r.text
        assert sorted(r.json()["tables"]) == [a, b] and "unreached" not in r.json()
        for base in (w1.base, w2.base):
            tables = console(ref, base)
            assert sorted(tables) == [a, b]
            assert all(t["paused"] for t in tables.values()), tables
        r = ref.post(w1.base + "/api/events/rr/acts", json={"act": "pause", "reason": "again"})
        assert r.status_code == 409 and r.json()["code"] == "no_live_tables", r.text

        r = ref.post(w2.base + "/api/events/rr/acts", json={"act": "resume", "reason": "all clear"})
        assert r.status_code == 200, r.text
        assert sorted(r.json()["tables"]) == [a, b]
        assert not any(t["paused"] for t in console(ref, w1.base).values())
        log = [e for e in ref.get(w2.base + "/api/events/rr/log").json() if e["act"] in ("pause", "resume")]
        assert [(e["act"], sorted(e["data"]["tables"]), e["data"]["scope"]) for e in log] == \
            [("pause", [a, b], "round"), ("resume", [a, b], "round")]
        # an act naming an entrant reaches the entrant's game on the other worker; so do the
        # entrant's dispute and the referee's ruling on it, all sent to w1, which does not serve b
        player = console(ref, w2.base)[b]["names"][0]
        cookie = f"qipai_session={clients[player].cookies['qipai_session']}"
        with connect(f"{w1.ws}/ws/tables/{b}", additional_headers={"Cookie": cookie}) as sock:
            r = ref.post(w1.base + "/api/events/rr/acts",
                         json={"act": "warning", "entrant": player, "reason": "phone rang"})
            assert r.status_code == 200 and r.json()["table"] == b, r.text
            assert table_event(sock, "warning")["reason"] == "phone rang"
            r = clients[player].post(w1.base + "/api/events/rr/disputes",
                                     json={"table": b, "text": "clock ran"})
            assert r.status_code == 201 and r.json()["table"] == b, r.text
            dispute = r.json()["id"]
            assert table_event(sock, "dispute")["reason"] == "clock ran"
            r = ref.post(w1.base + "/api/events/rr/acts", json={
                "act": "ruling", "dispute": dispute, "decision": "rejected", "reason": "the clock was right"})
            assert r.status_code == 200, r.text
            ruling = table_event(sock, "ruling")
            assert (ruling["decision"], ruling["dispute"], ruling["by"]) == ("rejected", dispute, "ref")
        assert [(e["data"]["dispute"], e["data"]["decision"], e["table"])
                for e in ref.get(w1.base + "/api/events/rr/log").json() if e["act"] == "ruling"] \
            == [(dispute, "rejected", b)]
        # the game ends (adjudicated through w1, relayed to w2), then w2 is killed: a dispute of
        # the game within the appeal window is still taken (w2 knew when it ended; the record says)
        r = ref.post(w1.base + "/api/events/rr/acts", json={"act": "adjudicate", "table": b, "result": "1-0",
                                                             "reason": "agreed at the board"})
        assert r.status_code == 200, r.text
        for _ in within(30):
            if clients[player].get(f"{w1.base}/api/tables/{b}").json()["status"] == "finished":
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the adjudicated game did not end")
        w2.proc.kill()
        w2.proc.wait()
        r = clients[player].post(w1.base + "/api/events/rr/disputes",
                                 json={"table": b, "text": "the adjudication"})
        assert r.status_code == 201 and r.json()["table"] == b, r.text
        # the internal route answers relayed requests only
        r = httpx.post(w1.base + "/internal/events/rr/round",
                       json={"act": "pause", "by": "x", "reason": "x", "tables": [a]})
        assert r.status_code == 404 and r.json()["code"] == "not_found"
        for c in (boss, ref, *clients.values()):
            c.close()
