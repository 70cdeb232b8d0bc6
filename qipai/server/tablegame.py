"""The game at a live table: its players, the runner under the real clock, the deal (the match
secret and the seats' nonces, §6.1), a referee's pause before the deal, and the game rebuilt
from its action log after a restart.

:class:`TableGame` is the part of :class:`~.tables.LiveTable` that runs its game: the runner is
the referee of clocks, timeouts, resignation and draw offers, the game state the referee of the
rules. A restarted server rebuilds each live game from its action log; the seat on turn starts
that turn again (competition.md §4.7).
"""

from __future__ import annotations

import asyncio
import logging
import time
import zlib
from typing import TYPE_CHECKING, Any

from qipai.bots import make_bot
from qipai.core import Record, load
from qipai.match import BotPlayer, Pause, Player, RealTime

from . import chat, conduct, fairness, tablemsg
from .conns import Conn
from .errors import ws_error
from .journal import ALLOWANCE, JournalRunner, replay, restart_turns
from .trusteeship import lobby_trustee_at_once, trustee_policy

if TYPE_CHECKING:
    from .tables import LiveTable

log = logging.getLogger("qipai.server")


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


class TableGame:
    """The game side of :class:`~.tables.LiveTable` (its seats, connections and writes are there)."""

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
                             private_hold=self.window_hold(state, players),
                             deal_hold=self.deal_hold())
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
          with an engine (its thinking time would tell whether it had a choice).

        The prompts of a deal (shengji's every_card) are held ``deal_window_ms`` instead (never
        longer than this), each the same, whoever could declare."""
        people = self.people_seated()
        if people == 0:
            return 0
        instant = all(isinstance(p, SeatPlayer)
                      or (isinstance(p, BotPlayer) and not hasattr(p.bot, "choose_async")) for p in players)
        if people == 1 and instant and not state.fixed_window_time:
            return 0
        return int(self.hub.settings.private_window_ms)

    def deal_hold(self) -> int:
        """The time (ms) each prompt of a deal (shengji's every_card) is held: the server's
        ``deal_window_ms`` (never more than ``private_window_ms``) at a table with a person,
        whether or not its private windows have a minimum time: the deal is the person's time to
        declare, card by card as in a card room (about 0.3 s a card, a deal of 25 cards each
        about 30 s), not a flash of cards. A table of bots alone deals at once (0)."""
        if not self.deal_paced():
            return 0
        return min(int(self.hub.settings.private_window_ms), int(self.hub.settings.deal_window_ms))

    def deal_paced(self) -> bool:
        """A deal is paced and played with the ``people_options`` at a table with a person (not
        a bot account), or with two or more seats that are not built-in bots (what a seat may
        watch of the others is then to be kept the same, §6.2); a bot account alone with
        built-in bots is dealt at once, as bots alone are."""
        return self.people_seated() >= 2 or any(s and "bot" not in s and not s.get("bot_account")
                                                for s in self.seats)

    def people_seated(self) -> int:
        """The seats not played by a built-in bot or an engine (a person's, a bot account's)."""
        return sum(1 for s in self.seats if s and "bot" not in s)

    def people_rules(self) -> None:
        """At a table with a person (:meth:`deal_paced`), the game is played with its ``people_options``
        (:attr:`qipai.core.game.Game.people_options`: shengji asks the seat dealt each card,
        so that the prompts of the deal tell nobody who got a level card, and the deal is paced
        card by card, each prompt held :meth:`deal_hold`, so a person alone with bots has the
        deal to declare in, as in a card room). Kept in the settings
        (``people_options``), so that a restarted server and the other workers play the same
        rules; the record's header names them."""
        extra = self.game.people_options
        if not self.deal_paced() or all(self.options.get(k) == v for k, v in extra.items()):
            return
        self.settings["people_options"] = dict(extra)
        self.options = {**self.options, **extra}
        self.game = load(self.game_id, **self.options)

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
        self.people_rules()
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
