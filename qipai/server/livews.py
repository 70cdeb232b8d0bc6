"""The WebSocket of a live table (``/ws/tables/{id}``): who may connect and as what (a seat,
a spectator, refused), message limits and rate limits, and the safety net that answers a
failing message without dropping the socket. What each message does is :mod:`.tableinput`;
what the table sends is :mod:`.tablemsg`."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from . import auth, conduct, profiling, tableinput
from .chat import chat_standing, muted_refusal, muted_until
from .conns import (
    CLOSE_FLOODING,
    CLOSE_NO_TABLE,
    CLOSE_ROUND_IN_PLAY,
    CLOSE_ROUND_PLAYER,
    CLOSE_SIGN_IN_TO_WATCH,
    CLOSE_SIGNED_OUT,
    CLOSE_TOO_MANY_SOCKETS,
    FLOODING,
    ROUND_PLAYER,
    SIGN_IN_TO_WATCH,
    SIGNED_OUT,
    Conn,
    OpenSockets,
    client_key,
)
from .errors import ApiError, Unreadable, loads, ws_error
from .hub import Hub
from .ratelimit import RateLimit, retry_after
from .records import table_hidden

log = logging.getLogger("qipai.server")


def add_table_socket(app: FastAPI, hub: Hub, user_of: Any, sessions: Any, limits: Any) -> None:
    """Add ``/ws/tables/{table_id}`` to ``app``. ``sessions``: the session cache, which knows
    the sessions signed out; ``limits``: the server's rate limiters."""
    settings = hub.settings
    open_sockets = OpenSockets(settings.limits.ws_open_account, settings.limits.ws_open_ip, hub.cluster)

    @app.websocket("/ws/tables/{table_id}")
    async def ws_table(ws: WebSocket, table_id: str) -> None:
        """Live play. Server → client: ``hello``, ``state`` (from ``view(seat)``), ``event``,
        ``error``, ``ignored``, ``pong``. Client → server: ``move`` (``seq``, ``action``),
        ``resign``, ``draw_offer``, ``draw_accept``, ``draw_decline``, ``resume`` (leave
        trusteeship), ``sync``, ``position`` (``ply``: answered by a ``position`` message with
        that position's view, for the move list), ``ping``. The server closes a socket with a
        code and reason of :mod:`.conns` (4401 signed_out or sign_in_to_watch, 4403 round_player
        or round_in_play,
        4404 no_table, 4408 too_many_sockets, 4409 replaced, 4410 table_closed, 4429 flooding or too_slow)."""
        user = await user_of(ws)
        await ws.accept()
        table = hub.tables.get(table_id) or hub.finished.get(table_id)
        if table is not None and await table_hidden(hub.store, table, user.id if user else None):
            table = None            # a finished game hidden from this viewer, as its record is
        if table is None:
            await ws.send_json(ws_error("no_table", f"no live table {table_id!r}"))
            await ws.close(*CLOSE_NO_TABLE)
            return
        seat = table.seat_of(user.id) if user else None
        if user is None and conduct.event_round(table) is not None and table.status in ("open", "playing"):
            # §6.5: a player of the round could otherwise watch signed out
            await ws.send_json(SIGN_IN_TO_WATCH)
            await ws.close(*CLOSE_SIGN_IN_TO_WATCH)
            return
        if user and seat is None and await conduct.round_player(hub, app.state.events, user, table):
            await ws.send_json(ROUND_PLAYER)
            await ws.close(*CLOSE_ROUND_PLAYER)
            return
        if seat is None and table.status not in ("open", "playing"):
            # a finished game of a round still on is held as its record is (§6.5: a duplicate
            # round deals the same cards at the round's other tables), signed in or not
            try:
                await conduct.hold_round_game(hub, app.state.events, table.event_id,
                                              conduct.event_round(table), user, False)
            except ApiError as held:
                await ws.send_json(ws_error(held.code, held.message, **held.extra))
                await ws.close(*CLOSE_ROUND_IN_PLAY)
                return
        # chat: §5.8; a mute in force: the chat is shown closed from the start, with its end
        # and reason
        referee, mute = await chat_standing(hub, table.event_id, user)
        token = ws.cookies.get(auth.COOKIE) if user else None
        if token and sessions.ended(token):      # signed out while this socket was opening
            await ws.send_json(SIGNED_OUT)
            await ws.close(*CLOSE_SIGNED_OUT)
            return
        ip = client_key(ws)             # an IPv6 client's /64: one address for the limits
        uid = user.id if user else None
        full, entry = await open_sockets.enter(uid, ip, watch=seat is None)
        if full is not None:
            await ws.send_json(full)
            await ws.close(*CLOSE_TOO_MANY_SOCKETS)
            return
        try:
            await serve(ws, table, user, seat, referee, token, ip, mute)
        finally:
            open_sockets.leave(uid, ip, entry)

    async def serve(ws: WebSocket, table: Any, user: Any, seat: int | None, referee: bool,
                    token: str | None, ip: str, mute: dict[str, str] | None = None) -> None:
        """The socket's life once let in: its messages until it closes."""
        table_id = table.id
        # nothing below waits until the socket is registered and attached: a sign-out from
        # now on finds it
        conn = Conn(ws.send_text, user.id if user else None, table.gate, close_ws=ws.close,
                    session=auth.token_hash(token) if token else None)
        if user:
            conn.name, conn.referee, conn.chat_mute = user.username, referee, mute
        conn.start()
        hub.sessions.add(conn)
        table.attach(conn, seat)
        max_bytes = settings.limits.ws_message_bytes
        # rate-limited messages: ws_flood at once, then ws_flood / 10 per second (a client that
        # goes on sending faster than its limit allows is closed, however it paces itself)
        flood = RateLimit(settings.limits.ws_flood / 10, settings.limits.ws_flood)
        # counted per account when signed in, per address only when not: at a venue many
        # players share one address (a NAT), and one player's client, misbehaving or not, must
        # never spend another player's budget (nor the sockets it opens: OpenSockets)
        hits = [("moves_account", str(user.id))] if user else [("moves_ip", ip)]
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if conn.closed:      # closed by the server: the close handshake is under way
                    continue
                if len(conn.queue) > 16:
                    # a burst read at once: let the writer send before answering more, so only a
                    # client that does not read overflows its queue
                    await asyncio.sleep(0)
                text = message.get("text")
                if text is None:
                    data = message.get("bytes") or b""
                    text = data.decode("utf-8", "replace")
                # refusals of the message itself go ahead of the queue: they tell nothing of the
                # game, so they need not wait for its writes (storage may be down)
                if len(text) > max_bytes // 4 and len(text.encode("utf-8", "replace")) > max_bytes:
                    conn.put_now(ws_error("too_large", f"messages are at most {max_bytes} bytes",
                                                  max=max_bytes))
                    continue
                t0 = time.perf_counter()
                # counted at once (in a cluster, Redis's shared count is asked meanwhile and
                # holds the next messages back if it refuses, or is waited for past half the
                # burst: Limiters.hit_each_now)
                wait = await limits.hit_each_now(hits)
                profiling.note("ws.ratelimit", time.perf_counter() - t0)
                if wait:
                    if flood.hit(""):
                        conn.close(*CLOSE_FLOODING, notice=FLOODING, drop=True)
                    else:
                        conn.put_now(ws_error("rate_limited", "too many messages; slow down",
                                               retry_after=retry_after(wait)))
                    continue
                try:
                    msg = loads(text)
                except json.JSONDecodeError as e:
                    conn.put_now(ws_error("bad_json", f"not valid JSON: {e.msg}"))
                    continue
                except Unreadable as e:
                    conn.put_now(ws_error("bad_json", f"not valid JSON: {e}"))
                    continue
                except RecursionError:
                    conn.put_now(ws_error("bad_json", "JSON nested too deeply"))
                    continue
                if not isinstance(msg, dict):
                    conn.put_now(ws_error("bad_message", "a message is a JSON object with a 'type'"))
                    continue
                seat = table.seat_of(user.id) if user else None
                if msg.get("type") == "chat" and user and \
                        (wait := await limits.hit_shared("chat_account", str(user.id))):
                    conn.put_now(ws_error("rate_limited", "too many chat lines; wait a moment",
                                          retry_after=retry_after(wait)))
                    continue
                if msg.get("type") == "chat" and user and \
                        (mute := await muted_until(hub, user.id, table.event_id)):
                    conn.chat_mute = mute                           # shown closed from now on
                    conn.put_now(muted_refusal(mute).ws())        # a moderator's mute
                    continue
                chat_line = msg.get("type") == "chat" and user is not None
                if chat_line:       # a cluster: the lines written through every worker
                    await hub.chat_repeats.fetch(user.id)
                try:
                    with profiling.timed("ws.handle"):
                        tableinput.handle(table, conn, seat, msg)
                    kind = msg.get("type")          # any JSON value: only a text names a kind
                    if seat is not None and isinstance(kind, str) and kind not in tableinput.NO_WRITE:
                        conn.mark(t0)
                except Exception:       # the safety net: a fault answers, the socket stays
                    log.exception("table %s: a message failed", table_id)
                    conn.put_json(ws_error("internal", "the server failed to handle this "
                                           "message; the fault is logged"))
                if chat_line:       # a line taken counts at every worker before the next
                    await hub.chat_repeats.flush()
        except WebSocketDisconnect:
            pass
        finally:
            table.detach(conn)
            hub.sessions.remove(conn)
            conn.close()
            await conn.wait(1.0)
