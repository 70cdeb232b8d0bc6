"""Confirming and correcting results over the API (competition.md §5.7): the players of a game
confirm its result, a referee confirms at once or corrects it with a written reason; the event's
page and log show who and why, and the standings follow."""

from __future__ import annotations

from .server_helpers import as_user, client, post, signup


def act(c, token, event, **body):
    return post(c, token, f"/api/events/{event}/acts", body)


def test_players_confirm_and_a_referee_corrects(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss = signup(c, "boss")
        players = ["alice", "bob", "carol", "dave"]
        u = {n: signup(c, n) for n in [*players, "ref"]}
        body = {"preset": "s3_xiangqi", "event_id": "club", "players": players}
        assert post(c, boss, "/api/events", body).status_code == 201
        assert post(c, boss, "/api/events/club/referees", {"username": "ref"}).status_code == 201
        first, second = c.get("/api/events/club").json()["rounds"][0]["matches"]
        gid, seats = first["games"][0]["id"], first["games"][0]["seats"]
        other = second["games"][0]["id"]
        r = act(c, u["ref"], "club", act="enter_result", game=gid, result="1-0", moves=40, reason="sheet")
        assert r.status_code == 200, r.text

        # the players of the game confirm it; anyone else is refused
        outsider = next(p for p in players if p not in seats)
        r = post(c, u[outsider], "/api/events/club/confirmations", {"game": gid})
        assert r.status_code == 409 and r.json()["code"] == "event_refused"
        r = post(c, u[seats[0]], "/api/events/club/confirmations", {"game": gid})
        assert r.json() == {"game": gid, "confirmed": False, "confirmed_by": [seats[0]],
                            "waiting": [seats[1]]}
        assert post(c, u[seats[1]], "/api/events/club/confirmations", {"game": gid}).json()["confirmed"]
        assert post(c, u[seats[1]], "/api/events/club/confirmations",
                    {"game": 10**6}).json()["code"] == "no_game"
        # an outsider is not shown the result while the round is on (conduct.RoundHold)
        game = lambda who: c.get("/api/events/club", headers=as_user(u[who])).json()[  # noqa: E731
            "rounds"][0]["matches"][0]["games"][0]
        g = game(outsider)
        assert g["result"] is None and g["confirmed_by"] == []
        g = game("ref")
        assert g["confirmed"] is True and g["confirmed_by"] == seats and g["corrections"] == []
        # a referee confirms a game with no result yet: refused
        r = act(c, u["ref"], "club", act="confirm", game=other, reason="seen")
        assert r.status_code == 409 and "has no result yet" in r.json()["message"]
        assert r.json()["params"] == {"why": "event.no_result_yet", "game": other}

        # only a referee corrects, and only with a reason
        r = act(c, u[seats[1]], "club", act="correct", game=gid, result="0-1", reason="I won")
        assert r.status_code == 403 and r.json()["code"] == "not_referee"
        assert act(c, u["ref"], "club", act="correct", game=gid, result="0-1",
                   reason=" ").json()["code"] == "reason_required"
        r = act(c, u["ref"], "club", act="correct", game=gid, result="0-1",
                reason="the sheet was filled in the wrong way round")
        assert r.status_code == 200, r.text
        assert (r.json()["from"], r.json()["to"]) == ("1-0", "0-1")
        ev = c.get("/api/events/club", headers=as_user(u["ref"])).json()
        g = ev["rounds"][0]["matches"][0]["games"][0]
        assert g["result"] == "0-1" and g["corrections"][0]["by"] == "ref"
        assert g["corrections"][0]["reason"] == "the sheet was filled in the wrong way round"
        points = {row["id"]: row["points"] for row in ev["standings"]}
        assert points[seats[1]] == 1 and points[seats[0]] == -1
        log = c.get("/api/events/club/log").json()
        assert [(e["act"], e["by"]) for e in log][-4:] == [
            ("enter_result", "ref"), ("confirm", seats[0]), ("confirm", seats[1]), ("correct", "ref")]
        assert log[-1]["data"]["from"] == "1-0" and log[-1]["game"] == gid
