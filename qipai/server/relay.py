"""Requests for a table another worker serves are relayed to that worker (ASGI middleware).

Behind one address (``SO_REUSEPORT``, or a reverse proxy spreading connections over the
workers) a request can land on any worker. A request about one table — ``/api/tables/{id}``
and everything under it, and the table's WebSocket ``/ws/tables/{id}`` — is served by the
table's owner (the holder of its lease, :mod:`.leases`): the worker it landed on (the *edge*)
checks it as usual (origin, body size, rate, :mod:`.guard`), then

* serves it itself when it owns the table (or nobody does: it takes the table over at once,
  :meth:`.cluster.Cluster.route`);
* otherwise forwards it over a direct connection to the owner's internal address (a socket
  each worker listens on besides the public one, published in Redis): an HTTP request is sent
  on and its answer returned; a WebSocket is bridged, each message passed on as it comes, in
  both directions. One TCP connection carries a socket's messages, so a seat or spectator
  gets every message in the owner's order, once; if the owner dies, the bridge breaks and
  the client reconnects (close 1012 ``moved``); if the owner loses the table's lease (frozen,
  then taken over), the edge notices at its next heartbeat and closes the bridge the same way.

The owner knows a relayed request by the port it came in on (the internal one) and the
cluster's shared secret in ``X-Qipai-Relay``; it takes the client's address from
``X-Qipai-Client`` and does not check origin, body size or rate again (the edge did).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import re
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from . import profiling
from .conns import CLOSE_MOVED
from .errors import ws_error
from .guard import read_body, replay

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("qipai.server")

TABLE_PATH = re.compile(r"^/(?:(?:api|ws)/tables|api/bot/game(?:/stream)?)/([A-Za-z0-9_-]{1,40})(?:/|$)")
#: what the lobby home serves (:meth:`.cluster.Cluster.route_lobby`): the seek pool, presence,
#: challenges and the Bot API's account event streams, kept in that worker's memory
LOBBY_PATH = re.compile(r"^/api/(?:seeks|presence|challenges?|bot/(?:challenge|seek|stream/event))(?:/|$)")
#: a referee act, relayed to the owner of the table its body names (or of the table of the
#: entrant or the dispute it names); a player's dispute or confirmation naming a table likewise
ACTS_PATH = re.compile(r"^/api/events/[^/]{1,80}/(?:acts|disputes|confirmations)$")
RELAY_HEADER = b"x-qipai-relay"
CLIENT_HEADER = b"x-qipai-client"
#: headers that belong to one hop, not passed on
HOP = frozenset({b"connection", b"keep-alive", b"transfer-encoding", b"te", b"upgrade", b"host",
                 b"proxy-connection", b"content-length", RELAY_HEADER, CLIENT_HEADER,
                 b"sec-websocket-key", b"sec-websocket-version", b"sec-websocket-extensions",
                 b"sec-websocket-accept", b"sec-websocket-protocol"})
MOVED_BODY = json.dumps({"error": "table_moved", "code": "table_moved", "params": {},
                         "message": "this table is moving to another server worker; try again in a "
                                    "moment"}).encode()


def target(scope: dict[str, Any]) -> str:
    """The path and query of ``scope`` as the client sent them, for the relayed request: the
    path still percent-encoded (``raw_path``), so a ``%3F``, ``%2F``, ``%23`` or ``%00`` in a
    move's text stays in that text on the owner instead of becoming a query, another route or a
    bad request."""
    raw = scope.get("raw_path")
    path = raw.decode("latin-1") if raw else quote(scope["path"], safe="/")
    query = scope.get("query_string") or b""
    return path + (f"?{query.decode('latin-1')}" if query else "")


def dot_segments(path: str) -> bool:
    """Whether ``path`` (as written, percent-encoded) holds a ``.`` or ``..`` segment: no page or
    client sends one, and an HTTP client would resolve it, so such a request is never relayed
    (the worker that got it answers it: not found)."""
    return any(part in (".", "..") for part in path.split("/"))


async def read_all(receive) -> list[dict]:
    """The request's body messages (the Guard has already limited their size)."""
    return await read_body(receive, 1 << 62)


def accept_relayed(scope: dict[str, Any], cluster: Any) -> bool:
    """True when ``scope`` was relayed here by another worker (it came in on the internal port
    with the shared secret); its ``client`` becomes the original client's address."""
    server = scope.get("server")
    if cluster is None or cluster.secret is None or not server or server[1] != cluster.internal_port:
        return False
    given = next((v for k, v in scope["headers"] if k == RELAY_HEADER), None)
    if given is None or not hmac.compare_digest(given, cluster.secret.encode()):
        return False
    client = next((v for k, v in scope["headers"] if k == CLIENT_HEADER), b"?")
    scope["client"] = (client.decode("latin-1"), 0)
    scope["qipai.relayed"] = True
    return True


class Relay:
    """ASGI middleware (inside :class:`.guard.Guard`): see the module docstring."""

    def __init__(self, app: Any, hub: Hub) -> None:
        self.app = app
        self.hub = hub
        self._http: Any = None

    async def __call__(self, scope, receive, send) -> None:
        cluster = self.hub.cluster
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        path = scope.get("path", "")
        if dot_segments(target(scope).split("?", 1)[0]):   # as written: an encoded / parts nothing
            return await self.app(scope, receive, send)
        m = TABLE_PATH.match(path)
        table_id = m.group(1) if m else None
        lobby = table_id is None and scope["type"] == "http" and LOBBY_PATH.match(path) is not None
        if table_id is None and not lobby:
            if cluster is not None and scope["type"] == "http" and ACTS_PATH.match(path) \
                    and not scope.get("qipai.relayed"):
                return await self._act(scope, receive, send)
            return await self.app(scope, receive, send)
        if table_id in self.hub.tables or table_id in self.hub.finished:
            return await self.app(scope, receive, send)
        if cluster is None or scope.get("qipai.relayed"):
            # one process alone (or the owner of a relayed request): a table whose game ended
            # before this process started, or long ago, is loaded from the database
            if table_id is not None:
                await self.hub.load_finished(table_id)
            return await self.app(scope, receive, send)
        await self._route(scope, receive, send, table_id)

    async def _act(self, scope, receive, send) -> None:
        """A referee act naming a table another worker serves goes there; so does one naming
        an entrant (a warning, a penalty, a disqualification) whose game in play another
        worker serves, or a dispute (a ruling) whose table is in play on another worker (the
        table is found in the database); and a player's dispute or confirmation naming a
        table."""
        body = await read_all(receive)
        receive = replay(body, receive)
        try:
            parsed = json.loads(b"".join(m.get("body", b"") for m in body) or b"{}")
            named, entrant, dispute = parsed.get("table"), parsed.get("entrant"), parsed.get("dispute")
        except (ValueError, AttributeError):
            named = entrant = dispute = None
        event_id = scope["path"].split("/")[3]
        if named is None and isinstance(entrant, str) and entrant:
            named = await self.hub.store.call(lambda s: entrant_table(s, event_id, entrant), write=False)
        elif named is None and isinstance(dispute, int) and not isinstance(dispute, bool):
            named = await self.hub.store.call(lambda s: dispute_table(s, event_id, dispute), write=False)
        if not isinstance(named, str) or not TABLE_ID.match(named) or named in self.hub.tables:
            return await self.app(scope, receive, send)
        await self._route(scope, receive, send, named)

    async def _route(self, scope, receive, send, table_id: str | None) -> None:
        """Serve here, or relay to the owner of ``table_id`` (None: to the lobby home)."""
        cluster = self.hub.cluster
        if scope["type"] == "websocket":
            first = await receive()
            if first["type"] != "websocket.connect":
                return
            receive = replay([first], receive)
        else:                           # the body (already read by the Guard), to send it again
            body = await read_all(receive)
            receive = replay(body, receive)
        # the owner may have just stopped: until another worker (or this one) has taken the
        # table over — a lease's time and a scan — the request waits, then goes there
        deadline = time.monotonic() + cluster.lease_ms / 1000 * 3
        while True:
            try:
                target = await (cluster.route(table_id) if table_id else cluster.route_lobby())
            except Exception as e:          # the owner's lease outlives it (or Redis is away)
                target = ("", "")
                why = f"{type(e).__name__}: {e}"
            if target is None:          # served here: a live table, or one whose game is over
                if table_id is not None:
                    await self.hub.load_finished(table_id)
                return await self.app(scope, receive, send)
            owner, address = target
            if address:
                if scope["type"] == "http":
                    done = await self._relay_http(scope, receive, send, address)
                else:
                    done = await self._relay_socket(scope, receive, send, table_id, owner, address)
                if done is True:
                    return
                why = f"worker {owner} at {address} does not answer"
                receive = replay(body if scope["type"] == "http" else [first], receive)
                # nothing listens where the owner listened: it is gone; its tables are taken
                # over now rather than once its leases lapse (cluster.worker_gone)
                if done is REFUSED and await cluster.worker_gone(owner, address, table_id):
                    continue
            if time.monotonic() > deadline:
                log.warning("relay: no route to table %s: %s", table_id, why)
                return await self._moved(scope, receive, send)
            await asyncio.sleep(0.2)

    # ----- HTTP -------------------------------------------------------------------------------
    def _client(self) -> Any:
        if self._http is None:
            import httpx

            # no cap on connections: relayed event streams hold theirs for hours
            self._http = httpx.AsyncClient(timeout=30.0, limits=httpx.Limits(max_connections=None,
                                                                             max_keepalive_connections=200))
        return self._http

    def _headers(self, scope) -> list[tuple[bytes, bytes]]:
        client = scope.get("client")
        secret = self.hub.cluster.secret if self.hub.cluster else ""
        return [(k, v) for k, v in scope["headers"] if k not in HOP] + [
            (RELAY_HEADER, (secret or "").encode()),
            (CLIENT_HEADER, (client[0] if client else "?").encode("latin-1"))]

    async def _relay_http(self, scope, receive, send, address: str) -> bool | str:
        """Send the request on to the owner at ``address`` and its answer back as it comes (an
        NDJSON stream too: the Bot API's event stream is served by the lobby home); False when
        the owner could not be reached (nothing was answered), :data:`REFUSED` when nothing
        listens at ``address``."""
        import httpx

        body = b"".join(m.get("body", b"") for m in await read_all(receive))
        url = f"http://{address}{target(scope)}"
        client = self._client()
        try:
            r = await client.send(client.build_request(scope["method"], url, headers=self._headers(scope),
                                                       content=body), stream=True)
        except httpx.ConnectError as e:
            return REFUSED if refused(e) else False
        except httpx.HTTPError as e:    # it may have acted: the client asks again, or not
            log.warning("relay: %s %s to %s failed: %s", scope["method"], scope["path"], address, e)
            await self._moved(scope, receive, send)
            return True
        headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in r.headers.multi_items()
                   if k.lower().encode() not in HOP or k.lower() == "content-length"]
        gone = asyncio.ensure_future(_disconnected(receive))
        try:
            await send({"type": "http.response.start", "status": r.status_code, "headers": headers})
            chunks = r.aiter_raw().__aiter__()
            while True:
                step = asyncio.ensure_future(chunks.__anext__())
                await asyncio.wait({step, gone}, return_when=asyncio.FIRST_COMPLETED)
                if not step.done():         # the client went away: so does the relayed request
                    step.cancel()
                    await asyncio.gather(step, return_exceptions=True)
                    return True
                try:
                    chunk = step.result()
                except StopAsyncIteration:
                    break
                except httpx.HTTPError:     # the owner died in the middle: the client sees it end
                    break
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b""})
        finally:
            gone.cancel()
            await r.aclose()
        return True

    # ----- WebSockets ---------------------------------------------------------------------------
    async def _relay_socket(self, scope, receive, send, table_id: str, owner: str,
                            address: str) -> bool | str:
        """Bridge the client's socket to the owner's at ``address`` until either ends; False
        when the owner could not be reached (the client's socket is not accepted yet),
        :data:`REFUSED` when nothing listens at ``address``."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, WebSocketException

        await receive()                 # the handshake's connect message
        url = f"ws://{address}{target(scope)}"
        headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in self._headers(scope)]
        try:
            # no keep-alive pings between workers: a loaded owner slow to answer one would
            # break the bridge; a dead owner is seen by the TCP connection or by the lease
            upstream = await connect(url, additional_headers=headers, max_size=1 << 24,
                                     open_timeout=10, compression=None, ping_interval=None)
        except (OSError, TimeoutError, WebSocketException) as e:
            return REFUSED if refused(e) else False
        await send({"type": "websocket.accept"})
        moved = asyncio.Event()
        handle = self.hub.cluster.watch(table_id, owner, moved.set)

        # while profiling: when the oldest client message not yet followed by one of the owner's
        # was received (``relay.reply``: from it to the owner's next message passed on)
        asked: list[float] = []
        timing = profiling.FOLDER is not None

        async def client_to_owner() -> None:
            while True:
                msg = await receive()
                if msg["type"] == "websocket.disconnect":
                    return
                if msg["type"] == "websocket.receive":
                    if timing and not asked:
                        asked.append(time.perf_counter())
                    text = msg.get("text")
                    await upstream.send(text if text is not None else msg.get("bytes") or b"")

        async def owner_to_client() -> None:
            with contextlib.suppress(ConnectionClosed):
                async for data in upstream:
                    await send({"type": "websocket.send", "text": data} if isinstance(data, str)
                               else {"type": "websocket.send", "bytes": data})
                    if asked:
                        profiling.note("relay.reply", time.perf_counter() - asked.pop())

        left = asyncio.ensure_future(client_to_owner())
        came = asyncio.ensure_future(owner_to_client())
        watching = asyncio.ensure_future(moved.wait())
        try:
            await asyncio.wait({left, came, watching}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self.hub.cluster.unwatch(handle)
            for t in (left, came, watching):
                t.cancel()
            await asyncio.gather(left, came, watching, return_exceptions=True)
        if left.done() and not left.cancelled() and left.exception() is None:
            await upstream.close()                 # the client went away
            return True
        # the client is told before the bridge to the owner is closed: an owner that lost the
        # table because it froze answers no closing handshake, and the close waited its whole
        # timeout (10 s) before the client was told to reconnect
        rcvd = upstream.protocol.close_rcvd
        with contextlib.suppress(Exception):
            if rcvd is not None and not moved.is_set():
                await send({"type": "websocket.close", "code": rcvd.code, "reason": rcvd.reason})
            else:                                  # the owner died or lost the table
                await self._close_moved(send)
        await upstream.close()
        return True

    @staticmethod
    async def _close_moved(send) -> None:
        with contextlib.suppress(Exception):
            await send({"type": "websocket.send", "text": json.dumps(
                ws_error("moved", "this table is now served by another server worker; reconnect"))})
            await send({"type": "websocket.close", "code": CLOSE_MOVED[0], "reason": CLOSE_MOVED[1]})

    async def _moved(self, scope, receive, send) -> None:
        if scope["type"] == "websocket":
            if (await receive())["type"] == "websocket.connect":
                await send({"type": "websocket.accept"})
                await self._close_moved(send)
            return
        await send({"type": "http.response.start", "status": 503,
                    "headers": [(b"content-type", b"application/json"), (b"retry-after", b"1"),
                                (b"content-length", str(len(MOVED_BODY)).encode())]})
        await send({"type": "http.response.body", "body": MOVED_BODY})

    async def close(self) -> None:  # pragma: no cover - the process ends with it
        if self._http is not None:
            await self._http.aclose()


TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")


def entrant_table(s: Any, event_id: str, entrant: str) -> str | None:
    """The live table of the event ``event_id`` where ``entrant`` is seated, if any."""
    from sqlalchemy import select

    from .models import TableRow

    rows = s.execute(select(TableRow.id, TableRow.seats).where(
        TableRow.event_id == event_id, TableRow.status == "playing"))
    return next((tid for tid, seats in rows
                 if any(x and x.get("name") == entrant for x in seats or ())), None)


def dispute_table(s: Any, event_id: str, dispute: int) -> str | None:
    """The table of the dispute ``dispute`` of the event ``event_id``, if its game is in play."""
    from sqlalchemy import select

    from qipai.competition.acts import RefereeActRow

    from .models import TableRow

    return s.scalar(select(TableRow.id).join(RefereeActRow, RefereeActRow.table_id == TableRow.id).where(
        RefereeActRow.id == dispute, RefereeActRow.event_id == event_id, RefereeActRow.act == "dispute",
        TableRow.status == "playing"))
#: what the relaying methods answer when the owner's internal port refused the connection
REFUSED = "refused"


def refused(e: BaseException) -> bool:
    """True when ``e`` (or what caused it) is a refused connection: nothing listens there (a
    frozen or busy process still accepts connections; only a process gone refuses them)."""
    seen: set[int] = set()
    x: BaseException | None = e
    while x is not None and id(x) not in seen:
        if isinstance(x, ConnectionRefusedError):
            return True
        seen.add(id(x))
        x = x.__cause__ or x.__context__
    return False


async def _disconnected(receive) -> None:
    """Returns once the client of an HTTP request has gone away."""
    while (await receive())["type"] != "http.disconnect":
        pass
