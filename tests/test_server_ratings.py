"""Ratings through the server: a rated game updates both players once (also when the server is
killed with SIGKILL as the game ends), casual games and games too short are not rated, the
leaderboard, and the privacy of a hidden history."""

from __future__ import annotations

import time

from sqlalchemy import select

from qipai.server.models import RatingChangeRow

from .rating_helpers import play_table, play_xiangqi
from .server_helpers import as_user, client, post, signup, ws


def test_a_rated_game_rates_both_players_once_and_casual_or_short_games_do_not(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        a, b = signup(c, "amy"), signup(c, "ben")
        rec = play_xiangqi(c, a, b, rated=True, resigner=1)
        got = c.get(f"/api/records/{rec}").json()["ratings"]
        assert len(got) == 2
        amy = c.get("/api/users/amy/ratings").json()
        (r,) = amy["ratings"]
        assert (r["game"], r["time_class"], r["system"], r["games"], r["provisional"]) == \
            ("xiangqi", "slow", "glicko2", 1, True)
        assert r["rating"] > 1500 > c.get("/api/users/ben/ratings").json()["ratings"][0]["rating"]
        assert [h["record"] for h in amy["history"]] == [rec]
        assert amy["history"][0]["before"] == 1500 and amy["history"][0]["after"] == r["rating"]
        casual = play_xiangqi(c, a, b, rated=False)
        short = play_xiangqi(c, a, b, rated=True, moves=2)
        assert c.get(f"/api/records/{casual}").json()["ratings"] == []
        assert c.get(f"/api/records/{short}").json()["ratings"] == []
        with c.app.state.db() as s:
            assert len(s.scalars(select(RatingChangeRow)).all()) == 2
        # a bot at a rated table: the table says casual, and the game is not rated
        r = post(c, a, "/api/tables", {"game": "xiangqi", "bots": 1, "settings": {"rated": True}})
        assert r.status_code == 201 and r.json()["rated"] is False
        r = post(c, a, "/api/tables", {"game": "xiangqi", "settings": {"rated": "yes"}})
        assert r.status_code == 400 and r.json()["error"] == "bad_settings"


def test_leaderboard_lists_established_players_best_first(tmp_path):
    from qipai.server.models import RatingRow

    with client(tmp_path) as c:
        names = ["ann", "bo", "cy", "di"]
        for n in names:
            signup(c, n)
        with c.app.state.db.begin() as s:
            ids = {n: i for n, i in zip(names, range(1, 5))}
            for n, rating, dev, games in (("ann", 1700, 60, 30), ("bo", 1900, 80, 12),
                                          ("cy", 2100, 200, 30), ("di", 1650, 70, 3)):
                s.add(RatingRow(user_id=ids[n], game="go", time_class="blitz", system="glicko2",
                                rating=rating, deviation=dev, volatility=0.06, games=games))
        board = c.get("/api/leaderboard?game=go&time_class=blitz").json()
        top = [(p["rank"], p["username"], p["rating"]) for p in board["players"]]
        assert top == [(1, "bo", 1900), (2, "ann", 1700)]
        boards = c.get("/api/leaderboard").json()["boards"]
        assert boards == [{"game": "go", "time_class": "blitz", "players": 4}]
        r = c.get("/api/leaderboard?game=go&time_class=hyper")
        assert r.status_code == 400 and r.json()["error"] == "bad_time_class"


def test_a_hidden_history_shows_others_only_the_ratings(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        a, b, x = signup(c, "hana"), signup(c, "ivo"), signup(c, "jo")
        rec = play_xiangqi(c, a, b, rated=True)
        r = c.put("/api/me/settings", json={"hide_history": True}, headers=as_user(a))
        assert r.status_code == 200 and r.json() == {"hide_history": True}
        assert c.get("/api/me/settings", headers=as_user(a)).json() == {"hide_history": True}
        assert c.put("/api/me/settings", json={"hide_history": True}).status_code == 401
        for who in (None, x, b):            # signed out, a stranger, the opponent
            h = as_user(who) if who else {}
            prof = c.get("/api/users/hana", headers=h).json()
            assert prof == {"username": "hana", "created": prof["created"], "role": prof["role"],
                            "hidden": True}
            rat = c.get("/api/users/hana/ratings", headers=h).json()
            assert rat["history"] is None and rat["ratings"][0]["games"] == 1
            assert c.get("/api/records?user=hana", headers=h).json()["error"] == "history_hidden"
            assert c.get("/api/users/hana/events", headers=h).status_code == 403
            listed = [row["id"] for row in c.get("/api/records", headers=h).json()]
            assert (rec in listed) == (who == b)          # the opponent still sees their own game
            assert c.get(f"/api/records/{rec}", headers=h).status_code == (200 if who == b else 404)
            assert c.get(f"/api/records/{rec}/steps", headers=h).status_code == (200 if who == b else 404)
        ivo = [row["id"] for row in c.get("/api/records?user=ivo", headers=as_user(x)).json()]
        assert rec not in ivo                # not through the opponent's history either
        mine = c.get("/api/users/hana", headers=as_user(a)).json()
        assert mine["hidden"] is True and mine["games"] == 1
        assert c.get("/api/records?user=me", headers=as_user(a)).json()[0]["id"] == rec
        assert c.get("/api/users/hana/ratings", headers=as_user(a)).json()["history"][0]["record"] == rec
        c.put("/api/me/settings", json={"hide_history": False}, headers=as_user(a))
        assert c.get(f"/api/records/{rec}").status_code == 200
        assert c.get("/api/users/hana").json()["games"] == 1


def test_event_games_are_rated_when_the_organizer_says_so(tmp_path):
    """An event's rated games rate their players when their round is over (issue 13): before,
    a rating, its history, graph or leaderboard place told the result of a game that the round
    holds from its players and the public (competition.md §6.5)."""
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss = signup(c, "boss")
        tok = {n: signup(c, n) for n in ("kim", "lee", "max", "ned")}
        body = {"preset": "s3_xiangqi", "event_id": "rated1", "players": list(tok),
                "form": {"rated": True}}                 # the organizer's form has the switch
        form = post(c, boss, "/api/events/form", {"preset": "s3_xiangqi"}).json()["fields"]
        assert next(f for f in form if f["path"] == "rated")["value"] is False
        assert post(c, boss, "/api/events", body).status_code == 201
        casual = {"preset": "s3_xiangqi", "event_id": "casual1", "players": ["kim", "lee"]}
        assert post(c, boss, "/api/events", casual).status_code == 201
        r = post(c, boss, "/api/events", {**casual, "event_id": "bad", "fields": {"rated": "yes"}})
        assert r.status_code == 400 and "rated must be true or false" in r.json()["message"]

        def play(table):
            names = [s["name"] for s in c.get(f"/api/tables/{table}").json()["seats"]]
            return names, play_table(table, tok[names[0]], tok[names[1]], 4, 0, lambda t, x: ws(c, t, x))
        first, second = post(c, boss, "/api/events/rated1/start").json()["tables"]
        assert c.get(f"/api/tables/{first}").json()["rated"] is True
        names, rec = play(first)
        # round 1 is still on at the other table: nobody's rating has changed, not even for the
        # game's own players, and no history or leaderboard tells its result
        for who in (*names, None):
            head = as_user(tok[who]) if who else {}
            for name in names:
                got = c.get(f"/api/users/{name}/ratings", headers=head).json()
                assert (got["ratings"], got["history"]) == ([], []), (who, name)
            if who:
                assert c.get(f"/api/records/{rec}", headers=head).json()["ratings"] == []
        c.app.state.hub.finished.pop(first, None)          # read from the database, as after a restart
        assert "rating_plan" not in c.get(f"/api/tables/{first}").json()["settings"]
        played = play(second)[1]
        # the round is over: both games rate their players, in the order they ended
        for _ in range(600):
            if c.get(f"/api/records/{played}").status_code == 200 and \
                    len(c.get(f"/api/records/{played}").json()["ratings"]) == 2:
                break
            time.sleep(0.05)
        assert len(c.get(f"/api/records/{rec}").json()["ratings"]) == 2
        # the table kept in memory tells them too, not the empty list it finished with
        assert second in c.app.state.hub.finished
        for _ in range(600):
            if len(c.get(f"/api/tables/{second}").json()["rating_changes"]) == 2:
                break
            time.sleep(0.05)
        assert len(c.get(f"/api/tables/{second}").json()["rating_changes"]) == 2
        hist = c.get(f"/api/users/{names[0]}/ratings").json()
        assert [h["record"] for h in hist["history"]] == [rec] and hist["ratings"][0]["games"] == 1
        (table,) = post(c, boss, "/api/events/casual1/start").json()["tables"]
        assert c.get(f"/api/tables/{table}").json()["rated"] is False
        rec = play_table(table, tok["kim"], tok["lee"], 4, 0, lambda t, x: ws(c, t, x))
        assert c.get(f"/api/records/{rec}", headers=as_user(tok["kim"])).json()["ratings"] == []
        assert c.get("/api/users/kim/ratings").json()["ratings"][0]["games"] == 1


def test_a_finished_table_loaded_from_the_database_answers_its_rating_changes(tmp_path):
    """A finished table is loaded from the database by any worker and after a restart
    (Hub.load_finished); it answers the same rating changes as while it was live."""
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        a, b = signup(c, "amy"), signup(c, "ben")
        rec = play_xiangqi(c, a, b, rated=True, resigner=1)
        table = c.get(f"/api/records/{rec}").json()["table"]
        live = c.get(f"/api/tables/{table}").json()
        assert len(live["rating_changes"]) == 2 and live["record"] == rec
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:     # restarted
        loaded = c.get(f"/api/tables/{table}").json()
        assert loaded["status"] == "finished" and loaded["record"] == rec
        assert loaded["rating_changes"] == live["rating_changes"]
        assert c.get(f"/api/records/{rec}").json()["ratings"] == live["rating_changes"]
