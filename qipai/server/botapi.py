"""The Bot API (docs/server.md, "Bot API"), in the style of lichess's: HTTP with
``Authorization: Bearer <token>`` (:mod:`.tokens`), NDJSON streams and small POST requests.

* ``GET /api/bot/stream/event`` — the account's events, one JSON object a line: ``gameStart``
  and ``gameFinish`` for its games, ``challenge``, ``challengeDeclined``, ``challengeCanceled``
  (:mod:`.challenges`); an empty line every :data:`KEEP_ALIVE` seconds.
* ``GET /api/bot/game/stream/{table}`` — one game as its seat sees it: exactly the messages a
  WebSocket of that seat gets (``hello``, the full ``state``, then every ``state``, ``event``,
  ``commitment``, refusal, ...), each built from ``state.view(seat)``; it ends after the
  finished table's last state.
* ``POST /api/bot/game/{table}/move/{action}`` (``?turn=N`` or ``?seq=N``:
  one is required while the seat is to act; ``?ahead=true``: a declaration sent ahead during
  a deal that holds prompts, as a page's),
  ``/resign``, ``/draw/{offer|accept|decline|yes|no}``,
  ``/takeback/{offer|accept|decline|yes|no}``, ``/nonce/{hex}`` — the seat's inputs,
  through the same path as a WebSocket's (:mod:`.tableinput`), so the match runner referees them
  and the action log keeps them; the answer comes once the runner has judged the input and its
  log row is committed: ``{"ok": true, ...}`` or the refusal, as HTTP errors with the
  WebSocket's codes (``illegal`` with ``refusal``, ``not_your_turn``, ...).

Every request is limited per account, whichever of its tokens it carries (``Limits.bot_token``);
open streams per account too (:data:`MAX_STREAMS`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import StreamingResponse

from . import eventstart, tableinput, tablemsg
from .conns import Conn
from .errors import ApiError
from .hub import Hub
from .quota import StreamQuota
from .ratelimit import RateLimit, retry_after
from .tables import LiveTable
from .tokens import PLAY_SCOPES, REFUSALS, TokenCache, TokenUser, bearer, lookup, token_hash

log = logging.getLogger("qipai.server")

KEEP_ALIVE = 7.0          # seconds between keep-alive newlines of an idle stream
MAX_STREAMS = 8           # open streams per account
STREAM_KEEP_LEASES = 5    # lease times a stream's cluster entry counts without being renewed
ANSWER_WAIT = 30.0        # seconds a request waits for the runner to judge its input

#: HTTP status of a refusal that the table answers with a WebSocket error code
STATUS = {"illegal": 400, "bad_message": 400, "bad_nonce": 400, "not_seated": 403,
          "not_your_seat": 403, "not_playing": 409, "not_your_turn": 409, "stale_turn": 409,
          "paused": 409, "nonce_closed": 409, "nonce_repeated": 409, "no_draw_offer": 409,
          "draw_offer_open": 409, "draw_offer_cooldown": 409, "draw_too_early": 409,
          "draw_not_allowed": 409, "takeback_not_allowed": 409, "takeback_event": 409,
          "takeback_hidden": 409, "takeback_nothing": 409, "takeback_open": 409,
          "takeback_declined": 409, "no_takeback": 409, "ahead_refused": 400,
          "no_deal_prompts": 409,
          "rate_limited": 429, "storage_unavailable": 503}


class Streams:
    """Open NDJSON streams: at most :data:`MAX_STREAMS` per account, whatever token each uses
    (tokens cost nothing to make, so a limit per token would be none), and by token hash, so
    revoking a token ends its streams. With several workers (``cluster``) the limit counts the
    account's streams on every worker (:class:`.quota.StreamQuota` in Redis: each stream an
    entry that the worker serving it renews once a lease time and removes when it ends; the
    entries of a worker that died count for :data:`STREAM_KEEP_LEASES` to one more lease times
    more). While
    Redis cannot be reached each worker counts its own streams only."""

    def __init__(self, cluster: Any = None) -> None:
        self._by: dict[str, set[asyncio.Queue[str | None]]] = {}     # token hash -> queues
        self._of: dict[asyncio.Queue[str | None], tuple[str, int]] = {}  # queue -> (hash, account)
        self._count: dict[int, int] = {}                                # account -> open streams
        self._ids: dict[asyncio.Queue[str | None], str] = {}            # queue -> its entry (cluster)
        self._made = 0
        self.shared: StreamQuota | None = None
        if cluster is not None:
            self.shared = StreamQuota(cluster.redis, cluster.name, STREAM_KEEP_LEASES * cluster.lease_ms,
                                      every_ms=cluster.lease_ms)
            self.worker = cluster.worker_id
            cluster.on_beat.append(self.renew)

    @staticmethod
    def _refuse(held: int) -> ApiError:
        return ApiError(429, "too_many_streams", f"an account may hold {MAX_STREAMS} streams open",
                        max=MAX_STREAMS, open=held, retry_after=KEEP_ALIVE)

    async def open(self, h: str, account: int) -> asyncio.Queue[str | None]:
        """A new stream's queue for token hash ``h`` of account id ``account``. Raises 429
        ``too_many_streams`` (``open``: the streams counted) when the account holds
        :data:`MAX_STREAMS` already, on this worker or (with several) on all of them."""
        if self._count.get(account, 0) >= MAX_STREAMS:
            raise self._refuse(self._count[account])
        entry = None
        if self.shared is not None:
            from redis.exceptions import RedisError

            self._made += 1
            entry = f"{self.worker}:{self._made}"
            try:
                held = await self.shared.reserve(account, entry, MAX_STREAMS)
            except RedisError as e:
                log.warning("bot api: stream not counted for the cluster: %s", e)
                held, entry = None, None
            if held is not None:
                raise self._refuse(held)
        q: asyncio.Queue[str | None] = asyncio.Queue()
        self._by.setdefault(h, set()).add(q)
        self._of[q] = (h, account)
        self._count[account] = self._count.get(account, 0) + 1
        if entry is not None:
            self._ids[q] = entry
        return q

    def close(self, q: asyncio.Queue[str | None]) -> None:
        """Forget a stream that ended (once; a second call does nothing)."""
        got = self._of.pop(q, None)
        if got is None:
            return
        h, account = got
        qs = self._by.get(h)
        if qs is not None:
            qs.discard(q)
            if not qs:
                del self._by[h]
        self._count[account] -= 1
        if not self._count[account]:
            del self._count[account]
        entry = self._ids.pop(q, None)
        if entry is not None and self.shared is not None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:            # no loop (a stream dropped at shutdown): the next
                return                      # renewal, if any, removes it, else it expires
            loop.create_task(self._release(account, entry))

    async def _release(self, account: int, entry: str) -> None:
        try:
            await self.shared.release(account, entry)          # type: ignore[union-attr]
        except Exception as e:              # the next heartbeat's renewal drops it
            log.warning("bot api: ended stream not uncounted yet: %s", e)

    async def renew(self) -> None:
        """Renew the cluster entries of the streams open here (a heartbeat of the worker)."""
        if self.shared is not None:
            await self.shared.renew({(self._of[q][1], e) for q, e in self._ids.items()})

    def revoke(self, h: str) -> None:
        """End every stream of token hash ``h`` with a ``token_revoked`` line."""
        for q in list(self._by.get(h, ())):
            q.put_nowait(json.dumps({"type": "error", "error": "token_revoked",
                                     "message": REFUSALS["token_revoked"]}))
            q.put_nowait(None)


async def ndjson(q: asyncio.Queue[str | None], done: Callable[[], Any] | None = None) -> AsyncIterator[bytes]:
    """The lines of ``q`` (a text each; None ends the stream), an empty line when nothing came
    for :data:`KEEP_ALIVE` seconds. ``done`` runs when the stream ends or the client leaves."""
    try:
        while True:
            try:
                text = await asyncio.wait_for(q.get(), KEEP_ALIVE)
            except TimeoutError:
                yield b"\n"
                continue
            if text is None:
                return
            yield text.encode() + b"\n"
    finally:
        if done is not None:
            done()


def stream_response(lines: AsyncIterator[bytes]) -> StreamingResponse:
    return StreamingResponse(lines, media_type="application/x-ndjson",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


class BotAuth:
    """Who a Bot API request acts for, from its bearer token (cached, :class:`TokenCache`)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.cache = TokenCache()
        lim = hub.settings.limits
        self.limit = RateLimit(*lim.bot_token)

    async def __call__(self, request: Request, *scopes: str) -> TokenUser:
        """The token's account; raises 401 ``no_token`` / ``bad_token`` / ``token_revoked``,
        403 ``missing_scope`` (none of ``scopes``, default the play scopes), 429 ``rate_limited``."""
        secret = bearer(request)
        if not secret:
            raise ApiError(401, "no_token", REFUSALS["no_token"])
        h = token_hash(secret)
        found = self.cache.get(h)
        if found is None:
            found = await self.hub.store.call(lambda s: lookup(s, h), write=False)
            self.cache.put(h, found)
        if isinstance(found, str):
            raise ApiError(401, found, REFUSALS[found])
        found.need(*(scopes or PLAY_SCOPES))
        # per account (more tokens are no more), and in a cluster for every worker alike
        key, limits = str(found.user_id), self.hub.limits
        wait = await limits.hit("bot_token", key) if limits else self.limit.hit(key)
        if wait:
            raise ApiError(429, "rate_limited", "too many requests for this account; slow down",
                           retry_after=retry_after(wait))
        return found


class _Capture:
    """Stands in for a socket when a request's input goes through :func:`tableinput.handle`:
    the table's immediate answers (refusals of the message itself) are kept here."""

    closed = False

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        self.replies: list[dict[str, Any]] = []

    def put_json(self, msg: dict[str, Any]) -> None:
        self.replies.append(msg)

    put_now = put_json

    def put(self, text: str) -> None:
        self.replies.append(json.loads(text))


def refusal(msg: dict[str, Any]) -> ApiError:
    """The HTTP error of a table's refusal message (its code, parameters and English text)."""
    if msg.get("type") == "ignored":
        return ApiError(409, "stale_move", "this move answers an earlier state (a duplicate or "
                        "stale move); nothing changed", seq=msg.get("seq"), current=msg.get("current"))
    code = msg.get("error", "illegal")
    extra = dict(msg.get("params") or {})
    for k in ("refusal", "seq"):
        if k in msg:
            extra[k] = msg[k]
    return ApiError(STATUS.get(code, 400), code, msg.get("message", code), **extra)


async def submit(table: LiveTable, seat: int, user_id: int, msg: dict[str, Any]) -> dict[str, Any]:
    """Hand ``msg`` (a WebSocket client message) to ``table`` for ``seat`` and wait until the
    runner has judged it: raises the refusal as :class:`ApiError`, else returns once the input's
    log row is committed (``{"ok": true, "seq": n}``). An input the runner has not judged after
    :data:`ANSWER_WAIT` seconds (a paused game queues nothing; this is a stuck server) is 504
    ``no_answer``."""
    r = table.runner
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[dict[str, Any] | None] = loop.create_future()
    before = (len(r.state.log), r.turn_of(seat), r._offer, r._takeback, r.state.is_terminal()) if r else None

    def listen(to: int | None, m: dict[str, Any] | None) -> None:
        if answer.done() or table.runner is None:
            return
        if to == seat and m is not None and m.get("type") == "error":
            answer.set_result(m)
        elif to == seat and m is not None and _kept(m, msg):
            answer.set_result(m)          # a declaration sent ahead, kept for a later prompt
        elif to is None:
            rr = table.runner
            now = (len(rr.state.log), rr.turn_of(seat), rr._offer, rr._takeback, rr.state.is_terminal())
            if now != before:
                answer.set_result(None)

    capture = _Capture(user_id)
    table.listeners.add(listen)
    try:
        tableinput.handle(table, capture, seat, msg)      # type: ignore[arg-type]
        if capture.replies:
            reply = capture.replies[0]
            if reply.get("type") in ("error", "ignored"):
                raise refusal(reply)
            if msg["type"] == "nonce":
                await table.hub.store.saved(table.gate)
                return {"ok": True, **{k: v for k, v in reply.items() if k != "type"}}
        try:
            got = await asyncio.wait_for(answer, ANSWER_WAIT)
        except TimeoutError:
            raise ApiError(504, "no_answer", "the table did not judge this input in time") from None
    finally:
        table.listeners.discard(listen)
    if got is not None and got.get("type") == "error":
        raise refusal(got)
    await table.hub.store.saved(table.gate)
    rr = table.runner
    out = {"ok": True, "seq": tablemsg.shown_seq(table) if rr else None}
    if msg.get("ahead") is True:
        out["ahead"] = "kept" if got is not None else "answered"
    return out


def _kept(m: dict[str, Any], msg: dict[str, Any]) -> bool:
    """Whether ``m`` (a message to the seat) tells that ``msg``, a move sent ahead, was kept."""
    e = m.get("event") if m.get("type") == "event" else None
    return (msg.get("ahead") is True and isinstance(e, dict) and e.get("type") == "ahead"
            and e.get("status") == "kept" and e.get("action") == msg.get("action"))


def add_bot_routes(app: FastAPI, hub: Hub, who: BotAuth, streams: Streams,
                   events: Any) -> None:
    """Add the game routes of the Bot API (``events``: the account event bus of
    :mod:`.challenges`)."""

    def seated(table_id: str, user: TokenUser) -> tuple[LiveTable, int]:
        table = hub.tables.get(table_id) or hub.finished.get(table_id)
        if table is None:
            raise ApiError(404, "no_table", f"no live table {table_id!r}")
        seat = table.seat_of(user.user_id)
        if seat is None:
            raise ApiError(403, "not_your_game", "this token's account does not play at this table")
        return table, seat

    @app.get("/api/bot/account", tags=["bot"])
    async def account(request: Request) -> dict[str, Any]:
        """The token's account: ``{"id", "username", "bot", "scopes"}`` (any scope)."""
        user = await who(request, "bot:play", "board:play", "challenge:write")
        return {"id": user.user_id, "username": user.username, "bot": user.bot,
                "scopes": sorted(user.scopes)}

    @app.get("/api/bot/stream/event", tags=["bot"])
    async def stream_events(request: Request) -> StreamingResponse:
        """NDJSON: ``gameStart`` for every game the account plays now, pending ``challenge``
        objects to it, then each new event (see :mod:`.challenges`)."""
        user = await who(request)
        q = await streams.open(user.hash, user.user_id)
        for line in await events.current(user.user_id):
            q.put_nowait(line)
        events.subscribe(user.user_id, q)
        # connected: ready for its event games that wait for it (competition.md §5.6), on
        # every worker (:meth:`.challenges.AccountEvents.deliver`)
        events.publish(user.user_id, {"type": eventstart.READY})

        def done() -> None:
            events.unsubscribe(user.user_id, q)
            streams.close(q)
        return stream_response(ndjson(q, done))

    @app.get("/api/bot/game/stream/{table_id}", tags=["bot"])
    async def stream_game(request: Request, table_id: str) -> StreamingResponse:
        """NDJSON: the seat's messages of one game, as its WebSocket gets them (``hello``, the
        full ``state`` built from ``view(seat)``, then every change). It replaces the seat's
        other connection (one live connection per seat) and ends after the finished table's
        last state, or with a closing ``error`` line (``replaced``, ``table_closed``,
        ``too_slow``)."""
        user = await who(request)
        table, seat = seated(table_id, user)
        q = await streams.open(user.hash, user.user_id)

        def put(text: str) -> None:
            q.put_nowait(text)
            if text.startswith('{"type":"state"') and json.loads(text).get("status") == "finished":
                q.put_nowait(None)            # the finished table's last state: the end

        async def send_text(text: str) -> None:
            put(text)

        async def close_ws(code: int, reason: str) -> None:
            q.put_nowait(None)

        conn = Conn(send_text, user.user_id, table.gate, close_ws=close_ws)
        conn.name = user.username
        conn.start()
        table.attach(conn, seat)          # a finished table: hello and its last state, then the end

        def done() -> None:
            table.detach(conn)
            conn.close()
            streams.close(q)
        return stream_response(ndjson(q, done))

    async def act(request: Request, table_id: str, msg: dict[str, Any]) -> dict[str, Any]:
        user = await who(request)
        table, seat = seated(table_id, user)
        return await submit(table, seat, user.user_id, msg)

    @app.post("/api/bot/game/{table_id}/move/{action:path}", tags=["bot"])
    async def move(request: Request, table_id: str, action: str, turn: int | None = None,
                   seq: int | None = None, ahead: bool = False) -> dict[str, Any]:
        """Play ``action`` (the game's own notation, URL-encoded) for the token's seat. With
        ``seq`` (the state's) or ``turn`` (the state's ``turn``) a move answering an older state
        is refused (409 ``stale_move``). One of them is required while the seat is to act (400
        ``turn_required``): a move naming no state would answer whatever decision is current when
        it arrives, so a repeated request (a client's retry) could act twice (competition.md
        §6.4: a client action is accepted at most once). Both at once are 400 ``bad_request``
        (which one the move answers would be a guess). Text written as no move of the game at
        all (``h2e2?turn=1``, ``%00``) is 400 ``not_a_move`` and not counted, as a typed text on
        the socket; so is text holding a control character (``%0A``, ``%00``): plain spaces
        around a move are trimmed, a newline is no part of a move. A ``turn`` the seat was never
        given (negative, or beyond its decisions so far) is 400 ``bad_turn``. A move written
        well but illegal now counts as the rules say.

        ``ahead=true`` (a shengji declaration while the deal goes on, at a table whose deal
        holds prompts: the state message's ``ahead``) needs neither ``turn`` nor ``seq``: as a
        page's, it is the seat's answer now when its prompt is open and it is legal there
        (``"ahead": "answered"``),
        else kept for its next prompt where it is legal (``"ahead": "kept"``; the last one sent
        replaces an earlier one); the game stream tells the seat an event ``ahead`` with
        ``status`` ``kept``, ``sent`` (at its prompt) or ``dropped`` (never legal before the deal
        ended). Refused 400 ``ahead_refused`` (``refusal``: the game's code) when no prompt of the
        deal can take it (not a declaration, cards no declaration shows, not stronger than the
        standing one) and 409 ``no_deal_prompts`` at a table whose deal holds none; after the
        deal it is judged as any move, by its ``turn`` or ``seq``."""
        user = await who(request)
        if turn is not None and seq is not None:
            raise ApiError(400, "bad_request", "give turn or seq, not both",
                           problems=[{"where": "query", "problem": "turn and seq both given"}])
        table, seat = seated(table_id, user)
        path = request.scope["path"]
        if tableinput.CONTROL.search(path):
            # the route's pattern ends before a final newline (h2e2%0A arrives as h2e2): the
            # whole path is looked at
            text = path[path.index("/move/") + 6:]
            raise ApiError(400, "not_a_move", f"{text!r} is not written as a move", text=text)
        r = table.runner
        # "typed": text that is no move at all is refused without counting (tableinput._move)
        msg: dict[str, Any] = {"type": "move", "action": action, "typed": True}
        if ahead:
            msg["ahead"] = True
        # sent ahead while the deal goes on (or refused no_deal_prompts): no state is named
        unnamed = ahead and r is not None and not r.state.is_terminal() and (
            r.state.deal_prompt_open() or not tableinput.holds_deal_prompts(r))
        if turn is None and seq is None and r is not None and not r.state.is_terminal() \
                and seat in r.state.to_act and not unnamed:
            raise ApiError(400, "turn_required", "give the turn (or seq) of the state this move answers",
                           problems=[{"where": "query", "problem": "turn or seq missing"}])
        if turn is not None and r is not None and not 0 <= turn <= r.turns_given(seat):
            # a turn the seat was never given is no stale answer but a wrong number
            raise ApiError(400, "bad_turn", f"turn {turn} names no decision of this seat (its "
                           f"turns so far: 1 to {r.turns_given(seat)})", turn=turn,
                           max=r.turns_given(seat))
        if turn is not None:
            msg["turn"], msg["seq"] = turn, -1
        else:
            msg["seq"] = seq if seq is not None else (tablemsg.shown_seq(table) if r else 0)
        return await submit(table, seat, user.user_id, msg)

    @app.post("/api/bot/game/{table_id}/resign", tags=["bot"])
    async def resign(request: Request, table_id: str) -> dict[str, Any]:
        """Resign the game (a card or tile game: the seat concedes as its rules say)."""
        return await act(request, table_id, {"type": "resign"})

    async def offer_or_answer(request: Request, table_id: str, kind: str, answer: str) -> dict[str, Any]:
        """A draw (``kind`` "draw") or takeback ("takeback") message: ``offer``, ``accept``,
        ``decline``; or lichess's ``yes`` (accept the open one of another seat, else offer) and
        ``no`` (decline)."""
        user = await who(request)
        table, seat = seated(table_id, user)
        if answer == "yes":
            r = table.runner
            open_by = None if r is None else (r._offer if kind == "draw" else r._takeback)
            answer = "accept" if open_by is not None and open_by != seat else "offer"
        elif answer == "no":
            answer = "decline"
        if answer not in ("offer", "accept", "decline"):
            raise ApiError(400, "bad_answer", "offer, accept, decline, yes or no", answer=answer)
        return await submit(table, seat, user.user_id, {"type": f"{kind}_{answer}"})

    @app.post("/api/bot/game/{table_id}/draw/{answer}", tags=["bot"])
    async def draw(request: Request, table_id: str, answer: str) -> dict[str, Any]:
        """``offer``, ``accept``, ``decline``; or lichess's ``yes`` (accept the open offer of
        another seat, else offer) and ``no`` (decline)."""
        return await offer_or_answer(request, table_id, "draw", answer)

    @app.post("/api/bot/game/{table_id}/takeback/{answer}", tags=["bot"])
    async def takeback(request: Request, table_id: str, answer: str) -> dict[str, Any]:
        """A takeback request (casual two-seat board tables, docs/server.md "Takebacks"):
        ``offer`` (ask to take back the seat's last move), ``accept``, ``decline``; or lichess's
        ``yes`` (accept the other seat's open request, else ask) and ``no`` (decline). Refused
        as on the socket: ``takeback_event``, ``takeback_hidden`` (a game with hidden information),
        ``takeback_not_allowed``, ``takeback_nothing``, ``takeback_open``, ``takeback_declined``,
        ``no_takeback``."""
        return await offer_or_answer(request, table_id, "takeback", answer)

    @app.post("/api/bot/game/{table_id}/nonce/{nonce}", tags=["bot"])
    async def nonce(request: Request, table_id: str, nonce: str) -> dict[str, Any]:
        """The seat's nonce for the deal (answering the stream's ``commitment``; see
        docs/fairness.md). Errors as on the socket: bad_nonce, nonce_closed, nonce_repeated."""
        return await act(request, table_id, {"type": "nonce", "nonce": nonce})



def add_bot_api(app: FastAPI, hub: Hub, need_user: Callable[..., Any],
                forget_user: Callable[[int], None]) -> None:
    """The whole Bot API on ``app``: token management (:mod:`.tokens`, signed-in accounts),
    challenges and seeks (:mod:`.challenges`) and the game routes above. ``forget_user(id)``
    drops what the worker cached of an account's sessions (called when the account changed,
    here or, with several workers, on another)."""
    from .challenges import AccountEvents, Challenges, add_challenge_routes
    from .tokens import add_token_routes

    who = BotAuth(hub)
    streams = Streams(hub.cluster)
    challenges = Challenges()
    events = AccountEvents(hub, challenges)
    hub.present.append(events.streaming)      # an event stream open here: ready (eventstart)
    if streams.shared is not None:            # ... or on another worker (any stream of it)
        shared = streams.shared

        async def streaming_anywhere(user_id: int) -> bool:
            from redis.exceptions import RedisError

            try:
                return await shared.count(user_id) > 0
            except RedisError:
                return False
        hub.present_shared.append(streaming_anywhere)

    def revoked(h: str) -> None:
        who.cache.drop(h)
        streams.revoke(h)

    async def revoke(h: str) -> None:
        """A token was revoked here: forget it and end its streams here and, with several
        workers, on the others (told on the sign-out channel: a token's hash is a session's
        kind of key, and each worker drops whichever it holds)."""
        revoked(h)
        if hub.cluster is not None:
            await hub.cluster.logout(h)
    def changed(user_id: int) -> None:
        who.cache.drop_user(user_id)
        forget_user(user_id)

    async def account_changed(user_id: int) -> None:
        """The account ``user_id`` changed here (the bot mark): every worker reads it again."""
        changed(user_id)
        if hub.cluster is not None:
            await hub.cluster.account_changed(user_id)
    if hub.cluster is not None:
        hub.cluster.on_logout.append(revoked)
        hub.cluster.on_account.append(changed)
    add_token_routes(app, hub.store, need_user, who.cache, revoke, account_changed)
    add_challenge_routes(app, hub, who, events, challenges)
    add_bot_routes(app, hub, who, streams, events)
    app.state.bot_events = events
    app.state.challenges = challenges
