"""Bot accounts and API tokens (docs/server.md, "Bot API").

* A **bot account** (``users.bot``) plays through the Bot API and is marked as a bot wherever it
  sits. An account becomes one when its owner marks it (once, for good), or is created as one by
  a person (``users.owner_id``), who then manages its tokens; a created bot has no password and
  cannot sign in with a browser.
* An **API token** belongs to one account and is made by that account or by the owner of the
  bot account. The secret (``qpt_`` and 43 URL-safe characters, 256 random bits) is shown once,
  in the answer that made it; the database keeps its SHA-256 only (``api_tokens.token_hash``).
  A token carries scopes (:data:`SCOPES`) and is revoked by its maker or its account: from then
  on every request with it is refused (401 ``token_revoked``) and its open streams end.

Managing bots and tokens needs a signed-in browser session (a cookie): a token cannot make
more tokens. The routes are under ``/api/account/``.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request
from pydantic import Field
from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from qipai.competition.db import lock_row

from . import auth
from .bodies import Body
from .errors import ApiError
from .models import TokenRow, UserRow, now_iso, row_by_id
from .plaintext import Plain
from .store import again

#: what a token may do: ``bot:play`` — a bot account plays (event and game streams, moves,
#: resignation, draws, answering challenges, seeking tables); ``board:play`` — the same for a
#: person's own account; ``challenge:write`` — challenge other accounts
SCOPES = ("bot:play", "board:play", "challenge:write")
PLAY_SCOPES = frozenset({"bot:play", "board:play"})
PREFIX = "qpt_"
MAX_TOKENS = 20          # live tokens per account
MAX_BOTS = 10            # bot accounts a person may create
MAX_DESCRIPTION = 100


def token_hash(secret: str) -> str:
    """The SHA-256 (hex) of a token's secret: what the database keeps."""
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class TokenUser:
    """The account a request's token acts for: ``token_id``, ``hash`` (of the secret),
    ``user_id``, ``username``, ``bot`` (a bot account) and the token's ``scopes``."""

    token_id: int
    hash: str
    user_id: int
    username: str
    bot: bool
    scopes: frozenset[str]

    def need(self, *any_of: str) -> None:
        """Raise 403 ``missing_scope`` unless the token has one of ``any_of``."""
        if not self.scopes.intersection(any_of):
            raise ApiError(403, "missing_scope", f"this token lacks the scope {' or '.join(any_of)}",
                           scope=" | ".join(any_of))


class TokenCache:
    """Checked tokens (hash -> :class:`TokenUser`, or the refusal code) for ``ttl`` seconds.
    Revoking drops the entry at once (on every worker of a cluster: :func:`.botapi.add_bot_api`)."""

    def __init__(self, ttl: float = 30.0, size: int = 20_000) -> None:
        self.ttl, self.size = ttl, size
        self._d: dict[str, tuple[float, TokenUser | str]] = {}

    def get(self, h: str) -> TokenUser | str | None:
        hit = self._d.get(h)
        return hit[1] if hit is not None and hit[0] >= time.monotonic() else None

    def put(self, h: str, value: TokenUser | str) -> None:
        if len(self._d) >= self.size:
            self._d.clear()
        self._d[h] = (time.monotonic() + self.ttl, value)

    def drop(self, h: str) -> None:
        self._d.pop(h, None)

    def drop_user(self, user_id: int) -> None:
        """Forget the checked tokens of the account ``user_id`` (it changed, e.g. became a bot)."""
        for h in [h for h, (_, v) in self._d.items() if isinstance(v, TokenUser) and v.user_id == user_id]:
            self._d.pop(h, None)


def bearer(request: Request) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None without one."""
    header = request.headers.get("authorization")
    if not header:
        return None
    kind, _, value = header.partition(" ")
    return value.strip() if kind.lower() == "bearer" else ""


def lookup(s: Session, h: str) -> TokenUser | str:
    """The account of the token with secret hash ``h``, or the refusal code (``bad_token``,
    ``token_revoked``)."""
    row = s.scalar(select(TokenRow).where(TokenRow.token_hash == h))
    if row is None:
        return "bad_token"
    if row.revoked is not None:
        return "token_revoked"
    user = s.get(UserRow, row.user_id)
    if user is None:
        return "bad_token"
    return TokenUser(row.id, h, user.id, user.username, bool(user.bot), frozenset(row.scopes.split()))


REFUSALS = {"no_token": "send Authorization: Bearer <token> (an API token made on your account page)",
            "bad_token": "this token is not known",
            "token_revoked": "this token was revoked"}


class NewToken(Body):
    account: str | None = Field(default=None, max_length=64)   # a bot account you own; None: you
    scopes: list[str] = Field(max_length=8)
    description: Plain = Field(default="", max_length=400)


class NewBot(Body):
    username: str = Field(max_length=4000)


def _token_json(row: TokenRow, account: str) -> dict[str, Any]:
    return {"id": row.id, "account": account, "scopes": row.scopes.split(),
            "description": row.description, "created": row.created, "revoked": row.revoked}


def add_token_routes(app: FastAPI, store: Any, need_user: Callable[..., Any], cache: TokenCache,
                     on_revoke: Callable[[str], Awaitable[Any]],
                     on_change: Callable[[int], Awaitable[Any]]) -> None:
    """Add the ``/api/account/...`` routes that manage bot accounts and tokens. ``on_revoke``
    is awaited with a revoked token's hash (its open streams end, on every worker),
    ``on_change`` with the id of an account that changed (every worker reads it again)."""

    def managed(s: Session, me: UserRow) -> list[UserRow]:
        """``me`` and the bot accounts ``me`` created."""
        return [me, *s.scalars(select(UserRow).where(UserRow.owner_id == me.id).order_by(UserRow.id))]

    def overview(s: Session, me: UserRow) -> dict[str, Any]:
        accounts = managed(s, me)
        names = {u.id: u.username for u in accounts}
        rows = s.scalars(select(TokenRow).where(TokenRow.user_id.in_(names), TokenRow.revoked.is_(None))
                         .order_by(TokenRow.id)).all()
        return {"accounts": [{"id": u.id, "username": u.username, "bot": bool(u.bot),
                              "own": u.id == me.id} for u in accounts],
                "tokens": [_token_json(r, names[r.user_id]) for r in rows],
                "scopes": list(SCOPES)}

    @app.get("/api/account/tokens", tags=["bots"])
    async def list_tokens(request: Request) -> dict[str, Any]:
        """Your account and the bot accounts you created (``accounts``), their live tokens
        (``tokens``, never a secret) and the scopes a token may have."""
        me = await need_user(request)
        return await store.call(lambda s: overview(s, s.get(UserRow, me.id)), write=False)

    @app.post("/api/account/bot", tags=["bots"])
    async def become_bot(request: Request) -> dict[str, Any]:
        """Mark your own account as a bot account, for good (409 ``already_bot``). Its
        ``board:play`` tokens are revoked (a bot plays with ``bot:play``)."""
        me = await need_user(request)

        def mark(s: Session) -> list[str]:
            user = s.get(UserRow, me.id)
            if user.bot and again():        # this request's first run was committed unanswered
                return [r.token_hash for r in s.scalars(select(TokenRow).where(
                    TokenRow.user_id == me.id, TokenRow.revoked.is_not(None)))
                    if "board:play" in r.scopes.split()]
            if user.bot:
                raise ApiError(409, "already_bot", "this account is a bot account already")
            user.bot = True
            rows = s.scalars(select(TokenRow).where(TokenRow.user_id == me.id,
                                                    TokenRow.revoked.is_(None))).all()
            gone = []
            for r in rows:
                if "board:play" in r.scopes.split():
                    r.revoked = now_iso()
                    gone.append(r.token_hash)
            return gone
        for h in await store.call(mark):
            cache.drop(h)
            await on_revoke(h)
        me.bot = True
        await on_change(me.id)
        return {"ok": True, "bot": True}

    @app.post("/api/account/bots", tags=["bots"], status_code=201)
    async def create_bot(request: Request, body: NewBot) -> dict[str, Any]:
        """Create a bot account that you manage (no password: it plays with tokens you make).
        Errors: bad_username, username_taken, too_many_bots (at most 10), not_for_bots (a bot
        account cannot create bots)."""
        me = await need_user(request)
        auth.validate_new_account(body.username, "x" * auth.MIN_PASSWORD)
        key = auth.username_key(body.username)

        made: list[int] = []            # the id the first run gave the bot (Store.call's again)

        def create(s: Session) -> dict[str, Any]:
            bot = s.get(UserRow, made[0]) if made and again() else None
            if bot is not None and bot.username_key == key and bot.owner_id == me.id:
                return {"id": bot.id, "username": bot.username, "bot": True, "own": False}
            lock_row(s, UserRow, me.id)         # counted and added in one step (the cap)
            owner = s.get(UserRow, me.id)
            if owner.bot:
                raise ApiError(403, "not_for_bots", "a bot account cannot create bot accounts")
            if s.scalar(select(func.count(UserRow.id)).where(UserRow.owner_id == me.id)) >= MAX_BOTS:
                raise ApiError(409, "too_many_bots", f"an account may create at most {MAX_BOTS} bots",
                               max=MAX_BOTS)
            if s.scalar(select(UserRow.id).where(UserRow.username_key == key)) is not None:
                raise ApiError(409, "username_taken", f"the username {body.username!r} is taken",
                               username=body.username)
            # "!" is no argon2 hash: no password ever matches it (auth.check_password)
            bot = UserRow(username=body.username, username_key=key, password_hash="!", role="player",
                          bot=True, owner_id=me.id)
            s.add(bot)
            s.flush()
            made[:] = [bot.id]
            return {"id": bot.id, "username": bot.username, "bot": True, "own": False}
        return await store.call(create)

    @app.post("/api/account/tokens", tags=["bots"], status_code=201)
    async def create_token(request: Request, body: NewToken) -> dict[str, Any]:
        """Make a token for your account or a bot account you created. The answer's ``token``
        is the secret, shown this once. Errors: bad_scope (unknown; ``bot:play`` on a person's
        account, ``board:play`` on a bot's), no_user, not_your_bot, too_many_tokens (20 live)."""
        me = await need_user(request)
        scopes = list(dict.fromkeys(body.scopes))
        bad = [x for x in scopes if x not in SCOPES]
        if bad or not scopes:
            raise ApiError(400, "bad_scope", f"scopes are {', '.join(SCOPES)}",
                           scope=", ".join(bad), valid=", ".join(SCOPES))
        description = " ".join(body.description.split())[:MAX_DESCRIPTION]
        secret = PREFIX + secrets.token_urlsafe(32)

        def create(s: Session) -> dict[str, Any]:
            owner = s.get(UserRow, me.id)
            made = s.scalar(select(TokenRow).where(TokenRow.token_hash == token_hash(secret))) \
                if again() else None        # this request's first run, committed unanswered
            if made is not None:
                return {**_token_json(made, s.get(UserRow, made.user_id).username), "token": secret}
            if body.account is None:
                account = owner
            else:
                account = auth.find_user(s, body.account)
                if account is None:
                    raise ApiError(404, "no_user", f"no account {body.account!r}", username=body.account)
                if account.id != owner.id and account.owner_id != owner.id:
                    raise ApiError(403, "not_your_bot", "you may make tokens for your own account and "
                                                        "the bot accounts you created")
            if "bot:play" in scopes and not account.bot:
                raise ApiError(400, "bad_scope", "bot:play is for bot accounts (mark the account as a "
                                                 "bot first)", scope="bot:play", valid=", ".join(SCOPES))
            if "board:play" in scopes and account.bot:
                raise ApiError(400, "bad_scope", "board:play is for a person's account; a bot uses "
                                                 "bot:play", scope="board:play", valid=", ".join(SCOPES))
            lock_row(s, UserRow, account.id)    # counted and added in one step (the cap)
            live = s.scalar(select(func.count(TokenRow.id)).where(TokenRow.user_id == account.id,
                                                                  TokenRow.revoked.is_(None)))
            if live >= MAX_TOKENS:
                raise ApiError(409, "too_many_tokens", f"an account has at most {MAX_TOKENS} live tokens",
                               max=MAX_TOKENS)
            row = TokenRow(user_id=account.id, created_by=owner.id, token_hash=token_hash(secret),
                           scopes=" ".join(scopes), description=description)
            s.add(row)
            s.flush()
            return {**_token_json(row, account.username), "token": secret}
        return await store.call(create)

    @app.delete("/api/account/tokens/{token_id}", tags=["bots"])
    async def revoke_token(request: Request, token_id: int) -> dict[str, Any]:
        """Revoke a token of your account or of a bot account you created (404 ``no_such_token``
        for any other): every request with it is refused from now on and its streams end."""
        me = await need_user(request)

        def revoke(s: Session) -> str:
            row = row_by_id(s, TokenRow, token_id)
            owners = select(UserRow.id).where(or_(UserRow.id == me.id, UserRow.owner_id == me.id))
            if row is None or row.user_id not in set(s.scalars(owners)):
                raise ApiError(404, "no_such_token", f"no token {token_id} of yours", id=token_id)
            if row.revoked is None:
                row.revoked = now_iso()
            return row.token_hash
        h = await store.call(revoke)
        cache.drop(h)
        await on_revoke(h)
        return {"ok": True, "id": token_id}
