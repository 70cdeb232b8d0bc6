"""A player's Abort at a two-seat lobby table (lichess): allowed before both sides moved, then
the table is aborted for the reason ``aborted`` with the seat that asked (no result, no record);
refused once both sides moved, and at a card table (its game began at the deal)."""

from __future__ import annotations

from .server_helpers import client, next_state, post, signup, until, ws


def test_abort_before_both_sides_moved_and_refused_after(tmp_path):
    with client(tmp_path) as c:
        bob, carol = signup(c, "bob"), signup(c, "carol")
        tid = post(c, bob, "/api/tables", {"game": "xiangqi", "settings": {"clock": "xq_s3"}}).json()["id"]
        post(c, carol, f"/api/tables/{tid}/sit")
        with ws(c, bob, tid) as s:
            m = next_state(s)
            assert m["abortable"] is True
            s.send_json({"type": "move", "action": "h2e2", "turn": m["turn"], "seq": m["seq"]})
            m = until(s, lambda m: m["type"] == "state" and m["seq"] == 1)
            assert m["abortable"] is True          # carol has not moved yet
        with ws(c, carol, tid) as s:
            m = next_state(s)
            s.send_json({"type": "abort"})
            ev = until(s, lambda m: m["type"] == "event")
            assert ev["event"] == {"type": "aborted", "reason": "aborted", "seat": 1}
        info = c.get(f"/api/tables/{tid}").json()
        assert info["status"] == "aborted" and not info.get("record")

        tid = post(c, bob, "/api/tables", {"game": "xiangqi", "settings": {"clock": "xq_s3"}}).json()["id"]
        post(c, carol, f"/api/tables/{tid}/sit")
        with ws(c, bob, tid) as b, ws(c, carol, tid) as k:
            m = next_state(b)
            b.send_json({"type": "move", "action": "h2e2", "turn": m["turn"], "seq": m["seq"]})
            m = until(k, lambda m: m["type"] == "state" and m["seq"] == 1)
            k.send_json({"type": "move", "action": "h9g7", "turn": m["turn"], "seq": m["seq"]})
            m = until(b, lambda m: m["type"] == "state" and m["seq"] == 2)
            assert "abortable" not in m
            b.send_json({"type": "abort"})
            assert until(b, lambda m: m["type"] == "error")["error"] == "abort_not_allowed"

        tid = post(c, bob, "/api/tables", {"game": "doudizhu", "bots": 2, "bot": "random",
                                           "settings": {"clock": "card_default"}}).json()["id"]
        with ws(c, bob, tid) as s:
            assert "abortable" not in next_state(s)
            s.send_json({"type": "abort"})
            assert until(s, lambda m: m["type"] == "error")["error"] == "abort_not_allowed"
