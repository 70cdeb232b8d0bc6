"""A prompt of the deal (shengji's ``deal_prompt="every_card"``) never waits past its hold: a
seat with a choice that does not answer (a person, an engine, a Bot API client) is answered
``pass`` by the table when the hold ends, as a seat that could only pass is — no clock charged,
no timeout, no trusteeship — so the deal lasts the same whoever could declare. A declaration
sent ahead while the deal goes on is answered at the seat's next prompt where it is legal."""

from __future__ import annotations

import asyncio

import qipai
from qipai.games.shengji.seats import SEATS
from qipai.match import BotPlayer, InputPlayer
from qipai.match.clock import SeatClock
from qipai.match.players import Move
from qipai.match.runner import GameRunner
from qipai.match.timesource import VirtualTime

from .shengji_helpers import level_card_deals

DEAL_HOLD, WINDOW_HOLD = 250, 2000
SILENT = 1           # the seat that never answers (it gets a 2H in the second deal)


class _Passer:
    """A bot that passes every prompt of the declarations."""

    def choose(self, state, seat):
        return "pass"


class _Stop(Exception):
    """The deal is over: the test has what it measures."""


def _run(deal, *, ahead: str | None = None, answer=None):
    """Play the deal of ``deal`` with seat 1 a seat that never answers (a person away from the
    page; ``answer(runner, message)``, if given, is called with each message to it) and the
    others passing bots; stop when the last card is dealt. Returns the runner, the virtual
    times of the state's changes, what seat 1 was told and when the deal ended."""
    changes: list[int] = []
    told: list[dict] = []
    marks: dict[str, int] = {}

    class Watched(GameRunner):
        def _sync_turns(self, t, acted):
            if self.state.phase != "deal":
                marks["dealt"] = t
                raise _Stop
            changes.append(t)
            super()._sync_turns(t, acted)

    game = qipai.load("shengji", deal_prompt="every_card")
    def notify(seat: int, m: dict) -> None:
        told.append(m)
        if answer is not None:
            answer(runner, m)

    players = [InputPlayer(notify=notify) if s == SILENT
               else BotPlayer(_Passer(), think_ms=DEAL_HOLD // 2) for s in range(SEATS)]
    runner = Watched(game, players, clock="card_default", time=VirtualTime(),
                     state=game.new_state(deal=deal), private_hold=WINDOW_HOLD, deal_hold=DEAL_HOLD)
    if ahead is not None:
        runner.submit(SILENT, Move(ahead, ahead=True))
    try:
        asyncio.run(runner.run())
    except _Stop:
        pass
    return runner, sorted(set(changes)), told, marks["dealt"]


def test_a_seat_with_a_choice_that_does_not_answer_is_passed_at_the_end_of_the_hold():
    """Seat 1 gets a 2H (its third card) in the second deal and never answers: each of its
    prompts with a choice closes at the hold with a pass, and the deal's changes come at the
    same times as in the deal where it had no choice (the old runner waited for its clock)."""
    (r0, changes0, _, dealt0), (r1, changes1, told, dealt1) = (_run(d) for d in level_card_deals())
    assert dealt0 == dealt1 == 100 * DEAL_HOLD
    assert changes0 == changes1
    assert [str(a) for a in r1.state.log] == ["pass"] * 100
    # it was asked with a choice (so the pass at the hold's end was the table's)
    assert any("declare 2H" in (m.get("legal") or []) for m in told if m.get("type") == "turn")
    # the pass is the table's, as for a seat that could only pass: no timeout, no trusteeship,
    # no mark in a history, no clock charged
    assert not [e for e in r1.events if e["type"] in ("timeout", "trusteeship")]
    assert not [m for m in told if m.get("type") in ("timeout", "trusteeship")]
    assert {e["why"] for e in r1.events if e["type"] == "auto"} == {"window"}
    assert r1.auto_marks() == []
    fresh = SeatClock(r1.specs[SILENT]).snapshot()
    assert r1.clocks[SILENT].snapshot() == fresh
    assert not r1.clocks[SILENT].trusteeship
    assert r1.clocks[SILENT].consecutive_timeouts == 0


def test_a_declaration_sent_ahead_is_answered_at_the_next_prompt_where_it_is_legal():
    """Seat 1 sends ``declare 2H`` at the start, before it holds a 2H: it is kept, and answered
    at its prompt after its 2H is dealt (the 12th card, the 12th prompt), at the end of that prompt's hold."""
    _, with_2h = level_card_deals()
    runner, changes, told, dealt = _run(with_2h, ahead="declare 2H")
    st = runner.state
    # the seat alone is told: kept when sent, sent at the prompt that answers it
    assert [(e["status"], e["action"]) for e in told if e.get("type") == "ahead"] == \
        [("kept", "declare 2H"), ("sent", "declare 2H")]
    assert [(d["seat"], d["cards"]) for d in st.view(None)["declarations"]] == [(SILENT, ["2H"])]
    assert [str(a) for a in st.log][11] == "declare 2H"
    assert runner.times[11][0] == SILENT
    # the prompts keep their pace: the declaration closed its prompt at the hold, like a pass
    assert changes[:14] == [n * DEAL_HOLD for n in range(14)]
    assert not [e for e in runner.events if e["type"] == "refused"]


def test_a_declaration_sent_ahead_that_never_becomes_legal_is_dropped_after_the_deal():
    """A declaration the seat never can make (no 2D is dealt to it) is never answered and
    never counted as a refused move."""
    _, with_2h = level_card_deals()
    runner, _, told, dealt = _run(with_2h, ahead="declare 2D")
    assert dealt == 100 * DEAL_HOLD
    assert [str(a) for a in runner.state.log] == ["pass"] * 100
    assert runner.illegal == [0] * SEATS
    assert runner._ahead == {SILENT: "declare 2D"}
    # the seat's first prompt past the deal (the final window asks each seat) drops it, told so
    async def window() -> None:           # the bots' turns are tasks of a loop (never run)
        GameRunner._sync_turns(runner, dealt, None)
        while SILENT not in runner.state.to_act:
            assert runner._ahead == {SILENT: "declare 2D"} and runner.state.phase == "window"
            runner.state.apply("pass", runner.state.to_act[0])
            GameRunner._sync_turns(runner, dealt, None)
    asyncio.run(window())
    assert runner._ahead == {}
    assert [e["status"] for e in told if e.get("type") == "ahead"] == ["kept", "dropped"]
    assert runner.illegal == [0] * SEATS


def test_a_declaration_sent_ahead_at_an_open_prompt_before_it_is_legal_is_kept_not_refused():
    """Seat 1, at its first prompt with a choice (its 2H dealt, the 12th prompt), sends
    ``declare 2H 2H`` marked ahead: it holds one 2H, so that is not refused nor counted but kept
    for a later prompt, and the prompt closes with the table's pass at its hold."""
    _, with_2h = level_card_deals()
    turns: list[int] = []

    def answer(runner, m: dict) -> None:
        if m.get("type") == "turn" and not turns:
            turns.append(m["turn"])
            runner.submit(SILENT, Move("declare 2H 2H", turn=m["turn"], ahead=True))

    runner, _, told, _ = _run(with_2h, answer=answer)
    log = [str(a) for a in runner.state.log]
    assert log[11] == "pass" and runner.times[11][0] == SILENT
    assert runner.illegal == [0] * SEATS and not [m for m in told if m.get("type") == "refused"]
    statuses = [e["status"] for e in told if e.get("type") == "ahead"]
    assert statuses[0] == "kept" and "declare 2H 2H" not in log[:12], (statuses, log[:12])
    # kept at the open prompt: told before the next turn of the seat
    first = next(i for i, m in enumerate(told) if m.get("type") == "turn")
    kept = next(i for i, m in enumerate(told) if m.get("type") == "ahead")
    assert first < kept and not [m for m in told[first + 1:kept] if m.get("type") == "turn"]


def test_a_move_sent_ahead_outside_the_deal_is_refused_as_before():
    """After the deal (its final window and later rounds) nothing changes: a move sent while
    the seat's prompt is not open is refused ``not_your_turn``."""
    game = qipai.load("shengji", deal_prompt="every_card")
    state = game.new_state(deal=level_card_deals()[1])
    while state.phase == "deal":
        state.apply("pass")
    told: list[dict] = []
    runner = GameRunner(game, [InputPlayer(notify=lambda s, m: told.append(m)) for _ in range(SEATS)],
                        clock="card_default", state=state, private_hold=WINDOW_HOLD,
                        deal_hold=DEAL_HOLD)
    assert state.phase == "window" and SILENT not in state.to_act
    runner._sync_turns(0, acted=None)
    runner._handle(SILENT, Move("declare 2H", ahead=True), 0)
    assert [m["code"] for m in told if m.get("type") == "refused"] == ["not_your_turn"]
    assert runner._ahead == {}


def test_a_person_declares_ahead_through_the_table_and_a_restart_replays_it(tmp_path):
    """Through the real app, two people and two bots, seat 1 getting a 2H as its third card:
    seat 1 sends ``declare 2H`` marked ``ahead`` at its first message and never answers a
    prompt of the deal; the table declares it at its prompt after the 2H arrives. Rebuilt from
    its log, the table keeps it (the last test)."""
    import threading

    from .server_helpers import client, post, signup, ws
    from .shengji_helpers import bidding_person as person

    with client(tmp_path, private_window_ms=40, deal_window_ms=10, spectator_delay_ms=0) as c:
        ann, bob = signup(c, "ann"), signup(c, "bob")
        tid = post(c, ann, "/api/tables", {"game": "shengji", "seat": 0,
                                           "settings": {"clock": "none", "bot_delay_ms": 0}}).json()["id"]
        post(c, bob, f"/api/tables/{tid}/sit", {"seat": 1})
        table = c.app.state.hub.get(tid)
        table.settings["origin"] = {"seed": None, "deal": level_card_deals()[1]}
        with ws(c, ann, tid) as a, ws(c, bob, tid) as b:
            failed: list[BaseException] = []

            def bob_plays():
                try:
                    person(b, "declare 2H")
                except BaseException as e:     # told below, not lost in the thread
                    failed.append(e)

            other = threading.Thread(target=bob_plays, daemon=True)
            other.start()
            for seat in (2, 3):
                post(c, ann, f"/api/tables/{tid}/bot", {"seat": seat, "bot": "random"})
            person(a, None)
            other.join(30)
            assert not other.is_alive() and not failed, failed
        runner = table.runner
        log = [str(x) for x in runner.state.log]
        assert log[11] == "declare 2H" and runner.times[11][0] == SILENT, log[:14]
        assert not [e for e in runner.events if e["type"] in ("timeout", "trusteeship", "refused")]


def test_a_declaration_kept_ahead_is_in_the_tables_log(tmp_path):
    """The declaration kept for a later prompt is logged: a table rebuilt after a restart still
    keeps it (the deal stands at its first prompt, held by a long minimum time)."""
    import time

    from .server_helpers import client, post, signup, ws

    long = {"private_window_ms": 600_000, "deal_window_ms": 600_000}
    with client(tmp_path, **long) as c:
        ann, bob = signup(c, "ann"), signup(c, "bob")
        tid = post(c, ann, "/api/tables", {"game": "shengji", "seat": 0,
                                           "settings": {"clock": "none"}}).json()["id"]
        post(c, bob, f"/api/tables/{tid}/sit", {"seat": 1})
        table = c.app.state.hub.get(tid)
        table.settings["origin"] = {"seed": None, "deal": level_card_deals()[1]}   # seat 2 first
        for seat in (2, 3):
            post(c, ann, f"/api/tables/{tid}/bot", {"seat": seat, "bot": "rule"})
        assert table.runner.state.deal_prompt_open() and 1 not in table.runner.state.to_act
        with ws(c, bob, tid) as b:
            b.send_json({"type": "move", "seq": 0, "action": "declare 2H", "ahead": True})
            deadline = time.monotonic() + 30
            while not table.runner._ahead and time.monotonic() < deadline:
                time.sleep(0.01)
        assert table.runner._ahead == {1: "declare 2H"}
    with client(tmp_path, **long) as c:
        assert c.app.state.hub.get(tid).runner._ahead == {1: "declare 2H"}
