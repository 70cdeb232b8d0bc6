"""Events on the server: an organizer creates one from a preset, starts rounds; games are played
at live tables (people over WebSockets, bots by the server) and the standings follow."""

from __future__ import annotations

import time

from .server_helpers import as_user, client, next_state, post, signup, ws


def test_organizer_runs_a_round_robin_with_live_tables(tmp_path, db_url):
    """On SQLite and on PostgreSQL."""
    with client(tmp_path, database_url=db_url, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss = signup(c, "boss")                  # the first account is an organizer
        alice = signup(c, "alice")
        presets = {p["name"]: p for p in c.get("/api/presets").json()}
        assert presets["s3_xiangqi"]["game"] == "xiangqi"
        # an account is found as sign-in finds it: "Alice" registers the account alice
        players = ["Alice", {"id": "b1", "bot": "random"}, {"id": "b2", "bot": "random"},
                   {"id": "b3", "bot": "greedy"}]
        body = {"preset": "s3_xiangqi", "name": "Club night", "event_id": "club1", "players": players}
        # refused: a player, an unknown account, an unknown preset, a malformed body
        r = post(c, alice, "/api/events", body)
        assert r.status_code == 403 and r.json()["error"] == "not_organizer"
        r = post(c, boss, "/api/events", {**body, "players": ["ghost", *players[1:]]})
        assert r.status_code == 400 and r.json()["error"] == "no_user"
        r = post(c, boss, "/api/events", {**body, "preset": "s9_nothing"})
        assert r.status_code == 400 and r.json()["error"] == "bad_event"
        assert post(c, boss, "/api/events", {"preset": 3}).json()["error"] == "bad_request"
        ev = post(c, boss, "/api/events", body).json()
        assert ev["id"] == "club1" and ev["stage"] == "round_robin" and ev["current_round"] == 1
        assert len(ev["rounds"][0]["matches"]) == 2 and ev["standings"][0]["points"] == 0
        assert [e["id"] for e in c.get("/api/events").json()] == ["club1"]
        assert post(c, alice, "/api/events/club1/start").json()["error"] == "not_organizer"

        for rnd in (1, 2):
            started = post(c, boss, "/api/events/club1/start").json()
            assert len(started["tables"]) == 2
            mine = [t for t in started["tables"]
                    if any(s and s.get("name") == "alice" for s in c.get(f"/api/tables/{t}").json()["seats"])]
            assert len(mine) == 1
            with ws(c, alice, mine[0]) as sock:
                m = next_state(sock)
                assert m["seat"] is not None
                sock.send_json({"type": "resign"})
                while not m.get("record"):
                    m = next_state(sock)
            for _ in range(1200):                 # the bot game finishes by itself
                ev = c.get("/api/events/club1").json()
                games = [g for m in ev["rounds"][rnd - 1]["matches"] for g in m["games"]]
                # a game's record is stored with its table, then the event settles it
                if ev["current_round"] == rnd + 1 and all(g["record"] and g["status"] == "finished"
                                                          for g in games):
                    break
                time.sleep(0.05)
            assert ev["current_round"] == rnd + 1, ev
            games = [g for m in ev["rounds"][rnd - 1]["matches"] for g in m["games"]]
            assert all(g["status"] == "finished" and g["record"] for g in games), games
        table = {row["id"]: row for row in ev["standings"]}
        assert table["alice"]["points"] == -2, ev["standings"]   # s3 scoring: a loss is -1
        hist = c.get("/api/records?user=alice").json()
        assert len(hist) == 2 and all(h["result"]["reason"] == "resign" for h in hist)
        # her seat in each game, so her history says she lost; her profile counts the same
        assert all(h["names"][h["seat"]] == "alice" and h["seat"] not in h["result"]["winners"]
                   for h in hist)
        profile = c.get("/api/users/ALICE").json()
        assert profile["username"] == "alice" and (profile["games"], profile["lost"]) == (2, 2)
        assert profile["won"] == profile["drawn"] == 0 and profile["by_game"]["xiangqi"]["lost"] == 2
        assert c.get("/api/users/nobody").json()["error"] == "no_user"
        assert c.get("/u/alice").status_code == 200


def test_event_writes_refused_while_storage_fails_and_nothing_half_done(tmp_path):
    """The event's database work (in its worker process) meets the same storage faults as the
    tables: 503 storage_unavailable, rolled back, and the same request works once storage does."""
    fault = tmp_path / "qipai.db.fault"
    with client(tmp_path, storage_faults=True, storage_wait=0.5, bot_delay_ms=0) as c:
        boss = signup(c, "boss")
        players = [{"id": f"b{i}", "bot": "random"} for i in range(4)]
        body = {"preset": "s3_gomoku", "event_id": "cup", "players": players}
        fault.write_text("full")
        r = post(c, boss, "/api/events", body)
        assert r.status_code == 503 and r.json()["error"] == "storage_unavailable", r.text
        assert c.get("/api/events/cup").json()["error"] == "no_event"       # nothing half made
        fault.unlink()
        assert post(c, boss, "/api/events", body).status_code == 201
        fault.write_text("locked")
        r = post(c, boss, "/api/events/cup/start")
        assert r.status_code == 503 and r.json()["error"] == "storage_unavailable", r.text
        ev = c.get("/api/events/cup").json()
        assert ev["started_round"] == 0 and not any(g["table"] for m in ev["rounds"][0]["matches"]
                                                    for g in m["games"])
        fault.unlink()
        started = post(c, boss, "/api/events/cup/start").json()
        assert len(started["tables"]) == 2 and started["event"]["started_round"] == 1


def test_an_event_run_from_the_command_line_shows_results_winners_byes_and_replays(tmp_path):
    """``qipai event run`` plays an event without tables: the event page's data still carries
    each game's result, its winners, each match's winner and score, the byes, and a replay of
    every game from the record the event stored."""
    from qipai.competition.event import create_event, run_event

    with client(tmp_path, bot_delay_ms=0) as c:
        db = c.app.state.db
        players = [{"id": f"bot{i:02}", "bot": "random"} for i in range(1, 7)]
        eid = create_event(db, "s0_xiangqi", players, event_id="cli-cup")
        assert run_event(db, eid, think_ms=0)["status"] == "finished"
        ev = c.get(f"/api/events/{eid}").json()
        assert ev["status"] == "finished" and ev["champion"] == ev["outcome"]["champion"]
        matches = [m for r in ev["rounds"] for m in r["matches"]]
        byes = [m for m in matches if m["kind"] == "bye"]
        assert byes and all(m["winner"] == m["entrants"][0] and not m["games"] for m in byes)
        series = [m for m in matches if m["kind"] == "series"]
        final = ev["rounds"][-1]["matches"][0]
        assert final["winner"] == ev["champion"]
        for m in series:
            assert m["winner"] in m["entrants"] and len(m["result"]["points"]) == 2
            for g in m["games"]:
                assert g["status"] == "finished" and g["replay"] and g["record"] is None
                assert g["result"] in ("1-0", "0-1", "1/2-1/2")
                assert g["winners"] == ([] if g["result"] == "1/2-1/2"
                                        else [g["seats"][0 if g["result"] == "1-0" else 1]])
        g = series[0]["games"][0]
        got = c.get(f"/api/events/{eid}/games/{g['id']}/steps").json()
        assert got["record"]["names"] == g["seats"] and got["record"]["game"] == "xiangqi"
        assert got["record"]["result"]["text"] == g["result"]
        assert len(got["steps"]) > 1 and got["steps"][1]["action"]
        assert c.get(f"/api/events/{eid}/games/99999/steps").json()["error"] == "no_record"
        assert c.get(f"/api/events/nope/games/{g['id']}/steps").json()["error"] == "no_record"
        assert c.get(f"/events/{eid}/games/{g['id']}").status_code == 200      # the replay page


def test_an_events_records_verify_once_it_ends(tmp_path):
    """§6.1 on the server: an event game's record carries the derivation of its deal; the event's
    secret is in every record once the event ends, and each deal verifies from it."""
    from qipai.competition.verify import load_record, verify_record

    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss = signup(c, "boss")
        players = [{"id": f"b{i}", "bot": "random"} for i in range(3)]
        body = {"preset": "s2_doudizhu", "name": "Cards", "event_id": "cards", "players": players}
        assert post(c, boss, "/api/events", body).status_code == 201
        assert post(c, boss, "/api/events/cards/start").status_code == 200
        for _ in range(1800):
            ev = c.get("/api/events/cards").json()
            if ev["status"] == "finished":
                break
            time.sleep(0.05)
        assert ev["status"] == "finished" and ev["secret"], ev["status"]
        ids = [g["record"] for r in ev["rounds"] for m in r["matches"] for g in m["games"]]
        assert len(ids) >= 5 and all(ids)           # five deals, more when the totals tie
        for rid in ids:
            rec = load_record(c.get(f"/api/records/{rid}").content)
            assert rec.meta["rng"]["secret"] == ev["secret"] and rec.meta["rng"]["event"] == "cards"
            checks = verify_record(rec)
            assert checks and all(x.ok for x in checks), [x.message for x in checks]


def test_a_meet_ranks_units_and_events_export_as_csv(tmp_path):
    """Unit standings across a meet's events (S2: placement points 5/3/1 summed per unit) and an
    event's pairings, results and standings as CSV, over the server's API."""
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss = signup(c, "boss")
        units_of = {"cards": ["Red", "Blue", "Green"], "go": ["Blue", "Green"]}
        for eid, preset in (("cards", "s2_doudizhu"), ("go", "s2_go")):
            units = units_of[eid]
            players = [{"id": f"{eid}{i}", "bot": "random", "unit": u} for i, u in enumerate(units)]
            body = {"preset": preset, "name": eid, "event_id": eid, "players": players, "meet": "Spring"}
            r = post(c, boss, "/api/events", body)
            assert r.status_code == 201, r.text
            assert r.json()["meet"] == "Spring"
            assert post(c, boss, f"/api/events/{eid}/start").status_code == 200
        for _ in range(1800):
            if all(c.get(f"/api/events/{e}").json()["status"] == "finished" for e in ("cards", "go")):
                break
            time.sleep(0.05)
        units = c.get("/api/meets/Spring").json()
        assert [e["id"] for e in units["events"]] == ["cards", "go"]
        total = {u["unit"]: u["points"] for u in units["units"]}
        expected: dict[str, float] = {}
        for e in ("cards", "go"):               # each entrant's placement points, to its unit
            ev = c.get(f"/api/events/{e}").json()
            pts = ev["outcome"]["placement_points"]
            assert sorted(pts.values())[-1] == 5 and 3 in pts.values()
            for i, x in enumerate(units_of[e]):
                expected[x] = expected.get(x, 0) + pts[f"{e}{i}"]
        assert total == expected and set(total) == {"Red", "Blue", "Green"}
        assert units["units"][0]["points"] == max(total.values())
        csv = c.get("/api/meets/Spring/units.csv")
        assert csv.headers["content-type"].startswith("text/csv")
        assert csv.text.startswith("\ufeffrank,unit,points")
        # every export starts with the UTF-8 byte order mark (Excel reads Chinese names right)
        for what, head in (("pairings", "round,match,kind"), ("results", "game,round,match"),
                           ("standings", "place,player,unit")):
            r = c.get(f"/api/events/cards/export/{what}.csv")
            assert r.status_code == 200 and r.content.startswith(b"\xef\xbb\xbf" + head.encode()), r.text
        assert c.get("/api/events/cards/export/nothing.csv").json()["error"] == "no_export"
        assert c.get("/api/meets/Autumn").json()["error"] == "no_meet"
        bad = post(c, boss, "/api/events", {"preset": "s2_go", "players": ["boss"],
                                             "fields": {"game.ko_rule": "bogus"}})
        assert bad.status_code == 400 and "ko_rule" in bad.json()["message"]


def test_players_register_themselves_check_in_and_the_organizer_closes_entries(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss = signup(c, "boss")
        people = {n: signup(c, n) for n in ("alice", "bob", "carol")}
        mallory = signup(c, "mallory")
        body = {"preset": "s3_xiangqi", "name": "Open", "event_id": "open", "players": [],
                "registration": True, "check_in": True}
        ev = post(c, boss, "/api/events", body).json()
        assert ev["status"] == "registration" and ev["commitment"] and ev["rounds"] == []
        code = ev["code"]
        assert "code" not in c.get("/api/events/open").json()         # the public page has no code
        wrong = post(c, people["alice"], "/api/events/open/join", {"code": "nope"})
        assert wrong.json()["error"] == "bad_join"
        assert post(c, None, "/api/events/open/join", {"code": code}).status_code == 401
        # guessing the code: 20 tries per account, then 429 whatever the code (no oracle)
        tries = [post(c, mallory, "/api/events/open/join", {"code": f"{n:08x}"}) for n in range(21)]
        assert [r.json()["error"] for r in tries] == ["bad_join"] * 20 + ["rate_limited"]
        late = post(c, mallory, "/api/events/open/join", {"code": code})
        assert late.status_code == 429 and int(late.headers["Retry-After"]) >= 1
        for n, tok in people.items():
            r = post(c, tok, "/api/events/open/join", {"code": code, "nonce": "abc" if n == "bob" else None})
            assert r.status_code == 200, r.text
        assert post(c, boss, "/api/events/open/start").json()["error"] == "entries_open"
        assert post(c, people["alice"], "/api/events/open/close").json()["error"] == "not_organizer"
        for n in ("alice", "bob"):
            assert post(c, people[n], "/api/events/open/checkin").status_code == 200
        listed = {e["id"]: e["status"] for e in c.get("/api/events/open/entries",
                                                      headers=as_user(boss)).json()["entrants"]}
        assert listed == {"alice": "checked_in", "bob": "checked_in", "carol": "registered"}
        closed = post(c, boss, "/api/events/open/close").json()
        assert closed["status"] == "running" and closed["no_shows"] == ["carol"]
        assert c.get("/api/events/open").json()["no_shows"] == ["carol"]     # kept on the event's page
        assert sorted(e["id"] for e in closed["entrants"]) == ["alice", "bob"]
        assert post(c, people["carol"], "/api/events/open/join", {"code": code}).json()["error"] == \
            "entries_closed"
        started = post(c, boss, "/api/events/open/start").json()
        assert len(started["tables"]) == 1


def test_names_of_spaces_alone_are_no_names():
    """Event, meet and unit names lose the spaces around them: a name of spaces alone takes
    the default (not an event listed with a blank name), and "Beijing " is the unit "Beijing"
    (not a second unit of the same look in the unit standings)."""
    from qipai.server.events import Join, NewEvent
    from qipai.server.tokens import NewToken

    ev = NewEvent(preset="s2_xiangqi", players=["a", "b"], name="   ", meet=" Spring meet ")
    assert not ev.name and ev.meet == "Spring meet"
    assert Join(code="x", unit=" Beijing ").unit == "Beijing"
    assert NewToken(scopes=[], description="  my bot  ").description == "my bot"


def test_the_event_worker_starts_with_the_server_when_asked(tmp_path, monkeypatch):
    """``Settings.event_worker_at_start``: the events' worker process is started with the
    server (by default: an organizer's first event made waited 5-8 s for it on a loaded
    machine, "Creating the event…"), and the first event is made by that process; with
    $QIPAI_EVENT_WORKER_AT_START=0 (the tests' servers) it starts at the first change."""
    from qipai.server import Settings

    (tmp_path / "later").mkdir()
    with client(tmp_path / "later") as c:
        assert c.app.state.events._pool is None
    monkeypatch.delenv("QIPAI_EVENT_WORKER_AT_START")
    assert Settings().event_worker_at_start is True          # qipai serve's default
    monkeypatch.setenv("QIPAI_EVENT_WORKER_AT_START", "0")
    assert Settings().event_worker_at_start is False
    with client(tmp_path, event_worker_at_start=True) as c:
        pool = c.app.state.events._pool
        assert pool is not None and len(pool._processes) == 1
        (worker,) = pool._processes.values()
        boss = signup(c, "boss")
        body = {"preset": "s3_xiangqi", "event_id": "club", "players": [
            {"id": f"b{i}", "bot": "random"} for i in range(4)]}
        assert post(c, boss, "/api/events", body).json()["id"] == "club"
        assert c.app.state.events._pool is pool and list(pool._processes.values()) == [worker]
        assert worker.is_alive()
