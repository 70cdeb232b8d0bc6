"""Two-sided matches under the series rule (competition.md §2.2): the next game of a match from
its finished games, the match decided, walkovers of no-shows (§5.6) and forfeits of entrants who
withdrew or were disqualified (§2.7)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from . import lot
from .common import ROTATING_DEALER, now
from .db import GameRow, MatchRow
from .rules import SeriesGame, series_status

if TYPE_CHECKING:
    from .director import Director


def series_rule(director: Director, m: MatchRow) -> Any:
    """The series rule of match ``m``; in a points format the pairing gives the first mover and
    a match may end level."""
    rule = director.rule(m)
    if director.format.points:
        rule = dataclasses.replace(rule, first_game1="lower_draw_number", tiebreak="none")
    return rule


def update_series(director: Director, m: MatchRow, done: list[GameRow]) -> None:
    """Decide two-sided match ``m`` from its finished games ``done`` (§2.2), or add its next game
    (seats by the first-mover rule, seed, clock, variant, 4A4's dealer, pair members' seats)."""
    a, b = m.entrants
    if m.absent:
        walkover_series(director, m)
        return
    games = []
    for g in done:
        first = 0 if g.seats[0] == a else 1
        w = g.result.get("winner_draws") or []
        winner = None if not w else (0 if w[0] == a else 1)
        games.append(SeriesGame(first, winner, g.result.get("moves") if g.result.get("moves") is not None
                                else 10**6))
    key = director.key(m)
    rule = series_rule(director, m)
    st = series_status(rule, games, coin=lambda n: lot.coin(m.secret, key, n),
                       lot=lambda: lot.stream(m.secret, "lot", key, "series").uniform(2))
    if st.done:
        winner = None if st.winner is None else m.entrants[st.winner]
        m.status = "finished"
        m.result = {"winner": winner, "points": list(st.points), "games": len(games),
                    "decided_by": st.decided_by, "text": st.describe(len(games))}
        return
    seats = [a, b] if st.first == 0 else [b, a]
    spec = {"seed": lot.deal_seed(m.secret, key, st.number), "clock": st.clock,
            "extra": st.number > rule.scheduled}
    if st.variant:
        spec["variant"] = st.variant
    if director.cfg.game_id in ROTATING_DEALER:     # 4A4 §2.2: first dealer by lot, then the next seat
        first = lot.stream(m.secret, "first-actor", key).uniform(ROTATING_DEALER[director.cfg.game_id])
        spec["deal"] = {"dealer": (first + st.number - 1) % ROTATING_DEALER[director.cfg.game_id]}
    if director.cfg.pairs:
        seats, spec["members"] = director.pair_seats(m, seats)
    m.games.append(GameRow(number=st.number, seats=seats, spec=spec, status="pending"))
    director.s.flush()


def walkover_series(director: Director, m: MatchRow) -> None:
    """No-show (§5.6): the present entrant wins, every game is a forfeit (0 moves), as many
    as the series rule needs to decide; if both are absent, neither advances."""
    a, b = m.entrants
    gp = series_rule(director, m).game_points
    if len(m.absent) == 2:
        m.status = "finished"
        m.result = {"winner": None, "points": [gp.loss, gp.loss], "games": 0,
                    "decided_by": "double_no_show", "text": "both absent"}
        return
    winner = b if m.absent[0] == a else a
    games: list[SeriesGame] = []
    key = director.key(m)
    while True:
        st = series_status(series_rule(director, m), games, coin=lambda n: lot.coin(m.secret, key, n),
                           lot=lambda: lot.stream(m.secret, "lot", key, "series").uniform(2))
        if st.done:
            break
        games.append(SeriesGame(st.first, 0 if winner == a else 1, 0))
        seats = [a, b] if st.first == 0 else [b, a]
        m.games.append(GameRow(number=st.number, seats=seats, spec={"forfeit": True}, status="finished",
                               source="forfeit", finished=now(),
                               result={"reason": "no_show", "winner_draws": [winner], "moves": 0,
                                       "text": "forfeit"}))
    m.status = "finished"
    m.result = {"winner": winner, "points": list(st.points), "games": len(games),
                "decided_by": "walkover",
                "text": f"walkover: {director.by_draw[m.absent[0]].entrant_id} absent"}


def forfeit_series(director: Director, m: MatchRow, loser: int, games: list[GameRow]) -> None:
    """``loser`` has withdrawn: the match is lost by forfeit. The game waiting to be played
    (if any) becomes the forfeited game, keeping its number and seats; otherwise a forfeited
    game is added. Finished games stand."""
    a, b = m.entrants
    winner = b if loser == a else a
    gp = series_rule(director, m).game_points
    done = [g for g in games if g.status == "finished"]
    pw = sum(_pts(gp, g, winner) for g in done) + gp.score(True, 0)
    pl = sum(_pts(gp, g, loser) for g in done) + gp.score(False, 0)
    status = director.by_draw[loser].status
    why = {"withdrawn": "withdrawal", "disqualified": "disqualification"}.get(status, "penalties")
    result = {"reason": why, "winner_draws": [winner], "moves": 0, "text": "forfeit"}
    pending = [g for g in games if g.status == "pending"]
    if pending:
        g = pending[0]
        g.status, g.source, g.finished, g.result = "finished", "forfeit", now(), result
        g.spec = {**g.spec, "forfeit": True}
    else:
        m.games.append(GameRow(number=len(done) + 1, seats=[winner, loser], spec={"forfeit": True},
                               status="finished", source="forfeit", finished=now(), result=result))
    pts = [pw, pl] if winner == a else [pl, pw]
    m.status = "finished"
    m.result = {"winner": winner, "points": pts, "games": len(done) + 1, "decided_by": "forfeit",
                "text": f"forfeit by {director.by_draw[loser].entrant_id}"}


def _pts(gp: Any, g: GameRow, d: int) -> float:
    w = g.result.get("winner_draws") or []
    moves = g.result.get("moves")          # None: entered without a count, so not a short game
    return gp.score(None if not w else w[0] == d, 10**6 if moves is None else moves)
