"""Games with a bot account are never rated, whatever seated it: an event's seating marks a
bot account entrant's seat, and the rating itself checks the accounts as they are when it is
applied — when the game is stored, or an event's game at its round's end (a player who made
their account a bot account during the game is not rated)."""

from __future__ import annotations

import time

from .rating_helpers import play_table
from .server_helpers import as_user, client, post, signup, ws


def test_games_with_bot_accounts_are_never_rated_whatever_seated_them(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss, kim, lee = signup(c, "boss"), signup(c, "kim"), signup(c, "lee")
        assert post(c, kim, "/api/account/bots", {"username": "kimbot"}).status_code == 201
        # an event's seating marks a bot account entrant: its rated event's table is casual
        body = {"preset": "s3_xiangqi", "event_id": "withbot", "players": ["kim", "kimbot"],
                "form": {"rated": True}}
        assert post(c, boss, "/api/events", body).status_code == 201
        (table,) = post(c, boss, "/api/events/withbot/start").json()["tables"]
        got = c.get(f"/api/tables/{table}").json()
        assert [bool(s.get("bot_account")) for s in got["seats"]].count(True) == 1
        assert got["rated"] is False
        # a player who makes their account a bot account during a rated game is not rated
        body = {**body, "event_id": "turned", "players": ["kim", "lee"]}
        assert post(c, boss, "/api/events", body).status_code == 201
        (table,) = post(c, boss, "/api/events/turned/start").json()["tables"]
        assert c.get(f"/api/tables/{table}").json()["rated"] is True
        assert post(c, lee, "/api/account/bot").status_code == 200
        rec = play_table(table, kim, lee, 4, 0, lambda tok, t: ws(c, tok, t))
        # an event's game rates at the end of its round (here the event's end): not then either
        for _ in range(600):
            if c.get("/api/events/turned").json()["status"] == "finished":
                break
            time.sleep(0.05)
        assert c.get(f"/api/records/{rec}", headers=as_user(kim)).json()["ratings"] == []
        assert c.get("/api/users/kim/ratings").json()["ratings"] == []

