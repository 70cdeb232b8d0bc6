"""Ratings: per game and time class, updated in the transaction that stores a rated game's record.

* **Time class** (:func:`time_class`): from a clock's expected duration per player, as lichess
  defines it for Fischer clocks — ``bank + 40 × increment`` seconds — with the overtime added as
  lishogi does for byo-yomi (``+ 25 × periods × period``; Canadian: ``+ 25 × period / moves``),
  a Bronstein or simple delay counted like an increment, a clock of move caps alone counted as
  40 capped moves, and a whole-game limit as half of it per player. Under 3 min is ``bullet``,
  under 8 min ``blitz``, under 25 min ``rapid``, else ``slow`` (as is a game with no clock).
* **Systems**: two seats — Glicko-2 (the ``glicko2`` package, one game per rating period, τ = 0.5,
  a new player 1500 / RD 350 / σ 0.06); more seats — OpenSkill's Plackett-Luce model (the
  ``openskill`` package) on the same scale (μ 1500, σ 500, β 250, τ 5: its defaults × 60).
  In a game of many seats, seats with the same return are one side: sides of equal size are rated
  as teams (a partnership's result rates both partners), otherwise each seat is ranked by its
  return, equal returns sharing a rank (doudizhu's landlord against two farmers).
* **What is rated** (:func:`plan`): a table created rated (``settings.rated``; an event's table
  when the event's configuration says ``rated = true``), every seat a person's account (no
  built-in bot, no bot account of the Bot API), the
  game finished with a result after at least :data:`MIN_PLIES_PER_SEAT` actions per seat
  (a game abandoned earlier is not rated), and no account in two seats.
* **Provisional**: RD above 110 (lichess; OpenSkill's σ above 160, the same share of its start) or
  fewer than :data:`PROVISIONAL_GAMES` rated games; provisional players are not on leaderboards.
* **Exactly once**: :func:`rate_record` runs inside :func:`.hub.write_record`'s transaction, the
  one that stores the record and marks its table finished, and ``rating_changes`` is unique per
  (record, player): a crash before the commit loses both, after it keeps both.
* **An event's games at the end of their round** (:func:`rate_round`): the plan of a rated event
  game waits on its table's row until every match of its round is over, and is applied in the
  transaction that settles the round; until then its players' ratings, rating history, graph
  and leaderboard places are as before the round, so none of them tells a result the round
  holds (competition.md §6.5).

A rating's key (``game``) is the game id at the game's first seat count, else
``"<game id>.<seats>"`` (a three-player Chinese checkers game is ``chinese-checkers.3``): a game
played by 2 and by 3 seats has two ratings, each in one system.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

import glicko2
from openskill.models import PlackettLuce
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from qipai.core.errors import OptionError
from qipai.match import clock_preset
from qipai.match.clock import Byoyomi, Canadian

from .models import PlayerSettingsRow, RatingChangeRow, RatingRow, RecordRow, UserRow, now_iso
from .privacy import hidden_from

TIME_CLASSES = ("bullet", "blitz", "rapid", "slow")
#: upper bounds (seconds, exclusive) of the expected duration of each time class but the last
BOUNDS = ((180, "bullet"), (480, "blitz"), (1500, "rapid"))
MIN_PLIES_PER_SEAT = 2
PROVISIONAL_GAMES = 5
PROVISIONAL_DEVIATION = {"glicko2": 110.0, "openskill": 160.0}
START = {"glicko2": (1500.0, 350.0, 0.06), "openskill": (1500.0, 500.0, None)}
#: Glicko-2 rating periods a day without games count for (lichess's ``ratingPeriodsPerDay``)
PERIODS_PER_DAY = 0.21436
MODEL = PlackettLuce(mu=1500.0, sigma=500.0, beta=250.0, tau=5.0)
GLICKO_SCALE = 173.7178        # Glicko-2's scale: RD = 173.7178 φ


# ----- time classes -------------------------------------------------------------------------------
def expected_seconds(clock: Any) -> float | None:
    """A clock's expected duration per player in seconds (see the module docstring), or None for
    no limit. ``clock``: a preset name, a clock dict or a ClockSpec; raises OptionError for an
    unknown preset."""
    spec = clock_preset(clock)
    ot = spec.overtime
    extra = (25 * ot.periods * ot.period / 1000 if isinstance(ot, Byoyomi)
             else 25 * ot.period / ot.moves / 1000 if isinstance(ot, Canadian) else 0.0)
    if spec.bank is not None:
        return spec.bank / 1000 + 40 * (spec.increment + spec.delay) / 1000 + extra
    if spec.move_cap is not None:
        return 40 * spec.move_cap / 1000 + extra
    if spec.game_limit is not None:
        return spec.game_limit / 2000
    return None


def time_class(clock: Any) -> str:
    """``bullet``, ``blitz``, ``rapid`` or ``slow`` for ``clock`` (see :func:`expected_seconds`)."""
    secs = expected_seconds(clock)
    if secs is None:
        return "slow"
    for bound, name in BOUNDS:
        if secs < bound:
            return name
    return "slow"


def rating_key(game_id: str, num_seats: int, first_seats: int) -> str:
    """The ``ratings.game`` of a game at ``num_seats`` (``first_seats``: its usual count)."""
    return game_id if num_seats == first_seats else f"{game_id}.{num_seats}"


def board_of(game_id: str, num_seats: int, first_seats: int, clock: Any) -> dict[str, str] | None:
    """``{"game": rating key, "time_class"}`` of a table, or None for a clock that does not read."""
    try:
        return {"game": rating_key(game_id, num_seats, first_seats), "time_class": time_class(clock)}
    except (OptionError, TypeError, KeyError, ValueError):
        return None


def system_for(num_seats: int) -> str:
    return "glicko2" if num_seats == 2 else "openskill"


def provisional(system: str, deviation: float, games: int) -> bool:
    return games < PROVISIONAL_GAMES or deviation > PROVISIONAL_DEVIATION[system]


# ----- what is rated ------------------------------------------------------------------------------
def unrated_reason(rated: bool, seats: list[dict[str, Any] | None], actions: int,
                   result: dict[str, Any] | None) -> str | None:
    """Why a finished game is not rated (``casual``, ``bot``, ``same_player``, ``too_short``,
    ``no_result``), or None when it is. ``actions``: the record's action count."""
    if not rated:
        return "casual"
    users = [s.get("user") if s else None for s in seats]
    if any(u is None or s.get("bot_account") for u, s in zip(users, seats)):   # a bot of either kind
        return "bot"
    if len(set(users)) != len(users):
        return "same_player"
    if not result or "returns" not in result:
        return "no_result"
    if actions < MIN_PLIES_PER_SEAT * len(seats):
        return "too_short"
    return None


def plan(game_id: str, num_seats: int, first_seats: int, clock: Any, rated: bool,
         seats: list[dict[str, Any] | None], actions: int, result: dict[str, Any] | None,
         winners: list[int] | None) -> dict[str, Any] | None:
    """What :func:`rate_record` needs to rate a finished game (plain data: it is sent to the
    writer process), or None when the game is not rated (:func:`unrated_reason`)."""
    if unrated_reason(rated, seats, actions, result) is not None:
        return None
    assert result is not None
    return {"game": rating_key(game_id, num_seats, first_seats), "time_class": time_class(clock),
            "system": system_for(num_seats), "users": [s["user"] for s in seats if s],
            "returns": list(result["returns"]),
            "winners": list(winners if winners is not None else result.get("winners") or [])}


# ----- the systems -------------------------------------------------------------------------------
class Glicko2Player(glicko2.Player):
    """The ``glicko2`` package's player with step 5's function f as Glickman's paper has it:
    the package writes μ² where the paper has φ² (the two agree only at μ = 0, a 1500 rating,
    as in the paper's worked example)."""

    def _f(self, x: float, delta: float, v: float, a: float) -> float:
        phi2 = self._Player__rd ** 2          # the package keeps φ (RD / 173.7178) name-mangled
        ex = math.exp(x)
        return ex * (delta ** 2 - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2) - (x - a) / self._tau ** 2


def glicko2_update(me: tuple[float, float, float], opponents: list[tuple[float, float]],
                   scores: list[float]) -> tuple[float, float, float]:
    """One rating period: ``me`` = (rating, RD, σ), ``opponents`` = [(rating, RD)], ``scores``
    1 / 0.5 / 0 per game. Returns the new (rating, RD, σ)."""
    p = Glicko2Player(*me)
    p.update_player([o[0] for o in opponents], [o[1] for o in opponents], scores)
    return p.rating, p.rd, p.vol


def sides(returns: list[float]) -> list[list[int]]:
    """Seats grouped by equal return, best return first."""
    by: dict[float, list[int]] = {}
    for seat, r in enumerate(returns):
        by.setdefault(r, []).append(seat)
    return [by[r] for r in sorted(by, reverse=True)]


def openskill_update(current: list[tuple[float, float]], returns: list[float]) -> list[tuple[float, float]]:
    """New (μ, σ) per seat from ``returns`` (see the module docstring for sides and teams)."""
    groups = sides(returns)
    if len({len(g) for g in groups}) == 1:
        teams = [[MODEL.create_rating([*current[s]]) for s in g] for g in groups]
        out = MODEL.rate(teams, ranks=list(range(len(groups))))
        new: dict[int, tuple[float, float]] = {}
        for g, team in zip(groups, out):
            for s, r in zip(g, team):
                new[s] = (r.mu, r.sigma)
        return [new[s] for s in range(len(current))]
    rank = {s: i for i, g in enumerate(groups) for s in g}
    out = MODEL.rate([[MODEL.create_rating([*c])] for c in current],
                     ranks=[rank[s] for s in range(len(current))])
    return [(t[0].mu, t[0].sigma) for t in out]


def idle_deviation(rd: float, vol: float, days: float) -> float:
    """RD after ``days`` without games: φ² grows by σ² for each rating period missed (Glicko-2
    step 6, ``PERIODS_PER_DAY`` periods a day), at most the start's 350."""
    periods = max(0.0, days) * PERIODS_PER_DAY
    phi = rd / GLICKO_SCALE
    return min(START["glicko2"][1], GLICKO_SCALE * math.sqrt(phi * phi + periods * vol * vol))


def days_between(earlier: str, later: str) -> float:
    """Days from ISO time ``earlier`` to ``later`` (0 when either does not read)."""
    try:
        return (datetime.fromisoformat(later) - datetime.fromisoformat(earlier)).total_seconds() / 86400
    except (TypeError, ValueError):
        return 0.0


# ----- in the record's transaction ----------------------------------------------------------------
def rate_record(s: Session, record_id: int, p: dict[str, Any]) -> list[dict[str, Any]]:
    """Rate the game of record ``record_id`` by plan ``p`` (:func:`plan`) inside ``s``'s
    transaction: update each player's ``ratings`` row (made at the start values on a first game)
    and add a ``rating_changes`` row each. Returns per seat ``{"user", "before", "after",
    "deviation", "provisional"}``; nothing (and no change) when a player's account is a bot
    account now (games against bot accounts are never rated)."""
    game, tc, system = p["game"], p["time_class"], p["system"]
    # the accounts as they are now, not as the seats were marked: a seat taken by a path that
    # did not mark a bot account (an event's seating), or an account made a bot during the game
    if s.scalar(select(UserRow.id).where(UserRow.id.in_(p["users"]), UserRow.bot.is_(True)).limit(1)):
        return []
    rows = []
    for uid in p["users"]:
        row = s.scalars(select(RatingRow).where(RatingRow.user_id == uid, RatingRow.game == game,
                                                RatingRow.time_class == tc).with_for_update()).first()
        if row is None:
            r0, d0, v0 = START[system]
            row = RatingRow(user_id=uid, game=game, time_class=tc, system=system, rating=r0,
                            deviation=d0, volatility=v0, games=0)
            s.add(row)
        rows.append(row)
    at = now_iso()
    if system == "glicko2":            # the deviation a rating has when its owner comes back
        for r in rows:
            if r.games:
                r.deviation = idle_deviation(r.deviation, r.volatility or START["glicko2"][2],
                                             days_between(r.updated, at))
    before = [(r.rating, r.deviation, r.volatility) for r in rows]
    if system == "glicko2":
        won = p["winners"]
        score = [0.5, 0.5] if not won else [1.0 if i in won else 0.0 for i in range(2)]
        new = [glicko2_update(before[i], [before[1 - i][:2]], [score[i]]) for i in range(2)]
    else:
        new = [(mu, sigma, None) for mu, sigma in openskill_update([b[:2] for b in before], p["returns"])]
    out = []
    for row, b, n in zip(rows, before, new):
        row.rating, row.deviation, row.volatility = n
        row.games = (row.games or 0) + 1
        row.updated = at
        s.add(RatingChangeRow(record_id=record_id, user_id=row.user_id, game=game, time_class=tc,
                              before=b[0], after=n[0], deviation=n[1], at=at))
        out.append({"user": row.user_id, "before": round(b[0]), "after": round(n[0]),
                    "deviation": round(n[1]), "provisional": provisional(system, n[1], row.games)})
    s.flush()
    return out


#: the key, in an event table's ``settings``, of the rating plan (:func:`plan`) of its finished
#: game, kept until its round is over (:func:`rate_round`)
PENDING = "rating_plan"


def rate_round(s: Session, event_id: str, rounds: set[int]) -> list[str]:
    """Rate the games of ``rounds`` of event ``event_id`` (rounds just over), in the order they
    were stored, inside ``s``'s transaction (the event's, which settles the round): an event's
    rated game waits for the end of its round (:data:`PENDING`), because its rating change
    would tell its result while the round's results are held from its players and the public
    (competition.md §6.5, the server's ``conduct.RoundHold``). Each plan is taken off its table
    as it is applied, so a game rates once. Returns the ids of the tables rated."""
    from .models import TableRow

    if not rounds:
        return []
    q = select(TableRow).where(TableRow.event_id == event_id, TableRow.status == "finished",
                               TableRow.record_id.is_not(None))
    rows = [r for r in s.scalars(q) if PENDING in (r.settings or {})
            and (r.settings or {}).get("event_round") in rounds]
    for r in sorted(rows, key=lambda r: r.record_id or 0):
        rate_record(s, r.record_id, r.settings[PENDING])
        r.settings = {k: v for k, v in r.settings.items() if k != PENDING}
    return [r.id for r in rows]


# ----- reading ------------------------------------------------------------------------------------
def rating_json(row: RatingRow) -> dict[str, Any]:
    return {"game": row.game, "time_class": row.time_class, "system": row.system,
            "rating": round(row.rating), "deviation": round(row.deviation), "games": row.games,
            "provisional": provisional(row.system, row.deviation, row.games)}


def leaderboard(s: Session, game: str, tc: str, limit: int = 100) -> list[dict[str, Any]]:
    """The established (not provisional) players of ``game`` in time class ``tc``, best first:
    ``[{"rank", "username", "rating", "deviation", "games"}]``."""
    q = (select(RatingRow, UserRow.username).join(UserRow, UserRow.id == RatingRow.user_id)
         .where(RatingRow.game == game, RatingRow.time_class == tc,
                RatingRow.games >= PROVISIONAL_GAMES)
         .order_by(RatingRow.rating.desc(), RatingRow.user_id).limit(limit * 4))
    out: list[dict[str, Any]] = []
    for row, name in s.execute(q):
        if row.deviation > PROVISIONAL_DEVIATION[row.system]:
            continue
        out.append({"rank": len(out) + 1, "username": name, **rating_json(row)})
        if len(out) >= limit:
            break
    return out


def boards(s: Session) -> list[dict[str, Any]]:
    """Every (game, time class) that has ratings, with its count of rated players."""
    q = (select(RatingRow.game, RatingRow.time_class, func.count())
         .group_by(RatingRow.game, RatingRow.time_class).order_by(RatingRow.game, RatingRow.time_class))
    return [{"game": g, "time_class": tc, "players": n} for g, tc, n in s.execute(q)]


def ratings_of(s: Session, user_id: int) -> list[dict[str, Any]]:
    rows = s.scalars(select(RatingRow).where(RatingRow.user_id == user_id)
                     .order_by(RatingRow.game, RatingRow.time_class)).all()
    return [rating_json(r) for r in rows]


def history_of(s: Session, user_id: int, viewer_id: int | None,
               limit: int = 500) -> list[dict[str, Any]]:
    """The player's rating after each rated game that ``viewer_id`` (None: signed out) may see
    (:func:`.privacy.hidden_from`: not a game with another player who hides their history),
    oldest first: ``[{"game", "time_class", "record", "before", "after", "at"}]`` (the last
    ``limit``)."""
    q = (select(RatingChangeRow).join(RecordRow, RecordRow.id == RatingChangeRow.record_id)
         .where(RatingChangeRow.user_id == user_id, ~hidden_from(viewer_id))
         .order_by(RatingChangeRow.id.desc()).limit(limit))
    rows = list(s.scalars(q))[::-1]
    return [{"game": r.game, "time_class": r.time_class, "record": r.record_id,
             "before": round(r.before), "after": round(r.after), "at": r.at} for r in rows]


def changes_of_record(s: Session, record_id: int) -> list[dict[str, Any]]:
    """The rating change of each rated player of record ``record_id``, in seat order, as
    :func:`rate_record` returned them: ``[{"user", "before", "after", "deviation",
    "provisional"}]`` (provisional as it was after that game: the player's rated games of that
    game and time class up to it); empty when the game was not rated."""
    q = (select(RatingChangeRow, RatingRow.system)
         .join(RatingRow, (RatingRow.user_id == RatingChangeRow.user_id)
               & (RatingRow.game == RatingChangeRow.game)
               & (RatingRow.time_class == RatingChangeRow.time_class))
         .where(RatingChangeRow.record_id == record_id).order_by(RatingChangeRow.id))
    out = []
    for r, system in s.execute(q).all():
        games = s.scalar(select(func.count()).select_from(RatingChangeRow).where(
            RatingChangeRow.user_id == r.user_id, RatingChangeRow.game == r.game,
            RatingChangeRow.time_class == r.time_class, RatingChangeRow.id <= r.id)) or 0
        out.append({"user": r.user_id, "before": round(r.before), "after": round(r.after),
                    "deviation": round(r.deviation), "provisional": provisional(system, r.deviation, games)})
    return out


def hides_history(s: Session, user_id: int) -> bool:
    row = s.get(PlayerSettingsRow, user_id)
    return bool(row and row.hide_history)


def set_hide_history(s: Session, user_id: int, hide: bool) -> None:
    row = s.get(PlayerSettingsRow, user_id)
    if row is None:
        s.add(PlayerSettingsRow(user_id=user_id, hide_history=hide))
    else:
        row.hide_history = hide
