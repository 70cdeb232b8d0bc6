"""``qipai event ...``: create, run, show events and enter results from the command line.

The database is ``$QIPAI_DATABASE_URL`` or the SQLite file in the data directory (``--db`` for
another URL). Without ``EVENT`` the most recent event is used.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from qipai.console import LangOpt, console, fail, said
from qipai.core.errors import QipaiError
from qipai.i18n import current, say

from .playerfile import read_players
from .showtext import champion, heading, render

app = typer.Typer(help="Events: draw, brackets, tables, standings (competition.md).", no_args_is_help=True)

DbOpt = Annotated[str | None, typer.Option("--db", help="Database URL or SQLite file (default: "
                                                        "QIPAI_DATABASE_URL or the SQLite file in the "
                                                        "data directory).")]
EventArg = Annotated[str | None, typer.Argument(help="Event id (default: the latest event).")]
EventOpt = Annotated[str | None, typer.Option("--event", "-e", help="Event id (default: the latest event).")]
ByOpt = Annotated[str, typer.Option("--by", help="Who acts (the organizer or referee), for the event's log.")]
ReasonOpt = Annotated[str, typer.Option("--reason", "-r", help="Why, for the event's log.")]


def _fail(message: str | QipaiError) -> None:
    """Stop with an error line: a text already worded, or a refusal in the chosen language."""
    fail(said(message) if isinstance(message, QipaiError) else message)


def _db(url: str | None):
    """The event database: a URL, or a plain file path taken as a SQLite file."""
    from .db import open_db

    if url and "://" not in url:
        url = f"sqlite:///{Path(url).expanduser().resolve()}"
    return open_db(url)


@app.command("presets")
def presets_cmd(lang: LangOpt = None) -> None:
    """List the event presets (one per event of the rule sheets): name, game, title."""
    from .config import preset_data, preset_names

    for name in preset_names():
        d = preset_data(name)
        gid = d.get("game", {}).get("id", "?")
        title = escape(say(f"preset.{name}", default=d.get("title", "")))
        console.print(f"[bold]{name}[/bold]  {gid}  {title}", markup=True, soft_wrap=True)


@app.command("new")
def new_cmd(
    preset: Annotated[str | None, typer.Option(
        "--preset", "-p", help="Preset name (see `qipai event presets`).")] = None,
    players: Annotated[Path | None, typer.Option("--players",
                                                 help="Players file (JSON, TOML or text).")] = None,
    bots: Annotated[int, typer.Option(help="Or: this many bot players named bot01, bot02, ... (pairs: "
                                           "bot01 of bot01a and bot01b, ...)")] = 0,
    bot: Annotated[str, typer.Option(help="Bot for --bots.")] = "random",
    engine: Annotated[list[str] | None, typer.Option(
        help="An engine entrant NAME=COMMAND (NAME:PROTOCOL=COMMAND for another protocol), e.g. "
             "fsf=/usr/games/fairy-stockfish: kept in the event's \\[engines] table and entered as "
             "player NAME (repeat for more; docs/engines.md).")] = None,
    event_id: Annotated[str | None, typer.Option("--id", help="Event id (default: preset + hash).")] = None,
    name: Annotated[str | None, typer.Option(help="Event name.")] = None,
    seeded: Annotated[int, typer.Option(help="Seed this many best-rated players (draw numbers 1..N "
                                             "by rating); the rest by lot.")] = 0,
    secret: Annotated[str | None, typer.Option(
        help="The event's secret, 64 hex digits (default: drawn from the system's random source); "
             "every draw, lot, seat and deal derives from it (competition.md §6.1).")] = None,
    meet: Annotated[str | None, typer.Option(
        help="The meet this event belongs to: its units' placement points add up across the meet's "
             "events (qipai event units MEET).")] = None,
    config: Annotated[Path | None, typer.Option(
        "--config", help="An event in TOML: preset = NAME and the fields to change, or a whole event "
                         "in the presets' format.")] = None,
    set_: Annotated[list[str] | None, typer.Option(
        "--set", help="Change one field of the event: PATH=VALUE, e.g. "
                      "game.repetition_rule=seed000_same_move, match.series.clock=xq_s2_15s, "
                      "stage.rounds=5 (repeat for more).")] = None,
    db: DbOpt = None,
    lang: LangOpt = None,
) -> None:
    """Create an event: the draw is made and round 1 paired."""
    from .config import event_data
    from .event import create_event

    try:
        plist = read_players(players) if players else []
        spec: Any = preset
        if config is not None:
            try:
                spec = tomllib.loads(config.read_text(encoding="utf-8"))
            except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
                _fail(say("cli.ev.unreadable", {"path": str(config), "why": str(e)}))
            if preset is not None:
                spec = {"preset": preset, **spec}
        elif preset is None:
            _fail(say("cli.ev.needSpec"))
        fields = dict(_field(x) for x in set_ or [])
        if meet is not None:
            fields["meet"] = meet
        if engine:
            from qipai.engines import parse_engine

            entered = [parse_engine(text) for text in engine]
            # the engines' tables first: a --set engines.NAME.movetime=... changes them
            fields = {**{f"engines.{e.name}": e.to_json() for e in entered}, **fields}
            plist += [{"id": e.name, "bot": f"engine:{e.name}"} for e in entered]
        pairs = event_data(spec)[1].get("entrants") == "pairs"
        plist += [{"id": f"bot{i:02d}", "bot": bot, **({"members": [f"bot{i:02d}a", f"bot{i:02d}b"]}
                                                       if pairs else {})} for i in range(1, bots + 1)]
        if not plist:
            _fail(say("cli.ev.needPlayers"))
        over = {"draw": {"seeded": {"count": seeded}}} if seeded else None
        if secret is not None and not re.fullmatch(r"[0-9a-f]{64}", secret):
            _fail(say("cli.ev.badSecret"))
        eid = create_event(_db(db), spec, plist, event_id=event_id, name=name, overrides=over,
                           secret=secret, fields=fields)
    except QipaiError as e:
        _fail(e)
    console.print(say("cli.ev.created", {"id": eid}), markup=False)


def _field(text: str) -> tuple[str, Any]:
    """``PATH=VALUE`` of ``--set``: the value read as TOML (5, true, "x", [1, 2], {a = 1}), else
    as the text itself (seed000_same_move)."""
    path, sep, value = text.partition("=")
    if not sep or not path.strip():
        _fail(say("cli.ev.badSet", {"text": text}))
    try:
        parsed: Any = tomllib.loads(f"v = {value}")["v"]
    except tomllib.TOMLDecodeError:
        parsed = value
    return path.strip(), parsed


@app.command("run")
def run_cmd(event: EventArg = None, max_games: Annotated[int | None, typer.Option(
        min=0, help="Stop after this many games.")] = None, quiet: bool = False, db: DbOpt = None,
        lang: LangOpt = None) -> None:
    """Play the pending games whose seats are all bots; stop when the event ends or waits for
    results entered with `qipai event result`."""
    from .event import run_event

    def show(g) -> None:
        if not quiet:
            r = g.result
            console.print(say("cli.ev.played", {"id": g.id, "round": g.match.round, "match": g.match.index,
                                                "number": g.number, "text": r["text"],
                                                "reason": r["reason"], "n": r["moves"]}), markup=False)

    try:
        out = run_event(_db(db), event, max_games=max_games, on_game=show)
    except QipaiError as e:
        _fail(e)
    console.print(say("cli.ev.ran", {"event": out["event"], "n": out["played"], "status": out["status"]}),
                  markup=False)
    if out["outcome"]:
        champion(out["outcome"])
    elif out["waiting"]:
        console.print(say("cli.ev.waiting", {"games": [str(g) for g in out["waiting"]]}), markup=False)


@app.command("result", context_settings={"ignore_unknown_options": True})
def result_cmd(game: Annotated[int, typer.Argument(help="Game number as shown by `event show`.")],
               result: Annotated[str, typer.Argument(help="Result text (1-0, 0-1, 1/2-1/2) or seat "
                                                          "scores separated by commas.")],
               event: EventOpt = None,
               moves: Annotated[int | None, typer.Option(
                   min=0, help="Moves completed (short-game rule).")] = None,
               duration: Annotated[str | None, typer.Option(
                   help="How long the game or deal took (e.g. 95s, 12m, 1500ms), for session time "
                        "limits.")] = None,
               by: ByOpt = "organizer", reason: ReasonOpt = "",
               db: DbOpt = None, lang: LangOpt = None) -> None:
    """Enter the result of a pending game. Recorded in the event's log (`event log`) with who
    entered it (--by) and why (--reason)."""
    from .acts import Act
    from .event import enter_result

    try:
        g = enter_result(_db(db), event, game, result, moves, duration,
                         log=Act("enter_result", by, reason.strip()))
    except QipaiError as e:
        _fail(e)
    console.print(say("cli.ev.entered", {"id": g.id, "text": g.result["text"]}), markup=False)


@app.command("confirm")
def confirm_cmd(game: Annotated[int, typer.Argument(help="Game number as shown by `event show`.")],
                by: Annotated[str, typer.Option("--by", help="The player confirming (an entrant id, or a "
                                                             "pair member's account).")] = "",
                referee: Annotated[str | None, typer.Option(
                    help="A referee confirming the result at once (the referee's name).")] = None,
                reason: Annotated[str, typer.Option(help="Why (a referee's confirmation).")] = "",
                event: EventOpt = None, db: DbOpt = None, lang: LangOpt = None) -> None:
    """Confirm the result of a finished game (competition.md §5.7): each player of the game
    (--by), or a referee at once (--referee). Recorded in the event's log (`event log`)."""
    from .results import confirm_result

    if not by and not referee:
        _fail(say("cli.ev.whoConfirms"))
    try:
        out = confirm_result(_db(db), event, game, referee or by, referee=referee is not None, reason=reason)
    except QipaiError as e:
        _fail(e)
    console.print(say("cli.ev.confirmed", {"id": game}) if out["confirmed"] else
                  say("cli.ev.confirmedBy", {"id": game, "by": out["confirmed_by"],
                                             "waiting": out["waiting"]}),
                  markup=False)


@app.command("correct", context_settings={"ignore_unknown_options": True})
def correct_cmd(game: Annotated[int, typer.Argument(help="Game number as shown by `event show`.")],
                result: Annotated[str, typer.Argument(
                    help="The correct result, as `event result` takes it.")],
                by: Annotated[str, typer.Option("--by", help="The referee or organizer correcting it.")],
                reason: Annotated[str, typer.Option(help="Why the result is corrected (required).")],
                moves: Annotated[int | None, typer.Option(
                    min=0, help="Moves completed (short-game rule); default: as stored.")] = None,
                event: EventOpt = None, db: DbOpt = None, lang: LangOpt = None) -> None:
    """Correct the result of a finished game (competition.md §5.7): its match is decided again,
    standings follow, and a knockout's later rounds are paired again if nobody has played them
    yet. Recorded in the event's log with who and why."""
    from .results import correct_result

    try:
        out = correct_result(_db(db), event, game, result, by=by, reason=reason, moves=moves)
    except QipaiError as e:
        _fail(e)
    again = say("cli.ev.repaired", {"rounds": [str(r) for r in out["repaired"]]}) if out["repaired"] else ""
    console.print(say("cli.ev.corrected", {"id": game, "from": out["from"], "to": out["to"]}) + again,
                  markup=False)


@app.command("log")
def log_cmd(event: EventArg = None, db: DbOpt = None, lang: LangOpt = None) -> None:
    """The event's log of referee acts, disputes and confirmations, oldest first."""
    from .acts import event_log
    from .ops import _event

    try:
        with _db(db)() as s:
            rows = event_log(s, _event(s, event).id)
    except QipaiError as e:
        _fail(e)
    for r in rows:
        what = " ".join(say(f"cli.ev.log.{k}", {"v": r[k]}) for k in ("game", "table", "entrant")
                        if r[k] is not None)
        data = _log_data(r["data"])
        console.print(say("cli.ev.log.line", {"at": r["at"], "act": r["act"], "by": r["by"]})
                      + (f" — {what}" if what else "")
                      + (say("cli.ev.log.data", {"data": data}) if data else "")
                      + (say("cli.ev.log.reason", {"reason": r["reason"]}) if r["reason"] else ""),
                      markup=False)


def _log_data(data: dict[str, Any]) -> str:
    """An entry's data as ``name=value`` pairs, the names (and a penalty's kind) in the chosen
    language; the English account of a penalty's effect only in English."""
    out = []
    for k, v in data.items():
        if k == "players" or (k == "effect" and current() != "en"):
            continue
        if k == "kind":
            v = say("cli.ev.kind", {"kind": v})
        elif isinstance(v, bool):
            v = say(f"cli.ev.bool.{v}")
        elif isinstance(v, list):
            v = ", ".join(map(str, v))
        out.append(f"{say(f'cli.ev.data.{k}', default=k)}={v}")
    return ", ".join(out)


@app.command("withdraw")
def withdraw_cmd(player: Annotated[str, typer.Argument(help="The player's entrant id, as in the players "
                                                             "file and `event show`.")],
                 by: ByOpt = "organizer", reason: ReasonOpt = "",
                 event: EventOpt = None, db: DbOpt = None, lang: LangOpt = None) -> None:
    """Withdraw a player. Its pending game becomes a forfeit (same game number) and its later
    two-sided matches are forfeits; at a card table its seat is played automatically, ranked last.
    Recorded in the event's log with who (--by) and why (--reason)."""
    from .acts import Act
    from .event import withdraw

    try:
        withdraw(_db(db), event, player, log=Act("withdraw", by, reason.strip()))
    except QipaiError as e:
        _fail(e)
    console.print(say("cli.ev.withdrawn", {"who": player}), markup=False)


@app.command("noshow")
def noshow_cmd(players: Annotated[list[str], typer.Argument(help="The entrant ids of the absent players "
                                                                "(name them all at once).")],
               by: ByOpt = "organizer", reason: ReasonOpt = "",
               event: EventOpt = None, db: DbOpt = None, lang: LangOpt = None) -> None:
    """Declare players absent from their pending match after the grace period: walkover (or
    an empty slot if both are absent); at a table, absent seats are played by trusteeship.
    Recorded in the event's log with who (--by) and why (--reason)."""
    from .acts import Act
    from .event import no_show

    try:
        no_show(_db(db), event, players, log=Act("no_show", by, reason.strip()))
    except QipaiError as e:
        _fail(e)
    console.print(say("cli.ev.absent", {"who": players}), markup=False)


@app.command("penalty")
def penalty_cmd(player: Annotated[str, typer.Argument(help="The player's entrant id, as in the players "
                                                           "file and `event show`.")],
                kind: Annotated[str, typer.Argument(help="A penalty kind the preset lists for referees "
                                                         "(deal_fault, follow_error, deal_forfeit).")],
                reason: Annotated[str, typer.Option("--reason", "-r", help="Why (shown with the entry).")],
                by: Annotated[str, typer.Option("--by", help="The referee entering it (in the event's log).")]
                = "organizer",
                event: EventOpt = None, db: DbOpt = None, lang: LangOpt = None) -> None:
    """Record a referee's penalty against a player's pending match (competition.md §2.7) and apply
    it: deal_fault disqualifies at the preset's count; follow_error costs a level after the deal in
    play and loses the match at the preset's count; deal_forfeit loses the deal in play."""
    from .penalties import penalize

    try:
        out = penalize(_db(db), event, player, kind, reason, by=by)
    except QipaiError as e:
        _fail(e)
    effects = "".join(say(f"cli.ev.penalty.{x}", out) for x in out["effects"])
    console.print(say("cli.ev.penalty", out) + effects, markup=False)


@app.command("disqualify")
def disqualify_cmd(player: Annotated[str, typer.Argument(help="The player's entrant id.")],
                   by: Annotated[str, typer.Option("--by", help="The referee disqualifying the player.")],
                   reason: Annotated[str, typer.Option("--reason", "-r", help="Why (required).")],
                   event: EventOpt = None, db: DbOpt = None, lang: LangOpt = None) -> None:
    """Disqualify a player (competition.md §2.7): its pending match is lost at once (card tables:
    its seat is played automatically), it is ranked last and scores no placement points. Recorded
    in the event's log."""
    from .ops import disqualify

    if not reason.strip():
        _fail(say("cli.ev.needReason"))
    try:
        disqualify(_db(db), event, player, by=by, reason=reason.strip())
    except QipaiError as e:
        _fail(e)
    console.print(say("cli.ev.disqualified", {"who": player}), markup=False)


@app.command("void")
def void_cmd(game: Annotated[int, typer.Argument(help="A pending game's number, as `event show` gives it.")],
             by: Annotated[str, typer.Option("--by", help="The referee voiding the game.")],
             reason: Annotated[str, typer.Option("--reason", "-r", help="Why (required).")],
             event: EventOpt = None, db: DbOpt = None, lang: LangOpt = None) -> None:
    """Void a pending game and order it replayed (competition.md §5.7): dealt again with the next
    RNG attempt, or the same deal at a duplicate table. Recorded in the event's log."""
    from .acts import Act
    from .ops import void_game

    if not reason.strip():
        _fail(say("cli.ev.needReason"))
    try:
        void_game(_db(db), event, game, {"by": by, "reason": reason.strip()},
                  log=Act("void", by, reason.strip()))
    except QipaiError as e:
        _fail(e)
    console.print(say("cli.ev.voided", {"id": game}), markup=False)


@app.command("units")
def units_cmd(meet: Annotated[str, typer.Argument(help="The meet's name (qipai event new --meet).")],
              as_csv: Annotated[bool, typer.Option("--csv", help="CSV instead of a table.")] = False,
              db: DbOpt = None, lang: LangOpt = None) -> None:
    """Unit (team) standings across the events of a meet: each unit's placement points summed."""
    from .meet import unit_standings, units_csv

    try:
        st = unit_standings(_db(db), meet)
    except KeyError:
        _fail(say("cli.ev.noMeet", {"meet": meet}))
    except QipaiError as e:
        _fail(e)
    if as_csv:
        sys.stdout.write(units_csv(st))
        return
    t = Table(title=heading("units.title", {"meet": meet}))
    for c in ("rank", "unit", "points", "champions", "runners"):
        t.add_column(heading(f"cli.ev.col.{c}"))
    for e in st["events"]:
        t.add_column(escape(e["id"]))
    for u in st["units"]:
        t.add_row(str(u["rank"]), u["unit"], f"{u['points']:g}", str(u["champions"]), str(u["runners_up"]),
                  *(f"{u['by_event'][e['id']]:g}" if e["id"] in u["by_event"] else "-" for e in st["events"]))
    console.print(t)
    running = [e["id"] for e in st["events"] if e["status"] != "finished"]
    if running:
        console.print(say("cli.ev.stillRunning", {"events": running}), markup=False)


@app.command("export")
def export_cmd(event: EventArg = None,
               table: Annotated[str, typer.Option(
                   "--table", help="pairings, results or standings.")] = "standings",
               db: DbOpt = None, lang: LangOpt = None) -> None:
    """An event's pairings, results or standings as CSV (to standard output)."""
    from .event import Director, _event
    from .meet import EXPORTS, event_csv

    if table not in EXPORTS:
        _fail(say("cli.ev.badTable", {"valid": list(EXPORTS), "table": table}))
    try:
        with _db(db)() as s:
            sys.stdout.write(event_csv(Director(s, _event(s, event)), table))
    except QipaiError as e:
        _fail(e)


@app.command("list")
def list_cmd(db: DbOpt = None, lang: LangOpt = None) -> None:
    """List the events in the database."""
    from sqlalchemy import select

    from .db import EventRow

    try:
        factory = _db(db)
    except QipaiError as e:
        _fail(e)
    with factory() as s:
        events = s.scalars(select(EventRow).order_by(EventRow.created)).all()
        if not events:
            console.print(say("cli.ev.none"), markup=False)
        for ev in events:
            champ = (ev.outcome or {}).get("champion", "")
            status = say(f"cli.ev.status.{ev.status}", default=ev.status)
            console.print(f"{ev.id}  {ev.preset}  {status}  {champ}", markup=False)


@app.command("show")
def show_cmd(event: EventArg = None, db: DbOpt = None, lang: LangOpt = None) -> None:
    """Show the draw, every round's pairings or tables with results, and the standings."""
    from .event import Director, _event

    try:
        with _db(db)() as s:
            ev = _event(s, event)
            last = Director(s, ev)
            for n in range(1, last.stage_no + 1):      # every stage begun (multi-stage events)
                render(Director(s, ev, n), header=n == 1, footer=n == last.stage_no)
    except QipaiError as e:
        _fail(e)
