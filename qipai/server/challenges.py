"""The Bot API's account events, challenges and seeks (docs/server.md, "Bot API").

Events (one JSON object a line on ``GET /api/bot/stream/event``):

* ``{"type": "gameStart", "game": G}`` — every seat of a table where the account sits is taken
  and its game begins (also sent on connecting, for each game the account plays now);
* ``{"type": "gameFinish", "game": G}`` with ``G.result`` and ``G.record`` (the stored record);
  a game aborted once begun (:mod:`.conduct`) ends so too, with both null and ``G.aborted``
  its reason (``no_first_move``, ``inactive``, ``storage_refused``);
* ``{"type": "challenge", "challenge": C}`` — a challenge to or from the account (also sent on
  connecting, for each pending challenge to it); ``challengeDeclined`` and
  ``challengeCanceled`` (``C.reason``: ``declined``, ``canceled``, ``expired``).

``G`` is ``{"id": table, "game": game id, "seat": the account's seat, "table": summary}``;
``C`` is ``{"id", "from", "to", "game", "options", "num_seats", "settings", "seat", "bot",
"status", "created"}``.

Challenges live in the server's memory (with several workers, the lobby home's, kept in Redis
too: :mod:`.lobbystate`) for :data:`CHALLENGE_TTL` seconds: accepting one opens a
lobby table of the challenger (its quota of open tables applies), seats the challenger in
``seat`` (None: the first free one), the challenged account in the next free one and the
built-in bot ``bot`` (the game's default) in every other seat; the game starts at once.
``POST /api/bot/seek`` sits the account at an open lobby table of the same game, options and
clock, or opens one.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from typing import Any

from fastapi import FastAPI, Request
from pydantic import Field

from . import auth, eventstart
from .bodies import Body
from .errors import ApiError
from .hub import Hub
from .models import UserRow
from .tabledefaults import LOBBY_ONE_GAME, refuse_bot_clock, seat_bots
from .tables import LiveTable

CHALLENGE_TTL = 600.0        # seconds a challenge waits for its answer
ANSWER_KEEP = 120.0          # seconds the answer to a challenge is kept for its challenger
MAX_CHALLENGES = 20          # pending challenges an account has made


def _line(msg: dict[str, Any]) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


def game_json(table: LiveTable, seat: int) -> dict[str, Any]:
    return {"id": table.id, "game": table.game_id, "seat": seat, "table": table.summary()}


class AccountEvents:
    """The event streams of each account (user id -> its open streams' queues)."""

    def __init__(self, hub: Hub, challenges: Challenges) -> None:
        self.hub = hub
        self.challenges = challenges
        self._subs: dict[int, set[asyncio.Queue[str | None]]] = {}
        #: called with (user id, event) for every event delivered here
        self.listeners: list[Any] = []
        hub.on_start.append(self._started)
        hub.on_finish.append(self._finished)
        hub.on_abort.append(self._aborted)
        if hub.cluster is not None:          # events reach every worker (the lobby home's streams)
            hub.cluster.on_event.append(self.deliver)

    def subscribe(self, user_id: int, q: asyncio.Queue[str | None]) -> None:
        self._subs.setdefault(user_id, set()).add(q)

    def streaming(self, user_id: int) -> bool:
        """Whether ``user_id`` has an event stream open on this worker."""
        return user_id in self._subs

    def unsubscribe(self, user_id: int, q: asyncio.Queue[str | None]) -> None:
        qs = self._subs.get(user_id)
        if qs is not None:
            qs.discard(q)
            if not qs:
                del self._subs[user_id]

    def publish(self, user_id: int, msg: dict[str, Any]) -> None:
        """Tell ``user_id``'s streams (and :attr:`listeners`); in a cluster through Redis, to
        every worker (the table that starts or finishes a game may be served by one worker and
        the account's streams by the lobby home)."""
        if self.hub.cluster is not None:
            self.hub.cluster.publish_event(user_id, msg)
        else:
            self.deliver(user_id, msg)

    def deliver(self, user_id: int, msg: dict[str, Any]) -> None:
        if msg.get("type") == eventstart.READY:     # the server's own: never sent to a stream
            eventstart.account_ready(self.hub.tables.events_of(user_id), user_id)
            return
        if str(msg.get("type")).startswith("_"):   # another of the server's own (chatmutes)
            return
        for f in self.listeners:
            f(user_id, msg)
        qs = self._subs.get(user_id)
        if qs:
            text = _line(msg)
            for q in qs:
                q.put_nowait(text)

    async def current(self, user_id: int) -> list[str]:
        """What a new event stream starts with: the account's games in play (on every worker of
        a cluster, as their lobby lists them), then the pending challenges to it."""
        out = []
        for t in list(self.hub.tables.values()):
            seat = t.seat_of(user_id)
            if seat is not None and t.status == "playing":
                out.append(_line({"type": "gameStart", "game": game_json(t, seat)}))
        for t in await self.hub.cluster.lobby() if self.hub.cluster is not None else ():
            seats = [i for i, s in enumerate(t["seats"]) if s and s.get("user") == user_id]
            if seats and t["status"] == "playing":
                g = {"id": t["id"], "game": t["game"], "seat": seats[0], "table": t}
                out.append(_line({"type": "gameStart", "game": g}))
        for c in self.challenges.pending_to(user_id):
            out.append(_line({"type": "challenge", "challenge": c}))
        return out

    def _started(self, table: LiveTable) -> None:
        for seat, s in enumerate(table.seats):
            if s and "user" in s:
                self.publish(s["user"], {"type": "gameStart", "game": game_json(table, seat)})

    def _finished(self, table: LiveTable, row: Any, aborted: str | None = None) -> None:
        for seat, s in enumerate(table.seats):
            if s and "user" in s:
                g = {**game_json(table, seat), "result": row and row.result, "record": row and row.id,
                     **({"aborted": aborted} if aborted else {})}
                self.publish(s["user"], {"type": "gameFinish", "game": g})

    def _aborted(self, table: LiveTable, reason: str) -> None:
        self._finished(table, None, reason)


class ChallengeBody(Body):
    game: str = Field(max_length=40)
    options: dict[str, Any] = {}
    num_seats: int | None = None
    settings: dict[str, Any] = {}
    seat: int | None = None            # the challenger's seat (None: the first)
    bot: str | None = Field(default=None, max_length=60)   # fills the other seats


class SeekBody(Body):
    game: str = Field(max_length=40)
    options: dict[str, Any] = {}
    num_seats: int | None = None
    settings: dict[str, Any] = {}


class Challenges:
    """Pending challenges (id -> challenge object) and the recent answers to them (id -> the
    answer, kept :data:`ANSWER_KEEP` seconds for the challenger: ``GET /api/challenges``), in
    memory; with several workers kept in Redis as well (:mod:`.lobbystate`: :meth:`saved`
    before answering)."""

    def __init__(self) -> None:
        self.by_id: dict[str, dict[str, Any]] = {}
        self.answers: dict[str, dict[str, Any]] = {}
        self.dirty: set[str] = set()         # ids made or dropped since the last save
        self.answers_dirty: set[str] = set()  # answers made or dropped since the last save
        self.state: Any = None               # the .lobbystate.LobbyState that saves them

    def put(self, c: dict[str, Any]) -> None:
        self.by_id[c["id"]] = c
        self.dirty.add(c["id"])

    def drop(self, cid: str) -> None:
        self.by_id.pop(cid, None)
        self.dirty.add(cid)

    def answer(self, c: dict[str, Any], reason: str | None = None,
               pending: dict[str, Any] | None = None) -> None:
        """Keep the answer to the challenge ``c`` (its ``status`` set, dropped already) for its
        challenger (``pending``: the challenge as it was, kept with an acceptance so that it is
        pending again if its table was never stored, :mod:`.lobbystate`)."""
        self.answers[c["id"]] = {**public(c), **({"reason": reason} if reason else {}),
                                 **({"pending": pending} if pending else {}),
                                 "from_id": c["from_id"], "at": time.time()}
        self.answers_dirty.add(c["id"])

    def unanswer(self, cid: str) -> None:
        """The acceptance of ``cid`` did not happen (its table was never stored): pending again."""
        a = self.answers.pop(cid, None)
        self.answers_dirty.add(cid)
        if a is not None and a.get("pending"):
            self.put(a["pending"])

    def answered(self, user_id: int) -> list[dict[str, Any]]:
        """The recent answers to ``user_id``'s challenges, oldest first."""
        return [{k: v for k, v in public(a).items() if k != "pending"}
                for a in sorted(self.answers.values(), key=lambda a: a["at"]) if a["from_id"] == user_id]

    async def saved(self) -> None:
        """Keep what changed (in Redis, with several workers)."""
        if self.state is not None:
            await self.state.save()
        else:
            self.dirty.clear()
            self.answers_dirty.clear()

    def expire(self, events: AccountEvents | None = None) -> None:
        now = time.time()
        for cid, c in list(self.by_id.items()):
            if now - c["at"] > CHALLENGE_TTL:
                self.drop(cid)
                self.answer({**c, "status": "expired"}, "expired")
                if events is not None:
                    self._tell(events, c, "challengeCanceled", "expired")
        for cid, a in list(self.answers.items()):
            if now - a["at"] > ANSWER_KEEP:
                del self.answers[cid]
                self.answers_dirty.add(cid)

    def pending_to(self, user_id: int) -> list[dict[str, Any]]:
        self.expire()
        return [public(c) for c in self.by_id.values() if c["to_id"] == user_id]

    @staticmethod
    def _tell(events: AccountEvents, c: dict[str, Any], kind: str, reason: str | None = None) -> None:
        msg = {"type": kind, "challenge": {**public(c), **({"reason": reason} if reason else {})}}
        events.publish(c["from_id"], msg)
        events.publish(c["to_id"], msg)


def public(c: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in c.items() if not k.endswith("_id") and k != "at"}


def add_challenge_routes(app: FastAPI, hub: Hub, who: Any, events: AccountEvents,
                         challenges: Challenges, prefix: str = "/api/bot", seek: bool = True) -> None:
    """Add ``<prefix>/challenge/...`` and (``seek``) ``<prefix>/seek``. The Bot API's are
    ``/api/bot/...`` for tokens; the web's (:mod:`.seekroutes`) ``/api/challenge/...`` for
    signed-in people, on the same challenges, so a person and a bot account challenge each
    other."""
    tags: list[str | Any] = ["bot" if prefix == "/api/bot" else "players"]

    @app.post(prefix + "/challenge/{username}", tags=tags, status_code=201)
    async def challenge(request: Request, username: str, body: ChallengeBody) -> dict[str, Any]:
        """Challenge ``username`` to a game (token scope ``challenge:write`` or a play scope).
        Errors: no_user, bad_challenge (yourself), bad_options, bad_seats, bad_clock,
        bad_settings, bad_bot, bad_seat, too_many_challenges."""
        user = await who(request, "challenge:write", "bot:play", "board:play")
        target = await hub.store.call(lambda s: _user(s, username), write=False)
        if target is None:
            raise ApiError(404, "no_user", f"no account {username!r}", username=username)
        if target[0] == user.user_id:
            raise ApiError(400, "bad_challenge", "an account cannot challenge itself")
        row = hub.new_row(user.user_id, body.game, lobby(body.game, body.options), body.settings,
                          body.num_seats)
        for is_bot in (user.bot, target[2]):        # both would sit: neither a person on a bots' clock
            refuse_bot_clock(row.settings["clock"], bool(is_bot))
        bot = body.bot
        if row.num_seats > 2 or bot is not None:
            bot = bot or _default_bot(row.game)
            offered = seat_bots(hub.settings, row.game)
            if bot not in offered:
                raise ApiError(400, "bad_bot", f"unknown bot {bot!r}; valid: {', '.join(offered)}",
                               bot=bot, valid=", ".join(offered))
        if body.seat is not None and not (isinstance(body.seat, int) and 0 <= body.seat < row.num_seats):
            raise ApiError(400, "bad_seat", f"seats are 0 to {row.num_seats - 1}", max=row.num_seats - 1)
        challenges.expire(events)
        if sum(c["from_id"] == user.user_id for c in challenges.by_id.values()) >= MAX_CHALLENGES:
            raise ApiError(429, "too_many_challenges", f"at most {MAX_CHALLENGES} pending challenges",
                           max=MAX_CHALLENGES, retry_after=60)
        c = {"id": secrets.token_hex(5), "from": user.username, "to": target[1], "game": row.game,
             "options": row.options, "num_seats": row.num_seats, "settings": row.settings,
             "seat": body.seat, "bot": bot, "status": "created",
             "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
             "from_id": user.user_id, "to_id": target[0], "from_bot": user.bot, "to_bot": target[2],
             "at": time.time()}
        challenges.put(c)
        await challenges.saved()
        Challenges._tell(events, c, "challenge")
        return public(c)

    def mine(cid: str, user_id: int, side: str) -> dict[str, Any]:
        challenges.expire(events)
        c = challenges.by_id.get(cid)
        if c is None or c[f"{side}_id"] != user_id:
            raise ApiError(404, "no_challenge", f"no pending challenge {cid!r} {side} you", id=cid)
        return c

    async def end(c: dict[str, Any], status: str, kind: str) -> dict[str, Any]:
        challenges.drop(c["id"])
        c["status"] = status
        challenges.answer(c, status)
        await challenges.saved()
        Challenges._tell(events, c, kind, status)
        return {"ok": True}

    @app.post(prefix + "/challenge/{cid}/accept", tags=tags)
    async def accept(request: Request, cid: str) -> dict[str, Any]:
        """Accept a challenge made to you: the table opens and its game starts (``gameStart``
        on both accounts' event streams). Errors: no_challenge, challenger_busy (409:
        the table would be the challenger's, who holds as many open tables as allowed; the
        challenge stays pending)."""
        user = await who(request)
        c = mine(cid, user.user_id, "to")

        async def named(table_id: str) -> None:
            # the answer is kept before the table is stored (as a seek's pairing, lobbystate.py):
            # a lobby home that dies between the two leaves an answer naming a table that never
            # was, never a game started that nobody knows of
            mine(cid, user.user_id, "to")      # still pending (counting the table may have waited)
            pending = dict(c)
            challenges.drop(cid)
            c["status"], c["table"] = "accepted", table_id
            challenges.answer(c, pending=pending)
            await challenges.saved()
        try:
            table = await hub.create_table(c["from_id"], c["game"], c["options"], c["settings"],
                                           c["num_seats"], named=named)
        except ApiError as e:
            if e.code != "too_many_tables":
                raise
            # the quota is the challenger's: "you already have ..." would speak of the wrong one
            raise ApiError(409, "challenger_busy", f"{c['from']} has {e.extra['open']} open or running "
                           f"tables (at most {e.extra['max']}); the challenge stays open",
                           username=c["from"], open=e.extra["open"], max=e.extra["max"]) from None
        try:
            table.take_seat(c["from_id"], c["from"], c["seat"], bot_account=c["from_bot"])
            seat = table.take_seat(user.user_id, user.username, None, bot_account=user.bot)
        except ApiError:
            hub.drop_table(table)
            challenges.unanswer(cid)                    # pending again
            await challenges.saved()
            raise
        Challenges._tell(events, c, "challengeAccepted")
        table.fill_bots(c["bot"])
        await hub.store.saved(table.gate)
        return {"ok": True, "table": table.id, "seat": seat}

    @app.post(prefix + "/challenge/{cid}/decline", tags=tags)
    async def decline(request: Request, cid: str) -> dict[str, Any]:
        """Decline a challenge made to you (``challengeDeclined`` to both)."""
        user = await who(request)
        return await end(mine(cid, user.user_id, "to"), "declined", "challengeDeclined")

    @app.post(prefix + "/challenge/{cid}/cancel", tags=tags)
    async def cancel(request: Request, cid: str) -> dict[str, Any]:
        """Take back a challenge you made (``challengeCanceled`` to both)."""
        user = await who(request, "challenge:write", "bot:play", "board:play")
        return await end(mine(cid, user.user_id, "from"), "canceled", "challengeCanceled")

    if seek:
        add_seek_route(app, hub, who)


def add_seek_route(app: FastAPI, hub: Hub, who: Any) -> None:
    """Add ``/api/bot/seek``."""

    @app.post("/api/bot/seek", tags=["bot"])
    async def seek(request: Request, body: SeekBody) -> dict[str, Any]:
        """Sit at an open lobby table of this game with the same options, seat count and clock
        (the oldest with a free seat), or open one; the game starts when its seats are taken
        (``gameStart``). Answers ``{"table", "seat", "created"}``. Only a table the lobby lists
        is sat at: never a private one (found by its link alone), nor one rated otherwise."""
        user = await who(request)
        row = hub.new_row(user.user_id, body.game, lobby(body.game, body.options), body.settings,
                          body.num_seats)
        refuse_bot_clock(row.settings["clock"], user.bot)
        for t in list(hub.tables.values()):
            if (t.status == "open" and t.event_id is None and t.game_id == row.game
                    and t.options == row.options and t.num_seats == row.num_seats
                    and t.settings.get("clock") == row.settings["clock"]
                    and t.settings.get("rated") == row.settings["rated"] and not t.settings.get("private")
                    and not t.settings.get("reserved") and t.seat_of(user.user_id) is None
                    and any(s is None for s in t.seats)):
                seat = t.take_seat(user.user_id, user.username, None, bot_account=user.bot)
                await hub.store.saved(t.gate)
                return {"table": t.id, "seat": seat, "created": False}
        table = await hub.create_table(user.user_id, row.game, row.options, body.settings, row.num_seats)
        seat = table.take_seat(user.user_id, user.username, None, bot_account=user.bot)
        await hub.store.saved(table.gate)
        return {"table": table.id, "seat": seat, "created": True}


def lobby(game_id: str, options: Any) -> Any:
    """``options`` with a lobby table's defaults (:data:`LOBBY_ONE_GAME`: one hand of mahjong)."""
    from qipai.core.registry import game_class

    if not isinstance(options, dict):
        return options
    try:
        real = game_class(game_id).id
    except Exception:          # an unknown game: new_row refuses it (bad_options)
        real = game_id
    return {**LOBBY_ONE_GAME.get(game_id, LOBBY_ONE_GAME.get(real, {})), **options}


def _user(s: Any, name: str) -> tuple[int, str, bool] | None:
    u: UserRow | None = auth.find_user(s, name)
    return None if u is None else (u.id, u.username, bool(u.bot))


def _default_bot(game_id: str) -> str:
    from .tabledefaults import default_bot

    return default_bot(game_id)
