"""Seeking, challenging and presence through the server: two people seeking the same game meet
at a new table, a lone seeker plays a bot instead, a direct challenge is accepted or declined
and its answer reaches the challenger, and the lobby's presence counts who is online and
playing."""

from __future__ import annotations

from qipai.server.challenges import ANSWER_KEEP, CHALLENGE_TTL

from .server_helpers import as_user, client, post, signup


def test_two_seekers_meet_at_a_rated_table_and_a_lone_one_plays_a_bot(tmp_path):
    with client(tmp_path, bot_delay_ms=0) as c:
        a, b, x = signup(c, "ada"), signup(c, "bea"), signup(c, "cal")
        r = post(c, a, "/api/seeks", {"game": "xiangqi"})
        assert r.status_code == 201 and r.json()["status"] == "waiting" and r.json()["range"] == 100
        sid = r.json()["id"]
        listed = c.get("/api/seeks").json()
        assert [(s["username"], s["rating"], s["rated"], s["clock"]) for s in listed] == \
            [("ada", 1500, True, "board_default")]
        # a new player's rating is provisional: the lobby shows "1500?" and says why
        standing = [(s["provisional"], s["rating_games"], s["provisional_games"]) for s in listed]
        assert standing == [(True, 0, 5)]
        r = post(c, b, "/api/seeks", {"game": "xiangqi"})
        assert r.json()["status"] == "paired" and r.json()["partners"] == ["ada"]
        table = r.json()["table"]
        mine = c.get(f"/api/seeks/{sid}", headers=as_user(a)).json()
        assert mine["status"] == "paired" and mine["table"] == table
        t = c.get(f"/api/tables/{table}").json()
        assert t["status"] == "playing" and t["rated"] is True
        assert sorted(s["name"] for s in t["seats"]) == ["ada", "bea"]
        presence = c.get("/api/presence", headers=as_user(x)).json()
        assert presence["online"] == 3 and presence["playing"] == 2
        assert presence["players"][-1] == {"username": "cal", "playing": None}
        assert {p["playing"] for p in presence["players"][:2]} == {table}

        r = post(c, x, "/api/seeks", {"game": "gomoku", "rated": False})
        lone = r.json()["id"]
        assert r.json()["range"] is None
        r = post(c, x, f"/api/seeks/{lone}/bot")
        assert r.status_code == 200
        t = c.get(f"/api/tables/{r.json()['table']}").json()
        assert t["rated"] is False and any(s.get("bot") for s in t["seats"])
        assert c.get("/api/seeks").json() == []
        assert c.get(f"/api/seeks/{lone}", headers=as_user(a)).json()["error"] == "no_seek"
        assert c.delete(f"/api/seeks/{lone}", headers=as_user(x)).json()["error"] == "no_seek"
        assert post(c, x, "/api/seeks", {"game": "nosuchgame"}).json()["error"] == "bad_options"
        r = post(c, x, "/api/seeks", {"game": "xiangqi", "clock": "sundial"})
        assert r.json()["error"] == "bad_clock"
        assert post(c, None, "/api/seeks", {"game": "xiangqi"}).status_code == 401


def test_a_challenge_is_accepted_or_declined_and_the_challenger_hears(tmp_path):
    with client(tmp_path, bot_delay_ms=0) as c:
        a, b = signup(c, "dan"), signup(c, "eve")
        r = post(c, a, "/api/challenge/eve", {"game": "xiangqi", "settings": {"rated": True}})
        assert r.status_code == 201, r.text
        cid = r.json()["id"]
        to_eve = c.get("/api/challenges", headers=as_user(b)).json()
        assert [(x["id"], x["from"], x["game"]) for x in to_eve["to_me"]] == [(cid, "dan", "xiangqi")]
        assert c.get("/api/challenges", headers=as_user(a)).json()["from_me"][0]["id"] == cid
        r = post(c, b, f"/api/challenge/{cid}/accept")
        table = r.json()["table"]
        (answer,) = c.get("/api/challenges", headers=as_user(a)).json()["answered"]
        assert answer["status"] == "accepted" and answer["table"] == table
        assert c.get(f"/api/tables/{table}").json()["rated"] is True

        cid = post(c, a, "/api/challenge/eve", {"game": "go"}).json()["id"]
        assert post(c, b, f"/api/challenge/{cid}/decline").json() == {"ok": True}
        got = {x["id"]: x["status"] for x in c.get("/api/challenges", headers=as_user(a)).json()["answered"]}
        assert got[cid] == "declined"
        # a challenge left unanswered expires: its challenger sees it so ("expired", not "created")
        cid = post(c, a, "/api/challenge/eve", {"game": "go"}).json()["id"]
        c.app.state.challenges.by_id[cid]["at"] -= CHALLENGE_TTL + 1
        got = {x["id"]: x for x in c.get("/api/challenges", headers=as_user(a)).json()["answered"]}
        assert (got[cid]["status"], got[cid]["reason"]) == ("expired", "expired")
        # an answer is kept for its challenger a while, then forgotten
        for kept in c.app.state.challenges.answers.values():
            kept["at"] -= ANSWER_KEEP + 1
        assert c.get("/api/challenges", headers=as_user(a)).json()["answered"] == []
        assert post(c, a, f"/api/challenge/{cid}/accept").json()["error"] == "no_challenge"
        assert post(c, a, "/api/challenge/nobody", {"game": "go"}).json()["error"] == "no_user"
        assert post(c, a, "/api/challenge/dan", {"game": "go"}).json()["error"] == "bad_challenge"


def test_accepting_a_challenge_of_a_busy_challenger_names_the_challenger_and_keeps_it(tmp_path):
    with client(tmp_path, max_open_tables=2) as c:
        amy, ben = signup(c, "amy"), signup(c, "ben")
        cid = post(c, amy, "/api/challenge/ben", {"game": "xiangqi"}).json()["id"]
        for _ in range(2):                                   # amy fills her quota
            assert post(c, amy, "/api/tables", {"game": "xiangqi"}).status_code == 201
        r = post(c, ben, f"/api/challenge/{cid}/accept")
        assert r.status_code == 409 and r.json()["error"] == "challenger_busy", r.text
        assert r.json()["params"] == {"username": "amy", "open": 2, "max": 2}
        pending = c.get("/api/challenges", headers=as_user(ben)).json()["to_me"]
        assert [p["id"] for p in pending] == [cid]           # nothing lost: it may be accepted later
