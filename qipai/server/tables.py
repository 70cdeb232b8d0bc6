"""Live tables: seats, connections, persistence, and what each connection is sent.

A :class:`LiveTable` is one lobby table. When every seat is taken (people or bots) it starts a
:class:`~qipai.match.runner.GameRunner` in real time (:mod:`.tablegame`: the players, the deal,
the runner, resume after a restart). After every change the table sends each connected seat a
message built from ``state.view(seat)`` and each spectator one built from ``state.view(None)``
(delayed by the table's spectator delay when the game hides information).

Persistence (:mod:`.store`, :mod:`.journal`): every change of a table — its creation, seats,
the game's start, each input the runner accepts, the finished record — is appended to the
hub's :class:`~.store.Store` and committed in order before any message it causes leaves a
connection. A restarted server rebuilds each live game from its action log; the seat on turn
starts that turn again (competition.md §4.7). While storage fails, every game is paused.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import TYPE_CHECKING, Any

from qipai.core import load

from . import chat, conduct, eventstart, movetext, ratings, tablemsg
from .conns import (
    CLOSE_ABORTED,
    CLOSE_NO_FIRST_MOVE,
    CLOSE_REPLACED,
    CLOSE_TABLE_CLOSED,
    REPLACED,
    Conn,
    encode,
)
from .errors import ApiError
from .models import TableRow
from .store import Entry, Gate, TableUpdate
from .tabledefaults import default_bot, engine_refusal, refuse_bot_clock, seat_bots
from .tablegame import TableGame, TableRunner
from .tablemsg import STORAGE_PAUSED

if TYPE_CHECKING:
    from .hub import Hub


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


class LiveTable(TableGame):
    def __init__(self, hub: Hub, row: TableRow) -> None:
        self.hub = hub
        self.id = row.id
        self.game_id = row.game
        # the options the table was made with, and those its game is played with among people
        # (Game.people_options, chosen as it deals: :meth:`TableGame.people_rules`)
        self.options = {**row.options, **(row.settings or {}).get("people_options", {})}
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
            # who made the table: they may seat bots without sitting (the page offers the buttons)
            "owner": self.owner_id,
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
        refuse_bot_clock(self.settings.get("clock"), bot_account)
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
        without a result. Connected clients get an ``aborted`` event, the table and 4410, once
        the aborted status is written (its write queued before, :func:`.conduct.give_up`). At a
        table whose action log the database refused a row of (``storage_refused``, its gate
        halted) what is queued for them is dropped, never sent: it may tell of that input; the
        event and 4410 still wait for that write (they once went at once, and a client asking
        for the table then could find it still playing in the database: 404)."""
        self.status = "aborted"
        if self.task is not None and not self.task.done():
            self.task.cancel()
        why = {"type": "aborted", **self.settings.get("aborted", {}), "reason": reason}
        if self.gate.halted is not None:
            notice = encode({"type": "event", "event": why})
            for conns in self.conns.values():
                for c in list(conns):
                    c.queue.clear()
                    c.put(notice)
                    c.close(CLOSE_TABLE_CLOSED[0], reason)
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

    # ----- messages --------------------------------------------------------------------
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
