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
import json
import logging
import secrets
import time
import zlib
from collections import deque
from collections.abc import Callable
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.orm import Session, sessionmaker

from qipai.bots import bot_names, make_bot
from qipai.core import Record, load
from qipai.core.errors import OptionError, QipaiError
from qipai.core.game import State
from qipai.core.registry import game_class
from qipai.match import BotPlayer, Move, Player, RealTime, clock_preset
from qipai.match.players import (
    MAX_LISTED,
    AcceptDraw,
    DeclineDraw,
    Entrust,
    OfferDraw,
    Pause,
    Reclaim,
    Resign,
    Resume,
)

from . import chat, conduct, fairness, movetext
from .config import Settings
from .conns import CLOSE_REPLACED, CLOSE_TABLE_CLOSED, REPLACED, Conn, Sessions
from .errors import ApiError, ws_error
from .journal import ALLOWANCE, JournalRunner, replay, restart_turns
from .models import ActionRow, RecordPlayer, RecordRow, TableRow, now_iso
from .ratelimit import RateLimit
from .store import DropTable, Entry, Gate, NewTable, Store, TableUpdate, faults_enabled, install_fault_hook

log = logging.getLogger("qipai.server")

#: clock used when a table does not choose one (competition.md §4.5): every card and tile game its
#: card clock, where a timeout plays the game's default action (wakeng: its seed clock S4);
#: other games the board clock
DEFAULT_CLOCK = {**dict.fromkeys(("doudizhu", "shengji", "baohuang", "sandayi", "fouafour",
                                  "mahjong-gb"), "card_default"),
                 "wakeng": "wakeng_s4"}
BOARD_CLOCK = "board_default"
#: options a lobby table sets when its creator does not (docs/server.md, "Lobby"): a lobby table
#: plays one game (a mahjong-gb state is a whole match of ``hands_per_match`` hands), and people
#: end a go game by marking dead stones (rules/go.md §4.2; the library's default, all_alive, suits
#: programs)
LOBBY_ONE_GAME: dict[str, dict[str, Any]] = {"mahjong-gb": {"hands_per_match": 1},
                                             "go": {"end_procedure": "agreement"}}
#: the longest action text a seat may send (a whole junqi layout is about 180 characters)
MAX_ACTION_TEXT = 1000
#: move-list entries a state message repeats (a client that missed more asks for a sync)
MOVES_TAIL = 4
#: the parts of a clock snapshot that tell how much time a seat has used in the game (with
#: them, its deadline does too; a clock with a cap alone tells only the current turn's)
BANKED = frozenset({"bank", "periods", "canadian"})
#: what seats are told while storage fails (sent at once, ahead of anything still queued)
STORAGE_PAUSED = {"type": "paused", "reason": "storage_unavailable",
                  "message": "the server cannot save moves right now: the game is paused and no "
                             "clock runs; it goes on by itself when storage is back"}


def default_bot(game_id: str) -> str:
    names = bot_names(game_id)
    for preferred in ("rule", "greedy"):
        if preferred in names:
            return preferred
    return "random"


class SeatPlayer(Player):
    """A person's seat: table events go to that seat's connections; moves come from the socket."""

    def __init__(self, table: LiveTable, seat: int, name: str) -> None:
        self.table = table
        self.seat = seat
        self.name = name

    def on_event(self, runner: Any, seat: int, event: dict[str, Any]) -> None:
        if event.get("type") == "refused":
            msg = ws_error(event.get("code", "illegal"), event.get("reason", "refused"),
                           seq=len(runner.state.log))
            msg["params"] = event.get("params") or {}
            if "refusal" in event:      # the referee's code: catalogue key refusal.<code>
                msg["refusal"] = event["refusal"]
        else:
            msg = {"type": "event", "event": event}
        self.table.send_seat(seat, msg)


TableRunner = JournalRunner


class LiveTable:
    def __init__(self, hub: Hub, row: TableRow) -> None:
        self.hub = hub
        self.id = row.id
        self.game_id = row.game
        self.options = dict(row.options)
        self.game = load(self.game_id, **self.options)
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
        self.hidden = self.game.hidden_information    # declared by the game (§6.2)
        self.gate = Gate()            # this table's writes: appended and committed
        self.next_idx = 0             # the next row of its action log
        self.storage_paused = False   # the runner is paused because storage fails
        self.active_at = conduct.epoch(row.created)   # last change of seats or game (unix s)
        self._moves: movetext.MoveList | None = None  # the board games' move list (movetext)
        self._moves_of: Any = None                    # ... of this state
        self.rematch_id: str | None = None        # the table of its rematch (:mod:`.rematch`)
        self.chat_lines: deque[dict[str, Any]] = deque(maxlen=chat.HISTORY)   # see :mod:`.chat`

    # ----- lobby -----------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        state = self.runner.state if self.runner else None
        return {
            "id": self.id, "game": self.game_id, "options": self.options, "num_seats": self.num_seats,
            "seats": [dict(s) if s else None for s in self.seats], "status": self.status,
            # the origin holds the deal's seed and "rng" the match secret (§6.1): published as
            # "seed" and "secret" only once the game is over
            "settings": {k: v for k, v in self.settings.items() if k not in ("origin", "rng")},
            "event": self.event_id, "created": self.created,
            "commitment": self.commitment(),
            "seed": self.seed if self.status == "finished" else None,
            "secret": self.settings.get("rng", {}).get("secret") if self.status == "finished" else None,
            # progress of a hidden-information game is news too: only once it is over
            "plies": (len(state.log) if state and not (self.hidden and self.status == "playing") else None),
            "record": self.record_id,
            "spectators": len(self.conns.get(None, ())),
        }

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

    def take_seat(self, user_id: int, name: str, seat: int | None) -> int:
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
        self.seats[seat] = {"user": user_id, "name": name}
        self._seats_changed()
        return seat

    def add_bot(self, seat: int | None, bot: str | None) -> int:
        if self.status != "open":
            raise ApiError(409, "table_started", "the game at this table has started")
        bot = bot or default_bot(self.game_id)
        if bot not in bot_names(self.game_id):
            valid = ", ".join(bot_names(self.game_id))
            raise ApiError(400, "bad_bot", f"unknown bot {bot!r}; valid: {valid}",
                           bot=bot, valid=valid)
        seat = self._free_seat(seat)
        self.seats[seat] = {"bot": bot, "name": f"bot:{bot}"}
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
        for conns in list(self.conns.values()):       # a watcher who sat down now plays
            for c in list(conns):
                seat = self.seat_of(c.user_id) if c.user_id is not None else None
                if c not in self.conns.setdefault(seat, set()):
                    conns.discard(c)
                    self._join(c, seat)
        self.touch()
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
               "action": action, "t": t, "data": data}
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
        without a result. Connected clients get an ``aborted`` event, the table and 4410."""
        self.status = "aborted"
        if self.task is not None and not self.task.done():
            self.task.cancel()
        event = {"type": "event", "event": {"type": "aborted", "reason": reason}}
        table = {"type": "table", "table": self.summary()}
        for conns in self.conns.values():
            for c in list(conns):
                c.put_json(event)
                c.put_json(table)
                c.close(*CLOSE_TABLE_CLOSED)

    def broadcast_lobby(self) -> None:
        msg = {"type": "table", "table": self.summary()}
        for conns in self.conns.values():
            for c in conns:
                c.put_json(msg)

    # ----- the game --------------------------------------------------------------------
    def _players(self) -> list[Player]:
        players: list[Player] = []
        for i, s in enumerate(self.seats):
            assert s is not None
            if "bot" in s:
                bot = make_bot(self.game_id, s["bot"], seed=zlib.crc32(f"{self.seed}/{i}".encode()))
                players.append(BotPlayer(bot, think_ms=int(self.settings.get("bot_delay_ms", 0)),
                                         name=s["name"]))
            else:
                players.append(SeatPlayer(self, i, s["name"]))
        return players

    def _make_runner(self, state: Any, time: RealTime) -> TableRunner:
        # private windows (4A4's 叉/勾) close on one schedule whoever could claim; a table of bots
        # alone has nobody to hide it from and plays on at once
        people = any("bot" not in s for s in self.seats if s)
        runner = TableRunner(self.game, self._players(), clock=self.settings["clock"], time=time,
                             state=state, names=[s["name"] for s in self.seats],
                             meta={"table": self.id, "commitment": self.commitment(),
                                   **({"replay_of": self.settings["replay_of"]}
                                      if self.settings.get("replay_of") else {})},
                             draw_offers="allowed",
                             private_hold=self.hub.settings.private_window_ms if people else 0)
        runner.table = self
        return runner

    def start(self) -> None:
        """Every seat is taken. An event's game deals from the seed the event gave it; a lobby
        table first commits to its match secret and waits for the seats' nonces (§6.1, see
        :mod:`.fairness`), then deals from the seed derived from both."""
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

    def changed(self) -> None:
        """The state or a clock changed: send everyone their view (queued behind its log rows)."""
        self.touch()
        if self.hidden:
            self.move_list()      # stamps each move when it is made (delayed spectators' limit)
        for seat, conns in self.conns.items():
            if not conns:
                continue
            text = json.dumps(self.message(seat), ensure_ascii=False, separators=(",", ":"))
            if seat is None:
                self.send_spectators(text)
            else:
                self._send_all(conns, text)

    def send_state(self, seat: int) -> None:
        """Send the state message to ``seat``'s connections alone."""
        if self.conns.get(seat):
            self._send_all(self.conns[seat], json.dumps(self.message(seat), ensure_ascii=False,
                                                        separators=(",", ":")))

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

    def move_list(self) -> movetext.MoveList | None:
        """The move list of the game in play (board games only), brought up to date."""
        r = self.runner
        if r is None or not movetext.has_moves(self.game_id):
            return None
        if self._moves is None or self._moves_of is not r.state:
            self._moves, self._moves_of = movetext.MoveList(r.state), r.state
        self._moves.sync(r.state)
        return self._moves

    def message(self, seat: int | None, full: bool = False) -> dict[str, Any]:
        """The state message for ``seat`` (None: spectator), built from ``view(seat)``.

        For a board game it carries ``moves``: ``{"from": i, "list": [...]}``, the move list
        (:mod:`.movetext`) from entry ``i`` on: the whole list when ``full`` (a new connection,
        a ``sync``), else its last few entries; a client missing entries before ``i`` asks for
        a ``sync``."""
        r = self.runner
        if r is None:
            return {"type": "table", "table": self.summary()}
        st = r.state
        view = st.view(seat)
        to_act = list(st.to_act) if not st.is_terminal() else []
        clocks = r.clock_state()
        if to_act and st.turns_private():
            # who is still deciding is private (4A4 windows): each seat learns only its own turn
            to_act = [seat] if seat in to_act and r.turn_of(seat) else []
            if "to_act" in view:           # a held answer (see GameRunner) is no longer pending
                view["to_act"] = to_act
            clocks = [c if s == seat else {k: v for k, v in c.items() if k != "deadline"}
                      for s, c in enumerate(clocks)]
        if type(st).turns_private is not State.turns_private:
            # time a seat spends answering a private window comes off its bank: shown to the
            # others, a bank that went down would tell who could claim (fouafour §3.4), so the
            # others' remaining time is not shown in such games (the record has it at the end)
            clocks = [c if s == seat or not BANKED.intersection(c) else
                      {k: v for k, v in c.items() if k not in BANKED and k != "deadline"}
                      for s, c in enumerate(clocks)]
        msg: dict[str, Any] = {
            "type": "state", "table": self.id, "game": self.game_id, "status": self.status,
            "seq": len(st.log), "seat": seat, "to_act": to_act, "view": view,
            "names": r.names, "clocks": clocks, "now": r.time.now(),
            # which seats a bot plays (public, as the seats are): a board answers at once when
            # only bots would see how long it took (auto-pass)
            "bots": [bool(s and s.get("bot")) for s in self.seats],
            "result": st.result.to_json() if st.result else None, "record": self.record_id,
        }
        if r.paused_at is not None and not self.storage_paused:
            msg["paused_at"] = r.paused_at      # a referee's pause: every countdown stands here
        if seat is not None and seat in to_act:
            msg["turn"] = r.turn_of(seat)      # this seat's pending decision (see _move)
            listed = False
            if "legal_moves" not in view and "legal" not in view:
                legal = st.legal_actions(seat)
                if len(legal) <= MAX_LISTED:
                    msg["legal"] = [str(a) for a in legal]
                    listed = True
                else:              # too long to send (gomoku's two5 offers): its length only
                    msg["legal"], msg["legal_count"] = None, len(legal)
            if not listed:
                # a set the board cannot choose from (shengji's follows, sandayi's burial): one
                # legal action of this seat, the one its clock would take, for the hint button
                hint = st.default_action(seat)
                if hint is not None:
                    msg["hint"] = str(hint)
        if r._offer is not None:
            msg["draw_offer"] = r._offer
        moves = self.move_list()
        if moves is not None:
            start = 0 if full else max(0, len(moves.entries) - MOVES_TAIL)
            msg["moves"] = {"from": start, "list": moves.entries[start:]}
        return msg

    def position(self, conn: Conn, seat: int | None, msg: dict[str, Any]) -> None:
        """Answer ``{"type": "position", "ply": k}``: the view of ``seat`` after the first
        ``k`` moves of the game in play, for the move list's navigation. A spectator of a
        hidden-information game is given only positions older than its delay."""
        ply = msg.get("ply")
        moves = self.move_list()
        if moves is None or self.runner is None:
            conn.put_json(ws_error("no_moves", f"{self.game_id} has no move list"))
            return
        limit = len(moves.entries)
        if seat is None and self.hidden and not self.runner.state.is_terminal():
            limit = moves.visible(self.settings.get("spectator_delay_ms", 0) / 1000)
        if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= limit:
            conn.put_json(ws_error("bad_ply", f"'ply' is a move number from 0 to {limit}",
                                   ply=ply if isinstance(ply, int) else None))
            return
        view = movetext.position(self.runner.state, ply, seat)
        conn.put_json({"type": "position", "ply": ply, "view": view})

    # ----- connections -----------------------------------------------------------------
    def attach(self, conn: Conn, seat: int | None) -> None:
        """Connect ``conn`` to ``seat`` (None: a spectator) and send it the table and its state."""
        self._join(conn, seat)
        if self.storage_paused:
            conn.put_now(STORAGE_PAUSED)
        if seat is None and self.hidden and self.runner and not self.runner.state.is_terminal():
            delay = self.settings.get("spectator_delay_ms", 0)
            conn.put_json({"type": "hello", "table": self.summary(), "seat": None, "delay_ms": delay,
                           "chat": chat.history(self, conn, seat)})
            if delay:
                text = json.dumps(self.message(None, full=True), ensure_ascii=False, separators=(",", ":"))
                asyncio.get_running_loop().call_later(delay / 1000, conn.put, text)
                return
        else:
            conn.put_json({"type": "hello", "table": self.summary(), "seat": seat,
                           "chat": chat.history(self, conn, seat)})
        if seat is not None and self.nonce_open() and \
                str(conn.user_id) not in self.settings["rng"]["nonces"]:    # the deal waits for it
            conn.put_json(self._commitment_msg(self.hub.settings.nonce_window_ms))
        conn.put_json(self.message(seat, full=True))

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

    def send_seat(self, seat: int, msg: dict[str, Any]) -> None:
        for c in list(self.conns.get(seat, ())):
            c.put_json(msg)

    def handle(self, conn: Conn, seat: int | None, msg: dict[str, Any]) -> None:
        """A message from a client (already JSON-decoded, an object). Replies go to ``conn``;
        a connection the server closed (replaced, signed out) is not listened to any more."""
        if conn.closed:
            return
        kind = msg.get("type")
        if kind == "ping":
            # at once, not behind what waits to be saved: it tells nothing about the game
            conn.put_now({"type": "pong", "now": self.runner.time.now() if self.runner else None})
            return
        if kind == "nonce":
            self.take_nonce(conn, seat, msg)
            return
        if kind == "chat":
            chat.say(self, conn, seat, msg)
            return
        if kind == "sync":
            text = json.dumps(self.message(seat, full=True), ensure_ascii=False, separators=(",", ":"))
            delay = self.settings.get("spectator_delay_ms", 0) if seat is None and self.hidden else 0
            if delay:
                asyncio.get_running_loop().call_later(delay / 1000, conn.put, text)
            else:
                conn.put(text)
            return
        if kind == "position":
            self.position(conn, seat, msg)
            return
        if kind not in ("move", "resign", "draw_offer", "draw_accept", "draw_decline", "resume", "entrust"):
            conn.put_json(ws_error("unknown_type", f"unknown message type {kind!r}"))
            return
        if seat is None:
            conn.put_json(ws_error("not_seated", "spectators cannot play"))
            return
        claimed = msg.get("seat", seat)
        if claimed != seat:
            conn.put_json(ws_error("not_your_seat", f"you sit in seat {seat}, not {claimed!r}",
                                   seat=seat))
            return
        r = self.runner
        if r is None or self.status != "playing" or r.state.is_terminal():
            conn.put_json(ws_error("not_playing", "no game is running at this table"))
            return
        if self.hub.store.down:             # said at once, ahead of what waits to be saved
            conn.put_now(ws_error("storage_unavailable", STORAGE_PAUSED["message"]))
            return
        if kind == "resign":
            r.submit(seat, Resign())
        elif kind == "draw_offer":
            r.submit(seat, OfferDraw())
        elif kind == "draw_accept":
            r.submit(seat, AcceptDraw())
        elif kind == "draw_decline":
            r.submit(seat, DeclineDraw())
        elif kind == "resume":
            r.submit(seat, Reclaim())
        elif kind == "entrust":
            r.submit(seat, Entrust())
        else:
            self._move(conn, seat, msg)

    def _move(self, conn: Conn, seat: int, msg: dict[str, Any]) -> None:
        """A move answers the state numbered ``seq``; anything else is stale and ignored. When
        several seats act at once (claims on a discard), another seat's answer changes ``seq``
        but not this seat's pending decision: a move carrying ``turn`` (the ``turn`` of the
        seat's state message) is matched against that decision instead of ``seq``."""
        r = self.runner
        assert r is not None
        seq, action, turn = msg.get("seq"), msg.get("action"), msg.get("turn")
        if not isinstance(seq, int) or isinstance(seq, bool):
            conn.put_json(ws_error("bad_message", "a move needs an integer 'seq' (the state's seq)"))
            return
        if not isinstance(action, str) or not action or len(action) > MAX_ACTION_TEXT:
            conn.put_json(ws_error("bad_message", f"a move needs an 'action' text of at most "
                                                  f"{MAX_ACTION_TEXT} characters", max=MAX_ACTION_TEXT))
            return
        if turn is not None and (not isinstance(turn, int) or isinstance(turn, bool)):
            conn.put_json(ws_error("bad_message", "'turn' is the integer 'turn' of your state message"))
            return
        now = len(r.state.log)
        if turn is not None and seat in r.state.to_act and turn == r.turn_of(seat) != 0:
            r.submit(seat, Move(action, turn=turn))
            return
        if turn is not None or seq != now:
            # a duplicate (already applied) or an answer to an older state: ignored
            conn.put_json({"type": "ignored", "seq": seq, "current": now,
                           "reason": "duplicate or stale move"})
            return
        if seat not in r.state.to_act or not r.turn_of(seat):
            conn.put_json(ws_error("not_your_turn", f"seat {seat} is not to act", seq=now))
            return
        r.submit(seat, Move(action, turn=r.turn_of(seat)))


#: the columns of a new table row
TABLE_COLUMNS = ("id", "game", "options", "num_seats", "seats", "settings", "status", "owner_id",
                 "event_id", "event_game", "created")


def insert_tables(s: Session, rows: list[TableRow]) -> None:
    """Store new table rows (made by :meth:`Hub.new_row`) in one statement."""
    if rows:
        s.execute(insert(TableRow), [row_values(r) for r in rows])


def row_values(row: TableRow) -> dict[str, Any]:
    """The :data:`TABLE_COLUMNS` of a new table row."""
    return {c: getattr(row, c) for c in TABLE_COLUMNS}


class Hub:
    """Every table of this server process; their writes go through :attr:`store` in order."""

    def __init__(self, db: sessionmaker[Session], settings: Settings) -> None:
        self.db = db
        self.settings = settings
        if faults_enabled(settings.storage_faults):
            install_fault_hook(db)
        self.store = Store(db, stall=settings.storage_stall, request_wait=settings.storage_wait)
        self.store.listeners.append(self._storage)
        self.tables: dict[str, LiveTable] = {}
        self.finished: dict[str, LiveTable] = {}
        self.chat_limit = RateLimit(*settings.limits.chat_account)    # lines per account
        #: called with (table, record row) when a table's game is over and stored
        self.on_finish: list[Callable[[LiveTable, RecordRow], Any]] = []
        self.sessions = Sessions()    # open sockets by session (signing out closes them)
        self._sweeper: asyncio.Task[None] | None = None

    # ----- lifecycle -------------------------------------------------------------------
    async def start(self) -> None:
        """Load the open tables and rebuild every live game from its action log."""
        self.store.start()
        rows, logs = await self.store.call(_load_live, write=False)
        lines = await self.store.call(lambda s: chat.load_tables(s, [r.id for r in rows]), write=False)
        for row in rows:
            table = LiveTable(self, row)
            table.chat_lines.extend(lines.get(table.id, ()))
            self.tables[table.id] = table
            try:
                if row.status == "playing" and logs.get(row.id):
                    table.resume(logs[row.id])
                elif all(table.seats):        # a table whose game never began
                    table.start()
            except QipaiError:
                log.exception("table %s cannot be resumed", row.id)
        self._sweeper = asyncio.get_running_loop().create_task(conduct.sweep(self))

    async def stop(self) -> None:
        """Stop every game where it stands (nothing is decided) and write what is pending."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        tasks = [t.task for t in self.tables.values() if t.task and not t.task.done()]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.store.stop(self.settings.storage_wait)

    def _storage(self, down: bool) -> None:
        """Storage failed (``down``) or works again: pause or resume every running game. A
        game a referee paused stays as the referee left it."""
        for t in list(self.tables.values()):
            r = t.runner
            if r is None or t.status != "playing" or r.state.is_terminal():
                continue
            if down:
                self.pause_for_storage(t)
            elif t.storage_paused:
                t.storage_paused = False
                r.submit(None, Resume())

    @staticmethod
    def pause_for_storage(t: LiveTable) -> None:
        """Pause ``t``'s game while storage fails and tell its seats and spectators at once."""
        r = t.runner
        if r is None or r.paused_at is not None or t.storage_paused:
            return
        t.storage_paused = True
        r.submit(None, Pause("storage"))
        for conns in t.conns.values():
            for c in conns:
                c.put_now(STORAGE_PAUSED)

    # ----- tables ------------------------------------------------------------------------
    def create_table(self, owner_id: int | None, game_id: str, options: dict[str, Any],
                     settings: dict[str, Any], num_seats: int | None = None) -> LiveTable:
        """A new open table (a lobby table: it plays one game, so a match option not given is
        set to one game, :data:`LOBBY_ONE_GAME`). Raises ApiError for an unknown game, option,
        clock or seat count, or 409 ``too_many_tables`` (:func:`.conduct.check_quota`)."""
        if owner_id is not None:
            conduct.check_quota(self, owner_id)
        if isinstance(options, dict):
            options = {**LOBBY_ONE_GAME.get(game_id, {}), **options}
        row = self.new_row(owner_id, game_id, options, settings, num_seats)
        table = self.adopt(row)
        vals = row_values(row)
        self.store.append(table.gate, NewTable(vals))
        return table

    def adopt(self, row: TableRow) -> LiveTable:
        """The live table of ``row``, a table already stored."""
        table = LiveTable(self, row)
        self.tables[table.id] = table
        return table

    def new_row(self, owner_id: int | None, game_id: str, options: dict[str, Any],
                settings: dict[str, Any], num_seats: int | None = None, event_id: str | None = None,
                event_game: int | None = None, extra: dict[str, Any] | None = None,
                seats: list[dict[str, Any] | None] | None = None) -> TableRow:
        """The row of a new open table, not stored yet (:func:`insert_tables` stores it; it
        touches nothing live, so a worker thread may make it). ``extra``: settings set by the
        server; ``seats``: the players already seated. Raises ApiError for an unknown game,
        option, clock or seat count."""
        try:
            cls = game_class(game_id)
            game = load(game_id, **options)
        except (OptionError, TypeError) as e:   # TypeError: a value of the wrong shape
            raise ApiError(400, "bad_options", str(e), detail=str(e)) from None
        n = num_seats or cls.seats[0]
        if n not in cls.seats:
            raise ApiError(400, "bad_seats", f"{game_id} is played by {', '.join(map(str, cls.seats))} seats",
                           game=game_id, seats=list(cls.seats))
        clean = {**self._settings(game.id, settings), **(extra or {})}   # extra: set by the server
        return TableRow(id=secrets.token_hex(4), game=game.id, options=dict(game.options), num_seats=n,
                        seats=list(seats or [None] * n), settings=clean, status="open", owner_id=owner_id,
                        event_id=event_id, event_game=event_game, created=now_iso())

    def _settings(self, game_id: str, given: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(given, dict):
            raise ApiError(400, "bad_settings", "settings must be an object")
        known = {"clock", "spectator_delay_ms", "bot_delay_ms"}
        unknown = set(given) - known
        if unknown:
            raise ApiError(400, "bad_settings",
                           f"unknown setting(s) {sorted(unknown)}; valid: {sorted(known)}")
        clock = given.get("clock", DEFAULT_CLOCK.get(game_id, BOARD_CLOCK))
        try:
            clock_preset(clock)
        except (OptionError, TypeError, KeyError, ValueError) as e:
            raise ApiError(400, "bad_clock", str(e), detail=str(e)) from None
        out = {"clock": clock}
        for key, default, top in (("spectator_delay_ms", self.settings.spectator_delay_ms, 600_000),
                                  ("bot_delay_ms", self.settings.bot_delay_ms, 60_000)):
            v = given.get(key, default)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= top:
                raise ApiError(400, "bad_settings", f"{key} must be an integer from 0 to {top}",
                               key=key, max=top)
            out[key] = v
        return out

    def drop_table(self, t: LiveTable) -> None:
        """Forget a table that has not started (a creation request that failed half-way)."""
        assert t.runner is None
        self.tables.pop(t.id, None)
        self.store.append(t.gate, DropTable(t.id))

    def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id) or self.finished.get(table_id)
        if table is None:
            raise ApiError(404, "no_table", f"no live table {table_id!r}")
        return table

    async def finish_table(self, t: LiveTable, record: Record,
                           winners: list[int] | None = None) -> RecordRow:
        """Store the finished game's record and close the table: queued behind the game's last
        log rows and written in the same order (retried for as long as storage fails; a server
        stopped before then rebuilds the game from its log and finishes it again). The stored
        result is the record's with the seats that won (``winners``, empty for a draw), so a
        history says who won without replaying the game."""
        players = [s.get("user") if s else None for s in t.seats]
        result = record.result if winners is None or record.result is None else {
            **record.result, "winners": winners}
        rec = RecordRow(table_id=t.id, game=t.game_id, players=players,
                        names=[x["name"] for x in t.seats], result=result,
                        record=record.to_json())
        vals = {"status": "finished", "seed": t.row_seed(), "live": None,
                "seats": [dict(x) if x else None for x in t.seats]}

        def write(s: Session) -> None:
            s.add(rec)
            s.flush()
            for seat, uid in enumerate(players):
                if uid is not None and not s.get(RecordPlayer, (rec.id, uid)):
                    s.add(RecordPlayer(record_id=rec.id, user_id=uid, seat=seat))
            s.execute(update(TableRow).where(TableRow.id == t.id).values(record_id=rec.id, **vals))
        entry = self.store.append(t.gate, write)
        await t.gate.wait(entry.tag)
        return rec

    def remember_finished(self, t: LiveTable) -> None:
        self.finished[t.id] = t
        while len(self.finished) > 1000:          # keep recent ones for reconnecting clients
            self.finished.pop(next(iter(self.finished)))


def _load_live(s: Session) -> tuple[list[TableRow], dict[str, list[tuple[Any, ...]]]]:
    """The open and playing tables, and the action log of each playing one (in order)."""
    rows = s.scalars(select(TableRow).where(TableRow.status.in_(("open", "playing")))).all()
    playing = [r.id for r in rows if r.status == "playing"]
    logs: dict[str, list[tuple[Any, ...]]] = {}
    for i in range(0, len(playing), 500):
        q = (select(ActionRow.table_id, ActionRow.kind, ActionRow.seat, ActionRow.action,
                    ActionRow.t, ActionRow.data)
             .where(ActionRow.table_id.in_(playing[i:i + 500])).order_by(ActionRow.table_id, ActionRow.idx))
        for tid, *rest in s.execute(q):
            logs.setdefault(tid, []).append(tuple(rest))
    return list(rows), logs
