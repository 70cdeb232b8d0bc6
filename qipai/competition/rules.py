"""Format primitives as data and pure functions (competition.md §2.2, §2.3, §2.4, §2.6).

* :class:`GamePoints` — what one game is worth (win 1 / drawn 0.5 / loss 0, or S3's +1/0/-1
  with the short-game rule) and :class:`PlacementPoints` (champion 5 / runner-up 3 / other 1).
* :class:`SeriesRule` and :func:`series_status` — the games of a two-sided match: scheduled
  games, early stop, sudden-death extras (with a cap and a lot), first-mover alternation with
  coin tosses, a clock per game index.
* :class:`SessionRule` and :func:`session_status` — the deals of a card table: target score,
  number of deals, time limit (the deal in progress is finished), extra deals on a tie.

Everything here is deterministic given its inputs; randomness (coin, lot) is passed in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from qipai.core.errors import OptionError

from ..match.clock import duration_ms


def _check_keys(d: dict[str, Any], allowed: set[str], what: str) -> None:
    bad = set(d) - allowed
    if bad:
        raise OptionError(f"unknown {what} parameter(s) {sorted(bad)}; valid: {sorted(allowed)}")


@dataclass(frozen=True)
class GamePoints:
    """Points of one game result. ``short_game_moves``: a game that ends with at most that many
    moves completed gives the winner ``short_game_winner`` instead of ``win`` (S3 xiangqi;
    a forfeit counts as 0 moves). The loser keeps ``loss``."""

    win: float = 1.0
    drawn: float = 0.5
    loss: float = 0.0
    short_game_moves: int | None = None
    short_game_winner: float = 0.0

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> GamePoints:
        if not d:
            return cls()
        _check_keys(d, {"win", "drawn", "loss", "short_game"}, "game_points")
        sg = d.get("short_game") or {}
        return cls(float(d.get("win", 1)), float(d.get("drawn", 0.5)), float(d.get("loss", 0)),
                   sg.get("max_moves"), float(sg.get("winner_gets", 0)))

    def score(self, won: bool | None, moves: int) -> float:
        """Points of one side: ``won`` True / False / None (drawn game)."""
        if won is None:
            return self.drawn
        if not won:
            return self.loss
        if self.short_game_moves is not None and moves <= self.short_game_moves:
            return self.short_game_winner
        return self.win


@dataclass(frozen=True)
class PlacementPoints:
    """Points for final placings (S2): champion, runner-up, other; no-shows and disqualified 0."""

    champion: float = 5
    runner_up: float = 3
    other: float = 1
    no_show: float = 0
    disqualified: float = 0

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> PlacementPoints | None:
        if not d or d == "none":
            return None
        _check_keys(d, {"champion", "runner_up", "other", "no_show", "disqualified"}, "placement_points")
        return cls(**{k: float(v) for k, v in d.items()})


# ----- series (§2.2) ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SeriesRule:
    game_points: GamePoints = field(default_factory=GamePoints)
    scheduled: int = 1
    early_stop: bool = False
    tiebreak: str = "sudden_death"
    max_extra: int | None = None
    first_game1: str = "lot"                      # lot | lower_draw_number
    first_then: str = "alternate"
    coin_games: tuple[int, ...] = ()              # games decided by a fresh coin toss
    clock: dict[str, Any] = field(default_factory=lambda: {"default": "none"})
    extra_variant: tuple[tuple[int, str], ...] = ()   # (i, variant): the i-th extra game's variant

    @classmethod
    def from_dict(cls, d: dict[str, Any], clock: Any = None) -> SeriesRule:
        _check_keys(d, {"game_points", "scheduled", "early_stop", "tiebreak", "max_extra",
                        "extra_variant", "first_mover", "clock"}, "series")
        fm = d.get("first_mover") or {}
        _check_keys(fm, {"game1", "then", "overrides"}, "first_mover")
        if fm.get("game1", "lot") not in ("lot", "lower_draw_number"):
            raise OptionError("first_mover.game1 must be lot or lower_draw_number")
        tb = d.get("tiebreak", "sudden_death")
        if tb not in ("sudden_death", "none"):
            raise OptionError(f"tiebreak {tb!r} is not supported; valid: sudden_death, none")
        scheduled = int(d.get("scheduled", 1))
        if scheduled < 1:
            raise OptionError("series.scheduled must be at least 1")
        max_extra = d.get("max_extra")
        if max_extra is not None and (not isinstance(max_extra, int) or isinstance(max_extra, bool)
                                      or max_extra < 0):
            raise OptionError(f"series.max_extra must be a whole number >= 0 (or absent), not {max_extra!r}")
        clk = d.get("clock", clock if clock is not None else "none")
        clk = {str(k): v for k, v in clk.items()} if isinstance(clk, dict) and not _is_inline_clock(clk) \
            else {"default": clk}
        for which, c in clk.items():
            _check_clock(c, "series.clock" + ("" if which == "default" else f".{which}"))
        coin_games = tuple(int(g) for g, v in (fm.get("overrides") or {}).items() if v == "coin_toss")
        return cls(GamePoints.from_dict(d.get("game_points")), scheduled, bool(d.get("early_stop", False)),
                   tb, max_extra, fm.get("game1", "lot"), fm.get("then", "alternate"),
                   coin_games, clk, _extra_variant(d.get("extra_variant"), max_extra, tb))

    def variant_for(self, number: int) -> str | None:
        """The game variant of game ``number`` (1-based, regulation and extras), if any."""
        return dict(self.extra_variant).get(number - self.scheduled) if number > self.scheduled else None

    def clock_for(self, number: int) -> Any:
        c = self.clock
        if str(number) in c:
            return c[str(number)]
        if number > self.scheduled and "extra" in c:
            return c["extra"]
        return c.get("default", "none")


def _extra_variant(ev: Any, max_extra: int | None, tiebreak: str) -> tuple[tuple[int, str], ...]:
    """``extra_variant = {i = "variant"}``: the i-th extra game (1-based) is played with that game
    variant (§2.2 rule 3, e.g. S2 4A4's ``first_out_wins``). Raises OptionError."""
    if not ev:
        return ()
    if not isinstance(ev, dict):
        raise OptionError(f"series.extra_variant must be a table {{i = \"variant\"}}, not {ev!r}")
    out = []
    for k, v in ev.items():
        try:
            i = int(k)
        except (TypeError, ValueError):
            i = 0
        if i < 1 or str(i) != str(k).strip():
            raise OptionError(f"series.extra_variant: {k!r} is not an extra-game number (1, 2, ...)")
        if not isinstance(v, str) or not v:
            raise OptionError(f"series.extra_variant.{k} must name a game variant, not {v!r}")
        if tiebreak != "sudden_death":
            raise OptionError("series.extra_variant needs tiebreak = \"sudden_death\" (extra games)")
        if max_extra is not None and i > max_extra:
            raise OptionError(f"series.extra_variant.{k}: extra game {i} is never played "
                              f"(max_extra = {max_extra})")
        out.append((i, v))
    return tuple(sorted(out))


def _check_clock(clock: Any, field: str) -> None:
    """Refuse a clock that is neither a clock preset's name nor an inline clock table, naming the
    field and the presets (OptionError)."""
    from qipai.match.presets import clock_preset

    try:
        clock_preset(clock)
    except OptionError as e:
        raise OptionError(f"{field}: {e}") from None
    except (TypeError, ValueError) as e:
        raise OptionError(f"{field}: bad clock {clock!r}: {e}") from None


def _is_inline_clock(d: dict[str, Any]) -> bool:
    return any(k in d for k in ("bank", "move_cap", "overtime", "on_cap"))


@dataclass(frozen=True)
class SeriesGame:
    """A game of a series, as the series needs it: who moved first (0 = entrant A, the lower
    draw number), who won (0, 1, or None for a drawn game) and the moves completed."""

    first: int
    winner: int | None
    moves: int = 0


@dataclass(frozen=True)
class SeriesStatus:
    done: bool
    points: tuple[float, float]
    winner: int | None = None           # when done: 0, 1, or None (level, tiebreak none)
    number: int = 0                     # when not done: the next game's number
    first: int = 0                      # ... its first mover
    clock: Any = None                   # ... its clock
    decided_by: str = ""
    variant: str | None = None          # ... its game variant (extra_variant), if any

    def describe(self, played: int) -> str:
        a, b = self.points
        score = f"{a:g}-{b:g}" if min(a, b) >= 0 else f"{a:g} : {b:g}"     # never "1--1"
        return f"{score} after {played} game{'s' if played != 1 else ''}"


def series_status(rule: SeriesRule, games: Sequence[SeriesGame],
                  coin: Callable[[int], int], lot: Callable[[], int] | None = None) -> SeriesStatus:
    """Where a series stands after ``games``: decided (winner) or the next game to play.
    ``coin(n)`` is the coin toss of game n (0: A moves first); ``lot()`` decides a capped tie."""
    gp = rule.game_points
    pa = sum(gp.score(None if g.winner is None else g.winner == 0, g.moves) for g in games)
    pb = sum(gp.score(None if g.winner is None else g.winner == 1, g.moves) for g in games)
    pts = (pa, pb)
    n = len(games)
    reg = rule.scheduled
    if n <= reg:
        left = reg - n
        decided = pa != pb and (left == 0 or (rule.early_stop and abs(pa - pb) > left * (gp.win - gp.loss)))
        if decided:
            return SeriesStatus(True, pts, 0 if pa > pb else 1, decided_by="points")
        if left == 0 and rule.tiebreak == "none":
            return SeriesStatus(True, pts, None, decided_by="level")
        if left == 0 and rule.max_extra == 0:        # level, and no extra game is allowed
            return SeriesStatus(True, pts, (lot or (lambda: coin(0)))(), decided_by="lot")
    else:
        last = games[-1]
        if last.winner is not None:
            return SeriesStatus(True, pts, last.winner, decided_by="extra game")
        if rule.max_extra is not None and n - reg >= rule.max_extra:
            return SeriesStatus(True, pts, (lot or (lambda: coin(0)))(), decided_by="lot")
    number = n + 1
    if number == 1 or number in rule.coin_games:
        first = 0 if (number == 1 and rule.first_game1 == "lower_draw_number"
                      and number not in rule.coin_games) else coin(number)
    else:
        first = 1 - games[-1].first
    return SeriesStatus(False, pts, number=number, first=first, clock=rule.clock_for(number),
                        variant=rule.variant_for(number))


# ----- sessions (§2.3, §2.4) --------------------------------------------------------------------



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
        _check_keys(d, {"seats", "sides", "measure", "start_level", "must_play_levels", "end",
                        "ties", "advance", "clock", "duplicate", "advance_by", "between_deals"}, "session")
        measure = d.get("measure", "score")
        if measure not in MEASURES:
            raise OptionError(f"session.measure must be one of {', '.join(MEASURES)}, not {measure!r}")
        seats = _whole(d.get("seats", 3), "session.seats", 2)
        end = d.get("end") or {}
        if not isinstance(end, dict):
            raise OptionError("session.end must be a table (target, deals, time_limit)")
        _check_keys(end, {"target", "deals", "time_limit"}, "session.end")
        target, level_target = _session_target(end.get("target"), measure)
        deals = None if end.get("deals") is None else _whole(end["deals"], "session.end.deals", 1)
        tl = end.get("time_limit") or {}
        if not isinstance(tl, dict):
            raise OptionError("session.end.time_limit must be a table (duration, on_expiry)")
        _check_keys(tl, {"duration", "on_expiry", "starts_at"}, "session.end.time_limit")
        if tl and not tl.get("duration"):
            raise OptionError("session.end.time_limit needs a duration (e.g. \"90m\")")
        if target is None and level_target is None and deals is None and not tl:
            raise OptionError("a session needs an end: target, deals or time_limit")
        if tl.get("on_expiry", "finish_current_deal") != "finish_current_deal":
            raise OptionError("only on_expiry = finish_current_deal is supported for sessions")
        if tl.get("starts_at", "first_deal_start") != "first_deal_start":
            raise OptionError("only time_limit.starts_at = first_deal_start is supported")
        ties, eligible = _session_ties(d.get("ties"), measure)
        sides = _session_sides(d.get("sides"), seats, measure)
        start_level = 2
        must_play = None
        if measure == "level":
            start_level = _whole(d.get("start_level", 2), "session.start_level", 2)
            if start_level > 14:
                raise OptionError(f"session.start_level must be 2..14 (A = 14), not {start_level}")
            if d.get("must_play_levels") is not None:
                mp = d["must_play_levels"]
                if not isinstance(mp, list) or any(isinstance(x, bool) or not isinstance(x, int)
                                                   or not 2 <= x <= 14 for x in mp):
                    raise OptionError(f"session.must_play_levels must be a list of levels 2..14, not {mp!r}")
                must_play = tuple(mp)
        elif "start_level" in d or "must_play_levels" in d:
            raise OptionError("session.start_level and must_play_levels belong to level sessions "
                              "(measure = \"level\")")
        if measure == "placement" and deals is None:
            raise OptionError("a placement session needs end.deals (the games whose places count)")
        duplicate = d.get("duplicate", False)
        if not isinstance(duplicate, bool):
            raise OptionError("session.duplicate must be true or false")
        if duplicate and (deals is None or target is not None or tl):
            raise OptionError("duplicate deals need a session of a fixed number of deals (end.deals) "
                              "with no target or time limit, so every table plays the same deals")
        if duplicate and measure != "score":
            raise OptionError("duplicate deals compare deal scores: they need measure = \"score\"")
        advance_by = d.get("advance_by", "score")
        if advance_by not in ("score", "matchpoints", "average"):
            raise OptionError(f"session.advance_by must be score, matchpoints or average, not {advance_by!r}")
        if advance_by != "score" and not duplicate:
            raise OptionError(f"session.advance_by = {advance_by!r} compares duplicate deals: it needs "
                              "duplicate = true")
        between = duration_ms(d.get("between_deals", 5_000))
        if between < 0:
            raise OptionError("session.between_deals must not be negative")
        advance = _whole(d.get("advance", 1), "session.advance", 1)
        if advance != 1:
            raise OptionError("session.advance: only one winner per table (advance = 1) is supported")
        _check_clock(d.get("clock", clock if clock is not None else "card_default"), "session.clock")
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
        raise OptionError(f"{what} must be a whole number >= {least}, not {v!r}")
    return v


def _session_target(t: Any, measure: str) -> tuple[float | None, tuple[str, int] | None]:
    """(score target, level target) of ``end.target``. Raises OptionError."""
    if t is None:
        return None, None
    if not isinstance(t, dict) or len(t) != 1:
        raise OptionError(f"session.end.target must be one of {{score_at_least = X}}, {{level_beyond = L}} "
                          f"or {{level_at_least = L}}, not {t!r}")
    (key, value), = t.items()
    if key == "score_at_least":
        if measure != "score":
            raise OptionError(f"session.end.target.score_at_least needs measure = \"score\", not {measure!r}")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise OptionError(f"session.end.target.score_at_least must be a number, not {value!r}")
        return float(value), None
    if key in LEVEL_TARGETS:
        if measure != "level":
            raise OptionError(f"session.end.target.{key} needs measure = \"level\", not {measure!r}")
        if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 14:
            raise OptionError(f"session.end.target.{key} must be a level 2..14 (A = 14), not {value!r}")
        return None, (LEVEL_TARGETS[key], value)
    raise OptionError(f"unknown session.end.target {key!r}; valid: score_at_least, level_beyond, "
                      "level_at_least")


def _session_ties(ties: Any, measure: str) -> tuple[str, str]:
    """(ties rule, eligible) of ``ties``. Level sessions: ``on_stage`` or
    ``captured_points_then_on_stage``; score and placement: ``{extra_deals = {eligible}}``."""
    if ties is None:
        return ("on_stage", "all") if measure == "level" else ("extra_deals", "all")
    if isinstance(ties, str):
        if ties not in LEVEL_TIES:
            raise OptionError(f"session.ties must be {{extra_deals = {{eligible = ...}}}}, "
                              f"{' or '.join(LEVEL_TIES)}, not {ties!r}")
        if measure != "level":
            raise OptionError(f"session.ties = {ties!r} breaks equal levels: it needs measure = \"level\"")
        return ties, "all"
    if not isinstance(ties, dict) or set(ties) != {"extra_deals"} \
            or not isinstance(ties["extra_deals"], dict):
        raise OptionError(f"session.ties must be {{extra_deals = {{eligible = \"all\"}}}} "
                          f"(or \"tied_only\"), \"on_stage\" or \"captured_points_then_on_stage\", "
                          f"not {ties!r}")
    _check_keys(ties["extra_deals"], {"eligible"}, "session.ties.extra_deals")
    eligible = ties["extra_deals"].get("eligible", "all")
    if eligible not in ("all", "tied_only"):
        raise OptionError(f"session.ties.extra_deals.eligible must be all or tied_only, not {eligible!r}")
    if measure == "level":
        raise OptionError("a level session breaks equal levels by on_stage or "
                          "captured_points_then_on_stage, not by extra deals")
    return "extra_deals", eligible


def _session_sides(sides: Any, seats: int, measure: str) -> tuple[tuple[int, ...], ...] | None:
    """The partnerships of ``sides``: lists of seats covering 0..seats-1 once each."""
    if sides is None or sides == "individual":
        if measure == "level":
            raise OptionError("a level session needs sides: the two partnerships, e.g. [[0, 2], [1, 3]]")
        return None
    ok = isinstance(sides, list) and len(sides) >= 2 and all(isinstance(x, list) and x for x in sides)
    flat = [s for x in sides for s in x] if ok else []
    if not ok or sorted(flat) != list(range(seats)) or any(isinstance(s, bool) for s in flat):
        raise OptionError(f"session.sides must list every seat 0..{seats - 1} once, in two or more "
                          f"partnerships (e.g. [[0, 2], [1, 3]]), not {sides!r}")
    if measure == "placement":
        raise OptionError("a placement session ranks single seats: it takes no sides")
    if measure == "level" and len(sides) != 2:
        raise OptionError("a level session is played by exactly two sides")
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
