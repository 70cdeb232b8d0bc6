"""Replays: every position of a finished game, for the replay page.

:func:`replay_steps` re-plays a stored qipai JSON record move by move and returns, per ply, the
spectator view and each seat's view (the game is over, so hidden cards may be shown), each
seat's view as its few differences from the spectator view (:func:`view_patch`: a seat's view
repeats the whole table but its own hand; four of them made one mahjong hand's replay 4 MB).
The answer is sent gzipped to a browser (:func:`steps_response`). Lobby
records (``/api/records/{id}/steps``) and event games (``/api/events/{id}/games/{game}/steps``)
share it. Both are counted per client address (:func:`limit_replays`, limit ``replay_ip``),
and a lobby record's steps, which never change, are kept encoded (:class:`StepsCache`): a
long game costs seconds and megabytes (benchmarks/replay_steps.py: a 579-move go game 0.13 s
of CPU and 2.6 MB, 2,000 actions of mahjong-gb 2.6 s and 28 MB), not recomputed for every asker.
"""

from __future__ import annotations

import asyncio
import gzip
import json
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from fastapi.responses import Response

import qipai
from qipai.core import Record

from . import movetext
from .conns import client_key
from .errors import ApiError
from .ratelimit import retry_after

#: bytes of encoded steps a worker keeps (:class:`StepsCache`); one answer over a quarter of it
#: is not kept
STEPS_CACHE_BYTES = 96 * 1024 * 1024


async def limit_replays(request: Any) -> None:
    """Count one replay asked for by the request's client address (limit ``replay_ip`` of
    :class:`~.config.Limits`, in Redis for a whole cluster). Raises ApiError 429
    ``rate_limited`` with ``retry_after`` (seconds) past it."""
    wait = await request.app.state.limits.hit("replay_ip", client_key(request))
    if wait:
        raise ApiError(429, "rate_limited", "too many replays asked for; slow down",
                       retry_after=retry_after(wait))


class StepsCache:
    """Encoded replay steps by key, the least recently used dropped past ``max_bytes``. Askers
    of a key being computed wait for that one computation (in a worker thread) instead of
    starting their own; a computation that raises is not kept, and raises for each of them."""

    def __init__(self, max_bytes: int = STEPS_CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self.computed = 0                 # computations started (for tests and measurements)
        self._kept: OrderedDict[Hashable, bytes] = OrderedDict()
        self._running: dict[Hashable, asyncio.Future[bytes]] = {}

    async def get(self, key: Hashable, compute: Callable[[], bytes]) -> bytes:
        """The bytes kept for ``key``, else ``compute()``'s (run in a thread, then kept). An
        asker that goes away does not stop the computation the others wait for."""
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        running = self._running.get(key)
        if running is None:
            running = self._running[key] = asyncio.ensure_future(self._compute(key, compute))
            running.add_done_callback(lambda f: f.cancelled() or f.exception())  # all gone
        return await asyncio.shield(running)

    async def _compute(self, key: Hashable, compute: Callable[[], bytes]) -> bytes:
        self.computed += 1
        try:
            body = await asyncio.to_thread(compute)
        finally:
            self._running.pop(key, None)
        if len(body) <= self.max_bytes // 4:
            self._kept[key] = body
            self.size += len(body)
            while self.size > self.max_bytes:
                self.size -= len(self._kept.popitem(last=False)[1])
        return body


def view_patch(base: Any, view: Any, path: tuple = ()) -> list[list[Any]]:
    """What makes ``base`` into ``view`` (JSON values): ``[[path, value], ...]`` sets the value
    at path (a list of keys and list indices; an index one past a list's end appends), ``[path]``
    deletes a key; ``[]`` when they are equal. Lists and objects are compared item by item; a
    list that got shorter, or values of another kind, are replaced whole."""
    if base == view:
        return []
    if isinstance(base, dict) and isinstance(view, dict):
        out = [[[*path, k]] for k in base if k not in view]
        for k, v in view.items():
            out += view_patch(base[k], v, (*path, k)) if k in base else [[[*path, k], v]]
        return out
    if isinstance(base, list) and isinstance(view, list) and len(view) >= len(base):
        out = []
        for i, v in enumerate(view):
            out += view_patch(base[i], v, (*path, i)) if i < len(base) else [[[*path, i], v]]
        return out
    return [[list(path), view]]


def patched(base: Any, patch: list[list[Any]]) -> Any:
    """``base`` with ``patch`` (:func:`view_patch`) applied, ``base`` left as it was (as the
    replay page does it, in app.js)."""
    out = json.loads(json.dumps(base))
    for op in patch:
        path = op[0]
        if not path:
            out = op[1]
            continue
        node = out
        for k in path[:-1]:
            node = node[k]
        if len(op) == 1:
            del node[path[-1]]
        elif isinstance(node, list) and path[-1] == len(node):
            node.append(op[1])
        else:
            node[path[-1]] = op[1]
    return out


def steps_response(request: Any, body: bytes) -> Response:
    """The replay's JSON ``body`` as a response, gzipped for a client that takes gzip (a long
    game's steps are hundreds of kilobytes of much the same views; gzipped, a few dozen). Run
    in a worker thread: compressing is work."""
    if "gzip" not in request.headers.get("accept-encoding", ""):
        return Response(body, media_type="application/json")
    return Response(gzip.compress(body, compresslevel=5), media_type="application/json",
                    headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})


def replay_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The positions of ``record`` (a qipai JSON record): ``[{"action": None, "public": ...,
    "seen": [...]}, {"action": text, "seat": mover, "public": ..., "seen": ...}, ...]``, one
    more than the record has actions: ``public`` the spectator view, ``seen`` each seat's view
    as its patch on ``public`` (:func:`view_patch`; :func:`patched` makes the view again). In a
    board game every step after the first also has
    ``move``, the action's move-list entry (:func:`.movetext.describe`: Chinese and WXF for
    xiangqi). Raises QipaiError (a RecordError or an IllegalAction)
    for a record that does not replay."""
    rec = Record.from_json(record)
    game = qipai.load(rec.game, **rec.options)
    state = game.new_state(seed=rec.seed, deal=rec.deal, position=rec.position, num_seats=rec.num_seats)
    n = state.num_seats

    def views() -> dict[str, Any]:    # copied now: a view may share lists the state changes later
        public = json.loads(json.dumps(state.view(None), ensure_ascii=False))
        seats = json.loads(json.dumps([state.view(s) for s in range(n)], ensure_ascii=False))
        return {"public": public, "seen": [view_patch(public, v) for v in seats]}
    out = [{"action": None, **views()}]
    listed = movetext.has_moves(rec.game)
    for entry in rec.actions:
        seat, text = (entry[0], entry[1]) if isinstance(entry, list) else (None, entry)
        mover = seat if seat is not None else state.current_player
        move = movetext.describe(state, mover if mover is not None else 0, text) if listed else None
        state.apply(text, seat=seat)
        out.append({"action": text, "seat": mover, **views(), **({"move": move} if move else {})})
    return out
