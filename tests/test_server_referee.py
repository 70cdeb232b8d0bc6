"""Referees on the server (competition.md §5.7): appointments, who may act, and each act over a
real app — recorded with who and why in the event's log and in the game's record."""

from __future__ import annotations

import time

from .server_helpers import as_user, client, post, receive, signup, ws


def wait(pred, what, tries=400):
    for _ in range(tries):
        got = pred()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def act(c, token, event, **body):
    return post(c, token, f"/api/events/{event}/acts", body)


def setup(c, tmp):
    boss = signup(c, "boss")                          # the first account is an organizer
    users = {n: signup(c, n) for n in ("alice", "bob", "carol", "dave", "ref", "ref2")}
    body = {"preset": "s3_xiangqi", "name": "Club", "event_id": "club",
            "players": ["alice", "bob", "carol", "dave"]}
    assert post(c, boss, "/api/events", body).status_code == 201
    other = {"preset": "s3_xiangqi", "event_id": "other",
             "players": [{"id": "x1", "bot": "random"}, {"id": "x2", "bot": "random"}]}
    assert post(c, boss, "/api/events", other).status_code == 201
    return boss, users


def refs(c):
    return c.app.state.referees


def test_appointing_referees_and_who_may_act(tmp_path):
    """Issue 13 too: an entrant (or a pair's member) is not appointed referee of its event, nor
    does a referee of an event join it (§6.3, §6.5: a referee sees the round's tables and
    results): 409 plays_in_event / referees_event, in the reader's words."""
    from qipai import i18n

    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss, u = setup(c, tmp_path)
        r = post(c, boss, "/api/events/club/referees", {"username": "Alice"})
        assert (r.status_code, r.json()["code"], r.json()["params"]) == (409, "plays_in_event",
                                                                          {"username": "alice"})
        zh = i18n.t("error.plays_in_event", r.json()["params"], lang="zh")
        assert zh == "赛事的选手不能担任它的裁判：alice 是本赛事的选手"        # the name as written
        pairs = {"preset": "s0_shengji", "event_id": "duo", "players": [
            {"id": "north", "members": ["alice", "bob"]}, {"id": "south", "members": ["carol", "dave"]}]}
        assert post(c, boss, "/api/events", pairs).status_code == 201
        r = post(c, boss, "/api/events/duo/referees", {"username": "dave"})
        assert r.json()["code"] == "plays_in_event"
        # a pair's member finds its event on the profile too (it listed none)
        assert sorted(e["id"] for e in c.get("/api/users/dave/events").json()) == ["club", "duo"]
        assert c.get("/api/events/club/referees").json()["referees"] == []
        post(c, boss, "/api/events", {"preset": "s3_xiangqi", "event_id": "open", "players": [],
                                      "registration": True})
        code = c.get("/api/events/open/entries", headers=as_user(boss)).json()["code"]
        assert post(c, boss, "/api/events/open/referees", {"username": "ref"}).status_code == 201
        r = post(c, u["ref"], "/api/events/open/join", {"code": code})
        assert (r.status_code, r.json()["code"]) == (409, "referees_event")
        assert post(c, u["alice"], "/api/events/open/join", {"code": code}).status_code == 200
        r = post(c, boss, "/api/events/open/referees", {"username": "alice"})
        assert r.json()["code"] == "plays_in_event"
        r = post(c, u["alice"], "/api/events/club/referees", {"username": "ref"})
        assert r.status_code == 403 and r.json()["code"] == "not_organizer"
        r = post(c, boss, "/api/events/club/referees", {"username": "ghost"})
        assert r.status_code == 400 and r.json()["code"] == "no_user"
        r = post(c, boss, "/api/events/club/referees", {"username": "REF"})
        assert r.status_code == 201 and r.json()["referees"] == ["ref"]
        r = post(c, boss, "/api/events/club/referees", {"username": "ref"})
        assert r.status_code == 409 and r.json()["code"] == "already_referee"
        assert post(c, boss, "/api/events/other/referees", {"username": "ref2"}).status_code == 201
        assert post(c, boss, "/api/events/nope/referees", {"username": "ref"}).json()["code"] == "no_event"
        got = c.get("/api/events/club/referees", headers={"Cookie": f"qipai_session={u['ref']}"}).json()
        assert got == {"referees": ["ref"], "can_referee": True, "can_appoint": False}
        got = c.get("/api/events/club/referees", headers={"Cookie": f"qipai_session={u['ref2']}"}).json()
        assert got["can_referee"] is False
        started = post(c, boss, "/api/events/club/start").json()["tables"]
        # a player, another event's referee, nobody signed in: refused, nothing logged
        for who, status, code in ((u["alice"], 403, "not_referee"), (u["ref2"], 403, "not_referee"),
                                  (None, 401, "not_signed_in")):
            r = act(c, who, "club", act="pause", table=started[0], reason="noise")
            assert (r.status_code, r.json()["code"]) == (status, code)
            r = c.get("/api/events/club/console",
                      headers={"Cookie": f"qipai_session={who}"} if who else {})
            assert r.status_code == status
        log = c.get("/api/events/club/log").json()
        assert [(e["act"], e["by"], e["entrant"]) for e in log] == [("appoint", "boss", "ref")]
        # the organizer acts without an appointment; the appointed referee too
        assert act(c, boss, "club", act="pause", table=started[0], reason="light").status_code == 200
        r = act(c, u["ref"], "club", act="resume", table=started[0], reason="light fixed")
        assert r.status_code == 200
        # a dismissed referee may no longer act
        r = c.delete("/api/events/club/referees/ref", headers={"Cookie": f"qipai_session={boss}"})
        assert r.json()["referees"] == []
        assert act(c, u["ref"], "club", act="pause", table=started[0], reason="x").status_code == 403
        con = c.get("/api/events/club/console", headers={"Cookie": f"qipai_session={boss}"}).json()
        assert [(e["act"], e["by"]) for e in con["log"]] == [
            ("appoint", "boss"), ("pause", "boss"), ("resume", "ref"), ("dismiss", "boss")]


def test_pause_add_time_adjudicate_void_warning_dispute_ruling_disqualify(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss, u = setup(c, tmp_path)
        post(c, boss, "/api/events/club/referees", {"username": "ref"})
        ref = u["ref"]
        tables = post(c, boss, "/api/events/club/start").json()["tables"]
        hub = refs(c).hub
        t1, t2 = (hub.tables[t] for t in tables)
        wait(lambda: t1.runner and t2.runner and t1.runner.clocks[0].running, "the games to start")
        # bad acts: refused with their codes, nothing done
        assert act(c, ref, "club", act="nap", reason="x").json()["code"] == "bad_act"
        assert act(c, ref, "club", act="pause", table=t1.id).json()["code"] == "reason_required"
        assert act(c, ref, "club", act="pause", table="zzz", reason="x").json()["code"] == "no_table"
        assert act(c, ref, "club", act="add_time", table=t1.id, seat=5, ms=1000,
                   reason="x").json()["code"] == "bad_seat"
        assert act(c, ref, "club", act="add_time", table=t1.id, seat=0, ms=0,
                   reason="x").json()["code"] == "bad_time"
        # pause: the deadline of the seat on turn moves by exactly the pause's length
        dl = t1.runner.clocks[0].deadline()
        assert act(c, ref, "club", act="pause", table=t1.id, reason="noise").status_code == 200
        wait(lambda: t1.runner.paused_at is not None, "the pause")
        assert act(c, ref, "club", act="pause", table=t1.id, reason="x").json()["code"] == "already_paused"
        con = c.get("/api/events/club/console", headers={"Cookie": f"qipai_session={ref}"}).json()
        assert [x["paused"] for x in con["tables"] if x["id"] == t1.id] == [True]
        time.sleep(0.3)
        # added time: seat 1 waits (bank 30 min), seat 0 thinks; both banks get exactly 60 s more
        assert act(c, ref, "club", act="add_time", table=t1.id, seat=1, ms=60_000,
                   reason="late start").status_code == 200
        wait(lambda: t1.runner.clocks[1].bank_left == 30 * 60_000 + 60_000, "the added time")
        assert act(c, ref, "club", act="resume", table=t1.id, reason="quiet again").status_code == 200
        wait(lambda: t1.runner.paused_at is None, "the resume")
        resumed = [e for e in t1.runner.events if e["type"] == "resume"][-1]
        assert resumed["by"] == "ref" and resumed["paused"] >= 300
        assert t1.runner.clocks[0].deadline() == dl + resumed["paused"]
        assert act(c, ref, "club", act="resume", table=t1.id, reason="x").json()["code"] == "not_paused"
        # the whole round: every live table pauses, then resumes
        r = act(c, ref, "club", act="pause", reason="fire drill").json()
        assert sorted(r["tables"]) == sorted(tables)
        wait(lambda: t1.runner.paused_at is not None and t2.runner.paused_at is not None, "round pause")
        assert sorted(act(c, ref, "club", act="resume", reason="back").json()["tables"]) == sorted(tables)
        wait(lambda: t1.runner.paused_at is None and t2.runner.paused_at is None, "round resume")
        # a warning, announced at the table (to the seat's socket too)
        alice_table = next(t for t in (t1, t2) if any(s["name"] == "alice" for s in t.seats))
        seat = next(i for i, s in enumerate(alice_table.seats) if s["name"] == "alice")
        with ws(c, u["alice"], alice_table.id) as sock:
            sock.receive_json()
            assert act(c, ref, "club", act="warning", entrant="alice", reason="talking").status_code == 200
            while True:
                m = sock.receive_json()
                if m["type"] == "event" and m["event"]["type"] == "warning":
                    break
            assert (m["event"]["seat"], m["event"]["by"], m["event"]["reason"]) == (seat, "ref", "talking")
        # a dispute by a seated player; someone else is refused; the ruling is logged once
        other = next(s["name"] for t in (t1, t2) for s in t.seats if t is not alice_table)
        r = post(c, u[other], "/api/events/club/disputes", {"table": alice_table.id, "text": "x"})
        assert r.status_code == 403 and r.json()["code"] == "not_seated"
        r = post(c, u["alice"], "/api/events/club/disputes", {"table": alice_table.id, "text": "clock ran"})
        assert r.status_code == 201
        dispute = r.json()["id"]
        assert act(c, ref, "club", act="ruling", dispute=dispute, decision="maybe",
                   reason="x").json()["code"] == "bad_decision"
        assert act(c, ref, "club", act="ruling", dispute=dispute, decision="rejected",
                   reason="the clock was right").status_code == 200
        assert act(c, ref, "club", act="ruling", dispute=dispute, decision="upheld",
                   reason="x").json()["code"] == "dispute_ruled"
        # adjudicate the other table (a bad result is refused), the record says who and why
        adj = t2 if alice_table is t1 else t1
        assert act(c, ref, "club", act="adjudicate", table=adj.id, result="9-9",
                   reason="x").json()["code"] == "bad_result"
        assert act(c, ref, "club", act="adjudicate", table=adj.id, result="count",
                   reason="x").json()["code"] == "cannot_count"
        assert act(c, ref, "club", act="adjudicate", table=adj.id, result="1-0",
                   reason="flag fell on the wall clock").status_code == 200
        # (the round is still on: its records are the referees' and the players' alone, §6.5)
        rec = wait(lambda: adj.record_id and c.get(f"/api/records/{adj.record_id}",
                                                   headers=as_user(ref)).json(), "the record")
        assert rec["result"]["text"] == "1-0"
        ev = next(e for e in rec["record"]["meta"]["events"] if e["type"] == "adjudication")
        assert ev["by"] == "ref" and ev["why"] == "flag fell on the wall clock"
        # void alice's game: it is seated again at a new table, dealt with the next attempt
        gid = alice_table.event_game
        r = act(c, ref, "club", act="void", table=alice_table.id, reason="wrong colours").json()
        assert r["act"] == "void" and r["replay"] and r["replay"] != alice_table.id
        new = hub.tables[r["replay"]]
        assert new.event_game == gid and new.settings["replay_of"][0]["reason"] == "wrong colours"
        assert new.settings["event_rng"]["deals"][0]["attempt"] == 1
        assert c.get(f"/api/tables/{alice_table.id}").json()["status"] == "void"
        # disqualify alice: her game in play is lost, her match forfeited, standings put her last
        assert act(c, ref, "club", act="disqualify", entrant="zed", reason="x").json()["code"] == "no_entrant"
        wait(lambda: new.runner and new.runner.clocks[new.runner.state.to_act[0]].running, "the replay")
        assert act(c, ref, "club", act="disqualify", entrant="alice", reason="phone").status_code == 200
        wait(lambda: new.runner.state.is_terminal(), "the disqualified game to end")
        assert new.runner.state.result.reason == "disqualification"
        assert act(c, ref, "club", act="disqualify", entrant="alice",
                   reason="x").json()["code"] == "already_disqualified"
        ev = wait(lambda: (lambda e: e["current_round"] == 2 and e)(c.get("/api/events/club").json()),
                  "round 2")
        assert ev["standings"][-1]["id"] == "alice" and ev["standings"][-1]["disqualified"] is True
        assert [e["status"] for e in ev["entrants"] if e["id"] == "alice"] == ["disqualified"]
        log = c.get("/api/events/club/log").json()
        acts = [e["act"] for e in log]
        for a in ("pause", "resume", "add_time", "warning", "dispute", "ruling", "adjudicate", "void",
                  "disqualify"):
            assert a in acts, a
        assert all(e["by"] for e in log) and all(e["reason"] for e in log if e["act"] != "appoint")
        # the adjudication's log entry names its winner, so the console says "… won", not "1-0"
        judged = next(e for e in log if e["act"] == "adjudicate")
        assert judged["data"]["result"] == "1-0"
        assert judged["data"]["winners"] == [adj.seats[0]["name"]]


def test_results_of_paper_tables_and_penalties(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss, u = setup(c, tmp_path)
        post(c, boss, "/api/events/club/referees", {"username": "ref"})
        ev = c.get("/api/events/club").json()       # round 1 not started: played on paper
        gid = ev["rounds"][0]["matches"][0]["games"][0]["id"]
        assert act(c, u["ref2"], "club", act="enter_result", game=gid, result="1-0",
                   reason="x").status_code == 403
        assert act(c, u["ref"], "club", act="enter_result", game=10**6, result="1-0",
                   reason="sheet").json()["code"] == "no_game"
        assert act(c, u["ref"], "club", act="enter_result", game=gid, result="banana",
                   reason="sheet").json()["code"] == "bad_result"
        r = act(c, u["ref"], "club", act="enter_result", game=gid, result="1-0", moves=40,
                duration="25m", reason="score sheet signed by both")
        assert r.status_code == 200, r.text
        assert act(c, u["ref"], "club", act="enter_result", game=gid, result="1-0",
                   reason="again").json()["code"] == "game_finished"
        # the referee reads it (anyone outside the game: held while the round is on)
        g = c.get("/api/events/club", headers=as_user(u["ref"])).json()["rounds"][0]["matches"][0]["games"][0]
        assert (g["status"], g["source"], g["result"]) == ("finished", "entered", "1-0")
        # s3 xiangqi has no penalty ledger: refused, naming the kind
        r = act(c, u["ref"], "club", act="penalty", entrant="bob", kind="deal_fault", reason="x")
        assert r.status_code == 400 and r.json()["code"] == "bad_penalty" and r.json()["kind"] == "deal_fault"
        # a game at a live table is adjudicated there, not entered
        tables = post(c, boss, "/api/events/club/start").json()["tables"]
        live = refs(c).hub.tables[tables[0]].event_game
        assert act(c, u["ref"], "club", act="enter_result", game=live, result="1-0",
                   reason="x").json()["code"] == "game_at_table"


def test_go_forced_count_from_the_console(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss = signup(c, "boss")
        a, b = signup(c, "alice"), signup(c, "bob")
        body = {"preset": "s2_go", "event_id": "go", "players": ["alice", "bob"]}
        assert post(c, boss, "/api/events", body).status_code == 201
        t = refs(c).hub.tables[post(c, boss, "/api/events/go/start").json()["tables"][0]]
        wait(lambda: t.runner is not None, "the game")
        r = act(c, boss, "go", act="adjudicate", table=t.id, result="count", reason="over-long game")
        assert r.status_code == 200
        wait(lambda: t.runner.state.is_terminal(), "the count")
        assert t.runner.state.result.reason == "arbiter"
        assert a and b


def test_a_deal_forfeited_at_a_live_card_table_stops_there_and_the_next_deal_is_seated(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=60_000) as c:     # bots wait: no deal ends
        boss = signup(c, "boss")
        alice = signup(c, "alice")
        players = ["alice", {"id": "b1", "bot": "random"}, {"id": "b2", "bot": "random"}]
        assert post(c, boss, "/api/events", {"preset": "s4_wakeng", "event_id": "wk",
                                              "players": players}).status_code == 201
        table = post(c, boss, "/api/events/wk/start").json()["tables"][0]
        t = refs(c).hub.tables[table]
        wait(lambda: t.runner is not None, "the deal")
        r = act(c, boss, "wk", act="penalty", entrant="alice", kind="deal_forfeit", reason="showed her cards")
        assert r.status_code == 200, r.text
        assert r.json()["effect"].endswith("lost by seat " + str(t.seats.index(
            next(s for s in t.seats if s["name"] == "alice"))))
        assert c.get(f"/api/tables/{table}").json()["status"] == "forfeited"
        ev = wait(lambda: (lambda e: len(e["rounds"][0]["matches"][0]["games"]) == 2 and e)(
            c.get("/api/events/wk").json()), "the next deal")
        first, second = ev["rounds"][0]["matches"][0]["games"]
        assert first["status"] == "finished" and second["table"] and second["table"] != table
        log = c.get("/api/events/wk/log").json()
        assert [e["data"]["kind"] for e in log if e["act"] == "penalty"] == ["deal_forfeit"]
        with ws(c, alice, table) as sock:
            m = sock.receive_json()
            assert m["table"]["status"] == "forfeited"


def test_an_appointed_referee_speaks_as_a_referee_in_the_events_chat(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss, u = setup(c, tmp_path)
        post(c, boss, "/api/events/club/referees", {"username": "ref"})
        line = post(c, u["ref"], "/api/events/club/chat", {"text": "round 1 starts at 7"}).json()
        assert (line["role"], line["audience"]) == ("referee", "all")
        mine = post(c, u["alice"], "/api/events/club/chat", {"text": "is the bar open?"}).json()
        assert mine["audience"] == "referees"
        seen = c.get("/api/events/club/chat", headers={"Cookie": f"qipai_session={u['ref']}"}).json()
        assert seen["referee"] is True and [x["text"] for x in seen["lines"]] == [
            "round 1 starts at 7", "is the bar open?"]
        # another event's referee is no referee here
        other = c.get("/api/events/club/chat", headers={"Cookie": f"qipai_session={u['ref2']}"}).json()
        assert other["referee"] is False and [x["text"] for x in other["lines"]] == ["round 1 starts at 7"]


def test_a_round_paused_while_its_tables_deal_starts_paused(tmp_path):
    # a table in its nonce window has no game yet: a round pause then must hold it from the
    # deal on, over a restart too (it was answered no_live_tables, and the clocks started at the deal)
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0, nonce_window_ms=60_000) as c:
        boss, u = setup(c, tmp_path)
        tid = post(c, boss, "/api/events/club/start").json()["tables"][0]
        t = refs(c).hub.tables[tid]
        assert t.nonce_open()
        assert sorted(act(c, boss, "club", act="pause", reason="fire drill").json()["tables"]) == \
            sorted(x.id for x in refs(c).live_tables("club"))
        assert act(c, boss, "club", act="pause", table=tid, reason="x").json()["code"] == "already_paused"
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0, nonce_window_ms=60_000) as c:
        t = refs(c).hub.tables[tid]                 # restarted: dealing again, the pause held
        assert t.nonce_open()
        con = c.get("/api/events/club/console", headers=as_user(boss)).json()
        assert [x["paused"] for x in con["tables"] if x["id"] == tid] == [True]
        for seat in t.seats:                  # both nonces in: the table deals at once
            with ws(c, u[seat["name"]], tid) as sock:
                sock.send_json({"type": "nonce", "nonce": "ab" * 16})
                wait(lambda: receive(sock)["type"] == "nonce", "the nonce taken")
        wait(lambda: t.runner is not None and t.runner.paused_at is not None, "the held pause")
        assert t.runner.paused_at < 1000          # from the deal on: no clock ran
        assert act(c, boss, "club", act="resume", table=tid, reason="back").status_code == 200
        wait(lambda: t.runner.paused_at is None, "the resume")


def test_a_player_cannot_flood_the_table_with_disputes(tmp_path):
    # every dispute is announced at the table and kept in the game's log: it had no limit but
    # the address's 50 requests a second
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss, u = setup(c, tmp_path)
        tid = post(c, boss, "/api/events/club/start").json()["tables"][0]
        t = refs(c).hub.tables[tid]
        wait(lambda: t.runner and t.runner.clocks[0].running, "the game to start")
        player = u[t.seats[0]["name"]]
        said = [post(c, player, "/api/events/club/disputes", {"table": tid, "text": f"claim {i}"})
                for i in range(4)]
        assert [r.status_code for r in said] == [201, 201, 201, 429]
        assert said[-1].json()["code"] == "rate_limited" and said[-1].json()["retry_after"] > 0
        log = c.get("/api/events/club/log").json()
        assert [e["reason"] for e in log if e["act"] == "dispute"] == ["claim 0", "claim 1", "claim 2"]


def test_an_organizer_who_plays_in_the_event_does_not_referee_it(tmp_path):
    """Issue 13: an organizer (a referee of every event by his role) who plays in an event acted
    on no game of his own but refereed the others' tables while his round was on. He is a player
    of that event like the others (competition.md §6.5; :func:`qipai.server.appointments.referees`):
    every act, his own table's or another's, is refused 403 plays_in_own_event (told why),
    nothing done; another
    organizer acts on his table."""
    from qipai.server.accountcli import set_role

    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss, u = setup(c, tmp_path)
        set_role(refs(c).db, "alice", "organizer")
        tables = post(c, boss, "/api/events/club/start").json()["tables"]
        hub = refs(c).hub
        live = [hub.tables[t] for t in tables]
        wait(lambda: all(t.runner for t in live), "the games to start")
        own = next(t for t in live if any(s and s["name"] == "alice" for s in t.seats))
        other = next(t for t in live if t is not own)
        rival = next(s["name"] for s in own.seats if s and s["name"] != "alice")
        stranger = next(s["name"] for s in other.seats if s)
        refused = [dict(act="pause", table=own.id), dict(act="add_time", table=own.id, seat=0, ms=1000),
                   dict(act="adjudicate", table=own.id, result="1-0"), dict(act="void", table=own.id),
                   dict(act="warning", entrant=rival), dict(act="disqualify", entrant=rival),
                   dict(act="penalty", entrant="alice", kind="warning"),
                   dict(act="confirm", game=own.event_game), dict(act="correct", game=own.event_game,
                                                                   result="1-0"),
                   dict(act="pause", table=other.id), dict(act="warning", entrant=stranger)]
        for body in refused:
            r = act(c, u["alice"], "club", reason="mine", **body)
            assert (r.status_code, r.json()["code"]) == (403, "plays_in_own_event"), (body, r.json())
        assert own.runner.paused_at is None and not own.runner.state.is_terminal()
        assert other.runner.paused_at is None
        assert act(c, boss, "club", act="pause", table=own.id, reason="noise").status_code == 200
        log = c.get("/api/events/club/log").json()
        assert [(e["act"], e["by"]) for e in log] == [("pause", "boss")]


def test_a_profile_lists_the_place_its_player_took_in_a_finished_event(tmp_path):
    """A player's events on the profile say the place taken once the event is over ("2nd of 2"),
    not only that it finished."""
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss = signup(c, "boss")
        for n in ("kim", "lee"):
            signup(c, n)
        body = {"preset": "s3_xiangqi", "event_id": "duel", "players": ["kim", "lee"]}
        assert post(c, boss, "/api/events", body).status_code == 201
        assert c.get("/api/users/kim/events").json()[0]["status"] == "running"
        (g,) = [g for m in c.get("/api/events/duel").json()["rounds"][0]["matches"] for g in m["games"]]
        assert act(c, boss, "duel", act="enter_result", game=g["id"], result="1-0", moves=40,
                   reason="score sheet").status_code == 200
        champion = wait(lambda: (c.get("/api/events/duel").json().get("outcome") or {}).get("champion"),
                        "the event's end")
        for who in ("kim", "lee"):
            (got,) = c.get(f"/api/users/{who}/events").json()
            place = 1 if who == champion else 2
            assert (got["status"], got["place"], got["of"]) == ("finished", place, 2), got


def test_an_event_game_stopped_by_a_refused_row_is_left_to_a_referee_who_voids_it(tmp_path):
    """The database refuses a row of an event game's action log (a real IntegrityError: its
    index is taken): the game stops without a result (``aborted``, storage_refused) and keeps
    its event game, which no fault decides; the event waits for a referee, whose ``void`` seats
    the game again at a new table (it asked for a live table, and so reached none)."""
    from sqlalchemy import insert

    from qipai.server.models import ActionRow

    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss, u = setup(c, tmp_path)
        post(c, boss, "/api/events/club/referees", {"username": "ref"})
        tables = post(c, boss, "/api/events/club/start").json()["tables"]
        hub = refs(c).hub
        t = hub.tables[tables[0]]
        wait(lambda: t.runner and t.runner.clocks[0].running and t.gate.durable == t.gate.logged,
             "the game to start, saved")
        gid = t.event_game
        with hub.store.db.begin() as s:                  # another writer took the next index
            s.execute(insert(ActionRow).values(table_id=t.id, idx=t.next_idx, kind="note", seat=None,
                                               action="x", t=0, data=None, epoch=t.gate.epoch))
        act(c, u["ref"], "club", act="pause", table=t.id, reason="noise")     # its row is refused
        wait(lambda: t.id not in hub.tables, "the table to stop")
        assert wait(lambda: c.get(f"/api/tables/{t.id}").json()["status"] == "aborted", "aborted")
        assert not [x for x in hub.tables.values() if x.event_game == gid]     # not seated again
        r = act(c, u["ref"], "club", act="void", table=t.id, reason="the server lost a move")
        assert r.status_code == 200, r.text
        new = hub.tables[r.json()["replay"]]
        assert new.event_game == gid and new.settings["replay_of"][0]["reason"] == "the server lost a move"
        assert c.get(f"/api/tables/{t.id}").json()["status"] == "void"


def test_every_whole_number_of_an_act_is_bounded(tmp_path):
    """The console's act body bounds each of its whole numbers: a value no act could take
    (``2**70``, past what the database holds; a negative one) is refused 400 ``bad_request``
    naming its field, whatever the act; nothing is recorded. Values in range still get the
    act's own refusal (a seat the table has not: ``bad_seat``; no time: ``bad_time``)."""
    big = 2**70
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss, u = setup(c, tmp_path)
        post(c, boss, "/api/events/club/referees", {"username": "ref"})
        ref = u["ref"]
        gid = c.get("/api/events/club").json()["rounds"][0]["matches"][0]["games"][0]["id"]
        cases = [
            ("seat", {"act": "add_time", "table": "t", "ms": 1000}, [big, -1, 100]),
            ("ms", {"act": "add_time", "table": "t", "seat": 0}, [big, -1, 3_600_001]),
            ("seat", {"act": "warning", "table": "t"}, [big, -big]),
            ("seat", {"act": "disqualify", "entrant": "bob"}, [big]),
            ("game", {"act": "enter_result", "result": "1-0"}, [big, 0, -1]),
            ("moves", {"act": "enter_result", "game": gid, "result": "1-0"}, [big, -1, 1_000_001]),
            ("duration", {"act": "enter_result", "game": gid, "result": "1-0"}, [big, -1, "9" * 41]),
            ("game", {"act": "confirm"}, [big]),
            ("moves", {"act": "correct", "game": gid, "result": "1-0"}, [big]),
            ("dispute", {"act": "ruling", "decision": "upheld"}, [big, 0]),
            ("game", {"act": "void", "table": "t"}, [big]),
            ("moves", {"act": "adjudicate", "table": "t", "result": "1-0"}, [big]),
        ]
        for field, body, values in cases:
            for value in values:
                r = act(c, ref, "club", reason="x", **body, **{field: value})
                got = r.json()
                assert (r.status_code, got["error"]) == (400, "bad_request"), (field, value, r.text)
                assert {p["where"].split(".")[1] for p in got["problems"]} == {field}, got
        log = c.get("/api/events/club/log").json()
        assert [e for e in log if e["act"] in ("disqualify", "enter_result", "warning")] == []
        # in range: the act's own refusals, as before
        tables = post(c, boss, "/api/events/club/start").json()["tables"]
        t1 = refs(c).hub.tables[tables[0]]
        wait(lambda: t1.runner and t1.runner.clocks[0].running, "the game to start")
        assert act(c, ref, "club", act="add_time", table=t1.id, seat=99, ms=1000,
                   reason="x").json()["code"] == "bad_seat"
        assert act(c, ref, "club", act="add_time", table=t1.id, seat=0, ms=0,
                   reason="x").json()["code"] == "bad_time"
        assert act(c, ref, "club", act="enter_result", game=2**63 - 1, result="1-0",
                   reason="x").json()["code"] == "no_game"
