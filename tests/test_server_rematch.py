"""Rematch (再来一局) at a lobby table: the same game again, seats swapped in a two-seat game,
bots sat again, the other players' seats kept for them and offered over their socket."""

from __future__ import annotations

from .server_helpers import client, next_state, post, receive, signup, ws


def finish_by_resigning(c, token, tid):
    with ws(c, token, tid) as s:
        next_state(s)
        s.send_json({"type": "resign"})
        while True:
            m = receive(s)
            if m["type"] == "state" and m["record"]:
                return m


def test_rematch_swaps_seats_keeps_the_opponents_seat_and_tells_it(tmp_path):
    with client(tmp_path) as c:
        alice, bob, carol = signup(c, "alice"), signup(c, "bob"), signup(c, "carol")
        body = {"game": "xiangqi", "settings": {"clock": "xq_s3", "bot_delay_ms": 0}}
        tid = post(c, alice, "/api/tables", body).json()["id"]
        assert post(c, alice, f"/api/tables/{tid}/rematch").json()["error"] == "not_finished"
        post(c, bob, f"/api/tables/{tid}/sit")
        with ws(c, bob, tid) as b:
            next_state(b)
            assert finish_by_resigning(c, alice, tid)["result"]["reason"] == "resign"
            assert post(c, carol, f"/api/tables/{tid}/rematch").json()["error"] == "not_at_table"
            r = post(c, alice, f"/api/tables/{tid}/rematch")
            assert r.status_code == 200, r.text
            new = r.json()
            # alice played Red (seat 0): now Black; bob's seat is kept for him
            assert new["game"] == "xiangqi" and new["settings"]["clock"] == "xq_s3"
            assert new["seats"][0] is None and new["seats"][1]["name"] == "alice"
            assert list(new["settings"]["reserved"]) == ["0"]
            assert new["settings"]["rematch_of"] == tid and new["status"] == "open"
            while (m := receive(b))["type"] != "rematch":
                pass
            assert m == {"type": "rematch", "table": new["id"], "by": "alice"}
        # the old game's table names its rematch, for its page opened later (issue 13)
        assert c.get(f"/api/tables/{tid}").json()["rematch"] == new["id"]
        r = post(c, carol, f"/api/tables/{new['id']}/sit")
        assert r.status_code == 409 and r.json()["error"] == "seat_reserved"
        r = post(c, carol, f"/api/tables/{new['id']}/sit", {"seat": 0})
        assert r.status_code == 409 and r.json()["error"] == "seat_reserved"
        # asking again is idempotent; bob's request seats him in his kept seat and the game starts
        assert post(c, alice, f"/api/tables/{tid}/rematch").json()["id"] == new["id"]
        joined = post(c, bob, f"/api/tables/{tid}/rematch").json()
        assert joined["id"] == new["id"] and joined["seats"][0]["name"] == "bob"
        assert joined["status"] == "playing"


def test_rematch_against_a_bot_starts_at_once_with_colours_swapped(tmp_path):
    """... and the rematch of a private table is private too (unlisted, a long id)."""
    with client(tmp_path) as c:
        alice = signup(c, "alice")
        tid = post(c, alice, "/api/tables", {"game": "gomoku", "bots": 1, "bot": "random",
                                             "settings": {"clock": "none", "bot_delay_ms": 0,
                                                          "private": True}}).json()["id"]
        finish_by_resigning(c, alice, tid)
        new = post(c, alice, f"/api/tables/{tid}/rematch").json()
        assert [s.get("bot") for s in new["seats"]] == ["random", None]
        assert new["seats"][1]["name"] == "alice" and new["status"] == "playing"
        assert "reserved" not in new["settings"]
        assert new["settings"]["private"] is True and len(new["id"]) == 20
        assert new["id"] not in {t["id"] for t in c.get("/api/tables").json()}


def test_a_rated_tables_rematch_is_rated_too(tmp_path):
    """bob opens a rated xiangqi table, carol sits, bob resigns after a move, carol asks for the
    rematch and bob joins it: the lobby lists the rematch as rated (it keeps the table's options,
    ``rated`` among them)."""
    with client(tmp_path) as c:
        bob, carol = signup(c, "bob"), signup(c, "carol")
        body = {"game": "xiangqi", "settings": {"clock": "xq_s3", "rated": True}}
        tid = post(c, bob, "/api/tables", body).json()["id"]
        assert post(c, carol, f"/api/tables/{tid}/sit").json()["rated"] is True
        with ws(c, bob, tid) as s:
            m = next_state(s)
            assert m["seat"] == 0 and m["to_act"] == [0]
            s.send_json({"type": "move", "action": "h2e2", "turn": m["turn"], "seq": m["seq"]})
            while (m := receive(s))["type"] != "state" or m["seq"] < 1:
                pass
        finish_by_resigning(c, bob, tid)
        new = post(c, carol, f"/api/tables/{tid}/rematch").json()
        assert new["settings"]["rated"] is True
        joined = post(c, bob, f"/api/tables/{tid}/rematch").json()
        assert joined["id"] == new["id"] and joined["status"] == "playing"
        listed = {t["id"]: t for t in c.get("/api/tables").json()}
        assert listed[new["id"]]["rated"] is True
