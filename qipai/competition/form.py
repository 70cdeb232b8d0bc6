"""An event's editable fields, as an organizer's form shows them, and their checking.

:func:`form_fields` lists what an organizer may change in a preset: the game (any game, for
events not in a preset), the game's rule options, the clock of each stage and of extra games,
and the format (stage kind, rounds, table size, seeded places, how many go through a table,
games per match, what a level match or level totals lead to, deals, points tables). Each field
is ``{"path", "group", "type", "value", "choices", "nullable", "min", "label", "params"}``;
``label`` names a catalogue key (``field.<label>``; a game option's is ``option.<game>.<name>``).

The paths are the dotted paths of :func:`.config.set_fields`, with six read the form's way
(:func:`to_fields`): ``game.id`` replaces the whole game table (a preset's options belong to its
game), ``match.session.seats`` sets the stage's table size too, ``draw.seeded.count`` is 0 for a
random draw, ``match.session.ties`` is one word per tie rule, ``then.0.kind`` adds a second
stage after a ranking stage (a knockout of the best, §2.8 multi-stage; none removes it), and
``then.N.match.…`` (a later stage's clock, games per match, deals) starts from a copy of the
first stage's match, so changing one of its settings keeps the others.

:func:`check_form` checks a form's changes: each value against its field, then the whole event
(:func:`.event.prepare_event`); a refusal is a :class:`FieldError` naming the field, the value
and the values that would be accepted there.
"""

from __future__ import annotations

import copy
from typing import Any

import qipai
from qipai.core.errors import QipaiError
from qipai.core.registry import alias_options
from qipai.match.presets import suited_clocks

from .config import STAGES, TIEBREAKS, event_data, flatten_fields, set_fields
from .event import EventError, prepare_event

TIES = {"on_stage": "on_stage", "captured_points_then_on_stage": "captured_points_then_on_stage",
        "extra_deals_all": {"extra_deals": {"eligible": "all"}},
        "extra_deals_tied_only": {"extra_deals": {"eligible": "tied_only"}}}
SERIES_TIEBREAKS = ("sudden_death", "armageddon", "none")
STANDINGS = ("match_points", "game_points")
ROUNDS_STAGES = ("swiss", "swiss_or_round_robin", "table_swiss")
#: stages that end in a ranking, after which a second stage may take the best (§2.8)
RANKING_STAGES = ("round_robin", "swiss", "swiss_or_round_robin", "table_swiss")
#: what a second stage may be, from the form
THEN_KINDS = ("knockout", "table_knockout")


class FieldError(EventError):
    """A form's field that is refused: ``field`` (its path), ``value``, ``valid`` (the values
    accepted there, when they are a list) and the reason in English."""

    def __init__(self, field: str, value: Any, valid: list[Any] | None, reason: str) -> None:
        super().__init__(reason)
        self.field, self.value, self.valid = field, value, valid


def _field(path: str, group: str, kind: str, value: Any, label: str, *, choices: list[Any] | None = None,
           nullable: bool = False, low: float | None = None, **params: Any) -> dict[str, Any]:
    return {"path": path, "group": group, "type": kind, "value": value, "choices": choices,
            "nullable": nullable, "min": low, "label": label, "params": params}


def _ties_word(v: Any) -> str | None:
    return next((k for k, x in TIES.items() if x == v), None)


def to_fields(preset: str, changes: dict[str, Any]) -> dict[str, Any]:
    """The :func:`.config.set_fields` fields of a form's ``changes`` to ``preset``."""
    _, data = event_data(preset)
    out: dict[str, Any] = {}
    copied: set[str] = set()               # later stages whose match was copied from the first's
    gid = changes.get("game.id")
    if gid is not None and gid != (data.get("game") or {}).get("id"):
        out["game"] = {"id": gid}
        # a table of the new game's size, unless the form says which
        session = (data.get("match") or {}).get("session") or {}
        if session and not session.get("sides") and "match.session.seats" not in changes:
            try:
                sizes = qipai.load(gid).seats
            except QipaiError:
                sizes = ()
            if sizes and session.get("seats", 3) not in sizes:
                changes = {**changes, "match.session.seats": sizes[0]}
    for path, v in changes.items():
        if path == "game.id":
            continue
        if path == "then.0.kind":          # a second stage, or none
            session = (data.get("match") or {}).get("session") or {}
            take = session.get("seats", 3) if v == "table_knockout" else 4
            out["then"] = [{"kind": v, "take": take, "draw": "from_previous_stage"}] if v else []
            continue
        parts = path.split(".")
        if len(parts) > 3 and parts[0] == "then" and parts[2] == "match":
            stage = ".".join(parts[:2])
            given = (data.get("then") or [])[int(parts[1]):int(parts[1]) + 1]
            if stage not in copied and not (given and "match" in given[0]):
                # the first stage's match as the changes so far made it
                out[f"{stage}.match"] = copy.deepcopy(set_fields(data, out).get("match") or {})
                copied.add(stage)
        if "game" in out and path.startswith("game."):
            out["game"][path[5:]] = v
        elif path == "draw.seeded.count":
            out["draw"] = {"seeded": {"count": v}} if v else "random"
        elif path == "match.session.ties":
            out[path] = TIES.get(v, v)
        elif path == "match.session.seats":
            out[path] = v
            if (data.get("stage") or {}).get("seats") is not None:
                out["stage.seats"] = v
        else:
            out[path] = v
    return out


def form_fields(preset: str, changes: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The fields of ``preset`` with ``changes`` made (form paths), each with its value."""
    name, data = event_data(preset)
    data = set_fields(data, to_fields(name, changes or {}))
    game = dict(data.get("game") or {})
    gid = game.get("id")
    loaded = qipai.load(gid, **{k: v for k, v in game.items() if k != "id"})
    # the games and the aliases with rules of their own (renju, titanic); another id of a game
    # (tuolaji, tiaoqi) is that game, under its one name
    if alias_options(gid) == {}:
        gid = loaded.id
    ids = {g.id for g in qipai.games()} | {a for g in qipai.games() for a in g.aliases if alias_options(a)}
    out = [_field("game.id", "event", "choice", gid, "game.id", choices=sorted(ids)),
           # the event's games change the players' ratings (docs/server.md, "Ratings")
           _field("rated", "event", "bool", data.get("rated") is True, "rated")]
    match = data.get("match") or {}
    session = match.get("session")
    # a level session hands its own starting level and must-play levels to every deal
    # (measure.session_options): the session's fields, not the game's, say them
    handed: set[str] = set()
    if (session or {}).get("measure") == "level":
        handed = {"start_level"}
        if session.get("must_play_levels") is not None:
            handed.add("must_play_levels")
    for o in loaded.option_spec:
        if o.name in handed:
            continue
        d = o.describe()
        kind = "bool" if d["type"] == "bool" else "choice" if d["choices"] else d["type"]
        out.append(_field(f"game.{o.name}", "game", kind, loaded.options.get(o.name), "option",
                          choices=d["choices"], nullable=d["default"] is None, game=loaded.id, option=o.name))
    clocks = sorted(suited_clocks(loaded.id))    # not another game's rule-sheet clock
    stage = data.get("stage") or {}
    series = match.get("series")
    if series is not None:
        clk = series.get("clock", data.get("clock", "none"))
        if isinstance(clk, dict):
            for k, v in clk.items():
                label = "clock.extra" if k == "extra" else "clock.default" if k == "default" else "clock.game"
                out.append(_field(f"match.series.clock.{k}", "clock", "choice", v, label, choices=clocks,
                                  n=k))
        else:
            out.append(_field("match.series.clock", "clock", "choice", clk, "clock.match", choices=clocks))
    else:
        where = "match.session.clock" if "clock" in (session or {}) or "clock" not in data else "clock"
        value = (session or {}).get("clock", data.get("clock", "none"))
        out.append(_field(where, "clock", "choice", value, "clock.match", choices=clocks))
    out.append(_field("stage.kind", "format", "choice", stage.get("kind"), "stage.kind",
                      choices=list(STAGES)))
    if stage.get("kind") in ROUNDS_STAGES:
        out.append(_field("stage.rounds", "format", "int", stage.get("rounds"), "stage.rounds",
                          nullable=True, low=1))
    if stage.get("kind") == "swiss_or_round_robin":
        out.append(_field("stage.round_robin_if_entrants_at_most", "format", "int",
                          stage.get("round_robin_if_entrants_at_most"), "stage.rr_max", nullable=True, low=2))
    draw = data.get("draw", "random")
    seeded = draw["seeded"]["count"] if isinstance(draw, dict) and "seeded" in draw else 0
    out.append(_field("draw.seeded.count", "format", "int", seeded, "draw.seeded", low=0))
    if series is not None:
        out += [_field("match.series.scheduled", "format", "int", series.get("scheduled", 1),
                       "series.scheduled", low=1),
                _field("match.series.early_stop", "format", "bool", bool(series.get("early_stop", False)),
                       "series.early_stop"),
                _field("match.series.tiebreak", "format", "choice", series.get("tiebreak", "sudden_death"),
                       "series.tiebreak", choices=list(SERIES_TIEBREAKS)),
                _field("match.series.max_extra", "format", "int", series.get("max_extra"), "series.max_extra",
                       nullable=True, low=1)]
    if session is not None:
        if not session.get("sides"):
            out.append(_field("match.session.seats", "format", "choice", session.get("seats", 3),
                              "session.seats", choices=list(loaded.seats)))
            out.append(_field("match.session.advance", "format", "int", session.get("advance", 1),
                              "session.advance", low=1))
        end = session.get("end") or {}
        out.append(_field("match.session.end.deals", "format", "int", end.get("deals"), "session.deals",
                          nullable=True, low=1))
        target = end.get("target") or {}
        if "score_at_least" in target or session.get("measure", "score") == "score":
            out.append(_field("match.session.end.target.score_at_least", "format", "int",
                              target.get("score_at_least"), "session.target", nullable=True, low=1))
        if end.get("time_limit"):
            out.append(_field("match.session.end.time_limit.duration", "format", "text",
                              end["time_limit"].get("duration"), "session.time_limit"))
        for k in ("level_beyond", "level_at_least"):       # shengji's level targets (§2.3)
            if k in target:
                out.append(_field(f"match.session.end.target.{k}", "format", "int", target[k],
                                  f"session.{k}", low=2))
        if session.get("measure") == "level":
            out.append(_field("match.session.start_level", "format", "int", session.get("start_level", 2),
                              "session.start_level", low=2))
            if session.get("must_play_levels") is not None:      # else the game's option says
                out.append(_field("match.session.must_play_levels", "format", "list",
                                  session["must_play_levels"], "session.must_play_levels"))
        word = _ties_word(session.get("ties", {"extra_deals": {"eligible": "all"}}))
        if word is not None:
            out.append(_field("match.session.ties", "format", "choice", word, "session.ties",
                              choices=list(TIES)))
    # a named or numbered round's own rule (§2.5 round_overrides: the S0 shengji final), leaf by leaf
    for label, rule in (stage.get("round_overrides") or {}).items():
        for leaf, v in flatten_fields(rule if isinstance(rule, dict) else {}).items():
            path = f"stage.round_overrides.{label}.{leaf}"
            if leaf == "clock":
                out.append(_field(path, "clock", "choice", v, "round.clock", choices=clocks, round=label))
                continue
            kind = ("bool" if isinstance(v, bool) else "int" if isinstance(v, int)
                    else "number" if isinstance(v, float) else "text")
            out.append(_field(path, "format", kind, v, f"round.{leaf}", round=label,
                              low=1 if kind == "int" else None))
    then = data.get("then") or []
    if stage.get("kind") in RANKING_STAGES:
        out.append(_field("then.0.kind", "format", "choice", then[0].get("kind") if then else None,
                          "then.kind", choices=list(THEN_KINDS), nullable=True, n=2))
    for i, st in enumerate(then, 2):
        out.append(_field(f"then.{i - 2}.take", "format", "int", st.get("take"), "then.take", low=2, n=i))
        out += _stage_match_fields(f"then.{i - 2}.match", st.get("match") or match, data, clocks, i)
    # each stage's tie-break order (§2.8), the format's own unless changed
    for i, st in enumerate([stage, *(data.get("then") or [])]):
        names = TIEBREAKS.get(st.get("kind"), ())
        if names:
            value = st.get("tiebreaks")
            out.append(_field(f"stages.{i}.tiebreaks", "points", "order",
                              list(names) if value is None else value,
                              "stage.tiebreaks" if i == 0 else "then.tiebreaks", choices=list(names),
                              n=i + 1))
    if stage.get("kind") not in ("knockout", "table_knockout"):
        out.append(_field("standings", "points", "choice", data.get("standings", "match_points"), "standings",
                          choices=list(STANDINGS)))
    if series is not None:
        where = "match.series.game_points" if "game_points" in series else "game_points"
        gp = series.get("game_points") or data.get("game_points") or {}
        for k, default in (("win", 1), ("drawn", 0.5), ("loss", 0)):
            out.append(_field(f"{where}.{k}", "points", "number", gp.get(k, default), f"points.{k}"))
    pp = data.get("placement_points") or {}
    for k in ("champion", "runner_up", "other"):
        out.append(_field(f"placement_points.{k}", "points", "int", pp.get(k), f"placement.{k}",
                          nullable=True, low=0))
    return out


def _stage_match_fields(prefix: str, match: dict[str, Any], data: dict[str, Any], clocks: list[str],
                        n: int) -> list[dict[str, Any]]:
    """A later stage's match settings (its ``match``, else the first stage's): the clock, and a
    series' games, early stop, tie rule and extra games, or a session's deals and target."""
    out = []
    series, session = match.get("series"), match.get("session")
    if series is not None:
        clk = series.get("clock", data.get("clock", "none"))
        if not isinstance(clk, dict):       # a clock per game number stays as the preset has it
            out.append(_field(f"{prefix}.series.clock", "clock", "choice", clk, "then.clock", choices=clocks,
                              n=n))
        out += [_field(f"{prefix}.series.scheduled", "format", "int", series.get("scheduled", 1),
                       "then.series.scheduled", low=1, n=n),
                _field(f"{prefix}.series.early_stop", "format", "bool", bool(series.get("early_stop", False)),
                       "then.series.early_stop", n=n),
                _field(f"{prefix}.series.tiebreak", "format", "choice",
                       series.get("tiebreak", "sudden_death"), "then.series.tiebreak",
                       choices=list(SERIES_TIEBREAKS), n=n)]
    elif session is not None:
        out.append(_field(f"{prefix}.session.clock", "clock", "choice",
                          session.get("clock", data.get("clock", "none")), "then.clock", choices=clocks, n=n))
        end = session.get("end") or {}
        out.append(_field(f"{prefix}.session.end.deals", "format", "int", end.get("deals"),
                          "then.session.deals", nullable=True, low=1, n=n))
    return out


def _check_value(f: dict[str, Any], v: Any) -> str | None:
    """Why value ``v`` does not fit field ``f`` (None: it fits)."""
    if v is None:
        return None if f["nullable"] else "a value is needed"
    kind = f["type"]
    if kind == "choice" and v not in f["choices"]:
        return "not one of the choices"
    if kind == "order":
        if not isinstance(v, list) or any(x not in f["choices"] for x in v):
            return "a list of tie-breaks of this format"
        if len(set(v)) != len(v):
            return "each tie-break at most once"
    if kind == "bool" and not isinstance(v, bool):
        return "yes or no"
    if kind == "int" and (isinstance(v, bool) or not isinstance(v, int)):
        return "a whole number"
    if kind == "number" and (isinstance(v, bool) or not isinstance(v, int | float)):
        return "a number"
    if kind in ("int", "number") and f["min"] is not None and v < f["min"]:
        return f"at least {f['min']}"
    if kind == "text" and not isinstance(v, str):
        return "text"
    if kind == "list" and not isinstance(v, list):
        return "a list, e.g. [10, 13]"
    if kind == "float" and (isinstance(v, bool) or not isinstance(v, int | float)):
        return "a number"
    return None


def check_form(preset: str, changes: dict[str, Any]) -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
    """``(preset name, set_fields fields, the form's fields)`` of ``changes`` (form paths) once
    checked. Raises FieldError for the first field refused (its own value, or the event it
    makes), EventError for an unknown preset."""
    try:
        name, _ = event_data(preset)
    except QipaiError as e:
        raise EventError(str(e)) from None
    done: dict[str, Any] = {}
    for path, v in changes.items():
        fields = _fields_or_none(name, done)
        f = next((x for x in fields or () if x["path"] == path), None)
        if f is None:
            raise FieldError(path, v, None, f"{path}: this event has no such field")
        why = _check_value(f, v)
        if why is not None:
            valid = (f["choices"] if f["type"] in ("choice", "order")
                     else [True, False] if f["type"] == "bool" else None)
            raise FieldError(path, v, valid, f"{path} = {v!r}: {why}"
                             + (f"; valid: {', '.join(map(str, valid))}" if valid else ""))
        try:
            prepare_event(name, fields=to_fields(name, {**done, path: v}))
        except (EventError, QipaiError) as e:
            valid = None
            if f["choices"] and f["type"] == "choice":
                valid = [c for c in f["choices"] if c == f["value"] or _fits(name, {**done, path: c})]
            raise FieldError(path, v, valid, str(e)) from None
        done[path] = v
    return name, to_fields(name, done), form_fields(name, done)


def _fields_or_none(name: str, changes: dict[str, Any]) -> list[dict[str, Any]] | None:
    try:
        return form_fields(name, changes)
    except (EventError, QipaiError):
        return None


def _fits(name: str, changes: dict[str, Any]) -> bool:
    try:
        prepare_event(name, fields=to_fields(name, changes))
    except (EventError, QipaiError):
        return False
    return True
