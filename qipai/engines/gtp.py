"""GTP v2 door for go (GNU Go, KataGo, Leela Zero, Pachi and the rest).

After a (re)start: ``protocol_version``, ``boardsize N``, ``clear_board``, ``komi K`` (the
game's compensation in points, handicap included) and the clock: ``kgs-time_settings`` (byo-yomi,
Canadian, absolute) or, for an engine without it, ``time_settings main byo_time byo_stones``.
Each turn the engine's board is brought up to the referee's with ``play`` (setup and handicap
stones first; a board that no longer agrees, after a refused move, is cleared and replayed),
``time_left`` is sent when the game is timed, and ``genmove b|w`` answers ``D4``, ``pass`` or
``resign``. The engine's move is checked by the referee like anyone's. In the dead-stone phase
(``end_procedure = agreement``) the door marks what ``final_status_list dead`` names (the
referee's own proposal when the engine cannot say) and submits. At the end ``final_score``
is asked and kept as advice only (:attr:`GtpPlayer.advice`): the referee scores.
"""

from __future__ import annotations

from typing import Any

from qipai.games.go.board import BLACK, WHITE
from qipai.games.go.coords import PASS, from_gtp, to_gtp
from qipai.match.clock import Byoyomi, Canadian

from .player import RESIGN, EnginePlayer, clock_parts
from .process import EngineError

COLOUR = {BLACK: "b", WHITE: "w"}


class GtpError(EngineError):
    """The engine answered a command with ``? message``."""


class GtpPlayer(EnginePlayer):
    """A GTP go engine; see the module docstring."""

    protocol = "gtp"

    def __init__(self, command: Any, **kw: Any) -> None:
        super().__init__(command, **kw)
        self.known: list[tuple[str, str]] = []    # (colour, vertex) the engine has been told
        self.advice: str | None = None             # the engine's final_score
        self.kgs_time = True

    def forget(self) -> None:
        self.known = []

    async def command(self, line: str, wait_s: float | None = None) -> str:
        """Send a GTP command and return its answer's text; raises :class:`GtpError` on ``?``."""
        await self.engine.send(line)
        wait = self.startup_ms / 1000 if wait_s is None else wait_s
        first = await self.engine.read_until(lambda s: s[:1] in ("=", "?"), wait)
        head = first[-1]
        body = [head[1:].lstrip("0123456789").strip()]
        while True:          # the answer ends at an empty line
            line2 = await self.engine.readline(wait)
            if not line2.strip():
                break
            body.append(line2.strip())
        text = "\n".join(b for b in body if b)
        if head.startswith("?"):
            raise GtpError(f"{line.split()[0]}: {text or 'failed'}")
        return text

    async def greet(self, runner: Any, seat: int) -> None:
        state = runner.state
        await self.command("protocol_version")
        await self.command(f"boardsize {state.size}")
        await self.command("clear_board")
        game = state.game
        await self.command(f"komi {game.komi_points() + game.options['handicap']:g}")
        for name, value in self.options.items():
            await self.command(f"{name} {value}".strip())
        await self._time_settings(runner, seat)

    async def _time_settings(self, runner: Any, seat: int) -> None:
        spec = runner.clocks[seat].spec
        if spec.untimed:
            return
        main = (spec.bank or 0) // 1000
        ot = spec.overtime
        if isinstance(ot, Byoyomi):
            kgs = f"kgs-time_settings byoyomi {main} {ot.period // 1000} {ot.periods}"
            plain = f"time_settings {main} {ot.period // 1000} 1"
        elif isinstance(ot, Canadian):
            kgs = f"kgs-time_settings canadian {main} {ot.period // 1000} {ot.moves}"
            plain = f"time_settings {main} {ot.period // 1000} {ot.moves}"
        elif spec.bank is None and spec.move_cap is not None:
            kgs = None
            plain = f"time_settings 0 {spec.move_cap // 1000} 1"
        else:
            kgs = f"kgs-time_settings absolute {main}"
            plain = f"time_settings {main} 0 0"
        if kgs and self.kgs_time:
            try:
                await self.command(kgs)
                return
            except GtpError:
                self.kgs_time = False
        await self.command(plain)

    def _target(self, state: Any) -> list[tuple[str, str]]:
        """Every stone and pass the engine must know, in order: the setup (handicap) stones,
        then the moves of the game."""
        size = state.size
        start = state.game.new_state(seed=state.seed, position=state.position)
        out = [(COLOUR[c], to_gtp(p, size)) for c in (BLACK, WHITE)
               for p in range(size * size) if start.board.color[p] == c]
        colour = start.to_move
        for p in state.moves:
            out.append((COLOUR[colour], to_gtp(p, size)))
            colour = 3 - colour
        return out

    async def sync(self, state: Any) -> None:
        target = self._target(state)
        if self.known != target[:len(self.known)]:
            await self.command("clear_board")
            self.known = []
        for colour, vertex in target[len(self.known):]:
            await self.command(f"play {colour} {vertex}")
            self.known.append((colour, vertex))

    async def think(self, runner: Any, seat: int, wait_s: float) -> Any:
        state = runner.state
        if state.phase == "marking":
            return await self._mark(state, seat)
        await self.sync(state)
        colour = COLOUR[state.to_move]
        if not runner.clocks[seat].spec.untimed:
            await self._time_left(runner, seat, colour)
        answer = (await self.command(f"genmove {colour}", wait_s)).strip()
        if answer.lower() == "resign":
            return RESIGN
        self.known.append((colour, answer.upper() if answer.lower() != "pass" else "pass"))
        return answer

    async def _time_left(self, runner: Any, seat: int, colour: str) -> None:
        parts = clock_parts(runner, seat)
        left = self.time_left(runner, seat)
        secs = max(0, ((left if left is not None else 0) - self.margin_ms) // 1000)
        stones = 0
        if parts["overtime"] and "byoyomi" in parts:
            stones = parts["byoyomi"][0]
        elif parts["overtime"] and "canadian" in parts:
            stones = parts["canadian"][0]
        elif parts["bank"] is None and parts["cap"] is not None:
            stones = 1
        try:
            await self.command(f"time_left {colour} {secs} {stones}")
        except GtpError:
            pass                   # an engine without clocks plays without them

    async def _mark(self, state: Any, seat: int) -> str:
        """One dead-stone phase action: mark the chains the engine says are dead, take back
        marks it does not confirm, then ``done``."""
        size = state.size
        dead = getattr(self, "_dead_for", (None, None))
        if dead[0] != len(state.moves):
            await self.sync(state)
            try:
                text = await self.command("final_status_list dead")
                points = {from_gtp(v, size) for v in text.split()}
            except (GtpError, ValueError):
                points = set(state.dead_proposal())
            self._dead_for = dead = (len(state.moves), points)
        marks = state.marks[seat]
        for p in sorted(dead[1] - marks):
            if p != PASS and state.board.color[p]:
                return f"dead {to_gtp(p, size)}"
        for p in sorted(marks - dead[1]):
            return f"alive {to_gtp(p, size)}"
        return "done"

    async def game_over(self, runner: Any, seat: int) -> None:
        state = runner.state
        if state.result is None or "black" not in (state.result.details or {}):
            return
        await self.sync(state)
        self.advice = await self.command("final_score", 2)
