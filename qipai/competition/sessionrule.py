"""The session rule of card tables as data and pure functions (competition.md §2.3, §2.4):
:class:`SessionRule` and :func:`session_status` — the deals of a card table: target score or
level, number of deals, time limit (the deal in progress is finished), extra deals on a tie,
the ranking of the seats or sides at the end.

Everything here is deterministic given its inputs; randomness (lot) is passed in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from qipai.core.errors import OptionError

from ..match.clock import duration_ms
from .rules import check_clock, check_keys

MEASURES = ("score", "level", "placement")
LEVEL_TIES = ("on_stage", "captured_points_then_on_stage")
LEVEL_TARGETS = {"level_beyond": "beyond", "level_at_least": "at_least"}


@dataclass(frozen=True)
class SessionRule:
    """The deals of one card table (§2.3) and its time limit (§2.4).

    ``measure``: ``score`` (cumulative deal score of each seat, higher is better), ``level``
    (shengji levels of two partnerships, 2..14 and 15 = "has passed A", from ``start_level``)
    or ``placement`` (the place each seat gets in a multi-player game, 1 = best, lower is
    better). The units the session ranks are the ``sides`` (partnerships, tuples of seats) when
    given, otherwise the seats. Durations are in milliseconds."""

    seats: int = 3
    target: float | None = None                  # score_at_least
    deals: int | None = None
    time_limit: int | None = None                # ms
    on_expiry: str = "finish_current_deal"
    eligible: str = "all"                        # extra deals: all | tied_only
    advance: int = 1
    clock: Any = "card_default"
    duplicate: bool = False                      # the tables of a round play the same deals (§2.8)
    advance_by: str = "score"                    # duplicate: score | matchpoints | average
    between_deals: int = 5_000                   # ms of pause after each deal; the time limit runs on
    measure: str = "score"                       # score | level | placement
    sides: tuple[tuple[int, ...], ...] | None = None   # partnerships (seats); None: each seat alone
    start_level: int = 2                         # level sessions
    must_play_levels: tuple[int, ...] | None = None    # level sessions: passed to the game (None: its own)
    level_target: tuple[str, int] | None = None  # ("beyond", L): level > L; ("at_least", L): level >= L
    ties: str = "extra_deals"                    # extra_deals | on_stage | captured_points_then_on_stage

    @property
    def units(self) -> int:
        """How many sides the session ranks: the partnerships, or every seat."""
        return len(self.sides) if self.sides else self.seats

    def better(self, value: float) -> float:
        """``value`` of the measure turned so that higher is better (placement: lower is)."""
        return -value if self.measure == "placement" else value

    @classmethod
    def from_dict(cls, d: dict[str, Any], clock: Any = None) -> SessionRule:
        """Read a ``[match.session]`` table. Raises OptionError naming the bad key."""
        check_keys(d, {"seats", "sides", "measure", "start_level", "must_play_levels", "end",
                        "ties", "advance", "clock", "duplicate", "advance_by", "between_deals"}, "session")
        measure = d.get("measure", "score")
        if measure not in MEASURES:
            raise OptionError(f"session.measure must be one of {', '.join(MEASURES)}, not {measure!r}",
                              code="config.not_one_of",
                              params={"field": "session.measure", "valid": list(MEASURES)})
        seats = _whole(d.get("seats", 3), "session.seats", 2)
        end = d.get("end") or {}
        if not isinstance(end, dict):
            raise OptionError("session.end must be a table (target, deals, time_limit)",
                              code="config.not_table", params={"field": "session.end"})
        check_keys(end, {"target", "deals", "time_limit"}, "session.end")
        target, level_target = _session_target(end.get("target"), measure)
        deals = None if end.get("deals") is None else _whole(end["deals"], "session.end.deals", 1)
        tl = end.get("time_limit") or {}
        if not isinstance(tl, dict):
            raise OptionError("session.end.time_limit must be a table (duration, on_expiry)",
                              code="config.not_table", params={"field": "session.end.time_limit"})
        check_keys(tl, {"duration", "on_expiry", "starts_at"}, "session.end.time_limit")
        if tl and not tl.get("duration"):
            raise OptionError("session.end.time_limit needs a duration (e.g. \"90m\")",
                              code="config.missing", params={"field": "session.end.time_limit.duration"})
        if target is None and level_target is None and deals is None and not tl:
            raise OptionError("a session needs an end: target, deals or time_limit",
                              code="config.missing", params={"field": "session.end"})
        if tl.get("on_expiry", "finish_current_deal") != "finish_current_deal":
            raise OptionError("only on_expiry = finish_current_deal is supported for sessions",
                              code="config.unsupported", params={"field": "session.end.time_limit.on_expiry"})
        if tl.get("starts_at", "first_deal_start") != "first_deal_start":
            raise OptionError("only time_limit.starts_at = first_deal_start is supported",
                              code="config.unsupported", params={"field": "session.end.time_limit.starts_at"})
        ties, eligible = _session_ties(d.get("ties"), measure)
        sides = _session_sides(d.get("sides"), seats, measure)
        start_level = 2
        must_play = None
        if measure == "level":
            start_level = _whole(d.get("start_level", 2), "session.start_level", 2)
            if start_level > 14:
                raise OptionError(f"session.start_level must be 2..14 (A = 14), not {start_level}",
                                  code="config.out_of_range",
                                  params={"field": "session.start_level", "min": 2, "max": 14})
            if d.get("must_play_levels") is not None:
                mp = d["must_play_levels"]
                if not isinstance(mp, list) or any(isinstance(x, bool) or not isinstance(x, int)
                                                   or not 2 <= x <= 14 for x in mp):
                    raise OptionError(f"session.must_play_levels must be a list of levels 2..14, not {mp!r}",
                                      code="config.out_of_range",
                                      params={"field": "session.must_play_levels", "min": 2, "max": 14})
                must_play = tuple(mp)
        elif "start_level" in d or "must_play_levels" in d:
            raise OptionError("session.start_level and must_play_levels belong to level sessions "
                              "(measure = \"level\")",
                              code="config.conflict",
                              params={"field": "session.start_level", "other": "session.measure"})
        if measure == "placement" and deals is None:
            raise OptionError("a placement session needs end.deals (the games whose places count)",
                              code="config.missing", params={"field": "session.end.deals"})
        duplicate = d.get("duplicate", False)
        if not isinstance(duplicate, bool):
            raise OptionError("session.duplicate must be true or false",
                              code="config.not_bool", params={"field": "session.duplicate"})
        if duplicate and (deals is None or target is not None or tl):
            raise OptionError("duplicate deals need a session of a fixed number of deals (end.deals) "
                              "with no target or time limit, so every table plays the same deals",
                              code="config.conflict",
                              params={"field": "session.duplicate", "other": "session.end"})
        if duplicate and measure != "score":
            raise OptionError("duplicate deals compare deal scores: they need measure = \"score\"",
                              code="config.conflict",
                              params={"field": "session.duplicate", "other": "session.measure"})
        advance_by = d.get("advance_by", "score")
        if advance_by not in ("score", "matchpoints", "average"):
            raise OptionError(f"session.advance_by must be score, matchpoints or average, not {advance_by!r}",
                              code="config.not_one_of",
                              params={"field": "session.advance_by",
                                      "valid": ["score", "matchpoints", "average"]})
        if advance_by != "score" and not duplicate:
            raise OptionError(f"session.advance_by = {advance_by!r} compares duplicate deals: it needs "
                              "duplicate = true",
                              code="config.conflict",
                              params={"field": "session.advance_by", "other": "session.duplicate"})
        between = duration_ms(d.get("between_deals", 5_000))
        if between < 0:
            raise OptionError("session.between_deals must not be negative",
                              code="config.whole_number",
                              params={"field": "session.between_deals", "least": 0})
        advance = _whole(d.get("advance", 1), "session.advance", 1)
        if advance != 1:
            raise OptionError("session.advance: only one winner per table (advance = 1) is supported",
                              code="config.unsupported", params={"field": "session.advance"})
        check_clock(d.get("clock", clock if clock is not None else "card_default"), "session.clock")
        return cls(seats, target, deals, duration_ms(tl["duration"]) if tl.get("duration") else None,
                   "finish_current_deal", eligible, advance,
                   d.get("clock", clock if clock is not None else "card_default"), duplicate, advance_by,
                   between, measure, sides, start_level, must_play, level_target, ties)


ENDS = ("target", "deals", "time_limit")


def merge_session(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``base`` (a ``[match.session]`` table) with the keys of ``over``: ``target``, ``deals`` and
    ``time_limit`` go into ``end`` (a time limit merged into the one already there), any other
    key replaces the session key of that name."""
    out = {k: v for k, v in base.items() if k != "end"}
    end = dict(base.get("end") or {})
    for k, v in over.items():
        if k in ENDS:
            if k == "time_limit" and isinstance(v, dict) and isinstance(end.get(k), dict):
                v = {**end[k], **v}
            end[k] = v
        elif k == "end" and isinstance(v, dict):
            end.update(v)
        else:
            out[k] = v
    out["end"] = end
    return out


def _whole(v: Any, what: str, least: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < least:
        raise OptionError(f"{what} must be a whole number >= {least}, not {v!r}",
                          code="config.whole_number", params={"field": what, "least": least})
    return v


def _session_target(t: Any, measure: str) -> tuple[float | None, tuple[str, int] | None]:
    """(score target, level target) of ``end.target``. Raises OptionError."""
    if t is None:
        return None, None
    if not isinstance(t, dict) or len(t) != 1:
        raise OptionError(f"session.end.target must be one of {{score_at_least = X}}, {{level_beyond = L}} "
                          f"or {{level_at_least = L}}, not {t!r}",
                          code="config.bad_value", params={"field": "session.end.target"})
    (key, value), = t.items()
    if key == "score_at_least":
        if measure != "score":
            raise OptionError(f"session.end.target.score_at_least needs measure = \"score\", not {measure!r}",
                              code="config.conflict",
                              params={"field": "session.end.target.score_at_least",
                                      "other": "session.measure"})
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise OptionError(f"session.end.target.score_at_least must be a number, not {value!r}",
                              code="config.bad_value", params={"field": "session.end.target.score_at_least"})
        return float(value), None
    if key in LEVEL_TARGETS:
        if measure != "level":
            raise OptionError(f"session.end.target.{key} needs measure = \"level\", not {measure!r}",
                              code="config.conflict",
                              params={"field": f"session.end.target.{key}", "other": "session.measure"})
        if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 14:
            raise OptionError(f"session.end.target.{key} must be a level 2..14 (A = 14), not {value!r}",
                              code="config.out_of_range",
                              params={"field": f"session.end.target.{key}", "min": 2, "max": 14})
        return None, (LEVEL_TARGETS[key], value)
    raise OptionError(f"unknown session.end.target {key!r}; valid: score_at_least, level_beyond, "
                      "level_at_least",
                      code="config.not_one_of",
                      params={"field": "session.end.target",
                              "valid": ["score_at_least", "level_beyond", "level_at_least"]})


def _session_ties(ties: Any, measure: str) -> tuple[str, str]:
    """(ties rule, eligible) of ``ties``. Level sessions: ``on_stage`` or
    ``captured_points_then_on_stage``; score and placement: ``{extra_deals = {eligible}}``."""
    if ties is None:
        return ("on_stage", "all") if measure == "level" else ("extra_deals", "all")
    if isinstance(ties, str):
        if ties not in LEVEL_TIES:
            raise OptionError(f"session.ties must be {{extra_deals = {{eligible = ...}}}}, "
                              f"{' or '.join(LEVEL_TIES)}, not {ties!r}",
                              code="config.bad_value", params={"field": "session.ties"})
        if measure != "level":
            raise OptionError(f"session.ties = {ties!r} breaks equal levels: it needs measure = \"level\"",
                              code="config.conflict",
                              params={"field": "session.ties", "other": "session.measure"})
        return ties, "all"
    if not isinstance(ties, dict) or set(ties) != {"extra_deals"} \
            or not isinstance(ties["extra_deals"], dict):
        raise OptionError(f"session.ties must be {{extra_deals = {{eligible = \"all\"}}}} "
                          f"(or \"tied_only\"), \"on_stage\" or \"captured_points_then_on_stage\", "
                          f"not {ties!r}",
                          code="config.bad_value", params={"field": "session.ties"})
    check_keys(ties["extra_deals"], {"eligible"}, "session.ties.extra_deals")
    eligible = ties["extra_deals"].get("eligible", "all")
    if eligible not in ("all", "tied_only"):
        raise OptionError(f"session.ties.extra_deals.eligible must be all or tied_only, not {eligible!r}",
                          code="config.not_one_of",
                          params={"field": "session.ties.extra_deals.eligible",
                                  "valid": ["all", "tied_only"]})
    if measure == "level":
        raise OptionError("a level session breaks equal levels by on_stage or "
                          "captured_points_then_on_stage, not by extra deals",
                          code="config.conflict",
                          params={"field": "session.ties", "other": "session.measure"})
    return "extra_deals", eligible


def _session_sides(sides: Any, seats: int, measure: str) -> tuple[tuple[int, ...], ...] | None:
    """The partnerships of ``sides``: lists of seats covering 0..seats-1 once each."""
    if sides is None or sides == "individual":
        if measure == "level":
            raise OptionError("a level session needs sides: the two partnerships, e.g. [[0, 2], [1, 3]]",
                              code="config.missing", params={"field": "session.sides"})
        return None
    ok = isinstance(sides, list) and len(sides) >= 2 and all(isinstance(x, list) and x for x in sides)
    flat = [s for x in sides for s in x] if ok else []
    if not ok or sorted(flat) != list(range(seats)) or any(isinstance(s, bool) for s in flat):
        raise OptionError(f"session.sides must list every seat 0..{seats - 1} once, in two or more "
                          f"partnerships (e.g. [[0, 2], [1, 3]]), not {sides!r}",
                          code="config.bad_value", params={"field": "session.sides"})
    if measure == "placement":
        raise OptionError("a placement session ranks single seats: it takes no sides",
                          code="config.conflict",
                          params={"field": "session.sides", "other": "session.measure"})
    if measure == "level" and len(sides) != 2:
        raise OptionError("a level session is played by exactly two sides",
                          code="config.bad_value", params={"field": "session.sides"})
    return tuple(tuple(x) for x in sides)


@dataclass(frozen=True)
class DealOutcome:
    """What a session needs from one completed, non-void deal (§0.4 item 5), per unit (side or
    seat, :attr:`SessionRule.units`):

    * ``values``: score sessions: the deal's score change; level sessions: each side's level
      after the deal (absolute, 2..15); placement sessions: each seat's place (1 = best).
    * ``ms``: the deal's duration in milliseconds (referee pauses left out).
    * ``on_stage``: level sessions: the side that will declare the next deal (台上).
    * ``attack``: level sessions: the attacking side's total S credited to that side (0 for the
      other).
    * ``forfeit``: a unit that forfeited the deal (resignation, timeout loss): it loses the
      session at once."""

    values: tuple[float, ...]
    ms: int = 0
    on_stage: int | None = None
    attack: tuple[float, ...] = ()
    forfeit: int | None = None                  # level sessions: the unit that forfeited (loses)


@dataclass(frozen=True)
class SessionStatus:
    done: bool
    totals: tuple[float, ...]
    deals: int                                   # completed regulation deals
    extra: bool = False                          # the next deal (or the deciding ones) are extras
    ranking: tuple[int, ...] = ()                # when done: units, best first
    ranks: tuple[int, ...] = ()                  # when done: rank of each unit (1 = best, shared)
    ended_by: str = ""
    decided_by: str = ""                         # measure | target | extra_deals | on_stage | captured_points
    eligible: tuple[int, ...] = ()               # placement extra games: the seats that can still win
    attack: tuple[float, ...] = ()               # level sessions: attacking totals S per side


def _outcome(d: DealOutcome | tuple[Sequence[float], int]) -> DealOutcome:
    if isinstance(d, DealOutcome):
        return d
    values, ms = d
    return DealOutcome(tuple(values), ms)


def session_status(rule: SessionRule, deals: Sequence[DealOutcome | tuple[Sequence[float], int]],
                   absent: Sequence[int] = ()) -> SessionStatus:
    """Where a session stands after ``deals``, the completed non-void deals in order (each a
    :class:`DealOutcome`, or ``(returns per seat, duration ms)`` for a score session).

    After each deal: target, deal count, then time (§2.3). Once ended, the best measure wins;
    a shared best is broken by ``ties``: extra deals one at a time (score: totals keep adding
    up; ``tied_only`` lets only the seats tied at the end win; placement with ``tied_only``:
    each extra game keeps the tied seats with the best place in it until one is left), or, for
    levels, the side on stage, or first the larger sum of attacking totals S. Units in
    ``absent`` (no-shows and concessions played by trusteeship, §5.6) cannot win and are ranked
    last whatever their measure; the end conditions still look at every unit.
    Raises ValueError for a level deal without ``on_stage`` when the stage side must decide."""
    n = rule.units
    level = rule.measure == "level"
    totals = [float(rule.start_level) if level else 0.0] * n
    attack = [0.0] * n
    elapsed = 0
    ended_at: int | None = None
    ended_by = ""
    tied: list[int] = []
    present = [u for u in range(n) if u not in absent]
    tied_only = rule.eligible == "tied_only"
    for i, raw in enumerate(deals, 1):
        d = _outcome(raw)
        if len(d.values) != n:
            raise ValueError(f"deal {i} gives {len(d.values)} values for a session of {n} units")
        if ended_at is not None and rule.measure == "placement" and tied_only:   # tied seats only
            best = min(d.values[u] for u in tied)
            tied = [u for u in tied if d.values[u] == best]
            if len(tied) == 1:
                return _finish(rule, totals, tied[0], ended_at, ended_by, absent, "extra_deals", attack)
            continue
        for u, v in enumerate(d.values):
            totals[u] = float(v) if level else totals[u] + v
        if d.forfeit is not None:            # the other side wins at once, whatever the levels
            others = [u for u in range(n) if u != d.forfeit]
            return _finish(rule, totals, others[0], i, "forfeit", [*absent, d.forfeit], "forfeit", attack)
        for u, v in enumerate(d.attack):
            attack[u] += v
        elapsed += d.ms + (rule.between_deals if i > 1 else 0)
        if ended_at is None:
            if rule.target is not None and max(totals) >= rule.target:
                ended_by = "target"
            elif rule.level_target is not None and any(_meets(rule.level_target, t) for t in totals):
                ended_by = "target"
            elif rule.deals is not None and i >= rule.deals:
                ended_by = "deals"
            elif rule.time_limit is not None and elapsed + rule.between_deals > rule.time_limit:
                # the limit passed during the deal or passes in the pause after it (§2.3 step 3;
                # a deadline passes at the first ms after it, §0.3)
                ended_by = "time"
            if ended_by:
                ended_at = i
                top = max(rule.better(totals[u]) for u in present) if present else 0
                tied = [u for u in present if rule.better(totals[u]) == top]
                if level:
                    return _level_finish(rule, totals, tied, d, ended_at, ended_by, absent, attack)
                if rule.measure == "placement" and rule.eligible == "tied_only":
                    if len(tied) <= 1:
                        return _finish(rule, totals, tied[0] if tied else 0, ended_at, ended_by, absent,
                                       "measure", attack)
                    continue
        if ended_at is not None:
            pool = tied if rule.eligible == "tied_only" else present
            if rule.eligible == "tied_only" and not pool:
                pool = present
            if not pool:                             # every seat absent: nobody can win
                pool = list(range(n))
            best = max(rule.better(totals[u]) for u in pool)
            leaders = [u for u in pool if rule.better(totals[u]) == best]
            top = max(rule.better(totals[u]) for u in (present or pool))
            if len(leaders) == 1 and (rule.eligible == "tied_only" or best == top):
                how = "measure" if i == ended_at else "extra_deals"
                return _finish(rule, totals, leaders[0], ended_at, ended_by, absent, how, attack)
    return SessionStatus(False, tuple(totals), ended_at if ended_at is not None else len(deals),
                         extra=ended_at is not None, ended_by=ended_by,
                         eligible=tuple(tied) if ended_at is not None and tied_only else (),
                         attack=tuple(attack))


def _meets(target: tuple[str, int], level: float) -> bool:
    kind, lv = target
    return level > lv if kind == "beyond" else level >= lv


def _level_finish(rule: SessionRule, totals: list[float], tied: list[int], last: DealOutcome,
                  ended_at: int, ended_by: str, absent: Sequence[int], attack: list[float]) -> SessionStatus:
    """The end of a level session: the higher level wins; equal levels: ``captured_points``
    (the larger sum of attacking totals S) if the rule says so, then the side on stage."""
    if ended_by == "target":
        reached = [u for u in tied if _meets(rule.level_target, totals[u])]  # type: ignore[arg-type]
        tied = reached or tied
    if len(tied) == 1:
        return _finish(rule, totals, tied[0], ended_at, ended_by, absent,
                       "target" if ended_by == "target" else "measure", attack)
    if not tied:                                      # both sides absent
        return _finish(rule, totals, 0, ended_at, ended_by, absent, "measure", attack)
    if rule.ties == "captured_points_then_on_stage":
        most = max(attack[u] for u in tied)
        ahead = [u for u in tied if attack[u] == most]
        if len(ahead) == 1:
            return _finish(rule, totals, ahead[0], ended_at, ended_by, absent, "captured_points", attack)
    if last.on_stage is None:
        raise ValueError("a level deal must report the side on stage (the next deal's declarers)")
    return _finish(rule, totals, last.on_stage, ended_at, ended_by, absent, "on_stage", attack)


def _finish(rule: SessionRule, totals: list[float], winner: int, deals: int, ended_by: str,
            absent: Sequence[int] = (), decided_by: str = "measure",
            attack: Sequence[float] = ()) -> SessionStatus:
    def key(u: int) -> tuple[bool, bool, float]:
        return (u != winner, u in absent, -rule.better(totals[u]))

    order = sorted(range(len(totals)), key=lambda u: (*key(u), u))
    ranks = [0] * len(totals)
    for u in order:
        ranks[u] = 1 + sum(1 for o in order if key(o) < key(u))
    return SessionStatus(True, tuple(totals), deals, ranking=tuple(order), ranks=tuple(ranks),
                         ended_by=ended_by, decided_by=decided_by, attack=tuple(attack))
