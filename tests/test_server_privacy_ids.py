"""What a hostile user once got through: ids no row can have (a 500 from the database driver
instead of a 404), and a finished game with a player who hides their history seen through its
table (summary and spectator socket) when its record is hidden."""

from __future__ import annotations

import json

from .rating_helpers import play_xiangqi
from .server_helpers import as_user, client, signup, ws


def test_ids_no_row_can_have_are_not_found_not_internal_errors(tmp_path):
    with client(tmp_path) as c:
        a = signup(c, "mallory")
        for bad in ("9223372036854775808", "99999999999999999999999", "0", "-1"):
            r = c.delete(f"/api/account/tokens/{bad}", headers=as_user(a))
            assert r.status_code == 404 and r.json()["error"] == "no_such_token", (bad, r.text)
            r = c.get(f"/api/records/{bad}")
            assert r.status_code == 404 and r.json()["error"] == "no_record", (bad, r.text)
        r = c.delete("/api/account/tokens/9223372036854775807", headers=as_user(a))
        assert r.status_code == 404 and r.json()["error"] == "no_such_token"


def test_a_finished_hidden_game_is_not_shown_through_its_table(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        a, b, x = signup(c, "hana"), signup(c, "ivo"), signup(c, "jo")
        assert c.put("/api/me/settings", json={"hide_history": True}, headers=as_user(a)).status_code == 200
        rec = play_xiangqi(c, a, b, rated=True, resigner=0)
        table = c.get(f"/api/records/{rec}", headers=as_user(b)).json()["table"]
        for who in (None, x):                       # signed out, a stranger
            h = as_user(who) if who else {}
            assert c.get(f"/api/records/{rec}", headers=h).status_code == 404
            r = c.get(f"/api/tables/{table}", headers=h)
            assert r.status_code == 404 and r.json()["error"] == "no_table", r.text
            with ws(c, who, table) as sock:          # a spectator's socket: refused, nothing told
                msg = json.loads(sock.receive_text())
                assert msg["type"] == "error" and msg["error"] == "no_table", msg
        for who in (a, b):                           # its players still see it
            got = c.get(f"/api/tables/{table}", headers=as_user(who)).json()
            assert got["status"] == "finished" and got["record"] == rec
            with ws(c, who, table) as sock:
                assert json.loads(sock.receive_text())["type"] == "hello"
        c.put("/api/me/settings", json={"hide_history": False}, headers=as_user(a))
        assert c.get(f"/api/tables/{table}").json()["record"] == rec


def test_the_opponent_of_a_hidden_player_shows_others_no_trace_of_that_game(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        a, b, x = signup(c, "dave"), signup(c, "erin"), signup(c, "flo")
        assert c.put("/api/me/settings", json={"hide_history": True}, headers=as_user(a)).status_code == 200
        rec = play_xiangqi(c, a, b, rated=True, resigner=0)
        assert len(c.get(f"/api/records/{rec}", headers=as_user(b)).json()["ratings"]) == 2
        for who in (None, x):                 # signed out, a stranger: erin's lists leave it out
            h = as_user(who) if who else {}
            assert c.get("/api/users/erin/ratings", headers=h).json()["history"] == []
            prof = c.get("/api/users/erin", headers=h).json()
            assert (prof["games"], prof["won"], prof["by_game"]) == (0, 0, {}), prof
            assert c.get("/api/records?user=erin", headers=h).json() == []
        for who in (a, b):                    # its players see it in erin's history
            hist = c.get("/api/users/erin/ratings", headers=as_user(who)).json()["history"]
            assert [p["record"] for p in hist] == [rec]
            assert c.get("/api/users/erin", headers=as_user(who)).json()["won"] == 1
        # the current ratings stay public (the leaderboard's), as the docs say
        assert c.get("/api/users/erin/ratings").json()["ratings"][0]["games"] == 1



def test_a_private_tables_game_stays_unlisted_but_its_link_shows_it(tmp_path):
    """A private table's finished game: its players see it everywhere; the holder of the table's
    link sees the record, its replay and its downloads by naming the table; nobody else finds it
    in any list or count — the recent games, a player's history, profile or rating history."""
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        a, b, x = signup(c, "kai"), signup(c, "lea"), signup(c, "max")
        public = play_xiangqi(c, a, b, rated=True, resigner=1)
        rec = play_xiangqi(c, a, b, rated=True, resigner=0, private=True)
        table = c.get(f"/api/records/{rec}", headers=as_user(a)).json()["table"]
        assert len(table) == 20                                 # the 80-bit link
        by_id = (f"/api/records/{rec}", f"/api/records/{rec}/steps",
                 f"/api/records/{rec}/download?format=json", f"/api/records/{rec}/download?format=native")
        for who in (None, x):                                   # signed out, a stranger
            h = as_user(who) if who else {}
            for url in ("/api/records", "/api/records?game=xiangqi", "/api/records?user=kai",
                        "/api/records?user=lea&game=xiangqi"):
                assert [r["id"] for r in c.get(url, headers=h).json()] == [public], url
            prof = c.get("/api/users/lea", headers=h).json()
            assert (prof["games"], prof["won"], prof["lost"]) == (1, 0, 1), prof
            hist = c.get("/api/users/kai/ratings", headers=h).json()["history"]
            assert [p["record"] for p in hist] == [public]
            for url in by_id:                                   # by its id alone: not found
                r = c.get(url, headers=h)
                assert r.status_code == 404 and r.json()["error"] == "no_record", (url, r.text)
            for url in by_id:                                   # with the table's link: shown
                r = c.get(url + ("&" if "?" in url else "?") + f"table={table}", headers=h)
                assert r.status_code == 200, (url, r.text)
            r = c.get(f"/api/records/{public}?table={table}", headers=h)   # a key opens its own only
            assert r.status_code == 200
            r = c.get(f"/api/records/{rec}?table={table[:8]}", headers=h)
            assert r.status_code == 404
            assert c.get(f"/api/tables/{table}", headers=h).json()["record"] == rec
            assert table not in [t["id"] for t in c.get("/api/tables", headers=h).json()]
        for who in (a, b):                                      # its players see it everywhere
            h = as_user(who)
            assert [r["id"] for r in c.get("/api/records", headers=h).json()] == [rec, public]
            assert [r["id"] for r in c.get("/api/records?user=me", headers=h).json()] == [rec, public]
            assert c.get("/api/users/lea", headers=h).json()["games"] == 2
            assert len(c.get("/api/users/kai/ratings", headers=h).json()["history"]) == 2
            assert all(c.get(url, headers=h).status_code == 200 for url in by_id)


def test_a_bot_api_seek_never_sits_at_a_private_table(tmp_path):
    """A private table is found by its link alone: a Bot API seek for the same game, options
    and clock opens a table of its own instead of being seated at it (which would hand a
    stranger the table's id, the key to its record)."""
    with client(tmp_path) as c:
        a, x = signup(c, "nia"), signup(c, "oto")
        r = c.post("/api/tables", headers=as_user(a), json={
            "game": "gomoku", "settings": {"clock": "none", "private": True}})
        assert r.status_code == 201, r.text
        private = r.json()["id"]
        r = c.post("/api/account/tokens", headers=as_user(x), json={"scopes": ["board:play"]})
        tok = r.json()["token"]
        r = c.post("/api/bot/seek", headers={"Authorization": f"Bearer {tok}"},
                   json={"game": "gomoku", "settings": {"clock": "none"}})
        assert r.status_code == 200, r.text
        assert r.json()["table"] != private and r.json()["created"] is True
