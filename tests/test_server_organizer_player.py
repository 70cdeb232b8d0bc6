"""An organizer who plays in his own event is a player there like the others (competition.md
§5.7, §5.8, §6.5): he sees no held result of another table of his round, his line at his table
is refused while its game is on, the event's chat takes his lines as a player's, the console and
the referee's acts are not his (403 plays_in_own_event, which says why). He still runs the event (rounds,
appointments: the organizer's role), and another organizer or an appointed referee referees
it. Before, an organizer was a referee of every event he played in."""

from __future__ import annotations

import time

from .server_helpers import as_user, client, next_state, post, receive, resign_at, signup, ws


def _record_of(c, event_id: str, table: str, token: str) -> str:
    for _ in range(600):
        ev = c.get(f"/api/events/{event_id}", headers=as_user(token)).json()
        for g in (g for m in ev["rounds"][0]["matches"] for g in m["games"]):
            if g.get("table") == table and g.get("record"):
                return g["record"]
        time.sleep(0.05)
    raise AssertionError(f"table {table} never stored its game")


def test_an_organizer_who_plays_is_a_player_for_holds_chat_and_the_console(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss = signup(c, "boss")                       # the first account: an organizer
        assert c.get("/api/me", headers=as_user(boss)).json()["user"]["role"] == "organizer"
        tok = {n: signup(c, n) for n in ("alice", "bob", "carol", "ref")}
        body = {"preset": "s3_xiangqi", "event_id": "club", "players": ["boss", "alice", "bob", "carol"]}
        assert post(c, boss, "/api/events", body).status_code == 201
        # he runs the event: appoints its referee, starts its round
        assert post(c, boss, "/api/events/club/referees", {"username": "ref"}).status_code == 201
        tables = post(c, boss, "/api/events/club/start").json()["tables"]
        seats = {t: [s["name"] for s in c.get(f"/api/tables/{t}").json()["seats"]] for t in tables}
        own = next(t for t in tables if "boss" in seats[t])
        other = next(t for t in tables if t != own)
        got = c.get("/api/events/club/referees", headers=as_user(boss)).json()
        assert (got["can_referee"], got["can_appoint"]) == (False, True)

        # (b) at his own table during play: chat_closed, as his opponent
        with ws(c, boss, own) as sock:
            next_state(sock)
            sock.send_json({"type": "chat", "text": "play on"})
            m = receive(sock)
            while m["type"] != "error":
                m = receive(sock)
            assert (m["error"], m.get("reason")) == ("chat_closed", "event_play"), m
        line = post(c, boss, "/api/events/club/chat", {"text": "a question"}).json()
        assert (line["role"], line["audience"]) == ("player", "referees")
        assert c.get("/api/events/club/chat", headers=as_user(boss)).json()["referee"] is False

        # (a) the other table's game ends while his own goes on: its record is held from him
        resign_at(c, tok[seats[other][0]], other)
        rid = _record_of(c, "club", other, tok["ref"])
        r = c.get(f"/api/records/{rid}", headers=as_user(boss))
        assert (r.status_code, r.json()["error"]) == (403, "round_in_play"), r.text
        assert c.get(f"/api/records/{rid}", headers=as_user(tok["ref"])).status_code == 200
        games = [g for m in c.get("/api/events/club", headers=as_user(boss)).json()["rounds"][0]["matches"]
                 for g in m["games"] if g.get("table") == other]
        assert games and all(not g.get("record") and not g.get("result") for g in games), games

        # (c) the console (live tables' clocks and turns, the round's results) is not his
        # (told why: he plays in it, not that only organizers and referees may)
        r = c.get("/api/events/club/console", headers=as_user(boss))
        assert (r.status_code, r.json()["error"]) == (403, "plays_in_own_event")
        r = c.get("/api/chat/reports?event=club", headers=as_user(boss))
        assert (r.status_code, r.json()["error"]) == (403, "plays_in_own_event")
        console = c.get("/api/events/club/console", headers=as_user(tok["ref"])).json()
        assert [t["id"] for t in console["tables"] if t["status"] == "playing"] == [own]
        # nor are the referee's acts, at another table either; the appointed referee acts
        r = post(c, boss, "/api/events/club/acts", {"act": "pause", "table": other, "reason": "x"})
        assert (r.status_code, r.json()["error"]) == (403, "plays_in_own_event")
        r = post(c, tok["ref"], "/api/events/club/acts", {"act": "pause", "table": own, "reason": "noise"})
        assert r.status_code == 200, r.text
