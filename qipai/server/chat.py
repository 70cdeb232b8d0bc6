"""Chat at tables and with an event's referees (competition.md §5.8).

Two kinds of channel, both stored in the ``chat`` table (:class:`~.models.ChatRow`):

* **a table** (``table:<id>``), over the table's WebSocket: ``{"type": "chat", "text": ...}``
  from a signed-in player or spectator. A client gets the chat as it may have it in ``hello``
  (``chat``: ``lines`` it may read, ``open``: whether it may write, and if not, ``reason``),
  again as a ``chat_history`` message when that changes (the game starts or ends), and
  ``chat`` (``line``) for each new line it may read.
* **an event** (``event:<id>``), over HTTP (``GET``/``POST /api/events/{id}/chat``): a player
  writes to the referees (the organizers and the accounts appointed to the event); the line is
  read by its writer and the referees; a referee's line is read by everyone.

Who reads and writes what at a table (§5.8: no signals between partners, no free chat at a
competition table, referees at all times):

* an **event table while its game is on** (from the commitment to the result): only referees
  write, and everyone reads them; players and spectators are refused ``chat_closed``;
* a **partnership game while it is on** (§5.8: no signals between partners): its players are
  refused ``chat_closed``; spectators write as below;
* a **lobby table while its game is on**: players write to everyone; a spectator's line is read
  by the spectators, and by the players once the game is over (as lichess keeps a spectators'
  room), so nobody at the board is told moves;
* **otherwise** (before the game, after it): everyone signed in writes to everyone.

A line is plain text: whitespace runs (newlines, tabs) become one space, the text is NFC
normalised, at most :data:`MAX_CHARS` characters, and may hold no control character nor
direction override (which could make a line read as another's). Clients render it as text,
never as markup. Each account may write :data:`Limits.chat_account` lines (burst, then rate).
Refusals (WebSocket ``error`` or HTTP body): ``bad_message`` (no ``text`` string),
``chat_empty``, ``chat_too_long`` (with ``max`` and ``length``), ``chat_bad_text``,
``chat_closed`` (with ``reason``: ``event_play``, ``partners_play``), ``not_signed_in``,
``rate_limited`` (with
``retry_after``), ``storage_unavailable``, and the spam filter's and the moderators' below.

**Spam filter** (the lines of every account, referees and admins too, at tables and in event
chats): a line the same as :data:`REPEAT_MAX` lines the account wrote in the last
:data:`REPEAT_WINDOW_S` seconds (as :func:`folded` reads them) is refused ``chat_repeated``
(with ``retry_after``, seconds until it would be taken), counted for the whole cluster
(:class:`Repeats`, in Redis beside the rate limits: a line written through one worker counts at
every other); a
line holding a link (a scheme ``x://``, ``www.``, or a name ending in a common top-level
domain, :data:`LINK`, in the :func:`folded` line) is refused ``chat_link``, whoever writes it
and however old the account: as the Chinese card rooms do, chat carries no links at all (the
simplest rule to state, and no account age to game).

**Mutes** (a moderator's chat timeout): ``POST /api/chat/mutes`` ``{"user", "minutes",
"reason", "event"}`` silences account ``user``'s chat for ``minutes`` (1 to a week; 0 lifts
the mute in force) — with ``event``, at that event's tables and in its chat, by one of its
referees (recorded in the event's log of referee acts as ``chat_mute``, by the same
transaction); without it, everywhere, by an organizer (the site's admins). The muted person's
lines are refused ``chat_muted`` with ``until`` (ISO time, UTC) and ``mute_reason``, which the
page words in its language and time zone; their chat is shown closed from the start (``open``
false, ``reason`` ``muted`` with ``until`` and ``mute_reason``: :func:`mute_closed`).
``GET /api/chat/mutes`` (``?event=``) lists the mutes in force.

A table line is written through the table's ordered writer and sent only once committed; the
last :data:`HISTORY` lines of each live table are kept in memory (loaded again at a restart).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import secrets
import time
import unicodedata
from collections import deque
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from pydantic import Field
from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from qipai import i18n
from qipai.competition.db import EventRow

from .bodies import Body
from .commit import stored_alike
from .conns import encode
from .errors import ApiError, ws_error
from .models import MAX_ROW_ID, ChatMuteRow, ChatReportRow, ChatRow, TableRow, now_iso
from .plaintext import unsafe
from .ratelimit import retry_after
from .store import Call, again

if TYPE_CHECKING:
    from .conns import Conn
    from .hub import Hub
    from .tables import LiveTable

#: the longest line, in characters (Unicode code points) after cleaning
MAX_CHARS = 300
#: lines of a channel kept and sent to a client that connects
HISTORY = 100
#: a line the same as this many of its writer's lines of the last REPEAT_WINDOW_S s is refused
REPEAT_MAX = 2
REPEAT_WINDOW_S = 60.0
#: a link: a scheme (``http://``), ``www.``, or a host name ending in a common top-level domain
LINK = re.compile(
    r"[a-z][a-z0-9+.-]*://|(?<![a-z0-9])www\.|[a-z0-9-]\.(?:com|net|org|cn|io|ru|xyz|top|me|cc|info|co|gg|tk|ly|to|"
    r"link|site|online|club|app|dev|biz|us|uk|de|tv|vip|shop|fun|live|icu|win)(?![a-z0-9-])", re.IGNORECASE)
#: the longest mute, in minutes (a week)
MUTE_MAX_MIN = 7 * 24 * 60

log = logging.getLogger(__name__)


def folded(text: str) -> str:
    """The form of a line the spam filter compares (links and repeats): compatibility forms
    folded (NFKD: full-width letters and dots as ASCII ones), marks and invisible characters
    (zero-width spaces and joiners, soft hyphens: categories Mn and Cf) dropped, the ideographic
    full stop read as a dot, case folded, whitespace runs as one space; so that a link or a
    repeated line is not passed by a variation the reader does not see."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Mn", "Cf"))
    return " ".join(text.replace("\u3002", ".").casefold().split())


class ChatRefused(Exception):
    """A line refused: ``code`` (machine-readable), ``message``, ``extra`` fields."""

    def __init__(self, code: str, message: str, status: int = 400, **extra: Any) -> None:
        super().__init__(message)
        self.code, self.message, self.status, self.extra = code, message, status, extra

    def ws(self) -> dict[str, Any]:
        return ws_error(self.code, self.message, **self.extra)

    def api(self) -> ApiError:
        return ApiError(self.status, self.code, self.message, **self.extra)


def clean(text: Any) -> str:
    """The line to store for ``text``: NFC, whitespace runs as one space, trimmed. Raises
    :class:`ChatRefused` (``bad_message``, ``chat_empty``, ``chat_bad_text``, ``chat_too_long``)."""
    if not isinstance(text, str):
        raise ChatRefused("bad_message", "a chat message needs a 'text' string")
    text = " ".join(unicodedata.normalize("NFC", text).split())
    if unsafe(text):
        raise ChatRefused("chat_bad_text", "a chat line may not hold control characters or "
                                           "direction overrides")
    if not text or not folded(text):          # nothing to see: zero-width characters alone
        raise ChatRefused("chat_empty", "the chat line is empty")
    if len(text) > MAX_CHARS:
        raise ChatRefused("chat_too_long", f"a chat line is at most {MAX_CHARS} characters",
                          max=MAX_CHARS, length=len(text))
    return text


class Repeats:
    """The lines each account wrote lately, for the spam filter's repeats: a digest of each
    line's :func:`folded` form and when it was written. One process counts them in memory; a
    cluster (:meth:`share`) keeps each account's lines in Redis too, so that a line written
    through one worker counts at every other (a person repeating a line once per worker is
    refused as on one). The synchronous check (:meth:`wait`) reads this process's memory, which
    :meth:`fetch` fills from Redis before a line is screened, and :meth:`flush` sends the lines
    :meth:`add` took after it is taken. While Redis cannot be reached, each worker counts its
    own."""

    #: lines of an account remembered (more than REPEAT_MAX of a line within the window)
    KEEP = 32

    def __init__(self) -> None:
        self.seen: dict[int, deque[tuple[float, str]]] = {}
        self.clock: Any = time.monotonic
        self.redis: Any = None
        self.prefix = ""
        self._pending: list[tuple[int, float, str]] = []

    def share(self, redis: Any, prefix: str) -> None:
        """Keep the lines in Redis under ``prefix`` + account id, for every worker of a cluster
        (the times are then wall-clock times, the same on every worker)."""
        self.redis, self.prefix, self.clock = redis, prefix, time.time

    @staticmethod
    def digest(text: str) -> str:
        """What is kept of a line: a digest of its folded form (never the line itself)."""
        return hashlib.sha256(folded(text).encode()).hexdigest()[:24]

    def wait(self, user_id: int, text: str, now: float | None = None) -> float:
        """Seconds until ``user_id`` may write ``text`` again (0: now)."""
        now = self.clock() if now is None else now
        q = self.seen.get(user_id)
        if not q:
            return 0.0
        while q and now - q[0][0] >= REPEAT_WINDOW_S:
            q.popleft()
        if not q:
            del self.seen[user_id]
            return 0.0
        key = self.digest(text)
        same = [at for at, x in q if x == key]
        if len(same) < REPEAT_MAX:
            return 0.0
        return max(0.001, REPEAT_WINDOW_S - (now - same[len(same) - REPEAT_MAX]))

    def add(self, user_id: int, text: str, now: float | None = None) -> None:
        at, key = self.clock() if now is None else now, self.digest(text)
        self.seen.setdefault(user_id, deque(maxlen=self.KEEP)).append((at, key))
        if self.redis is not None:
            self._pending.append((user_id, at, key))

    async def fetch(self, user_id: int) -> None:
        """In a cluster, read ``user_id``'s lines of every worker from Redis into this process's
        memory (with the lines taken here and not yet sent)."""
        if self.redis is None:
            return
        from redis.exceptions import RedisError

        try:
            items = await self.redis.lrange(self.prefix + str(user_id), 0, -1)
        except RedisError as e:
            log.warning("chat repeats: Redis unreachable, this worker's count only: %s", e)
            return
        lines = set(self.seen.get(user_id, ()))
        for item in items:
            at, _, key = item.partition(" ")
            lines.add((float(at), key))
        self.seen[user_id] = deque(sorted(lines)[-self.KEEP:], maxlen=self.KEEP)

    async def flush(self) -> None:
        """In a cluster, send the lines :meth:`add` took to Redis (each account's last
        :data:`KEEP`, kept for the window)."""
        if self.redis is None or not self._pending:
            return
        from redis.exceptions import RedisError

        pending, self._pending = self._pending, []
        try:
            async with self.redis.pipeline(transaction=False) as p:
                for user_id, at, key in pending:
                    name = self.prefix + str(user_id)
                    p.rpush(name, f"{at!r} {key}")
                    p.ltrim(name, -self.KEEP, -1)
                    p.pexpire(name, int(REPEAT_WINDOW_S * 1000) + 1000)
                await p.execute()
        except RedisError as e:
            log.warning("chat repeats: Redis unreachable, this worker's count only: %s", e)


def screen(repeats: Repeats, user_id: int, text: str) -> None:
    """The spam filter (see the module docstring): raises :class:`ChatRefused` ``chat_link`` or
    ``chat_repeated``."""
    if LINK.search(folded(text)):
        raise ChatRefused("chat_link", "chat lines may not hold links")
    wait = repeats.wait(user_id, text)
    if wait:
        raise ChatRefused("chat_repeated", "you wrote this line several times already; wait a "
                          "moment or write something else", status=429, retry_after=retry_after(wait))


def mute_in_force(s: Session, user_id: int, event_id: str | None) -> dict[str, str] | None:
    """The mute of ``user_id``'s chat in force at event ``event_id``'s tables and chat (None: a
    lobby table), by a mute of the event or a site-wide one: ``{"until"`` (ISO time, UTC),
    ``"reason"}`` of the one that ends last; None if none is."""
    now = now_iso()
    found = []
    for scope in [None, event_id] if event_id is not None else [None]:
        where = ChatMuteRow.event_id.is_(None) if scope is None else ChatMuteRow.event_id == scope
        row = s.scalars(select(ChatMuteRow).where(ChatMuteRow.user_id == user_id, where)
                        .order_by(ChatMuteRow.id.desc()).limit(1)).first()
        if row is not None and row.until > now:
            found.append({"until": row.until, "reason": row.reason or ""})
    return max(found, key=lambda m: m["until"]) if found else None


async def muted_until(hub: Hub, user_id: int, event_id: str | None) -> dict[str, str] | None:
    """:func:`mute_in_force` read from the store; None while the store is down (the line is
    then refused ``storage_unavailable`` anyway) or the read fails (logged)."""
    if hub.store.down:
        return None
    try:
        return await hub.store.call(lambda s: mute_in_force(s, user_id, event_id), write=False)
    except Exception:
        log.exception("chat: the mutes of account %s could not be read", user_id)
        return None


def muted_refusal(mute: dict[str, str]) -> ChatRefused:
    return ChatRefused("chat_muted", f"a moderator muted your chat until {mute['until']}", status=403,
                       until=mute["until"], mute_reason=mute["reason"])


def mute_closed(mute: dict[str, str] | None) -> dict[str, Any]:
    """What a chat's ``open`` and ``reason`` say of its reader's ``mute`` (from
    :func:`mute_in_force`, read when the socket opened or the event chat was asked): while it is
    in force the chat is closed, ``reason`` ``muted``, with its ``until`` and the moderator's
    ``mute_reason``; else nothing."""
    if mute is None or mute["until"] <= now_iso():
        return {}
    return {"open": False, "reason": "muted", "until": mute["until"], "mute_reason": mute["reason"]}


def quick_phrase(text: Any) -> int | None:
    """N when ``text`` is the quick phrase (快捷语) ``chat.quick.N`` of some language, else None."""
    name = i18n.keys_of_texts("chat.quick").get(text)
    return int(name) if name is not None and name.isdigit() else None


def line_json(row: ChatRow | dict[str, Any]) -> dict[str, Any]:
    """What a client gets of a line: ``name``, ``user`` (account id), ``role``, ``audience``,
    ``text``, ``at`` (ISO time, UTC), and ``phrase`` (N) when the text is the quick phrase
    ``chat.quick.N`` of some language: each reader shows it in their own language."""
    get = row.get if isinstance(row, dict) else (lambda k: getattr(row, k))
    out = {"name": get("name"), "user": get("user_id"), "role": get("role"),
           "audience": get("audience"), "text": get("text"), "at": get("at")}
    phrase = quick_phrase(out["text"])
    if phrase is not None:
        out["phrase"] = phrase
    return out


def _limit(hub: Hub, user_id: int, wait: float = 0.0) -> None:
    """Raise 429 ``rate_limited`` when ``user_id`` writes too many lines: counted by this
    process, and (``wait``, from :meth:`.app.Limiters.hit_shared`) by every worker of a
    cluster."""
    wait = max(wait, hub.chat_limit.hit(str(user_id)))
    if wait:
        raise ChatRefused("rate_limited", "too many chat lines; wait a moment", status=429,
                          retry_after=retry_after(wait))


# ----- tables -----------------------------------------------------------------------------------
def in_play(table: LiveTable) -> bool:
    """The table's game is on: from the commitment (or the deal) until it is over."""
    return table.status == "playing" and not (table.runner is not None and table.runner.state.is_terminal())


#: card games whose partners are found in the deal (the farmers once a landlord is bid, the
#: emperor's guard, the defenders of a 三打一 bid): partnership games from the first card on
DEAL_PARTNERS = frozenset({"doudizhu", "wakeng", "baohuang", "sandayi"})


def partnership(table: LiveTable) -> bool:
    """Whether the table's game has partners: a side of several seats now, or one formed in the deal."""
    if table.game_id in DEAL_PARTNERS:
        return True
    return table.runner is not None and any(len(side) > 1 for side in table.runner.state.sides())


def closed_for(table: LiveTable, conn: Conn, seat: int | None = None) -> str | None:
    """Why ``conn`` (in ``seat``, None: a spectator) may not write at ``table`` now, or None:
    ``event_play`` at an event table while its game is on (not for referees); ``partners_play``
    for a player of a partnership game while it is on (§5.8: no signals between partners; a
    spectator's lines are read by the spectators alone until the end)."""
    if table.event_id is not None and in_play(table) and not conn.referee:
        return "event_play"
    if seat is not None and in_play(table) and partnership(table):
        return "partners_play"
    return None


def readable(table: LiveTable, line: dict[str, Any], seat: int | None) -> bool:
    """Whether a client in ``seat`` (None: spectator) reads ``line`` now."""
    return line["audience"] == "all" or seat is None or not in_play(table)


def history(table: LiveTable, conn: Conn, seat: int | None) -> dict[str, Any]:
    """The chat of ``table`` as ``conn`` in ``seat`` has it: ``lines`` it reads, ``open``
    (whether it may write), ``reason`` when not, ``max`` (characters of a line)."""
    reason = closed_for(table, conn, seat) if conn.user_id is not None else "not_signed_in"
    msg: dict[str, Any] = {"open": reason is None, "max": MAX_CHARS,
                           "lines": [line_json(x) for x in table.chat_lines if readable(table, x, seat)]}
    if reason:
        msg["reason"] = reason
    else:
        msg.update(mute_closed(conn.chat_mute))
    return msg


def sync(table: LiveTable) -> None:
    """The game started or ended: send ``chat_history`` again to each client for whom it
    changed (at an event table, whoever is not a referee may or may no longer write; at a
    lobby table, the players read the spectators' lines once the game is over)."""
    event = table.event_id is not None
    spectators_wrote = any(x["audience"] == "spectators" for x in table.chat_lines)
    partnered = partnership(table)          # its players' chat closes and opens with the game
    # spectators of a hidden game see it late: the chat must not tell them it began or ended
    delay = table.settings.get("spectator_delay_ms", 0) if table.hidden else 0
    for seat, conns in table.conns.items():
        for c in list(conns):
            if ((event and c.user_id is not None and not c.referee) or (seat is not None and spectators_wrote)
                    or (seat is not None and c.user_id is not None and partnered)):
                msg = {"type": "chat_history", **history(table, c, seat)}
                if seat is None and delay:
                    asyncio.get_running_loop().call_later(delay / 1000, c.put_json, msg)
                else:
                    c.put_json(msg)


def insert_lines(s: Session, lines: list[dict[str, Any]]) -> None:
    """The store's write of chat lines (columns of :class:`~.models.ChatRow`, each with its
    ``line_key``, :func:`new_line`). Run again after its commit went through (its answer lost,
    :class:`.commit.Call`), the lines stored already with the same key and content are not
    stored again."""
    done = stored_alike(s, ChatRow.__table__, "line_key", lines)
    new = [x for x in lines if x.get("line_key") not in done]
    if new:
        s.execute(insert(ChatRow), new)


def new_line(channel: str, user_id: int, name: str, role: str, audience: str, text: str) -> dict[str, Any]:
    """A chat line to write (the columns of :class:`~.models.ChatRow`), with its own random
    ``line_key``: :func:`insert_lines` run twice stores it once."""
    return {"channel": channel, "user_id": user_id, "name": name, "role": role, "audience": audience,
            "text": text, "at": now_iso(), "line_key": secrets.token_hex(16)}


def say(table: LiveTable, conn: Conn, seat: int | None, msg: dict[str, Any]) -> None:
    """A ``chat`` message from ``conn`` (see the module docstring); refusals go to ``conn``."""
    try:
        if conn.user_id is None:
            raise ChatRefused("not_signed_in", "sign in to chat", status=401)
        reason = closed_for(table, conn, seat)
        if reason:
            raise ChatRefused("chat_closed", "chat is off at an event table, and for the players of a "
                              "partnership game, while its game is played (competition.md §5.8)",
                              status=403, reason=reason)
        text = clean(msg.get("text"))
        if table.hub.store.down:
            raise ChatRefused("storage_unavailable", "the server cannot save data right now",
                              status=503)
        screen(table.hub.chat_repeats, conn.user_id, text)
        _limit(table.hub, conn.user_id)
    except ChatRefused as e:
        conn.put_now(e.ws())
        return
    table.hub.chat_repeats.add(conn.user_id, text)
    if conn.referee and table.event_id is not None:
        role = "referee"
    else:
        role = "player" if seat is not None else "spectator"
    audience = "spectators" if role == "spectator" and in_play(table) else "all"
    line = new_line(f"table:{table.id}", conn.user_id, conn.name or "?", role, audience, text)
    table.hub.store.append(table.gate, Call(insert_lines, [line]))
    table.chat_lines.append(line)
    out: str | None = None
    for s, conns in table.conns.items():
        if conns and readable(table, line, s):
            out = out or encode({"type": "chat", "line": line_json(line)})
            for c in list(conns):
                c.put(out)


def load_tables(s: Session, table_ids: list[str]) -> dict[str, deque[dict[str, Any]]]:
    """The last :data:`HISTORY` lines of each table in ``table_ids`` (at a restart)."""
    out: dict[str, deque[dict[str, Any]]] = {}
    for tid in table_ids:
        rows = s.scalars(select(ChatRow).where(ChatRow.channel == f"table:{tid}")
                         .order_by(ChatRow.id.desc()).limit(HISTORY)).all()
        if rows:
            out[tid] = deque(({"channel": r.channel, "user_id": r.user_id, "name": r.name,
                               "role": r.role, "audience": r.audience, "text": r.text, "at": r.at}
                              for r in reversed(rows)), maxlen=HISTORY)
    return out


# ----- events -----------------------------------------------------------------------------------
async def is_referee(hub: Hub, event_id: str | None, user: Any) -> bool:
    """Whether ``user`` referees event ``event_id``: an organizer who does not play in it, or an
    account appointed to that event (:func:`.appointments.referees`)."""
    from .appointments import referees

    if user is None:
        return False
    return await hub.store.call(lambda s: referees(s, event_id, user), write=False)


async def chat_standing(hub: Hub, event_id: str | None, user: Any) -> tuple[bool, dict[str, str] | None]:
    """What a table socket opening for ``user`` is told of its chat: whether it referees event
    ``event_id`` (:func:`is_referee`) and the mute in force there (:func:`mute_in_force`), in
    one read of the store (a signed-in socket's open made one read before mutes were shown)."""
    from .appointments import referees

    if user is None:
        return False, None
    if hub.store.down:
        return await is_referee(hub, event_id, user), None
    return await hub.store.call(lambda s: (referees(s, event_id, user), mute_in_force(s, user.id, event_id)),
                                write=False)


class ChatText(Body):
    text: Any = None


def add_event_chat_routes(app: FastAPI, hub: Hub, need_user: Any, user_of: Any) -> None:
    """``GET`` and ``POST /api/events/{event_id}/chat`` (see the module docstring)."""

    async def check_event(event_id: str) -> None:
        if await hub.store.call(lambda s: s.get(EventRow, event_id) is None, write=False):
            raise ApiError(404, "no_event", f"no event {event_id!r}")

    @app.get("/api/events/{event_id}/chat", tags=["events"])
    async def event_chat(request: Request, event_id: str) -> dict[str, Any]:
        """The event's chat lines the caller may read (the referees' lines, and the caller's
        own to the referees; a referee reads every line), oldest first: ``{"lines", "open",
        "referee", "max"}``."""
        await check_event(event_id)
        user = await user_of(request)
        referee = await is_referee(hub, event_id, user)

        def read(s: Session) -> list[dict[str, Any]]:
            q = select(ChatRow).where(ChatRow.channel == f"event:{event_id}")
            if not referee:
                mine = ChatRow.user_id == user.id if user else False
                q = q.where((ChatRow.audience == "all") | mine)
            rows = s.scalars(q.order_by(ChatRow.id.desc()).limit(HISTORY)).all()
            return [line_json(r) for r in reversed(rows)]
        lines = await hub.store.call(read, write=False)
        out = {"lines": lines, "open": user is not None, "referee": referee, "max": MAX_CHARS}
        if user is None:
            out["reason"] = "not_signed_in"
        else:
            out.update(mute_closed(await muted_until(hub, user.id, event_id)))
        return out

    @app.post("/api/events/{event_id}/chat", tags=["events"], status_code=201)
    async def event_say(request: Request, event_id: str, body: ChatText) -> dict[str, Any]:
        """Write a line: a referee's to everyone, anyone else's to the referees. Errors:
        not_signed_in (401), no_event (404), bad_message, chat_empty, chat_too_long,
        chat_bad_text, chat_link (400), chat_muted (403, with ``until``), chat_repeated,
        rate_limited (429), storage_unavailable (503)."""
        user = await need_user(request)
        try:
            text = clean(body.text)
        except ChatRefused as e:
            raise e.api() from None
        await check_event(event_id)
        try:
            await hub.chat_repeats.fetch(user.id)
            screen(hub.chat_repeats, user.id, text)
            mute = await muted_until(hub, user.id, event_id)
            if mute:
                raise muted_refusal(mute)
            _limit(hub, user.id, await hub.limits.hit_shared("chat_account", str(user.id)))
        except ChatRefused as e:
            raise e.api() from None
        hub.chat_repeats.add(user.id, text)
        await hub.chat_repeats.flush()
        referee = await is_referee(hub, event_id, user)
        line = new_line(f"event:{event_id}", user.id, user.username, "referee" if referee else "player",
                        "all" if referee else "referees", text)
        await hub.store.call(lambda s: insert_lines(s, [line]))      # retried: stored once
        return line_json(line)


# ----- reports ----------------------------------------------------------------------------------
#: the longest reason given with a report, in characters
REASON_CHARS = 300


class ReportBody(Body):
    """A line to report: its channel (``table`` or ``event``, one of them), its writer
    (``user``, the account id), ``at`` and ``text`` as the line gives them; ``reason``
    optional."""

    table: str | None = Field(default=None, max_length=40)
    event: str | None = Field(default=None, max_length=40)
    user: int = Field(ge=1, le=MAX_ROW_ID)      # an id the database can hold
    at: str = Field(max_length=40)
    text: str = Field(max_length=2000)
    reason: str = Field(default="", max_length=4000)


def report_json(r: ChatReportRow) -> dict[str, Any]:
    """A report as its readers get it: ``id``, ``channel``, ``event``, ``reporter``, ``reason``,
    ``at`` and the ``line`` (``name``, ``user``, ``text``)."""
    return {"id": r.id, "channel": r.channel, "event": r.event_id, "reporter": r.reporter,
            "reason": r.reason, "at": r.at, "line": {"name": r.name, "user": r.user_id, "text": r.text}}


def reporter_reads(s: Session, live: LiveTable | None, table_id: str | None, line: ChatRow,
                   user_id: int) -> bool:
    """Whether account ``user_id`` reads ``line`` now, as :func:`readable` decides: a line to
    the spectators of a game in play is not read by its players (nor may they report it, or
    the answer would tell them what the spectators wrote). ``live``: the table if this worker
    serves it, else its stored row decides (a game not finished is in play)."""
    if line.audience != "spectators":
        return True
    if live is not None:
        return readable(live, {"audience": line.audience}, live.seat_of(user_id))
    row = s.get(TableRow, table_id) if table_id is not None else None
    if row is None or row.status != "playing":
        return True
    return not any(seat and seat.get("user") == user_id for seat in row.seats or ())


def add_report_routes(app: FastAPI, hub: Hub, need_user: Any) -> None:
    """``POST /api/chat/reports`` (report a line) and ``GET /api/chat/reports`` (read them):
    see docs/server.md, "Chat"."""

    @app.post("/api/chat/reports", tags=["chat"], status_code=201)
    async def report(request: Request, body: ReportBody) -> dict[str, Any]:
        """Report a chat line one reads (not one's own; a spectators' line is not the players'
        while the game is on: :func:`reporter_reads`). It goes to the referees of the
        event whose chat or table it was written at, else (a lobby table) to the organizers.
        Errors: not_signed_in (401), bad_report, own_line, chat_too_long (the reason; 400),
        no_line (404), already_reported (409), rate_limited (429), storage_unavailable (503)."""
        user = await need_user(request)
        if (body.table is None) == (body.event is None):
            raise ApiError(400, "bad_report", "name the line's table or its event (one of them)")
        if body.user == user.id:
            raise ApiError(400, "own_line", "you cannot report your own line")
        reason = " ".join(unicodedata.normalize("NFC", body.reason).split())
        if unsafe(reason):
            raise ApiError(400, "chat_bad_text", "a reason may not hold control characters or "
                                                 "direction overrides")
        if len(reason) > REASON_CHARS:
            raise ApiError(400, "chat_too_long", f"a reason is at most {REASON_CHARS} characters",
                           max=REASON_CHARS, length=len(reason))
        channel = f"table:{body.table}" if body.table is not None else f"event:{body.event}"
        wait = await hub.limits.hit("report_account", str(user.id))
        if wait:
            raise ApiError(429, "rate_limited", "too many reports; wait a moment",
                           retry_after=retry_after(wait), what="reports")
        if hub.store.down:
            raise ApiError(503, "storage_unavailable", "the server cannot save data right now")

        live = hub.tables.get(body.table) if body.table is not None else None

        made: list[int] = []            # the id the first run gave the report (Store.call's again)

        def write(s: Session) -> dict[str, Any] | str:
            mine = s.get(ChatReportRow, made[0]) if made and again() else None
            if mine is not None and mine.reporter_id == user.id and mine.reason == reason:
                return report_json(mine)
            line = s.scalars(select(ChatRow).where(
                ChatRow.channel == channel, ChatRow.user_id == body.user, ChatRow.at == body.at,
                ChatRow.text == body.text, ChatRow.audience != "referees")
                .order_by(ChatRow.id.desc()).limit(1)).first()
            if line is None or not reporter_reads(s, live, body.table, line, user.id):
                return "no_line"
            if s.scalars(select(ChatReportRow.id).where(ChatReportRow.line_id == line.id,
                                                        ChatReportRow.reporter_id == user.id)).first():
                return "already_reported"
            if body.event is not None:
                event_id = body.event
            else:
                event_id = s.scalars(select(TableRow.event_id).where(TableRow.id == body.table)).first()
            row = ChatReportRow(line_id=line.id, channel=channel, event_id=event_id,
                                reporter_id=user.id, reporter=user.username, user_id=line.user_id,
                                name=line.name, text=line.text, reason=reason, at=now_iso())
            s.add(row)
            s.flush()
            made[:] = [row.id]
            return report_json(row)
        try:
            got = await hub.store.call(write)
        except IntegrityError:        # the same report sent twice at the same moment
            got = "already_reported"
        if got == "no_line":
            raise ApiError(404, "no_line", "no such chat line to report")
        if got == "already_reported":
            raise ApiError(409, "already_reported", "you have reported this line already")
        return got

    @app.get("/api/chat/reports", tags=["chat"])
    async def reports(request: Request, event: str | None = None) -> dict[str, Any]:
        """The reports of ``event``'s chat and tables (to its referees), or without ``event``
        those of lobby tables (to the organizers), newest first: ``{"reports": [...]}``.
        Errors: not_signed_in (401), not_referee, plays_in_own_event, not_organizer (403)."""
        user = await need_user(request)
        if event is not None and not await is_referee(hub, event, user):
            from .appointments import not_referee
            raise await hub.store.call(lambda s: not_referee(s, event, user), write=False)
        if event is None and user.role != "organizer":
            raise ApiError(403, "not_organizer", "only the organizers read the lobby's reports")

        def read(s: Session) -> list[dict[str, Any]]:
            q = select(ChatReportRow).where(ChatReportRow.event_id == event if event is not None
                                            else ChatReportRow.event_id.is_(None))
            return [report_json(r) for r in s.scalars(q.order_by(ChatReportRow.id.desc()).limit(HISTORY))]
        return {"reports": await hub.store.call(read, write=False)}
