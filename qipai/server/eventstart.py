"""When an event's game starts (competition.md §4.3, §5.6).

* The first game of a match with an account seated starts once every account's seat is ready
  (arriving at the table, a connection to one's own seat, is being ready; built-in bots always
  are), or when ``no_show_grace`` has run out (:attr:`Settings.event_ready_grace_ms`),
  whichever comes first. No clock runs before. A bot account's seat waits as a person's does
  (§6.6: a bot program may be absent too); a connection to one's own event stream or game
  stream of the Bot API (:mod:`.botapi`) is being ready, as a person's page at the table is.
  When the grace runs out with an account still absent, the hub's
  :attr:`~.hub.Hub.on_no_show` handlers decide (§5.6, :meth:`.events.EventService.no_show`:
  the absent entrants are declared absent as ``qipai event noshow`` does — a walkover, both
  absent neither advances, at a card table with two present the absent seats in trusteeship);
  with none (a hub without events) the game starts and the absent seat's clock runs.
* A later game of a match starts after the ``between_games`` pause
  (:attr:`Settings.event_between_games_ms`), no clock running meanwhile, whoever is present
  (§5.6: after the first game, absence is the clock's business).

The table's settings carry the hold, so a restarted server keeps it: ``ready_by`` (unix s, the
first game's grace end) or ``start_at`` (unix s, the end of the pause between games), and
``ready`` (the seats ready so far, so that every worker of a cluster tells the same from the
table's row: :func:`stored_hold`). A restart decides no no-show (§4.7, :func:`resume`): a first
game still waiting for its persons waits its whole grace again from the restart, and a later game
its whole pause between games.
The table's summary shows it as ``hold`` (``kind`` ready|between, ``in_ms``, ``ready``: the seats
ready), for the pages to say what the game waits for.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .tables import LiveTable


def hold_settings(first_game: bool, people: bool, ready_grace_ms: int, between_ms: int,
                  now: float | None = None) -> dict[str, float]:
    """The settings that hold a new event table: ``ready_by`` for a match's first game with a
    person seated, ``start_at`` for a later game; nothing when the setting is 0."""
    now = time.time() if now is None else now
    if first_game and people and ready_grace_ms > 0:
        return {"ready_by": now + ready_grace_ms / 1000}
    if not first_game and between_ms > 0:
        return {"start_at": now + between_ms / 1000}
    return {}


def people(t: LiveTable) -> list[int]:
    """The seats that must say ready: every account's, a person's or a bot account's (a bot
    program is handled as a person is, competition.md §6.6: it may be absent); not a built-in
    bot's, nor those of absent entrants, whose seats are in trusteeship (``trustee``)."""
    return _people(t.seats, t.settings)


def _people(seats: list[dict[str, Any] | None], settings: dict[str, Any]) -> list[int]:
    trustee = set(settings.get("trustee") or ())
    return [i for i, s in enumerate(seats) if s and "user" in s and i not in trustee]


#: the account event (never sent to a stream) that tells every worker an account connected
READY = "_ready"


def connected(t: LiveTable) -> None:
    """Mark ready the seats whose accounts are connected to the server otherwise than at this
    table: a Bot API event stream (:attr:`.hub.Hub.present`), which is how a bot program (or a
    person playing through the Bot API) is there for its games; with several workers, a stream
    on another one is asked of Redis (:attr:`.hub.Hub.present_shared`), and ready when known."""
    for f in getattr(t.hub, "present", ()):
        for i in people(t):
            if f(t.seats[i]["user"]):
                t.ready_seats.add(i)
    shared = getattr(t.hub, "present_shared", ())
    away = [i for i in people(t) if i not in t.ready_seats]
    if shared and away:
        task = asyncio.get_running_loop().create_task(_ask(t, shared, away))
        _asking.add(task)
        task.add_done_callback(_asking.discard)


_asking: set[asyncio.Task[None]] = set()


async def _ask(t: LiveTable, shared: Any, seats: list[int]) -> None:
    for i in seats:
        user = (t.seats[i] or {}).get("user")
        for f in shared:
            if user is not None and await f(user):
                seat_ready(t, i)
                break


def account_ready(tables: list[LiveTable], user_id: int) -> None:
    """Account ``user_id`` connected (a Bot API event stream): ready at each of ``tables`` (its
    live event tables) whose game waits for it."""
    for t in tables:
        seat_ready(t, t.seat_of(user_id))


def absent(t: LiveTable) -> list[int]:
    """The persons' seats not ready at a table held for them (§5.6): when the hold ends (the
    timer of ``no_show_grace``, which may fire a hair before the wall clock reaches
    ``ready_by``), those absent."""
    if not t.settings.get("ready_by"):
        return []
    return [i for i in people(t) if i not in t.ready_seats]


def held(t: LiveTable) -> bool:
    """True while the table's game waits (§5.6 ready / §4.3 between games)."""
    return t.runner is None and t.status != "finished" and bool(_until(t))


def _until(t: LiveTable) -> float | None:
    return _until_of(t.seats, t.settings, t.ready_seats)


def _until_of(seats: list[dict[str, Any] | None], settings: dict[str, Any], ready: Any) -> float | None:
    if settings.get("start_at"):
        return float(settings["start_at"])
    if settings.get("ready_by") and not set(_people(seats, settings)) <= set(ready):
        return float(settings["ready_by"])
    return None


def hold(t: LiveTable) -> dict[str, Any] | None:
    """What the game waits for, for the pages (None: nothing, or it has started)."""
    if t.runner is not None:
        return None
    return stored_hold(t.status, t.seats, t.settings, t.ready_seats)


def stored_hold(status: str, seats: list[dict[str, Any] | None], settings: dict[str, Any],
                ready: Any = None) -> dict[str, Any] | None:
    """:func:`hold` of a table as stored (its row, on any worker of a cluster): the seats
    ``ready`` are the live table's, else those its settings keep (``ready``, saved as each
    arrives)."""
    if status != "open":
        return None
    ready = set(settings.get("ready") or ()) if ready is None else set(ready)
    until = _until_of(seats, settings, ready)
    if until is None:
        return None
    kind = "between" if settings.get("start_at") else "ready"
    return {"kind": kind, "in_ms": max(0, int((until - time.time()) * 1000)),
            "ready": sorted(ready), "people": _people(seats, settings)}


def begin(t: LiveTable, revived: bool = False) -> None:
    """Start the table's game now, or when its hold ends. ``revived``: the table was just loaded
    again after the server stopped or lost it (:meth:`.hub.Hub.revive`): see :func:`resume`."""
    if revived:
        resume(t)
    if t.settings.get("ready_by"):
        connected(t)
    until = _until(t)
    wait = (until - time.time()) if until is not None else 0
    if wait <= 0:
        _go(t)
        return
    if t.hold_timer is not None:
        t.hold_timer.cancel()
    t.hold_timer = asyncio.get_running_loop().call_later(wait, _go, t)


def resume(t: LiveTable, now: float | None = None) -> None:
    """A server outage decides nothing (competition.md §4.7): nobody could reach the table while
    the server was down, so a first game still waiting for its persons gets its whole
    ``no_show_grace`` again from the restart, as the seat on turn restarts its turn with the
    allowance it had at the turn's start (a grace that ran out during the outage too); a later
    game waiting for the pause between games gets the whole ``between_games`` pause again (its
    players, sent away by the outage, need the time to come back before its clocks run). Kept
    in the row: every worker tells the same."""
    now = time.time() if now is None else now
    if t.settings.get("start_at"):
        pause = t.hub.settings.event_between_games_ms / 1000
        if float(t.settings["start_at"]) < now + pause:
            t.settings["start_at"] = now + pause
            t.save_row()
        return
    if not t.settings.get("ready_by") or t.settings.get("no_show") or set(people(t)) <= t.ready_seats:
        return
    grace = t.hub.settings.event_ready_grace_ms / 1000
    if float(t.settings["ready_by"]) < now + grace:
        t.settings["ready_by"] = now + grace
        t.save_row()


def _go(t: LiveTable) -> None:
    if t.hold_timer is not None:
        t.hold_timer.cancel()
        t.hold_timer = None
    # "playing" with no runner: a restart in the nonce window (§6.1), whose deal is still to come
    if t.runner is not None or t.status not in ("open", "playing") or t.hub.tables.get(t.id) is not t \
            or t.settings.get("no_show"):
        return
    away = absent(t)
    handlers = list(getattr(t.hub, "on_no_show", ()))
    if away and handlers:               # §5.6: the grace ran out with a person absent
        t.settings["no_show"] = away    # decided once: a late arrival starts nothing now
        for f in handlers:
            f(t, away)
        return
    t.settings.pop("start_at", None)
    t.settings.pop("ready_by", None)
    t.start()


def start_absent(t: LiveTable, trustee: list[int]) -> None:
    """Start the game of ``t`` after the no-show of §5.6 with the absent seats ``trustee`` in
    trusteeship for the whole game (a card table with two or more present)."""
    t.settings["trustee"] = sorted(trustee)
    t.settings.pop("no_show", None)
    _go(t)


def seat_ready(t: LiveTable, seat: int | None) -> None:
    """A person arrived at the table on ``seat``: ready (§5.6). The last one starts the game."""
    if seat is None or t.runner is not None or not t.settings.get("ready_by") or seat in t.ready_seats \
            or t.settings.get("no_show"):
        return
    t.ready_seats.add(seat)
    if set(people(t)) <= t.ready_seats:
        _go(t)
    else:
        t.settings["ready"] = sorted(t.ready_seats)    # kept: every worker's answer says it
        t.save_row()
        t.changed()         # the others see who is ready
