"""``qipai bot connect``: any engine or built-in bot plays on a qipai server through its Bot API
(docs/server.md, "Bot API"), as lichess-bot does for lichess.

The client reads the account's event stream (``GET /api/bot/stream/event``), accepts the
challenges of games it can play (declines the others), and plays each game that starts on its
own task: it reads the game's NDJSON stream, answers the deal's commitment with a random nonce,
and at each of its seat's decisions asks its player and posts the answer
(``POST /api/bot/game/{table}/move/{action}?turn=N``; while a deal's prompts are held, with
``ahead=true``, so a declaration is kept for the seat's next prompt when it comes late). A
refused answer is asked again (the door is told it was refused: UCCI bans it, Botzone lists
it); the server's referee counts it.

Players (:class:`Chooser`):

* a built-in bot (``--bot NAME``) — handed the seat's position: for a game without hidden
  information the real state, rebuilt from the stream's move list; otherwise a
  :class:`SeatView` holding only the seat's view and legal actions (all the built-in bots
  read);
* an engine door (``--engine`` for the game's own protocol, ``--gtp``, ``--gomocup``,
  ``--botzone``) — the door of :mod:`qipai.engines` on that position, its thinking time the
  ``movetime`` cut to the seat's deadline.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable
from typing import Any
from urllib.parse import quote

import qipai
from qipai.core.errors import QipaiError

from .player import RESIGN
from .process import EngineError
from .sync import _Desk

log = logging.getLogger("qipai.bot")


class SeatView:
    """What a seat knows of a game it cannot rebuild (hidden information): its ``view`` and
    legal actions from the server's state message, nothing else."""

    def __init__(self, game: Any, msg: dict[str, Any]) -> None:
        self.game = game
        self.num_seats = len(msg["names"])
        self._view = msg["view"]
        self._seat = msg["seat"]
        self.log = [None] * msg["seq"]
        self._to_act = tuple(msg["to_act"])
        texts = msg.get("legal") or self._view.get("legal") or self._view.get("legal_moves")
        if isinstance(texts, dict):      # a summary (shengji's {"kind", "actions"} or a count)
            texts = texts.get("actions")
        self._legal = list(texts) if texts else ([msg["hint"]] if msg.get("hint") else [])
        self._hint = msg.get("hint")

    @property
    def to_act(self) -> tuple[int, ...]:
        return self._to_act

    @property
    def current_player(self) -> int | None:
        return self._to_act[0] if self._to_act else None

    def is_terminal(self) -> bool:
        return False

    def view(self, seat: int | None = None) -> dict[str, Any]:
        if seat != self._seat:
            raise QipaiError("a seat's position shows that seat's view alone")
        return self._view

    def legal_actions(self, seat: int | None = None) -> list[Any]:
        out = []
        for text in self._legal:
            try:
                out.append(self.game.parse_action(text))
            except Exception:        # a text the game reads only with its state: kept as text
                out.append(text)
        return out

    def default_action(self, seat: int) -> Any:
        return self._hint


class Position:
    """The seat's position in one game, kept from its stream: the real state (rebuilt from the
    move list) when nothing is hidden, else a :class:`SeatView` of the latest message."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.entries: list[dict[str, Any]] = []
        self.state: Any = None

    def update(self, msg: dict[str, Any]) -> Any:
        moves = msg.get("moves")
        if moves is not None:
            start = moves["from"]
            self.entries[start:] = moves["list"]
        if self.game.hidden_information or moves is None:
            return SeatView(self.game, msg)
        if self.state is None or len(self.state.log) > len(self.entries):
            self.state = self.game.new_state()
        try:
            for e in self.entries[len(self.state.log):]:
                self.state.apply(e["text"], seat=e["seat"])
        except (QipaiError, KeyError):
            self.state = None
            return SeatView(self.game, msg)
        return self.state if len(self.state.log) == msg["seq"] else SeatView(self.game, msg)


class Chooser:
    """Chooses a seat's action: ``await choose(position, seat, msg)`` -> text, or None to resign."""

    name = ""

    async def choose(self, position: Any, seat: int, msg: dict[str, Any]) -> str | None:
        raise NotImplementedError

    def refused(self, answer: str) -> None:
        """The server refused ``answer`` (asked again next)."""

    async def close(self) -> None:
        """The game is over (engines are stopped)."""


class BotChooser(Chooser):
    """A built-in bot (thinks in a worker thread)."""

    def __init__(self, game: Any, name: str, seed: int | None = None) -> None:
        from qipai.bots import make_bot

        self.bot = make_bot(game.id, name, seed=seed)
        self.name = f"bot:{name}"

    async def choose(self, position: Any, seat: int, msg: dict[str, Any]) -> str | None:
        return str(await asyncio.to_thread(self.bot.choose, position, seat))


class _Seat(_Desk):
    """A door's view of a server seat: its decision number, untimed (the door's ``movetime``
    is set from the deadline before each decision)."""

    def __init__(self, game: Any, state: Any, turn: int) -> None:
        super().__init__(game, state)
        self._turn_no = turn

    def turn_of(self, seat: int) -> int:
        return self._turn_no


class DoorChooser(Chooser):
    """An engine door of :mod:`qipai.engines`; a failed engine is restarted once a decision."""

    def __init__(self, game: Any, command: str, protocol: str | None, movetime: int) -> None:
        from . import engine_player

        self.door = engine_player(game, command, protocol, movetime=movetime)
        self.game = game
        self.name = self.door.name
        self.movetime = movetime

    async def choose(self, position: Any, seat: int, msg: dict[str, Any]) -> str | None:
        door = self.door
        deadline = (msg.get("clocks") or [{}] * (seat + 1))[seat].get("deadline")
        budget = self.movetime
        if deadline is not None:
            budget = max(50, min(budget, deadline - msg["now"] - 300))
        door.movetime = budget
        desk = _Seat(self.game, position, msg.get("turn", 1))
        if door._refused_turn != desk.turn_of(seat):
            door._refused_turn, door.refused = desk.turn_of(seat), []
        for attempt in (1, 2):
            try:
                if not door.engine.alive or not door._ready:
                    await door._boot(desk, seat)
                answer = await door.think(desk, seat, door.wait_seconds(desk, seat))
                door._last_answer = str(answer)
                return None if answer is RESIGN else str(answer)
            except EngineError as e:
                log.warning("engine failed: %s", e)
                await door.engine.stop()
                door._ready = False
                if attempt == 2:
                    raise
        return None

    def refused(self, answer: str) -> None:
        self.door.refused.append(answer)
        self.door.refused_moved()

    async def close(self) -> None:
        await self.door.engine.stop(self.door.quit_line)
        self.door._ready = False


def choosers(kind: str, value: str, movetime: int = 1000) -> Callable[[Any], Chooser]:
    """A factory of the player for each game: ``kind`` is ``bot`` (a built-in bot's name),
    ``engine`` (the game's own protocol), ``gtp``, ``gomocup``, ``botzone`` or ``uci`` /
    ``ucci`` (an engine command). Raises OptionError (via the door) for a game it cannot play."""
    if kind == "bot":
        return lambda game: BotChooser(game, value)
    protocol = None if kind == "engine" else kind
    return lambda game: DoorChooser(game, value, protocol, movetime)


class BotClient:
    """One account's connection to a server (see the module docstring). ``make(game)`` gives
    the player of a game (raising :class:`QipaiError` when it cannot play it); ``max_games``:
    stop after that many games finished (None: run until stopped); ``challenge``: on
    connecting, challenge this account to ``challenge_game``."""

    def __init__(self, server: str, token: str, make: Callable[[Any], Chooser], *,
                 max_games: int | None = None, challenge: str | None = None,
                 challenge_game: str | None = None, options: dict[str, Any] | None = None,
                 settings: dict[str, Any] | None = None, out: Callable[[str], Any] = print) -> None:
        self.server = server.rstrip("/")
        self.token = token
        self.make = make
        self.max_games = max_games
        self.challenge = challenge
        self.challenge_game = challenge_game
        self.options = options or {}
        self.settings = settings or {}
        self.out = out
        self.finished = 0
        self.me = ""
        self.playing: dict[str, asyncio.Task[None]] = {}
        #: (game, answer) the server takes no ahead (posted as a plain answer)
        self._not_ahead: set[tuple[Any, str]] = set()
        self._done = asyncio.Event()

    def _http(self) -> Any:
        import httpx

        return httpx.AsyncClient(base_url=self.server, headers={"Authorization": f"Bearer {self.token}"},
                                 timeout=httpx.Timeout(30.0, read=None))

    async def _lines(self, http: Any, path: str, opened: Any = None) -> AsyncIterator[dict[str, Any]]:
        """The objects of an NDJSON stream; ``opened()`` is awaited once it is open."""
        async with http.stream("GET", path) as r:
            if r.status_code != 200:
                body = json.loads(await r.aread() or b"{}")
                raise QipaiError(f"{path}: {r.status_code} {body.get('error')}: {body.get('message')}")
            if opened is not None:
                await opened()
            async for line in r.aiter_lines():
                if line.strip():
                    yield json.loads(line)

    async def run(self) -> int:
        """Play until ``max_games`` games are over (or forever); the number finished."""
        async with self._http() as http:
            r = await http.get("/api/bot/account")
            if r.status_code != 200:
                raise QipaiError(f"the server refused the token: {r.json().get('error')}: "
                                 f"{r.json().get('message')}")
            self.me = r.json()["username"]
            self.out(f"connected as {self.me}")
            events = asyncio.create_task(self._events(http))
            stop = asyncio.create_task(self._done.wait())
            await asyncio.wait({events, stop}, return_when=asyncio.FIRST_COMPLETED)
            for t in (events, stop, *self.playing.values()):
                t.cancel()
            await asyncio.gather(events, stop, *self.playing.values(), return_exceptions=True)
            if events.done() and not events.cancelled() and events.exception() is not None:
                raise events.exception()
        return self.finished

    async def _events(self, http: Any) -> None:
        async def opened() -> None:
            if self.challenge:
                await self._challenge(http)
        async for ev in self._lines(http, "/api/bot/stream/event", opened):
            kind = ev["type"]
            if kind == "challenge" and ev["challenge"]["to"] == self.me:
                await self._answer(http, ev["challenge"])
            elif kind == "gameStart":
                g = ev["game"]
                if g["id"] not in self.playing:
                    self.out(f"game {g['id']}: {g['game']}, seat {g['seat']}")
                    self.playing[g["id"]] = asyncio.create_task(self._game(http, g))
            elif kind == "gameFinish":
                self.out(f"game {ev['game']['id']} over: {(ev['game'].get('result') or {}).get('text')}")

    async def _challenge(self, http: Any) -> None:
        r = await http.post(f"/api/bot/challenge/{quote(self.challenge, safe='')}",
                            json={"game": self.challenge_game, "options": self.options,
                                  "settings": self.settings})
        if r.status_code != 201:
            raise QipaiError(f"challenge refused: {r.json().get('error')}: {r.json().get('message')}")
        self.out(f"challenged {self.challenge} to {self.challenge_game}: {r.json()['id']}")

    async def _answer(self, http: Any, c: dict[str, Any]) -> None:
        try:
            chooser = self.make(qipai.load(c["game"], **c["options"]))
            await chooser.close()
        except QipaiError as e:
            self.out(f"declining challenge {c['id']} ({c['game']}): {e}")
            await http.post(f"/api/bot/challenge/{c['id']}/decline")
            return
        r = await http.post(f"/api/bot/challenge/{c['id']}/accept")
        self.out(f"accepted challenge {c['id']} from {c['from']}: {r.status_code}")

    async def _game(self, http: Any, g: dict[str, Any]) -> None:
        table = g["id"]
        summary = g["table"]
        game = qipai.load(summary["game"], **summary["options"])
        chooser = self.make(game)
        position = Position(game)
        answered = None
        try:
            async for msg in self._lines(http, f"/api/bot/game/stream/{table}"):
                if msg["type"] == "commitment":
                    await http.post(f"/api/bot/game/{table}/nonce/{secrets.token_hex(16)}")
                if msg["type"] != "state" or msg["status"] != "playing" or msg["result"]:
                    continue
                seat = msg["seat"]
                turn = msg.get("turn")
                # a decision is answered once (another seat's answer in a claim window changes
                # seq, not this seat's turn); a refused answer is asked again inside _decide
                if seat not in msg["to_act"] or turn is None or turn == answered:
                    continue
                answered = turn
                await self._decide(http, table, chooser, position.update(msg), seat, msg)
        except Exception as e:           # a fault of this client or its engine: the game is
            self.out(f"game {table}: stopped by an error ({e!r}); resigning")   # not left hanging
            log.exception("game %s", table)
            await http.post(f"/api/bot/game/{table}/resign")
        finally:
            await chooser.close()
            self.playing.pop(table, None)
            self.finished += 1
            if self.max_games is not None and self.finished >= self.max_games:
                self._done.set()

    async def _decide(self, http: Any, table: str, chooser: Chooser, position: Any, seat: int,
                      msg: dict[str, Any]) -> None:
        for _ in range(3):
            started = time.monotonic()
            answer = await chooser.choose(position, seat, msg)
            if answer is None:
                await http.post(f"/api/bot/game/{table}/resign")
                return
            r = await self._post_move(http, table, answer, msg)
            if r.status_code == 200:
                log.info("%s: %s in %.0f ms", table, answer, (time.monotonic() - started) * 1000)
                return
            err = r.json().get("error")
            if err != "illegal":          # stale, not playing, not your turn: the stream goes on
                return
            self.out(f"game {table}: {answer!r} refused ({r.json().get('message')})")
            chooser.refused(answer)

    async def _post_move(self, http: Any, table: str, answer: str, msg: dict[str, Any]) -> Any:
        """Post ``answer`` to the decision of state ``msg``. While the deal's prompts are held
        (the state's ``ahead``: shengji's every_card at a table of people) it goes ``ahead``,
        as a page's declaration does: a prompt that closed while the player thought keeps it
        for the seat's next prompt instead of dropping it. An answer the server takes no
        ahead (400 ``ahead_refused``: a ``pass``, which the table answers itself at the
        prompt's end) is posted as a plain answer, and so are its later ones."""
        path = f"/api/bot/game/{table}/move/{quote(answer, safe='')}"
        key = (msg.get("game"), answer)
        if msg.get("ahead") and key not in self._not_ahead:
            r = await http.post(path, params={"turn": msg["turn"], "ahead": "true"})
            if r.status_code != 400 or r.json().get("error") != "ahead_refused":
                if r.status_code == 200 and r.json().get("ahead") == "kept":
                    self.out(f"game {table}: {answer!r} kept for the seat's next prompt")
                return r
            self._not_ahead.add(key)
        return await http.post(path, params={"turn": msg["turn"]})
