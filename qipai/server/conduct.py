"""Conduct rules of the live tables that are not a game's: who may watch an event table, how
many tables an account may hold open, and when an idle table is given up.

* §6.5: a player of an event round (seated at one of its live tables, or with a match of it
  not over) may not watch the other tables of that round (4403 ``round_player``).
* An account may hold at most ``Settings.max_open_tables`` tables it created that are open or
  playing (409 ``too_many_tables``), and start games of bots alone (nobody seated) at the rate
  of ``Limits.bot_games_account`` (429 ``rate_limited``).
* A table is *idle* when nothing can happen there without a person: it is open (waiting for
  players), or its game has no pending deadline (no clock, or an untimed turn). An idle table
  with no change of seats or game for ``Settings.table_idle_timeout`` seconds, and no seated
  player connected, is **aborted**: status ``aborted``, no result and no record, never resumed
  after a restart; connected clients get an ``aborted`` event, the table, and the close code
  4410 ``table_closed``. Event tables are never idle (their organizer decides).
* A lobby board game in which a person's seat runs out of time before that seat made its
  first move is **aborted** the same way (4410 ``no_first_move``): it counts for nobody — no
  result, no record, no rating, no loss in anyone's history — as a game abandoned before it
  began is on lichess and OGS. An event's game is not: there absence is the clock's
  (competition.md §5.6); nor is a card or tile game, begun at its deal (each seat has seen its
  hand). The abort is for a game of two seats, where nothing is left to play without the
  absent one; in a game of more seats (Chinese checkers for three to six, junqi's two teams)
  the others play on, and the seat that never moved is dealt with by its clock's rule (its
  turns skipped, then out, as ``tiaoqi_multi`` says).
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import update
from sqlalchemy.orm import Session

from .errors import ApiError
from .models import TableRow
from .ratelimit import retry_after
from .store import Call

if TYPE_CHECKING:
    from .app import Limiters
    from .events import EventService
    from .hub import Hub
    from .models import UserRow
    from .tables import LiveTable

log = logging.getLogger("qipai.server")


def epoch(iso: str | None) -> float:
    """Unix seconds of an ISO timestamp (now when missing or unreadable)."""
    try:
        return datetime.fromisoformat(iso).timestamp() if iso else time.time()
    except ValueError:
        return time.time()


def wall_of_last_activity(rows: list[tuple[str, int | None, str | None, int, Any]]) -> float | None:
    """When (unix seconds) the last input of a game's action log came, or None when the log
    has no wall-clock anchor. ``start`` and ``restart`` rows carry ``data.wall`` (unix seconds
    at table time ``t``); table time runs with real time between them."""
    anchor: tuple[int, float] | None = None
    last: float | None = None
    for kind, _seat, _action, t, data in rows:
        if kind in ("start", "restart") and isinstance(data, dict) and "wall" in data:
            anchor = (t, float(data["wall"]))
        if kind in ("expire", "restart", "pause", "resume"):   # the clock or the server, not people
            continue
        if anchor is not None:
            last = anchor[1] + (t - anchor[0]) / 1000
    return last


def check_quota(hub: Hub, owner_id: int, mine: int | None = None) -> None:
    """Raise 409 ``too_many_tables`` when ``owner_id`` holds ``max_open_tables`` open or playing
    tables it created: those of this process, or ``mine`` (counted for a whole cluster,
    :mod:`.quota`)."""
    top = hub.settings.max_open_tables
    if mine is None:
        mine = sum(1 for t in hub.tables.values() if t.owner_id == owner_id)
    if mine >= top:
        raise ApiError(409, "too_many_tables", f"you already have {mine} open or running tables "
                                               f"(at most {top}); finish one before creating another",
                       open=mine, max=top)


async def check_bot_game(limits: Limiters, table: LiveTable, user_id: int, adding: int) -> None:
    """Raise 429 ``rate_limited`` when seating ``adding`` bots would start a game of bots alone
    at ``table`` (no person seated) and ``user_id`` has used up its share of such games
    (``Limits.bot_games_account``): the open-table limit bounds the tables an account holds at
    once, and this bounds the games it makes the server play and store with nobody at them."""
    if adding < sum(s is None for s in table.seats) or any(s and "user" in s for s in table.seats):
        return
    wait = await limits.hit("bot_games", str(user_id))
    if wait:
        raise ApiError(429, "rate_limited", "too many games of bots alone; sit at the table, or "
                       "wait", retry_after=retry_after(wait), what="bot_games")


def event_round(t: LiveTable) -> int | None:
    """The round of the event game played at ``t``, from its settings (None for other tables)."""
    return t.event_round if t.event_id is not None else None


def round_table_of(hub: Hub, user_id: int, table: LiveTable) -> LiveTable | None:
    """Another live table of ``table``'s event round where ``user_id`` plays (so that player may
    not watch ``table``, §6.5), or None."""
    rnd = event_round(table)
    if rnd is None:
        return None
    for t in hub.tables.values():
        if (t is not table and t.event_id == table.event_id and t.seat_of(user_id) is not None
                and event_round(t) == rnd):
            return t
    return None


async def round_player(hub: Hub, events: EventService, user: UserRow, table: LiveTable) -> bool:
    """Whether ``user``, not seated at ``table``, plays in its event round (§6.5): seated at
    another live table of the round, or with a match of the round not over (between two games
    of a series or session it sits at no live table)."""
    if round_table_of(hub, user.id, table) is not None:
        return True
    rnd = event_round(table)
    if rnd is None:
        return False
    return bool(await events.read("in_round", table.event_id, rnd, user.username))


class RoundHold:
    """The one rule of which event games ``user`` (None: signed out) may not see yet
    (competition.md §6.5: a duplicate round deals the same cards at every table, and a finished
    table's record or result tells a player still holding those cards elsewhere how they play;
    signing out does not help, so the hold is for everyone): a game of a round of a running
    event that still has a match not over, to anyone who did not play that game and does not
    referee the event. A record by its id answers 403 (:func:`hold_round_game`); the lists of
    records, a player's profile, the event's page and its CSV exports leave such a game's result
    out; the standings they show, its players' too, are those at the end of the last round
    finished (``Director.held_through``); and a rated game rates its players only when its round
    is over (:func:`.ratings.rate_round`). One per request: it asks for each event's open rounds
    and the referee check once."""

    def __init__(self, hub: Hub, events: EventService, user: Any) -> None:
        self.hub, self.events, self.user = hub, events, user
        self._open: dict[str, frozenset[int]] = {}
        self._referee: dict[str, bool] = {}

    async def load(self, event_id: str) -> None:
        """Read what :meth:`held_now` needs of ``event_id``."""
        if event_id not in self._open:
            self._open[event_id] = frozenset(await self.events.read("held_rounds", event_id))
        if self._open[event_id] and event_id not in self._referee:
            from .chat import is_referee
            self._referee[event_id] = await is_referee(self.hub, event_id, self.user)

    def held_now(self, event_id: str | None, rnd: int | None, played: bool) -> bool:
        """:meth:`held` of an event already :meth:`load`-ed."""
        if event_id is None or rnd is None or played:
            return False
        return rnd in self._open[event_id] and not self._referee[event_id]

    async def held(self, event_id: str | None, rnd: int | None, played: bool) -> bool:
        """Whether the game of round ``rnd`` of ``event_id`` is held from the user (``played``:
        the user played that game)."""
        if event_id is None or rnd is None or played:
            return False
        await self.load(event_id)
        return self.held_now(event_id, rnd, played)


    async def refuse(self, event_id: str | None, rnd: int | None, played: bool) -> None:
        """Refuse 403 ``round_in_play`` the record of a game :meth:`held` from the user."""
        if await self.held(event_id, rnd, played):
            raise ApiError(403, "round_in_play", f"round {rnd} of this event is still being played: "
                           "its games are shown once it is over", round=rnd)


async def table_summary(hub: Hub, events: EventService, user: Any, table: LiveTable) -> dict[str, Any]:
    """``table``'s summary as ``user`` may have it: a finished event game that
    :class:`RoundHold` holds from the user shows no move count, record or rating changes."""
    out = table.summary()
    if table.status == "finished" and table.event_id is not None and await RoundHold(hub, events, user).held(
            table.event_id, event_round(table), user is not None and table.seat_of(user.id) is not None):
        out.update(plies=None, record=None, rating_changes=[])
    return out


async def hold_round_game(hub: Hub, events: EventService, event_id: str | None, rnd: int | None,
                          user: Any, played: bool) -> None:
    """:meth:`RoundHold.refuse` for ``user``."""
    await RoundHold(hub, events, user).refuse(event_id, rnd, played)


def mark_aborted(s: Session, table_id: str, settings: dict[str, Any] | None = None) -> None:
    """The store's write of an aborted table (still open or playing), with its settings (they
    keep why: ``settings["aborted"]``)."""
    values: dict[str, Any] = {"status": "aborted"}
    if settings is not None:
        values["settings"] = settings
    s.execute(update(TableRow).where(TableRow.id == table_id, TableRow.status.in_(("open", "playing")))
              .values(**values))


def close_inactive(hub: Hub, now: float | None = None) -> list[str]:
    """Abort every idle table past its time (see the module docstring); returns their ids."""
    now = time.time() if now is None else now
    out = []
    for t in list(hub.tables.values()):
        if any(conns for seat, conns in t.conns.items() if seat is not None):
            t.touch()                 # a player is at the table
        elif t.idle() and now - t.active_at >= hub.settings.table_idle_timeout:
            give_up(hub, t, "inactive")
            out.append(t.id)
    return out


def give_up(hub: Hub, t: LiveTable, reason: str, seat: int | None = None) -> None:
    """Abort the live table ``t`` for ``reason`` (``inactive``, ``no_first_move``, ``aborted``:
    a player's Abort, :func:`player_may_abort`): written as aborted before anyone is told, then
    its clients get the ``aborted`` event and 4410. Why is kept with the table
    (``settings["aborted"]``: the reason and, for ``no_first_move``, the ``seat`` whose first
    move never came, for ``aborted`` the ``seat`` that aborted), so every page that opens it
    later says so too."""
    why: dict[str, Any] = {"reason": reason}
    if reason == "no_first_move" and (seat := first_move_missed(t)) is not None:
        why["seat"] = seat
    elif seat is not None:
        why["seat"] = seat
    t.settings["aborted"] = why
    hub.store.append(t.gate, Call(mark_aborted, t.id, dict(t.settings)))
    t.abort(reason)
    hub.tables.pop(t.id, None)
    hub.remember_finished(t)
    if t.runner is not None:           # its game had begun: the Bot API's gameFinish
        for cb in hub.on_abort:
            cb(t, reason)


def abortable(t: LiveTable) -> bool:
    """Whether the table ``t`` is a lobby game of two that a person's missing first move aborts
    (see the module docstring). A card or tile game has begun at its deal: each seat saw its
    hand before its first decision, and an abort would let a bad hand go for free (junqi hides
    only the layouts each seat makes)."""
    dealt = t.game.hidden_information and t.game.id != "junqi"
    return t.event_id is None and not dealt and len(t.seats) == 2


def player_may_abort(t: LiveTable) -> bool:
    """Whether a player of ``t`` may abort its game (the Abort button, as on lichess): a two-seat
    lobby game (:func:`abortable`) in play before both sides have moved; it then counts for
    nobody, as a first move that never came does."""
    r = t.runner
    return (r is not None and t.status == "playing" and abortable(t) and not r.state.is_terminal()
            and not all(r._moves_by))


def takeback_hides(t: LiveTable) -> bool:
    """Whether ``t``'s game hides anything from a seat (``Game.hidden_information``: junqi's
    piece identities, every hand and wall): it has no takebacks, since a move taken back would
    leave the player what the move showed (an attack on a hidden junqi piece tells its rank;
    asked again and again, a bot granting at once would tell every piece)."""
    return bool(t.game.hidden_information)


def takeback_allowed(t: LiveTable) -> bool:
    """Whether the players of ``t`` may ask each other for takebacks (lichess's casual games,
    :mod:`qipai.match.takeback`): an unrated two-seat lobby board game (:func:`abortable`: no
    event table, no card or tile game) that hides nothing (:func:`takeback_hides`), in play.
    Against a built-in bot the request is granted at once (docs/server.md)."""
    r = t.runner
    return (r is not None and t.status == "playing" and abortable(t) and not t.rated()
            and not takeback_hides(t) and not r.state.is_terminal())


def first_move_grace(t: LiveTable, runner: Any) -> None:
    """At such a table a person's clock with main time does not run before that person's first
    move (lichess): that move has ``Settings.first_move_ms`` instead, nothing charged, and a
    first move that does not come in it aborts the game (:func:`first_move_missed`). An event's
    game is not so: its first turn starts with the game (competition.md §4.3). Junqi's first
    decision is its layout of 25 pieces: ``Settings.first_layout_ms`` (3 minutes, as the
    ``junqi_default`` preset's layout phase)."""
    if not abortable(t):
        return
    people = [s for s, seat in enumerate(t.seats) if isinstance(seat, dict) and "bot" not in seat]
    # whatever clock runs out first for such a person, nothing is applied to the game: it is aborted
    runner.abandon_unmoved = set(people)
    ms = t.hub.settings.first_layout_ms if t.game.id == "junqi" else t.hub.settings.first_move_ms
    if t.hub.settings.first_move_ms <= 0 or ms <= 0:
        return
    for s in people:
        if runner.clocks[s].spec.bank is not None:
            runner.clocks[s].first_move_cap = int(ms)


def first_move_missed(t: LiveTable) -> int | None:
    """The seat of a person at the two-seat lobby table ``t`` that lost on time (or had its game
    counted for its time) before making any move, or None (see :func:`abortable`)."""
    r = t.runner
    if r is None or not abortable(t) or all(r._moves_by):
        return None
    for e in r.events:
        s = e.get("seat")
        if (e.get("type") == "timeout" and e.get("kind") == "lose" and s is not None
                and r._moves_by[s] == 0 and isinstance(t.seats[s], dict) and "bot" not in t.seats[s]):
            return s
    return None


async def sweep(hub: Hub) -> None:
    """Run :func:`close_inactive` every quarter of the idle time (at most every minute)."""
    every = max(0.05, min(60.0, hub.settings.table_idle_timeout / 4))
    while True:
        await asyncio.sleep(every)
        try:
            close_inactive(hub)
        except Exception:        # pragma: no cover - keep sweeping after a bug in one table
            log.exception("closing inactive tables failed")
