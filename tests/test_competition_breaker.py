"""Adversarial tests of the match runner, the clock and the event director: each test is a fault
found by driving the public API (or the CLI) against rules/competition.md, kept as a regression."""

from __future__ import annotations

import asyncio
from dataclasses import replace as dataclasses_replace

import pytest
from typer.testing import CliRunner

import qipai
from qipai.cli import app
from qipai.competition import create_event, enter_result, open_db, run_event, withdraw
from qipai.competition.db import EventRow, GameRow
from qipai.competition.event import Director, EventError
from qipai.competition.rules import SeriesGame, SeriesRule, series_status
from qipai.competition.sessionrule import SessionRule, session_status
from qipai.core.errors import OptionError
from qipai.core.registry import game_class
from qipai.match import AcceptDraw, GameRunner, OfferDraw, ScriptedPlayer, VirtualTime
from qipai.match.clock import Byoyomi, ClockSpec, SeatClock
from tests import match_games  # noqa: F401  (test-nim, test-high)

SECRET = "ab" * 32


@pytest.fixture
def db(tmp_path):
    return open_db(f"sqlite:///{tmp_path / 'ev.db'}")


def humans(n):
    return [{"id": f"h{i}"} for i in range(1, n + 1)]


# ----- clock and runner -------------------------------------------------------------------------


class StalledTime(VirtualTime):
    """Virtual time in which the runner's loop is held up for ``stall`` ms once, right after a
    message has been received: what a busy server does to a move that arrived in time."""

    def __init__(self, stall: int) -> None:
        super().__init__()
        self.stall = stall

    async def wait(self, task, deadline):
        done = await super().wait(task, deadline)
        if done and self.stall:
            self._now += self.stall
            self.stall = 0
        return done


def test_move_received_in_time_but_read_late_is_accepted():
    # bank 10 min + 3 x 30 s byo-yomi; the move is received at 599 s (in the bank) but the
    # runner only reads it at 640 s, after the bank deadline and the first period's deadline.
    # The receipt time is authoritative (§0.3, §4.7): the move is in time; no crash.
    a = ScriptedPlayer([(599_000, "3")])
    b = ScriptedPlayer([(1_000, "3")] * 5)
    runner = GameRunner(qipai.load("test-nim", pile=6), [a, b], clock="board_default",
                        time=StalledTime(41_000))
    out = asyncio.run(runner.run())
    assert out.result.text == "0-1" and out.result.reason == "last_stone"
    assert out.record.meta["times"][0][:2] == [0, 599_000]
    assert runner.clocks[0].bank_left == 1_000 and runner.clocks[0].periods_left == 3


def test_move_received_after_two_deadlines_is_judged_at_its_receipt_time():
    # received at 631 s: the bank ran out at 600 s and the first period at 630 s; the move
    # falls in the second period, so it stands and a period is used (no crash)
    a = ScriptedPlayer([(631_000, "3")])
    b = ScriptedPlayer([(1_000, "3")] * 5)
    runner = GameRunner(qipai.load("test-nim", pile=6), [a, b], clock="board_default",
                        time=StalledTime(5_000))
    out = asyncio.run(runner.run())
    assert out.result.text == "0-1"
    assert runner.clocks[0].periods_left == 2 and runner.clocks[0].bank_left == 0


def test_clock_spec_accepts_consequence_text():
    # the dataclass is public: on_cap="warn:3" must mean what it means in a preset file
    c = SeatClock(ClockSpec(move_cap=20_000, on_cap="warn:3", bank=None))
    c.start_turn(0)
    assert c.expire().kind == "warn"
    spec = ClockSpec(bank=1000, overtime=Byoyomi(1, 1000), on_out="lose")
    assert spec.on_out.kind == "lose"


# ----- withdrawals --------------------------------------------------------------------------------


def _pending(db, eid):
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        return {g.id: [d.name(x) for x in g.seats] for g in d.pending_games()}


def test_withdrawal_turns_the_pending_game_itself_into_the_forfeit(db):
    eid = create_event(db, "s3_xiangqi", humans(4), overrides={"game": {"id": "test-nim"}},
                       event_id="rr", secret=SECRET)
    before = _pending(db, eid)
    (gid, seats), = [(g, s) for g, s in before.items() if "h1" in s]
    withdraw(db, eid, "h1")
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        games = [g for m in d.matches() for g in m.games]
        assert sorted(g.id for g in games) == sorted(before)         # no game vanished or appeared
        g = s.get(GameRow, gid)
        assert g.status == "finished" and g.source == "forfeit" and g.number == 1
        assert [d.name(x) for x in g.seats] == seats                    # the seats it was paired with
        winner = next(x for x in seats if x != "h1")
        assert [d.name(x) for x in g.result["winner_draws"]] == [winner]
        assert g.match.result["decided_by"] == "forfeit"
    with pytest.raises(EventError, match=f"game {gid} already has a result"):
        enter_result(db, eid, gid, "1-0")
    # the other pending game is untouched and still takes a result
    (other,) = [g for g in before if g != gid]
    enter_result(db, eid, other, "1-0")


def test_withdrawal_forfeit_is_shown_once_by_event_show(db, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    eid = create_event(db, "s3_xiangqi", humans(4), overrides={"game": {"id": "test-nim"}},
                       event_id="rr", secret=SECRET)
    url = str(db.kw["bind"].url)
    res = CliRunner().invoke(app, ["event", "withdraw", "h2", "--event", eid, "--db", url])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(app, ["event", "show", eid, "--db", url])
    assert res.exit_code == 0, res.output
    line = next(x for x in res.output.splitlines() if "game " in x and "h2" in x)
    assert line.count("forfeit") == 1, line


def test_withdrawal_in_a_knockout_keeps_the_game_number(db):
    eid = create_event(db, "s2_xiangqi", humans(4), overrides={"game": {"id": "test-nim"}},
                       event_id="ko", secret=SECRET)
    before = _pending(db, eid)
    (gid,) = [g for g, s in before.items() if "h3" in s]
    withdraw(db, eid, "h3")
    with db() as s:
        g = s.get(GameRow, gid)
        assert g.source == "forfeit" and g.match.status == "finished"
        assert Director(s, s.get(EventRow, eid)).name(g.match.result["winner"]) != "h3"


def test_withdrawal_at_a_card_table_is_a_concession(db):
    # §5.5: the seat is played by trusteeship, ranked last, never advancing; the table's
    # pending deal keeps its number
    over = {"game": {"id": "test-high"},
            "match": {"session": {"seats": 3, "end": {"deals": 4}}}}
    players = [{"id": f"p{i}", "bot": "random"} for i in range(1, 7)]
    eid = create_event(db, "s0_doudizhu", players, overrides=over, event_id="tk", secret=SECRET)
    run_event(db, eid, max_games=1)
    before = _pending(db, eid)
    (gid, seats), = [(g, s) for g, s in before.items() if "p4" in s]
    withdraw(db, eid, "p4")
    assert _pending(db, eid)[gid] == seats
    run_event(db, eid)
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        m = s.get(GameRow, gid).match
        p4 = next(k for k, e in d.by_draw.items() if e.entrant_id == "p4")
        assert m.result["ranking"][-1] == p4 and m.result["winner"] != p4
        assert all(p4 not in x.entrants for x in d.matches(m.round + 1))


def test_withdrawal_leaving_one_player_at_a_table_is_a_walkover(db):
    over = {"game": {"id": "test-high"}, "match": {"session": {"seats": 3, "end": {"deals": 2}}}}
    eid = create_event(db, "s0_doudizhu", humans(3), overrides=over, event_id="t3", secret=SECRET)
    (gid,) = _pending(db, eid)
    withdraw(db, eid, "h1")
    assert gid in _pending(db, eid)
    withdraw(db, eid, "h2")
    out = run_event(db, eid)
    assert out["status"] == "finished" and out["outcome"]["champion"] == "h3"
    with db() as s:
        g = s.get(GameRow, gid)
        assert g.status == "finished" and g.result["void"]


# ----- CLI ---------------------------------------------------------------------------------------


def test_presets_list_every_preset_with_a_game_qipai_has():
    from qipai.competition.config import preset_data, preset_names

    res = CliRunner().invoke(app, ["event", "presets"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    lines = {ln.split()[0]: ln for ln in res.output.splitlines() if ln.strip()}
    assert sorted(lines) == preset_names()
    for name in preset_names():                      # a game id or an alias (tiaoqi)
        gid = preset_data(name)["game"]["id"]
        assert game_class(gid) and lines[name].split()[1] == gid
        assert "not available" not in lines[name]


@pytest.mark.parametrize("cmd", ["withdraw", "noshow"])
def test_withdraw_and_noshow_help_describes_every_parameter(cmd):
    res = CliRunner().invoke(app, ["event", cmd, "--help"], env={"COLUMNS": "200"})
    assert res.exit_code == 0
    text = res.output
    opt = next(ln for ln in text.splitlines() if "--event" in ln)
    assert "Event id" in opt, opt
    arg = next(ln for ln in text.splitlines() if "player" in ln.lower() and "[required]" in ln)
    assert "entrant id" in arg, arg                   # the argument says what to give


# ----- series and sessions ------------------------------------------------------------------------


def test_series_with_no_extra_games_allowed_goes_to_the_lot_at_once():
    # max_extra = 0: regulation ends level and the cap is already reached: decided by lot (§2.2
    # rule 3), never a game beyond the cap
    rule = SeriesRule.from_dict({"scheduled": 2, "max_extra": 0})
    st = series_status(rule, [SeriesGame(0, 0), SeriesGame(1, 1)], coin=lambda n: 0, lot=lambda: 1)
    assert (st.done, st.winner, st.decided_by) == (True, 1, "lot")
    with pytest.raises(OptionError, match="max_extra"):
        SeriesRule.from_dict({"scheduled": 2, "max_extra": -1})


def test_session_time_limit_is_inclusive():
    # §0.3: a deadline passes at the first millisecond after it. A deal ending exactly at the
    # limit leaves it unexpired, so the next regulation deal still starts.
    rule = SessionRule(seats=3, time_limit=10 * 60_000, between_deals=0)
    st = session_status(rule, [([2, -1, -1], 5 * 60_000), ([2, -1, -1], 5 * 60_000)])
    assert not st.done and not st.extra and st.deals == 2
    st = session_status(rule, [([2, -1, -1], 5 * 60_000), ([2, -1, -1], 5 * 60_000 + 1)])
    assert st.done and st.ended_by == "time"


def test_session_time_runs_through_the_pause_between_deals():
    # §4.3: between deals a pause (default 5 s) runs and the session time limit keeps running;
    # §2.3 step 3: if the limit expires during that pause, the session ends without the next deal
    rule = SessionRule.from_dict({"seats": 3, "end": {"time_limit": {"duration": "10m"}}})
    assert rule.between_deals == 5_000
    deals = [([2, -1, -1], 297_500), ([2, -1, -1], 297_500)]      # 4:57.5 + 0:05 + 4:57.5 = 10:00
    st = session_status(rule, deals)
    assert st.done and st.ended_by == "time" and st.deals == 2   # the pause after it runs out
    st = session_status(dataclasses_replace(rule, between_deals=0), deals)
    assert not st.done


@pytest.mark.parametrize("url", ["garbage://", "sqlite:////nonexistent-dir/sub/x.db"])
@pytest.mark.parametrize("cmd", ["list", "show", "run"])
def test_a_bad_database_url_is_a_clear_error_not_a_traceback(url, cmd):
    res = CliRunner().invoke(app, ["event", cmd, "--db", url])
    assert res.exit_code == 2, res.output
    assert "cannot open the database" in res.output and "Traceback" not in res.output


def test_entered_result_with_negative_moves_is_refused_with_nothing_changed(db):
    eid = create_event(db, "s3_xiangqi", humans(4), overrides={"game": {"id": "test-nim"}},
                       event_id="rr", secret=SECRET)
    gid = min(_pending(db, eid))
    with pytest.raises(EventError, match="moves"):
        enter_result(db, eid, gid, "1-0", moves=-5)
    assert gid in _pending(db, eid)
    enter_result(db, eid, gid, "1-0", moves=0)


def test_draw_offer_on_own_turn_is_delivered_with_the_move():
    # §5.4: an offer made on the player's own turn is delivered together with its move, so the
    # opponent cannot accept it (and end the game drawn) before that move is made
    a = ScriptedPlayer([(100, OfferDraw(), "now"), (1_000, "1")])
    b = ScriptedPlayer([(0, AcceptDraw())])
    seen = []
    runner = GameRunner(qipai.load("test-nim"), [a, b], time=VirtualTime())

    async def drive():
        async def early_accept():
            await runner.time.sleep(500)           # during seat 0's turn, before its move
            seen.append(runner.state.is_terminal())
            runner.submit(1, AcceptDraw())

        asyncio.ensure_future(early_accept())
        return await runner.run()

    out = asyncio.run(drive())
    assert out.result.text == "1/2-1/2" and out.moves == 1      # drawn only after the move
    offer = next(e for e in out.events if e["type"] == "draw_offer")
    accepted = next(e for e in out.events if e["type"] == "draw_accepted")
    assert offer["t"] == 1_100 and accepted["t"] == 1_100
