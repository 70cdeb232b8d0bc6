"""No-shows at an event's table when ``no_show_grace`` runs out (competition.md §5.6).

:mod:`.eventstart` holds a match's first game until every person is at the table; when the
grace runs out with a person still absent it hands the table to :func:`declare_absent` (in the
event worker: the absent entrants are declared absent by
:func:`qipai.competition.event.no_show`, the very operation of ``qipai event noshow``, and the
act is written to the event's log by the same :class:`~qipai.competition.acts.Act`, by
``server``) and then, on the event loop, to :func:`close_table` or a start with the absent seats
in trusteeship:

* a two-sided match: the present entrant wins by walkover, every game a forfeit (0 moves); both
  absent: neither advances. The table closes with status ``walkover``, unplayed;
* a card table: two or more present play the session with the absent seats in trusteeship
  (ranked last, never advancing); one present advances by walkover, none: the table gives
  nobody, and the table closes.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session, sessionmaker

from qipai.competition.acts import Act
from qipai.competition.db import EventRow, GameRow
from qipai.competition.director import Director
from qipai.competition.event import EventError, no_show

from .models import TableRow
from .store import Call

if TYPE_CHECKING:
    from .tables import LiveTable

log = logging.getLogger("qipai.server")

#: the event log's ``by`` of the server's own acts
SERVER = "server"


def declare_absent(db: sessionmaker[Session], event_id: str, game_id: int, seats: list[int],
                   table_id: str) -> dict[str, Any]:
    """Declare the entrants on ``seats`` of event game ``game_id`` (seated at ``table_id``)
    absent (blocking). Returns ``{"absent": entrant ids, "play": bool, "trustee": seats}``:
    ``play`` when the game is still to be played (a card table with two or more present), its
    absent seats ``trustee``."""
    with db() as s:
        g = s.get(GameRow, game_id)
        ev = s.get(EventRow, event_id)
        if g is None or ev is None or g.status != "pending":
            return {"absent": [], "play": False, "trustee": []}
        d = Director(s, ev, g.match.stage)
        already = set(g.match.absent or [])
        draws = sorted({g.seats[i] for i in seats if g.seats[i] in d.by_draw} - already)
        names = [d.by_draw[x].entrant_id for x in draws]
    if names:
        act = Act("no_show", SERVER, "no_show_grace", cols={
            "table_id": table_id, "game_id": game_id, "data": {"auto": "no_show_grace", "seats": seats}})
        try:
            no_show(db, event_id, names, log=act)
        except EventError as e:      # declared meanwhile (``qipai event noshow``), or started
            log.warning("event %s game %s: no-show of %s not declared: %s", event_id, game_id, names, e)
    with db() as s:
        g = s.get(GameRow, game_id)
        ev = s.get(EventRow, event_id)
        if g is None or ev is None or g.status != "pending":
            return {"absent": names, "play": False, "trustee": []}
        out = Director(s, ev, g.match.stage).out_seats(g.match)
        return {"absent": names, "play": True, "trustee": [i for i, x in enumerate(g.seats) if x in out]}


def mark_void(s: Session, table_id: str, status: str, settings: dict[str, Any]) -> None:
    """The store's write of a table whose game will not be played here (``status`` void or
    forfeited: a referee stopped it; walkover: §5.6): it lets go of its event game and keeps
    why in its settings."""
    row = s.get(TableRow, table_id)
    if row is not None:
        row.status, row.event_game, row.settings = status, None, settings


async def close_table(t: LiveTable, absent: list[str]) -> None:
    """Close the held table ``t`` whose match the no-show decided: status ``walkover``, its
    event game let go, its connections told (the table's new status)."""
    t.status = "walkover"
    t.settings = {**t.settings, "walkover": {"absent": absent}, "voided_game": t.event_game}
    entry = t.hub.store.append(t.gate, Call(mark_void, t.id, "walkover", t.settings))
    await t.gate.wait(entry.tag)
    t.hub.tables.pop(t.id, None)
    t.hub.remember_finished(t)
    t.event_game = None
    t.broadcast_lobby()
