"""When an event's game starts (competition.md §5.6 ready and no_show_grace, §4.3 between_games):
no clock runs before the person is at the table, and the next game of a match after a pause."""

from __future__ import annotations

import asyncio
import time

from qipai.server import eventstart

from .server_helpers import client, next_state, post, signup, ws


def _event(c, boss: str, event_id: str) -> str:
    """A two-game gomoku knockout (s0_gomoku: one match) of alice and a bot; round 1 started:
    the table of its first game."""
    players = ["alice", {"id": "b1", "bot": "random"}]
    post(c, boss, "/api/events", {"preset": "s0_gomoku", "event_id": event_id, "players": players})
    return post(c, boss, f"/api/events/{event_id}/start").json()["tables"][0]


def _get(c, path: str):
    """GET ``path``'s JSON; a storage busy for a moment (503, the event worker writing) is asked
    again, anything else but 200 fails with the server's answer."""
    end = time.monotonic() + 30
    while True:
        r = c.get(path)
        if r.status_code != 503 or time.monotonic() > end:
            assert r.status_code == 200, (path, r.status_code, r.text)
            return r.json()
        time.sleep(0.1)


def _wait(pred, what: str, seconds: float = 30):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        out = pred()
        if out:
            return out
        time.sleep(0.025)
    raise AssertionError(what)


def test_the_first_game_waits_for_the_person_and_the_second_after_the_pause(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0, event_ready_grace_ms=600_000,
                event_between_games_ms=6000) as c:
        boss, alice = signup(c, "boss"), signup(c, "alice")
        t1 = _event(c, boss, "ev")
        table = _get(c, f"/api/tables/{t1}")
        # not started: no clock runs while alice is in the lobby; her pages are told it waits
        assert table["status"] == "open" and table["hold"]["kind"] == "ready", table
        # the event reads as waiting for its players, not in play: its round begun, no game started
        ev = _get(c, "/api/events/ev")
        assert ev["begun"] is True and ev["playing"] is False, ev
        assert [g["seating"] for g in ev["rounds"][0]["matches"][0]["games"] if g["table"]] == [True]
        mine = c.get("/api/me/event-games", headers={"Cookie": f"qipai_session={alice}"}).json()
        assert c.get("/api/me/event-games").json() == []
        with ws(c, alice, t1) as sock:      # at the table: ready, and the game starts
            m = next_state(sock)
            while m.get("type") != "state" or m.get("status") != "playing":
                m = next_state(sock)
            sock.send_json({"type": "resign"})
            while not m.get("record"):
                m = next_state(sock)
        # game 2: seated at once, waiting for the pause between games, then it starts by itself
        ev = _wait(lambda: (e := _get(c, "/api/events/ev")) and
                   any(g["table"] and g["table"] != t1 for m in e["rounds"][0]["matches"]
                       for g in m["games"]) and e, "game 2 was not seated")
        t2 = next(g["table"] for m in ev["rounds"][0]["matches"] for g in m["games"] if g["number"] == 2)
        # the event's page may name the table a moment before the server has made it live
        held = _wait(lambda: (r := c.get(f"/api/tables/{t2}")).status_code == 200 and r.json(),
                     "game 2's table is not live")
        assert held["status"] == "open" and held["hold"]["kind"] == "between", held
        # game 1 played: the round is in play (game 2 waits at its table for the pause)
        assert _get(c, "/api/events/ev")["playing"] is True
        assert 0 < held["hold"]["in_ms"] <= 6000
        _wait(lambda: _get(c, f"/api/tables/{t2}")["status"] != "open", "game 2 did not start")
    assert mine and mine[0]["table"] == t1 and not mine[0]["started"] and mine[0]["hold"]["kind"] == "ready"


class _Table:
    """What eventstart reads of a live table."""

    def __init__(self, settings, seats):
        self.id, self.settings, self.seats, self.status, self.runner = "t", settings, seats, "open", None
        self.ready_seats, self.hold_timer, self.started = set(), None, asyncio.Event()
        self.hub = type("Hub", (), {"tables": {"t": self}})()

    def start(self):
        self.runner = object()
        self.started.set()

    def changed(self):
        pass

    def save_row(self):
        pass


def test_the_first_game_starts_when_the_grace_runs_out_and_bots_are_always_ready():
    seats = [{"user": 1, "name": "alice"}, {"bot": "random", "name": "b1"},
             {"user": 2, "name": "bob", "bot_account": True}]
    first = eventstart.hold_settings(True, True, 150, 60_000)
    assert set(first) == {"ready_by"}
    assert eventstart.hold_settings(False, True, 150, 60_000).keys() == {"start_at"}
    assert eventstart.hold_settings(True, False, 150, 60_000) == {}      # bots only: at once

    async def run():
        t = _Table(first, seats)
        # a person and a bot account (a bot program may be absent too, §6.6) say ready
        assert eventstart.people(t) == [0, 2] and eventstart.hold(t)["kind"] == "ready"
        eventstart.begin(t)
        assert not t.started.is_set()
        await asyncio.wait_for(t.started.wait(), 5)     # nobody came: the grace ran out
        t2 = _Table(eventstart.hold_settings(True, True, 600_000, 0), seats)
        eventstart.begin(t2)
        eventstart.seat_ready(t2, 0)                     # the person arrives
        assert not t2.started.is_set()
        eventstart.seat_ready(t2, 2)                     # and the bot program: at once
        assert t2.started.is_set() and t2.hold_timer is None
        # with an event service (on_no_show): the grace's end hands it the absent seats (§5.6)
        t3 = _Table(eventstart.hold_settings(True, True, 150, 0), seats)
        called = asyncio.Event()
        t3.hub.on_no_show = [lambda table, away: (called.set(), table.settings.setdefault("away", away))]
        eventstart.begin(t3)
        await asyncio.wait_for(called.wait(), 5)
        assert t3.settings["away"] == [0, 2] and not t3.started.is_set()
        eventstart.seat_ready(t3, 0)                     # too late: the no-show is being declared
        assert not t3.started.is_set()

    asyncio.run(run())


def test_a_round_with_a_person_on_a_bots_clock_is_refused(tmp_path):
    """The clock ``bot_default_board`` (2 s a move, lost on time) is for bots' events: a round
    with a person seated does not start; bots alone may."""
    with client(tmp_path, bot_delay_ms=0) as c:
        boss = signup(c, "boss")
        signup(c, "alice")
        clock = {"match.series.clock": "bot_default_board"}
        for eid, first in (("people", "alice"), ("bots", {"id": "b0", "bot": "random"})):
            made = post(c, boss, "/api/events", {"preset": "s3_xiangqi", "event_id": eid, "fields": clock,
                                                 "players": [first, {"id": "b1", "bot": "random"}]})
            assert made.status_code == 201, made.text
        r = post(c, boss, "/api/events/people/start")
        assert r.status_code == 409 and r.json()["error"] == "bot_clock" and "alice" in r.json()["message"]
        assert _get(c, "/api/events/people")["started_round"] == 0
        assert post(c, boss, "/api/events/bots/start").status_code == 200


def _grace_ends(c, table_id: str) -> None:
    """``no_show_grace`` runs out at the live table now (the tests' grace is long, so that who
    comes is there before it ends however slow the machine; the timer itself:
    test_the_first_game_starts_when_the_grace_runs_out_and_bots_are_always_ready)."""
    t = c.app.state.hub.tables[table_id]

    def now():
        t.settings["ready_by"] = time.time()
        eventstart.begin(t)
    c.portal.call(now)


def _log(c, boss: str, event_id: str) -> list[dict]:
    return c.get(f"/api/events/{event_id}/log", headers={"Cookie": f"qipai_session={boss}"}).json()


def test_the_grace_running_out_is_a_walkover_and_both_absent_nobody_advances(tmp_path):
    """§5.6: alice comes, bob does not: when no_show_grace runs out alice wins by walkover,
    each game a forfeit, recorded as ``qipai event noshow`` records it (the event's log, by the
    server); carol and dave both stay away: neither advances. The table closes unplayed."""
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0, event_ready_grace_ms=600_000,
                event_between_games_ms=0) as c:
        boss, alice = signup(c, "boss"), signup(c, "alice")
        for name in ("bob", "carol", "dave"):
            signup(c, name)
        for eid, players in (("one", ["alice", "bob"]), ("none", ["carol", "dave"])):
            post(c, boss, "/api/events", {"preset": "s0_gomoku", "event_id": eid, "players": players})
        t1 = post(c, boss, "/api/events/one/start").json()["tables"][0]
        t2 = post(c, boss, "/api/events/none/start").json()["tables"][0]
        with ws(c, alice, t1) as sock:       # alice at the table; the game waits for bob
            m = sock.receive_json()
            assert _get(c, f"/api/tables/{t1}")["hold"]["ready"]      # alice is
            _grace_ends(c, t1)
            _grace_ends(c, t2)
            while not (m.get("type") in ("hello", "table") and m["table"]["status"] == "walkover"):
                assert m.get("type") != "state" or m.get("status") != "playing", "the game started"
                m = sock.receive_json()
        one = _wait(lambda: (e := _get(c, "/api/events/one"))["status"] == "finished" and e,
                    "no walkover")
        match = one["rounds"][0]["matches"][0]
        assert match["winner"] == "alice" and match["result"]["decided_by"] == "walkover", match
        assert match["absent"] == ["bob"]
        assert match["games"] and all(g["source"] == "forfeit" and g["reason"] == "no_show"
                                      for g in match["games"])
        assert next(e for e in one["entrants"] if e["id"] == "bob")["no_shows"] == 1
        assert one["champion"] == "alice"
        acts = [x for x in _log(c, boss, "one") if x["act"] == "no_show"]
        assert len(acts) == 1 and acts[0]["by"] == "server" and acts[0]["table"] == t1, acts
        assert acts[0]["data"]["absent"] == ["bob"] and acts[0]["data"]["auto"] == "no_show_grace"
        assert _get(c, f"/api/tables/{t1}")["status"] == "walkover"
        none = _wait(lambda: (e := _get(c, "/api/events/none"))["rounds"][0]["matches"][0]["status"]
                     == "finished" and e, "no double no-show")
        match = none["rounds"][0]["matches"][0]
        assert match["winner"] is None and match["result"]["decided_by"] == "double_no_show", match
        assert sorted(match["absent"]) == ["carol", "dave"]
        acts = [sorted(x["data"]["absent"]) for x in _log(c, boss, "none") if x["act"] == "no_show"]
        assert acts == [["carol", "dave"]]
        assert c.get("/api/me/event-games", headers={"Cookie": f"qipai_session={alice}"}).json() == []


def test_at_a_card_table_the_absent_seat_is_played_by_trusteeship(tmp_path):
    """§5.6 table sessions: alice and a bot are present, bob is not when the grace runs out: the
    session is played, bob's seat in trusteeship for the whole game, bob declared absent."""
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0, event_ready_grace_ms=600_000,
                event_between_games_ms=0) as c:
        boss, alice = signup(c, "boss"), signup(c, "alice")
        signup(c, "bob")
        post(c, boss, "/api/events", {"preset": "s0_doudizhu", "event_id": "cards",
                                      "players": ["alice", "bob", {"id": "b1", "bot": "random"}]})
        t1 = post(c, boss, "/api/events/cards/start").json()["tables"][0]
        bob = next(i for i, s in enumerate(_get(c, f"/api/tables/{t1}")["seats"]) if s["name"] == "bob")
        with ws(c, alice, t1) as sock:
            sock.receive_json()
            _grace_ends(c, t1)
            table = _wait(lambda: (x := _get(c, f"/api/tables/{t1}"))["status"] != "open" and x,
                          "the session did not start")
        assert table["settings"]["trustee"] == [bob], table
        ev = _get(c, "/api/events/cards")
        assert ev["rounds"][0]["matches"][0]["absent"] == ["bob"]
        assert [x["data"]["absent"] for x in _log(c, boss, "cards") if x["act"] == "no_show"] == [["bob"]]


def test_a_match_that_ends_while_its_event_is_read_shows_its_result(tmp_path):
    """The event's page reads the rounds held (what a viewer may not see yet, §6.5) with the
    event, in one read: a match that ends as the page is asked for (here a double no-show, §5.6)
    shows its result, not "finished" with none (as when the rounds were read before the event: a
    test that polled for the match's end failed so on a loaded machine)."""
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0, event_ready_grace_ms=600_000,
                event_between_games_ms=0) as c:
        boss = signup(c, "boss")
        for name in ("carol", "dave"):
            signup(c, name)
        post(c, boss, "/api/events", {"preset": "s0_gomoku", "event_id": "none",
                                      "players": ["carol", "dave"]})
        t = post(c, boss, "/api/events/none/start").json()["tables"][0]
        service = c.app.state.events
        read, read_json = service.read, service.read_json

        async def racing(method, *args):
            if method == "describe":        # the match ends as the event is asked for
                del service.read_json
                live = c.app.state.hub.tables[t]
                live.settings["ready_by"] = time.time()
                eventstart.begin(live)
                while await read("held_rounds", "none"):
                    await asyncio.sleep(0.02)
            return await read_json(method, *args)
        service.read_json = racing
        match = _get(c, "/api/events/none")["rounds"][0]["matches"][0]
        assert match["status"] == "finished" and match["result"]["decided_by"] == "double_no_show", match
