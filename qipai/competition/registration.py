"""Registration (报名): players join an event themselves until the organizer closes entries.

An event opened for registration (:func:`open_registration`) has status ``registration``: its
rules are fixed and checked, its secret is drawn and its commitment published, but there is no
draw yet. Players join with the event's join code (:func:`join`; a link carries it), may leave
again (:func:`leave`), and, when the organizer asks for check-in, confirm that they are present
(:func:`check_in`). When the organizer closes entries (:func:`close_entries`), players who did
not check in are left out (no-shows before the draw play nothing and score nothing, §5.6), and
the draw of competition.md §2.1 is made from the event's secret and the registration nonces the
players gave when joining (ordered by entrant id, table of §6.1), then round 1 is paired.

An entrant row during registration has draw number 0 and status ``registered`` or
``checked_in``; the event's ``config["registration"]`` holds ``code``, ``check_in`` and the
``nonces`` by entrant id.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from qipai.core.errors import Message

from . import lot
from .db import EntrantRow, EventRow, lock_row
from .event import EventError, _now, check_field, check_players, make_draw, new_event_id, prepare_event

NONCE_RE = re.compile(r"[0-9a-f]{1,64}")


def open_registration(db: sessionmaker[Session], preset: str | dict[str, Any], *,
                      event_id: str | None = None, name: str | None = None, secret: str | None = None,
                      overrides: dict[str, Any] | None = None, fields: dict[str, Any] | None = None,
                      check_in: bool = False, players: list[Any] = ()) -> tuple[str, str]:
    """Open an event for registration (the arguments as :func:`.event.create_event`; ``players``
    entered by the organizer at once, e.g. bots; ``check_in``: players must check in before the
    draw). Returns ``(event id, join code)``. Raises EventError, creating nothing."""
    preset, data, cfg = prepare_event(preset, overrides, fields)
    first = check_players(cfg, list(players), enough=False) if players else []   # counted at close
    secret = secret or lot.new_secret()
    code = secrets.token_hex(4)
    data = {**data, "registration": {"code": code, "check_in": bool(check_in), "nonces": {}}}
    with db() as s:
        event_id = new_event_id(s, preset, secret, event_id)
        ev = EventRow(id=event_id, name=name or cfg.title, preset=preset, game=cfg.game_id, config=data,
                      status="registration", secret=secret, commitment=lot.commitment(secret),
                      created=_now())
        s.add(ev)
        for p in first:
            s.add(_row(event_id, p, "checked_in"))
        s.commit()
    return event_id, code


def _row(event_id: str, p: dict[str, Any], status: str) -> EntrantRow:
    return EntrantRow(event_id=event_id, entrant_id=p["id"], name=p["name"], unit=p["unit"],
                      rating=p["rating"], bot=p["bot"], draw=0, status=status, members=p["members"])


def _open(s: Session, event_id: str) -> EventRow:
    """The event in registration, its row held until the commit (:func:`.db.lock_row`): the
    changes to its entries are made one after the other, each seeing the one before."""
    lock_row(s, EventRow, event_id)
    ev = s.get(EventRow, event_id)
    if ev is None:
        raise EventError(Message(f"no event {event_id!r}", code="event.none", params={"id": event_id}))
    if ev.status != "registration":
        raise EventError(Message(f"entries to event {event_id} are closed", code="event.closed"))
    return ev


def _entry(p: EntrantRow) -> dict[str, Any]:
    return {"id": p.entrant_id, "name": p.name, "unit": p.unit, "rating": p.rating, "bot": p.bot,
            "members": p.members}


def join(db: sessionmaker[Session], event_id: str, player: dict[str, Any], code: str,
         nonce: str | None = None, check: Callable[[Session], None] | None = None) -> bool:
    """Register ``player`` (``{"id", "name"?, "unit"?, "rating"?, "members"?}``) with the event's
    join ``code`` and an optional registration ``nonce`` (lowercase hex, at most 64 digits).
    ``check(session)``: called with the event's row held, before anything is read, to refuse
    the entry by raising (the server's roles that exclude playing). Returns False when
    ``player`` is entered already (a single entrant of that id, no bot, no pair: a repeated
    Join, nothing changed), True when entered now. Raises EventError (nothing changed):
    entries closed, a wrong code, a bad nonce, an entrant the event refuses (id taken by
    another entry, unit full, ...)."""
    with db() as s:
        ev = _open(s, event_id)
        reg = ev.config["registration"]
        if not secrets.compare_digest(str(code), reg["code"]):
            raise EventError(Message("wrong join code for this event", code="event.wrong_code"))
        if nonce is not None and not NONCE_RE.fullmatch(nonce):
            raise EventError(Message("a registration nonce is lowercase hex, at most 64 digits",
                                     code="event.bad_nonce"))
        if check is not None:
            check(s)
        if not player.get("members") and any(
                p.entrant_id == player["id"] and p.bot is None and not p.members for p in ev.entrants):
            return False
        cfg = _config(ev)
        known = [_entry(p) for p in ev.entrants]
        everyone = check_players(cfg, [*known, player], enough=False)
        new = everyone[-1]
        s.add(_row(ev.id, new, "registered" if reg["check_in"] else "checked_in"))
        if nonce is not None:
            ev.config = {**ev.config, "registration": {**reg, "nonces": {**reg["nonces"], new["id"]: nonce}}}
        s.commit()
        return True


def _config(ev: EventRow) -> Any:
    from .config import parse_config

    return parse_config(ev.preset, ev.config)


def leave(db: sessionmaker[Session], event_id: str, entrant_id: str) -> None:
    """Take ``entrant_id`` off the list before the draw. Raises EventError."""
    with db() as s:
        ev = _open(s, event_id)
        row = next((p for p in ev.entrants if p.entrant_id == entrant_id), None)
        if row is None:
            raise EventError(Message(f"{entrant_id!r} has not joined event {event_id}",
                                     code="event.not_joined",
                                     params={"id": entrant_id}))
        s.delete(row)
        reg = ev.config["registration"]
        nonces = {k: v for k, v in reg["nonces"].items() if k != entrant_id}
        ev.config = {**ev.config, "registration": {**reg, "nonces": nonces}}
        s.commit()


def check_in(db: sessionmaker[Session], event_id: str, entrant_id: str) -> None:
    """Confirm that ``entrant_id`` is present for the draw. Raises EventError."""
    with db() as s:
        ev = _open(s, event_id)
        row = next((p for p in ev.entrants if p.entrant_id == entrant_id), None)
        if row is None:
            raise EventError(Message(f"{entrant_id!r} has not joined event {event_id}",
                                     code="event.not_joined",
                                     params={"id": entrant_id}))
        row.status = "checked_in"
        s.commit()


def close_entries(db: sessionmaker[Session], event_id: str) -> dict[str, Any]:
    """Close entries: leave out whoever did not check in (when check-in was asked for), make the
    draw from the event's secret and the registration nonces, and pair round 1. Returns
    ``{"entrants": [...], "no_shows": [...]}``. Raises EventError (nothing changed) when too few
    entrants are left for the format."""
    with db() as s:
        ev = _open(s, event_id)
        cfg = _config(ev)
        reg = ev.config["registration"]
        present = [p for p in ev.entrants if p.status == "checked_in"]
        absent = [p.entrant_id for p in ev.entrants if p.status != "checked_in"]
        entrants = check_field(cfg, [_entry(p) for p in present])
        for p in list(ev.entrants):
            s.delete(p)
        s.flush()
        s.expire(ev, ["entrants"])
        nonces = [reg["nonces"][pid] for pid in sorted(reg["nonces"]) if pid in {p["id"] for p in entrants}]
        make_draw(s, ev, cfg, entrants, nonces)
        # who was left out stays on the event's page (no-shows before the draw, §5.6)
        ev.config = {**ev.config, "registration": {**reg, "no_shows": absent}}
        s.commit()
        return {"entrants": [p["id"] for p in entrants], "no_shows": absent}


def registration(db: sessionmaker[Session], event_id: str) -> dict[str, Any]:
    """What the organizer sees of an event in registration: ``{"code", "check_in", "entrants":
    [{"id", "name", "unit", "bot", "status"}]}``. Raises EventError."""
    with db() as s:
        ev = _open(s, event_id)
        reg = ev.config["registration"]
        return {"code": reg["code"], "check_in": reg["check_in"],
                "entrants": [{"id": p.entrant_id, "name": p.name, "unit": p.unit, "bot": p.bot,
                              "status": p.status, "nonce": p.entrant_id in reg["nonces"]}
                             for p in ev.entrants]}
