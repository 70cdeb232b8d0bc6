"""Referees of an event on the server (competition.md §5.7): who may act, the acts, the log.

An organizer appoints referees per event (``POST /api/events/{id}/referees``); the organizers
(accounts with the organizer role) and that event's referees may act, anyone else is refused
403 ``not_referee``. Every act goes through :meth:`Referees.act` and is kept twice: in the
event's log (:func:`qipai.competition.acts.record_act`, the one place that writes it, for the
command line too: who, what, why) and, when it concerns a live table, as an input of that
table's match runner (so it is in the table's action log, announced to the table, and in the
game's record, ``meta.events``, with ``by`` and the reason).

Acts (``POST /api/events/{id}/acts``, body ``{"act", "reason", ...}``; a written ``reason`` is
required for every act):

* ``pause`` / ``resume`` — one table (``table``), or every live table of the event when no
  table is named (the whole round; with several workers, on each of them: :mod:`.roundacts`):
  clocks stop exactly, and resume gives back exactly what was
  left (the runner shifts each running turn by the pause length, §4.7);
* ``add_time`` — ``table``, ``seat``, ``ms`` (1 ms to 1 h): to the seat's bank, else its current
  overtime period or turn (:meth:`qipai.match.clock.SeatClock.add_time`);
* ``adjudicate`` — ``table``, ``result`` in the game's notation (``1-0``, ``B+R``...), or
  ``count`` for go's forced count (go §5.2: the game stops and is scored as it stands);
* ``void`` — ``table``: the game stops without a result and is seated again at a new table,
  dealt with the next RNG attempt (§5.1), or with the same deal at a duplicate table (§2.8);
* ``warning`` — ``table`` and ``seat``, or ``entrant``: announced and recorded;
* ``penalty`` — ``entrant``, ``kind`` (a kind of the preset's ledger, §2.7):
  :func:`qipai.competition.penalties.penalize`;
* ``disqualify`` — ``entrant`` (§2.7): out of the event, its match lost (two-sided: its game in
  play ends as a loss) or its seat in trusteeship for the rest of the session (card tables),
  ranked last;
* ``ruling`` — ``dispute`` (an id) and ``decision`` (``upheld`` or ``rejected``);
* ``enter_result`` — ``game`` (an event game with no live table, played on paper), ``result``
  (as ``qipai event result`` takes it: the game's notation, seats' scores, ``dealer D attack
  S``), optional ``moves`` and ``duration``;
* ``confirm`` — ``game``: the result is confirmed at once (players confirm their own games with
  ``POST /api/events/{id}/confirmations``);
* ``correct`` — ``game``, ``result``, optional ``moves``: a finished game's result corrected
  (:func:`qipai.competition.results.correct_result`: the match decided again, standings follow,
  a knockout's later round paired again while nobody has played it; a finished event too).

A player seated at an event table files a dispute (``POST /api/events/{id}/disputes``,
``{"table", "text"}``) while the game is on or within 10 minutes after it ends (§5.7,
:data:`.resultacts.APPEAL_WINDOW_S`); a player confirms a result with ``POST
/api/events/{id}/confirmations``.

The referee is made of parts, one idea each: :mod:`.appointments` (who may act),
:mod:`.refconsole` (what the console shows), :mod:`.tableacts` (acts on a live table),
:mod:`.sanctions` (warnings, penalties, disqualifications), :mod:`.resultacts` (disputes,
rulings, results entered, confirmed or corrected) and :mod:`.refroutes` (the HTTP routes). This
module assembles them and holds what every act goes through: :meth:`Referees.act` (who may, the
reason, a game of one's own) and :meth:`Referees._act` / :meth:`Referees._record`, the one place
an act's log entry is made.
"""

from __future__ import annotations

import time
from typing import Annotated, Any

from pydantic import Field
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from qipai.competition.acts import Act, RefereeActRow
from qipai.competition.db import EntrantRow, EventRow, GameRow
from qipai.match.clock import MAX_DURATION

from .appointments import Appointments
from .bodies import Body
from .errors import ApiError
from .events import EventService
from .hub import Hub
from .models import MAX_ROW_ID, UserRow, row_by_id
from .refconsole import Console
from .resultacts import ResultActs
from .sanctions import Sanctions
from .store import again
from .tableacts import MAX_ADD_MS, TableActs
from .tables import LiveTable

ACTS = ("pause", "resume", "add_time", "adjudicate", "void", "warning", "penalty", "disqualify",
        "ruling", "enter_result", "confirm", "correct")
#: acts on results, which a finished event still takes (its last game's result may be corrected)
RESULT_ACTS = ("confirm", "correct")


#: more seats than a table of any game has: a seat past a table's own is refused ``bad_seat`` by
#: the act, one past this by the body's check
MAX_SEAT = 99
#: the most moves a result entered by hand may count
MAX_MOVES = 1_000_000


class ActBody(Body):
    """An act of the referees' console. Every whole number is bounded here, so that a value no
    act could take (``2**70``, a negative id) is refused 400 ``bad_request`` naming the field,
    before it reaches the database (whose integers end at :data:`MAX_ROW_ID`) or a clock; a
    value in range that the act still refuses gets the act's own code (``bad_seat``,
    ``bad_time``, ``no_game``...)."""

    act: str = Field(max_length=20)
    reason: str = Field(default="", max_length=500)
    table: str | None = Field(default=None, max_length=20)
    seat: int | None = Field(default=None, ge=0, le=MAX_SEAT)
    ms: int | None = Field(default=None, ge=0, le=MAX_ADD_MS)             # time added
    result: str | None = Field(default=None, max_length=200)
    entrant: str | None = Field(default=None, max_length=80)
    game: int | None = Field(default=None, ge=1, le=MAX_ROW_ID)
    kind: str | None = Field(default=None, max_length=40)
    dispute: int | None = Field(default=None, ge=1, le=MAX_ROW_ID)
    decision: str | None = Field(default=None, max_length=20)
    moves: int | None = Field(default=None, ge=0, le=MAX_MOVES)
    # how long a game entered by hand took: ms, or text such as "25m" (clock.duration_ms)
    duration: Annotated[int, Field(ge=0, le=MAX_DURATION)] | Annotated[str, Field(max_length=40)] | None \
        = None


class Referees(Appointments, Console, TableActs, Sanctions, ResultActs):
    """The referees' side of events: appointments, the acts, the log."""

    def __init__(self, hub: Hub, db: sessionmaker[Session], service: EventService) -> None:
        self.hub = hub
        self.db = db
        self.service = service
        self.finished_at: dict[str, float] = {}      # table id -> when its game ended (unix s)
        hub.on_finish.append(lambda t, row: self.finished_at.__setitem__(t.id, time.time()))

    def _table(self, event_id: str, table_id: str | None) -> LiveTable:
        t = self.hub.tables.get(table_id or "")
        if t is None or t.event_id != event_id:
            raise ApiError(404, "no_table", f"no live table {table_id!r} in event {event_id!r}")
        if t.runner is None or t.status != "playing" or t.runner.state.is_terminal():
            raise ApiError(409, "not_playing", "no game is running at this table")
        return t

    @staticmethod
    def _seat(t: LiveTable, seat: int | None) -> int:
        if seat is None or isinstance(seat, bool) or not 0 <= seat < t.num_seats:
            raise ApiError(400, "bad_seat", f"seats are 0 to {t.num_seats - 1}", max=t.num_seats - 1)
        return seat

    def _act(self, user: UserRow, act: str, reason: str, **cols: Any) -> Act:
        """The log entry of an act by ``user``; a table it names is named by its players too."""
        tid = cols.get("table_id") or ""
        t = self.hub.tables.get(tid) or self.hub.finished.get(tid)
        if t is not None:                  # the log names a table by its players
            cols["data"] = {**(cols.get("data") or {}), "players": [x["name"] for x in t.seats if x]}
        return Act(act, user.username, reason, user.id, cols)

    async def _record(self, event_id: str, user: UserRow, act: str, reason: str, **cols: Any) -> int:
        """Log an act whose change is not in the event's tables (a table's clock, a warning):
        its own transaction. Acts that change the event pass their :class:`Act` to the
        operation, which logs it in the change's transaction."""
        entry = self._act(user, act, reason, **cols)

        def write(s: Session) -> int:
            # run again after its commit went through unanswered: the entry it wrote is kept
            mine = s.get(RefereeActRow, entry.id) if entry.id is not None and again() else None
            if mine is not None and (mine.event_id, mine.act, mine.user_id, mine.reason) == \
                    (event_id, entry.act, entry.user_id, entry.reason):
                return mine.id
            return entry.write(s, event_id)
        return await self.hub.store.call(write)

    async def _seat_of(self, event_id: str, entrant: str) -> tuple[LiveTable, int] | None:
        """The live table and seat where ``entrant`` (an entrant id, or a member's account)
        plays now, if any."""
        for t in self.live_tables(event_id):
            for i, s in enumerate(t.seats):
                r = t.runner
                if s and s.get("name") == entrant and r is not None and not r.state.is_terminal():
                    return t, i
        return None

    async def _entrant(self, event_id: str, entrant: str | None) -> EntrantRow:
        def get(s: Session) -> EntrantRow:
            row = s.scalar(select(EntrantRow).where(EntrantRow.event_id == event_id,
                                                     EntrantRow.entrant_id == (entrant or "")))
            if row is None:
                raise ApiError(404, "no_entrant", f"event {event_id!r} has no player {entrant!r}",
                               entrant=entrant or "")
            s.expunge(row)
            return row
        return await self.hub.store.call(get, write=False)

    async def act(self, event_id: str, user: UserRow, body: ActBody) -> dict[str, Any]:
        """Do one referee act (see the module docstring) and record it. Returns ``{"act",
        "id"}`` (the log entry) and what the act did."""
        await self.need_referee(event_id, user)
        if body.act not in ACTS:
            raise ApiError(400, "bad_act", f"unknown act {body.act!r}; valid: {', '.join(ACTS)}",
                           act=body.act, valid=", ".join(ACTS))
        reason = body.reason.strip()
        if not reason:
            raise ApiError(400, "reason_required", "every referee act needs a written reason")
        ev = await self._event(event_id)
        if ev.status != "running" and body.act not in RESULT_ACTS:
            raise ApiError(409, "event_over", "the event is finished")
        await self._refuse_own(event_id, user, body)
        return await getattr(self, f"_act_{body.act}")(event_id, user, body, reason)

    async def _refuse_own(self, event_id: str, user: UserRow, body: ActBody) -> None:
        """A referee who plays in the event (none does: :func:`.appointments.referees`; kept as a
        second guard) acts on no game of his own matches
        (competition.md §5.7 gives the referee's powers to someone outside the game): an act
        naming such a game (``game``), its table (``table``), a dispute on it (``ruling``), or an
        entrant that is himself or one he plays a match with now (``entrant``) is refused 403
        ``own_game``. Acts on the whole round (a pause of every table) stay his to make."""
        games: set[int] = set()
        if body.game is not None:
            games.add(body.game)
        if body.act == "ruling" and body.dispute is not None:
            entry = next((x for x in await self.log(event_id)
                          if x["act"] == "dispute" and x["id"] == body.dispute), None)
            if entry is not None and entry.get("game") is not None:
                games.add(entry["game"])
        if body.table:
            t = self.hub.tables.get(body.table) or self.hub.finished.get(body.table)
            if t is not None and t.event_id == event_id and t.event_game is not None:
                games.add(t.event_game)
        name, entrant = user.username, body.entrant

        def plays(s: Session) -> bool:
            from qipai.competition.director import Director

            ev = s.get(EventRow, event_id)
            if ev is None:
                return False
            d = Director(s, ev)
            mine = {x for x, e in d.by_draw.items()
                    if e.entrant_id == name or any(p.get("id") == name for p in e.members or ())}
            if not mine:
                return False
            matches = [g.match for gid in games if (g := row_by_id(s, GameRow, gid)) is not None
                       and g.match.event_id == event_id]
            if entrant is not None:
                target = {x for x, e in d.by_draw.items() if e.entrant_id == entrant}
                if target & mine:
                    return True
                matches += [m for m in ev.matches if m.status != "finished" and target & set(m.entrants)]
            return any(mine & set(m.entrants) for m in matches)
        if await self.hub.store.call(plays, write=False):
            raise ApiError(403, "own_game", f"{name} plays this game: another referee or an "
                                            "organizer acts on it")

