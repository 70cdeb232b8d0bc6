"""The web application: pages, the JSON API and the WebSocket endpoint.

``create_app(settings)`` builds a FastAPI app; ``qipai serve`` runs it with uvicorn. The API is
documented by FastAPI's OpenAPI document at ``/openapi.json`` (and ``/docs``); every refusal
is ``{"error": code, "message": text}`` with an HTTP status (see :mod:`.errors`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import time
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import Field
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

import qipai
from qipai import i18n
from qipai.bots import bot_levels
from qipai.competition.db import open_db
from qipai.match import CLOCK_PRESETS
from qipai.match.presets import suited_clocks

from . import auth, conduct, exports
from .bodies import Body
from .botapi import add_bot_api
from .chat import add_event_chat_routes, add_report_routes
from .chatmutes import add_mute_routes
from .config import Settings
from .conns import client_ip, client_key
from .errors import ApiError, add_request_handlers
from .guard import Guard, SafetyNet, allowed_origins
from .hub import Hub
from .livews import add_table_socket
from .models import SessionRow, UserRow
from .probe import Probe
from .profiles import add_profile_routes
from .ratelimit import Buckets, RateLimit, SharedRateLimit, hit_all, retry_after, retry_header
from .records import add_record_routes, table_hidden
from .relay import Relay
from .rematch import add_rematch_routes
from .seekroutes import add_seek_routes
from .sqlitesetup import tune_sqlite
from .store import StorageUnavailable
from .tablecodes import add_code_routes
from .tabledefaults import (
    BOARD_CLOCK,
    DEFAULT_CLOCK,
    LOBBY_MATCH_ONLY,
    LOBBY_ONE_GAME,
    default_bot,
    engine_refusal,
    seat_bots,
)

log = logging.getLogger("qipai.server")
WEB = Path(str(resources.files("qipai.server").joinpath("web")))
PAGES = ("/", "/login", "/signup", "/history", "/events", "/about")


# ----- request and response shapes (also the OpenAPI document) --------------------------------
class Credentials(Body):
    username: str = Field(max_length=4000)   # longer than 32: username_too_long, in words
    password: str = Field(max_length=400)


class NewPassword(Body):
    current: str = Field(max_length=400)
    new: str = Field(max_length=400)


class NewTable(Body):
    game: str
    options: dict[str, Any] = {}
    num_seats: int | None = None
    settings: dict[str, Any] = {}
    sit: bool = True                  # the creator takes a seat
    seat: int | None = None
    bots: int | None = None           # fill this many seats with bots (None: none)
    bot: str | None = None
    level: int | None = None          # or the bots' level 1-5 (docs/bots.md)


class SeatRequest(Body):
    seat: int | None = None
    bot: str | None = None
    level: int | None = None


def level_choice(game_id: str, body: NewTable | SeatRequest | None) -> str | None:
    """The bot a request names: ``bot``, or the bot of ``level`` (which wins when both are
    given). Raises 400 ``bad_level`` naming the levels the game offers."""
    if body is None or body.level is None:
        return body.bot if body is not None else None
    from qipai.bots import bot_levels, level_bot
    from qipai.core.errors import OptionError

    try:
        return level_bot(game_id, body.level)
    except OptionError as e:
        raise ApiError(400, "bad_level", str(e), level=body.level,
                       valid=list(bot_levels(game_id))) from None


#: go score estimates worked out at once by a worker (the others wait their turn)
ESTIMATES_AT_ONCE = 2


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
        self.chat_account = RateLimit(*lim.chat_account)
        self.report_account = RateLimit(*lim.report_account)
        self.dispute_account = RateLimit(*lim.dispute_account)
        self.bot_token = RateLimit(*lim.bot_token)
        self.replay_ip = RateLimit(*lim.replay_ip)
        self.estimate_ip = RateLimit(*lim.estimate_ip)
        self.join_account = RateLimit(*lim.join_account)
        self.table_code_account = RateLimit(*lim.table_code_account)
        self.table_code_ip = RateLimit(*lim.table_code_ip)
        #: the limits counted in Redis for every worker of a cluster alike (:meth:`share`)
        self.shared: dict[str, SharedRateLimit] = {}
        #: :meth:`hit_each_now`: this worker's own count of each shared limit, and until when
        #: the last answer of Redis refuses a group of hits (monotonic time)
        self.near: dict[str, RateLimit] = {}
        self._refused: dict[tuple[tuple[str, str], ...], float] = {}

    def share(self, redis: Any, cluster: str) -> None:
        """Count every limit per address and per account in Redis, for every worker of the
        cluster alike: an account (or address) whose requests and sockets are spread over N
        workers gets the limit once, not N times."""
        buckets = Buckets(redis)            # their round trips go together
        for name in SHARED:
            self.shared[name] = SharedRateLimit(getattr(self, name), redis, f"{cluster}:limit:{name}:",
                                                buckets)
            local = getattr(self, name)
            self.near[name] = RateLimit(local.rate, local.burst)

    async def hit(self, name: str, key: str) -> float:
        """Seconds to wait before another event of limit ``name`` for ``key`` (0: allowed):
        counted in Redis in a cluster, else by this process."""
        shared = self.shared.get(name)
        return await shared.hit(key) if shared is not None else getattr(self, name).hit(key)

    async def hit_each(self, hits: list[tuple[str, str]]) -> float:
        """:meth:`hit` of every ``(limit name, key)``, each counted (a cluster's in one round trip
        to Redis): the longest wait."""
        shared = [(self.shared[name], key) for name, key in hits if name in self.shared]
        local = [getattr(self, name).hit(key) for name, key in hits if name not in self.shared]
        return max([await hit_all(shared) if shared else 0.0, *local])

    async def hit_each_now(self, hits: list[tuple[str, str]]) -> float:
        """:meth:`hit_each`, without waiting for Redis while the worker's own count has half
        its burst left (a table socket's every message: the move goes on at once instead of a
        round trip later). One process: its own count, exact. A cluster: this worker's own
        count of each limit (exact for the sockets it holds) and the shared count in Redis,
        asked meanwhile; a refusal from Redis holds the same hits back from the next message on
        (for the wait it gave), and past half the burst here the answer is waited for as
        :meth:`hit_each` does. An account or address spread over several workers is held to
        the shared limit at most half a burst a worker late."""
        if not self.shared:
            return max((getattr(self, name).hit(key) for name, key in hits), default=0.0)
        now = time.monotonic()
        group = tuple(hits)
        waits = [self._refused.get(group, now) - now]
        near = [(self.near[name], key) for name, key in hits if name in self.near]
        waits += [limit.hit(key) for limit, key in near]
        waits += [getattr(self, name).hit(key) for name, key in hits if name not in self.near]
        shared = [(self.shared[name], key) for name, key in hits if name in self.shared]
        if shared:
            told = asyncio.ensure_future(hit_all(shared))
            told.add_done_callback(lambda f: self._told(group, f))
            if any(limit.left(key) < limit.burst / 2 for limit, key in near):
                waits.append(await told)
        return max(0.0, *waits)

    def _told(self, group: tuple[tuple[str, str], ...], told: asyncio.Future[float]) -> None:
        """Redis's answer to :meth:`hit_each_now`: a refusal holds ``group`` back for its wait."""
        if told.cancelled() or told.exception() is not None:
            return
        wait = told.result()
        if wait > 0:
            if len(self._refused) > 10_000:
                now = time.monotonic()
                self._refused = {k: t for k, t in self._refused.items() if t > now}
            self._refused[group] = time.monotonic() + wait
        else:
            self._refused.pop(group, None)

    async def hit_shared(self, name: str, key: str) -> float:
        """As :meth:`hit` in a cluster; 0 for one process alone (whose caller counts the event
        with a limiter of its own, as the table chat does)."""
        shared = self.shared.get(name)
        return await shared.hit(key) if shared is not None else 0.0


#: the limits a cluster counts in Redis (:meth:`Limiters.share`)
SHARED = ("login_ip", "login_account", "signup_ip", "moves_account", "moves_ip", "api_ip",
          "bot_games", "chat_account", "report_account", "dispute_account", "bot_token", "replay_ip",
          "join_account", "table_code_account", "estimate_ip",
          "table_code_ip")


def seats_by_option(info: Any) -> dict[str, dict[str, list[int]]]:
    """The option values that fix other seat counts (``Game.seats_by_option``, declared by the
    game: baohuang's ``ruleset=sdbh.provisional`` is 4 seats) as ``{option: {JSON of the value:
    seat counts}}``, the form the lobby's option selects carry."""
    from qipai.core.registry import game_class

    return {name: {json.dumps(v): list(seats) for v, seats in by_value.items()}
            for name, by_value in game_class(info.id).seats_by_option().items()}


def _limit(limiter: RateLimit, key: str, wait: float | None = None, limit: str | None = None) -> None:
    """429 ``rate_limited`` when ``limiter`` (or the ``wait`` already counted) refuses; ``limit``
    names a limit whose refusal has words of its own (``rate_limited.<limit>``: sign-ups)."""
    wait = limiter.hit(key) if wait is None else wait
    if wait:
        extra = {"limit": limit} if limit else {}
        raise ApiError(429, "rate_limited", "too many requests; slow down",
                       retry_after=retry_after(wait), **extra)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The qipai server app. Its lifespan opens the database (running migrations), resumes
    live games, and on shutdown saves every live game without deciding it."""
    settings = settings or Settings()
    allowed_origins(settings.allowed_origins)     # ValueError naming a malformed origin
    if not isinstance(settings.page_poll_ms, int) or settings.page_poll_ms < 50:
        raise ValueError(f"page_poll_ms is a whole number of ms, at least 50, not {settings.page_poll_ms!r}")
    db = open_db(settings.database_url)
    tune_sqlite(db)
    hub = Hub(db, settings)
    limits = Limiters(settings)
    if hub.cluster is not None:
        limits.share(hub.cluster.redis, settings.cluster_name)
        hub.chat_repeats.share(hub.cluster.redis, f"{settings.cluster_name}:chatrepeat:")
    hub.limits = limits

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        probe = Probe(settings.probe_file) if settings.probe_file else None
        if probe:
            probe.start()
        await hub.start()
        await app.state.events.resume()       # seat what the started event rounds need now
        if settings.event_worker_at_start:
            app.state.events.start_worker()
        yield
        await hub.stop()
        app.state.events.close()
        if "qipai.bots.search" in sys.modules:    # its bots ran: their processes stop too
            sys.modules["qipai.bots.search"].close_pool()
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
        headers = {"Retry-After": retry_header(exc.extra["retry_after"])} if exc.status == 429 else None
        return JSONResponse(exc.body(), status_code=exc.status, headers=headers)

    @app.exception_handler(OperationalError)
    async def storage_failed(request: Request, exc: OperationalError) -> JSONResponse:
        log.error("storage unavailable: %s", str(exc.orig or exc).splitlines()[0])
        return JSONResponse(StorageUnavailable().body(), status_code=503)

    add_request_handlers(app)      # bad bodies and FastAPI's own refusals: {error, message}

    app.add_middleware(Relay, hub=hub)            # a table another worker serves: relayed there
    app.add_middleware(Guard, settings=settings, limits=limits, hub=hub)
    app.add_middleware(SafetyNet)                 # added last: outside the Guard

    # ----- helpers ---------------------------------------------------------------------------
    sessions = auth.SessionCache()
    if hub.cluster is not None:          # a sign-out on another worker
        hub.cluster.on_logout.append(sessions.drop_hash)
        hub.cluster.on_logout.append(hub.sessions.end)
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
        return {"id": u.id, "username": u.username, "role": u.role, "bot": bool(u.bot)}

    def set_cookie(request: Request, response: Response, token: str) -> None:
        response.set_cookie(auth.COOKIE, token, max_age=auth.SESSION_SECONDS, httponly=True,
                            samesite="lax", secure=request.url.scheme == "https", path="/")

    # ----- accounts --------------------------------------------------------------------------
    @app.post("/api/signup", tags=["accounts"])
    async def signup(request: Request, body: Credentials) -> JSONResponse:
        """Create an account and sign in. Errors: bad_username, bad_password, username_taken,
        rate_limited."""
        _limit(limits.signup_ip, "", await limits.hit("signup_ip", client_key(request)), "signup")
        auth.validate_new_account(body.username, body.password)
        hashed = await asyncio.to_thread(auth.hash_password, body.password)
        key = auth.username_key(body.username)
        taken = ApiError(409, "username_taken", f"the username {body.username!r} is taken "
                         "(names differing only in case are the same name)", username=body.username)

        token = auth.new_token()

        def create(s: Session) -> tuple[str, dict[str, Any]]:
            user = s.scalar(select(UserRow).where(UserRow.username_key == key))
            # this request's own account when its hash (salted here) is the one stored: a run
            # again after the first one's commit went through unanswered (Store.call)
            if user is not None and user.password_hash != hashed:
                raise taken
            if user is None:
                first = settings.first_user_organizer and not s.scalar(select(func.count(UserRow.id)))
                organizer = key in {auth.username_key(o) for o in settings.organizers}
                user = UserRow(username=body.username, username_key=key, password_hash=hashed,
                               role="organizer" if first or organizer else "player")
                s.add(user)
                s.flush()
            auth.new_session(s, user, token)
            auth.remember_address(s, user.id, client_ip(request))
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
        ip = client_ip(request)
        _limit(limits.login_ip, "", await limits.hit("login_ip", client_key(request)))
        auth.check_username_length(body.username)
        account_wait = await limits.hit("login_account", auth.username_key(body.username))

        def find(s: Session) -> tuple[UserRow | None, bool]:
            found = auth.find_user(s, body.username)
            return found, bool(account_wait) and found is not None and auth.known_address(s, found.id, ip)
        user, known = await store.call(find, write=False)
        hashed = user.password_hash if user else None
        if account_wait and not known:
            raise ApiError(429, "rate_limited", "too many sign-in attempts for this account; "
                           "slow down", retry_after=retry_after(account_wait), what="sign_in")
        ok = await asyncio.to_thread(auth.check_password, hashed or auth._DUMMY, body.password)
        if user is None or not ok:
            raise ApiError(401, "bad_credentials", "wrong username or password")

        chosen = auth.new_token()       # a run again finds the session it made (Store.call)

        def sign_in(s: Session) -> str:
            token = auth.new_session(s, user, chosen)
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
            if hub.cluster is not None:           # the other workers forget it and close its sockets
                await hub.cluster.logout(auth.token_hash(token))
        response = JSONResponse({"ok": True})
        response.delete_cookie(auth.COOKIE, path="/")
        return response

    @app.post("/api/me/password", tags=["accounts"])
    async def change_password(request: Request, body: NewPassword) -> dict[str, Any]:
        """Change the signed-in account's password; the current one is asked first. Every other
        session of the account ends (its sockets are closed); this one stays signed in. Errors:
        signed_out (401), wrong_password (401, the current password is wrong), bad_password
        (400), rate_limited (429, as sign-in attempts for the account)."""
        me = await need_user(request)
        wait = await limits.hit("login_account", auth.username_key(me.username))
        if wait:
            raise ApiError(429, "rate_limited", "too many sign-in attempts for this account; "
                           "slow down", retry_after=retry_after(wait), what="sign_in")
        if not auth.MIN_PASSWORD <= len(body.new) <= auth.MAX_PASSWORD:
            raise ApiError(400, "bad_password", f"a password has {auth.MIN_PASSWORD} to "
                           f"{auth.MAX_PASSWORD} characters", min=auth.MIN_PASSWORD, max=auth.MAX_PASSWORD)
        hashed = await store.call(lambda s: s.get(UserRow, me.id).password_hash, write=False)
        if not await asyncio.to_thread(auth.check_password, hashed, body.current):
            raise ApiError(401, "wrong_password", "the current password is wrong")
        new_hash = await asyncio.to_thread(auth.hash_password, body.new)
        keep = auth.token_hash(request.cookies.get(auth.COOKIE) or "")

        def change(s: Session) -> list[str]:
            s.get(UserRow, me.id).password_hash = new_hash
            rows = s.scalars(select(SessionRow).where(SessionRow.user_id == me.id)).all()
            others = [r for r in rows if r.token_hash != keep]
            for r in others:
                s.delete(r)
            return [r.token_hash for r in others]
        for key in await store.call(change):
            sessions.drop_hash(key)
            hub.sessions.end(key)
            if hub.cluster is not None:
                await hub.cluster.logout(key)
        return {"ok": True}

    @app.get("/api/me", tags=["accounts"])
    async def me(request: Request) -> dict[str, Any]:
        """The signed-in account, or ``{"user": null}``."""
        user = await user_of(request)
        return {"user": user_json(user) if user else None}

    @app.get("/api/signup", tags=["accounts"])
    async def signup_info() -> dict[str, Any]:
        """What the sign-up page tells: ``{"first_organizer": true}`` while the server has no
        account yet and the first one becomes an organizer (``first_user_organizer``); nothing
        else about the accounts."""
        if not settings.first_user_organizer:
            return {"first_organizer": False}
        anyone = await store.call(lambda s: s.scalar(select(UserRow.id).limit(1)), write=False)
        return {"first_organizer": anyone is None}

    # ----- games and lobby ---------------------------------------------------------------------
    @app.get("/api/games", tags=["lobby"])
    async def games() -> list[dict[str, Any]]:
        """Every registered game with its options, seat counts, built-in bots, the bot a
        table seats when it names none (``bot``) and the clock it gets (``clock``); the options a
        lobby table sets (``lobby_options``) and those that describe a whole match, which a lobby
        table of one deal does not offer (``match_options``, names)."""
        out = []
        for info in qipai.games():
            d = info.to_json()
            d["bots"] = seat_bots(settings, info.id)
            d["bot"] = default_bot(info.id)                     # what "play a bot" seats
            d["levels"] = bot_levels(info.id)                   # level -> bot name
            d["clock"] = DEFAULT_CLOCK.get(info.id, BOARD_CLOCK)  # a table that names none
            d["export"] = exports.native_format(info.id)
            d["formats"] = exports.formats(info.id)
            d["lobby_options"] = LOBBY_ONE_GAME.get(info.id, {})   # what a lobby table sets
            d["match_options"] = list(LOBBY_MATCH_ONLY.get(info.id, ()))  # not offered there
            d["seats_by_option"] = seats_by_option(info)           # a rule set's own seat counts
            d["clocks"] = suited_clocks(info.id)                   # the presets offered for it
            out.append(d)
        return out

    @app.get("/api/clocks", tags=["lobby"])
    async def clocks() -> dict[str, Any]:
        """The clock presets a table may use (competition.md §4.5)."""
        return CLOCK_PRESETS

    @app.get("/api/tables", tags=["lobby"])
    async def tables(request: Request) -> list[dict[str, Any]]:
        """Open and running tables (of every worker of a cluster). A private table (setting
        ``private``) is listed only to the people seated at it: anyone else finds it by its
        link."""
        here = [t.summary() for t in hub.tables.values()]
        every = here + (await hub.cluster.lobby() if hub.cluster is not None else [])
        if not any(t["settings"].get("private") for t in every):
            return every
        user = await user_of(request)
        return [t for t in every if not t["settings"].get("private")
                or (user is not None and any(s and s.get("user") == user.id for s in t["seats"]))]

    @app.post("/api/tables", tags=["lobby"], status_code=201)
    async def create_table(request: Request, body: NewTable) -> dict[str, Any]:
        """Create a table for any game with any of its options; optionally sit and add bots.
        ``level`` (1-5) names the bots by level instead of ``bot``.
        Errors: bad_options, bad_seats, bad_clock, bad_settings, bad_bot, bad_level."""
        user = await need_user(request)
        table = await hub.create_table(user.id, body.game, body.options, body.settings, body.num_seats)
        try:
            body.bot = level_choice(table.game_id, body)
        except ApiError:
            hub.drop_table(table)
            raise
        offered = seat_bots(settings, table.game_id)
        if body.bots and body.bot is not None and body.bot not in offered:
            hub.drop_table(table)           # refused as a whole: no half-made table stays behind
            raise ApiError(400, "bad_bot", f"unknown bot {body.bot!r}; valid: "
                                           f"{', '.join(offered)}", bot=body.bot, valid=offered)
        why = engine_refusal(settings, table.game, body.bot) if body.bots and body.bot else None
        if why:
            hub.drop_table(table)
            raise ApiError(400, "engine_unfit", why, bot=body.bot)
        try:
            if body.sit:
                table.take_seat(user.id, user.username, body.seat, bot_account=bool(user.bot))
        except ApiError:
            hub.drop_table(table)
            raise
        if body.bots:
            try:
                await conduct.check_bot_game(limits, table, user.id, body.bots)
            except ApiError:
                hub.drop_table(table)
                raise
            for _ in range(min(body.bots, table.num_seats)):
                if table.status == "open" and any(s is None for s in table.seats):
                    table.add_bot(None, body.bot)
        await hub.store.saved(table.gate)
        return table.summary()

    @app.get("/api/tables/{table_id}", tags=["lobby"])
    async def get_table(request: Request, table_id: str) -> dict[str, Any]:
        """The table's summary. 404 ``no_table``: none, or a finished game hidden from the
        viewer (:func:`.records.table_hidden`)."""
        table = hub.get(table_id)
        viewer = await user_of(request)
        if await table_hidden(hub.store, table, viewer.id if viewer else None):
            raise ApiError(404, "no_table", f"no live table {table_id!r}")
        return await conduct.table_summary(hub, app.state.events, viewer, table)

    estimating = asyncio.Semaphore(ESTIMATES_AT_ONCE)

    @app.get("/api/tables/{table_id}/estimate", tags=["lobby"])
    async def table_estimate(request: Request, table_id: str) -> dict[str, Any]:
        """A go table's score estimate of the board as it stands (as OGS gives one on request
        during play): the stones taken as dead, every point's owner (rows as the view's
        ``ownership``), each side's area, the komi and the margin (Black − White − komi), and
        ``moves`` (the moves it is of). Anyone watching may ask; at an event's table only a
        spectator, never a player of it (an analysis aid during a tournament game, which OGS
        too withholds in its tournament games). 409 ``not_playing``: no game in play;
        ``no_estimate``: not a go game; 403 ``estimate_event_player``; 429 ``rate_limited``
        (``Limits.estimate_ip``: a position not estimated yet)."""
        table = hub.get(table_id)
        state = table.runner.state if table.runner is not None else None
        if table.game_id != "go":
            raise ApiError(409, "no_estimate", "only a go game has a score estimate")
        if state is None or table.status != "playing" or state.is_terminal() \
                or state.phase != "play":
            raise ApiError(409, "not_playing", "no game is in play at this table")
        if table.event_id is not None:
            viewer = await user_of(request)
            if viewer is not None and table.seat_of(viewer.id) is not None:
                raise ApiError(403, "estimate_event_player",
                               "a player of an event game has no score estimate during it")
        # one estimate a position, however many ask at once: worked out in a thread on a copy
        # of the state (the game goes on meanwhile), of the moves counted here; a new one
        # counts against the asker's address (Limits.estimate_ip), and at most ESTIMATES_AT_ONCE
        # run at a time, so that many tables' estimates neither take the cores nor the threads
        # other requests work in
        key = (len(state.log), state.board.hash)
        job = getattr(table, "_estimate", None)
        if job is None or job[0] != key:
            wait = await app.state.limits.hit("estimate_ip", client_key(request))
            if wait:
                raise ApiError(429, "rate_limited", "too many score estimates asked for; slow down",
                               retry_after=retry_after(wait))
            snap, moves = state.clone(), len(state.moves)

            async def work() -> dict[str, Any]:
                async with estimating:
                    return await asyncio.to_thread(lambda: {**snap.estimate(), "moves": moves})
            job = (key, asyncio.ensure_future(work()))
            table._estimate = job
        return await asyncio.shield(job[1])

    @app.post("/api/tables/{table_id}/sit", tags=["lobby"])
    async def sit(request: Request, table_id: str, body: SeatRequest | None = None) -> dict[str, Any]:
        """Take a seat (the first free one unless ``seat`` is given). The game starts when full."""
        user = await need_user(request)
        table = hub.get(table_id)
        table.take_seat(user.id, user.username, body.seat if body else None, bot_account=bool(user.bot))
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
        await conduct.check_bot_game(limits, table, user.id, 1)
        table.add_bot(body.seat if body else None, level_choice(table.game_id, body))
        await hub.store.saved(table.gate)
        return table.summary()

    @app.post("/api/tables/{table_id}/fill", tags=["lobby"])
    async def fill(request: Request, table_id: str, body: SeatRequest | None = None) -> dict[str, Any]:
        """Fill every empty seat with bots (which starts the game)."""
        user, table = await table_helper(request, table_id)
        await conduct.check_bot_game(limits, table, user.id, table.num_seats)
        table.fill_bots(level_choice(table.game_id, body))
        await hub.store.saved(table.gate)
        return table.summary()

    add_record_routes(app, store, user_of, lambda user: conduct.RoundHold(hub, app.state.events, user))
    add_profile_routes(app, store, user_of, need_user)

    # ----- events ------------------------------------------------------------------------------
    from .events import add_event_routes

    app.state.events = add_event_routes(app, hub, db, need_user, user_of)
    from .refroutes import add_referee_routes

    app.state.referees = add_referee_routes(app, hub, db, app.state.events, need_user, user_of)
    add_event_chat_routes(app, hub, need_user, user_of)
    add_report_routes(app, hub, need_user)
    add_mute_routes(app, hub, need_user)
    add_rematch_routes(app, hub, need_user)
    add_code_routes(app, hub, need_user)

    add_table_socket(app, hub, user_of, sessions, limits)
    add_bot_api(app, hub, need_user, sessions.drop_user)
    add_seek_routes(app, hub, user_of, need_user)      # after the Bot API: its challenges

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
    # the pages' refresh time travels in the shell (web/app.js ``every``)
    shell = (WEB / "index.html").read_text("utf-8").replace(
        "<head>", f'<head>\n<meta name="qipai-poll-ms" content="{settings.page_poll_ms}">', 1)
    app.state.shell = shell          # also a browser's answer to an address no page has (errors.py)

    def page_at(path: str) -> Any:
        """A page's route: GET, and HEAD as well (a link checker's or monitor's request)."""
        return app.api_route(path, methods=["GET", "HEAD"], include_in_schema=False)

    @page_at("/")
    @page_at("/login")
    @page_at("/signup")
    @page_at("/history")
    @page_at("/account/bots")
    @page_at("/events")
    @page_at("/tables/{table_id}")
    @page_at("/records/{record_id}")
    @page_at("/events/{event_id}")
    @page_at("/events/{event_id}/games/{game_id}")
    @page_at("/events/{event_id}/referee")
    @page_at("/u/{username}")
    @page_at("/leaderboard")
    @page_at("/meets/{meet}")
    async def page(request: Request) -> HTMLResponse:
        return HTMLResponse(shell)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(WEB / "favicon.svg", media_type="image/svg+xml")

    return app
