"""Format primitives as data and pure functions (competition.md §2.2, §2.3, §2.4, §2.6).

* :class:`GamePoints` — what one game is worth (win 1 / drawn 0.5 / loss 0, or S3's +1/0/-1
  with the short-game rule) and :class:`PlacementPoints` (champion 5 / runner-up 3 / other 1).
* :class:`SeriesRule` and :func:`series_status` — the games of a two-sided match: scheduled
  games, early stop, sudden-death extras (with a cap and a lot), first-mover alternation with
  coin tosses, a clock per game index.
* :class:`~.sessionrule.SessionRule` and :func:`~.sessionrule.session_status` (in
  :mod:`.sessionrule`) — the deals of a card table.

Everything here is deterministic given its inputs; randomness (coin, lot) is passed in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from qipai.core.errors import OptionError, why_inner


def check_keys(d: dict[str, Any], allowed: set[str], what: str) -> None:
    bad = set(d) - allowed
    if bad:
        raise OptionError(f"unknown {what} parameter(s) {sorted(bad)}; valid: {sorted(allowed)}",
                          code="config.unknown_keys",
                          params={"field": what, "keys": sorted(bad), "valid": sorted(allowed)})


def table(d: Any, what: str) -> dict[str, Any]:
    """``d`` as a table of settings (None: an empty one). Raises OptionError for a plain value."""
    if d is None:
        return {}
    if not isinstance(d, dict):
        raise OptionError(f"{what} must be a table of settings, not {d!r}",
                          code="config.not_table", params={"field": what})
    return d


def number(v: Any, what: str) -> float:
    """``v`` as points (a number, never true/false). Raises OptionError."""
    if not isinstance(v, int | float) or isinstance(v, bool) or v != v or v in (float("inf"), float("-inf")):
        raise OptionError(f"{what} must be a number, not {v!r}",
                          code="config.bad_value", params={"field": what})
    return float(v)


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
        if not table(d, "game_points"):
            return cls()
        assert d is not None
        check_keys(d, {"win", "drawn", "loss", "short_game"}, "game_points")
        sg = table(d.get("short_game"), "game_points.short_game")
        check_keys(sg, {"max_moves", "winner_gets"}, "game_points.short_game")
        mm = sg.get("max_moves")
        if mm is not None and (not isinstance(mm, int) or isinstance(mm, bool) or mm < 0):
            raise OptionError(f"game_points.short_game.max_moves must be a whole number, not {mm!r}",
                              code="config.whole_number",
                              params={"field": "game_points.short_game.max_moves", "least": 0})
        return cls(*(number(d.get(k, dv), f"game_points.{k}") for k, dv in (("win", 1), ("drawn", 0.5),
                                                                            ("loss", 0))),
                   mm, number(sg.get("winner_gets", 0), "game_points.short_game.winner_gets"))

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
        kinds = {"champion", "runner_up", "other", "no_show", "disqualified"}
        check_keys(table(d, "placement_points"), kinds, "placement_points")
        return cls(**{k: number(v, f"placement_points.{k}") for k, v in d.items()})


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
        check_keys(d, {"game_points", "scheduled", "early_stop", "tiebreak", "max_extra",
                        "extra_variant", "first_mover", "clock"}, "series")
        fm = table(d.get("first_mover"), "series.first_mover")
        check_keys(fm, {"game1", "then", "overrides"}, "first_mover")
        if fm.get("game1", "lot") not in ("lot", "lower_draw_number"):
            raise OptionError("first_mover.game1 must be lot or lower_draw_number",
                              code="config.not_one_of",
                              params={"field": "first_mover.game1", "valid": ["lot", "lower_draw_number"]})
        tb = d.get("tiebreak", "sudden_death")
        if tb not in ("sudden_death", "none"):
            raise OptionError(f"tiebreak {tb!r} is not supported; valid: sudden_death, none",
                              code="config.not_one_of",
                              params={"field": "series.tiebreak", "valid": ["sudden_death", "none"]})
        scheduled = d.get("scheduled", 1)
        if not isinstance(scheduled, int) or isinstance(scheduled, bool) or scheduled < 1:
            raise OptionError(f"series.scheduled must be at least 1 (a whole number), not {scheduled!r}",
                              code="config.whole_number", params={"field": "series.scheduled", "least": 1})
        max_extra = d.get("max_extra")
        if max_extra is not None and (not isinstance(max_extra, int) or isinstance(max_extra, bool)
                                      or max_extra < 0):
            raise OptionError(f"series.max_extra must be a whole number >= 0 (or absent), not {max_extra!r}",
                              code="config.whole_number", params={"field": "series.max_extra", "least": 0})
        clk = d.get("clock", clock if clock is not None else "none")
        clk = {str(k): v for k, v in clk.items()} if isinstance(clk, dict) and not is_inline_clock(clk) \
            else {"default": clk}
        for which, c in clk.items():
            check_clock(c, "series.clock" + ("" if which == "default" else f".{which}"))
        overrides = table(fm.get("overrides"), "series.first_mover.overrides")
        if any(not str(g).isdecimal() for g in overrides):
            raise OptionError("series.first_mover.overrides: keys are game numbers (3 = \"coin_toss\")",
                              code="config.bad_value", params={"field": "series.first_mover.overrides"})
        coin_games = tuple(int(g) for g, v in overrides.items() if v == "coin_toss")
        if not isinstance(d.get("early_stop", False), bool):
            raise OptionError("series.early_stop must be true or false",
                              code="config.not_bool", params={"field": "series.early_stop"})
        return cls(GamePoints.from_dict(d.get("game_points")), scheduled, d.get("early_stop", False),
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
        raise OptionError(f"series.extra_variant must be a table {{i = \"variant\"}}, not {ev!r}",
                          code="config.not_table", params={"field": "series.extra_variant"})
    out = []
    for k, v in ev.items():
        try:
            i = int(k)
        except (TypeError, ValueError):
            i = 0
        if i < 1 or str(i) != str(k).strip():
            raise OptionError(f"series.extra_variant: {k!r} is not an extra-game number (1, 2, ...)",
                              code="config.bad_value", params={"field": "series.extra_variant"})
        if not isinstance(v, str) or not v:
            raise OptionError(f"series.extra_variant.{k} must name a game variant, not {v!r}",
                              code="config.bad_value", params={"field": f"series.extra_variant.{k}"})
        if tiebreak != "sudden_death":
            raise OptionError("series.extra_variant needs tiebreak = \"sudden_death\" (extra games)",
                              code="config.conflict",
                              params={"field": "series.extra_variant", "other": "series.tiebreak"})
        if max_extra is not None and i > max_extra:
            raise OptionError(f"series.extra_variant.{k}: extra game {i} is never played "
                              f"(max_extra = {max_extra})",
                              code="config.conflict",
                              params={"field": f"series.extra_variant.{k}", "other": "series.max_extra"})
        out.append((i, v))
    return tuple(sorted(out))


def check_clock(clock: Any, field: str) -> None:
    """Refuse a clock that is neither a clock preset's name nor an inline clock table, naming the
    field and the presets (OptionError)."""
    from qipai.match.presets import clock_preset

    try:
        clock_preset(clock)
    except OptionError as e:
        raise OptionError(f"{field}: {e}",
                          code="config.in",
                          params=why_inner(e, "event.check_fields", field=field)) from None
    except (TypeError, ValueError) as e:
        raise OptionError(f"{field}: bad clock {clock!r}: {e}",
                          code="config.in",
                          params=why_inner(e, "clock.see_fields", field=field)) from None


def is_inline_clock(d: dict[str, Any]) -> bool:
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
