"""The web application: pages, the JSON API and the WebSocket endpoint.

``create_app(settings)`` builds a FastAPI app; ``qipai serve`` runs it with uvicorn. The API is
documented by FastAPI's OpenAPI document at ``/openapi.json`` (and ``/docs``); every refusal
is ``{"error": code, "message": text}`` with an HTTP status (see :mod:`.errors`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from sqlalchemy import event as sa_event
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

import qipai
from qipai import i18n
from qipai.bots import bot_names
from qipai.competition.db import open_db
from qipai.core import Record
from qipai.core.errors import QipaiError
from qipai.match import CLOCK_PRESETS

from . import auth, conduct, exports
from .chat import add_event_chat_routes, is_referee
from .config import Settings
from .conns import (
    CLOSE_FLOODING,
    CLOSE_NO_TABLE,
    CLOSE_ROUND_PLAYER,
    CLOSE_SIGN_IN_TO_WATCH,
    CLOSE_SIGNED_OUT,
    FLOODING,
    ROUND_PLAYER,
    SIGN_IN_TO_WATCH,
    SIGNED_OUT,
    Conn,
)
from .errors import ApiError, add_request_handlers, ws_error
from .guard import Guard, SafetyNet, allowed_origins
from .models import RecordPlayer, RecordRow, UserRow
from .probe import Probe
from .ratelimit import RateLimit
from .rematch import add_rematch_routes
from .replays import replay_steps
from .store import StorageUnavailable
from .tables import BOARD_CLOCK, DEFAULT_CLOCK, LOBBY_ONE_GAME, Hub, default_bot

log = logging.getLogger("qipai.server")
WEB = Path(str(resources.files("qipai.server").joinpath("web")))
PAGES = ("/", "/login", "/signup", "/history", "/events", "/about")


# ----- request and response shapes (also the OpenAPI document) --------------------------------
class Credentials(BaseModel):
    username: str = Field(max_length=4000)   # longer than 32: username_too_long, in words
    password: str = Field(max_length=400)


class NewTable(BaseModel):
    game: str
    options: dict[str, Any] = {}
    num_seats: int | None = None
    settings: dict[str, Any] = {}
    sit: bool = True                  # the creator takes a seat
    seat: int | None = None
    bots: int | None = None           # fill this many seats with bots (None: none)
    bot: str | None = None


class SeatRequest(BaseModel):
    seat: int | None = None
    bot: str | None = None


class Limiters:
    def __init__(self, settings: Settings) -> None:
        lim = settings.limits
        self.login_ip = RateLimit(*lim.login_ip)
        self.login_account = RateLimit(*lim.login_account)
        self.signup_ip = RateLimit(*lim.signup_ip)
        self.moves_account = RateLimit(*lim.moves_account)
        self.moves_ip = RateLimit(*lim.moves_ip)
        self.api_ip = RateLimit(*lim.api_ip)
        self.bot_games = RateLimit(*lim.bot_games_account)


def _limit(limiter: RateLimit, key: str) -> None:
    wait = limiter.hit(key)
    if wait:
        raise ApiError(429, "rate_limited", "too many requests; slow down",
                       retry_after=round(wait, 2))


def result_winners(result: dict[str, Any] | None) -> list[int]:
    """The seats that won a stored game: its ``winners``, or for a record stored before they
    were kept, the seats with the highest return when the returns are not all equal."""
    if not result:
        return []
    if "winners" in result:
        return list(result["winners"])
    returns = result.get("returns") or []
    if not returns or len(set(returns)) == 1:
        return []
    return [i for i, r in enumerate(returns) if r == max(returns)]


def _ip(conn: Request | WebSocket) -> str:
    return conn.client.host if conn.client else "?"


#: how long one SQLite statement waits for a lock held elsewhere before failing (then retried)
BUSY_TIMEOUT_MS = 1000


def tune_sqlite(db) -> None:
    """SQLite: write-ahead log and ``synchronous=NORMAL`` (a commit does not wait for the disk;
    a power cut may lose the last commits, never corrupt the file), and a short busy timeout:
    a locked database fails fast, and the store retries (see :mod:`.store`)."""
    engine = db.kw["bind"]
    if engine.dialect.name != "sqlite":
        return

    @sa_event.listens_for(engine, "connect")
    def _pragmas(conn, _record) -> None:
        cur = conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cur.close()

    engine.dispose()         # connections opened by the migrations get the pragmas on reconnect


def create_app(settings: Settings | None = None) -> FastAPI:
    """The qipai server app. Its lifespan opens the database (running migrations), resumes
    live games, and on shutdown saves every live game without deciding it."""
    settings = settings or Settings()
    allowed_origins(settings.allowed_origins)     # ValueError naming a malformed origin
    db = open_db(settings.database_url)
    tune_sqlite(db)
    hub = Hub(db, settings)
    limits = Limiters(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        probe = Probe(settings.probe_file) if settings.probe_file else None
        if probe:
            probe.start()
        await hub.start()
        await app.state.events.resume()       # seat what the started event rounds need now
        yield
        await hub.stop()
        app.state.events.close()
        if probe:
            probe.stop()

    app = FastAPI(title="qipai", version=qipai.__version__, lifespan=lifespan,
                  description="Referee engine and competition server for Chinese board and card games")
    app.state.hub = hub
    app.state.db = db
    app.state.settings = settings
    app.state.limits = limits

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        headers = {"Retry-After": str(max(1, round(exc.extra["retry_after"])))} if exc.status == 429 else None
        return JSONResponse(exc.body(), status_code=exc.status, headers=headers)

    @app.exception_handler(OperationalError)
    async def storage_failed(request: Request, exc: OperationalError) -> JSONResponse:
        log.error("storage unavailable: %s", str(exc.orig or exc).splitlines()[0])
        return JSONResponse(StorageUnavailable().body(), status_code=503)

    add_request_handlers(app)      # bad bodies and FastAPI's own refusals: {error, message}

    app.add_middleware(Guard, settings=settings, limits=limits)
    app.add_middleware(SafetyNet)                 # added last: outside the Guard

    # ----- helpers ---------------------------------------------------------------------------
    sessions = auth.SessionCache()
    store = hub.store           # every database call of a request runs in a worker thread

    async def user_of(request: Request | WebSocket) -> UserRow | None:
        token = request.cookies.get(auth.COOKIE)
        if not token:
            return None
        hit, user = sessions.get(token)
        if hit:
            return user

        def look(s: Session) -> UserRow | None:
            found = auth.session_user(s, token)
            if found is not None:
                s.flush()
                s.expunge(found)
            return found
        user = await store.call(look)
        sessions.put(token, user)
        return user

    async def need_user(request: Request) -> UserRow:
        user = await user_of(request)
        if user is None:
            raise ApiError(401, "not_signed_in", "sign in first")
        return user

    def user_json(u: UserRow) -> dict[str, Any]:
        return {"id": u.id, "username": u.username, "role": u.role}

    def set_cookie(request: Request, response: Response, token: str) -> None:
        response.set_cookie(auth.COOKIE, token, max_age=auth.SESSION_SECONDS, httponly=True,
                            samesite="lax", secure=request.url.scheme == "https", path="/")

    # ----- accounts --------------------------------------------------------------------------
    @app.post("/api/signup", tags=["accounts"])
    async def signup(request: Request, body: Credentials) -> JSONResponse:
        """Create an account and sign in. Errors: bad_username, bad_password, username_taken,
        rate_limited."""
        _limit(limits.signup_ip, _ip(request))
        auth.validate_new_account(body.username, body.password)
        hashed = await asyncio.to_thread(auth.hash_password, body.password)
        key = auth.username_key(body.username)
        taken = ApiError(409, "username_taken", f"the username {body.username!r} is taken "
                         "(names differing only in case are the same name)", username=body.username)

        def create(s: Session) -> tuple[str, dict[str, Any]]:
            if s.scalar(select(UserRow.id).where(UserRow.username_key == key)) is not None:
                raise taken
            first = settings.first_user_organizer and not s.scalar(select(func.count(UserRow.id)))
            organizer = key in {auth.username_key(o) for o in settings.organizers}
            user = UserRow(username=body.username, username_key=key, password_hash=hashed,
                           role="organizer" if first or organizer else "player")
            s.add(user)
            s.flush()
            token = auth.new_session(s, user)
            auth.remember_address(s, user.id, _ip(request))
            return token, user_json(user)
        try:
            token, out = await store.call(create)
        except IntegrityError:          # the same name signed up at the same moment
            raise taken from None
        response = JSONResponse(out, status_code=201)
        set_cookie(request, response, token)
        return response

    @app.post("/api/login", tags=["accounts"])
    async def login(request: Request, body: Credentials) -> JSONResponse:
        """Sign in. Errors: bad_credentials (401), rate_limited (429, per IP and per account).

        The per-account limit does not apply from an address the account has signed in from
        before (docs/server.md, "Sign-in limits"): guessing from elsewhere cannot lock the
        owner out."""
        ip = _ip(request)
        _limit(limits.login_ip, ip)
        auth.check_username_length(body.username)
        account_wait = limits.login_account.hit(auth.username_key(body.username))

        def find(s: Session) -> tuple[UserRow | None, bool]:
            found = auth.find_user(s, body.username)
            return found, bool(account_wait) and found is not None and auth.known_address(s, found.id, ip)
        user, known = await store.call(find, write=False)
        hashed = user.password_hash if user else None
        if account_wait and not known:
            raise ApiError(429, "rate_limited", "too many sign-in attempts for this account; "
                           "slow down", retry_after=round(account_wait, 2), what="sign_in")
        ok = await asyncio.to_thread(auth.check_password, hashed or auth._DUMMY, body.password)
        if user is None or not ok:
            raise ApiError(401, "bad_credentials", "wrong username or password")

        def sign_in(s: Session) -> str:
            token = auth.new_session(s, user)
            auth.remember_address(s, user.id, ip)
            return token
        token = await store.call(sign_in)
        response = JSONResponse(user_json(user))
        set_cookie(request, response, token)
        return response

    @app.post("/api/logout", tags=["accounts"])
    async def logout(request: Request) -> JSONResponse:
        """Sign out: the session ends, and every socket opened with it is closed (4401
        ``signed_out``)."""
        token = request.cookies.get(auth.COOKIE)
        sessions.drop(token)
        await store.call(lambda s: auth.end_session(s, token))
        if token:
            hub.sessions.end(auth.token_hash(token))
        response = JSONResponse({"ok": True})
        response.delete_cookie(auth.COOKIE, path="/")
        return response

    @app.get("/api/me", tags=["accounts"])
    async def me(request: Request) -> dict[str, Any]:
        """The signed-in account, or ``{"user": null}``."""
        user = await user_of(request)
        return {"user": user_json(user) if user else None}

    # ----- games and lobby ---------------------------------------------------------------------
    @app.get("/api/games", tags=["lobby"])
    async def games() -> list[dict[str, Any]]:
        """Every registered game with its options, seat counts, built-in bots, the bot a
        table seats when it names none (``bot``) and the clock it gets (``clock``)."""
        out = []
        for info in qipai.games():
            d = info.to_json()
            d["bots"] = bot_names(info.id)
            d["bot"] = default_bot(info.id)                     # what "play a bot" seats
            d["clock"] = DEFAULT_CLOCK.get(info.id, BOARD_CLOCK)  # a table that names none
            d["export"] = exports.native_format(info.id)
            d["formats"] = exports.formats(info.id)
            d["lobby_options"] = LOBBY_ONE_GAME.get(info.id, {})   # what a lobby table sets
            out.append(d)
        return out

    @app.get("/api/clocks", tags=["lobby"])
    async def clocks() -> dict[str, Any]:
        """The clock presets a table may use (competition.md §4.5)."""
        return CLOCK_PRESETS

    @app.get("/api/tables", tags=["lobby"])
    async def tables() -> list[dict[str, Any]]:
        """Open and running tables."""
        return [t.summary() for t in hub.tables.values()]

    @app.post("/api/tables", tags=["lobby"], status_code=201)
    async def create_table(request: Request, body: NewTable) -> dict[str, Any]:
        """Create a table for any game with any of its options; optionally sit and add bots.
        Errors: bad_options, bad_seats, bad_clock, bad_settings, bad_bot."""
        user = await need_user(request)
        table = hub.create_table(user.id, body.game, body.options, body.settings, body.num_seats)
        if body.bots and body.bot is not None and body.bot not in bot_names(table.game_id):
            hub.drop_table(table)           # refused as a whole: no half-made table stays behind
            raise ApiError(400, "bad_bot", f"unknown bot {body.bot!r}; valid: "
                                           f"{', '.join(bot_names(table.game_id))}", bot=body.bot,
                           valid=list(bot_names(table.game_id)))
        try:
            if body.sit:
                table.take_seat(user.id, user.username, body.seat)
        except ApiError:
            hub.drop_table(table)
            raise
        if body.bots:
            try:
                conduct.check_bot_game(limits.bot_games, table, user.id, body.bots)
            except ApiError:
                hub.drop_table(table)
                raise
            for _ in range(min(body.bots, table.num_seats)):
                if table.status == "open" and any(s is None for s in table.seats):
                    table.add_bot(None, body.bot)
        await hub.store.saved(table.gate)
        return table.summary()

    @app.get("/api/tables/{table_id}", tags=["lobby"])
    async def get_table(table_id: str) -> dict[str, Any]:
        return hub.get(table_id).summary()

    @app.post("/api/tables/{table_id}/sit", tags=["lobby"])
    async def sit(request: Request, table_id: str, body: SeatRequest | None = None) -> dict[str, Any]:
        """Take a seat (the first free one unless ``seat`` is given). The game starts when full."""
        user = await need_user(request)
        table = hub.get(table_id)
        table.take_seat(user.id, user.username, body.seat if body else None)
        await hub.store.saved(table.gate)
        return table.summary()

    @app.post("/api/tables/{table_id}/leave", tags=["lobby"])
    async def leave(request: Request, table_id: str) -> dict[str, Any]:
        user = await need_user(request)
        table = hub.get(table_id)
        table.leave_seat(user.id)
        await hub.store.saved(table.gate)
        return table.summary()

    async def table_helper(request: Request, table_id: str):
        user = await need_user(request)
        table = hub.get(table_id)
        if table.owner_id != user.id and table.seat_of(user.id) is None:
            raise ApiError(403, "not_at_table", "only the table's owner or a seated player adds bots")
        return user, table

    @app.post("/api/tables/{table_id}/bot", tags=["lobby"])
    async def add_bot(request: Request, table_id: str, body: SeatRequest | None = None) -> dict[str, Any]:
        """Seat a built-in bot (the table's owner or a seated player may)."""
        user, table = await table_helper(request, table_id)
        conduct.check_bot_game(limits.bot_games, table, user.id, 1)
        table.add_bot(body.seat if body else None, body.bot if body else None)
        await hub.store.saved(table.gate)
        return table.summary()

    @app.post("/api/tables/{table_id}/fill", tags=["lobby"])
    async def fill(request: Request, table_id: str, body: SeatRequest | None = None) -> dict[str, Any]:
        """Fill every empty seat with bots (which starts the game)."""
        user, table = await table_helper(request, table_id)
        conduct.check_bot_game(limits.bot_games, table, user.id, table.num_seats)
        table.fill_bots(body.bot if body else None)
        await hub.store.saved(table.gate)
        return table.summary()

    # ----- records ---------------------------------------------------------------------------
    def record_json(row: RecordRow, full: bool = False) -> dict[str, Any]:
        out = {"id": row.id, "table": row.table_id, "game": row.game, "names": row.names,
               "players": row.players, "result": row.result, "finished": row.finished,
               "winners": result_winners(row.result)}
        if full:
            out["record"] = row.record
        return out

    async def get_record(record_id: int) -> RecordRow:
        row = None
        if 0 < record_id < 2**63:       # ids are 64-bit database integers
            row = await store.call(lambda s: s.get(RecordRow, record_id), write=False)
        if row is None:
            raise ApiError(404, "no_record", f"no record {record_id}")
        return row

    @app.get("/api/records", tags=["records"])
    async def records(request: Request, user: str | None = None, game: str | None = None,
                      limit: int = 50) -> list[dict[str, Any]]:
        """Finished games, newest first; ``user=me`` or a username for one player's history."""
        limit = max(1, min(limit, 500))
        q = select(RecordRow).order_by(RecordRow.id.desc()).limit(limit)
        me = None
        if user == "me":
            me = await user_of(request)
            if me is None:
                raise ApiError(401, "not_signed_in", "sign in first")

        def read(s: Session) -> list[dict[str, Any]]:
            query = q
            if user:
                found = me or auth.find_user(s, user)
                if found is None:
                    raise ApiError(404, "no_user", f"no user {user!r}")
                query = (query.add_columns(RecordPlayer.seat)
                         .join(RecordPlayer, RecordPlayer.record_id == RecordRow.id)
                         .where(RecordPlayer.user_id == found.id))
                if game:
                    query = query.where(RecordRow.game == game)
                # the player's seat in each game, so a page can say won, lost or drawn
                return [{**record_json(r), "seat": seat} for r, seat in s.execute(query).all()]
            if game:
                query = query.where(RecordRow.game == game)
            return [record_json(r) for r in s.scalars(query).all()]
        return await store.call(read, write=False)

    @app.get("/api/users/{username}", tags=["records"])
    async def profile(username: str) -> dict[str, Any]:
        """A player's public profile: ``{"username", "created", "role", "games", "won",
        "lost", "drawn", "by_game": {game id: {"games", "won", "lost", "drawn"}}}`` counted over
        the player's finished games (a game with no winner is drawn; a game another seat won
        is lost). Error: no_user (404)."""
        def read(s: Session) -> dict[str, Any]:
            found = auth.find_user(s, username) if len(username) <= 64 else None
            if found is None:
                raise ApiError(404, "no_user", f"no user {username!r}")
            rows = s.execute(select(RecordRow.game, RecordRow.result, RecordPlayer.seat)
                             .join(RecordPlayer, RecordPlayer.record_id == RecordRow.id)
                             .where(RecordPlayer.user_id == found.id)).all()
            total = {"games": 0, "won": 0, "lost": 0, "drawn": 0}
            by_game: dict[str, dict[str, int]] = {}
            for game_id, result, seat in rows:
                winners = result_winners(result)
                kind = "drawn" if not winners else ("won" if seat in winners else "lost")
                for bucket in (total, by_game.setdefault(game_id, dict.fromkeys(total, 0))):
                    bucket["games"] += 1
                    bucket[kind] += 1
            return {"username": found.username, "created": found.created, "role": found.role,
                    **total, "by_game": by_game}
        return await store.call(read, write=False)

    @app.get("/api/records/{record_id}", tags=["records"])
    async def record(record_id: int) -> dict[str, Any]:
        return record_json(await get_record(record_id), full=True)

    @app.get("/api/records/{record_id}/steps", tags=["records"])
    async def steps(record_id: int) -> dict[str, Any]:
        """Every position of a finished game for the replay page: per ply, the spectator view
        and each seat's view (the game is over, so hidden cards may be shown); in a board game
        each step after the first has ``move``, its move-list entry (:mod:`.movetext`)."""
        row = await get_record(record_id)
        return await asyncio.to_thread(replay_row, row)    # a long game is long work

    def replay_row(row: RecordRow) -> dict[str, Any]:
        return {"record": record_json(row), "steps": replay_steps(row.record)}

    @app.get("/api/records/{record_id}/download", tags=["records"])
    async def download(record_id: int, format: str = "json") -> Response:
        """The record as qipai JSON (``format=json``), in the game's own format
        (``format=native``: PGN for xiangqi, SGF for go, ...) or in any format the game writes
        (``format=pgn-chinese``, ``rif``, ...; listed as ``formats`` by ``/api/games``)."""
        row = await get_record(record_id)
        if format == "native":
            format = exports.native_format(row.game) or ""
            if not format:
                raise ApiError(404, "no_native_format", f"{row.game} has no other record format")
        if format not in exports.formats(row.game):
            raise ApiError(400, "bad_format", f"{row.game} records download as: "
                           f"{', '.join(exports.formats(row.game))} or native")
        try:
            text, ext, media = await asyncio.to_thread(exports.download, Record.from_json(row.record),
                                                       format)
        except (ValueError, QipaiError) as e:
            raise ApiError(409, "cannot_export", str(e), detail=str(e)) from None
        return Response(text, media_type=media, headers={
            "Content-Disposition": f'attachment; filename="qipai-{row.id}.{ext}"'})

    # ----- events ------------------------------------------------------------------------------
    from .events import add_event_routes

    app.state.events = add_event_routes(app, hub, db, need_user)
    from .referee import add_referee_routes

    app.state.referees = add_referee_routes(app, hub, db, app.state.events, need_user, user_of)
    add_event_chat_routes(app, hub, need_user, user_of)
    add_rematch_routes(app, hub, need_user)

    # ----- live play ---------------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def ws_table(ws: WebSocket, table_id: str) -> None:
        """Live play. Server → client: ``hello``, ``state`` (from ``view(seat)``), ``event``,
        ``error``, ``ignored``, ``pong``. Client → server: ``move`` (``seq``, ``action``),
        ``resign``, ``draw_offer``, ``draw_accept``, ``draw_decline``, ``resume`` (leave
        trusteeship), ``sync``, ``position`` (``ply``: answered by a ``position`` message with
        that position's view, for the move list), ``ping``. The server closes a socket with a
        code and reason of :mod:`.conns` (4401 signed_out or sign_in_to_watch, 4403 round_player,
        4404 no_table, 4409 replaced,
        4410 table_closed, 4429 flooding or too_slow)."""
        user = await user_of(ws)
        await ws.accept()
        table = hub.tables.get(table_id) or hub.finished.get(table_id)
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
        referee = await is_referee(hub, table.event_id, user)     # chat: §5.8
        token = ws.cookies.get(auth.COOKIE) if user else None
        if token and sessions.ended(token):      # signed out while this socket was opening
            await ws.send_json(SIGNED_OUT)
            await ws.close(*CLOSE_SIGNED_OUT)
            return
        # nothing below waits until the socket is registered and attached: a sign-out from
        # now on finds it
        conn = Conn(ws.send_text, user.id if user else None, table.gate, close_ws=ws.close,
                    session=auth.token_hash(token) if token else None)
        if user:
            conn.name, conn.referee = user.username, referee
        conn.start()
        hub.sessions.add(conn)
        table.attach(conn, seat)
        ip = _ip(ws)
        max_bytes = settings.limits.ws_message_bytes
        # rate-limited messages: ws_flood at once, then ws_flood / 10 per second (a client that
        # goes on sending faster than its limit allows is closed, however it paces itself)
        flood = RateLimit(settings.limits.ws_flood / 10, settings.limits.ws_flood)
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
                wait = max(limits.moves_ip.hit(ip),
                           limits.moves_account.hit(str(user.id)) if user else 0.0)
                if wait:
                    if flood.hit(""):
                        conn.close(*CLOSE_FLOODING, notice=FLOODING, drop=True)
                    else:
                        conn.put_now(ws_error("rate_limited", "too many messages; slow down",
                                               retry_after=round(wait, 3)))
                    continue
                try:
                    msg = json.loads(text)
                except json.JSONDecodeError as e:
                    conn.put_now(ws_error("bad_json", f"not valid JSON: {e.msg}"))
                    continue
                except RecursionError:
                    conn.put_now(ws_error("bad_json", "JSON nested too deeply"))
                    continue
                if not isinstance(msg, dict):
                    conn.put_now(ws_error("bad_message", "a message is a JSON object with a 'type'"))
                    continue
                seat = table.seat_of(user.id) if user else None
                try:
                    table.handle(conn, seat, msg)
                except Exception:       # the safety net: a fault answers, the socket stays
                    log.exception("table %s: a message failed", table_id)
                    conn.put_json(ws_error("internal", "the server failed to handle this "
                                           "message; the fault is logged"))
        except WebSocketDisconnect:
            pass
        finally:
            table.detach(conn)
            hub.sessions.remove(conn)
            conn.close()
            await conn.wait(1.0)

    # ----- pages -------------------------------------------------------------------------------
    @app.get("/api/i18n/{lang}", tags=["lobby"])
    async def i18n_catalogue(lang: str) -> JSONResponse:
        """The message catalogue of ``lang`` (``en`` or ``zh``): key -> template, as
        :mod:`qipai.i18n` documents; 404 ``no_language`` for any other language."""
        if lang not in i18n.LANGS:
            raise ApiError(404, "no_language", f"no catalogue for {lang!r}; there are "
                           + ", ".join(i18n.LANGS), lang=lang)
        return JSONResponse(i18n.catalogue(lang), headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=WEB), name="static")
    shell = (WEB / "index.html").read_text("utf-8")

    @app.get("/", include_in_schema=False)
    @app.get("/login", include_in_schema=False)
    @app.get("/signup", include_in_schema=False)
    @app.get("/history", include_in_schema=False)
    @app.get("/events", include_in_schema=False)
    @app.get("/tables/{table_id}", include_in_schema=False)
    @app.get("/records/{record_id}", include_in_schema=False)
    @app.get("/events/{event_id}", include_in_schema=False)
    @app.get("/events/{event_id}/games/{game_id}", include_in_schema=False)
    @app.get("/events/{event_id}/referee", include_in_schema=False)
    @app.get("/u/{username}", include_in_schema=False)
    async def page(request: Request) -> HTMLResponse:
        return HTMLResponse(shell)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(WEB / "favicon.svg", media_type="image/svg+xml")

    return app
