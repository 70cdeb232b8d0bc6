"""Message limits of the table sockets when many players share one client address (a venue's
NAT): a signed-in account is counted by itself, so one player's flood of sockets and messages
never refuses another player's move; and a refusal always tells a positive ``retry_after``."""

from __future__ import annotations

from qipai.server import Limits
from tests.server_helpers import client, next_state, post, receive, signup, ws


def _table(c):
    red, black = signup(c, "red"), signup(c, "black")
    t = post(c, red, "/api/tables", {"game": "xiangqi", "settings": {"clock": "none"}}).json()
    post(c, black, f"/api/tables/{t['id']}/sit")
    return red, black, t["id"]


def _until(sock, seq):
    """The first ``state`` of ``seq`` at least, or an error (which the test then shows)."""
    while True:
        m = next_state(sock)
        if m["type"] == "error" or m["seq"] >= seq:
            return m


def test_a_flood_from_one_account_never_refuses_another_accounts_moves(tmp_path):
    # one address (the test client's) for both; its budget, were it shared, is 10 messages
    limits = Limits(moves_account=(0.01, 60), moves_ip=(0.01, 10), api_ip=(1000.0, 1000),
                    signup_ip=(100.0, 100))
    with client(tmp_path, limits=limits) as c:
        red, black, tid = _table(c)
        moves = [("h2e2", "h9g7"), ("h0g2", "i9h9"), ("i0h0", "b9c7")]
        with ws(c, black, tid) as b:
            next_state(b)
            for n, (mine, theirs) in enumerate(moves):
                with ws(c, red, tid) as r:
                    next_state(r)
                    r.send_json({"type": "move", "seq": 2 * n, "action": mine})
                    assert _until(r, 2 * n + 1)["seq"] == 2 * n + 1
                assert _until(b, 2 * n + 1)["seq"] == 2 * n + 1
                # red drops and opens its seat's socket again and again, sending on each (its
                # own budget holds it; the address's would be spent)
                for _ in range(5):
                    with ws(c, red, tid) as r:
                        next_state(r)
                        for _ in range(3):
                            r.send_json({"type": "ping"})
                            receive(r)
                b.send_json({"type": "move", "seq": 2 * n + 1, "action": theirs})
                m = _until(b, 2 * n + 2)
                assert m["type"] == "state" and m["seq"] == 2 * n + 2, m
        with ws(c, None, tid) as s:            # a signed-out socket is counted per address
            next_state(s)
            for _ in range(10):
                s.send_json({"type": "ping"})
                assert receive(s)["type"] == "pong"
            s.send_json({"type": "ping"})
            m = receive(s)
            assert m["type"] == "error" and m["error"] == "rate_limited" and m["retry_after"] > 0


def test_a_refusal_tells_a_positive_retry_after(tmp_path):
    # a fast bucket: a refused message's token comes within a fraction of a millisecond, which
    # rounded to the nearest millisecond said 0.0 (ask again at once, to be refused again)
    limits = Limits(moves_account=(2500.0, 1), moves_ip=(1000.0, 1000), api_ip=(1000.0, 1000),
                    signup_ip=(100.0, 100))
    with client(tmp_path, limits=limits) as c:
        red, black, tid = _table(c)
        with ws(c, red, tid) as r:
            next_state(r)
            for _ in range(60):
                r.send_json({"type": "ping"})
            answers = [receive(r) for _ in range(60)]
        refused = [m for m in answers if m["type"] == "error"]
        assert refused and all(m["error"] == "rate_limited" for m in refused)
        assert min(m["retry_after"] for m in refused) >= 0.1, refused[:3]
