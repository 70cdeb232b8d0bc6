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
        coin_games = tuple(int(g) for g, v in (fm.get("overrides") or {}).items() if v == "coin_toss")
        return cls(GamePoints.from_dict(d.get("game_points")), scheduled, bool(d.get("early_stop", False)),
                   tb, max_extra, fm.get("game1", "lot"), fm.get("then", "alternate"),
                   coin_games, clk)

    def clock_for(self, number: int) -> Any:
        c = self.clock
        if str(number) in c:
            return c[str(number)]
        if number > self.scheduled and "extra" in c:
            return c["extra"]
        return c.get("default", "none")


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

    def describe(self, played: int) -> str:
        a, b = self.points
        return f"{a:g}-{b:g} after {played} game{'s' if played != 1 else ''}"


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
    return SeriesStatus(False, pts, number=number, first=first, clock=rule.clock_for(number))


# ----- sessions (§2.3, §2.4) --------------------------------------------------------------------


@dataclass(frozen=True)
class SessionRule:
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

    @classmethod
    def from_dict(cls, d: dict[str, Any], clock: Any = None) -> SessionRule:
        _check_keys(d, {"seats", "sides", "measure", "start_level", "must_play_levels", "end",
                        "ties", "advance", "clock", "duplicate", "advance_by", "between_deals"}, "session")
        if d.get("measure", "score") != "score":
            raise OptionError(f"session measure {d['measure']!r} needs a game module that reports "
                              "levels or placements; only 'score' sessions are run here")
        end = d.get("end") or {}
        _check_keys(end, {"target", "deals", "time_limit"}, "session.end")
        target = (end.get("target") or {}).get("score_at_least")
        tl = end.get("time_limit") or {}
        ties = d.get("ties") or {"extra_deals": {"eligible": "all"}}
        eligible = ties.get("extra_deals", {}).get("eligible", "all") if isinstance(ties, dict) else "all"
        if target is None and end.get("deals") is None and not tl:
            raise OptionError("a session needs an end: target, deals or time_limit")
        if tl.get("on_expiry", "finish_current_deal") != "finish_current_deal":
            raise OptionError("only on_expiry = finish_current_deal is supported for sessions")
        duplicate = d.get("duplicate", False)
        if not isinstance(duplicate, bool):
            raise OptionError("session.duplicate must be true or false")
        if duplicate and (end.get("deals") is None or target is not None or tl):
            raise OptionError("duplicate deals need a session of a fixed number of deals (end.deals) "
                              "with no target or time limit, so every table plays the same deals")
        advance_by = d.get("advance_by", "score")
        if advance_by not in ("score", "matchpoints", "average"):
            raise OptionError(f"session.advance_by must be score, matchpoints or average, not {advance_by!r}")
        if advance_by != "score" and not duplicate:
            raise OptionError(f"session.advance_by = {advance_by!r} compares duplicate deals: it needs "
                              "duplicate = true")
        between = duration_ms(d.get("between_deals", 5_000))
        if between < 0:
            raise OptionError("session.between_deals must not be negative")
        return cls(int(d.get("seats", 3)), target, end.get("deals"),
                   duration_ms(tl["duration"]) if tl.get("duration") else None,
                   "finish_current_deal", eligible, int(d.get("advance", 1)),
                   d.get("clock", clock if clock is not None else "card_default"), duplicate, advance_by,
                   between)


@dataclass(frozen=True)
class SessionStatus:
    done: bool
    totals: tuple[float, ...]
    deals: int                                   # completed regulation deals
    extra: bool = False                          # the next deal (or the deciding ones) are extras
    ranking: tuple[int, ...] = ()                # when done: seats, best first
    ranks: tuple[int, ...] = ()                  # when done: rank of each seat (1 = best, shared)
    ended_by: str = ""


def session_status(rule: SessionRule, deals: Sequence[tuple[Sequence[float], int]],
                   absent: Sequence[int] = ()) -> SessionStatus:
    """Where a session stands after ``deals`` = [(returns per seat, duration ms)] of completed,
    non-void deals in order. After each deal: target, deal count, then time (§2.3); once ended,
    a shared lead plays extra deals one at a time (§2.3 ``ties``). Seats in ``absent`` (no-shows
    played by trusteeship, §5.6) cannot win and are ranked last whatever their score; the end
    conditions still look at every seat's total."""
    totals = [0.0] * rule.seats
    elapsed = 0
    ended_at: int | None = None
    ended_by = ""
    tied: list[int] = []
    for i, (rets, ms) in enumerate(deals, 1):
        for s, r in enumerate(rets):
            totals[s] += r
        elapsed += ms + (rule.between_deals if i > 1 else 0)
        if ended_at is None:
            if rule.target is not None and max(totals) >= rule.target:
                ended_by = "target"
            elif rule.deals is not None and i >= rule.deals:
                ended_by = "deals"
            elif rule.time_limit is not None and elapsed + rule.between_deals > rule.time_limit:
                # the limit passed during the deal or passes in the pause after it (§2.3 step 3;
                # a deadline passes at the first ms after it, §0.3)
                ended_by = "time"
            if ended_by:
                ended_at = i
                best = max(totals)
                tied = [s for s, t in enumerate(totals) if t == best]
        if ended_at is not None:
            present = [s for s in range(rule.seats) if s not in absent]
            pool = [s for s in (tied if rule.eligible == "tied_only" else present) if s not in absent]
            if rule.eligible == "tied_only" and not pool:   # only absent seats were tied
                pool = present
            best = max(totals[s] for s in pool)
            leaders = [s for s in pool if totals[s] == best]
            top = max(totals[s] for s in present)
            if len(leaders) == 1 and (rule.eligible == "tied_only" or best == top):
                return _finish(totals, leaders[0], ended_at, ended_by, absent)
    n = len(deals)
    return SessionStatus(False, tuple(totals), ended_at if ended_at is not None else n,
                         extra=ended_at is not None, ended_by=ended_by)


def _finish(totals: list[float], winner: int, deals: int, ended_by: str,
            absent: Sequence[int] = ()) -> SessionStatus:
    def key(s: int) -> tuple[int, int, float]:
        return (s != winner, s in absent, -totals[s])

    order = sorted(range(len(totals)), key=lambda s: (*key(s), s))
    ranks = [0] * len(totals)
    for s in order:
        ranks[s] = 1 + sum(1 for o in order if key(o) < key(s))
    return SessionStatus(True, tuple(totals), deals, ranking=tuple(order), ranks=tuple(ranks),
                         ended_by=ended_by)
