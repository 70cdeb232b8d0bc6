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


def _wait(pred, what: str):
    for _ in range(400):
        out = pred()
        if out:
            return out
        time.sleep(0.025)
    raise AssertionError(what)


def test_the_first_game_waits_for_the_person_and_the_second_after_the_pause(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0, event_ready_grace_ms=600_000,
                event_between_games_ms=3000) as c:
        boss, alice = signup(c, "boss"), signup(c, "alice")
        t1 = _event(c, boss, "ev")
        table = c.get(f"/api/tables/{t1}").json()
        # not started: no clock runs while alice is in the lobby; her pages are told it waits
        assert table["status"] == "open" and table["hold"]["kind"] == "ready", table
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
        ev = _wait(lambda: (e := c.get("/api/events/ev").json()) and
                   any(g["table"] and g["table"] != t1 for m in e["rounds"][0]["matches"]
                       for g in m["games"]) and e, "game 2 was not seated")
        t2 = next(g["table"] for m in ev["rounds"][0]["matches"] for g in m["games"] if g["number"] == 2)
        held = c.get(f"/api/tables/{t2}").json()
        assert held["status"] == "open" and held["hold"]["kind"] == "between", held
        assert 0 < held["hold"]["in_ms"] <= 3000
        _wait(lambda: c.get(f"/api/tables/{t2}").json()["status"] != "open", "game 2 did not start")
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


def test_the_first_game_starts_when_the_grace_runs_out_and_bots_are_always_ready():
    seats = [{"user": 1, "name": "alice"}, {"bot": "random", "name": "b1"},
             {"user": 2, "name": "bob", "bot_account": True}]
    first = eventstart.hold_settings(True, True, 150, 60_000)
    assert set(first) == {"ready_by"}
    assert eventstart.hold_settings(False, True, 150, 60_000).keys() == {"start_at"}
    assert eventstart.hold_settings(True, False, 150, 60_000) == {}      # bots only: at once

    async def run():
        t = _Table(first, seats)
        assert eventstart.people(t) == [0] and eventstart.hold(t)["kind"] == "ready"
        eventstart.begin(t)
        assert not t.started.is_set()
        await asyncio.wait_for(t.started.wait(), 5)     # nobody came: the grace ran out
        t2 = _Table(eventstart.hold_settings(True, True, 600_000, 0), seats)
        eventstart.begin(t2)
        eventstart.seat_ready(t2, 0)                     # the one person arrives: at once
        assert t2.started.is_set() and t2.hold_timer is None

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
        assert c.get("/api/events/people").json()["started_round"] == 0
        assert post(c, boss, "/api/events/bots/start").status_code == 200
