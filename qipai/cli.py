"""The ``qipai`` command line."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from qipai.console import LangOpt, console, err
from qipai.console import fail as _fail
from qipai.console import os_why as _os_why
from qipai.console import said as _said
from qipai.core import formats
from qipai.core.errors import IllegalAction, Message, QipaiError, RecordError
from qipai.core.record import replay as replay_record
from qipai.core.registry import game_class, load
from qipai.i18n import current, say

app = typer.Typer(help="qipai (棋牌): referee engine for Chinese board, card and tile games.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)


def _add_event_commands() -> None:
    from qipai.competition.cli import app as event_app

    app.add_typer(event_app, name="event")
    from qipai.server.accountcli import app as account_app

    app.add_typer(account_app, name="account")


_add_event_commands()


def _print_version(value: bool) -> None:
    if value:
        from qipai import __version__

        console.print(f"qipai {__version__}")
        raise typer.Exit()


@app.callback()
def _main(version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                                help="Print the version and exit.")] = False) -> None:
    """qipai (棋牌): referee engine for Chinese board, card and tile games."""


def _parse_options(pairs: list[str] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs or []:
        if "=" not in pair:
            _fail(f"option {pair!r} must be written NAME=VALUE")
        k, v = pair.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def _load(game_id: str, pairs: list[str] | None = None):
    try:
        game = load(game_id, **_coerce(game_id, _parse_options(pairs)))
    except QipaiError as e:
        _fail(_said(e))
    return game


def _coerce(game_id: str, opts: dict[str, Any]) -> dict[str, Any]:
    """Turn NAME=VALUE strings from the command line into the option's type."""
    from qipai.core.registry import _ALIASES

    real = _ALIASES.get(game_id, (game_id, {}))[0]
    spec = {o.name: o for o in game_class(real).option_spec}
    out = {}
    for k, v in opts.items():
        o = spec.get(k)
        if o is not None and o.choices is not None and v not in o.choices:
            for c in o.choices:      # "12" -> 12 when the choices are numbers
                if str(c) == v:
                    v = c
        if o is not None and o.nullable and v in ("none", "null", ""):
            v = None
        out[k] = v
    return out


OptionArg = Annotated[list[str] | None, typer.Option("--option", "-o", help="Rule option NAME=VALUE.")]


@app.command("games")
def games_cmd(lang: LangOpt = None) -> None:
    """List every game with its seats and options."""
    from qipai.core.registry import games

    for info in games():
        aliases = say("cli.games.also", {"aliases": info.aliases}) if info.aliases else ""
        # a game or rule set that is not for competition says so (Game.status, Option.marks)
        status = say("cli.games.status", {"mark": info.status}) if info.status else ""
        names = info.name_zh if current() == "zh" else f"{info.name_zh}  {info.name_en}"
        seats = say("cli.games.seats", {"seats": "/".join(map(str, info.seats))})
        console.print(f"[bold]{info.id}[/bold]  {escape(names)}  {escape(seats + aliases + status)}",
                      markup=True)
        for o in info.options:
            marked = [f"{c} [{say(f'cli.games.mark.{o.mark(c)}', default=o.mark(c).upper())}]"
                      if o.mark(c) else str(c) for c in o.choices or ()]
            choices = f" ({' | '.join(marked)})" if o.choices else ""
            console.print(f"    {o.name} = {o.default!r}{choices}", markup=False)


@app.command("replay")
def replay_cmd(
    files: Annotated[list[Path], typer.Argument(
        help="Record files (any supported format), or folders: every file in them.")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q",
                                        help="Print only failures and the summary.")] = False,
    lang: LangOpt = None,
) -> None:
    """Replay every game in the record files through the referee, checking every move and result."""
    ok = failed = 0
    paths = [p for f in files for p in (sorted(x for x in f.rglob("*") if x.is_file()
                                               and not x.name.startswith("."))
                                        if f.is_dir() else [f])]
    named = set(files)        # files found in a folder that hold no record are skipped, not failed
    skipped = 0
    for path in paths:
        try:
            data = path.read_bytes()
        except OSError as e:
            err.print(say("cli.cannotRead", {"path": str(path), "why": _os_why(e)}), markup=False)
            failed += 1
            continue
        if not data.strip():
            console.print(say("cli.replay.fail", {"what": say("cli.replay.empty", {"path": str(path)})}),
                          markup=False)
            failed += 1
            continue
        try:
            fmt, records = formats.read_records(data, str(path))
        except RecordError as e:
            if path not in named and "unrecognised record format" in str(e):
                skipped += 1
                continue
            console.print(say("cli.replay.fail", {"what": _said(e)}), markup=False)
            failed += 1
            continue
        for idx, record in enumerate(records, 1):
            label = f"{path}" + (say("cli.replay.game", {"n": idx}) if len(records) > 1 else "")
            try:
                state = replay_record(record, source=str(path))
            except RecordError as e:
                console.print(say("cli.replay.fail", {"what": _said(e)}), markup=False)
                failed += 1
                continue
            ok += 1
            if not quiet:
                res = state.result
                unknown = res and res.reason == "unknown"
                why = res and say("cli.replay.reason.unknown" if unknown else "cli.replay.reason",
                                  {"reason": res.reason})
                end = f"{res.text} {why}" if res else say("cli.replay.unfinished")
                console.print(say("cli.replay.ok", {"label": label, "game": record.game, "n": len(state.log),
                                                    "end": end}), markup=False)
    note = say("cli.replay.skipped", {"n": skipped}) if skipped else ""
    console.print(say("cli.replay.summary", {"n": ok + failed, "ok": ok, "failed": failed}) + note,
                  markup=False)
    if failed:
        raise typer.Exit(1)


@app.command("verify")
def verify_cmd(
    record: Annotated[Path, typer.Argument(
        help="A finished game's qipai JSON record (as downloaded, or the /api/records/{id} answer).")],
    secret: Annotated[str | None, typer.Option(
        "--secret", help="An event game whose record does not carry the event's secret yet: the secret "
                         "the event published when it ended (64 hex digits).")] = None,
    lang: LangOpt = None,
) -> None:
    """Re-derive every deal of a record from its revealed secret and nonces (competition.md §6.1,
    docs/fairness.md), check the commitment, deal again and say whether each deal matches.
    Exit status 1 when one does not (or the record has nothing to check), 2 when it cannot be read."""
    from qipai.competition.verify import load_record, verify_record

    try:
        rec = load_record(record.read_bytes())
    except (OSError, ValueError, QipaiError) as e:
        _fail(say("cli.verify.unreadable", {"path": str(record), "why": _said(e) if isinstance(e, QipaiError)
                                            else str(e)}))
    checks = verify_record(rec, event_secret=secret)
    for c in checks:
        where = say("cli.verify.deal", {"deal": c.deal, "attempt": c.attempt}) if c.deal else \
            say("cli.verify.record")
        said = say(f"refusal.{c.message.code}", c.message.params, default=str(c.message)) \
            if isinstance(c.message, Message) and current() != "en" else str(c.message)
        console.print(say("cli.verify.ok" if c.ok else "cli.verify.fail", {"where": where, "what": said}),
                      markup=False)
    if not all(c.ok for c in checks):
        raise typer.Exit(1)


@app.command("export")
def export_cmd(
    file: Annotated[Path, typer.Argument(help="A record file (any supported format).")],
    fmt: Annotated[str, typer.Option("--format", "-f",
                                     help="json, or the game's own format (pgn, pgn-chinese, sgf, ...).")]
    = "json",
    out: Annotated[Path | None, typer.Option("--out", "-O", help="Write here instead of stdout.")] = None,
    lang: LangOpt = None,
) -> None:
    """Replay a record file and write it again with canonical move text (qipai JSON by default)."""
    try:
        _, records = formats.read_records(file.read_bytes(), str(file))
        states = [replay_record(r, source=str(file)) for r in records]
        clean = [s.to_record(seats=r.seats, meta={k: v for k, v in r.meta.items()
                                                  if k not in ("move_lines", "game_index")})
                 for s, r in zip(states, records)]
        text = formats.write_records(clean, fmt.lower())
    except OSError as e:
        _fail(say("cli.cannotRead", {"path": str(file), "why": _os_why(e)}))
    except RecordError as e:
        _fail(_said(e))
    if out:
        try:
            out.write_text(text.rstrip("\n") + "\n", encoding="utf-8")
        except OSError as e:
            _fail(say("cli.cannotWrite", {"path": str(out), "why": _os_why(e)}))
    else:
        console.print(text, markup=False, soft_wrap=True)


@app.command("perft")
def perft_cmd(
    game_id: Annotated[str, typer.Argument(help="Game id, e.g. xiangqi.")],
    args: Annotated[list[str], typer.Argument(help="[POSITION] DEPTH")],
    option: OptionArg = None,
    lang: LangOpt = None,
) -> None:
    """Count the leaf nodes of the legal-move tree to DEPTH (move-generator check)."""
    import time

    if not args or not args[-1].isdecimal():
        _fail(say("cli.perft.usage"))
    depth = int(args[-1])
    position = " ".join(args[:-1]) or None
    game = _load(game_id, option)
    try:
        state = game.new_state(position=position)
    except QipaiError as e:
        _fail(_said(e))
    mod = importlib.import_module(type(game).__module__.rsplit(".", 1)[0])
    count_fn = getattr(mod, "perft", None) or _generic_perft
    t = time.perf_counter()
    n = count_fn(state, depth)
    dt = time.perf_counter() - t
    console.print(f"perft({depth}) = {n}", markup=False)
    rate = f"{n / dt if dt > 0 else 0:,.0f}"
    err.print(say("cli.perft.speed", {"s": f"{dt:.2f}", "rate": rate}), markup=False)


def _generic_perft(state, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for a in state.legal_actions():
        child = state.clone()
        child.apply(a)
        total += _generic_perft(child, depth - 1)
    return total


@app.command("moves")
def moves_cmd(
    game_id: Annotated[str, typer.Argument(help="Game id, e.g. xiangqi.")],
    position: Annotated[list[str] | None,
                        typer.Argument(help="Position (FEN for xiangqi); default start.")] = None,
    option: OptionArg = None,
    lang: LangOpt = None,
) -> None:
    """List the legal moves of a position in canonical notation."""
    game = _load(game_id, option)
    try:
        state = game.new_state(position=" ".join(position) if position else None)
    except QipaiError as e:
        _fail(_said(e))
    moves = [str(a) for a in state.legal_actions()]
    console.print(" ".join(moves), markup=False, soft_wrap=True)
    err.print(say("cli.moves.count", {"n": len(moves)}), markup=False)
    if state.is_terminal():
        err.print(say("cli.moves.over", {"text": state.result.text, "reason": state.result.reason}),
                  markup=False)


_FAN_HAND_HELP = ('Hand line: concealed tiles, melds, "+" the winning tile, "|" flags, e.g. '
                  '"123m 456p 789s 1p [CCC] + 1p | seat=E". Tiles: ranks then m/p/s (characters, dots, '
                  'bamboo); honors E S W N C F P (C red, F green, P white); melds [234m] chow, '
                  '[555p] pung, [5555p] kong, (5555p) concealed kong.')


@app.command("fan")
def fan_cmd(
    hand: Annotated[str, typer.Argument(help=_FAN_HAND_HELP)],
    self_drawn: Annotated[bool, typer.Option("--self-drawn", help="Won on own draw.")] = False,
    kong: Annotated[bool, typer.Option("--kong", help="Kong replacement / robbing a kong.")] = False,
    last: Annotated[bool, typer.Option("--last", help="Last tile of the wall.")] = False,
    fourth: Annotated[bool, typer.Option("--fourth", help="Fourth copy of the tile (和绝张).")] = False,
    seat: Annotated[str | None, typer.Option(help="Seat wind E/S/W/N.")] = None,
    round_wind: Annotated[str | None, typer.Option("--round", help="Prevalent wind E/S/W/N.")] = None,
    flowers: Annotated[int | None, typer.Option(help="Number of flowers.")] = None,
    english: Annotated[bool, typer.Option("--english", help="English fan names too.")] = False,
    lang: LangOpt = None,
) -> None:
    """Score a Guobiao mahjong hand: every fan, its value, and the total."""
    from qipai.games.mahjong_gb.fancli import fan_report

    try:
        console.print(fan_report(hand, self_drawn=self_drawn, kong=kong, last=last, fourth=fourth, seat=seat,
                                 round_wind=round_wind, flowers=flowers, english=english), markup=False)
    except QipaiError as e:
        _fail(_said(e))


@app.command("play")
def play_cmd(
    game_id: Annotated[str, typer.Argument(help="Game id, e.g. xiangqi or doudizhu.")],
    bot: Annotated[str, typer.Option(help="Opponent bot (see the game's docs).")] = "greedy",
    level: Annotated[int | None, typer.Option(
        help="Opponent level 1-5 instead of --bot: 1 random, 2 the rule bot, 3-5 search "
             "(MCTS) with growing budgets, where the game has it (docs/bots.md).")] = None,
    seat: Annotated[int, typer.Option(help="Your seat (0 moves first).")] = 0,
    seed: Annotated[int | None, typer.Option(help="Random seed for bots and deals.")] = None,
    option: OptionArg = None,
    engine: Annotated[str | None, typer.Option(
        help="Play against this engine program instead of a bot (UCI for xiangqi, GTP for go, "
             "Gomocup for gomoku), e.g. /usr/games/fairy-stockfish.")] = None,
    protocol: Annotated[str | None, typer.Option(
        help="The engine's protocol when not the game's default (ucci for xiangqi).")] = None,
    movetime: Annotated[int, typer.Option(help="The engine's thinking time per move (ms).")] = 1000,
    lang: LangOpt = None,
) -> None:
    """Play a game in the terminal against a built-in bot or an engine."""
    game = _load(game_id, option)
    from qipai.bots import bot_names

    if engine is not None:
        _play_engine(game, engine, protocol, movetime, seat, seed)
        return
    if level is not None:
        from qipai.bots import level_bot

        try:
            bot = level_bot(game.id, level)
        except QipaiError as e:
            _fail(_said(e))
    if bot not in bot_names(game.id):
        if bot == "greedy" and "rule" in bot_names(game.id):
            bot = "rule"
        else:
            _fail(say("cli.play.unknownBot", {"bot": bot, "game": game.id, "valid": bot_names(game.id)}))
    try:
        mod = importlib.import_module(type(game).__module__.rsplit(".", 1)[0] + ".play")
    except ModuleNotFoundError:
        _fail(say("cli.play.noTerminal", {"game": game.id}))

    def read_line(prompt: str) -> str:
        return console.input(prompt)

    try:
        mod.run(game, bot=bot, seat=seat, seed=seed, console=console, read_line=read_line)
    except (EOFError, KeyboardInterrupt):
        console.print("\n" + say("cli.bye"), markup=False)
    except IllegalAction as e:
        _fail(_said(e))


def _play_engine(game, command: str, protocol: str | None, movetime: int, seat: int,
                 seed: int | None) -> None:
    from qipai.engines import EngineBot, EngineError

    mod = importlib.import_module(type(game).__module__.rsplit(".", 1)[0] + ".play")
    try:
        opponent = EngineBot(game, command, protocol, movetime=movetime)
    except QipaiError as e:
        _fail(_said(e))
    try:
        opponent.start()
        mod.run(game, bot=opponent, seat=seat, seed=seed, console=console,
                read_line=lambda prompt: console.input(prompt))
    except (EOFError, KeyboardInterrupt):
        console.print("\n" + say("cli.bye"), markup=False)
    except (IllegalAction, EngineError) as e:
        _fail(_said(e))
    finally:
        opponent.close()


@app.command("migrate")
def migrate_cmd(
    database_url: Annotated[str | None, typer.Option(
        "--database-url", help="Any SQLAlchemy URL (default $QIPAI_DATABASE_URL, else the SQLite file "
                               "of $QIPAI_DATA_DIR).")] = None,
    lang: LangOpt = None,
) -> None:
    """Bring the database's schema to this version's newest migration, then stop (qipai serve
    does it too at its start; docs/deploy.md)."""
    from sqlalchemy import text

    from qipai.competition.db import open_db

    try:
        db = open_db(database_url)
    except QipaiError as e:
        _fail(str(e))
    with db() as s:
        rev = s.execute(text("SELECT version_num FROM alembic_version")).scalar()
    db.kw["bind"].dispose()
    console.print(say("cli.migrate.at", {"rev": rev}), markup=False)


@app.command("serve")
def serve_cmd(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    data_dir: Annotated[Path | None, typer.Option(
        "--data-dir", help="Folder of the SQLite file (default $QIPAI_DATA_DIR).")] = None,
    database_url: Annotated[str | None, typer.Option("--database-url", help="Any SQLAlchemy URL.")] = None,
    organizer: Annotated[list[str] | None,
                         typer.Option(help="Username that gets the organizer role.")] = None,
    allowed_origin: Annotated[list[str] | None, typer.Option(
        help="Another origin (scheme://host[:port]) whose pages may act on this server, e.g. the "
             "public address behind a proxy; repeatable; adds to $QIPAI_ALLOWED_ORIGINS.")] = None,
    forwarded_allow_ips: Annotated[str | None, typer.Option(
        help="Proxy addresses whose X-Forwarded-For/-Proto are trusted (comma-separated; "
             "default $FORWARDED_ALLOW_IPS, else 127.0.0.1,::1).")] = None,
    engine: Annotated[list[str] | None, typer.Option(
        help="An engine the lobby offers as an opponent: NAME=COMMAND, or NAME:PROTOCOL=COMMAND "
             "(uci, ucci, gtp, gomocup; found by greeting the engine when not named), or a "
             "Botzone JSON bot for any game: NAME:botzone:GAME=COMMAND; "
             "repeatable (docs/engines.md).")] = None,
    engines_file: Annotated[Path | None, typer.Option(
        "--engines", help="A TOML file whose \\[engines] table names the engines the lobby offers "
                          "with their settings (command, protocol, movetime, depth, options), "
                          "as an event's \\[engines] table.")] = None,
    storage_writer: Annotated[str, typer.Option(
        "--storage-writer", help="Where group commits run: 'thread' (a worker thread) or 'process' "
                                 "(a writer process of its own; see docs/server.md).")] = "thread",
    redis_url: Annotated[str | None, typer.Option(
        "--redis-url", help="Run as a worker of a cluster coordinated by this Redis (with a "
                            "PostgreSQL --database-url; default $QIPAI_REDIS_URL; docs/deploy.md).")] = None,
    workers: Annotated[int, typer.Option(
        help="Start this many workers sharing the port (needs --redis-url and PostgreSQL).")] = 1,
    internal_host: Annotated[str, typer.Option(
        help="Address where a worker takes requests relayed by the others (a port of its own).")]
        = "127.0.0.1",
    lease_seconds: Annotated[float | None, typer.Option(
        "--lease-seconds", help="A table's lease in a cluster: a stopped worker's tables move to "
                                "another after it (default $QIPAI_LEASE_SECONDS, else 2).")] = None,
    stall_seconds: Annotated[float | None, typer.Option(
        "--stall-seconds", help="How long a worker's event loop may be busy before its tables "
                                "are left to other workers (default $QIPAI_STALL_SECONDS, else 30).")]
        = None,
    signups_per_address: Annotated[int | None, typer.Option(
        "--signups-per-address", help="Sign-ups allowed from one client address in 10 minutes "
                                      "(default $QIPAI_SIGNUPS_PER_ADDRESS, else 30): raise it for "
                                      "a school or club whose players share one address.")] = None,
    lang: LangOpt = None,
) -> None:
    """Run the web server: lobby, live play, records and events (see docs/server.md)."""
    import os
    import sys

    from qipai.server import Settings, serve

    if workers < 1:
        raise typer.BadParameter("at least 1", param_hint="--workers")
    redis_url = redis_url or os.environ.get("QIPAI_REDIS_URL") or None
    if workers > 1:
        if not redis_url:
            _fail(say("cli.serve.workersNeedRedis"))
        if port == 0:
            _fail(say("cli.serve.workersNeedPort"))
        from qipai.server.workers import run_workers

        argv = sys.argv[sys.argv.index("serve") + 1:] if "serve" in sys.argv else []
        raise typer.Exit(run_workers(workers, argv))

    url = database_url
    if url is None and data_dir is not None:
        url = f"sqlite:///{data_dir / 'qipai.db'}"      # the folder is made (or refused) by serve
    if storage_writer not in ("thread", "process"):
        raise typer.BadParameter("'thread' or 'process'", param_hint="--storage-writer")
    try:
        settings = Settings(database_url=url, organizers=tuple(organizer or ()),
                            forwarded_allow_ips=forwarded_allow_ips, storage_writer=storage_writer,
                            redis_url=redis_url, internal_host=internal_host)
    except ValueError as e:          # a malformed $QIPAI_LEASE_SECONDS / $QIPAI_STALL_SECONDS
        _fail(str(e))
    for value, field, hint in ((lease_seconds, "lease_ms", "--lease-seconds"),
                               (stall_seconds, "stall_ms", "--stall-seconds")):
        if value is not None:
            if value <= 0:
                raise typer.BadParameter("a positive number of seconds", param_hint=hint)
            setattr(settings, field, round(value * 1000))
    if signups_per_address is not None:
        from qipai.server.config import signup_limit

        if signups_per_address < 1:
            raise typer.BadParameter("a whole number from 1", param_hint="--signups-per-address")
        settings.limits.signup_ip = signup_limit(signups_per_address)
    settings.allowed_origins += tuple(allowed_origin or ())
    settings.engines = _offered_engines(engine or [], engines_file)
    serve(host, port, settings)


def _offered_engines(texts: list[str], table: Path | None = None) -> tuple:
    import tomllib

    from qipai.engines import engine_spec, parse_engine

    given: list[tuple[str, Any]] = []
    if table is not None:
        try:
            data = tomllib.loads(table.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
            why = _os_why(e) if isinstance(e, OSError) else str(e)
            _fail(say("cli.serve.enginesUnreadable", {"path": str(table), "why": why}))
        engines = data.get("engines")
        if not isinstance(engines, dict) or not engines:
            _fail(say("cli.serve.enginesEmpty", {"path": str(table)}))
        given += [(f"--engines {table}: {name}", lambda n=name, v=v: engine_spec(n, v))
                  for name, v in engines.items()]
    given += [(f"--engine {text}", lambda t=text: parse_engine(t)) for text in texts]
    out = []
    for where, make in given:
        try:
            spec = make().detected()
        except QipaiError as e:                 # a bad NAME=COMMAND, an engine that cannot run
            _fail(say("cli.serve.engineBad", {"where": where, "why": _said(e)}))
        if any(e.name == spec.name for e in out):
            _fail(say("cli.serve.engineTwice", {"where": where, "name": spec.name}))
        out.append(spec)
        console.print(say("cli.serve.engine", {"name": spec.name, "game": spec.game,
                                               "protocol": spec.protocol}), markup=False)
    return tuple(out)


def _add_engine_commands() -> None:
    from qipai.engines.cli import bot_app, gomocup_cmd, gtp_cmd, uci_cmd

    app.add_typer(bot_app, name="bot")
    app.command("gtp")(gtp_cmd)
    app.command("uci")(uci_cmd)
    app.command("gomocup")(gomocup_cmd)


_add_engine_commands()


def main() -> None:  # pragma: no cover - entry point
    app()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
