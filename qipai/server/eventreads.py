"""What the server reads of events (a part of :class:`~.eventwork.EventWork`, run as it is, away
from the event loop): the list of events, an event as its page shows it to a viewer (the results
held from the viewer, competition.md §6.5, read with the event in one read), a game's record, the
CSV exports, a meet's units, and what the holds and the spectators' rule ask (the rounds held, who
plays a round)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from qipai.competition.db import EntrantRow, EventRow, GameRow
from qipai.competition.event import Director
from qipai.competition.meet import EXPORTS, event_csv, unit_standings
from qipai.competition.results import result_states
from qipai.competition.trf import TrfRefused, describable, write_trf

from .errors import ApiError
from .eventfiles import games_zip
from .eventphase import phase
from .models import TableRow

#: what an event's page shows of a game's result (left out while :class:`.conduct.RoundHold` holds it)
GAME_RESULT = {"result": None, "reason": None, "winners": [], "winner_entrants": [], "confirmed": False,
               "standing": None, "confirmed_by": [], "corrections": [], "replay": False, "record": None}


def held_results(ev: dict[str, Any], held: Callable[[int, bool], bool], name: str | None) -> dict[str, Any]:
    """The event ``ev`` (as described) without the results held from the viewer ``name``
    (``held(round, played)``: whether a game of that round is, ``played``: the viewer played
    it): a game's result and record, and its match's result when the viewer played none of the
    match's games."""
    for rnd in ev["rounds"]:
        for m in rnd["matches"]:
            played = any(name is not None and name in g["seats"] for g in m["games"])
            if held(rnd["round"], played):
                m.update(result=None, winner=None)
            for g in m["games"]:
                if held(rnd["round"], name is not None and name in g["seats"]):
                    g.update(GAME_RESULT)
    return ev


class EventReads:
    """The reading methods of :class:`~.eventwork.EventWork`."""

    db: sessionmaker[Session]

    def export(self, event_id: str, what: str, held: Any = None) -> str:
        """One of the event's CSV exports (qipai.competition.meet.event_csv; ``held``: see
        there). Errors: no_event, no_export (404)."""
        if what not in EXPORTS:
            raise ApiError(404, "no_export", f"no export {what!r}; valid: {', '.join(EXPORTS)}")
        with self.db() as s:
            ev = s.get(EventRow, event_id)
            if ev is None:
                raise ApiError(404, "no_event", f"no event {event_id!r}")
            return event_csv(Director(s, ev), what, held)

    def games_zip(self, event_id: str, held: Any) -> bytes:
        """Every game of the event in one zip (:mod:`.eventfiles`; ``held`` as for
        :meth:`export`). Error: no_event (404)."""
        with self.db() as s:
            ev = s.get(EventRow, event_id)
            if ev is None or ev.status == "registration":
                raise ApiError(404, "no_event", f"no event {event_id!r}")
            return games_zip(Director(s, ev), held)

    def trf(self, event_id: str) -> str:
        """The event as FIDE's TRF16 (:mod:`qipai.competition.trf`). Errors: no_event (404),
        trf_no_draw, trf_pairs, trf_game, trf_format (409: an event a TRF cannot describe)."""
        with self.db() as s:
            ev = s.get(EventRow, event_id)
            if ev is None:
                raise ApiError(404, "no_event", f"no event {event_id!r}")
            if ev.status == "registration":
                raise ApiError(409, "trf_no_draw", "the event has no draw yet: its TRF is written from "
                               "round 1 on")
            try:
                return write_trf(Director(s, ev))
            except TrfRefused as e:
                if e.code == "trf_game":
                    raise ApiError(409, "trf_game", str(e), seats=e.params["seats"]) from None
                if e.code == "trf_pairs":
                    raise ApiError(409, "trf_pairs", str(e)) from None
                raise ApiError(409, "trf_format", str(e)) from None

    def units(self, meet: str) -> dict[str, Any]:
        """The unit standings of ``meet``. Error: no_meet (404)."""
        try:
            return unit_standings(self.db, meet)
        except KeyError:
            raise ApiError(404, "no_meet", f"no event belongs to the meet {meet!r}") from None

    def listing(self) -> list[dict[str, Any]]:
        """Every event, newest first, with its number of entrants and where it is (a running
        one's stage, latest round and whether it has begun: eventphase.py)."""
        with self.db() as s:
            counts = dict(s.execute(select(EntrantRow.event_id, func.count(EntrantRow.id))
                                    .group_by(EntrantRow.event_id)).all())
            rows = s.scalars(select(EventRow).order_by(EventRow.created.desc())).all()
            return [{"id": e.id, "name": e.name, "preset": e.preset, "game": e.game, "status": e.status,
                     "created": e.created, "entrants": counts.get(e.id, 0),
                     "pairs": (e.config or {}).get("entrants") == "pairs",
                     "meet": (e.config or {}).get("meet"), **phase(s, e)} for e in rows]

    @staticmethod
    def _seated(s: Session, event_id: str) -> dict[int, tuple[str, int | None]]:
        """The event's games that have a table: event game id -> (table id, record id)."""
        q = (select(TableRow.event_game, TableRow.id, TableRow.record_id)
             .where(TableRow.event_id == event_id, TableRow.event_game.is_not(None)))
        return {gid: (tid, rid) for gid, tid, rid in s.execute(q)}

    @staticmethod
    def _waiting(s: Session, event_id: str) -> set[int]:
        """The event's games whose table waits for its players (not started: status open)."""
        q = (select(TableRow.event_game)
             .where(TableRow.event_id == event_id, TableRow.event_game.is_not(None),
                    TableRow.status == "open"))
        return set(s.scalars(q))

    def describe(self, event_id: str, viewer: tuple[bool, str | None] | None = None) -> dict[str, Any]:
        """The event as ``GET /api/events/{id}`` shows it: in full, or to ``viewer``
        (``(referees, username)``, username None when signed out). A viewer who does not referee
        the event sees no result of a game of a round still held (:class:`~.conduct.RoundHold`,
        :meth:`~qipai.competition.director.Director.held_rounds`) that he did not play, nor of its
        match unless he played in it, and the standings at the end of the last round finished
        (``standings_after``: that round, 0 when none of the stage is). The rounds held are read
        with the event, in one read: an answer never shows a result that the rounds read a moment
        before or after would hold, nor holds one that an answer before it showed. Error:
        no_event (404)."""
        with self.db() as s:
            ev = s.get(EventRow, event_id)
            if ev is None:
                raise ApiError(404, "no_event", f"no event {event_id!r}")
            if ev.status == "registration":      # no draw yet: the list of who has joined
                return {"id": ev.id, "name": ev.name, "preset": ev.preset, "game": ev.game,
                        "status": ev.status, "meet": (ev.config or {}).get("meet"),
                        "pairs": (ev.config or {}).get("entrants") == "pairs",
                        "commitment": ev.commitment, "created": ev.created, "stage": None,
                        "secret": None, "current_round": 0, "started_round": 0, "begun": False,
                        "check_in": ev.config["registration"]["check_in"],
                        "entrants": [{"id": e.entrant_id, "name": e.name, "bot": e.bot, "draw": None,
                                      "status": e.status, "unit": e.unit} for e in ev.entrants],
                        "rounds": [], "standings": None, "standings_after": None, "outcome": None,
                        "trf": False}
            d = Director(s, ev)
            held = set() if viewer is None or viewer[0] else set(d.held_rounds())
            seated = self._seated(s, event_id)
            waiting = self._waiting(s, event_id)
            states = result_states(d, seated)
            rounds: dict[int, list[dict[str, Any]]] = {}
            absent: dict[int, int] = {}          # draw number -> matches it was absent from
            for m in d.matches():
                games = []
                for g in m.games:
                    table, record = seated.get(g.id, (None, None))
                    res = g.result or {}
                    seats = [d.seat_player(g, i)[0] for i in range(len(g.seats))]
                    games.append({"id": g.id, "number": g.number, "status": g.status, "seats": seats,
                                  # the entrant each seat plays for (a pair's name for its members)
                                  "entrants": [d.name(x) if x in d.by_draw else None for x in g.seats],
                                  "result": res.get("text"), "reason": res.get("reason"),
                                  "winners": [seats[w] for w in res.get("winners", ())
                                              if 0 <= w < len(seats)],
                                  "winner_entrants": [d.name(x) for x in res.get("winner_draws", ())
                                                      if x in d.by_draw],
                                  "source": g.source,
                                  # §5.7: who confirmed the result, and its corrections (who, why)
                                  "confirmed": bool(res.get("confirmed")),
                                  # confirmed, final (no longer open to dispute) or provisional
                                  "standing": states.get(g.id),
                                  "confirmed_by": res.get("confirmed_by") or [],
                                  "corrections": res.get("corrections") or [],
                                  # a played or entered game keeps its record: its replay is
                                  # /events/{id}/games/{game id} (or the live table's record)
                                  "replay": g.status == "finished" and g.source in ("played", "entered"),
                                  "table": table, "record": record,
                                  # its table waits for the players: the game has not started
                                  "seating": g.id in waiting})
                result = m.result
                winner = (result or {}).get("winner")
                for x in m.absent or ():
                    absent[x] = absent.get(x, 0) + 1
                rounds.setdefault(m.round, []).append({
                    "index": m.index, "kind": m.kind, "status": m.status,
                    # entrants declared absent (§5.6: a walkover, both absent, a seat in trusteeship)
                    "absent": [d.name(x) for x in m.absent or () if x in d.by_draw],
                    "entrants": [d.name(x) for x in m.entrants], "result": result,
                    "winner": d.name(winner) if winner in d.by_draw else None, "games": games})
            standings, after = None, d.held_through() if held else None
            if not d.format.knockout:
                standings = d.standings(after)
            champion = (ev.outcome or {}).get("champion")
            out = {"id": ev.id, "name": ev.name, "preset": ev.preset, "game": ev.game, "status": ev.status,
                   "meet": (ev.config or {}).get("meet"),
                   # entrants are pairs of two accounts (partnership games): counted as pairs
                   "pairs": (ev.config or {}).get("entrants") == "pairs",
                   "commitment": ev.commitment, "created": ev.created, "stage": d.stage,
                   # §6.1: the event's secret (all its draws, lots, seats and deals) once it ends
                   "secret": ev.secret if ev.status == "finished" else None,
                   "current_round": d.current_round(), "started_round": ev.started_round or 0,
                   # the latest round begun (eventphase.py), the words of the event's state
                   # (playing: a game of it has started; begun without it, the round waits
                   # for its players to sit)
                   **{k: v for k, v in phase(s, ev, d).items() if k in ("begun", "playing")},
                   "entrants": [{"id": e.entrant_id, "name": e.name, "bot": e.bot, "draw": e.draw,
                                 "status": e.status, "unit": e.unit, "rating": e.rating,
                                 "no_shows": absent.get(e.draw, 0) if e.draw is not None else 0}
                                for e in ev.entrants],
                   # draw numbers 1..seeded went by rating (§2.1 draw: seeded)
                   "seeded": d.full.seeded,
                   # left out at the close of entries for not checking in (§5.6)
                   "no_shows": ((ev.config or {}).get("registration") or {}).get("no_shows", []),
                   "rounds": [{"round": r, "matches": ms} for r, ms in sorted(rounds.items())],
                   "standings": standings, "outcome": ev.outcome, "champion": champion,
                   # a TRF (FIDE's report file) describes it: qipai.competition.trf
                   "trf": describable(d),
                   "standings_after": None if after is None else max(after - d.round0, 0)}
            if held:
                name = viewer[1] if viewer is not None else None
                if name in d.bot_names():       # an account named as a bot entrant played nothing
                    name = None
                held_results(out, lambda rnd, played: rnd in held and not played, name)
            return out

    def game_record(self, event_id: str, game_id: int) -> dict[str, Any]:
        """The stored record of event game ``game_id`` (played at a table, by ``qipai event
        run`` or entered by hand) with its seats' names and result, as the replay page reads it:
        ``{"event", "game", "names", "result", "record"}``. Error: no_record (404)."""
        with self.db() as s:
            g = s.get(GameRow, game_id)
            ev = s.get(EventRow, event_id)
            if g is None or ev is None or g.match.event_id != event_id or not g.record:
                raise ApiError(404, "no_record", f"no stored game {game_id} in event {event_id!r}")
            d = Director(s, ev, g.match.stage)
            names = [d.seat_player(g, i)[0] for i in range(len(g.seats))]
            return {"event": event_id, "game": g.id, "round": g.match.round, "match": g.match.index,
                    "number": g.number, "names": names, "people": d.people(g), "record": g.record,
                    "result": g.record.get("result") or g.result}

    def held_rounds(self, event_id: str) -> list[int]:
        """The rounds of the running event whose games are shown to their players and the
        referees alone (competition.md §6.5, :class:`~.conduct.RoundHold`): those still being
        played for the first time (:meth:`~qipai.competition.director.Director.held_rounds`)."""
        with self.db() as s:
            ev = s.get(EventRow, event_id)
            return [] if ev is None else Director(s, ev).held_rounds()

    def in_round(self, event_id: str, rnd: int, username: str) -> bool:
        """Whether ``username`` plays a match of round ``rnd`` of the running event that is not
        over (competition.md §6.5: such a player may not watch the round's other tables, also
        between two games of the match, when it sits at no live table)."""
        with self.db() as s:
            ev = s.get(EventRow, event_id)
            if ev is None or ev.status != "running":
                return False
            d = Director(s, ev)
            for m in d.matches(rnd):
                if m.status == "finished":
                    continue
                for x in m.entrants:
                    e = d.by_draw.get(x)
                    if e is not None and (e.entrant_id == username or
                                          any(p.get("id") == username for p in e.members or ())):
                        return True
            return False
