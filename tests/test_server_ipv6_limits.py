"""Every per-address limit counts an IPv6 client by its /64 (``conns.client_key``), as the
sign-up and table-code limits did: one subscriber or host holds 2**64 addresses, and each of
them had a budget of its own for replays, other requests (``api_ip``), a signed-out socket's
messages (``moves_ip``) and the sockets open per address (``ws_open_ip``). Another /64 and an
IPv4 address count apart; an IPv4-mapped IPv6 address counts as its IPv4 one."""

from __future__ import annotations

from fastapi.testclient import TestClient

from qipai.server import Limits

from .server_helpers import client, post, receive, signup, ws
from .test_server_hostile import closed_with

#: three addresses of one /64, and one of another
SAME = ["2001:db8:5:6::1", "2001:db8:5:6::2", "2001:db8:5:6:ffff:1:2:3"]
OTHER = "2001:db8:5:7::1"


def _from(c, address: str) -> TestClient:
    """A client of the same app whose requests and sockets come from ``address``."""
    return TestClient(c.app, client=(address, 4000))


def _table(c) -> str:
    owner = signup(c, "owner")
    r = post(c, owner, "/api/tables", {"game": "xiangqi", "bots": 1, "settings": {"clock": "none"}})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def test_replays_are_limited_per_ipv6_network(tmp_path):
    limits = Limits(replay_ip=(0.001, 2), api_ip=(1000.0, 1000), signup_ip=(100.0, 100))
    with client(tmp_path, limits=limits) as c:
        codes = [_from(c, a).get("/api/records/999/steps").status_code for a in SAME]
        assert codes == [404, 404, 429]                # the third address of the /64: its third
        assert _from(c, OTHER).get("/api/records/999/steps").status_code == 404
        assert [_from(c, a).get("/api/records/999/steps").status_code
                for a in ("203.0.113.7", "::ffff:203.0.113.7", "203.0.113.7")] == [404, 404, 429]


def test_other_requests_are_limited_per_ipv6_network(tmp_path):
    limits = Limits(api_ip=(0.001, 2), signup_ip=(100.0, 100))
    with client(tmp_path, limits=limits) as c:
        # a state-changing request, counted before it is read (signed out: 401 once let in)
        codes = [_from(c, a).post("/api/tables", json={"game": "xiangqi"}).status_code for a in SAME]
        assert codes == [401, 401, 429]
        assert _from(c, OTHER).post("/api/tables", json={"game": "xiangqi"}).status_code == 401


def test_a_signed_out_sockets_messages_are_limited_per_ipv6_network(tmp_path):
    limits = Limits(moves_ip=(0.001, 4), api_ip=(1000.0, 1000), signup_ip=(100.0, 100))
    with client(tmp_path, limits=limits) as c:
        tid = _table(c)
        answers = []
        for address in SAME:                           # two messages from each address
            with ws(_from(c, address), None, tid) as s:
                assert receive(s)["type"] == "hello"
                for _ in range(2):
                    s.send_json({"type": "ping"})
                    m = {"type": "state"}
                    while m["type"] not in ("pong", "error"):
                        m = receive(s)
                    answers.append(m.get("error", m["type"]))
        assert answers == ["pong"] * 4 + ["rate_limited"] * 2, answers
        with ws(_from(c, OTHER), None, tid) as s:
            assert receive(s)["type"] == "hello"
            s.send_json({"type": "ping"})
            m = {"type": "state"}
            while m["type"] not in ("pong", "error"):
                m = receive(s)
            assert m["type"] == "pong", m


def test_sockets_open_per_address_count_an_ipv6_network(tmp_path):
    limits = Limits(ws_open_ip=2, api_ip=(1000.0, 1000), signup_ip=(100.0, 100))
    with client(tmp_path, limits=limits) as c:
        tid = _table(c)
        with ws(_from(c, SAME[0]), None, tid) as a, ws(_from(c, SAME[1]), None, tid) as b:
            assert receive(a)["type"] == receive(b)["type"] == "hello"
            with ws(_from(c, SAME[2]), None, tid) as third:       # the network's third
                assert closed_with(third)[:2] == (4408, "too_many_sockets")
            with ws(_from(c, OTHER), None, tid) as other:          # another network's first
                assert receive(other)["type"] == "hello"
