"""Referee pauses (competition.md §4.7) and absent seats in trusteeship (§5.6) in the runner,
in virtual time (exact milliseconds)."""

from __future__ import annotations

import asyncio

import pytest

import qipai
from qipai.core.errors import QipaiError
from qipai.match import (
    GameRunner,
    Move,
    OfferDraw,
    Pause,
    Reclaim,
    Resign,
    Resume,
    ScriptedPlayer,
    SeatClock,
    VirtualTime,
    clock_preset,
)
from tests import match_games  # noqa: F401  (test-nim, test-high)


def run_with_referee(runner, script):
    """Run ``runner`` while a referee sends ``(at_ms, message)`` entries at absolute times."""

    async def referee():
        for at, msg in script:
            await runner.time.sleep(at - runner.time.now())
            runner.submit(None, msg)

    async def main():
        task = asyncio.ensure_future(referee())
        out = await runner.run()
        task.cancel()
        return out

    return asyncio.run(main())


def test_pause_keeps_the_time_used_in_the_turn():
    # 15 s per move, one overrun loses. Seat 0 thinks 5 s, the table is paused for 60 s, then
    # seat 0 moves 14 s of its own time after the turn began: in time.
    a = ScriptedPlayer([(74_000, "1"), (1_000, "3")])
    b = ScriptedPlayer([(1_000, "1"), (1_000, "1")])
    runner = GameRunner(qipai.load("test-nim", pile=6), [a, b], clock="xq_s2_15s", time=VirtualTime())
    out = run_with_referee(runner, [(5_000, Pause("dispute")), (65_000, Resume())])
    assert out.result.reason == "last_stone"
    assert out.record.meta["times"][0][:2] == [0, 14_000]
    kinds = [e["type"] for e in out.events]
    assert kinds[:2] == ["pause", "resume"] and out.events[1]["paused"] == 60_000
    assert out.record.meta["paused"] == 60_000
    assert out.record.meta["duration"] == 74_000 + 3_000 - 60_000


def test_without_the_pause_the_same_move_is_late():
    a = ScriptedPlayer([(74_000, "1")])
    b = ScriptedPlayer([(1_000, "1")])
    runner = GameRunner(qipai.load("test-nim", pile=6), [a, b], clock="xq_s2_15s", time=VirtualTime())
    out = run_with_referee(runner, [])
    assert (out.result.reason, out.result.text) == ("timeout", "0-1")


def test_moves_are_refused_while_paused_and_bank_is_not_charged():
    # xq_s3: 30 min bank. Seat 0 tries to move during the pause (refused, not counted as an
    # illegal move), then moves after the resume; its bank is charged only for its own time.
    events = []
    a = ScriptedPlayer([(20_000, Move("1"), "now"), (15_000, "1")])
    b = ScriptedPlayer([(2_000, "1"), (1_000, "3")])
    a.on_event = lambda runner, seat, ev: events.append(ev) if seat == 0 else None
    runner = GameRunner(qipai.load("test-nim", pile=6), [a, b], clock="xq_s3", time=VirtualTime())
    out = run_with_referee(runner, [(10_000, Pause()), (30_000, Resume())])
    assert any(e.get("reason") == "the table is paused by the referee" for e in events)
    assert out.record.meta.get("illegal_submissions") is None
    # the move comes at 35 s: 10 s before the pause + 5 s after it (the refused move at 20 s
    # did not end the turn)
    assert out.record.meta["times"][0][:2] == [0, 15_000]
    assert out.record.meta["times"][0][2][0] == 30 * 60_000 - 15_000


def test_seat_clock_shift():
    c = SeatClock(clock_preset("xq_s3"))
    c.start_turn(1_000)
    assert c.deadline() == 1_000 + 300_000
    c.shift(60_000)
    assert c.deadline() == 61_000 + 300_000
    assert c.act(61_000 + 10_000) == 10_000 and c.bank_left == 30 * 60_000 - 10_000
    c.shift(5_000)                       # between turns: nothing to move
    with pytest.raises(ValueError):
        c.shift(-1)


def test_absent_seat_is_played_by_trusteeship():
    game = qipai.load("test-high")
    state = game.new_state(seed=3)
    players = [ScriptedPlayer([(500, "raise")] * 50), ScriptedPlayer([]),
               ScriptedPlayer([(500, "pass")] * 50)]
    runner = GameRunner(game, players, clock="card_default", time=VirtualTime(), state=state, trustee=[1])
    # the absent seat's trusteeship is one it cannot leave: its clock says so (the page offers no
    # "take my seat back"); the others' do not
    assert [c.get("held", False) for c in runner.clock_state()] == [False, True, False]
    out = asyncio.run(runner.run())
    autos = [e for e in out.events if e["type"] == "auto"]
    assert autos and all(e["seat"] == 1 and e["why"] == "trusteeship" for e in autos)
    # trusteeship acts after trustee_delay (1 s), never waiting for the 30 s cap
    assert all(t[1] == 1_000 for t in out.record.meta["times"] if t[0] == 1)
    with pytest.raises(QipaiError, match="trustee seats"):
        GameRunner(game, players, state=game.new_state(seed=3), trustee=[5])


class HeardPlayer(ScriptedPlayer):
    """A scripted player that keeps the events told to it."""

    def __init__(self, script):
        super().__init__(script)
        self.heard = []

    def on_event(self, runner, seat, event):
        self.heard.append(event)


def test_an_absent_seats_player_cannot_resign_move_or_offer_a_draw():
    """A seat declared absent (or conceded, disqualified) is played by trusteeship to the end
    (competition.md §4.6): its player turning up cannot end the others' game by resigning, nor
    play a move or offer a draw in its place; each is refused, the game goes on."""
    game = qipai.load("test-high")
    absent = HeardPlayer([(100, Resign(), "now"), (0, OfferDraw(), "now"), (0, "raise", "now"),
                          (0, Reclaim(), "now")])
    players = [ScriptedPlayer([(500, "raise")] * 50), absent, ScriptedPlayer([(500, "pass")] * 50)]
    runner = GameRunner(game, players, clock="card_default", time=VirtualTime(),
                        state=game.new_state(seed=3), trustee=[1])
    out = asyncio.run(runner.run())
    assert out.result is not None and out.result.reason != "resign"
    refused = [e["code"] for e in absent.heard if e["type"] == "refused"]
    assert refused == ["trusteeship_permanent"] * 4
    assert not [e for e in out.events if e.get("seat") == 1 and e["type"] in ("resign", "draw_offer")]
    assert all(e["why"] == "trusteeship" for e in out.events if e["type"] == "auto" and e["seat"] == 1)
    assert all(t[1] == 1_000 for t in out.record.meta["times"] if t[0] == 1)
