"""Accounts and sessions: argon2 password hashes, random session tokens in an HttpOnly cookie.

The cookie holds 32 random bytes (URL-safe base64); the ``sessions`` table holds only their
SHA-256, so a leaked database does not leak live sessions. Cookies are ``HttpOnly``,
``SameSite=Lax`` and ``Secure`` whenever the request came over HTTPS (a plain
``http://127.0.0.1`` server cannot set a Secure cookie).
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import time
import unicodedata

from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from .errors import ApiError
from .models import KnownAddressRow, SessionRow, UserRow, now_iso

COOKIE = "qipai_session"
SESSION_SECONDS = 30 * 24 * 3600
USERNAME = re.compile(r"[A-Za-z0-9_\-\u4e00-\u9fff]{2,32}")   # the whole name (fullmatch)
MIN_PASSWORD, MAX_PASSWORD = 8, 200
MAX_USERNAME = 32



def _password_hasher() -> PasswordHasher:
    """argon2id with RFC 9106's low-memory profile (3 passes over 64 MiB, 4 lanes: about 0.1 s
    of CPU per hash or check).

    Test hook: ``QIPAI_PASSWORD_HASH=cheapest`` in the environment hashes new passwords with
    argon2-cffi's cheapest parameters (1 pass over 8 KiB), for test suites that sign thousands of
    accounts up; never set it on a server people use. A hash holds its own parameters, so either
    kind of hash is checked whatever the setting."""
    if os.environ.get("QIPAI_PASSWORD_HASH") == "cheapest":
        return PasswordHasher.from_parameters(profiles.CHEAPEST)
    return PasswordHasher.from_parameters(profiles.RFC_9106_LOW_MEMORY)


_hasher = _password_hasher()


def hash_password(password: str) -> str:
    """An argon2id hash (with its own salt and parameters) of ``password``."""
    return _hasher.hash(password)


def check_password(hashed: str, password: str) -> bool:
    try:
        return _hasher.verify(hashed, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def token_hash(token: str) -> str:
    """The SHA-256 (hex) of a session token: what the database and live sockets keep."""
    return hashlib.sha256(token.encode()).hexdigest()


def username_key(name: str) -> str:
    """The key that makes usernames unique: NFKC-normalized, stripped, case-folded
    (``"ALICE"``, ``"Alice"`` and ``"ａｌｉｃｅ"`` all give ``"alice"``). Two accounts never share a
    key (``users.username_key``), and sign-in finds the account by it."""
    return unicodedata.normalize("NFKC", name).strip().casefold()


def find_user(db: Session, name: str) -> UserRow | None:
    """The account named ``name``: the one with exactly that username, else the one with its
    :func:`username_key` (so ``ALICE`` signs in as ``alice``)."""
    return (db.scalar(select(UserRow).where(UserRow.username == name))
            or db.scalar(select(UserRow).where(UserRow.username_key == username_key(name))))


def check_username_length(username: str) -> None:
    """Raise :class:`ApiError` (400 ``username_too_long``) for a name longer than any account's
    (:data:`MAX_USERNAME` characters), with its length in ``length`` and the limit in ``max``."""
    if isinstance(username, str) and len(username) > MAX_USERNAME:
        raise ApiError(400, "username_too_long", f"a username has at most {MAX_USERNAME} characters; "
                       f"this one has {len(username)}", length=len(username), max=MAX_USERNAME)


#: keys (:func:`username_key`) no new account takes: the words that name a bot, a referee, the
#: site or its staff in either language, so nobody passes for one at a table or in a chat
RESERVED_KEYS = frozenset({
    "bot", "robot", "ai", "机器人", "人工智能", "referee", "arbiter", "裁判", "裁判员", "admin",
    "administrator", "管理员", "moderator", "system", "系统", "organizer", "组织者", "主办方",
    "qipai", "棋牌", "server", "服务器", "engine", "引擎", "official", "官方"})


#: Latin words no ordinary name begins with: a name whose first word starts with one is refused
#: (``RefereeBob``, ``administrator2``, ``robotics``); the other Latin words (``bot``, ``ai``,
#: ``engine``, ``official``) begin ordinary names (``botanist``, ``aimee``, ``engineer``), so
#: only they themselves are refused as a first word
PREFIX_WORDS = ("referee", "arbiter", "admin", "moderator", "system", "organizer", "qipai", "server",
                "robot")
#: digits written for the letters they look like (``b0t``, ``adm1n``, ``r3feree``)
LOOKALIKE_DIGITS = str.maketrans("013457", "oieast")


def reserved_username(username: str) -> bool:
    """Whether a new account may not take ``username``: it passes for a bot, a referee, the site
    or its staff. Its :func:`username_key` is read twice, as written and with the digits that
    look like letters read as those letters (``b0t`` is ``bot``); each reading, leading ``_`` and
    ``-`` left out, is cut into words at digits, ``_`` and ``-`` (a name starting with a digit has
    no first word: ``841``, ``1bot``). The name is refused when, in either reading,

    * the first word is a reserved word (:data:`RESERVED_KEYS`): ``bot1``, ``bot_``, ``b0t``,
      ``Referee2``, ``referee_``, ``admin1``, ``qipai_official``, ``engine_fsf``, ``机器人1``;
    * the first word starts with a reserved word written in Chinese characters (``系统管理``,
      ``裁判长``: Chinese words are not cut by spaces, a name is read from its start);
    * the first word starts with one of :data:`PREFIX_WORDS`, the Latin words no ordinary name
      starts with (``refereebob``, ``administrator``, ``systemx``).

    So ``botanist``, ``bottle``, ``aimee``, ``robert``, ``engineer`` and ``bob_the_bot`` (a
    reserved word after the first) are allowed. Existing accounts keep their names: only sign-up
    and new bot accounts ask."""
    key = username_key(username)
    for reading in (key, key.translate(LOOKALIKE_DIGITS)):
        first = re.split(r"[\d_\-]+", reading.lstrip("_-"))[0]     # "" for a name that starts with digits
        if first in RESERVED_KEYS or reading in RESERVED_KEYS:
            return True
        if any(first.startswith(w) for w in RESERVED_KEYS if not w.isascii()):
            return True
        if first.startswith(PREFIX_WORDS):
            return True
    return False


def validate_new_account(username: str, password: str) -> None:
    """Raise :class:`ApiError` (400) when the username or password is not acceptable: the name
    must match :data:`USERNAME` in full (no trailing newline, no lookalike letters of other
    scripts or widths)."""
    check_username_length(username)
    if not isinstance(username, str) or not USERNAME.fullmatch(username):
        raise ApiError(400, "bad_username", "a username has 2 to 32 letters (Chinese too), digits, _ or -")
    if reserved_username(username):
        raise ApiError(400, "reserved_username", f"{username!r} names a bot, a referee or the site; "
                       "choose another name", username=username)
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ApiError(400, "bad_password", f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters",
                       min=MIN_PASSWORD, max=MAX_PASSWORD)


def new_token() -> str:
    """A new session token (what the cookie holds)."""
    return secrets.token_urlsafe(32)


def new_session(db: Session, user: UserRow, token: str | None = None) -> str:
    """Create a session for ``user``; returns the token for the cookie. ``token``: one chosen
    before (:func:`new_token`), so that a write run again after its commit went through unanswered
    (:meth:`.store.Store.call`) finds the session it made instead of making a second one."""
    token = token or new_token()
    if db.get(SessionRow, token_hash(token)) is None:
        db.add(SessionRow(token_hash=token_hash(token), user_id=user.id,
                          expires=int(time.time()) + SESSION_SECONDS))
    return token


def session_user(db: Session, token: str | None) -> UserRow | None:
    """The user of a live session token, or None."""
    if not token or len(token) > 200:
        return None
    row = db.get(SessionRow, token_hash(token))
    if row is None:
        return None
    if row.expires < time.time():
        db.delete(row)
        return None
    return db.get(UserRow, row.user_id)


class SessionCache:
    """Recently checked session tokens (token -> user or None) for ``ttl`` seconds, so each
    request and socket does not query the database. Signing out drops the entry and marks the
    token ended for ``ttl`` seconds: a lookup that read the session before the sign-out and
    stores its answer afterwards stores "signed out" instead. Entries are kept by the token's
    SHA-256 (:func:`token_hash`), which is what another worker of a cluster announces when a
    session ends there (:meth:`drop_hash`); a change of an account (the bot mark, a role) drops
    its sessions (:meth:`drop_user`), on every worker of a cluster at once."""

    def __init__(self, ttl: float = 30.0, size: int = 50_000) -> None:
        self.ttl = ttl
        self.size = size
        self._d: dict[str, tuple[float, UserRow | None]] = {}
        self._ended: dict[str, float] = {}

    def get(self, token: str) -> tuple[bool, UserRow | None]:
        hit = self._d.get(token_hash(token))
        if hit is None or hit[0] < time.monotonic():
            return False, None
        return True, hit[1]

    def put(self, token: str, user: UserRow | None) -> None:
        now = time.monotonic()
        if len(self._d) >= self.size:
            self._d.clear()
        key = token_hash(token)
        if self._ended.get(key, 0.0) >= now:
            user = None
        self._d[key] = (now + self.ttl, user)

    def ended(self, token: str) -> bool:
        """True when ``token`` was signed out in the last ``ttl`` seconds."""
        return self._ended.get(token_hash(token), 0.0) >= time.monotonic()

    def drop(self, token: str | None) -> None:
        """The session of ``token`` ended (signed out)."""
        if token:
            self.drop_hash(token_hash(token))

    def drop_user(self, user_id: int) -> None:
        """Forget every cached session of the account ``user_id`` (it changed: the next request
        reads it again). A scan of the cache: accounts change rarely."""
        for key in [k for k, (_, u) in self._d.items() if u is not None and u.id == user_id]:
            self._d.pop(key, None)

    def drop_hash(self, key: str) -> None:
        """The session whose token has the SHA-256 ``key`` ended."""
        now = time.monotonic()
        self._d.pop(key, None)
        if len(self._ended) >= self.size:
            self._ended = {t: until for t, until in self._ended.items() if until >= now}
        self._ended[key] = now + self.ttl


KNOWN_ADDRESSES = 20          # per account: the most recently used are kept


def _address_hash(user_id: int, address: str) -> str:
    return hashlib.sha256(f"{user_id}:{address}".encode()).hexdigest()


def known_address(db: Session, user_id: int, address: str) -> bool:
    """Whether the account has signed in (or up) from ``address`` before."""
    return db.get(KnownAddressRow, (user_id, _address_hash(user_id, address))) is not None


def remember_address(db: Session, user_id: int, address: str) -> None:
    """Note a successful sign-in (or sign-up) of the account from ``address``; only the
    :data:`KNOWN_ADDRESSES` most recent addresses of an account are kept."""
    key = (user_id, _address_hash(user_id, address))
    row = db.get(KnownAddressRow, key)
    if row is not None:
        row.last_seen = now_iso()
        return
    db.add(KnownAddressRow(user_id=user_id, address_hash=key[1], last_seen=now_iso()))
    db.flush()
    keep = select(KnownAddressRow.address_hash).where(KnownAddressRow.user_id == user_id).order_by(
        KnownAddressRow.last_seen.desc()).limit(KNOWN_ADDRESSES)
    db.execute(delete(KnownAddressRow).where(KnownAddressRow.user_id == user_id,
                                             KnownAddressRow.address_hash.not_in(keep)))


def end_session(db: Session, token: str | None) -> None:
    if token:
        row = db.get(SessionRow, token_hash(token))
        if row is not None:
            db.delete(row)


_DUMMY = hash_password("not a real password")
