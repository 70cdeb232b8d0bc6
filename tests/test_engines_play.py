"""Engines from Python (EngineBot, engine_player), in `qipai play GAME --engine CMD` and in
events (`qipai event new --engine NAME=CMD`, the [engines] table)."""

from __future__ import annotations

import asyncio
import re

import pytest
from typer.testing import CliRunner

import qipai
from qipai.bots import RandomBot, make_bot
from qipai.cli import app
from qipai.core.errors import OptionError
from qipai.engines import EngineBot, engine_player, engine_spec, parse_engine
from qipai.engines.gtp import GtpPlayer
from qipai.engines.uci import UciPlayer
from qipai.match import BotPlayer, Forfeit, GameRunner, Player, RealTime
from tests import match_games  # noqa: F401  (registers test-high)
from tests.engine_helpers import FSF, GNUGO, GOMOCUP_TEST

runner = CliRunner()


def test_engine_names_commands_and_protocols_are_checked():
    spec = parse_engine("eleeye:ucci=/opt/eleeye/eleeye -x")
    assert (spec.name, spec.protocol, spec.command) == ("eleeye", "ucci", "/opt/eleeye/eleeye -x")
    for bad in ("no-command", "=cmd", "x:telnet=cmd", "x=\"unclosed"):
        with pytest.raises(OptionError):
            parse_engine(bad)
    with pytest.raises(OptionError):
        engine_spec("x", {"command": "c", "colour": "red"})
    assert isinstance(engine_player(qipai.load("xiangqi"), FSF), UciPlayer)
    assert isinstance(engine_player(qipai.load("go"), GNUGO), GtpPlayer)
    with pytest.raises(OptionError):
        engine_player(qipai.load("go"), GNUGO, "uci")
    with pytest.raises(OptionError):
        engine_player(qipai.load("doudizhu"), FSF, "uci")
    assert engine_player(qipai.load("doudizhu"), FSF).protocol == "botzone"   # its only protocol


def test_an_engine_bot_answers_positions_from_python_and_its_moves_are_refereed():
    game = qipai.load("xiangqi")
    state = game.new_state()
    with EngineBot(game, FSF, movetime=30) as bot:
        for _ in range(6):
            state.apply(bot.choose(state, state.current_player))
        pid = bot.door.engine.pid
        assert bot.door.engine.alive
    assert len(state.log) == 6 and pid is not None and not bot.door.engine.alive


def test_qipai_play_against_an_engine_in_the_terminal():
    r = runner.invoke(app, ["play", "xiangqi", "--engine", FSF, "--movetime", "50"],
                      input="h2e2\nquit\n")
    assert r.exit_code == 0, r.output
    assert "against engine:fairy-stockfish" in r.output and "Black plays " in r.output
    r = runner.invoke(app, ["play", "gomoku", "--seat", "1", "-o", "ruleset=freestyle", "--engine",
                            " ".join(GOMOCUP_TEST)], input="quit\n")
    assert r.exit_code == 0 and "Seat 0 plays h8" in r.output
    r = runner.invoke(app, ["play", "xiangqi", "--engine", "/nonexistent/engine"], input="quit\n")
    assert r.exit_code == 2 and "cannot start engine" in r.output


def test_an_event_with_an_engine_entrant(tmp_path):
    db = f"sqlite:///{tmp_path / 'ev.db'}"
    r = runner.invoke(app, ["event", "new", "--preset", "s3_xiangqi", "--bots", "1", "--bot", "greedy",
                            "--engine", f"fsf={FSF}", "--set", "engines.fsf.depth=1", "--db", db])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["event", "run", "--db", db])
    assert r.exit_code == 0, r.output
    assert "1 game played, finished" in r.output          # the engine's game was played out
    assert re.search(r"champion: (fsf|bot01); runner-up: (fsf|bot01)", r.output)
    r = runner.invoke(app, ["event", "new", "--preset", "s3_xiangqi", "--bots", "2", "--db", db,
                            "--set", 'engines.x="c"', "--set", "game.id=xiangqi"])
    assert r.exit_code == 0
    bad = tmp_path / "players.txt"
    bad.write_text("a bot=engine:nope\nb bot=greedy\n")
    r = runner.invoke(app, ["event", "new", "--preset", "s3_xiangqi", "--players", str(bad), "--db", db])
    assert r.exit_code == 2 and "unknown engine 'nope'" in r.output


def test_the_runners_forfeit_and_prepare_for_engines():
    """Forfeit follows the game's timeout rule: a loss on time in a board game, trusteeship for
    the rest of a card game; ``prepare`` is awaited before the first turn, off the clock."""
    class Quits(Player):
        def on_turn(self, runner, seat, turn):
            runner.submit(seat, Forfeit("engine_failed"))

    class SlowStart(BotPlayer):
        async def prepare(self, runner, seat):
            await asyncio.sleep(0.3)

    out = asyncio.run(GameRunner(qipai.load("test-high"), [Quits(), BotPlayer(RandomBot(1)),
                                                           BotPlayer(RandomBot(2))],
                                 clock={"move_cap": "5s", "on_cap": "auto"}).run())
    assert out.result.reason == "showdown" and out.record.actions[0] == "pass"
    assert [e["type"] for e in out.events][:2] == ["forfeit", "auto"]
    runner = GameRunner(qipai.load("xiangqi"), [SlowStart(make_bot("xiangqi", "greedy")), Quits()],
                        clock={"bank": "10s"}, time=RealTime())
    out = asyncio.run(runner.run())
    assert out.result.reason == "timeout" and out.result.winners == (0,)
    assert out.record.meta["times"][0][1] < 250          # Red's first move: the 0.3 s start is not on it
