"""The ``qipai gtp``, ``qipai uci xiangqi`` and ``qipai gomocup`` commands: qipai's bots and
referee behind the engine protocols (:mod:`qipai.engines.brains`), on standard input and
output, for GUIs (Sabaki, UCI xiangqi GUIs, Piskvork) and tournament managers."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

BotOpt = Annotated[str, typer.Option(help="The built-in bot that chooses the moves.")]
SeedOpt = Annotated[int | None, typer.Option(help="Random seed of the bot.")]
OptionArg = Annotated[list[str] | None, typer.Option("--option", "-o", help="Rule option NAME=VALUE.")]


def _options(game_id: str, pairs: list[str] | None) -> dict[str, Any]:
    from qipai.cli import _coerce, _parse_options

    return _coerce(game_id, _parse_options(pairs))


def _serve(brain: Any) -> None:
    try:
        brain.run(sys.stdin)
    except (KeyboardInterrupt, BrokenPipeError):
        pass


def gtp_cmd(bot: BotOpt = "greedy", seed: SeedOpt = None, option: OptionArg = None) -> None:
    """Play go as a GTP v2 engine on standard input and output."""
    from .brains import GtpBrain

    _serve(GtpBrain(sys.stdout, options=_options("go", option), bot=bot, seed=seed))


def uci_cmd(game_id: Annotated[str, typer.Argument(help="The game: xiangqi.")] = "xiangqi",
            bot: BotOpt = "greedy", seed: SeedOpt = None, option: OptionArg = None) -> None:
    """Play xiangqi as a UCI or UCCI engine on standard input and output.

    UCCI when greeted with `ucci`; moves in ICCS squares (ranks 0-9, as Pikafish)."""
    from qipai.cli import _fail

    from .brains import UciBrain

    if game_id != "xiangqi":
        _fail(f"qipai uci plays xiangqi, not {game_id!r}")
    _serve(UciBrain(sys.stdout, options=_options("xiangqi", option), bot=bot, seed=seed))


def gomocup_cmd(bot: BotOpt = "greedy", seed: SeedOpt = None, option: OptionArg = None) -> None:
    """Play gomoku / renju as a Gomocup (Piskvork) brain on standard input and output.

    INFO rule chooses freestyle (0), exactly five (1) or renju (4)."""
    from .brains import GomocupBrain

    _serve(GomocupBrain(sys.stdout, options=_options("gomoku", option), bot=bot, seed=seed))


bot_app = typer.Typer(help="Play on a qipai server through its Bot API (docs/engines.md).",
                      no_args_is_help=True)


@bot_app.command("connect")
def connect_cmd(
    server: Annotated[str, typer.Option(help="The server's address, e.g. http://127.0.0.1:8000.")],
    token: Annotated[str, typer.Option(envvar="QIPAI_TOKEN",
                                       help="An API token of the bot account (bot:play).")],
    engine: Annotated[str | None, typer.Option(help="An engine command, in its game's own "
                                                    "protocol (UCI for xiangqi, GTP for go, Gomocup "
                                                    "for gomoku).")] = None,
    gtp: Annotated[str | None, typer.Option(help="A GTP engine command (go).")] = None,
    gomocup: Annotated[str | None, typer.Option(help="A Gomocup engine command (gomoku).")] = None,
    botzone: Annotated[str | None, typer.Option(help="A Botzone JSON bot command (any game).")] = None,
    ucci: Annotated[str | None, typer.Option(help="A UCCI engine command (xiangqi).")] = None,
    bot: Annotated[str | None, typer.Option(help="A built-in bot (random, greedy, rule, ...).")] = None,
    movetime: Annotated[int, typer.Option(help="An engine's thinking time per move (ms), at most "
                                               "the time to the seat's deadline.")] = 1000,
    games: Annotated[int | None, typer.Option("--games", help="Stop after this many games.")] = None,
    challenge: Annotated[str | None, typer.Option(help="Challenge this account on connecting.")] = None,
    game: Annotated[str | None, typer.Option(help="The game of --challenge.")] = None,
    option: OptionArg = None,
    clock: Annotated[str | None, typer.Option(help="The clock preset of --challenge.")] = None,
    setting: Annotated[list[str] | None, typer.Option(
        "--set", help="A table setting of --challenge, NAME=VALUE (e.g. bot_delay_ms=0).")] = None,
) -> None:
    """Connect an engine or a built-in bot to a server account, like lichess-bot: accept the
    challenges of games it plays, and play every game that starts."""
    import asyncio

    from qipai.cli import _fail, console
    from qipai.core.errors import QipaiError
    from qipai.i18n import say

    from .connect import BotClient, choosers

    given = [(k, v) for k, v in (("engine", engine), ("gtp", gtp), ("gomocup", gomocup),
                                 ("botzone", botzone), ("ucci", ucci), ("bot", bot)) if v]
    if len(given) != 1:
        _fail("give exactly one of --engine, --gtp, --gomocup, --botzone, --ucci, --bot")
    if challenge and not game:
        _fail("--challenge needs --game")
    settings: dict[str, Any] = {"clock": clock} if clock else {}
    for pair in setting or []:
        name, sep, value = pair.partition("=")
        if not sep:
            _fail(f"--set {pair!r}: write NAME=VALUE")
        settings[name] = int(value) if value.lstrip("-").isdigit() else value
    client = BotClient(server, token, choosers(*given[0], movetime=movetime), max_games=games,
                       challenge=challenge, challenge_game=game,
                       options=_options(game, option) if game else {}, settings=settings,
                       out=lambda s: console.print(s, markup=False))
    try:
        n = asyncio.run(client.run())
    except KeyboardInterrupt:
        return
    except (QipaiError, OSError) as e:
        _fail(str(e))
    console.print(say("cli.bot.played", {"n": n}), markup=False)
