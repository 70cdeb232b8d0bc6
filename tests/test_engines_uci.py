"""The UCI / UCCI door against real engine processes: Fairy-Stockfish (UCI, UCI_Variant=xiangqi)
and qipai's own brain (``qipai uci xiangqi``, ICCS ranks, UCCI with banmoves); engines that
crash, hang, or send illegal or malformed moves."""

from __future__ import annotations

import time

import qipai
from qipai.bots import make_bot
from qipai.core import replay
from qipai.engines.uci import UciPlayer, forbidden_moves, from_dialect, to_dialect
from qipai.match import BotPlayer
from tests.engine_helpers import FSF, QIPAI, events, faulty, play


def greedy(seed: int = 1) -> BotPlayer:
    return BotPlayer(make_bot("xiangqi", "greedy", seed))


def sent(player: UciPlayer) -> list[str]:
    return [s[2:] for s in player.engine.transcript if s.startswith("> ")]


def test_squares_in_both_dialects():
    assert to_dialect("h2e2", "fsf") == "h3e3"
    assert to_dialect("a9a8", "fsf") == "a10a9"
    assert from_dialect("a10a9", "fsf") == "a9a8"
    assert from_dialect("h2e2", "iccs") == "h2e2"
    assert from_dialect("xyzzy", "fsf") == "xyzzy"       # left for the referee to refuse


def test_fairy_stockfish_plays_with_the_real_clock_and_every_move_is_refereed():
    fsf = UciPlayer(FSF, margin_ms=500)          # room for a busy machine
    out = play(qipai.load("xiangqi"), [fsf, greedy()], clock={"bank": "8s", "increment": "100ms"})
    assert out.result.winners == (0,) and out.result.reason != "timeout"
    assert replay(out.record).result.text == "1-0"          # every move re-checked
    lines = sent(fsf)
    assert "setoption name UCI_Variant value xiangqi" in lines
    assert any(s.startswith("position fen rnbakabnr/9/1c5c1/") for s in lines)
    go = [s for s in lines if s.startswith("go ")]
    assert go and all(s.startswith("go wtime ") and " btime " in s and " winc 100 binc 100" in s for s in go)
    assert fsf.restarts == 0 and not fsf.engine.alive      # stopped at the end


def test_a_per_move_limit_is_given_as_movetime_and_black_moves_come_back_in_iccs():
    fsf = UciPlayer(FSF, movetime=150)
    out = play(qipai.load("xiangqi"), [greedy(3), fsf], clock={"move_cap": "1s"})
    assert out.result.winners == (1,)
    go = [s for s in sent(fsf) if s.startswith("go ")]
    assert go and all(s == "go movetime 150" for s in go)      # the door's own limit, under the cap
    # the position line carries the moves in Fairy-Stockfish's squares (ranks 1-10)
    first = out.record.actions[0]
    assert any(s.endswith(f"moves {to_dialect(first, 'fsf')}") for s in sent(fsf))


def test_qipai_uci_against_fairy_stockfish_through_the_protocol():
    mine = UciPlayer(QIPAI + ["uci", "xiangqi"], movetime=50)
    fsf = UciPlayer(FSF, movetime=100)
    out = play(qipai.load("xiangqi"), [mine, fsf])
    assert mine._sq == "iccs" and fsf._sq == "fsf"            # told apart by UCI_Variant
    assert mine.engine_name.startswith("qipai")
    assert out.result.winners == (1,)
    assert replay(out.record).result.text == "0-1"


def _repeated_state():
    """A position where Red's a0a1 would be the same move a third time (seed000_same_move)."""
    # a short game (at most 40 plies without a capture), so the whole exchange stays in the
    # door's transcript
    state = qipai.load("xiangqi", repetition_rule="seed000_same_move", no_capture_plies=40).new_state()
    for m in ("a0a1", "a9a8", "a1a0", "a8a9", "a0a1", "a9a8", "a1a0", "a8a9"):
        state.apply(m)
    return state


def test_forbidden_moves_name_what_the_repetition_rules_forbid():
    assert forbidden_moves(_repeated_state()) == ["a0a1"]
    assert forbidden_moves(qipai.load("xiangqi").new_state()) == []
    # perpetual check: Red's rook checks from e-file and back; the move that completes the
    # third repetition loses for Red (axf_simplified), so it is forbidden
    state = qipai.load("xiangqi").new_state(position="4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1")
    for m in ("a0a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9"):
        state.apply(m)
    assert forbidden_moves(state) == ["a8a9"]


def test_ucci_door_sends_banmoves_and_qipai_answers_in_ucci():
    state = _repeated_state()
    door = UciPlayer(QIPAI + ["uci", "xiangqi"], ucci=True, movetime=50)
    out = play(state.game, [door, greedy()], state=state, clock={"move_cap": "5s"})
    lines = sent(door)
    assert lines[0] == "ucci" and "banmoves a0a1" in lines
    assert "go time 50 movestogo 1" in lines
    assert out.record.actions[8] != "a0a1"
    assert replay(out.record).result is not None


def test_an_engine_that_crashes_is_restarted_while_its_clock_runs(tmp_path):
    fsf = UciPlayer(faulty("uci", "latecrash", 2, [FSF], once=tmp_path / "crashed"), depth=1)
    out = play(qipai.load("xiangqi"), [fsf, greedy()], clock={"bank": "30s"})
    assert fsf.restarts == 1 and fsf.engine.starts == 2
    assert len(events(out, "engine_error")) == 1
    assert out.moves > 4 and out.result.reason != "timeout"  # it played on
    seat, used, banks = out.record.meta["times"][2]           # Red's second move: the crash
    assert seat == 0 and used >= 300                         # its time and the restart's were charged
    assert banks[0] <= 30_000 - used


def test_an_engine_that_cannot_be_restarted_forfeits_by_the_timeout_rule():
    fsf = UciPlayer(faulty("uci", "crash", 1, [FSF], every=True), depth=1, max_restarts=1)
    t = time.monotonic()
    out = play(qipai.load("xiangqi"), [greedy(), fsf])          # untimed: nothing else would end it
    assert out.result.reason == "timeout" and out.result.winners == (0,)
    assert [e["why"] for e in events(out, "forfeit")] == ["engine_failed"]
    assert time.monotonic() - t < 20


def test_an_engine_that_cannot_start_forfeits_at_its_first_turn():
    door = UciPlayer("/nonexistent/engine", max_restarts=1)
    out = play(qipai.load("xiangqi"), [greedy(), door])
    assert out.result.reason == "timeout" and out.result.winners == (0,) and out.moves == 1
    assert len(door.errors) == 3 and "cannot start engine" in door.errors[0]   # prepare, turn, retry


def test_a_hung_engine_loses_on_time_and_never_holds_the_table():
    fsf = UciPlayer(faulty("uci", "hang", 2, [FSF]), depth=1)
    t = time.monotonic()
    out = play(qipai.load("xiangqi"), [fsf, greedy()], clock=[{"move_cap": "1s"}, "none"])
    assert out.result.reason == "timeout" and out.result.winners == (1,)
    assert time.monotonic() - t < 15 and not fsf.engine.alive


def test_a_hung_engine_of_an_untimed_game_is_restarted(tmp_path):
    fsf = UciPlayer(faulty("uci", "hang", 2, [FSF], once=tmp_path / "hung"), depth=1, hang_ms=1500)
    out = play(qipai.load("xiangqi"), [fsf, greedy()])
    assert fsf.restarts == 1 and "no answer" in fsf.errors[0]
    assert out.moves > 4 and out.result.reason != "timeout"


def test_illegal_moves_are_refused_and_the_third_loses():
    fsf = UciPlayer(faulty("uci", "illegal", 1, [FSF], every=True), depth=1)
    out = play(qipai.load("xiangqi"), [fsf, greedy()], clock={"bank": "30s"})
    assert out.result.reason == "illegal_moves" and out.result.winners == (1,)
    refused = events(out, "refused")
    assert [e["action"] for e in refused] == ["e0e2"] * 3 and out.moves == 0


def test_a_malformed_move_is_refused_and_the_engine_asked_again():
    fsf = UciPlayer(faulty("uci", "garbage", 3, [FSF]), depth=1)
    out = play(qipai.load("xiangqi"), [fsf, greedy()], clock={"bank": "30s"})
    assert [e["action"] for e in events(out, "refused")] == ["xyzzy"]
    assert out.record.meta["illegal_submissions"] == [1, 0]
    assert out.moves > 6 and out.result.reason != "illegal_moves"


def test_ucci_bans_a_refused_move_in_that_turn_only():
    door = UciPlayer(faulty("ucci", "illegal", 1, QIPAI + ["uci", "xiangqi"]), ucci=True, movetime=20)
    out = play(qipai.load("xiangqi", no_capture_plies=20), [door, greedy()])
    assert [e["action"] for e in events(out, "refused")] == ["e0e2"]
    bans = [s for s in sent(door) if s.startswith("banmoves")]
    # later turns may ban moves the repetition rules forbid (forbidden_moves), never the refused one
    assert bans[0] == "banmoves e0e2" and all("e0e2" not in s for s in bans[1:]) and out.moves > 2
