"""Live tables: seats, the game runner under the real clock, connections, persistence, resume.

A :class:`LiveTable` is one lobby table. When every seat is taken (people or bots) it starts a
:class:`~qipai.match.runner.GameRunner` in real time; the runner is the referee of clocks,
timeouts, resignation and draw offers, the game state the referee of the rules. After every
change the table sends each connected seat a message built from ``state.view(seat)`` and each
spectator one built from ``state.view(None)`` (delayed by the table's spectator delay when the
game hides information).

Persistence: the :class:`Hub` writes every changed live game (action log, clocks, runner
counters, *table time*) every ``flush_interval`` seconds and the table time of idle games every
``heartbeat`` seconds. Table time is the runner's clock; a restarted server continues it from
the last saved value, so clocks are paused while the server is down (at most one heartbeat of
a turn is given back after a crash; nothing after a clean shutdown). A finished game is
written as a record at once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import zlib
from collections.abc import Callable
from typing import Any

from sqlalchemy import String, bindparam, delete, insert, select, update
from sqlalchemy.orm import Session, sessionmaker

from qipai.bots import bot_names, make_bot
from qipai.core import Record, commitment, load, new_seed
from qipai.core.errors import OptionError, QipaiError
from qipai.core.registry import game_class
from qipai.match import BotPlayer, Move, Player, RealTime, clock_preset
from qipai.match.players import MAX_LISTED, AcceptDraw, DeclineDraw, OfferDraw, Resign
from qipai.match.runner import GameRunner

from .config import Settings
from .errors import ApiError, ws_error
from .models import RecordPlayer, RecordRow, TableRow, now_iso

log = logging.getLogger("qipai.server")

#: clock used when a table does not choose one (competition.md §4.5): every card and tile game its
#: card clock, where a timeout plays the game's default action (wakeng: its seed clock S4);
#: other games the board clock
DEFAULT_CLOCK = {**dict.fromkeys(("doudizhu", "shengji", "baohuang", "sandayi", "fouafour",
                                  "mahjong-gb"), "card_default"),
                 "wakeng": "wakeng_s4"}
BOARD_CLOCK = "board_default"
#: a connection whose send queue holds this many messages is too slow and is closed
MAX_QUEUE = 256
#: the longest action text a seat may send (a whole junqi layout is about 180 characters)
MAX_ACTION_TEXT = 1000
#: live games encoded per step of the event loop when saving
FLUSH_CHUNK = 25

#: the periodic save of live games: one statement, executed for many rows; the JSON is encoded
#: beforehand (a string bound to the JSON column is stored as it is)
_LIVE_UPDATE = (update(TableRow.__table__)
                .where(TableRow.__table__.c.id == bindparam("b_id"),
                       TableRow.__table__.c.status != "finished")
                .values(live=bindparam("b_live", type_=String())))


def _encode(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def default_bot(game_id: str) -> str:
    names = bot_names(game_id)
    for preferred in ("rule", "greedy"):
        if preferred in names:
            return preferred
    return "random"


class Conn:
    """One WebSocket client: a queue of outgoing texts drained by its writer task."""

    def __init__(self, send_text: Callable[[str], Any], user_id: int | None) -> None:
        self.send_text = send_text
        self.user_id = user_id
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False

    def put(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    def put_json(self, msg: dict[str, Any]) -> None:
        self.put(json.dumps(msg, ensure_ascii=False, separators=(",", ":")))

    async def writer(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                return
            await self.send_text(text)


class SeatPlayer(Player):
    """A person's seat: table events go to that seat's connections; moves come from the socket."""

    def __init__(self, table: LiveTable, seat: int, name: str) -> None:
        self.table = table
        self.seat = seat
        self.name = name

    def on_event(self, runner: Any, seat: int, event: dict[str, Any]) -> None:
        if event.get("type") == "refused":
            msg = ws_error("illegal", event.get("reason", "refused"), seq=len(runner.state.log))
        else:
            msg = {"type": "event", "event": event}
        self.table.send_seat(seat, msg)


class TableRunner(GameRunner):
    """The match runner, telling its table after every change of state or clock."""

    table: LiveTable

    def _sync_turns(self, t: int, acted: int | None) -> None:
        super()._sync_turns(t, acted)
        self.table.changed()


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
        self.seed = row.seed or (self.settings.get("origin") or {}).get("seed")
        self.record_id = row.record_id
        self.created = row.created
        self.runner: TableRunner | None = None
        self.task: asyncio.Task[Any] | None = None
        self.conns: dict[int | None, set[Conn]] = {}
        self.hidden = self.game.hidden_information    # declared by the game (§6.2)
        self.dirty = False            # the live game changed since the last write
        self.seats_dirty = False      # seats, status or seed changed since the last write

    # ----- lobby -----------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        state = self.runner.state if self.runner else None
        return {
            "id": self.id, "game": self.game_id, "options": self.options, "num_seats": self.num_seats,
            "seats": [dict(s) if s else None for s in self.seats], "status": self.status,
            # the origin holds the deal's seed: published as "seed" only once the game is over
            "settings": {k: v for k, v in self.settings.items() if k != "origin"},
            "event": self.event_id, "created": self.created,
            "commitment": commitment(self.seed) if self.seed else None,
            "seed": self.seed if self.status == "finished" else None,
            # progress of a hidden-information game is news too: only once it is over
            "plies": (len(state.log) if state and not (self.hidden and self.status == "playing") else None),
            "record": self.record_id,
            "spectators": len(self.conns.get(None, ())),
        }

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
            raise ApiError(400, "bad_bot", f"unknown bot {bot!r}; valid: {valid}")
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
            raise ApiError(400, "bad_seat", f"seats are 0 to {self.num_seats - 1}")
        if self.seats[seat] is not None:
            raise ApiError(409, "seat_taken", f"seat {seat} is taken")
        return seat

    def _seats_changed(self) -> None:
        for conns in list(self.conns.values()):       # a watcher who sat down now plays
            for c in list(conns):
                seat = self.seat_of(c.user_id) if c.user_id is not None else None
                if c not in self.conns.setdefault(seat, set()):
                    conns.discard(c)
                    self.conns[seat].add(c)
        self.seats_dirty = True
        if all(self.seats):
            self.start()
        else:
            self.broadcast_lobby()

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
        runner = TableRunner(self.game, self._players(), clock=self.settings["clock"], time=time,
                             state=state, names=[s["name"] for s in self.seats],
                             meta={"table": self.id, "commitment": commitment(self.seed)},
                             draw_offers="allowed")
        runner.table = self
        return runner

    def start(self) -> None:
        """Every seat is taken: deal (from a fresh seed, committed first) and play."""
        origin = self.settings.get("origin") or {}
        self.seed = self.seed or origin.get("seed") or new_seed()
        # the origin is saved with the table: a restarted server replays the game from it
        self.settings["origin"] = {"seed": self.seed, "deal": origin.get("deal")}
        state = self.game.new_state(seed=self.seed, deal=origin.get("deal"), num_seats=self.num_seats)
        self.status = "playing"
        self.runner = self._make_runner(state, RealTime())
        self.seats_dirty = True
        self.task = asyncio.get_running_loop().create_task(self._play())

    def resume(self, live: dict[str, Any]) -> None:
        """Continue a game saved by :meth:`snapshot` (after a restart): the table time goes on
        from the saved value, so no clock ran while the server was down."""
        deal = (self.settings.get("origin") or {}).get("deal")
        rec = Record(game=self.game_id, options=self.options, actions=list(live["actions"]),
                     seed=self.seed, deal=deal, num_seats=self.num_seats)
        state = self.game.state_from_json(rec.to_json())
        runner = self._make_runner(state, RealTime(start=int(live["now"])))
        for clock, saved in zip(runner.clocks, live["clocks"]):
            vars(clock).update(saved)
        runner._turn = list(live["turns"])
        runner._turn_counter = int(live["turn_counter"])
        runner.events = list(live.get("events", []))
        runner.times = list(live.get("times", []))
        runner.illegal = list(live.get("illegal", runner.illegal))
        runner._offer = live.get("offer")
        runner._cooldown = list(live.get("cooldown", runner._cooldown))
        runner._moves_by = list(live.get("moves_by", runner._moves_by))
        runner.meta.update(live.get("meta", {}))
        runner.note(None, {"type": "resumed"})
        self.runner = runner
        self.status = "playing"
        loop = asyncio.get_running_loop()
        self.task = loop.create_task(self._play())
        # turns that were pending when the server stopped: tell their players again
        for s in range(self.num_seats):
            if runner._turn[s] and runner.clocks[s].running:
                loop.call_soon(runner.players[s].on_turn, runner, s, runner._turn[s])

    def snapshot(self) -> dict[str, Any]:
        r = self.runner
        assert r is not None
        return {
            "actions": list(r.state.log), "now": r.time.now(),
            "clocks": [{k: v for k, v in vars(c).items() if k != "spec"} for c in r.clocks],
            "turns": list(r._turn), "turn_counter": r._turn_counter, "events": list(r.events),
            "times": list(r.times), "illegal": list(r.illegal), "offer": r._offer,
            "cooldown": list(r._cooldown), "moves_by": list(r._moves_by),
            "meta": {k: v for k, v in r.meta.items() if k in ("table", "commitment", "event", "round")},
        }

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
        self.status = "finished"
        row = await asyncio.to_thread(self.hub.finish_table, self, record)
        self.hub.tables.pop(self.id, None)
        self.hub.remember_finished(self)
        self.record_id = row.id
        self.changed()
        for cb in self.hub.on_finish:
            cb(self, row)

    def changed(self) -> None:
        """The state or a clock changed: send everyone their view; save soon."""
        self.dirty = True
        loop = asyncio.get_running_loop()
        for seat, conns in self.conns.items():
            if not conns:
                continue
            text = json.dumps(self.message(seat), ensure_ascii=False, separators=(",", ":"))
            if seat is None and self.hidden and self.settings.get("spectator_delay_ms", 0):
                loop.call_later(self.settings["spectator_delay_ms"] / 1000, self._send_all, conns, text)
            else:
                self._send_all(conns, text)

    @staticmethod
    def _send_all(conns: set[Conn], text: str) -> None:
        for c in list(conns):
            c.put(text)

    def message(self, seat: int | None) -> dict[str, Any]:
        """The state message for ``seat`` (None: spectator), built from ``view(seat)``."""
        r = self.runner
        if r is None:
            return {"type": "table", "table": self.summary()}
        st = r.state
        view = st.view(seat)
        to_act = list(st.to_act) if not st.is_terminal() else []
        clocks = r.clock_state()
        if to_act and st.turns_private():
            # who is still deciding is private (4A4 windows): each seat learns only its own turn
            to_act = [seat] if seat in to_act else []
            clocks = [c if s == seat else {k: v for k, v in c.items() if k != "deadline"}
                      for s, c in enumerate(clocks)]
        msg: dict[str, Any] = {
            "type": "state", "table": self.id, "game": self.game_id, "status": self.status,
            "seq": len(st.log), "seat": seat, "to_act": to_act, "view": view,
            "names": r.names, "clocks": clocks, "now": r.time.now(),
            "result": st.result.to_json() if st.result else None, "record": self.record_id,
        }
        if seat is not None and seat in to_act:
            msg["turn"] = r.turn_of(seat)      # this seat's pending decision (see _move)
            if "legal_moves" not in view and "legal" not in view:
                legal = st.legal_actions(seat)
                if len(legal) <= MAX_LISTED:
                    msg["legal"] = [str(a) for a in legal]
                else:              # too long to send (gomoku's two5 offers): its length only
                    msg["legal"], msg["legal_count"] = None, len(legal)
        if r._offer is not None:
            msg["draw_offer"] = r._offer
        return msg

    # ----- connections -----------------------------------------------------------------
    def attach(self, conn: Conn, seat: int | None) -> None:
        self.conns.setdefault(seat, set()).add(conn)
        if seat is None and self.hidden and self.runner and not self.runner.state.is_terminal():
            delay = self.settings.get("spectator_delay_ms", 0)
            conn.put_json({"type": "hello", "table": self.summary(), "seat": None, "delay_ms": delay})
            if delay:
                text = json.dumps(self.message(None), ensure_ascii=False, separators=(",", ":"))
                asyncio.get_running_loop().call_later(delay / 1000, conn.put, text)
                return
        else:
            conn.put_json({"type": "hello", "table": self.summary(), "seat": seat})
        conn.put_json(self.message(seat))

    def detach(self, conn: Conn) -> None:
        for conns in self.conns.values():
            conns.discard(conn)

    def send_seat(self, seat: int, msg: dict[str, Any]) -> None:
        for c in list(self.conns.get(seat, ())):
            c.put_json(msg)

    def handle(self, conn: Conn, seat: int | None, msg: dict[str, Any]) -> None:
        """A message from a client (already JSON-decoded, an object). Replies go to ``conn``."""
        kind = msg.get("type")
        if kind == "ping":
            conn.put_json({"type": "pong", "now": self.runner.time.now() if self.runner else None})
            return
        if kind == "sync":
            text = json.dumps(self.message(seat), ensure_ascii=False, separators=(",", ":"))
            delay = self.settings.get("spectator_delay_ms", 0) if seat is None and self.hidden else 0
            if delay:
                asyncio.get_running_loop().call_later(delay / 1000, conn.put, text)
            else:
                conn.put(text)
            return
        if kind not in ("move", "resign", "draw_offer", "draw_accept", "draw_decline"):
            conn.put_json(ws_error("unknown_type", f"unknown message type {kind!r}"))
            return
        if seat is None:
            conn.put_json(ws_error("not_seated", "spectators cannot play"))
            return
        claimed = msg.get("seat", seat)
        if claimed != seat:
            conn.put_json(ws_error("not_your_seat", f"you sit in seat {seat}, not {claimed!r}"))
            return
        r = self.runner
        if r is None or self.status != "playing" or r.state.is_terminal():
            conn.put_json(ws_error("not_playing", "no game is running at this table"))
            return
        if kind == "resign":
            r.submit(seat, Resign())
        elif kind == "draw_offer":
            r.submit(seat, OfferDraw())
        elif kind == "draw_accept":
            r.submit(seat, AcceptDraw())
        elif kind == "draw_decline":
            r.submit(seat, DeclineDraw())
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
                                                  f"{MAX_ACTION_TEXT} characters"))
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


class Hub:
    """Every table of this server process, and their persistence."""

    def __init__(self, db: sessionmaker[Session], settings: Settings) -> None:
        self.db = db
        self.settings = settings
        self.tables: dict[str, LiveTable] = {}
        self.finished: dict[str, LiveTable] = {}
        #: called with (table, record row) when a table's game is over and stored
        self.on_finish: list[Callable[[LiveTable, RecordRow], Any]] = []
        self._flusher: asyncio.Task[None] | None = None
        self._heartbeat_at = 0.0

    # ----- lifecycle -------------------------------------------------------------------
    async def start(self) -> None:
        with self.db() as s:
            rows = s.scalars(select(TableRow).where(TableRow.status.in_(("open", "playing")))).all()
        for row in rows:
            table = LiveTable(self, row)
            self.tables[table.id] = table
            try:
                if row.status == "playing" and row.live:
                    table.resume(row.live)
                elif all(table.seats):        # stopped before the first save of its game
                    table.start()
            except QipaiError:
                log.exception("table %s cannot be resumed", row.id)
        self._flusher = asyncio.get_running_loop().create_task(self._flush_loop())

    async def stop(self) -> None:
        if self._flusher:
            self._flusher.cancel()
        tasks = [t.task for t in self.tables.values() if t.task and not t.task.done()]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.flush(everything=True)

    async def _flush_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.settings.flush_interval)
            beat = loop.time() >= self._heartbeat_at
            if beat:
                self._heartbeat_at = loop.time() + self.settings.heartbeat
            try:
                # Encoded here, a few tables at a time between other work of the loop; the thread
                # then only runs SQLite. (A thread that encoded hundreds of games itself would hold
                # the interpreter lock for long stretches and delay every move being answered.)
                live, other = [], {}
                for i, (tid, vals) in enumerate(self._snapshots(everything=beat).items()):
                    if "live" in vals:
                        live.append({"b_id": tid, "b_live": _encode(vals.pop("live"))})
                    if vals:
                        other[tid] = vals
                    if i % FLUSH_CHUNK == FLUSH_CHUNK - 1:
                        await asyncio.sleep(0)
                if live or other:
                    await asyncio.to_thread(self._write, other, live)
            except Exception:        # pragma: no cover - keep flushing after a database hiccup
                log.exception("saving live games failed")

    def _snapshots(self, everything: bool) -> dict[str, dict[str, Any]]:
        """Column values to write per table: seats and status when they changed, the live
        game when it changed (or always, for the heartbeat)."""
        out: dict[str, dict[str, Any]] = {}
        for t in list(self.tables.values()):
            vals: dict[str, Any] = {}
            if t.seats_dirty:
                vals.update(seats=[dict(x) if x else None for x in t.seats], status=t.status,
                            seed=t.row_seed(), settings=dict(t.settings))
                t.seats_dirty = False
            if t.runner is not None and t.status == "playing" and (t.dirty or everything or vals):
                vals["live"] = t.snapshot()
                t.dirty = False
            if vals:
                out[t.id] = vals
        return out

    def _write(self, snaps: dict[str, dict[str, Any]], live: list[dict[str, str]] = ()) -> None:
        """One transaction: the changed columns of ``snaps``, then the live games of ``live``
        (already JSON text) as one many-row UPDATE. A table finished meanwhile is left alone."""
        with self.db.begin() as s:
            for tid, vals in snaps.items():
                s.execute(update(TableRow).where(TableRow.id == tid, TableRow.status != "finished")
                          .values(**vals))
            if live:
                s.connection().execute(_LIVE_UPDATE, list(live))

    def flush(self, everything: bool = False) -> None:
        """Write what changed now (every running game's clock time too when ``everything``)."""
        snaps = self._snapshots(everything)
        if snaps:
            self._write(snaps)

    # ----- tables ------------------------------------------------------------------------
    def create_table(self, owner_id: int | None, game_id: str, options: dict[str, Any],
                     settings: dict[str, Any], num_seats: int | None = None,
                     event_id: str | None = None, extra: dict[str, Any] | None = None) -> LiveTable:
        """A new open table. Raises ApiError for an unknown game, option, clock or seat count."""
        try:
            cls = game_class(game_id)
            game = load(game_id, **options)
        except (OptionError, TypeError) as e:   # TypeError: a value of the wrong shape
            raise ApiError(400, "bad_options", str(e)) from None
        n = num_seats or cls.seats[0]
        if n not in cls.seats:
            raise ApiError(400, "bad_seats", f"{game_id} is played by {', '.join(map(str, cls.seats))} seats")
        clean = {**self._settings(game.id, settings), **(extra or {})}   # extra: set by the server
        row = TableRow(id=secrets.token_hex(4), game=game.id, options=dict(game.options), num_seats=n,
                       seats=[None] * n, settings=clean, status="open", owner_id=owner_id,
                       event_id=event_id, created=now_iso())
        with self.db.begin() as s:
            s.execute(insert(TableRow).values(
                id=row.id, game=row.game, options=row.options, num_seats=n, seats=row.seats,
                settings=clean, status="open", owner_id=owner_id, event_id=event_id, created=row.created))
        table = LiveTable(self, row)
        self.tables[table.id] = table
        return table

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
            raise ApiError(400, "bad_clock", str(e)) from None
        out = {"clock": clock}
        for key, default, top in (("spectator_delay_ms", self.settings.spectator_delay_ms, 600_000),
                                  ("bot_delay_ms", self.settings.bot_delay_ms, 60_000)):
            v = given.get(key, default)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= top:
                raise ApiError(400, "bad_settings", f"{key} must be an integer from 0 to {top}")
            out[key] = v
        return out

    def drop_table(self, t: LiveTable) -> None:
        """Forget a table that has not started (a creation request that failed half-way)."""
        assert t.runner is None
        self.tables.pop(t.id, None)
        with self.db.begin() as s:
            s.execute(delete(TableRow).where(TableRow.id == t.id))

    def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id) or self.finished.get(table_id)
        if table is None:
            raise ApiError(404, "no_table", f"no live table {table_id!r}")
        return table

    def finish_table(self, t: LiveTable, record: Record) -> RecordRow:
        """Store the finished game's record and close the table (one transaction; may run in a
        worker thread)."""
        players = [s.get("user") if s else None for s in t.seats]
        with self.db.begin() as s:
            rec = RecordRow(table_id=t.id, game=t.game_id, players=players,
                            names=[x["name"] for x in t.seats], result=record.result,
                            record=record.to_json())
            s.add(rec)
            s.flush()
            for seat, uid in enumerate(players):
                if uid is not None and not s.get(RecordPlayer, (rec.id, uid)):
                    s.add(RecordPlayer(record_id=rec.id, user_id=uid, seat=seat))
            s.execute(update(TableRow).where(TableRow.id == t.id).values(
                status="finished", record_id=rec.id, seed=t.row_seed(), live=None,
                seats=[dict(x) if x else None for x in t.seats]))
        return rec

    def remember_finished(self, t: LiveTable) -> None:
        self.finished[t.id] = t
        while len(self.finished) > 1000:          # keep recent ones for reconnecting clients
            self.finished.pop(next(iter(self.finished)))
