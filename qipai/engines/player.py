"""The engine door: a :class:`~qipai.match.players.Player` of the match runner played by an
engine process.

:class:`EnginePlayer` does what every protocol shares; the protocol classes (UCI/UCCI, GTP,
Gomocup) say how to greet the engine, how to give it the position and the clock, and how to
read its move. For each decision of its seat the door

* starts the engine if it is not running (the first turn, or after it died), greets it and
  gives it the game's options;
* gives it the position and the seat's real clock, and waits for its answer no longer than the
  clock allows (an untimed game: the door's ``movetime`` plus ``hang_ms``);
* submits the answer as the seat's move: the referee checks it like a person's, and a refused
  move is counted by the runner as the game's rules say (xiangqi and go: the third loses); the
  door then asks the engine again;
* restarts an engine that dies or stops answering while the seat's clock keeps running (at
  most ``max_restarts`` times a game); an engine that cannot be restarted, or keeps sending
  refused moves in a game with neither a limit nor a deadline, forfeits by the game's timeout
  rule (:class:`~qipai.match.players.Forfeit`), so no table ever waits for it forever.

Engines play in real time: give the runner ``time=RealTime()``.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from qipai.core.errors import QipaiError
from qipai.match.clock import Byoyomi, Canadian
from qipai.match.players import Forfeit, Move, Player, Resign
from qipai.match.timesource import VirtualTime

from .process import EngineError, EngineProcess

#: the answer of a door that gives up the game (the engine resigned)
RESIGN = object()


class EnginePlayer(Player):
    """Base of the protocol doors; see the module docstring.

    ``movetime`` (ms) is the thinking time asked for in an untimed game (and the most asked for
    in a timed one, when given); ``depth`` asks for a fixed search depth where the protocol has
    one. ``margin_ms`` is kept back from the clock for the way back. ``startup_ms`` bounds the
    greeting, ``hang_ms`` how much longer than its time an engine may take before it is
    treated as hung (killed and restarted)."""

    protocol = ""
    quit_line: str | None = "quit"
    #: answers by itself: a server asks it again after a referee's pause refused its answer
    automatic = True

    def __init__(self, command: Any, *, name: str | None = None, movetime: int | None = None,
                 depth: int | None = None, max_restarts: int = 2, startup_ms: int = 10_000,
                 hang_ms: int = 10_000, margin_ms: int = 100, max_refusals: int = 3,
                 options: dict[str, Any] | None = None) -> None:
        self.engine = EngineProcess(command)
        self.name = name or f"engine:{program_name(self.engine.argv)}"
        self.movetime = movetime
        self.depth = depth
        self.max_restarts = max_restarts
        self.startup_ms = startup_ms
        self.hang_ms = hang_ms
        self.margin_ms = margin_ms
        self.max_refusals = max_refusals
        self.options = dict(options or {})
        self.restarts = 0
        self.failed = False
        self.errors: list[str] = []
        self.refused: list[str] = []       # this turn's refused answers
        self._refused_turn = 0
        self._lock: asyncio.Lock | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._ready = False                 # greeted and set up for this game

    # ----- the protocol's part (subclasses) -------------------------------------------------
    async def greet(self, runner: Any, seat: int) -> None:
        """Handshake and game options after a (re)start."""
        raise NotImplementedError

    async def think(self, runner: Any, seat: int, wait_s: float) -> Any:
        """Give the engine the position and clock and return its answer: a move text, or
        :data:`RESIGN`. Reads for at most ``wait_s`` seconds in all."""
        raise NotImplementedError

    async def game_over(self, runner: Any, seat: int) -> None:
        """Hook: the game ended while the engine runs (before it is stopped)."""

    def forget(self) -> None:
        """Hook: the engine process is new; whatever the door knew it knew is gone."""

    # ----- the runner's side ----------------------------------------------------------------
    async def prepare(self, runner: Any, seat: int) -> None:
        """Start and greet the engine before the clocks run (a failure here is tried again,
        on the clock, at the seat's first turn)."""
        if isinstance(runner.time, VirtualTime):
            raise QipaiError("engines play in real time: run the game with time=RealTime()")
        try:
            await self._boot(runner, seat)
        except EngineError as e:
            self.errors.append(str(e))
            await self.engine.stop()

    def on_turn(self, runner: Any, seat: int, turn: int) -> None:
        if isinstance(runner.time, VirtualTime):
            raise QipaiError("engines play in real time: run the game with time=RealTime()")
        if self.failed:
            runner.submit(seat, Forfeit("engine_failed"))
            return
        self._spawn(runner, seat, turn)

    def on_event(self, runner: Any, seat: int, event: dict[str, Any]) -> None:
        if event.get("type") != "refused" or event.get("code") != "illegal":
            return
        turn = runner.turn_of(seat)
        if not turn or runner.state.is_terminal():
            return
        if self._refused_turn != turn:
            self._refused_turn, self.refused = turn, []
        self.refused.append(self._last_answer)
        self.refused_moved()
        if len(self.refused) >= self.max_refusals and not runner.illegal_limit:
            # a game with no limit on refused moves: with a deadline the clock ends it, else
            # the engine forfeits now rather than being asked for ever
            if runner.deadline_of(seat) is None:
                runner.submit(seat, Forfeit("engine_failed"))
            return
        self._spawn(runner, seat, turn)

    def refused_moved(self) -> None:
        """Hook: the engine's last answer was refused (a door that told the engine its own move
        must take it back)."""

    async def finish(self, runner: Any, seat: int) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.engine.alive and self._ready:
            with contextlib.suppress(EngineError, OSError):
                await asyncio.wait_for(self.game_over(runner, seat), 2)
        await self.engine.stop(self.quit_line)
        self._ready = False

    # ----- one decision ---------------------------------------------------------------------
    def _spawn(self, runner: Any, seat: int, turn: int) -> None:
        task = asyncio.ensure_future(self._decide(runner, seat, turn))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    _last_answer = ""

    async def _decide(self, runner: Any, seat: int, turn: int) -> None:
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            if self._refused_turn != turn:         # a new decision: nothing refused in it yet
                self._refused_turn, self.refused = turn, []
            while runner.turn_of(seat) == turn and not runner.state.is_terminal():
                try:
                    if not self.engine.alive or not self._ready:
                        await self._boot(runner, seat)
                    answer = await self.think(runner, seat, self.wait_seconds(runner, seat))
                except EngineError as e:
                    # a dead, hung or confused engine is never spoken to again: a late answer
                    # to this position must not be read as the answer to the next one
                    await self.engine.stop()
                    self._ready = False
                    if runner.turn_of(seat) != turn or runner.state.is_terminal():
                        return
                    self.errors.append(str(e))
                    runner.note(seat, {"type": "engine_error", "error": str(e)})
                    if self.restarts >= self.max_restarts:
                        self.failed = True
                        runner.submit(seat, Forfeit("engine_failed"))
                        return
                    self.restarts += 1
                    continue
                if runner.turn_of(seat) != turn or runner.state.is_terminal():
                    return
                if answer is RESIGN:
                    runner.submit(seat, Resign())
                else:
                    self._last_answer = str(answer)
                    runner.submit(seat, Move(str(answer), turn=turn))
                return

    async def _boot(self, runner: Any, seat: int) -> None:
        await self.engine.start()
        self.forget()
        self._ready = False
        await self.greet(runner, seat)
        self._ready = True

    # ----- clocks -------------------------------------------------------------------------
    def time_left(self, runner: Any, seat: int) -> int | None:
        """Milliseconds until the seat's current deadline (None: no deadline)."""
        dl = runner.deadline_of(seat)
        return None if dl is None else max(0, dl - runner.time.now())

    def wait_seconds(self, runner: Any, seat: int) -> float:
        """How long to wait for an answer before the engine counts as hung: until the seat's
        last deadline of this turn (its overtime included) and half a second more, or in an
        untimed game the door's ``movetime`` and ``hang_ms``."""
        left = self.time_left(runner, seat)
        if left is not None:
            clock = runner.clocks[seat]
            ot = clock.spec.overtime
            if isinstance(ot, Byoyomi):
                periods = clock.periods_left - (1 if clock.mode == "overtime" else 0)
                left += max(0, periods) * ot.period
            elif isinstance(ot, Canadian) and clock.mode == "bank":
                left += clock.canadian_time_left
            return left / 1000 + 0.5
        return ((self.movetime or 0) + self.hang_ms) / 1000

    def move_budget(self, runner: Any, seat: int) -> int | None:
        """The thinking time to ask for when the protocol can only say "this long" (ms), or
        None when the clock has no deadline and the door has no ``movetime``."""
        left = self.time_left(runner, seat)
        if left is None:
            return self.movetime
        budget = max(10, left - self.margin_ms)
        return min(budget, self.movetime) if self.movetime else budget


def program_name(argv: list[str]) -> str:
    """A short name of an engine command: its program's file name, or the script's when the
    program is an interpreter (``python3 brain.py`` is ``brain.py``)."""
    names = [a.rsplit("/", 1)[-1] for a in argv]
    if names[0].startswith(("python", "java", "node")):
        rest = [n for n in names[1:] if not n.startswith("-")]
        if rest:
            return rest[0]
    return names[0]


def clock_parts(runner: Any, seat: int) -> dict[str, Any]:
    """The seat's clock as engine protocols describe clocks: ``bank`` (ms left in the main
    time, None without one), ``increment``, ``byoyomi`` (``(periods_left, period)``),
    ``canadian`` (``(moves_left, ms_left, moves, period)``), ``cap`` (the per-move cap), and
    ``overtime`` (true once the bank is spent)."""
    clock = runner.clocks[seat]
    spec = clock.spec
    out: dict[str, Any] = {"bank": clock.bank_left, "increment": spec.increment, "cap": spec.move_cap,
                           "overtime": clock.mode == "overtime", "untimed": spec.untimed}
    if clock.running and clock.mode == "bank" and clock.bank_left is not None:
        out["bank"] = max(0, clock.bank_left - (runner.time.now() - clock.t0))
    ot = spec.overtime
    if isinstance(ot, Byoyomi):
        out["byoyomi"] = (clock.periods_left, ot.period)
    elif isinstance(ot, Canadian):
        out["canadian"] = (clock.canadian_moves_left, clock.canadian_time_left, ot.moves, ot.period)
    return out
