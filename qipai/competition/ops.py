"""Operations on a stored event, each one transaction: play the bots' games, enter a result,
no-shows, withdrawals, disqualification, a voided game. Each raises :class:`EventError` and
changes nothing when it refuses. Given ``log`` (an :class:`~.acts.Act`), an operation writes
its entry in the event's log in the same transaction as its change: both or neither."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from qipai.core.errors import Message, OptionError, why_cause

from . import lot
from .acts import Act
from .common import EventError
from .db import EventRow, GameRow, MatchRow
from .director import Director
from .games import BOT_THINK_MS


def _event(s: Session, event_id: str | None) -> EventRow:
    if event_id is None:
        ev = s.scalars(select(EventRow).order_by(EventRow.created.desc(), EventRow.id.desc())).first()
        if ev is None:
            raise EventError(Message("no event yet; create one with `qipai event new`",
                                     code="event.no_event_yet"))
        return ev
    ev = s.get(EventRow, event_id)
    if ev is None:
        raise EventError(Message(f"no event {event_id!r}", code="event.none", params={"id": event_id}))
    return ev


def _running(s: Session, event_id: str | None) -> EventRow:
    """The event ``event_id`` (default: the latest), refused with EventError if it is finished."""
    ev = _event(s, event_id)
    if ev.status != "running":
        raise EventError(Message(f"event {ev.id} is finished", code="event.finished", params={"id": ev.id}))
    return ev


def _pending_game(s: Session, ev: EventRow, game_id: int) -> GameRow:
    """Game ``game_id`` of ``ev``, waiting for its result. Raises EventError."""
    g = s.get(GameRow, game_id)
    if g is None or g.match.event_id != ev.id:
        raise EventError(Message(f"event {ev.id} has no game {game_id}", code="event.no_game",
                                 params={"game": game_id}))
    if g.status != "pending":
        raise EventError(Message(f"game {game_id} already has a result ({g.result.get('text')}, {g.source})",
                                 code="event.has_result",
                                 params={"game": game_id, "result": g.result.get("text")}))
    return g


def run_event(db: sessionmaker[Session], event_id: str | None = None, *, max_games: int | None = None,
              think_ms: int = BOT_THINK_MS,
              on_game: Callable[[GameRow], None] | None = None) -> dict[str, Any]:
    """Play every pending game whose seats are all bots, one committed game at a time, until the
    event is finished or waits for entered results. Returns a summary."""
    played = 0
    with db() as s:
        ev = _event(s, event_id)
        d = Director(s, ev)
        while ev.status == "running" and (max_games is None or played < max_games):
            todo = [g for g in d.pending_games() if d.is_bot_game(g)]
            if not todo:
                break
            g = todo[0]
            d.play(g, think_ms=think_ms)
            s.flush()
            d.advance()
            s.commit()           # one finished game per transaction: nothing finished is lost
            played += 1
            if on_game:
                on_game(g)
        waiting = [g.id for g in d.pending_games()]
        return {"event": ev.id, "played": played, "status": ev.status, "waiting": waiting,
                "outcome": ev.outcome}


def enter_result(db: sessionmaker[Session], event_id: str | None, game_id: int, text: str,
                 moves: int | None = None, duration: int | str | None = None, *,
                 log: Act | None = None) -> GameRow:
    """Enter the result of pending game ``game_id``; ``duration`` (ms, or ``"12m30s"``-style
    text as clocks take it) is how long it took, which session time limits count (§2.3);
    ``log``: the act (``enter_result``) is logged in the same transaction.
    Raises EventError (nothing changed) for an unknown game, a game of another event, a game
    that already has a result, or a bad move count or duration."""
    if moves is not None and (isinstance(moves, bool) or not isinstance(moves, int) or moves < 0):
        raise EventError(Message(f"moves must be a whole number >= 0, not {moves!r}", code="event.bad_moves",
                                 params={"moves": moves}))
    ms = 0
    if duration is not None:
        from qipai.match.clock import duration_ms

        try:
            ms = duration_ms(duration)
        except OptionError as e:
            raise EventError(Message(f"duration: {e}", code="event.bad_duration",
                                     params={"duration": str(duration),
                                             **why_cause(e, "clock.see_fields")})) from None
        if ms < 0:
            raise EventError(Message(f"duration must not be negative, not {duration!r}",
                                     code="event.bad_duration",
                                     params={"duration": str(duration), "cause": "clock.negative"}))
    with db() as s:
        ev = _event(s, event_id)
        g = _pending_game(s, ev, game_id)
        d = Director(s, ev)
        d.enter(g, text, moves, ms)
        s.flush()
        d.advance()
        if log is not None:
            log.write(s, ev.id, game_id=g.id, data={"result": text, "moves": moves, "duration": duration})
        s.commit()
        return g


def no_show(db: sessionmaker[Session], event_id: str | None, entrant_ids: Sequence[str], *,
            log: Act | None = None) -> list[int]:
    """Declare entrants absent from their pending match after the grace period (§5.6), all at
    once. Two-sided match: the present entrant wins by walkover, each game a forfeit; both
    absent: neither advances (a knockout slot becomes a bye). Table: with two or more present
    the session is played with the absent seats in trusteeship, ranked last and unable to
    advance; one present advances by walkover; none: the table gives nobody.
    ``log``: the act (``no_show``, ``data.absent`` the players) is logged in the same transaction.
    Returns the ids of the matches concerned. Raises EventError (nothing changed) for an unknown
    or repeated player, one with no pending match, or a match that has already started."""
    if not entrant_ids:
        raise EventError(Message("name at least one absent player", code="event.no_absent"))
    if len(set(entrant_ids)) != len(entrant_ids):
        raise EventError(Message("a player is named twice", code="event.named_twice"))
    with db() as s:
        ev = _running(s, event_id)
        d = Director(s, ev)
        ids = {e.entrant_id: e.draw for e in ev.entrants}
        rnd = d.current_round()
        found: dict[int, tuple[MatchRow, list[int]]] = {}
        for pid in entrant_ids:
            if pid not in ids:
                raise EventError(Message(f"event {ev.id} has no player {pid!r}", code="event.no_player",
                                         params={"who": pid}))
            draw = ids[pid]
            ms = [m for m in d.matches(rnd) if m.status == "pending" and draw in m.entrants]
            if not ms:
                raise EventError(Message(f"player {pid!r} has no pending match in round {rnd}",
                                         code="event.no_pending_match", params={"who": pid, "round": rnd}))
            m = ms[0]
            if any(g.status == "finished" for g in m.games):
                raise EventError(Message(f"the match of {pid!r} has started: absence is now handled by the "
                                         "clock",
                                         code="event.match_started", params={"who": pid}))
            if draw in (m.absent or []):
                raise EventError(Message(f"player {pid!r} is already marked absent",
                                         code="event.already_absent",
                                         params={"who": pid}))
            found.setdefault(m.id, (m, []))[1].append(draw)
        for m, draws in found.values():
            m.absent = sorted([*(m.absent or []), *draws])
            present = [x for x in m.entrants if x not in m.absent]
            if m.kind == "series" or len(present) <= 1:
                for g in list(m.games):
                    if g.status == "pending":
                        s.delete(g)
        s.flush()
        for m, _ in found.values():
            s.expire(m, ["games"])
        d.advance()
        if log is not None:
            log.write(s, ev.id, entrant=entrant_ids[0] if len(entrant_ids) == 1 else None,
                      data={"absent": list(entrant_ids), "matches": sorted(found)})
        s.commit()
        return sorted(found)


def withdraw(db: sessionmaker[Session], event_id: str | None, entrant_id: str, *,
             log: Act | None = None) -> None:
    """Withdraw an entrant. Two-sided matches: its pending match is lost by forfeit — the game
    waiting to be played becomes the forfeited game (same game number) — and so is every later
    match it is paired in (round robin); Swiss pairs it no more. Card tables: a concession
    (§5.5): its seat is played by trusteeship for the rest of the session, ranked last, never
    advancing. Results already reached stand. ``log``: the act (``withdraw``) is logged in the
    same transaction. Raises EventError (nothing changed) for an unknown player, one already
    withdrawn, or a finished event."""
    _leave(db, event_id, entrant_id, "withdrawn",
           Message(f"player {entrant_id!r} has already withdrawn", code="event.already_withdrawn",
                   params={"who": entrant_id}), log)


def _leave(db: sessionmaker[Session], event_id: str | None, entrant_id: str, status: str,
           already: Message, log: Act | None = None) -> None:
    """Set an entrant's status to ``withdrawn`` or ``disqualified`` and advance the event;
    ``log`` is recorded in the event's log in the same transaction; ``already`` is the refusal
    for an entrant whose status is already ``status``. Raises
    EventError (nothing changed) for an unknown player, one already so, or a finished event."""
    with db() as s:
        ev = _event(s, event_id)
        rows = [e for e in ev.entrants if e.entrant_id == entrant_id]
        if not rows:
            raise EventError(Message(f"event {ev.id} has no player {entrant_id!r}", code="event.no_player",
                                     params={"who": entrant_id}))
        if rows[0].status == status:
            raise EventError(already)
        if ev.status != "running":
            raise EventError(Message(f"event {ev.id} is finished",
                                     code="event.finished", params={"id": ev.id}))
        rows[0].status = status
        s.flush()
        Director(s, ev).advance()
        if log is not None:
            log.write(s, ev.id, entrant=entrant_id)
        s.commit()


def disqualify(db: sessionmaker[Session], event_id: str | None, entrant_id: str, *, by: str | None = None,
               reason: str = "", log: Act | None = None) -> None:
    """Disqualify an entrant (competition.md §2.7, a referee's act): it is removed from the
    event. Two-sided: its pending match is lost at once (the game waiting or in play becomes
    the forfeited game); card tables: its seat is played by trusteeship for the rest of the
    session and it is ranked last; standings rank it last whatever its score; its placement
    points are 0. Results it already reached stand. ``by`` (with its ``reason``), or ``log``:
    the act is recorded in the event's log in the same transaction. Raises EventError (nothing
    changed) for an unknown player, one already disqualified, or a finished event."""
    if log is None and by:
        log = Act("disqualify", by, reason)
    _leave(db, event_id, entrant_id, "disqualified",
           Message(f"player {entrant_id!r} is already disqualified", code="event.already_disqualified",
                   params={"who": entrant_id}), log)


def void_game(db: sessionmaker[Session], event_id: str | None, game_id: int,
              note: dict[str, Any], *, log: Act | None = None) -> GameRow:
    """A referee voids pending game ``game_id`` and orders it replayed (competition.md §5.7):
    it stays pending, dealt again with the next RNG attempt (§5.1: a new seed from the same
    derivation with ``attempt + 1``) — except at a table of a duplicate round, which replays the
    very same deal, since the round's comparison needs every table to hold the same cards
    (§2.8) — and ``note`` (who, why, the voided table) is kept in its spec's ``voided`` list;
    ``log``: the act (``void``) is written to the event's log in the same transaction. Raises
    EventError for an unknown or finished game."""
    from .dealing import match_fields

    with db() as s:
        ev = _running(s, event_id)
        g = _pending_game(s, ev, game_id)
        m = g.match
        voided = [*g.spec.get("voided", []), note]
        if g.spec.get("duplicate_table") is not None:       # the same cards again
            g.spec = {**g.spec, "voided": voided}
        else:
            attempt = int(g.spec.get("attempt", 0)) + 1
            fields, match = match_fields(ev.id, m.round, m.index, False)
            secret = lot.seed(ev.secret, "match", fields).hex()
            g.spec = {**g.spec, "seed": lot.deal_seed(secret, match, g.number, attempt), "attempt": attempt,
                      "voided": voided}
        if log is not None:
            log.write(s, ev.id, game_id=g.id)
        s.commit()
        return g
