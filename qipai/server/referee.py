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
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from pydantic import Field
from sqlalchemy import delete, select
from sqlalchemy.orm import Session, sessionmaker

import qipai
from qipai.competition import event as event_ops
from qipai.competition.acts import Act, event_log, record_act
from qipai.competition.config import parse_config
from qipai.competition.db import EntrantRow, EventRow, GameRow
from qipai.competition.penalties import penalize
from qipai.core.errors import IllegalAction, QipaiError, why, why_and
from qipai.match.players import AddTime, Adjudicate, Disqualify, RefereeNote

from . import roundacts
from .auth import username_key
from .bodies import Body
from .errors import ApiError
from .events import EventService
from .hub import Hub
from .models import EventRefereeRow, TableRow, UserRow, now_iso, row_by_id
from .resultacts import ConfirmBody, DisputeBody, ResultActs
from .store import Call
from .tables import LiveTable
from .walkover import mark_void

#: the longest time a referee adds at once (ms)
MAX_ADD_MS = 3_600_000
ACTS = ("pause", "resume", "add_time", "adjudicate", "void", "warning", "penalty", "disqualify",
        "ruling", "enter_result", "confirm", "correct")
#: acts on results, which a finished event still takes (its last game's result may be corrected)
RESULT_ACTS = ("confirm", "correct")
DECISIONS = ("upheld", "rejected")
Out = dict[str, Any]



#: result notations a referee's adjudication of a two-seat game is tried with: each game reads
#: those it knows (xiangqi, junqi 1-0 / 0-1 / 1/2-1/2; go and gomoku B+R / W+R / 0)
_OUTCOME_TEXTS = ("1-0", "0-1", "1/2-1/2", "B+R", "W+R", "0")


def outcomes(st: Any) -> list[dict[str, Any]]:
    """The results a referee may give a live two-seat game, each once: ``{"text": notation,
    "winners": [seat]}`` (no winner: a drawn game); none for other games (their results, scores
    of a deal, are typed)."""
    if st is None or st.is_terminal() or getattr(st, "num_seats", 2) != 2:
        return []
    out: dict[tuple[int, ...], str] = {}
    for text in _OUTCOME_TEXTS:
        try:
            trial = st.clone()
            trial.end_by_result_text(text, "arbiter")
        except Exception:          # a notation this game does not read
            continue
        out.setdefault(tuple(trial.result.winners), text)
    return [{"text": text, "winners": list(w)} for w, text in out.items()]


_FRESH: dict[str, list[dict[str, Any]]] = {}


def game_outcomes(game_id: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    """:func:`outcomes` of a game not begun (a table whose players have not sat yet, a result to
    correct or enter on paper): the same drop-down of results in words, never a notation to type
    for a two-seat game. Kept per game and options (the console asks every few seconds)."""
    key = json.dumps([game_id, options], sort_keys=True, default=str)
    if key not in _FRESH:
        try:
            game = qipai.load(game_id, **options)
            _FRESH[key] = outcomes(game.new_state(seed=0, num_seats=2)) if 2 in game.seats else []
        except Exception:          # a game that cannot be set up here: its results typed
            _FRESH[key] = []
    return _FRESH[key]


def plays_in(ev: EventRow | None, username: str) -> bool:
    """Whether the account ``username`` is an entrant of ``ev`` (or a member of a pair entrant).
    Such an account is never appointed the event's referee, nor does a referee enter it: a referee
    sees every table and every result of a round in play and chats at all times (competition.md
    §5.7, §5.8), which a player may not while his round is on (§6.3: not a player and a spectator
    of the same event; §6.5: no table of the round). An organizer referees every event by his role;
    if he plays in one, he acts on no game of his own (``own_game``, :meth:`Referees._refuse_own`)."""
    def plays(e: EntrantRow) -> bool:
        return e.bot is None and (e.entrant_id == username or any(
            p.get("id") == username and not p.get("bot") for p in e.members or ()))
    return ev is not None and any(map(plays, ev.entrants))


class Appointment(Body):
    username: str = Field(max_length=64)


class ActBody(Body):
    act: str = Field(max_length=20)
    reason: str = Field(default="", max_length=500)
    table: str | None = Field(default=None, max_length=20)
    seat: int | None = None
    ms: int | None = None
    result: str | None = Field(default=None, max_length=200)
    entrant: str | None = Field(default=None, max_length=80)
    game: int | None = None
    kind: str | None = Field(default=None, max_length=40)
    dispute: int | None = None
    decision: str | None = Field(default=None, max_length=20)
    moves: int | None = None
    duration: int | str | None = None


class Referees(ResultActs):
    """The referees' side of events: appointments, the acts, the log."""

    def __init__(self, hub: Hub, db: sessionmaker[Session], service: EventService) -> None:
        self.hub = hub
        self.db = db
        self.service = service
        self.finished_at: dict[str, float] = {}      # table id -> when its game ended (unix s)
        hub.on_finish.append(lambda t, row: self.finished_at.__setitem__(t.id, time.time()))

    # ----- who may act -------------------------------------------------------------------------
    async def _event(self, event_id: str) -> EventRow:
        def get(s: Session) -> EventRow:
            ev = s.get(EventRow, event_id)
            if ev is None:
                raise ApiError(404, "no_event", f"no event {event_id!r}")
            s.expunge(ev)
            return ev
        return await self.hub.store.call(get, write=False)

    async def referee_names(self, event_id: str) -> list[str]:
        def names(s: Session) -> list[str]:
            q = (select(UserRow.username).join(EventRefereeRow, EventRefereeRow.user_id == UserRow.id)
                 .where(EventRefereeRow.event_id == event_id).order_by(UserRow.username))
            return list(s.scalars(q))
        return await self.hub.store.call(names, write=False)

    async def may_act(self, event_id: str, user: UserRow | None) -> bool:
        if user is None:
            return False
        if user.role == "organizer":
            return True

        def appointed(s: Session) -> bool:
            return s.get(EventRefereeRow, (event_id, user.id)) is not None
        return await self.hub.store.call(appointed, write=False)

    async def need_referee(self, event_id: str, user: UserRow) -> None:
        await self._event(event_id)
        if not await self.may_act(event_id, user):
            raise ApiError(403, "not_referee", "only the organizers and this event's referees may do this")

    async def appoint(self, event_id: str, by: UserRow, username: str) -> list[str]:
        """Appoint the account ``username`` referee of the event. Errors: no_event (404),
        no_user (400), already_referee (409), plays_in_event (409: an entrant of the event, or a
        member of a pair entrant, is never its referee, :func:`plays_in`)."""
        await self._event(event_id)

        def add(s: Session) -> None:
            user = s.scalar(select(UserRow).where(UserRow.username_key == username_key(username)))
            if user is None:
                raise ApiError(400, "no_user", f"no account {username!r}", username=username)
            if s.get(EventRefereeRow, (event_id, user.id)) is not None:
                raise ApiError(409, "already_referee", f"{user.username} already referees this event",
                               username=user.username)
            if plays_in(s.get(EventRow, event_id), user.username):
                raise ApiError(409, "plays_in_event", f"{user.username} plays in this event: a player "
                               "of an event cannot referee it", username=user.username)
            s.add(EventRefereeRow(event_id=event_id, user_id=user.id, appointed_by=by.username,
                                  created=now_iso()))
            record_act(s, event_id, "appoint", by.username, "", user_id=by.id, entrant=user.username)
        await self.hub.store.call(add)
        return await self.referee_names(event_id)

    async def dismiss(self, event_id: str, by: UserRow, username: str) -> list[str]:
        """Withdraw a referee's appointment. Errors: no_event (404), not_a_referee (404)."""
        await self._event(event_id)

        def remove(s: Session) -> None:
            user = s.scalar(select(UserRow).where(UserRow.username_key == username_key(username)))
            gone = user is not None and s.execute(delete(EventRefereeRow).where(
                EventRefereeRow.event_id == event_id, EventRefereeRow.user_id == user.id)).rowcount
            if not gone:
                raise ApiError(404, "not_a_referee", f"{username!r} does not referee this event",
                               username=username)
            record_act(s, event_id, "dismiss", by.username, "", user_id=by.id, entrant=user.username)
        await self.hub.store.call(remove)
        return await self.referee_names(event_id)

    # ----- what the console shows ----------------------------------------------------------
    def live_tables(self, event_id: str) -> list[LiveTable]:
        return sorted((t for t in self.hub.tables.values() if t.event_id == event_id),
                      key=lambda t: (t.event_round or 0, t.event_game or 0))

    @staticmethod
    def table_json(t: LiveTable) -> dict[str, Any]:
        r = t.runner
        st = r.state if r else None
        return {"id": t.id, "game": t.game_id, "round": t.event_round, "event_game": t.event_game,
                "status": t.status, "names": [s["name"] if s else None for s in t.seats],
                "bots": [bool(s and s.get("bot")) for s in t.seats],
                "paused": t.referee_paused(),
                "clocks": r.clock_state() if r else [], "now": r.time.now() if r else None,
                "game_limit": r.game_limit_state() if r else None,
                # a paused table's countdowns stand at the moment of the pause
                "paused_at": r.paused_at if r else None,
                "to_act": list(st.to_act) if st is not None and not st.is_terminal() else [],
                "moves": len(st.log) if st is not None else 0,
                "replay_of": t.settings.get("replay_of") or [],
                "count": bool(st is not None and callable(getattr(st, "forced_count", None))),
                "outcomes": outcomes(st) if st is not None else game_outcomes(t.game_id, t.options)}

    async def log(self, event_id: str) -> list[dict[str, Any]]:
        """The event's log of referee acts and disputes, oldest first."""
        return await self.hub.store.call(lambda s: event_log(s, event_id), write=False)

    async def console(self, event_id: str) -> dict[str, Any]:
        """What a referee's console shows: the live tables with their clocks, the event's log,
        the disputes (open ones first), the pending games with no table (to enter results of
        games played on paper), the finished results (to confirm or correct), the entrants and the
        referees."""
        log = await self.log(event_id)
        ruled = {e["data"].get("dispute"): e for e in log if e["act"] == "ruling"}
        disputes = [{**e, "open": e["id"] not in ruled,
                     "ruling": ({k: ruled[e["id"]][k] for k in ("by", "reason", "data")}
                                if e["id"] in ruled else None)}
                    for e in log if e["act"] == "dispute"]
        ev = await self.service.read("describe", event_id)
        paper = [{"id": g["id"], "round": r["round"], "match": m["index"], "number": g["number"],
                  "seats": g["seats"]}
                 for r in ev["rounds"] for m in r["matches"] for g in m["games"]
                 if g["status"] == "pending" and not g["table"]]
        # finished results a referee may confirm or correct (§5.7); a forfeit has no result to correct
        results = [{"id": g["id"], "round": r["round"], "match": m["index"], "number": g["number"],
                    "seats": g["seats"], "result": g["result"], "winners": g["winners"],
                    "confirmed": g["confirmed"], "standing": g["standing"],
                    "confirmed_by": g["confirmed_by"], "corrections": g["corrections"]}
                   for r in ev["rounds"] for m in r["matches"] for g in m["games"]
                   if g["status"] == "finished" and g["source"] != "forfeit"]
        def kinds(s: Session) -> tuple[list[str], dict[str, Any]]:
            row = s.get(EventRow, event_id)
            cfg = parse_config(row.preset, row.config)
            kinds = [k for k, r in cfg.penalties.items() if r.source == "referee"]
            return kinds, (cfg.game_id, cfg.game_options)
        penalty_kinds, (game_id, options) = await self.hub.store.call(kinds, write=False)
        return {"event": {"id": ev["id"], "name": ev["name"], "game": ev["game"], "status": ev["status"],
                          "preset": ev["preset"], "started_round": ev["started_round"],
                          "current_round": ev["current_round"], "begun": ev["begun"],
                          "stage": ev["stage"], "entrants": len(ev["entrants"])},
                "tables": await roundacts.tables_everywhere(self.hub, event_id, self.table_json,
                                                            self.live_tables(event_id)),
                "log": log, "disputes": sorted(disputes, key=lambda d: (not d["open"], -d["id"])),
                "paper": paper, "results": results, "entrants": ev["entrants"],
                # a two-seat game's results in words, for a result entered or corrected
                "outcomes": game_outcomes(game_id, options),
                "referees": await self.referee_names(event_id),
                "acts": list(ACTS), "penalty_kinds": penalty_kinds}

    # ----- acts --------------------------------------------------------------------------------
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
        return await self.hub.store.call(lambda s: entry.write(s, event_id))

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
        """A referee (or organizer) who plays in the event acts on no game of his own matches
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

    async def _act_pause(self, event_id: str, user: UserRow, body: ActBody, reason: str,
                         resume: bool = False) -> dict[str, Any]:
        if body.table is not None:
            t = self.hub.tables.get(body.table)
            if t is None or t.event_id != event_id or not t.nonce_open():
                t = self._table(event_id, body.table)     # a game on, or being dealt
            if ("held_pause" in t.settings if t.runner is None else t.runner.paused_at is not None) != resume:
                raise (ApiError(409, "not_paused", "the table is not paused") if resume else
                       ApiError(409, "already_paused", "the table is already paused"))
            ids, unreached = roundacts.submit_round([t], resume, user.username, reason), []
        else:                 # the whole round: every live table not already so, on every worker
            ids, unreached = await roundacts.act_everywhere(self.hub, event_id, resume, user.username, reason)
            if not ids and not unreached:
                raise ApiError(409, "no_live_tables", "no live table of the event to "
                               + ("resume" if resume else "pause"))
        act = "resume" if resume else "pause"
        data: dict[str, Any] = {"tables": ids, "scope": "table" if body.table else "round"}
        if unreached:
            data["unreached"] = unreached
        entry = await self._record(event_id, user, act, reason, table_id=body.table, data=data)
        return {"act": act, "id": entry, "tables": ids, **({"unreached": unreached} if unreached else {})}

    async def _act_resume(self, event_id: str, user: UserRow, body: ActBody, reason: str) -> Out:
        return await self._act_pause(event_id, user, body, reason, resume=True)

    async def _act_add_time(self, event_id: str, user: UserRow, body: ActBody, reason: str) -> Out:
        t = self._table(event_id, body.table)
        seat = self._seat(t, body.seat)
        ms = body.ms
        if ms is None or isinstance(ms, bool) or not 0 < ms <= MAX_ADD_MS:
            raise ApiError(400, "bad_time", f"time added is 1 to {MAX_ADD_MS} ms", max=MAX_ADD_MS)
        clock = t.runner.clocks[seat]
        if clock.bank_left is None and not clock.running:
            raise ApiError(409, "nothing_to_add", "this seat's clock has no bank and no turn running "
                           "to add time to")
        if clock.spec.untimed:
            raise ApiError(409, "nothing_to_add", "this table has no clock")
        t.runner.submit(None, AddTime(seat, ms, user.username, reason))
        entry = await self._record(event_id, user, "add_time", reason, table_id=t.id,
                                   game_id=t.event_game, seat=seat, entrant=t.seats[seat]["name"],
                                   data={"ms": ms})
        return {"act": "add_time", "id": entry, "table": t.id}

    async def _act_adjudicate(self, event_id: str, user: UserRow, body: ActBody, reason: str) -> Out:
        t = self._table(event_id, body.table)
        text = (body.result or "").strip()
        st = t.runner.state
        if text == "count":
            if not callable(getattr(st, "forced_count", None)):
                raise ApiError(400, "cannot_count", f"{t.game_id} has no forced count", game=t.game_id)
        else:
            try:
                st.clone().end_by_result_text(text, "arbiter")
            except IllegalAction as e:
                raise ApiError(400, "bad_result", f"cannot read result {text!r} for {t.game_id}: {e.reason}",
                               **why_and(e, "unreadable", result=text, game=t.game_id,
                                         names=[s["name"] if s else None for s in t.seats])) from None
        t.runner.submit(None, Adjudicate(text, "arbiter", user.username, reason))
        entry = await self._record(event_id, user, "adjudicate", reason, table_id=t.id,
                                   game_id=t.event_game, data={"result": text})
        return {"act": "adjudicate", "id": entry, "table": t.id}

    async def _act_void(self, event_id: str, user: UserRow, body: ActBody, reason: str) -> Out:
        stopped = await self._stopped(event_id, body.table)
        t = stopped or self._table(event_id, body.table)
        gid = t.event_game
        note = {"table": t.id, "by": user.username, "reason": reason}
        log = self._act(user, "void", reason, table_id=t.id)
        async with self.service._lock(event_id):     # no settling in between: seated once
            try:
                await asyncio.to_thread(event_ops.void_game, self.db, event_id, gid, note, log=log)
            except QipaiError as e:
                raise ApiError(409, "event_refused", str(e), **why(e, "event.not_now")) from None
            if stopped is None:
                await self.void_table(t, note)
            else:
                await self._void_stopped(t, note)
        await self.service._settle(event_id)       # seats the game again at a new table
        new = next((x.id for x in self.live_tables(event_id) if x.event_game == gid), None)
        return {"act": "void", "id": log.id, "table": t.id, "replay": new}

    async def _stopped(self, event_id: str, table_id: str | None) -> LiveTable | None:
        """The event's table ``table_id`` if its game was stopped without a result by a fault
        of the server (status ``aborted``: a row of its action log the database refused,
        :meth:`.hub.Hub.stop_refused`; an event table is aborted for nothing else) and it still
        holds its event game, which only a referee's ``void`` lets go of; else None."""
        if not table_id or table_id in self.hub.tables:
            return None
        t = await self.hub.load_finished(table_id)
        if t is None or t.event_id != event_id or t.status != "aborted" or t.event_game is None:
            return None
        return t

    async def _void_stopped(self, t: LiveTable, note: dict[str, Any]) -> None:
        """:meth:`void_table` of a table whose game already stopped (:meth:`_stopped`): its row
        alone is written (status ``void``, its event game let go of), its action log as it was."""
        settings = {**t.settings, "voided": note, "voided_game": t.event_game}
        entry = self.hub.store.append(t.gate, Call(mark_void, t.id, "void", settings))
        await t.gate.wait(entry.tag)
        t.status, t.settings, t.event_game = "void", settings, None

    async def void_table(self, t: LiveTable, note: dict[str, Any], status: str = "void") -> None:
        """Stop ``t``'s game without a result at the table: its action log keeps a ``void`` row,
        the table's status becomes ``status`` (``void``: the event seats the game again;
        ``forfeited``: the event has scored it) and it lets go of its event game, and its
        connections are told (the table's new status)."""
        r = t.runner
        assert r is not None
        t.journal("void", None, None, r.time.now(), note)
        r.note(None, {"type": status, **note})
        t.status = status
        if t.task is not None and not t.task.done():
            t.task.cancel()
        settings = {**t.settings, "voided": note, "voided_game": t.event_game}
        t.settings = settings

        entry = self.hub.store.append(t.gate, Call(mark_void, t.id, status, settings))
        await t.gate.wait(entry.tag)
        self.hub.tables.pop(t.id, None)
        self.hub.remember_finished(t)
        t.event_game = None
        t.broadcast_lobby()

    async def _act_warning(self, event_id: str, user: UserRow, body: ActBody, reason: str) -> Out:
        if body.table is not None:
            t = self._table(event_id, body.table)
            seat = self._seat(t, body.seat)
            entrant = t.seats[seat]["name"]
        else:
            entrant = (await self._entrant(event_id, body.entrant)).entrant_id
            at = await self._seat_of(event_id, entrant)
            t, seat = at if at else (None, None)
        if t is not None:
            t.runner.submit(None, RefereeNote("warning", seat, user.username, reason))
        entry = await self._record(event_id, user, "warning", reason, table_id=t.id if t else None,
                                   game_id=t.event_game if t else None, seat=seat, entrant=entrant)
        return {"act": "warning", "id": entry, "table": t.id if t else None}

    async def _act_penalty(self, event_id: str, user: UserRow, body: ActBody, reason: str) -> Out:
        e = await self._entrant(event_id, body.entrant)
        at = await self._seat_of(event_id, e.entrant_id)
        log = self._act(user, "penalty", reason, table_id=at[0].id if at else None)
        async with self.service._lock(event_id):
            try:
                out = await asyncio.to_thread(penalize, self.db, event_id, e.entrant_id, body.kind or "",
                                              reason, log=log)
            except QipaiError as err:
                raise ApiError(400, "bad_penalty", str(err),
                               **why_and(err, "event.penalty_refused", kind=body.kind or "")) from None
        if at is not None:
            t, seat = at
            t.runner.submit(None, RefereeNote("penalty", seat, user.username, reason,
                                              (("kind", body.kind), ("effect", out["effect"]))))
            if body.kind == "deal_forfeit" and out.get("game") == t.event_game:
                # the event scored the deal in play as lost: the table's deal stops here (its
                # record keeps the penalty), and the event seats the next deal
                await asyncio.sleep(0)
                await self.void_table(t, {"table": t.id, "by": user.username, "reason": reason,
                                          "penalty": body.kind}, status="forfeited")
        await self.service._settle(event_id)
        return {"act": "penalty", "id": log.id, **out}

    async def _act_disqualify(self, event_id: str, user: UserRow, body: ActBody, reason: str) -> Out:
        e = await self._entrant(event_id, body.entrant)
        if e.status == "disqualified":
            raise ApiError(409, "already_disqualified", f"{e.entrant_id} is already disqualified",
                           entrant=e.entrant_id)
        at = await self._seat_of(event_id, e.entrant_id)
        log = self._act(user, "disqualify", reason, table_id=at[0].id if at else None)
        async with self.service._lock(event_id):
            try:
                await asyncio.to_thread(event_ops.disqualify, self.db, event_id, e.entrant_id, log=log)
            except QipaiError as err:
                raise ApiError(409, "event_refused", str(err), **why(err, "event.not_now")) from None
        if at is not None:               # the game in play: lost, or the seat in trusteeship
            t, seat = at
            t.runner.submit(None, Disqualify(seat, user.username, reason))
        await self.service._settle(event_id)
        return {"act": "disqualify", "id": log.id, "table": at[0].id if at else None}

    async def _act_ruling(self, event_id: str, user: UserRow, body: ActBody, reason: str) -> Out:
        if body.decision not in DECISIONS:
            raise ApiError(400, "bad_decision", f"a ruling is one of {', '.join(DECISIONS)}",
                           valid=", ".join(DECISIONS))
        log = await self.log(event_id)
        dispute = next((x for x in log if x["act"] == "dispute" and x["id"] == body.dispute), None)
        if dispute is None:
            raise ApiError(404, "no_dispute", f"no dispute {body.dispute!r} in this event")
        if any(x["act"] == "ruling" and x["data"].get("dispute") == body.dispute for x in log):
            raise ApiError(409, "dispute_ruled", "this dispute has been ruled on")
        t = self.hub.tables.get(dispute["table"] or "")
        if t is not None and t.runner is not None and not t.runner.state.is_terminal():
            t.runner.submit(None, RefereeNote("ruling", dispute["seat"], user.username, reason,
                                              (("decision", body.decision), ("dispute", body.dispute))))
        entry = await self._record(event_id, user, "ruling", reason, table_id=dispute["table"],
                                   game_id=dispute["game"], seat=dispute["seat"], entrant=dispute["entrant"],
                                   data={"dispute": body.dispute, "decision": body.decision})
        return {"act": "ruling", "id": entry}

    async def _act_enter_result(self, event_id: str, user: UserRow, body: ActBody, reason: str) -> Out:
        gid = body.game

        def check(s: Session) -> None:
            g = row_by_id(s, GameRow, gid)
            if g is None or g.match.event_id != event_id:
                raise ApiError(404, "no_game", f"event {event_id!r} has no game {gid!r}", game=gid)
            if g.status != "pending":
                raise ApiError(409, "game_finished", f"game {gid} already has a result", game=gid)
            if s.scalar(select(TableRow.id).where(TableRow.event_game == gid)) is not None:
                raise ApiError(409, "game_at_table", f"game {gid} is played at a live table: adjudicate "
                               "it there", game=gid)
        await self.hub.store.call(check, write=False)
        log = self._act(user, "enter_result", reason)
        async with self.service._lock(event_id):
            try:
                await asyncio.to_thread(event_ops.enter_result, self.db, event_id, gid,
                                        (body.result or "").strip(), body.moves, body.duration, log=log)
            except QipaiError as err:
                raise ApiError(400, "bad_result", str(err),
                               **why_and(err, "unreadable", result=body.result or "", game=gid)) from None
        await self.service._settle(event_id)
        return {"act": "enter_result", "id": log.id, "game": gid}



def add_referee_routes(app: FastAPI, hub: Hub, db: sessionmaker[Session], service: EventService,
                       need_user: Callable[[Request], Awaitable[UserRow]],
                       user_of: Callable[[Request], Awaitable[UserRow | None]]) -> Referees:
    refs = Referees(hub, db, service)
    roundacts.add_internal_routes(app, hub, refs.table_json)

    @app.get("/api/events/{event_id}/referees", tags=["referees"])
    async def referees(request: Request, event_id: str) -> dict[str, Any]:
        """The event's referees, and whether the caller may act (``can_referee``) or appoint
        (``can_appoint``, the organizers)."""
        await refs._event(event_id)
        user = await user_of(request)
        return {"referees": await refs.referee_names(event_id),
                "can_referee": await refs.may_act(event_id, user),
                "can_appoint": bool(user and user.role == "organizer")}

    @app.post("/api/events/{event_id}/referees", tags=["referees"], status_code=201)
    async def appoint(request: Request, event_id: str, body: Appointment) -> dict[str, Any]:
        """Appoint an account referee of the event (organizers only). Errors: not_organizer
        (403), no_event (404), no_user (400), already_referee (409), plays_in_event (409: an
        entrant of the event, :func:`plays_in`)."""
        user = await need_user(request)
        if user.role != "organizer":
            raise ApiError(403, "not_organizer", "only an organizer may do this")
        return {"referees": await refs.appoint(event_id, user, body.username)}

    @app.delete("/api/events/{event_id}/referees/{username}", tags=["referees"])
    async def dismiss(request: Request, event_id: str, username: str) -> dict[str, Any]:
        """Withdraw an appointment (organizers only). Errors: not_organizer (403), not_a_referee (404)."""
        user = await need_user(request)
        if user.role != "organizer":
            raise ApiError(403, "not_organizer", "only an organizer may do this")
        return {"referees": await refs.dismiss(event_id, user, username)}

    @app.get("/api/events/{event_id}/console", tags=["referees"])
    async def console(request: Request, event_id: str) -> dict[str, Any]:
        """The referee console's data (organizers and the event's referees; 403 not_referee)."""
        await refs.need_referee(event_id, await need_user(request))
        return await refs.console(event_id)

    @app.get("/api/events/{event_id}/log", tags=["referees"])
    async def event_log(event_id: str) -> list[dict[str, Any]]:
        """The event's public log of referee acts and disputes, oldest first."""
        await refs._event(event_id)
        return await refs.log(event_id)

    @app.post("/api/events/{event_id}/acts", tags=["referees"])
    async def act(request: Request, event_id: str, body: ActBody) -> dict[str, Any]:
        """One referee act (see :mod:`qipai.server.referee`). Errors: not_referee (403),
        bad_act, reason_required, bad_seat, bad_time, bad_result, cannot_count, bad_penalty,
        bad_decision (400), no_table, no_entrant, no_game, no_dispute (404), not_playing,
        already_paused, not_paused, no_live_tables, nothing_to_add, already_disqualified,
        game_finished, game_at_table, dispute_ruled, event_refused, event_over (409)."""
        return await refs.act(event_id, await need_user(request), body)

    @app.post("/api/events/{event_id}/confirmations", tags=["referees"])
    async def confirm(request: Request, event_id: str, body: ConfirmBody) -> dict[str, Any]:
        """A player confirms the result of their game (``game``, or the ``table`` it was played
        at); it is confirmed once every player of it has (competition.md §5.7). Returns
        ``{"game", "confirmed", "confirmed_by", "waiting"}``."""
        return await refs.confirm(event_id, await need_user(request), body)

    @app.post("/api/events/{event_id}/disputes", tags=["referees"], status_code=201)
    async def dispute(request: Request, event_id: str, body: DisputeBody) -> dict[str, Any]:
        """A seated player disputes the game at ``table`` (during it or up to 10 minutes after)."""
        return await refs.dispute(event_id, await need_user(request), body)

    return refs
