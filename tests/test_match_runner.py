"""The match runner on the small test games, in virtual time (exact milliseconds)."""

from __future__ import annotations

import asyncio

import pytest

import qipai
from qipai.bots import RandomBot
from qipai.core import replay
from qipai.match import (
    AcceptDraw,
    BotPlayer,
    GameRunner,
    InputPlayer,
    Move,
    OfferDraw,
    Resign,
    ScriptedPlayer,
    VirtualTime,
    play_game_sync,
)
from tests import match_games  # noqa: F401  (registers test-nim and test-high)


def nim(**kw):
    return qipai.load("test-nim", **kw)


def test_bots_play_to_the_end_and_record_replays():
    out = play_game_sync(nim(pile=15), [BotPlayer(RandomBot(1)), BotPlayer(RandomBot(2))],
                         clock="xq_s2_15s")
    assert out.result.reason == "last_stone"
    rec = out.record
    assert len(rec.meta["times"]) == len(rec.actions) == out.moves
    assert replay(rec).result.text == out.result.text


def test_scripted_times_are_exact_and_recorded():
    a = ScriptedPlayer([(1_000, "3"), (2_500, "3"), (0, "3")])
    b = ScriptedPlayer([(4_000, "1"), (14_999, "1"), (15_000, "3")])
    out = play_game_sync(nim(pile=14), [a, b], clock="xq_s2_15s")
    assert out.result.text == "0-1" and out.result.reason == "last_stone"
    assert [t[1] for t in out.record.meta["times"]] == [1_000, 4_000, 2_500, 14_999, 0, 15_000]


def test_cap_overrun_loses_on_time():
    a = ScriptedPlayer([(1_000, "1")])
    b = ScriptedPlayer([(15_001, "1")])
    out = play_game_sync(nim(), [a, b], clock="xq_s2_15s")
    assert (out.result.text, out.result.reason) == ("1-0", "timeout")
    assert out.events[-1]["t"] == 16_000 and out.events[-1]["kind"] == "lose"
    assert replay(out.record).result.reason == "timeout"


def test_warning_then_move_under_the_fresh_cap():
    # xq_s0_rapid: 20 s, warning, fresh 20 s from the warning, third warning loses
    a = ScriptedPlayer([(25_000, "1"), (50_000, "1")])
    b = ScriptedPlayer([(1, "1")] * 10)
    out = play_game_sync(nim(pile=6), [a, b], clock="xq_s0_rapid")
    warns = [e for e in out.events if e["type"] == "timeout"]
    assert [(e["t"], e["kind"]) for e in warns][:1] == [(20_000, "warn")]
    # second move: starts at 25 001, warning at 45 001, third warning at 65 001 loses
    assert [(e["t"], e["kind"]) for e in warns][1:] == [(45_001, "warn"), (65_001, "lose")]
    assert out.result.reason == "timeout" and out.result.winners == (1,)


def test_third_refused_submission_loses_and_never_changes_state():
    a = ScriptedPlayer([(100, Move("5"), "now"), (100, Move("4"), "now"), (100, "1")] + [(0, "1")] * 9)
    b = ScriptedPlayer([(100, "1")] * 10)
    out = play_game_sync(nim(pile=10), [a, b], illegal_limit=3)
    assert out.record.meta["illegal_submissions"] == [2, 0]
    assert out.result.reason == "last_stone" and out.record.actions == ["1"] * 10
    # now three refusals in one game
    a = ScriptedPlayer([(100, Move("5"), "now"), (100, Move("4"), "now"), (100, Move("9"), "now")])
    b = ScriptedPlayer([])
    out = play_game_sync(nim(), [a, b], illegal_limit=3)
    assert (out.result.reason, out.result.winners, out.moves) == ("illegal_moves", (1,), 0)
    assert out.record.meta["illegal_submissions"] == [3, 0]
    assert [e["count"] for e in out.events if e["type"] == "refused"] == [1, 2, 3]


def test_resign_during_opponents_turn():
    a = ScriptedPlayer([(1_000, "1", "now"), (3_000, Resign())])
    b = ScriptedPlayer([(10_000, "1")])
    out = play_game_sync(nim(), [a, b], clock="xq_s2_15s")
    assert (out.result.reason, out.result.text, out.moves) == ("resign", "0-1", 1)
    assert replay(out.record).result.reason == "resign"


def test_draw_offer_with_a_move_and_acceptance():
    a = ScriptedPlayer([(1_000, Move("1", offer_draw=True))])
    b = ScriptedPlayer([(2_000, AcceptDraw())])
    out = play_game_sync(nim(), [a, b])
    assert (out.result.text, out.result.reason) == ("1/2-1/2", "agreement")
    types = [e["type"] for e in out.events]
    assert types == ["draw_offer", "draw_accepted"]


def test_move_declines_offer_and_cooldown_blocks_reoffer():
    seen = []
    # an offer on a's own turn goes out with a's move (§5.4), so the game must go on after it
    a = ScriptedPlayer([(1_000, Move("1", offer_draw=True)), (1_000, OfferDraw(), "now"),
                        (1_000, "1"), (0, "1"), (0, "1"), (0, OfferDraw(), "now"), (0, "1"), (0, "1")])
    b = InputPlayer("b", notify=lambda s, m: seen.append(m))
    runner = GameRunner(nim(pile=11), [a, b])

    async def drive():
        task = asyncio.ensure_future(runner.run())
        while not task.done():
            await asyncio.sleep(0)
            if runner.turn_of(1) and not runner.state.is_terminal():
                runner.submit(1, Move("1", turn=runner.turn_of(1)))
        return task.result()

    out = asyncio.run(drive())
    kinds = [e["type"] for e in out.events]
    assert kinds[:2] == ["draw_offer", "draw_declined"]
    refused = [m["reason"] for m in seen if m["type"] == "refused"]
    assert refused == []          # refusals go to the offering seat, not b
    assert kinds.count("draw_offer") == 2   # the second offer only after 3 more own moves


def test_card_timeout_auto_plays_default_and_trusteeship():
    game = qipai.load("test-high")
    a = ScriptedPlayer([(0, None)])          # silent: 30 s bid cap then pass
    b = ScriptedPlayer([(1_000, "raise")])
    c = ScriptedPlayer([(2_000, "raise")])
    out = play_game_sync(game, [a, b, c], clock="card_default", seed=3)
    autos = [e for e in out.events if e["type"] == "auto"]
    assert autos == [{"t": 30_000, "seat": 0, "type": "auto", "why": "timeout", "action": "pass"}]
    assert out.record.actions == ["pass", "raise", "raise"]
    assert [t[1] for t in out.record.meta["times"]] == [30_000, 1_000, 2_000]


def test_trusteeship_acts_after_its_delay():
    game = qipai.load("test-high")
    runner = GameRunner(game, [ScriptedPlayer([]), ScriptedPlayer([(500, "pass")]),
                               ScriptedPlayer([(500, "pass")])], clock="card_default", seed=1)
    runner.clocks[0].trusteeship = True
    out = asyncio.run(runner.run())
    assert out.events[0] == {"t": 1_000, "seat": 0, "type": "auto", "why": "trusteeship", "action": "pass"}


def test_a_seat_entrusted_late_in_its_turn_is_played_after_the_delay_from_then():
    """A person who asks for trusteeship 20 s into a decision: the computer plays the seat
    ``trustee_delay`` after the request, not back-dated to the turn's start plus the delay
    (which was already past: the play went in at t = 1 s, 19 s before the request, and the
    turns after it started in the past, so a bot seat after it was out of time before it was
    asked: a sandayi bot's card marked "timeout" at a lobby table). No event goes back in time."""
    from qipai.match import Entrust

    game = qipai.load("test-high")
    a = ScriptedPlayer([(20_000, Entrust(), "now")])
    out = play_game_sync(game, [a, ScriptedPlayer([(500, "pass")]), ScriptedPlayer([(500, "pass")])],
                         clock="card_default", seed=1)
    auto = next(e for e in out.events if e["type"] == "auto")
    assert auto == {"t": 21_000, "seat": 0, "type": "auto", "why": "trusteeship", "action": "pass"}
    times = [e["t"] for e in out.events]
    assert times == sorted(times), out.events
    assert not any(e["type"] == "auto" and e.get("why") == "timeout" for e in out.events)


def test_late_answer_after_auto_is_discarded():
    game = qipai.load("test-high")
    a = ScriptedPlayer([(40_000, "raise")])
    out = play_game_sync(game, [a, ScriptedPlayer([(0, "pass")]), ScriptedPlayer([(0, "pass")])],
                         clock="card_default", seed=1)
    assert out.record.actions[0] == "pass"


def test_players_count_and_real_time_source():
    with pytest.raises(qipai.QipaiError, match="needs 2 players"):
        GameRunner(nim(), [BotPlayer(RandomBot(1))])
    from qipai.match import RealTime

    out = play_game_sync(nim(pile=5), [BotPlayer(RandomBot(1)), BotPlayer(RandomBot(2))],
                         time=RealTime(), clock="xq_s2_15s")
    assert out.result.reason == "last_stone"


def test_virtual_time_is_shared_across_games():
    vt = VirtualTime()
    play_game_sync(nim(pile=3), [ScriptedPlayer([(5_000, "3")]), ScriptedPlayer([])], time=vt)
    assert vt.now() == 5_000


@pytest.mark.skipif("xiangqi" not in {g.id for g in qipai.games()}, reason="xiangqi not loadable")
def test_xiangqi_bots_game_records_clock_and_replays():
    g = qipai.load("xiangqi")
    out = play_game_sync(g, [BotPlayer(qipai.bots.make_bot("xiangqi", "random", 1)),
                             BotPlayer(qipai.bots.make_bot("xiangqi", "random", 2))],
                         clock="xq_s2_15s")
    assert out.result is not None
    assert replay(out.record).result.text == out.result.text


def test_input_seat_gets_long_legal_sets_as_a_count(monkeypatch):
    import qipai.match.players as players

    seen = []
    a = InputPlayer("a", notify=lambda s, m: seen.append(m))
    runner = GameRunner(nim(pile=11), [a, ScriptedPlayer([])])
    n = len(runner.state.legal_actions(0))
    a.on_turn(runner, 0, 1)
    assert seen[-1]["legal"] == [str(x) for x in runner.state.legal_actions(0)]
    assert seen[-1]["legal_count"] == n
    monkeypatch.setattr(players, "MAX_LISTED", n - 1)
    a.on_turn(runner, 0, 1)
    assert seen[-1]["legal"] is None and seen[-1]["legal_count"] == n


@pytest.mark.parametrize("game_id,options,seats", [("chinese-checkers", {}, 3), ("junqi", {}, 2)])
def test_a_player_cannot_send_the_clocks_turn_skip(game_id, options, seats):
    game = qipai.load(game_id, **options)
    first = ScriptedPlayer([(0, "timeout")])
    others = [RandomBot(seed=s) for s in range(seats - 1)]
    runner = GameRunner(game, [first, *[BotPlayer(b) for b in others]], seed=1, num_seats=seats,
                        illegal_limit=1)
    out = asyncio.run(runner.run())
    refused = [e for e in out.events if e["type"] == "refused"]
    assert refused and refused[0]["seat"] == 0 and "clock" in refused[0]["reason"]
    assert "timeout" not in [a if isinstance(a, str) else a[1] for a in out.record.actions[:1]]


def _offer_then_answer(game, answer_seat, n):
    """Seat 0 moves with an offer; ``answer_seat`` tries to accept right after."""
    runner = GameRunner(game, [ScriptedPlayer([(0, Move("1", offer_draw=True))])]
                        + [ScriptedPlayer([(10, "1")]) for _ in range(n - 1)], time=VirtualTime())

    async def drive():
        async def accept():
            await runner.time.sleep(1)
            runner.submit(answer_seat, AcceptDraw())
            await runner.time.sleep(1)
            runner.submit(0, Resign())

        asyncio.ensure_future(accept())
        return await runner.run()

    return asyncio.run(drive())


def test_only_the_other_side_accepts_a_draw_offer():
    # test-pairs: seats 0 and 2 against 1 and 3; the offerer's partner cannot end it drawn
    out = _offer_then_answer(qipai.load("test-pairs"), 2, 4)
    assert out.result.reason == "resign"
    assert [e["type"] for e in out.events if e["type"].startswith("draw")] == ["draw_offer"]
    out = _offer_then_answer(qipai.load("test-pairs"), 1, 4)
    assert (out.result.text, out.result.reason) == ("1/2-1/2", "agreement")


@pytest.mark.parametrize("game_id", ["doudizhu", "shengji", "fouafour"])
def test_card_games_have_no_draw_offers(game_id):
    # competition.md §5.4: offers exist only in two-sided board games
    game = qipai.load(game_id)
    n = game.info().seats[0]
    replies = []
    runner = GameRunner(game, [InputPlayer(f"p{s}", notify=lambda s, m: replies.append(m))
                               for s in range(n)], seed=3)
    runner._handle(runner.state.to_act[0], OfferDraw(), 0)
    assert runner._offer is None and not runner._held_offer and not runner.events
    assert replies == [{"type": "refused", "code": "draw_not_allowed",
                        "reason": "drawn-game offers exist only in two-sided board games"}]


class _BrokenBot:
    """A bot that raises on its ``fail_at``-th decision."""

    def __init__(self, fail_at: int = 1):
        self.calls, self.fail_at = 0, fail_at
        self.inner = RandomBot(7)

    def choose(self, state, seat):
        self.calls += 1
        if self.calls >= self.fail_at:
            raise RuntimeError("the bot broke")
        return self.inner.choose(state, seat)


def test_a_bot_that_raises_forfeits_by_the_timeout_rule_and_never_hangs_the_table():
    """No clock would ever stop the game: the failing seat loses as on time (a board game)."""
    out = play_game_sync(qipai.load("xiangqi"), [BotPlayer(RandomBot(1)), BotPlayer(_BrokenBot(2))],
                         clock="none")
    assert out.result is not None and out.result.reason == "timeout"
    assert out.result.winners == (0,) or list(out.result.winners) == [0]
    kinds = [e["type"] for e in out.events]
    assert "bot_error" in kinds and {"type": "forfeit", "why": "bot_error"}.items() <= \
        next(e for e in out.events if e["type"] == "forfeit").items()


def test_a_card_game_bot_that_raises_is_played_by_trusteeship_to_the_end():
    game = qipai.load("doudizhu")
    out = play_game_sync(game, [BotPlayer(RandomBot(1)), BotPlayer(_BrokenBot(1)),
                                BotPlayer(RandomBot(3))], clock="none", seed=4)
    assert out.result is not None and out.result.reason != "timeout"
    assert any(e["type"] == "forfeit" and e["seat"] == 1 for e in out.events)


def test_a_seat_asks_for_trusteeship_at_most_once_per_cooldown_but_takes_it_back_at_once():
    # one account toggled 托管 19 times in a burst, each an announcement to the table
    from qipai.match import Entrust, Reclaim
    from qipai.match.entrust import ENTRUST_COOLDOWN_MS

    replies = []
    runner = GameRunner(qipai.load("doudizhu"), [InputPlayer(f"p{s}", notify=lambda s, m: replies.append(m))
                                                 for s in range(3)], seed=3)
    on = [(0, Entrust(), 0), (0, Reclaim(), 10), (0, Entrust(), 1_000), (0, Reclaim(), 1_010)]
    for seat, msg, t in on:
        runner._handle(seat, msg, t)
    toggles = [(e["t"], e["on"]) for e in runner.events if e["type"] == "trusteeship"]
    assert toggles == [(0, True), (10, False)]
    refused = [m for m in replies if m.get("type") == "refused"]
    assert [m["code"] for m in refused] == ["trusteeship_cooldown", "not_in_trusteeship"]
    assert refused[0]["params"] == {"retry_after": 29.0, "seconds": 29}
    runner._handle(1, Entrust(), 1_000)                  # another seat's cooldown is its own
    runner._handle(0, Entrust(), ENTRUST_COOLDOWN_MS)    # the cooldown over: asked again
    runner._handle(0, Reclaim(), ENTRUST_COOLDOWN_MS + 5)  # and taken back at once
    toggles = [(e["seat"], e["t"], e["on"]) for e in runner.events if e["type"] == "trusteeship"]
    assert toggles[2:] == [(1, 1_000, True), (0, ENTRUST_COOLDOWN_MS, True),
                           (0, ENTRUST_COOLDOWN_MS + 5, False)]
