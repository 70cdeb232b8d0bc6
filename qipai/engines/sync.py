"""An engine as a plain bot: ``EngineBot(game, command).choose(state, seat)``.

For synchronous code (``qipai play GAME --engine CMD``, scripts). The door runs on an event
loop of its own in a background thread; each ``choose`` gives the engine the position and
waits for its move (``movetime`` ms of thinking, default 1 s, untimed otherwise). An engine
that dies is restarted once per move; one that fails again raises :class:`EngineError`. The
move is returned as text: the caller applies it, so the referee checks it like any other.
Call :meth:`EngineBot.close` (or use ``with``) to stop the process.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from qipai.match.clock import ClockSpec, SeatClock
from qipai.match.timesource import RealTime

from . import engine_player
from .player import RESIGN
from .process import EngineError


class _Desk:
    """What a door reads of a runner, for one position outside a game runner."""

    def __init__(self, game: Any, state: Any) -> None:
        self.game = game
        self.state = state
        self.time = RealTime()
        self.clocks = [SeatClock(ClockSpec()) for _ in range(state.num_seats)]
        self.illegal_limit = None

    def deadline_of(self, seat: int) -> None:
        return None

    def turn_of(self, seat: int) -> int:
        return 1

    def note(self, seat: Any, event: dict[str, Any]) -> None:
        pass


class EngineBot:
    """See the module docstring. ``resign`` is what :meth:`choose` returns when the engine
    resigns (the text ``"resign"`` by default)."""

    def __init__(self, game: Any, command: Any, protocol: str | None = None,
                 movetime: int | None = 1000, name: str | None = None, **kw: Any) -> None:
        self.game = game
        self.door = engine_player(game, command, protocol, movetime=movetime, **kw)
        self.name = name or self.door.name
        self.resign = "resign"
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()

    def _run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    async def _choose(self, state: Any, seat: int) -> Any:
        desk = _Desk(self.game, state)
        door = self.door
        for attempt in (1, 2):
            try:
                if not door.engine.alive or not door._ready:
                    await door._boot(desk, seat)
                return await door.think(desk, seat, door.wait_seconds(desk, seat))
            except EngineError:
                await door.engine.stop()
                door._ready = False
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def start(self) -> None:
        """Start and greet the engine now (raises :class:`EngineError` when it cannot), rather
        than at the first :meth:`choose`."""
        self._run(self.door._boot(_Desk(self.game, self.game.new_state()), 0))

    def choose(self, state: Any, seat: int) -> Any:
        """The engine's move for ``seat`` in ``state`` (text), or :attr:`resign`."""
        answer = self._run(self._choose(state, seat))
        return self.resign if answer is RESIGN else answer

    def close(self) -> None:
        """Stop the engine and the background loop."""
        if self._loop.is_closed():
            return
        self._run(self.door.engine.stop(self.door.quit_line))
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        self._loop.close()

    def __enter__(self) -> EngineBot:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
