"""Live tables: seats, the game runner under the real clock, connections, persistence, resume.

A :class:`LiveTable` is one lobby table. When every seat is taken (people or bots) it starts a
:class:`~qipai.match.runner.GameRunner` in real time; the runner is the referee of clocks,
timeouts, resignation and draw offers, the game state the referee of the rules. After every
change the table sends each connected seat a message built from ``state.view(seat)`` and each
spectator one built from ``state.view(None)`` (delayed by the table's spectator delay when the
game hides information).

Persistence (:mod:`.store`, :mod:`.journal`): every change of a table — its creation, seats,
the game's start, each input the runner accepts, the finished record — is appended to the
hub's :class:`~.store.Store` and committed in order before any message it causes leaves a
connection. A restarted server rebuilds each live game from its action log; the seat on turn
starts that turn again (competition.md §4.7). While storage fails, every game is paused.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
import zlib
from collections import deque
from typing import TYPE_CHECKING, Any

from qipai.bots import bot_names, make_bot
from qipai.core import Record, load
from qipai.match import BotPlayer, Pause, Player, RealTime
from qipai.match.presets import CARD_GAMES

from . import chat, conduct, eventstart, fairness, movetext, ratings, tablemsg
from .conns import (
    CLOSE_ABORTED,
    CLOSE_NO_FIRST_MOVE,
    CLOSE_REPLACED,
    CLOSE_TABLE_CLOSED,
    REPLACED,
    Conn,
    encode,
)
from .errors import ApiError, ws_error
from .journal import ALLOWANCE, JournalRunner, replay, restart_turns
from .models import TableRow
from .store import Entry, Gate, TableUpdate
from .tablemsg import STORAGE_PAUSED

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("qipai.server")

#: clock used when a table does not choose one (competition.md §4.5): every card and tile game its
#: card clock, where a timeout plays the game's default action (wakeng: its seed clock S4);
#: other games the board clock
DEFAULT_CLOCK = {**dict.fromkeys(CARD_GAMES, "card_default"), "wakeng": "wakeng_s4"}
BOARD_CLOCK = "board_default"
#: options a lobby table sets when its creator does not (docs/server.md, "Lobby"): a lobby table
#: plays one game (a mahjong-gb or laizi-mahjong state is a whole match of ``hands_per_match``
#: hands), and people end a go game by marking dead stones (rules/go.md §4.2; the library's
#: default, all_alive, suits programs)
LOBBY_ONE_GAME: dict[str, dict[str, Any]] = {"mahjong-gb": {"hands_per_match": 1},
                                             "laizi-mahjong": {"hands_per_match": 1},
                                             "baibian-bajue": {"hands_per_match": 1},
                                             "go": {"end_procedure": "agreement"}}


def seat_bots(settings: Any, game_id: str) -> list[str]:
    """What may fill a seat of ``game_id`` at a lobby table: the built-in bots, then the engines
    the server offers for that game (``engine:NAME``, docs/engines.md)."""
    from qipai.bots import _real_id

    real = _real_id(game_id)
    return bot_names(game_id) + [f"engine:{e.name}" for e in settings.engines if e.game == real]


def engine_refusal(settings: Any, game: Any, bot: str) -> str | None:
    """Why the offered engine ``bot`` cannot play ``game`` with its options (a Gomocup engine
    and a swap opening), or None."""
    if not bot.startswith("engine:"):
        return None
    from qipai.core.errors import OptionError
    from qipai.engines import engine_player

    spec = next((e for e in settings.engines if e.name == bot.split(":", 1)[1]), None)
    try:
        engine_player(game, spec) if spec is not None else None
    except OptionError as e:
        return str(e)
    return None


def default_bot(game_id: str) -> str:
    names = bot_names(game_id)
    for preferred in ("rule", "greedy"):
        if preferred in names:
            return preferred
    return "random"


#: the games whose seat in trusteeship at a lobby table (its player left, asked for it, or let
#: the clock run out twice) is played by the game's built-in bot, not by the rules' timeout
#: answer (pass, or the lowest card; discard the tile drawn, mahjong rule file 2.10): every card
#: and tile game. An event's table keeps the rules' answer (competition.md §4.6).
BOT_TRUSTEE = CARD_GAMES


def bot_trustee(game_id: str, seed: Any) -> Any:
    """The trusteeship policy of :data:`BOT_TRUSTEE`: the game's default bot, seeded from the
    table's seed, the position and the seat (the same choice when a journal is replayed)."""
    name = default_bot(game_id)

    def play(state: Any, seat: int) -> Any:
        key = zlib.crc32(f"{seed}:{len(state.log)}:{seat}".encode())
        return make_bot(game_id, name, seed=key).choose(state, seat)
    return play


def trustee_policy(game_id: str, seed: Any, event_id: Any) -> Any:
    """Who plays a seat in trusteeship at a table of ``game_id``: at a lobby table of a card or
    tile game the game's bot (:func:`bot_trustee`); else None, the rules' default action
    (an event's table, competition.md §4.6)."""
    return bot_trustee(game_id, seed) if event_id is None and game_id in BOT_TRUSTEE else None


def lobby_trustee_at_once(runner: Any, event_id: Any, game_id: str, clock: Any) -> None:
    """At a lobby card or tile table the first timeout puts the seat in trusteeship (its player
    is away; issue 13: the computer plays it until the player takes it back), not the second as
    at an event's table (competition.md §4.6, ``trustee_after`` 2); a clock that names its own
    ``trustee_after`` keeps it."""
    if event_id is not None or game_id not in BOT_TRUSTEE:
        return
    if isinstance(clock, dict) and "trustee_after" in clock:
        return
    for c in runner.clocks:
        c.spec = dataclasses.replace(c.spec, trustee_after=1)


class _Unavailable(Player):
    """An engine seat whose engine the server no longer offers: it forfeits at its turn."""

    def __init__(self, name: str) -> None:
        self.name = name

    def on_turn(self, runner: Any, seat: int, turn: int) -> None:
        from qipai.match import Forfeit

        runner.submit(seat, Forfeit("engine_failed"))


class SeatPlayer(Player):
    """A person's seat: table events go to that seat's connections; moves come from the socket."""

    def __init__(self, table: LiveTable, seat: int, name: str) -> None:
        self.table = table
        self.seat = seat
        self.name = name

    def on_event(self, runner: Any, seat: int, event: dict[str, Any]) -> None:
        if event.get("type") == "refused":
            msg = ws_error(event.get("code", "illegal"), event.get("reason", "refused"),
                           seq=tablemsg.shown_seq(self.table))
            msg["params"] = event.get("params") or {}
            if "retry_after" in msg["params"]:       # a cooldown: when to ask again, in seconds
                msg["retry_after"] = msg["params"]["retry_after"]
            if "refusal" in event:      # the referee's code: catalogue key refusal.<code>
                msg["refusal"] = event["refusal"]
            if "illegal" in event:      # refused moves so far and the limit that loses the game
                msg["illegal"] = event["illegal"]
        else:
            msg = {"type": "event", "event": event}
        self.table.send_seat(seat, msg)


TableRunner = JournalRunner


def public_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """A table's settings as its summary shows them to anyone: without the deal's seed
    (``origin``) and the match secret (``rng``), and an event game's ``event_rng`` without the
    seeds of its deals — any of them tells every hand of a card game still on (the event's
    commitment, match and nonces stay: what a player needs to check the deal later, with the
    seeds the record gives). Nor an event game's rating plan waiting for its round's end
    (:data:`.ratings.PENDING`): it holds the game's result."""
    out = {k: v for k, v in settings.items() if k not in ("origin", "rng", ratings.PENDING)}
    rng = out.get("event_rng")
    if isinstance(rng, dict) and rng.get("deals"):
        out["event_rng"] = {**rng, "deals": [{k: v for k, v in d.items() if k != "seed"}
                                             for d in rng["deals"]]}
    return out


class LiveTable:
    def __init__(self, hub: Hub, row: TableRow) -> None:
        self.hub = hub
        self.id = row.id
        self.game_id = row.game
        self.options = dict(row.options)
        self.game = load(self.game_id, **self.options)
        self.marking = self.game.marking        # (the options are the table's for good)
        self.num_seats = row.num_seats
        self.seats: list[dict[str, Any] | None] = list(row.seats)
        self.settings = dict(row.settings)
        self.status = row.status
        self.owner_id = row.owner_id
        self.event_id = row.event_id
        #: the event game played here (``games.id``) and its round; None at a lobby table
        self.event_game: int | None = row.event_game
        self.event_round: int | None = self.settings.get("event_round")
        self.seed = row.seed or (self.settings.get("origin") or {}).get("seed")
        self.record_id = row.record_id
        self.created = row.created
        self.runner: TableRunner | None = None
        self.task: asyncio.Task[Any] | None = None
        self.conns: dict[int | None, set[Conn]] = {}
        #: called as ``f(seat, msg)`` with every message sent to one seat alone (refusals,
        #: events) and as ``f(None, None)`` after every change of the game (the Bot API's
        #: answers to its requests, :mod:`.botapi`)
        self.listeners: set[Any] = set()
        self.hidden = self.game.hidden_information    # declared by the game (§6.2)
        # this table's writes: appended and committed, with the lease epoch they carry
        self.gate = Gate(row.id, row.lease_epoch or 0)
        self.next_idx = 0             # the next row of its action log
        self.storage_paused = False   # the runner is paused because storage fails
        self.active_at = conduct.epoch(row.created)   # last change of seats or game (unix s)
        self._moves: movetext.MoveList | None = None  # the board games' move list (movetext)
        self._moves_of: Any = None                    # ... of this state
        self._positions: movetext.Positions | None = None   # earlier positions asked for
        self._positions_of: Any = None                # ... of this state
        self.rematch_id: str | None = None        # the table of its rematch (:mod:`.rematch`)
        #: the rating change per rated player once a rated game is stored (:mod:`.ratings`)
        self.rating_changes: list[dict[str, Any]] = []
        #: why a game of a table made rated was not rated (:func:`.ratings.unrated_reason`), once over
        self.unrated: str | None = None
        #: the rating this table's game counts for: {"game": rating key, "time_class"}
        self.rating_board = ratings.board_of(self.game_id, self.num_seats, self.game.seat_counts()[0],
                                             self.settings.get("clock"))
        self.chat_lines: deque[dict[str, Any]] = deque(maxlen=chat.HISTORY)   # see :mod:`.chat`
        self._online_sent: list[bool | None] | None = None     # the last ``presence`` sent
        #: an event game's start held (:mod:`.eventstart`): the persons' seats ready, the timer
        self.ready_seats: set[int] = set(self.settings.get("ready") or ())
        self.hold_timer: asyncio.TimerHandle | None = None

    # ----- lobby -----------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        state = self.runner.state if self.runner else None
        return {
            "id": self.id, "game": self.game_id, "options": self.options, "num_seats": self.num_seats,
            "seats": [dict(s) if s else None for s in self.seats], "status": self.status,
            # the origin holds the deal's seed and "rng" the match secret (§6.1): published as
            # "seed" and "secret" only once the game is over; an event's deal seeds never
            # (public_settings)
            "settings": public_settings(self.settings),
            "event": self.event_id, "created": self.created,
            # experimental / proposal rule sets (Game.marking): shown in the lobby and at the table
            "marking": self.marking,
            "commitment": self.commitment(),
            # an event's seed only in its record (held while the round is on: a duplicate
            # round deals the same cards at its other tables)
            "seed": self.seed if self.status == "finished" and "event_rng" not in self.settings else None,
            "secret": self.settings.get("rng", {}).get("secret") if self.status == "finished" else None,
            # progress of a hidden-information game is news too: only once it is over
            "plies": (len(state.log) if state and not (self.hidden and self.status == "playing") else None),
            "record": self.record_id,
            "spectators": len(self.conns.get(None, ())),
            "rated": self.rated(),
            "rating_board": self.rating_board,
            "rating_changes": self.rating_changes,
            # the table of this game's rematch, once one was asked for (:mod:`.rematch`)
            "rematch": self.rematch_id or self.settings.get("rematch"),
            # an event game waiting to start: for every seat ready, or between two games
            "hold": eventstart.hold(self),
        }

    def rated(self) -> bool:
        """The table was made rated and no bot is seated (a game against a bot is never rated)."""
        return self.settings.get("rated") is True and not any(
            s and ("bot" in s or s.get("bot_account")) for s in self.seats)

    def commitment(self) -> str | None:
        """The commitment to this table's match secret (§6.1), or None (an event's table: its
        games' seeds come from the event's secret, committed when the event was announced)."""
        return self.settings.get("rng", {}).get("commitment")

    def row_seed(self) -> str | None:
        """The seed for the ``tables.seed`` column (a longer event seed stays in the settings)."""
        seed = None if self.seed is None else str(self.seed)
        return seed if seed is None or len(seed) <= 40 else None

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s and s.get("user") == user_id:
                return i
        return None

    def take_seat(self, user_id: int, name: str, seat: int | None, *, bot_account: bool) -> int:
        """Seat the account ``user_id`` (named ``name``; ``bot_account``: a bot account, marked
        so in the seat) in ``seat`` or the first free one; its number."""
        if self.status != "open":
            raise ApiError(409, "table_started", "the game at this table has started")
        if self.seat_of(user_id) is not None:
            raise ApiError(409, "already_seated", "you already sit at this table")
        # a rematch keeps the seats of the last game's players for them (see :mod:`.rematch`)
        kept = {int(k): v for k, v in self.settings.get("reserved", {}).items() if self.seats[int(k)] is None}
        if seat is None:
            seat = next((k for k, v in kept.items() if v == user_id), None)
            if seat is None:
                free = [i for i, x in enumerate(self.seats) if x is None and i not in kept]
                if not free and kept:
                    raise ApiError(409, "seat_reserved", "the free seats are kept for the players of "
                                                         "the last game (a rematch)")
                seat = free[0] if free else None
        elif kept.get(seat, user_id) != user_id:
            raise ApiError(409, "seat_reserved", f"seat {seat} is kept for a player of the last game")
        seat = self._free_seat(seat)
        self.seats[seat] = {"user": user_id, "name": name, **({"bot_account": True} if bot_account else {})}
        self._seats_changed()
        return seat

    def add_bot(self, seat: int | None, bot: str | None) -> int:
        if self.status != "open":
            raise ApiError(409, "table_started", "the game at this table has started")
        bot = bot or default_bot(self.game_id)
        offered = seat_bots(self.hub.settings, self.game_id)
        if bot not in offered:
            valid = ", ".join(offered)
            raise ApiError(400, "bad_bot", f"unknown bot {bot!r}; valid: {valid}",
                           bot=bot, valid=valid)
        why = engine_refusal(self.hub.settings, self.game, bot)
        if why:
            raise ApiError(400, "engine_unfit", why, bot=bot)
        seat = self._free_seat(seat)
        self.seats[seat] = {"bot": bot, "name": bot if bot.startswith("engine:") else f"bot:{bot}"}
        self._seats_changed()
        return seat

    def fill_bots(self, bot: str | None) -> None:
        for i, s in enumerate(self.seats):
            if s is None and self.status == "open":
                self.add_bot(i, bot)

    def leave_seat(self, user_id: int) -> None:
        if self.status != "open":
            raise ApiError(409, "table_started", "the game has started: resign instead")
        seat = self.seat_of(user_id)
        if seat is None:
            raise ApiError(409, "not_seated", "you do not sit at this table")
        self.seats[seat] = None
        self._seats_changed()

    def _free_seat(self, seat: int | None) -> int:
        if seat is None:
            free = [i for i, s in enumerate(self.seats) if s is None]
            if not free:
                raise ApiError(409, "table_full", "every seat is taken")
            return free[0]
        if not isinstance(seat, int) or not 0 <= seat < self.num_seats:
            raise ApiError(400, "bad_seat", f"seats are 0 to {self.num_seats - 1}",
                           max=self.num_seats - 1)
        if self.seats[seat] is not None:
            raise ApiError(409, "seat_taken", f"seat {seat} is taken", seat=seat)
        return seat

    def _seats_changed(self) -> None:
        self.hub.tables.reindex(self)                 # the index of accounts' event tables
        for conns in list(self.conns.values()):       # a watcher who sat down now plays
            for c in list(conns):
                seat = self.seat_of(c.user_id) if c.user_id is not None else None
                if c not in self.conns.setdefault(seat, set()):
                    conns.discard(c)
                    self._join(c, seat)
        self.touch()
        self.presence_changed()
        if all(self.seats):
            self.start()
        else:
            self.save_row()
            self.broadcast_lobby()

    def save_row(self) -> Entry:
        """Queue a write of the table's seats, status, seed and settings."""
        vals = {"seats": [dict(x) if x else None for x in self.seats], "status": self.status,
                "seed": self.row_seed(), "settings": dict(self.settings)}
        return self.hub.store.append(self.gate, TableUpdate(self.id, vals))

    def journal(self, kind: str, seat: int | None, action: str | None, t: int,
                data: dict[str, Any] | None) -> Entry:
        """Append a row to this game's action log (see :mod:`.journal`)."""
        row = {"table_id": self.id, "idx": self.next_idx, "kind": kind, "seat": seat,
               "action": action, "t": t, "data": data, "epoch": self.gate.epoch}
        self.next_idx += 1
        return self.hub.store.append(self.gate, row)

    def unjournal(self, entry: Entry) -> None:
        """The input logged last changed nothing: it is not written."""
        if entry.op is not None and entry.op["idx"] == self.next_idx - 1:
            self.next_idx -= 1
        entry.op = None

    def touch(self) -> None:
        """Something happened at this table (see :mod:`.conduct`)."""
        self.active_at = time.time()

    def idle(self) -> bool:
        """Nothing can happen here without a person: the table is open, or its game has no
        pending deadline. Event tables, and games paused because storage fails, are never idle."""
        if self.event_id is not None or self.storage_paused:
            return False
        if self.status == "open":
            return True
        r = self.runner
        return self.status == "playing" and r is not None and r._earliest()[1] is None

    def abort(self, reason: str) -> None:
        """Give the table up (``status = "aborted"``; :mod:`.conduct` writes it): the game stops
        without a result. Connected clients get an ``aborted`` event, the table and 4410. At a
        table whose action log the database refused a row of (``storage_refused``, its gate
        halted) what is queued for them is dropped, never sent: it may tell of that input."""
        self.status = "aborted"
        if self.task is not None and not self.task.done():
            self.task.cancel()
        why = {"type": "aborted", **self.settings.get("aborted", {}), "reason": reason}
        if self.gate.halted is not None:
            notice = {"type": "event", "event": why}
            for conns in self.conns.values():
                for c in list(conns):
                    c.close(CLOSE_TABLE_CLOSED[0], reason, notice=notice, drop=True)
            return
        event = encode({"type": "event", "event": why})
        table = encode({"type": "table", "table": self.summary()})
        for conns in self.conns.values():
            for c in list(conns):
                c.put(event)
                c.put(table)
                c.close(*(CLOSE_NO_FIRST_MOVE if reason == "no_first_move"
                          else CLOSE_ABORTED if reason == "aborted" else CLOSE_TABLE_CLOSED))

    # ----- presence ---------------------------------------------------------------------
    def online(self) -> list[bool | None]:
        """Per seat, whether its player has a connection open to this table (a page's socket or
        a Bot API game stream); None for an empty seat and a built-in bot's or an engine's (it
        is always there). Every connection to a table ends at the worker serving it (in a
        cluster the other workers relay their sockets to it, :mod:`.relay`), so the table knows
        them all."""
        return [None if not s or "bot" in s else bool(self.conns.get(i)) for i, s in enumerate(self.seats)]

    def presence_changed(self) -> None:
        """Send ``{"type": "presence", "online": [...]}`` (:meth:`online`) to the connections
        that asked for it (a ``presence`` message, :attr:`.conns.Conn.presence`) when it
        changed since last sent."""
        now = self.online()
        if now == self._online_sent:
            return
        self._online_sent = now
        text: str | None = None
        for conns in self.conns.values():
            for c in list(conns):
                if c.presence:
                    text = text or encode({"type": "presence", "online": now})
                    c.put(text)

    def broadcast_lobby(self) -> None:
        if not any(self.conns.values()):
            return
        text = encode({"type": "table", "table": self.summary()})
        for conns in self.conns.values():
            for c in conns:
                c.put(text)

    # ----- the game --------------------------------------------------------------------
    def _players(self) -> list[Player]:
        players: list[Player] = []
        for i, s in enumerate(self.seats):
            assert s is not None
            if "bot" in s and s["bot"].startswith("engine:"):
                players.append(self._engine(s))
            elif "bot" in s:
                bot = make_bot(self.game_id, s["bot"], seed=zlib.crc32(f"{self.seed}/{i}".encode()))
                players.append(BotPlayer(bot, think_ms=int(self.settings.get("bot_delay_ms", 0)),
                                         name=s["name"]))
            else:
                players.append(SeatPlayer(self, i, s["name"]))
        return players

    def _engine(self, seat: dict[str, Any]) -> Player:
        """The door to an engine the server offers (an engine no longer offered, after a
        restart with other engines, forfeits by the game's timeout rule)."""
        from qipai.engines import engine_player

        name = seat["bot"].split(":", 1)[1]
        spec = next((e for e in self.hub.settings.engines if e.name == name), None)
        if spec is None:
            return _Unavailable(seat["name"])
        return engine_player(self.game, spec, name=seat["name"])

    def _make_runner(self, state: Any, time: RealTime) -> TableRunner:
        players = self._players()
        runner = TableRunner(self.game, players, clock=self.settings["clock"], time=time,
                             state=state, names=[s["name"] for s in self.seats],
                             meta={"table": self.id, "commitment": self.commitment(),
                                   **({"replay_of": self.settings["replay_of"]}
                                      if self.settings.get("replay_of") else {})},
                             draw_offers="allowed",
                             # absent entrants' seats (§5.6), in trusteeship the whole game
                             trustee=self.settings.get("trustee") or (),
                             private_hold=self.window_hold(state, players))
        runner.table = self
        conduct.first_move_grace(self, runner)
        runner.trustee_policy = trustee_policy(self.game.id, self.seed, self.event_id)
        lobby_trustee_at_once(runner, self.event_id, self.game.id, self.settings["clock"])
        return runner

    def window_hold(self, state: Any, players: list[Player]) -> int:
        """The minimum time (ms) of a private window (4A4's 叉/勾, mahjong's claims): the
        server's ``private_window_ms`` while a person other than the one answering could read
        from a window's time who could claim, else 0 (no minimum; the bots answer at once).

        The time a window takes must tell a person nothing about another seat's hidden tiles
        or cards. Bots read no timing, so only persons are to be kept from learning:
        * no person seated: 0, nobody to hide anything from;
        * two or more persons: the minimum time, on every window whoever could claim (a
          person's answer, or the referee's for a seat that can only pass, would otherwise
          show the others whether it had a choice);
        * one person, every other seat a bot that answers at once (``answer_now``): 0 when
          the game asks only that nobody learns who could claim (mahjong: ``fixed_window_time``
          false). The bots then answer in the same change as the window's opening, so the
          window lasts exactly as long as the person's own decision: nothing when the person
          cannot claim, else the time the person takes, which depends only on the person's own
          hand. A game that asks for identical timing (4A4) keeps the minimum, as does a table
          with an engine (its thinking time would tell whether it had a choice)."""
        people = sum(1 for s in self.seats if s and "bot" not in s)
        if people == 0:
            return 0
        instant = all(isinstance(p, SeatPlayer)
                      or (isinstance(p, BotPlayer) and not hasattr(p.bot, "choose_async")) for p in players)
        if people == 1 and instant and not state.fixed_window_time:
            return 0
        return int(self.hub.settings.private_window_ms)

    def start(self) -> None:
        """Every seat is taken. An event's game deals from the seed the event gave it; a lobby
        table first commits to its match secret and waits for the seats' nonces (§6.1, see
        :mod:`.fairness`), then deals from the seed derived from both."""
        self._start()
        for f in list(self.hub.on_start):      # the Bot API's gameStart (:mod:`.challenges`)
            f(self)

    def _start(self) -> None:
        origin = self.settings.get("origin") or {}
        seed = self.seed or origin.get("seed")
        if seed is not None or origin.get("deal") is not None:
            self.deal(seed, origin.get("deal"))
            return
        self.status = "playing"
        match = self.settings.setdefault("rng", fairness.new_match())   # kept over a restart
        self.save_row()
        people = fairness.accounts(self.seats)
        window = self.hub.settings.nonce_window_ms
        if window <= 0 or not people:
            self.deal(fairness.derive(match, self.id, people))
            return
        self.broadcast_lobby()
        chat.sync(self)                    # the game is on: who may chat changes (§5.8)
        for seat in range(self.num_seats):
            self.send_seat(seat, self._commitment_msg(window))
        self._nonces_in = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._await_nonces(window))

    def _commitment_msg(self, window: int) -> dict[str, Any]:
        return {"type": "commitment", "commitment": self.commitment(), "match": self.id,
                "nonce_ms": window}

    async def _await_nonces(self, window: int) -> None:
        """The nonce window: deal once every seated account sent a nonce, or after ``window`` ms."""
        try:
            await asyncio.wait_for(self._nonces_in.wait(), window / 1000)
        except TimeoutError:
            pass
        self.deal(fairness.derive(self.settings["rng"], self.id, fairness.accounts(self.seats)))

    def nonce_open(self) -> bool:
        """True while this table waits for its seats' nonces."""
        return self.status == "playing" and self.runner is None and "rng" in self.settings

    def referee_paused(self) -> bool:
        """True while a referee's pause holds the table (also one held for its deal)."""
        if self.runner is None:
            return "held_pause" in self.settings
        return self.runner.paused_at is not None and not self.storage_paused

    def referee_pause(self, msg: Any) -> None:
        """A referee's :class:`~qipai.match.players.Pause` or ``Resume`` (``msg``). A table
        still dealing (its nonce window) holds the pause for the deal (in its settings, so
        that it holds over a restart too: ``held_pause``, ``[reason, by]``), and a resume lets
        it go: its clocks have not started, so there is no time to give back."""
        if self.runner is not None:
            self.runner.submit(None, msg)
            return
        if isinstance(msg, Pause):
            self.settings["held_pause"] = [msg.reason, msg.by]
        else:
            self.settings.pop("held_pause", None)
        self.save_row()

    def take_nonce(self, conn: Conn, seat: int | None, msg: dict[str, Any]) -> None:
        """A seat's ``{"type": "nonce", "nonce": hex}`` (§6.1): one per account, in the window."""
        nonce = fairness.check_nonce(msg.get("nonce"))
        if seat is None or conn.user_id is None:
            conn.put_json(ws_error("not_seated", "only a seated player sends a nonce"))
        elif nonce is None:
            conn.put_json(ws_error("bad_nonce", "a nonce is a lowercase hex string of at most 64 "
                                                "characters"))
        elif not self.nonce_open():
            conn.put_json(ws_error("nonce_closed", "the deal is made: nonces are taken only between "
                                                   "the commitment and the deal"))
        else:
            nonces = self.settings["rng"]["nonces"]
            key = str(conn.user_id)
            if key in nonces:
                conn.put_json(ws_error("nonce_repeated", "your nonce for this game is already taken"))
                return
            nonces[key] = nonce
            self.save_row()
            conn.put_json({"type": "nonce", "nonce": nonce, "accepted": True})
            if set(fairness.accounts(self.seats)) <= set(nonces):
                self._nonces_in.set()

    def deal(self, seed: Any, deal: Any = None) -> None:
        """Deal from ``seed`` (or the given ``deal``) and play."""
        self.seed = seed
        held = self.settings.pop("held_pause", None)     # a referee paused the table as it dealt
        # the origin is saved with the table: a restarted server replays the game from it
        self.settings["origin"] = {"seed": self.seed, "deal": deal}
        state = self.game.new_state(seed=self.seed, deal=deal, num_seats=self.num_seats)
        self.status = "playing"
        self.runner = self._make_runner(state, RealTime())
        self.runner.start_time = self.runner.time.now()
        # seats, status and seed, then the log's first row: one commit, before the deal is shown
        self.save_row()
        self.journal("start", None, None, self.runner.start_time, {"wall": time.time()})
        self.task = asyncio.get_running_loop().create_task(self._play())
        if held:                           # the runner's first input: no clock ever runs
            self.runner.submit(None, Pause(*held))
        chat.sync(self)
        if self.hub.store.down:             # started while storage fails: paused from the start
            self.hub.pause_for_storage(self)

    def resume(self, rows: list[tuple[str, int | None, str | None, int, Any]]) -> None:
        """Rebuild the live game from its action log (after a restart) and go on: the table
        time continues from the last logged time, and each pending turn starts again with the
        allowance it had when it began (§4.7; logged as a ``restart`` row)."""
        deal = (self.settings.get("origin") or {}).get("deal")
        state = self.game.new_state(seed=self.seed, deal=deal, num_seats=self.num_seats)
        now = max(t for _, _, _, t, _ in rows)
        runner = self._make_runner(state, RealTime(start=now))
        self.next_idx = len(rows)
        replay(runner, rows, self._restore_snapshot)
        self.active_at = conduct.wall_of_last_activity(rows) or time.time()
        self.runner = runner
        self.status = "playing"
        runner.replaying = True                  # the restart is logged, then done
        self.journal("restart", None, None, now, {"wall": time.time()})
        restart_turns(runner, now)
        runner.replaying = False
        loop = asyncio.get_running_loop()
        self.task = loop.create_task(self._play())
        # turns that were pending when the server stopped: tell their players again
        for s in range(self.num_seats):
            if runner._turn[s] and runner.clocks[s].running:
                loop.call_soon(runner.players[s].on_turn, runner, s, runner._turn[s])

    def rebuild(self, rows: list[tuple[str, int | None, str | None, int, Any]]) -> None:
        """Rebuild a game that is over from its action log, to show it (its table was finished
        by another worker, or before a restart): the runner is replayed to the end and never
        started, and nothing is written."""
        deal = (self.settings.get("origin") or {}).get("deal")
        state = self.game.new_state(seed=self.seed, deal=deal, num_seats=self.num_seats)
        runner = self._make_runner(state, RealTime(start=max(t for _, _, _, t, _ in rows)))
        self.next_idx = len(rows)
        replay(runner, rows, self._restore_snapshot)
        self.runner = runner

    def _restore_snapshot(self, runner: TableRunner, live: dict[str, Any]) -> None:
        """A game saved by an older version as one snapshot (position, clocks, counters)."""
        deal = (self.settings.get("origin") or {}).get("deal")
        rec = Record(game=self.game_id, options=self.options, actions=list(live["actions"]),
                     seed=self.seed, deal=deal, num_seats=self.num_seats)
        runner.state = self.game.state_from_json(rec.to_json())
        for s, (clock, saved) in enumerate(zip(runner.clocks, live["clocks"])):
            vars(clock).update(saved)
            runner.turn_start[s] = {k: saved[k] for k in ALLOWANCE if k in saved}
        runner._turn = list(live["turns"])
        runner._turn_counter = int(live["turn_counter"])
        # the seats were shown these numbers; later ones count on past any of them
        runner._shown = list(live["turns"])
        runner._seat_turns = [runner._turn_counter] * len(runner._turn)
        runner.events = list(live.get("events", []))
        runner.times = list(live.get("times", []))
        runner.illegal = list(live.get("illegal", runner.illegal))
        runner._offer = live.get("offer")
        runner._cooldown = list(live.get("cooldown", runner._cooldown))
        runner._moves_by = list(live.get("moves_by", runner._moves_by))
        runner.meta.update(live.get("meta", {}))
        runner.start_time, runner.begun = 0, True

    async def _play(self) -> None:
        runner = self.runner
        assert runner is not None
        try:
            outcome = await runner.run()
        except asyncio.CancelledError:
            raise                        # server shutting down: the game stays live in the database
        except Exception:                # pragma: no cover - a bug; keep the table for inspection
            log.exception("table %s: the game loop failed", self.id)
            return
        if self.status == "aborted":
            return
        if conduct.first_move_missed(self) is not None:    # a game that never began for a person
            conduct.give_up(self.hub, self, "no_first_move")
            return
        record = outcome.record
        record.meta["seed_revealed"] = self.seed
        if "rng" in self.settings:     # §6.1: the match secret is revealed with the record
            record.meta["rng"] = fairness.reveal(self.settings["rng"], self.id,
                                                 fairness.accounts(self.seats), self.seed)
        elif "event_rng" in self.settings:   # an event's game: its secret when the event ends
            record.meta["rng"] = self.settings["event_rng"]
        self.status = "finished"
        winners = list(outcome.result.winners) if outcome.result else None
        row = await self.hub.finish_table(self, record, winners)
        self.hub.tables.pop(self.id, None)
        self.hub.remember_finished(self)
        self.record_id = row.id
        self.changed()
        chat.sync(self)                    # the game is over: everyone chats, and reads it all
        for cb in self.hub.on_finish:
            cb(self, row)

    def before_move(self, seat: int, action: str) -> None:
        """The runner is about to judge ``seat``'s ``action``: a move list in use writes its
        entry from the position before it (:meth:`.movetext.MoveList.ahead`)."""
        r = self.runner
        if self._moves is not None and r is not None and self._moves_of is r.state:
            self._moves.sync(r.state)
            self._moves.ahead(r.state, seat, action)

    def changed(self) -> None:
        """The state or a clock changed: send everyone their view (queued behind its log rows).
        A lobby game lost on time by a person who never moved is aborted instead
        (:func:`.conduct.first_move_missed`): nobody is shown that loss."""
        if self.status == "playing" and conduct.first_move_missed(self) is not None:
            conduct.give_up(self.hub, self, "no_first_move")
            return
        self.touch()
        for f in list(self.listeners):
            f(None, None)
        if self.hidden:
            tablemsg.move_list(self)      # stamps each move when it is made (delayed spectators' limit)
        for seat, conns in self.conns.items():
            if not conns:
                continue
            text = tablemsg.encoded(self, seat)
            if seat is None:
                self.send_spectators(text)
            else:
                self._send_all(conns, text)

    def send_state(self, seat: int) -> None:
        """Send the state message to ``seat``'s connections alone."""
        if self.conns.get(seat):
            self._send_all(self.conns[seat], tablemsg.encoded(self, seat))

    def send_spectators(self, text: str) -> None:
        """Send ``text`` to the spectators: after the spectator delay when the game hides
        information."""
        conns = self.conns.get(None)
        if not conns:
            return
        delay = self.settings.get("spectator_delay_ms", 0) if self.hidden else 0
        if delay:
            asyncio.get_running_loop().call_later(delay / 1000, self._send_all, conns, text)
        else:
            self._send_all(conns, text)

    @staticmethod
    def _send_all(conns: set[Conn], text: str) -> None:
        for c in list(conns):
            c.put(text)

    def attach(self, conn: Conn, seat: int | None) -> None:
        """Connect ``conn`` to ``seat`` (None: a spectator) and send it the table and its state."""
        self._join(conn, seat)
        if self.storage_paused:
            conn.put_now(STORAGE_PAUSED)
        if seat is None and self.hidden and self.runner and not self.runner.state.is_terminal():
            delay = self.settings.get("spectator_delay_ms", 0)
            conn.put_json({"type": "hello", "table": self.summary(), "seat": None, "delay_ms": delay,
                           "chat": chat.history(self, conn, seat)})
            self.presence_changed()
            if delay:
                text = tablemsg.encoded(self, None, full=True)
                asyncio.get_running_loop().call_later(delay / 1000, conn.put, text)
                return
        else:
            conn.put_json({"type": "hello", "table": self.summary(), "seat": seat,
                           "chat": chat.history(self, conn, seat)})
            self.presence_changed()
        if seat is not None and self.nonce_open() and \
                str(conn.user_id) not in self.settings["rng"]["nonces"]:    # the deal waits for it
            conn.put_json(self._commitment_msg(self.hub.settings.nonce_window_ms))
        conn.put_json(tablemsg.state_message(self, seat, full=True))
        if seat is not None:
            eventstart.seat_ready(self, seat)

    def _join(self, conn: Conn, seat: int | None) -> None:
        """A seat has one live connection (§6.4): of two, the older is closed with ``replaced``."""
        for old in list(self.conns.get(seat, ())) if seat is not None else ():
            loser = old if old.opened < conn.opened else conn
            self.conns[seat].discard(loser)
            loser.close(*CLOSE_REPLACED, notice=REPLACED)
            if loser is conn:
                return
        self.conns.setdefault(seat, set()).add(conn)

    def detach(self, conn: Conn) -> None:
        for conns in self.conns.values():
            conns.discard(conn)
        self.presence_changed()

    def send_seat(self, seat: int, msg: dict[str, Any]) -> None:
        for c in list(self.conns.get(seat, ())):
            c.put_json(msg)
        for f in list(self.listeners):
            f(seat, msg)
