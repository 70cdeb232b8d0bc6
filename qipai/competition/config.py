"""Event presets: one TOML file per event of the rule sheets (``qipai/competition/presets``).

A preset names the game and its options, the entrants (``individual`` or ``pairs``), the draw,
the stage format (``knockout``, ``table_knockout``, ``round_robin``, ``swiss``,
``swiss_or_round_robin``, ``table_swiss``) and the match rule (a ``[match.series]`` for
two-sided board games or a ``[match.session]`` for card tables), plus points tables.
``same_as`` copies another preset and overrides top-level keys.
:func:`load_preset` returns a validated :class:`EventConfig`; errors name the preset and key.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from qipai.core.errors import OptionError, why_inner

from .penalties import PenaltyRule, parse_penalties
from .rules import GamePoints, PlacementPoints, SeriesRule
from .sessionrule import SessionRule, merge_session

STAGES = ("knockout", "table_knockout", "round_robin", "swiss", "swiss_or_round_robin", "table_swiss")
TABLE_STAGES = ("table_knockout", "table_swiss")
#: the tie-breaks each format's standings can use (§2.8), in the order they apply unless the stage's
#: ``tiebreaks`` says another (the lot always comes last); a knockout ranks by its bracket, not by
#: tie-breaks
TIEBREAKS: dict[str, tuple[str, ...]] = {
    "round_robin": ("head_to_head", "sonneborn_berger", "wins"),
    "swiss": ("buchholz_cut1", "buchholz", "sonneborn_berger", "wins", "head_to_head"),
    "swiss_or_round_robin": ("buchholz_cut1", "buchholz", "sonneborn_berger", "wins", "head_to_head"),
    "table_swiss": ("measure",),
    "knockout": (),
    "table_knockout": (),
}


def preset_names() -> list[str]:
    files = resources.files("qipai.competition").joinpath("presets")
    return sorted(p.name[:-5] for p in files.iterdir() if p.name.endswith(".toml"))


def preset_data(name: str) -> dict[str, Any]:
    """The raw dict of preset ``name`` (after ``same_as``). Raises OptionError for an unknown one."""
    if name not in preset_names():
        raise OptionError(f"unknown preset {name!r}; valid presets: {', '.join(preset_names())}",
                          code="config.unknown_preset", params={"name": name})
    text = resources.files("qipai.competition").joinpath("presets", f"{name}.toml").read_text("utf-8")
    data = tomllib.loads(text)
    base = data.pop("same_as", None)
    if base:
        merged = preset_data(base)
        merged.update(data)
        data = merged
    return data


@dataclass
class EventConfig:
    name: str
    title: str
    game_id: str
    game_options: dict[str, Any]
    stage: str
    seats: int                         # entrants per match (2) or table size
    series: SeriesRule | None
    session: SessionRule | None
    game_points: GamePoints
    standings: str                     # match_points | game_points
    placement_points: PlacementPoints | None
    rr_max: int | None
    rounds: int | None                 # Swiss rounds (None: ceil(log2 N) + 2, at most N//2 + 1 and N - 1)
    raw: dict[str, Any]
    seeded: int = 0                    # draw: seeded{count}: the S best-rated get numbers 1..S
    double: bool = False               # round robin: everyone meets twice, first mover swapped
    pairs: bool = False                # entrants are fixed pairs of two accounts (partnership games)
    then: tuple[dict[str, Any], ...] = ()   # later stages: {kind, take, draw, ...} (multi-stage, §2.8)
    #: round label (``final``, ``semifinal``, ``quarterfinal``, ``round_N``) -> the match rule of
    #: that round (§2.5 ``round_overrides``)
    round_rules: dict[str, SeriesRule | SessionRule] = field(default_factory=dict)
    penalties: dict[str, PenaltyRule] = field(default_factory=dict)   # the ledger's kinds (§2.7)
    #: the stage's tie-break order (``stage.tiebreaks``); None: the format's own (:data:`TIEBREAKS`)
    tiebreaks: tuple[str, ...] | None = None

    def tiebreak_order(self, stage: str) -> tuple[str, ...]:
        """The tie-breaks the standings of a ``stage`` stage apply, in order (the lot after them)."""
        if self.tiebreaks is None:
            return TIEBREAKS[stage]
        return tuple(t for t in self.tiebreaks if t in TIEBREAKS[stage])

    def rule_for(self, label: str | None, number: int) -> SeriesRule | SessionRule:
        """The match rule of the stage's round ``number`` (1-based) whose knockout name is
        ``label`` (or None): the named override, else the ``round_N`` one, else the stage's."""
        base = self.series if self.series is not None else self.session
        assert base is not None
        if label is not None and label in self.round_rules:
            return self.round_rules[label]
        return self.round_rules.get(f"round_{number}", base)

    def stage_for(self, n: int) -> str:
        if self.stage == "swiss_or_round_robin":
            return "round_robin" if self.rr_max is not None and n <= self.rr_max else "swiss"
        return self.stage

    def swiss_rounds(self, n: int) -> int:
        if self.stage == "table_swiss":      # (choice) ceil(log_k N) + 2, as Swiss uses log2
            return self.rounds or max(1, math.ceil(math.log(max(n, 2)) / math.log(self.seats) - 1e-9) + 2)
        # the default never asks for more rounds than a small field can pair without rematches
        # (five players cannot always be paired for a fourth round)
        return self.rounds or max(1, min(n - 1, n // 2 + 1, math.ceil(math.log2(max(n, 2))) + 2))


TOP_KEYS = {"title", "source", "meet", "registration", "game", "entrants", "unit_limit", "draw", "stage",
            "match", "clock", "conduct", "penalties", "placement_points", "first_bidder", "standings",
            "game_points", "then", "engines", "rated"}
CONDUCT = {"partner_chat": ("on", "off"), "trick_review": ("all", "last_trick_only")}
FIRST_BIDDER = ("lot_then_rotate", "face_up_card")


#: the sections that must be tables when given (a plain value there is refused, naming it)
TABLES = ("registration", "game", "stage", "match", "game_points")
#: the keys a ``stage`` table may have (a later stage's come from :data:`THEN_KEYS`)
STAGE_KEYS = {"kind", "seats", "rounds", "double", "round_robin_if_entrants_at_most", "round_overrides",
              "tiebreaks"}
#: the match rules a ``match`` table holds: one of them
MATCH_KEYS = {"series", "session"}


def _whole_or_none(name: str, value: Any, field: str, least: int) -> None:
    """Refuse ``value`` unless it is None or a whole number of at least ``least``."""
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < least):
        raise OptionError(f"preset {name}: {field} must be a whole number of at least {least}, not {value!r}",
                          code="config.whole_number", params={"field": field, "least": least})


def _check_sections(name: str, data: dict[str, Any]) -> None:
    """The type of every section (a table, a text, a number where one is due) and the keys of
    ``stage`` and ``match``, so a plain value for a table, a misspelt key or a value of the wrong
    kind is refused naming its field, never ignored. Raises OptionError."""
    for key in TABLES:
        if key in data and not isinstance(data[key], dict):
            raise OptionError(f"preset {name}: {key} must be a table of settings, not {data[key]!r}",
                              code="config.not_table", params={"field": key})
    for key in ("title", "source"):
        if key in data and not isinstance(data[key], str):
            raise OptionError(f"preset {name}: {key} must be a text, not {data[key]!r}",
                              code="config.bad_value", params={"field": key})
    if "clock" in data and not isinstance(data["clock"], str | dict):
        raise OptionError(f"preset {name}: clock must be a clock preset's name or a table, "
                          f"not {data['clock']!r}",
                          code="config.bad_value", params={"field": "clock"})
    pp = data.get("placement_points")
    if pp is not None and pp != "none" and not isinstance(pp, dict):
        raise OptionError(f"preset {name}: placement_points must be a table or \"none\", not {pp!r}",
                          code="config.not_table", params={"field": "placement_points"})
    _whole_or_none(name, data.get("unit_limit"), "unit_limit", 1)
    stage = data.get("stage") or {}
    _known(name, "stage", stage, STAGE_KEYS)
    _whole_or_none(name, stage.get("rounds"), "stage.rounds", 1)
    _whole_or_none(name, stage.get("seats"), "stage.seats", 2)
    rr_max = "round_robin_if_entrants_at_most"
    _whole_or_none(name, stage.get(rr_max), f"stage.{rr_max}", 2)
    match = data.get("match") or {}
    _known(name, "match", match, MATCH_KEYS)
    for key in MATCH_KEYS & set(match):
        if not isinstance(match[key], dict):
            raise OptionError(f"preset {name}: match.{key} must be a table of settings, not {match[key]!r}",
                              code="config.not_table", params={"field": f"match.{key}"})


def _known(name: str, field: str, table: dict[str, Any], valid: set[str]) -> None:
    bad = set(table) - valid
    if bad:
        raise OptionError(f"preset {name}: {field}: unknown key(s) {sorted(bad)}; valid: {sorted(valid)}",
                          code="config.unknown_keys",
                          params={"field": field, "keys": sorted(bad), "valid": sorted(valid)})


def _check_top(name: str, data: dict[str, Any]) -> None:
    """Unknown top-level keys, each section's type (:func:`_check_sections`), ``conduct`` and
    ``first_bidder`` values. Raises OptionError."""
    bad = set(data) - TOP_KEYS
    if bad:
        raise OptionError(f"preset {name}: unknown key(s) {sorted(bad)}; valid: {sorted(TOP_KEYS)}",
                          code="config.unknown_keys",
                          params={"field": name, "keys": sorted(bad), "valid": sorted(TOP_KEYS)})
    _check_sections(name, data)
    conduct = data.get("conduct") or {}
    if not isinstance(conduct, dict):
        raise OptionError(f"preset {name}: conduct must be a table",
                          code="config.not_table", params={"field": "conduct"})
    for k, v in conduct.items():
        if k not in CONDUCT or v not in CONDUCT[k]:
            raise OptionError(f"preset {name}: conduct.{k} = {v!r} is not one of "
                              + "; ".join(f"{c} = {' | '.join(vs)}" for c, vs in CONDUCT.items()),
                              code="config.bad_value", params={"field": f"conduct.{k}"})
    if not isinstance(data.get("rated", False), bool):
        raise OptionError(f"preset {name}: rated must be true or false (the event's games update "
                          f"the players' ratings), not {data['rated']!r}",
                          code="config.not_bool", params={"field": "rated"})
    fb = data.get("first_bidder")
    if fb is not None and fb not in FIRST_BIDDER:
        raise OptionError(f"preset {name}: first_bidder must be {' or '.join(FIRST_BIDDER)}, not {fb!r}",
                          code="config.not_one_of",
                          params={"field": "first_bidder", "valid": list(FIRST_BIDDER)})


def set_fields(data: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    """A copy of preset ``data`` with each ``path: value`` of ``fields`` set: ``path`` is dotted
    keys into the preset's tables (``game.repetition_rule``, ``match.series.clock``,
    ``stage.rounds``; a number indexes a list: ``then.0.take``), creating tables on the way; the
    rest of the preset is kept. What the values mean is checked by :func:`parse_config` and by
    loading the game. Raises OptionError for a path that runs through a value that is not a table."""
    import copy

    out = copy.deepcopy(data)
    for path, value in fields.items():
        keys = stage_path(str(path)).split(".")
        if not path or any(not k for k in keys):
            raise OptionError(f"bad field path {path!r}: dotted names such as game.repetition_rule",
                              code="config.bad_path", params={"path": path})
        node: Any = out
        for i, key in enumerate(keys):
            last = i == len(keys) - 1
            where = ".".join(keys[:i]) or "the preset"
            if isinstance(node, list):
                if not key.isdigit() or int(key) >= len(node):
                    raise OptionError(f"{path}: {where} is a list of {len(node)}; "
                                      f"give an index 0..{len(node) - 1}",
                                      code="config.bad_path", params={"path": path})
                if last:
                    node[int(key)] = value
                else:
                    node = node[int(key)]
                continue
            if not isinstance(node, dict):
                raise OptionError(f"{path}: {where} is {node!r}, not a table",
                                  code="config.bad_path", params={"path": path})
            if last:
                node[key] = value
                continue
            if node.get(key) is None:
                node[key] = {}
            if not isinstance(node[key], dict | list):      # a short form: draw = "random"
                raise OptionError(f"{path}: {'.'.join(keys[:i + 1])} is {node[key]!r} in this preset, "
                                  "not a table; set it whole",
                                  code="config.bad_path", params={"path": path})
            node = node[key]
    return out


def stage_path(path: str) -> str:
    """``stages.N.KEY`` (N from 0: the event's stages in order) as the preset spells it:
    ``stage.KEY`` for the first stage, ``then.N-1.KEY`` for a later one; other paths as they are."""
    keys = path.split(".")
    if len(keys) >= 3 and keys[0] == "stages" and keys[1].isdigit():
        n = int(keys[1])
        return ".".join(["stage"] if n == 0 else ["then", str(n - 1)]) + "." + ".".join(keys[2:])
    return path


def parse_tiebreaks(name: str, kind: str, value: Any) -> tuple[str, ...] | None:
    """A stage's ``tiebreaks``: a list of the tie-breaks its format supports, each at most once,
    in the order they apply (None: the format's own order). Raises OptionError naming the valid
    ones."""
    if value is None:
        return None
    valid = TIEBREAKS[kind]
    if not isinstance(value, list) or any(not isinstance(t, str) for t in value):
        raise OptionError(f"preset {name}: stage.tiebreaks must be a list of tie-breaks; valid: "
                          f"{', '.join(valid) or 'none (a knockout has no tie-breaks)'}",
                          code="config.not_one_of", params={"field": "stage.tiebreaks", "valid": list(valid)})
    bad = [t for t in value if t not in valid]
    if bad:
        raise OptionError(f"preset {name}: stage.tiebreaks: unknown tie-break {bad[0]!r} for {kind}; valid: "
                          f"{', '.join(valid) or 'none (a knockout has no tie-breaks)'}",
                          code="config.not_one_of", params={"field": "stage.tiebreaks", "valid": list(valid)})
    if len(set(value)) != len(value):
        raise OptionError(f"preset {name}: stage.tiebreaks names a tie-break twice: {value}",
                          code="config.bad_value", params={"field": "stage.tiebreaks"})
    return tuple(value)


def flatten_fields(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Dotted paths of the leaves of nested tables (a list is a leaf):
    ``{"game": {"claim": "on_move"}}`` -> ``{"game.claim": "on_move"}``."""
    out: dict[str, Any] = {}
    for k, v in data.items():
        path = f"{prefix}{k}"
        if isinstance(v, dict) and v:
            out.update(flatten_fields(v, path + "."))
        else:
            out[path] = v
    return out


def event_data(spec: str | dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """``(name, preset data)`` of an event description: a preset's name; a table with
    ``preset = NAME`` whose other fields are set on that preset (each leaf by its path, the rest
    of the preset kept); or a whole event in the presets' format (named ``custom``). Raises
    OptionError."""
    if isinstance(spec, str):
        return spec, preset_data(spec)
    spec = dict(spec)
    base = spec.pop("preset", None)
    if base is None:
        return "custom", spec
    if not isinstance(base, str):
        raise OptionError(f"preset must be a preset's name, not {base!r}",
                          code="config.unknown_preset", params={"name": base})
    return base, set_fields(preset_data(base), flatten_fields(spec))


def parse_config(name: str, data: dict[str, Any]) -> EventConfig:
    """Validate a preset dict. Raises OptionError naming what is wrong."""
    _check_top(name, data)
    if data.get("meet") is not None and (not isinstance(data["meet"], str) or not data["meet"].strip()):
        raise OptionError(f"preset {name}: meet must be a meet's name (text), not {data['meet']!r}",
                          code="config.bad_value", params={"field": "meet"})
    try:
        game = dict(data["game"])
        game_id = game.pop("id")
    except (KeyError, TypeError):
        raise OptionError(f"preset {name}: missing game.id",
                          code="config.missing", params={"field": "game.id"}) from None
    entrants = data.get("entrants", "individual")
    if entrants not in ("individual", "pairs"):
        raise OptionError(f"preset {name}: entrants must be \"individual\" or \"pairs\", not {entrants!r}",
                          code="config.not_one_of",
                          params={"field": "entrants", "valid": ["individual", "pairs"]})
    stage = dict(data.get("stage") or {})
    kind = stage.get("kind")
    if kind not in STAGES:
        raise OptionError(f"preset {name}: stage.kind must be one of {', '.join(STAGES)}, not {kind!r}",
                          code="config.not_one_of", params={"field": "stage.kind", "valid": list(STAGES)})
    match = data.get("match") or {}
    series = session = None
    gp = GamePoints.from_dict(data.get("game_points"))
    if "series" in match:
        sd = dict(match["series"])
        if "game_points" not in sd and data.get("game_points"):
            sd["game_points"] = data["game_points"]
        series = SeriesRule.from_dict(sd, data.get("clock"))
        gp = series.game_points
        seats = 2
    elif "session" in match:
        session = SessionRule.from_dict(match["session"], data.get("clock"))
        seats = session.seats
        if stage.get("seats") is not None and stage["seats"] != seats:
            raise OptionError(f"preset {name}: stage.seats ({stage['seats']!r}) and match.session.seats "
                              f"({seats}) must agree: both are the table size",
                              code="config.conflict",
                              params={"field": "stage.seats", "other": "match.session.seats"})
    else:
        raise OptionError(f"preset {name}: [match.series] or [match.session] is required",
                          code="config.missing", params={"field": "match.series"})
    if session is not None and session.sides:
        if entrants != "pairs" or any(len(x) != 2 for x in session.sides) or len(session.sides) != 2:
            raise OptionError(f"preset {name}: a session of partnerships (sides) is played by two pair "
                              "entrants (entrants = \"pairs\", sides of two seats each)",
                              code="config.conflict",
                              params={"field": "match.session.sides", "other": "entrants"})
        if kind != "knockout":
            raise OptionError(f"preset {name}: a pair card table (a session with sides) is a two-sided "
                              f"match: the stage must be a knockout, not {kind}",
                              code="config.conflict",
                              params={"field": "match.session.sides", "other": "stage.kind"})
        seats = 2
    elif entrants == "pairs" and series is None:
        raise OptionError(f"preset {name}: pair entrants play two-sided matches: a [match.series], or a "
                          "[match.session] with sides (pair card tables)",
                          code="config.conflict", params={"field": "entrants", "other": "match.session"})
    elif kind in TABLE_STAGES and session is None:
        raise OptionError(f"preset {name}: {kind} needs a [match.session]",
                          code="config.missing", params={"field": "match.session"})
    elif kind not in TABLE_STAGES and series is None:
        raise OptionError(f"preset {name}: {kind} needs a [match.series]",
                          code="config.missing", params={"field": "match.series"})
    engines(name, data)
    seeded = parse_draw(name, data.get("draw", "random"))
    double = stage.get("double", False)
    if not isinstance(double, bool):
        raise OptionError(f"preset {name}: stage.double must be true or false",
                          code="config.not_bool", params={"field": "stage.double"})
    if double and kind not in ("round_robin", "swiss_or_round_robin"):
        raise OptionError(f"preset {name}: stage.double applies to a round robin, not {kind}",
                          code="config.conflict", params={"field": "stage.double", "other": "stage.kind"})
    standings = data.get("standings", "match_points")
    if standings not in ("match_points", "game_points"):
        raise OptionError(f"preset {name}: standings must be match_points or game_points",
                          code="config.not_one_of",
                          params={"field": "standings", "valid": ["match_points", "game_points"]})
    return EventConfig(name, data.get("title", name), game_id, game, kind, seats, series, session, gp,
                       standings, PlacementPoints.from_dict(data.get("placement_points")),
                       stage.get("round_robin_if_entrants_at_most"), stage.get("rounds"), data,
                       seeded, double, entrants == "pairs", _check_then(name, data, kind, seats),
                       _round_rules(name, data, kind, match), _penalties(name, data),
                       parse_tiebreaks(name, kind, stage.get("tiebreaks")))


def engines(name: str, data: dict[str, Any]) -> dict[str, Any]:
    """The event's ``[engines]`` table: NAME = command (or a table, see
    :func:`qipai.engines.engine_spec`); entrants play them as ``bot = "engine:NAME"``
    (docs/engines.md). Raises OptionError."""
    from qipai.engines import engine_spec

    table = data.get("engines") or {}
    if not isinstance(table, dict):
        raise OptionError(f"preset {name}: engines must be a table of NAME = command",
                          code="config.not_table", params={"field": "engines"})
    return {k: engine_spec(k, v) for k, v in table.items()}


def _penalties(name: str, data: dict[str, Any]) -> dict[str, PenaltyRule]:
    try:
        return parse_penalties(data.get("penalties"))
    except OptionError as e:
        raise OptionError(f"preset {name}: {e}",
                          code="config.in",
                          params=why_inner(e, "event.check_fields", field="engines")) from None


ROUND_NAMES = {"final": 1, "semifinal": 2, "quarterfinal": 4}   # knockout rounds by matches in them


def round_label(stage: str, matches: int) -> str | None:
    """The name of a knockout round of ``matches`` matches (byes included): ``final`` (one match;
    a table knockout's final table), ``semifinal``, ``quarterfinal``; None otherwise."""
    if stage == "table_knockout":
        return "final" if matches == 1 else None
    if stage == "knockout":
        return next((k for k, v in ROUND_NAMES.items() if v == matches), None)
    return None


def _round_rules(name: str, data: dict[str, Any], kind: str,
                 match: dict[str, Any]) -> dict[str, SeriesRule | SessionRule]:
    """``stage.round_overrides`` (§2.5): ``{label = {key = value, ...}}`` where a label is
    ``final``, ``semifinal``, ``quarterfinal`` (knockouts; a table knockout only has a
    ``final``) or ``round_N`` (the stage's N-th round, any format). Each override changes the
    match rule of that round: for a session ``target``, ``deals`` and ``time_limit`` replace
    those parts of ``end`` (a time limit keeps the parts it does not give), other keys replace
    session keys; for a series, keys replace series keys. Raises OptionError naming the preset,
    the round and the key."""
    over = (data.get("stage") or {}).get("round_overrides") or {}
    if not isinstance(over, dict):
        raise OptionError(f"preset {name}: stage.round_overrides must be a table of rounds",
                          code="config.not_table", params={"field": "stage.round_overrides"})
    out: dict[str, SeriesRule | SessionRule] = {}
    for label, changes in over.items():
        named = label in ROUND_NAMES
        numbered = label.startswith("round_") and label[6:].isdecimal() and int(label[6:]) >= 1 \
            and str(int(label[6:])) == label[6:]
        if not (named or numbered):
            raise OptionError(f"preset {name}: round_overrides: unknown round {label!r}; valid: final, "
                              "semifinal, quarterfinal, round_N (N = 1, 2, ...)",
                              code="config.not_one_of",
                              params={"field": "stage.round_overrides",
                                      "valid": ["final", "semifinal", "quarterfinal", "round_N"]})
        if named and kind not in ("knockout", "table_knockout"):
            raise OptionError(f"preset {name}: round_overrides.{label}: named rounds belong to knockouts, "
                              f"not {kind}; use round_N",
                              code="config.conflict",
                              params={"field": f"stage.round_overrides.{label}", "other": "stage.kind"})
        if named and kind == "table_knockout" and label != "final":
            raise OptionError(f"preset {name}: round_overrides.{label}: a table knockout only has a final "
                              "to name; use round_N for other rounds",
                              code="config.conflict",
                              params={"field": f"stage.round_overrides.{label}", "other": "stage.kind"})
        if not isinstance(changes, dict) or not changes:
            raise OptionError(f"preset {name}: round_overrides.{label} must be a non-empty table of "
                              "match settings",
                              code="config.not_table", params={"field": f"stage.round_overrides.{label}"})
        try:
            if "series" in match:
                sd = {**match["series"], **changes}
                if "game_points" not in sd and data.get("game_points"):
                    sd["game_points"] = data["game_points"]
                out[label] = SeriesRule.from_dict(sd, data.get("clock"))
            else:
                sd = merge_session(match["session"], changes)
                out[label] = SessionRule.from_dict(sd, data.get("clock"))
        except OptionError as e:
            raise OptionError(f"preset {name}: round_overrides.{label}: {e}",
                              code="config.in",
                              params=why_inner(e, "event.check_fields",
                                               field=f"stage.round_overrides.{label}")) from None
    return out


POINTS_STAGES = ("round_robin", "swiss", "swiss_or_round_robin", "table_swiss")
THEN_KEYS = {"kind", "take", "draw", "rounds", "double", "round_robin_if_entrants_at_most", "match",
             "round_overrides", "tiebreaks"}


def stage_data(data: dict[str, Any], number: int) -> dict[str, Any]:
    """The preset dict of stage ``number`` (1-based) of a multi-stage event: stage 1 is the
    preset itself; stage n >= 2 is ``then[n - 2]``: its ``kind`` and stage options replace
    ``stage``, its ``match`` (if any) replaces ``match``, and the draw is its own."""
    if number == 1:
        return data
    nxt = dict(data["then"][number - 2])
    out = {k: v for k, v in data.items() if k not in ("then", "stage", "draw")}
    out["stage"] = {k: v for k, v in nxt.items() if k not in ("take", "draw", "match")}
    if "match" in nxt:
        out["match"] = nxt["match"]
    return out


def _check_then(name: str, data: dict[str, Any], kind: str, seats: int) -> tuple[dict[str, Any], ...]:
    """Validate ``then``: the stages that follow stage 1 (§2.8 multi-stage events). Each is a
    table with ``kind`` (a stage format), ``take`` (how many of the previous stage's final order
    go on, at least a match's worth), ``draw`` (``from_previous_stage``: draw numbers 1..take in
    that order; ``random``: a new draw) and optional ``rounds``, ``double``,
    ``round_robin_if_entrants_at_most`` and ``match``. The stage before must end in a ranking
    (round robin, Swiss, table Swiss). Raises OptionError."""
    then = data.get("then") or []
    if not isinstance(then, list):
        raise OptionError(f"preset {name}: then must be a list of stages",
                          code="config.bad_value", params={"field": "then"})
    prev = kind
    out = []
    for i, st in enumerate(then, 2):
        if not isinstance(st, dict):
            raise OptionError(f"preset {name}: stage {i} must be a table",
                              code="config.not_table", params={"field": f"then.{i}"})
        bad = set(st) - THEN_KEYS
        if bad:
            raise OptionError(f"preset {name}: stage {i}: unknown key(s) {sorted(bad)}; "
                              f"valid: {sorted(THEN_KEYS)}",
                              code="config.unknown_keys",
                              params={"field": f"then.{i}", "keys": sorted(bad), "valid": sorted(THEN_KEYS)})
        if prev not in POINTS_STAGES:
            raise OptionError(f"preset {name}: stage {i} follows a {prev} stage, which ends with no "
                              f"ranking to take entrants from; stages before another must be "
                              f"{', '.join(POINTS_STAGES)}",
                              code="config.conflict", params={"field": f"then.{i}", "other": "stage.kind"})
        if st.get("draw", "from_previous_stage") not in ("from_previous_stage", "random"):
            raise OptionError(f"preset {name}: stage {i}: draw must be from_previous_stage or random",
                              code="config.not_one_of",
                              params={"field": f"then.{i}.draw", "valid": ["from_previous_stage", "random"]})
        sub = parse_config(f"{name} stage {i}", stage_data({**data, "then": then}, i))
        take = st.get("take")
        if not isinstance(take, int) or isinstance(take, bool) or take < sub.seats:
            raise OptionError(f"preset {name}: stage {i}: take must be a whole number of at least "
                              f"{sub.seats} (one match), not {take!r}",
                              code="config.whole_number",
                              params={"field": f"then.{i}.take", "least": sub.seats})
        out.append({**st, "draw": st.get("draw", "from_previous_stage")})
        prev = sub.stage
    return tuple(out)


def parse_draw(name: str, draw: Any) -> int:
    """The number of seeded places of a ``draw`` setting (§2.1): ``"random"`` -> 0,
    ``{seeded = {count = S}}`` -> S. Raises OptionError for anything else."""
    if draw == "random":
        return 0
    if isinstance(draw, dict) and set(draw) == {"seeded"} and isinstance(draw["seeded"], dict):
        count = draw["seeded"].get("count")
        if isinstance(count, int) and not isinstance(count, bool) and count >= 1 \
                and set(draw["seeded"]) == {"count"}:
            return count
    raise OptionError(f"preset {name}: draw must be \"random\" or {{seeded = {{count = S}}}} with S >= 1, "
                      f"not {draw!r}",
                      code="config.bad_value", params={"field": "draw"})


def load_preset(name: str) -> EventConfig:
    return parse_config(name, preset_data(name))
