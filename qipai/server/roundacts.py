"""A referee act over a whole round, and the referee's console, on every worker of a cluster.

One process serves every table of an event; with several workers (docs/deploy.md) the event's
live tables are spread over them, each served by the holder of its lease. A referee's request
lands on any worker (the *receiver*). Acts that name one table are relayed to its owner whole
(:mod:`.relay`); the acts that name no table — ``pause`` and ``resume`` of the whole round
(:mod:`.referee`) — and the console's list of live tables concern every table of the event, so
the receiver:

1. reads the event's live tables from the database and finds each one's owner
   (:meth:`.cluster.Cluster.route`: a table nobody holds is taken over here at once);
2. acts on its own tables itself and asks each other owner, at its internal address, to act on
   its share (``POST /internal/events/{id}/round``, trusted only when relayed with the cluster's
   secret; the owner skips a table already in the state asked for, so asking twice is harmless);
3. asks again, after a new look at the leases, for a table whose owner could not be reached
   or no longer served it (it was moving), for up to three lease times; the act is logged once,
   by the receiver, with every table it reached (``data.tables``) and those it could not
   (``data.unreached``, none unless a table kept moving all that time).

The console's tables are gathered the same way (``GET /internal/events/{id}/tables``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from pydantic import Field
from sqlalchemy import select

from qipai.match.players import Pause, Resume

from .bodies import Body
from .errors import ApiError
from .models import TableRow

if TYPE_CHECKING:
    from .hub import Hub
    from .tables import LiveTable

ROUND = "/internal/events/{}/round"
TABLES = "/internal/events/{}/tables"


class RoundBody(Body):
    act: str = Field(max_length=20)
    by: str = Field(max_length=64)
    reason: str = Field(max_length=500)
    tables: list[str] = Field(max_length=10_000)


def round_tables(hub: Hub, event_id: str, resume: bool, only: set[str] | None = None) -> list[LiveTable]:
    """This worker's tables of the event that a round ``pause`` (``resume``: a round
    ``resume``) changes: playing (or dealing: in their nonce window), not over, not already so,
    not paused by storage trouble (``only``: among these ids)."""
    return sorted((t for t in hub.tables.values()
                   if t.event_id == event_id and (only is None or t.id in only) and pausable(t)
                   and t.referee_paused() == resume),
                  key=lambda t: (t.event_round or 0, t.event_game or 0))


def pausable(t: LiveTable) -> bool:
    """Whether a referee may pause or resume ``t``: its game is on (or being dealt) and not
    paused by storage trouble."""
    if t.runner is None:
        return t.nonce_open()
    return t.status == "playing" and not t.runner.state.is_terminal() and not t.storage_paused


def submit_round(tables: list[LiveTable], resume: bool, by: str, reason: str) -> list[str]:
    for t in tables:
        t.referee_pause(Resume(by, reason) if resume else Pause(reason, by))
    return [t.id for t in tables]


async def elsewhere(hub: Hub, event_id: str, ids: list[str] | None = None) -> dict[str, list[str]]:
    """The event's live tables (``ids``: these) served by other workers, by owner's internal
    address. A table nobody serves is taken over here; a table whose owner cannot be found
    (stopping: its lease not expired yet) is under the key ``""``."""
    cluster = hub.cluster
    if cluster is None:
        return {}
    if ids is None:
        ids = await hub.store.call(lambda s: list(s.scalars(select(TableRow.id).where(
            TableRow.event_id == event_id, TableRow.status.in_(("open", "playing"))))), write=False)
    out: dict[str, list[str]] = {}
    for tid in ids:
        if tid in hub.tables:
            continue
        try:
            target = await cluster.route(tid)
        except Exception:           # its owner stopped a moment ago, or Redis is away
            target = ("", "")
        if target is not None:
            out.setdefault(target[1], []).append(tid)
    return out


async def act_everywhere(hub: Hub, event_id: str, resume: bool, by: str,
                         reason: str) -> tuple[list[str], list[str]]:
    """A round ``pause`` or ``resume`` on every worker (see the module docstring): ``(tables
    changed, tables not reached)``."""
    done = submit_round(round_tables(hub, event_id, resume), resume, by, reason)
    cluster = hub.cluster
    if cluster is None:
        return done, []
    act = "resume" if resume else "pause"
    todo = await elsewhere(hub, event_id)
    deadline = time.monotonic() + cluster.lease_ms / 1000 * 3
    while todo:
        again: list[str] = []
        for address, ids in todo.items():
            if not address:
                again += ids
                continue
            try:
                got = await cluster.ask(address, "POST", ROUND.format(event_id),
                                        {"act": act, "by": by, "reason": reason, "tables": ids})
            except Exception:
                again += ids
                continue
            done += got["tables"]
            again += got["absent"]
        if not again or time.monotonic() > deadline:
            return done, again
        await asyncio.sleep(0.2)
        # taken over here meanwhile: act on them here
        here = round_tables(hub, event_id, resume, set(again))
        done += submit_round(here, resume, by, reason)
        todo = await elsewhere(hub, event_id, [t for t in again if t not in hub.tables])
    return done, []


async def tables_everywhere(hub: Hub, event_id: str, show: Callable[[LiveTable], dict[str, Any]],
                            mine: list[LiveTable]) -> list[dict[str, Any]]:
    """The console's rows (``show(table)``) of the event's live tables on every worker: this
    worker's ``mine``, then the others' as their owners answer (a worker that does not answer
    is left out)."""
    rows = [show(t) for t in mine]
    cluster = hub.cluster
    if cluster is None:
        return rows
    for address, ids in (await elsewhere(hub, event_id)).items():
        if not address:
            continue
        try:
            rows += await cluster.ask(address, "GET", TABLES.format(event_id) + "?ids=" + ",".join(ids))
        except Exception:
            continue
    rows += [show(t) for t in hub.tables.values()     # taken over here while asking
             if t.event_id == event_id and t.id not in {r["id"] for r in rows}]
    return sorted(rows, key=lambda r: (r["round"] or 0, r["event_game"] or 0))


def add_internal_routes(app: FastAPI, hub: Hub, show: Callable[[LiveTable], dict[str, Any]]) -> None:
    """The owner's side: the routes another worker calls (refused as 404 ``not_found`` to
    anyone else: only a request relayed with the cluster's secret reaches them)."""

    def relayed(request: Request) -> None:
        if not request.scope.get("qipai.relayed"):
            raise ApiError(404, "not_found", "not found")

    @app.post(ROUND.format("{event_id}"), include_in_schema=False)
    async def round_act(request: Request, event_id: str, body: RoundBody) -> dict[str, Any]:
        relayed(request)
        if body.act not in ("pause", "resume"):
            raise ApiError(400, "bad_act", f"unknown act {body.act!r}; valid: pause, resume",
                           act=body.act, valid="pause, resume")
        resume = body.act == "resume"
        want = set(body.tables)
        done = submit_round(round_tables(hub, event_id, resume, want), resume, body.by, body.reason)
        return {"tables": done, "absent": sorted(t for t in want if t not in hub.tables)}

    @app.get(TABLES.format("{event_id}"), include_in_schema=False)
    async def tables(request: Request, event_id: str, ids: str = "") -> list[dict[str, Any]]:
        relayed(request)
        want = set(ids.split(","))
        return [show(t) for t in hub.tables.values() if t.event_id == event_id and t.id in want]
