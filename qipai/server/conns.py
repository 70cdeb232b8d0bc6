"""WebSocket connections of live tables: the outgoing queue, how the server closes a socket,
and the sockets of each session.

A :class:`Conn` is one client socket. Its texts are queued and sent by its writer task, each
only once what caused it is committed (the table's :class:`~.store.Gate`). The server ends a
connection with :meth:`Conn.close` and one of the close codes below; the client reconnects
(and gets the current state) only after 4429.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import itertools
import json
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from . import profiling
from .errors import ws_error
from .store import Gate

log = logging.getLogger("qipai.server")
#: lease times a socket's cluster entry counts without being renewed (its worker died)
SOCKET_KEEP_LEASES = 5

#: a connection whose send queue holds this many messages is too slow and is closed
MAX_QUEUE = 256

#: WebSocket close codes and reasons the server uses
CLOSE_SIGNED_OUT = (4401, "signed_out")      # the session the socket was opened with ended
CLOSE_ROUND_PLAYER = (4403, "round_player")  # a player of an event round may not watch its tables
CLOSE_ROUND_IN_PLAY = (4403, "round_in_play")  # a finished game of a round still on, as its record
CLOSE_SIGN_IN_TO_WATCH = (4401, "sign_in_to_watch")  # an event round's tables: signed-in spectators only
CLOSE_NO_TABLE = (4404, "no_table")
CLOSE_REPLACED = (4409, "replaced")          # a newer connection took this seat (§6.4)
CLOSE_TABLE_CLOSED = (4410, "table_closed")  # the table was aborted (inactive)
CLOSE_NO_FIRST_MOVE = (4410, "no_first_move")  # aborted: a player's first move never came
CLOSE_ABORTED = (4410, "aborted")            # a player aborted the game before both sides moved
CLOSE_FLOODING = (4429, "flooding")          # kept sending after being rate-limited
CLOSE_TOO_SLOW = (4429, "too_slow")          # did not read its messages: the queue overflowed
CLOSE_TOO_MANY_SOCKETS = (4408, "too_many_sockets")  # watching more tables than the limit allows
CLOSE_MOVED = (1012, "moved")                # another worker serves the table now: reconnect

SIGNED_OUT = ws_error("signed_out", "you signed out; this connection is closed")
REPLACED = ws_error("replaced", "this seat was opened by a newer connection; this one is closed")
ROUND_PLAYER = ws_error("round_player", "players of this event round may not watch its other "
                                        "tables while their own match is being played")
SIGN_IN_TO_WATCH = ws_error("sign_in_to_watch", "sign in to watch the tables of an event round in "
                                                "progress (its players may not watch them)")
MOVED = ws_error("moved", "this table is now served by another server worker; reconnect")
FLOODING = ws_error("flooding", "too many messages after being rate-limited; reconnect later")

_opened = itertools.count()


def encode(msg: dict[str, Any]) -> str:
    """A message as the compact JSON text that goes on the wire (encode a message sent to
    several connections once, and :meth:`Conn.put` the text to each)."""
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


_text = encode


class Conn:
    """One WebSocket client: a queue of outgoing texts drained by its writer task.

    Each text is tagged with its table's ``gate.logged`` when queued and is sent only once
    ``gate.durable`` has reached the tag (nothing leaves before what caused it is saved);
    :meth:`put_now` texts (storage notices) go ahead of the queue. ``session`` is the SHA-256
    of the session token the socket was opened with; ``close_ws(code, reason)`` closes the
    socket itself; ``opened`` orders connections (the newest keeps a seat)."""

    def __init__(self, send_text: Callable[[str], Any], user_id: int | None,
                 gate: Gate | None = None, close_ws: Callable[[int, str], Awaitable[Any]] | None = None,
                 session: str | None = None) -> None:
        self.send_text = send_text
        self.close_ws = close_ws
        self.user_id = user_id
        self.session = session
        self.gate = gate or Gate()
        self.queue: deque[tuple[int, str]] = deque()
        self.urgent: deque[str] = deque()
        self.wake = asyncio.Event()
        self.gate.watchers.add(self.wake)
        self.closed = False                # nothing more is queued or listened to
        self.close_code: int | None = None  # set when the server ends the connection
        self.close_reason = ""
        self.notice: str | None = None     # sent just before the close frame
        self.task: asyncio.Task[None] | None = None
        self.opened = next(_opened)
        self.name: str | None = None       # the account's username (None: not signed in)
        self.referee = False               # the account may referee (organizer role): chat, §5.8
        self.chat_mute: dict[str, str] | None = None   # its chat's mute when it opened (chat.py)
        self.presence = False              # told who is at the table (it asked: ``presence``)
        #: while profiling (:mod:`.profiling`): (tag, when received) of the client's move not
        #: answered yet, until the first text queued after its write is sent (``ws.ack``)
        self.acks: deque[tuple[int, float]] | None = deque() if profiling.FOLDER is not None else None

    def start(self) -> None:
        """Start the writer task (in the running event loop)."""
        self.task = asyncio.get_running_loop().create_task(self.writer())

    def put(self, text: str) -> None:
        if self.closed:
            return
        if len(self.queue) >= MAX_QUEUE:
            # the client does not read: what is queued is stale; it reconnects for the state
            self.close(*CLOSE_TOO_SLOW, drop=True)
            return
        self.queue.append((self.gate.logged, text))
        self.wake.set()

    def put_json(self, msg: dict[str, Any]) -> None:
        self.put(_text(msg))

    def put_now(self, msg: dict[str, Any]) -> None:
        if self.closed:
            return
        if len(self.urgent) >= MAX_QUEUE:
            self.close(*CLOSE_TOO_SLOW, drop=True)
            return
        self.urgent.append(_text(msg))
        self.wake.set()

    def close(self, code: int | None = None, reason: str = "", notice: dict[str, Any] | None = None,
              drop: bool = False) -> None:
        """Without ``code``: the client went away; the writer stops (nothing more is sent).
        With ``code``: the server ends the connection; what is queued is still sent (unless
        ``drop``), then ``notice`` (an error message), then the close frame with ``code`` and
        ``reason``. ``drop`` also interrupts a send the client is not reading (the notice then
        gets one second). Nothing is queued or listened to afterwards; a second close is a no-op."""
        if self.closed:
            return
        self.closed = True
        self.close_code, self.close_reason = code, reason
        self.notice = None if notice is None else _text(notice)
        if drop and self.task is not None and not self.task.done():
            self.queue.clear()
            self.urgent.clear()
            self.task.cancel()
            self.task = asyncio.get_running_loop().create_task(self._finish())
            return
        self.wake.set()

    async def wait(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) for the writer to finish."""
        if self.task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self.task), timeout)

    async def writer(self) -> None:
        try:
            while not (self.closed and self.close_code is None):
                if self.urgent:
                    await self.send_text(self.urgent.popleft())
                elif self.queue and self.queue[0][0] <= self.gate.durable:
                    tag, text = self.queue.popleft()
                    await self.send_text(text)
                    if self.acks:
                        self._acked(tag)
                elif self.closed and not self.queue:      # closed by the server: all sent
                    await self._finish()
                    return
                else:
                    self.wake.clear()
                    await self.wake.wait()
        finally:
            if self.closed:
                self.gate.watchers.discard(self.wake)

    def mark(self, t0: float) -> None:
        """While profiling: a move (or another act of the game) received at ``t0``
        (``time.perf_counter``); the runner applies it when its turn comes, so the first text
        queued after the table's next write that reaches the client is its answer (``ws.ack``:
        the server's share of the client's round trip, the commit included). One at a time,
        the oldest kept (as a client waits for the answer to its move)."""
        if self.acks is not None and not self.acks:
            self.acks.append((self.gate.logged + 1, t0))

    def _acked(self, tag: int) -> None:
        assert self.acks is not None
        now = time.perf_counter()
        while self.acks and self.acks[0][0] <= tag:
            profiling.note("ws.ack", now - self.acks.popleft()[1])

    async def _finish(self) -> None:
        """The notice (one second at most), then the close frame."""
        self.gate.watchers.discard(self.wake)
        if self.notice is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.send_text(self.notice), 1.0)
        if self.close_ws is not None and self.close_code is not None:
            with contextlib.suppress(Exception):
                await self.close_ws(self.close_code, self.close_reason)


class Sessions:
    """Open sockets by the session (token SHA-256) they were opened with."""

    def __init__(self) -> None:
        self._by: dict[str, set[Conn]] = {}

    def add(self, conn: Conn) -> None:
        if conn.session is not None:
            self._by.setdefault(conn.session, set()).add(conn)

    def remove(self, conn: Conn) -> None:
        conns = self._by.get(conn.session or "")
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self._by[conn.session]

    def end(self, session: str) -> int:
        """Signing out: close every socket of ``session`` (4401 ``signed_out``); how many."""
        conns = self._by.pop(session, set())
        for c in conns:
            c.close(*CLOSE_SIGNED_OUT, notice=SIGNED_OUT)
        return len(conns)


class OpenSockets:
    """The open table sockets, counted per account and per client address, so that nobody
    holds the server's connections by opening sockets to watch without end
    (``Limits.ws_open_account`` and ``ws_open_ip``). Every socket counts; only one that would
    watch is refused at the limit (a seat's socket is always let in, one per seat). With
    several workers (``cluster``) the counts are the cluster's (:class:`.quota.SocketQuota` in
    Redis: each socket an entry the worker serving it renews once a lease time and removes when
    it closes; the entries of a worker that died count for :data:`SOCKET_KEEP_LEASES` lease
    times more); while Redis cannot be reached each worker counts its own sockets only."""

    def __init__(self, per_account: int, per_ip: int, cluster: Any = None) -> None:
        self.per_account, self.per_ip = per_account, per_ip
        self.count: dict[str, int] = {}
        self.shared: Any = None
        self._entries: dict[str, list[str]] = {}       # cluster entry -> its keys
        self._made = 0
        if cluster is not None:
            from .quota import SocketQuota

            self.shared = SocketQuota(cluster.redis, cluster.name, SOCKET_KEEP_LEASES * cluster.lease_ms,
                                      every_ms=cluster.lease_ms)
            self.worker = cluster.worker_id
            cluster.on_beat.append(self.renew)

    def keys(self, user_id: int | None, ip: str) -> list[str]:
        return ["ip:" + ip] + ([f"user:{user_id}"] if user_id is not None else [])

    def _limit(self, key: str) -> int:
        return self.per_ip if key.startswith("ip:") else self.per_account

    def _refusal(self, key: str) -> dict[str, Any]:
        if key.startswith("ip:"):
            return ws_error("too_many_sockets", "too many open connections from your address; "
                            "close some tables", max=self.per_ip)
        return ws_error("too_many_sockets", "too many open connections of your account; "
                        "close some tables", max=self.per_account)

    def full(self, user_id: int | None, ip: str) -> dict[str, Any] | None:
        """The refusal for one more socket to watch from this account or address, counted on
        this worker (``None``: room)."""
        for k in self.keys(user_id, ip):
            if self.count.get(k, 0) >= self._limit(k):
                return self._refusal(k)
        return None

    async def enter(self, user_id: int | None, ip: str,
                    watch: bool) -> tuple[dict[str, Any] | None, str | None]:
        """Count one more socket: ``(refusal, None)`` for a socket to ``watch`` past a limit
        (counted nowhere), else ``(None, entry)`` — ``entry`` (None without a cluster) goes back
        to :meth:`leave` when the socket closes."""
        if watch and (full := self.full(user_id, ip)) is not None:
            return full, None
        entry = None
        if self.shared is not None:
            from redis.exceptions import RedisError

            self._made += 1
            entry, done = f"{self.worker}:{self._made}", []
            try:
                for k in self.keys(user_id, ip):
                    limit = self._limit(k) if watch else 2**31
                    if await self.shared.reserve(k, entry, limit) is not None:
                        for d in done:
                            await self.shared.release(d, entry)
                        return self._refusal(k), None
                    done.append(k)
                self._entries[entry] = done
            except RedisError as e:
                log.warning("table socket not counted for the cluster: %s", e)
                entry = None
        self.add(user_id, ip)
        return None, entry

    def leave(self, user_id: int | None, ip: str, entry: str | None) -> None:
        """A socket counted by :meth:`enter` closed."""
        self.remove(user_id, ip)
        keys = self._entries.pop(entry, None) if entry is not None else None
        if keys:
            asyncio.get_running_loop().create_task(self._release(keys, entry))

    async def _release(self, keys: list[str], entry: Any) -> None:
        try:
            for k in keys:
                await self.shared.release(k, entry)
        except Exception as e:              # the next heartbeat's renewal drops it
            log.warning("closed table socket not uncounted yet: %s", e)

    async def renew(self) -> None:
        """Renew the cluster entries of the sockets open here (a heartbeat of the worker)."""
        if self.shared is not None:
            await self.shared.renew({(k, e) for e, keys in self._entries.items() for k in keys})

    def add(self, user_id: int | None, ip: str) -> None:
        for k in self.keys(user_id, ip):
            self.count[k] = self.count.get(k, 0) + 1

    def remove(self, user_id: int | None, ip: str) -> None:
        for k in self.keys(user_id, ip):
            n = self.count.get(k, 0) - 1
            if n > 0:
                self.count[k] = n
            else:
                self.count.pop(k, None)


def client_ip(conn: Any) -> str:
    """The address a request or socket comes from (its peer; see docs/server.md on proxies)."""
    return conn.client.host if conn.client else "?"


def address_key(ip: str) -> str:
    """The key a per-address limit counts ``ip`` (:func:`client_ip`) under: an IPv4 address
    itself, an IPv6 one's /64 network (what one subscriber or host is given: 2**64 addresses,
    each of which would otherwise have a sign-up limit of its own), an IPv4-mapped IPv6
    address as its IPv4 one."""
    try:
        a = ipaddress.ip_address(ip)
    except ValueError:
        return ip
    if a.version == 6:
        if a.ipv4_mapped is not None:
            return str(a.ipv4_mapped)
        return str(ipaddress.ip_network(f"{a}/64", strict=False))
    return ip


def client_key(conn: Any) -> str:
    """The key every per-address limit counts a request or socket under (:func:`address_key`
    of :func:`client_ip`): sign-ups, sign-ins, table codes, replays, score estimates, other
    requests (``api_ip``), a signed-out socket's messages and the sockets open per address."""
    return address_key(client_ip(conn))
