"""Confirming and correcting results (competition.md §5.7).

A finished game's result is provisional until it is confirmed: by every entrant seated in it
(each one's confirmation is recorded), or at once by a referee. A referee (or the organizer) may
correct a result caused by an engine defect or wrong data, with a written reason; the game then
carries the corrected result, the correction (who, why, the previous result) is kept in its
result and record, and the act is written to the event's log (:mod:`.acts`) in the same
transaction. A correction stands as the referee's ruling: the result is confirmed by it.

What a correction recomputes (§5.7: "a knockout's next round may start on provisional results
and be corrected"):

* its match is decided again from all its finished games (series or session rule); games of the
  match that were waiting to be played are dropped and the next one is made again, so a series
  may now need another game or be over sooner;
* a duplicate round's tables are compared again (§2.8);
* standings of points formats (round robin, Swiss, table Swiss) are computed from the results,
  so they follow; rounds already paired stand (pairings are not redone);
* in a knockout, when the correction changes who goes on, the later rounds of the stage are
  paired again — refused once any game of them has been played or is at a table (``seated``);
* a finished event is reopened and finished again, so its outcome and placement points follow.

A correction is refused for a game that is not finished, a forfeit or a voided deal, or a game
of an earlier stage once a later stage has begun. Every refusal is an :class:`EventError` and
changes nothing.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from qipai.core.errors import Message

from .acts import record_act
from .common import EventError, now
from .db import EventRow, GameRow, MatchRow
from .director import Director
from .sessions import compare_duplicates

#: the keys a duplicate table's result has before the round's comparison decides it
PRE_COMPARE = ("winner", "session_totals", "deals", "ended_by", "compare", "absent")


def _game(s: Session, event_id: str | None, game_id: Any) -> tuple[EventRow, GameRow]:
    from .ops import _event

    ev = _event(s, event_id)
    g = s.get(GameRow, game_id) if isinstance(game_id, int) and not isinstance(game_id, bool) else None
    if g is None or g.match.event_id != ev.id:
        raise EventError(Message(f"event {ev.id} has no game {game_id!r}", code="event.no_game",
                                 params={"game": str(game_id)}))
    if g.status != "finished":
        raise EventError(Message(f"game {g.id} has no result yet", code="event.no_result_yet",
                                 params={"game": g.id}))
    return ev, g


def _seated_ids(d: Director, g: GameRow) -> list[str]:
    """The entrant ids seated in ``g`` who play it themselves (not absent, not a bot)."""
    out = d.out_seats(g.match)
    ids = []
    for seat, x in enumerate(g.seats):
        if x in out or x not in d.by_draw:
            continue
        who, bot = d.seat_player(g, seat)
        if not bot and d.by_draw[x].entrant_id not in ids:
            ids.append(d.by_draw[x].entrant_id)
    return ids


#: competition.md §5.7 ``appeal_window``: a dispute may be filed this long after the game ends
APPEAL_WINDOW_S = 600


def result_states(d: Director, seated: Collection[int] = (), at: datetime | None = None) -> dict[int, str]:
    """The standing of each finished game of ``d``'s stage (§5.7), by game id: ``confirmed`` (by
    every player of it, or a referee, or a correction), ``final`` (no longer open to dispute: no
    entrant plays it in person — bots and engines file no disputes and the engine's judgement is
    final —, or :data:`APPEAL_WINDOW_S` has passed since it ended, or one of its players' next
    match has started), else ``provisional``. ``seated``: ids of games now at live tables (they
    have started)."""
    at = at or datetime.now(UTC)
    matches = d.matches()
    # the latest round in which each entrant has started a game (finished, or at a table)
    started: dict[Any, int] = {}
    for m in matches:
        for g in m.games:
            if g.status == "finished" or g.id in seated:
                for x in g.seats:
                    started[x] = max(started.get(x, m.round), m.round)
    out: dict[int, str] = {}
    for m in matches:
        for g in m.games:
            if g.status != "finished":
                continue
            res = g.result or {}
            ids = _seated_ids(d, g)
            players = [x for x in g.seats if x in d.by_draw and d.by_draw[x].entrant_id in ids]
            ended = datetime.fromisoformat(g.finished) if g.finished else None
            if res.get("confirmed"):
                out[g.id] = "confirmed"
            elif (not players or (ended is not None and (at - ended).total_seconds() > APPEAL_WINDOW_S)
                  or any(started.get(x, m.round) > m.round for x in players)):
                out[g.id] = "final"
            else:
                out[g.id] = "provisional"
    return out


def confirm_result(db: sessionmaker[Session], event_id: str | None, game_id: int, by: str, *,
                   referee: bool = False, reason: str = "", user_id: int | None = None) -> dict[str, Any]:
    """Confirm the result of finished game ``game_id``: a player's confirmation (``by`` an entrant
    id, or a pair member's account, seated in the game), or with ``referee`` a referee's, which
    confirms it at once (``reason`` may say why). The result is confirmed once every entrant
    playing the game has confirmed it. Recorded in the event's log. Returns ``{"game",
    "confirmed", "confirmed_by", "waiting"}`` (the entrants yet to confirm). Raises EventError
    (nothing changed) for an unknown or unfinished game, a player not seated in it, a second
    confirmation by the same player, or a result already confirmed."""
    with db() as s:
        ev, g = _game(s, event_id, game_id)
        d = Director(s, ev, g.match.stage)
        res = dict(g.result or {})
        if res.get("confirmed"):
            raise EventError(Message(f"the result of game {g.id} is already confirmed",
                                     code="event.already_confirmed", params={"game": g.id}))
        players = _seated_ids(d, g)
        got = list(res.get("confirmed_by") or [])
        if referee:
            got.append(f"referee {by}")
            res["confirmed"] = True
            record_act(s, ev.id, "confirm", by, reason, user_id=user_id, game_id=g.id,
                       data={"result": res.get("text"), "referee": True})
        else:
            entrant = _entrant_of(d, g, by)
            if entrant is None or entrant not in players:
                raise EventError(Message(f"{by!r} does not play game {g.id}; its players are "
                                         f"{', '.join(players) or 'none'}", code="event.not_their_game",
                                         params={"who": by, "game": g.id}))
            if entrant in got:
                raise EventError(Message(f"{entrant} has already confirmed the result of game {g.id}",
                                         code="event.confirmed_twice", params={"who": entrant, "game": g.id}))
            got.append(entrant)
            res["confirmed"] = all(p in got for p in players)
            record_act(s, ev.id, "confirm", by, reason, user_id=user_id, game_id=g.id, entrant=entrant,
                       data={"result": res.get("text")})
        res["confirmed_by"] = got
        g.result = res
        s.commit()
        return {"game": g.id, "confirmed": res["confirmed"], "confirmed_by": got,
                "waiting": [p for p in players if p not in got and not res["confirmed"]]}


def _entrant_of(d: Director, g: GameRow, who: str) -> str | None:
    """The entrant id that ``who`` (an entrant id, or a pair member's account) plays for in ``g``."""
    for seat, x in enumerate(g.seats):
        if x in d.by_draw and who in (d.by_draw[x].entrant_id, d.seat_player(g, seat)[0]):
            return d.by_draw[x].entrant_id
    return None


def correct_result(db: sessionmaker[Session], event_id: str | None, game_id: int, text: str, *, by: str,
                   reason: str, moves: int | None = None, user_id: int | None = None,
                   seated: Collection[int] = ()) -> dict[str, Any]:
    """Correct the result of finished game ``game_id`` to ``text`` (as :func:`.ops.enter_result`
    takes it; ``moves`` the move count where it matters), ``by`` a referee or the organizer
    with a written ``reason``; ``seated``: ids of event games now at live tables (they cannot be
    paired again). Recomputes what the module docstring says. Returns ``{"game", "from", "to",
    "match", "repaired"}`` (``repaired``: the rounds paired again). Raises EventError, changing
    nothing."""
    if not reason or not reason.strip():
        raise EventError(Message("give the reason for the correction", code="event.correction_reason"))
    if moves is not None and (isinstance(moves, bool) or not isinstance(moves, int) or moves < 0):
        raise EventError(Message(f"moves must be a whole number >= 0, not {moves!r}", code="event.bad_moves",
                                 params={"moves": str(moves)}))
    with db() as s:
        ev, g = _game(s, event_id, game_id)
        m = g.match
        if g.source == "forfeit" or (g.result or {}).get("void"):
            raise EventError(Message(f"game {g.id} was not played ({(g.result or {}).get('text')}): a "
                                     "forfeit or a voided deal has no result to correct",
                                     code="event.not_played", params={"game": g.id}))
        latest = Director(s, ev)
        if m.stage < latest.stage_no:
            raise EventError(Message(f"game {g.id} belongs to stage {m.stage}, and stage "
                                     f"{latest.stage_no} has begun", code="event.later_stage",
                                     params={"game": g.id, "stage": latest.stage_no}))
        d = latest
        before = dict(g.result)
        old = (m.status, dict(m.result or {}))
        source, record = g.source, g.record
        d.enter(g, text.strip(), moves if moves is not None else before.get("moves"),
                before.get("duration", 0))
        g.source = source          # how the game came about (played or entered) does not change
        note = {"by": by, "reason": reason.strip(), "at": now(), "from": before.get("text"),
                "to": g.result.get("text")}
        g.result = {**g.result, "confirmed": True, "confirmed_by": [f"referee {by}"],
                    "corrections": [*before.get("corrections", []), note]}
        g.record = {**g.record, "meta": {**(g.record.get("meta") or {}),
                                         "corrected": {**note, "previous": {"result": before,
                                                                            "record": record}}}}
        was_over = all(x.status == "finished" for x in d.matches(m.round))
        _decide_again(d, m, seated)
        repaired = _repair_later_rounds(d, m, old, seated)
        if m.status == "pending" and m.round < d.current_round():
            raise EventError(Message(f"with {text.strip()!r} match r{m.round}.m{m.index} would need "
                                     f"another game, but round {d.current_round()} has been paired",
                                     code="event.needs_game", params={"round": d.current_round()}))
        if ev.status == "finished":          # its outcome follows the correction
            ev.status, ev.outcome = "running", None
        s.flush()
        d.advance()
        data: dict[str, Any] = {"from": note["from"], "to": note["to"], "repaired": repaired}
        if was_over and m.status != "finished":
            # a round over, open again for this match's next game: its results stay shown
            # (Director.held_rounds), as they were before the correction
            data["reopened"] = m.round
        record_act(s, ev.id, "correct", by, reason.strip(), user_id=user_id, game_id=g.id, data=data)
        s.commit()
        return {"game": g.id, "from": note["from"], "to": note["to"], "match": m.id, "repaired": repaired}


def _decide_again(d: Director, m: MatchRow, seated: Collection[int]) -> None:
    """Match ``m`` decided again from its finished games: its waiting games are dropped (the
    next one is made again from the corrected result); a duplicate round is compared again."""
    s = d.s
    for x in list(m.games):
        if x.status == "pending":
            if x.id in seated:
                raise EventError(Message(f"game {x.id} of this match is being played at a table: "
                                         "adjudicate or void it first", code="event.game_at_table",
                                         params={"game": x.id}))
            s.delete(x)
    s.flush()
    s.expire(m, ["games"])
    m.status, m.result = "pending", None
    d._update_match(m)
    if m.result and "compare" in m.result and m.round < d.current_round():
        round_ = d.matches(m.round)
        for t in round_:
            if t.kind == "session" and t.result and "compare" in t.result:
                t.result = {k: v for k, v in t.result.items() if k in PRE_COMPARE} | {"winner": None}
        compare_duplicates(d, round_)


def _repair_later_rounds(d: Director, m: MatchRow, old: tuple[str, dict[str, Any]],
                         seated: Collection[int]) -> list[int]:
    """In a knockout, when the correction changed who goes on from ``m`` (its winner or table
    ranks, or it is undecided again), the later rounds of the stage are removed to be paired
    again. Returns their round numbers. Raises EventError when one of their games was played or
    is at a table."""
    if not d.format.knockout:
        return []
    status, res = old
    new = m.result or {}
    same = m.status == status and all(new.get(k) == res.get(k) for k in ("winner", "ranking", "ranks"))
    later = [x for x in d.matches() if x.round > m.round]
    if same or not later:
        return []
    for x in later:
        for g in x.games:
            if g.status == "finished" and g.source != "forfeit" or g.id in seated:
                raise EventError(Message(f"the correction changes who goes on from round {m.round}, and "
                                         f"round {x.round} is already being played: void its games first",
                                         code="event.round_played", params={"round": x.round}))
    for x in later:
        for g in list(x.games):
            d.s.delete(g)
        d.s.delete(x)
    d.s.flush()
    return sorted({x.round for x in later})
