"""Meets of several events: unit (team) standings, and CSV exports of an event.

A *meet* is a name that several events carry (``meet = "..."`` in the event's description, or
``qipai event new --meet NAME``). Its unit standings (S2): every entrant with a ``unit`` scores
its event's placement points (``placement_points``: champion 5, runner-up 3, anyone else who
played 1; a no-show or a disqualified entrant 0), and a unit's score is the sum over the meet's
events. An event still running scores provisionally, as it stands now
(:meth:`~qipai.competition.director.Director.provisional_outcome`: a points format by its
table at the end of its last round finished (a round in play is held from the public), a
knockout ``other`` for each entrant who has played until its final), marked ``provisional``;
an event not yet started, or without placement points, scores nothing. Units are ranked by
points, then by champions, then by runners-up, then by name (a shared place is
shown as shared).

The CSV exports (:func:`event_csv`) give an organizer the pairings, the results and the standings
of one event as spreadsheets: UTF-8 with a header row. Every CSV is written by :func:`_csv`, which
keeps a spreadsheet from reading a cell as a formula: a text cell that starts with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return (a unit or player named ``=HYPERLINK(...)``) gets a
leading ``'``; a plain number (``-3``, ``+1.5``) stays as it is.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from .common import VACANT
from .db import EventRow
from .director import Director

#: the tables an event exports (:func:`event_csv`)
EXPORTS = ("pairings", "results", "standings")


def meet_events(s: Session, meet: str) -> list[EventRow]:
    """The events of ``meet``, oldest first."""
    rows = s.scalars(select(EventRow).order_by(EventRow.created, EventRow.id))
    return [ev for ev in rows if (ev.config or {}).get("meet") == meet]


def unit_standings(db: sessionmaker[Session], meet: str) -> dict[str, Any]:
    """``{"meet", "events": [{"id", "name", "preset", "game", "status", "provisional"}], "units":
    [{"rank", "unit", "points", "champions", "runners_up", "by_event": {event id: points}}],
    "provisional"}``: an event's ``provisional`` is true while it runs (its points may change),
    and the standings' when any event's is. Raises KeyError for a meet no event names."""
    with db() as s:
        events = meet_events(s, meet)
        if not events:
            raise KeyError(meet)
        units: dict[str, dict[str, Any]] = {}
        for ev in events:
            for e in ev.entrants:
                if e.unit:
                    units.setdefault(e.unit, {"unit": e.unit, "points": 0.0, "champions": 0,
                                              "runners_up": 0, "by_event": {}})
            if ev.status == "running":
                out = Director(s, ev).provisional_outcome()
            elif ev.status == "finished":
                out = ev.outcome or {}
            else:                               # not started: nothing to score yet
                continue
            pts = out.get("placement_points") or {}
            for e in ev.entrants:
                if not e.unit:
                    continue
                u = units[e.unit]
                got = float(pts.get(e.entrant_id, 0.0))
                u["points"] += got
                u["by_event"][ev.id] = u["by_event"].get(ev.id, 0.0) + got
                u["champions"] += e.entrant_id == out.get("champion")
                u["runners_up"] += e.entrant_id in (out.get("runner_up") or [])
        listed = [{"id": ev.id, "name": ev.name, "preset": ev.preset, "game": ev.game, "status": ev.status,
                   "provisional": ev.status == "running"} for ev in events]
    key = lambda u: (-u["points"], -u["champions"], -u["runners_up"])    # noqa: E731
    table = sorted(units.values(), key=lambda u: (*key(u), u["unit"]))
    for i, u in enumerate(table):
        u["rank"] = i + 1 if i == 0 or key(table[i - 1]) != key(u) else table[i - 1]["rank"]
    return {"meet": meet, "events": listed, "units": table,
            "provisional": any(e["provisional"] for e in listed)}


def units_csv(standings: dict[str, Any]) -> str:
    """The unit standings as CSV: rank, unit, points, then one column per event (an event still
    running is headed ``ID (provisional)``)."""
    events = [e["id"] for e in standings["events"]]
    heads = [e["id"] + (" (provisional)" if e.get("provisional") else "") for e in standings["events"]]
    rows = [["rank", "unit", "points", "champions", "runners_up", *heads]]
    for u in standings["units"]:
        rows.append([u["rank"], u["unit"], f"{u['points']:g}", u["champions"], u["runners_up"],
                     *(f"{u['by_event'][e]:g}" if e in u["by_event"] else "" for e in events)])
    return _csv(rows)


def event_csv(d: Any, what: str, held: Any = None) -> str:
    """One event's ``what`` (one of :data:`EXPORTS`) as CSV, from its director ``d``
    (:class:`~qipai.competition.event.Director`). ``held``: ``(round, seats' names) -> bool``,
    whether a game's result is not shown yet (its round still being played, the server's
    :class:`~qipai.server.conduct.RoundHold`): its result, reason, moves and time are left
    blank, and its match's result when all its games are held; and the standings are those at
    the end of the last round finished (:meth:`~qipai.competition.director.Director.held_through`).
    Raises ValueError for another table."""
    held = held or (lambda rnd, names: False)

    def names(g: Any) -> list[str]:
        return [d.seat_player(g, i)[0] for i in range(len(g.seats))]
    if what == "pairings":
        rows: list[list[Any]] = [["round", "match", "kind", "entrants", "status", "result", "winner"]]
        for m in d.matches():
            res = m.result or {}
            if m.games and all(held(m.round, d.people(g)) for g in m.games):
                res = {}
            win = res.get("winner")
            rows.append([m.round, m.index, m.kind, " / ".join(d.name(x) for x in m.entrants), m.status,
                         res.get("text", ""), d.name(win) if win is not None else ""])
        return _csv(rows)
    if what == "results":
        rows = [["game", "round", "match", "number", "seats", "result", "reason", "moves", "seconds",
                 "source"]]
        for m in d.matches():
            for g in sorted(m.games, key=lambda g: g.number):
                r = {} if held(m.round, d.people(g)) else (g.result or {})
                rows.append([g.id, m.round, m.index, g.number, " / ".join(names(g)),
                             r.get("text", "pending" if g.status == "pending" else ""), r.get("reason", ""),
                             "" if r.get("moves") is None else r["moves"],
                             f"{r['duration'] / 1000:g}" if r.get("duration") else "", g.source or ""])
        return _csv(rows)
    if what == "standings":
        if d.format.knockout:
            out = d.ev.outcome or {}
            pts = out.get("placement_points") or {}
            rows = [["place", "player", "unit", "placement_points"]]
            top = ([out["champion"]] if out.get("champion") else []) + list(out.get("runner_up") or [])
            units = {e.entrant_id: e.unit or "" for e in d.ev.entrants}
            # below the final, the round an entrant went out in: the losers of one round share
            # a place ("3=" for both losing semi-finalists, "5=" for the quarter-finals' losers)
            # (competition.md §2.5 makes them all "other" for placement points; the place only
            # reads the bracket); an entrant who never played has none
            out_in: dict[str, int] = {}
            for m in d.matches():
                if m.kind != "bye":
                    for x in m.entrants:
                        if x != VACANT:
                            out_in[d.name(x)] = max(out_in.get(d.name(x), 0), m.round)
            rest = sorted((e.entrant_id for e in d.ev.entrants if e.entrant_id not in top),
                          key=lambda pid: (-out_in.get(pid, 0), -pts.get(pid, 0), pid))
            for i, pid in enumerate(top, 1):
                rows.append([i, pid, units.get(pid, ""), f"{pts[pid]:g}" if pid in pts else ""])
            for pid in rest:
                r = out_in.get(pid, 0)
                place = 1 + len(top) + sum(out_in.get(q, 0) > r for q in rest)
                shared = sum(out_in.get(q, 0) == r for q in rest) > 1
                rows.append([(f"{place}=" if shared else place) if r else "", pid, units.get(pid, ""),
                             f"{pts[pid]:g}" if pid in pts else ""])
            return _csv(rows)
        # a viewer from whom the round in play is held sees the standings at its start
        held_rounds = [r for r in d.held_rounds() if held(r, [])]
        table = d.standings(d.held_through() if held_rounds else None)
        cols = [c for c in table[0] if c not in ("draw",)] if table else ["rank", "id"]
        rows = [[("player" if c == "id" else c) for c in cols]]
        rows += [[_cell(r.get(c)) for c in cols] for r in table]
        return _csv(rows)
    raise ValueError(f"unknown export {what!r}; valid: {', '.join(EXPORTS)}")


def _cell(v: Any) -> Any:
    if isinstance(v, bool):
        return "yes" if v else ""
    if isinstance(v, float):
        return f"{v:g}"
    return "" if v is None else v


#: what a spreadsheet reads as the start of a formula (OWASP "CSV injection")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def safe_cell(v: Any) -> Any:
    """``v`` as a CSV cell no spreadsheet runs: text starting like a formula gets a leading
    ``'`` (a plain number, such as a negative score, is left alone)."""
    if isinstance(v, str) and v.startswith(FORMULA_START) and not NUMBER.fullmatch(v):
        return "'" + v
    return v


def _csv(rows: list[list[Any]]) -> str:
    """The one writer of the CSV exports: ``rows`` with every cell made safe (:func:`safe_cell`)."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows([safe_cell(v) for v in row] for row in rows)
    return buf.getvalue()
