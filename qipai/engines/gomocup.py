"""Gomocup (Piskvork) door for gomoku and renju.

After a (re)start: ``START 15`` (answer ``OK``), then ``INFO`` lines: ``timeout_turn`` (the
move cap, an overtime period or the whole bank; untimed: the door's ``movetime``) and
``timeout_match`` (the bank, 0 for none; ms), ``max_memory 0``, ``game_type 1`` and ``rule``
(0 freestyle, 1 exactly five: the ``standard`` rule set, 4 renju). Each turn: ``INFO
time_left`` when timed, then ``BEGIN`` (the engine opens on an empty board), ``TURN x,y`` (the
opponent's one new stone since the engine's last move) or ``BOARD`` with every stone as
``x,y,1`` (own) / ``x,y,2`` (opponent's) in the order played, then ``DONE``. The answer is
``x,y``; ``MESSAGE``, ``DEBUG`` and ``UNKNOWN`` lines are skipped. At the end: ``END``.

Coordinates: ``x`` is the column from the left (``a`` = 0), ``y`` the row from the **top**
(row 15 = 0), as in Piskvork. Gomocup has no pass and no opening decisions (swap, offers): the
door plays games with the ``standard`` or ``designated`` opening.
"""

from __future__ import annotations

import re
from typing import Any

from qipai.core.errors import OptionError
from qipai.games.gomoku.board import SIZE, point, point_name

from .player import EnginePlayer, clock_parts
from .process import EngineError

RULE_CODES = {"freestyle": 0, "standard": 1, "renju": 4}
_XY = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*$")


def to_xy(p: int) -> str:
    return f"{p % SIZE},{SIZE - 1 - p // SIZE}"


def from_xy(text: str) -> str:
    """The engine's ``x,y`` as a point name (``h8``); other text is returned as it is (the
    referee refuses it like a person's malformed move)."""
    m = _XY.match(text)
    if not m:
        return text.strip()
    x, y = int(m.group(1)), int(m.group(2))
    if not (0 <= x < SIZE and 0 <= y < SIZE):
        return text.strip()
    return point_name(point(x, SIZE - 1 - y))


def check_game(game: Any) -> None:
    """Refuse games the protocol cannot play (special openings with swaps or offers)."""
    if game.options.get("opening") not in ("standard", "designated"):
        raise OptionError(f"a Gomocup engine cannot play the {game.options.get('opening')!r} "
                          "opening (its swap or offer decisions are not in the protocol); "
                          "use opening=standard or designated",
                          code="engine.gomocup_opening", params={"opening": game.options.get("opening")})


class GomocupPlayer(EnginePlayer):
    """A Gomocup (Piskvork protocol) engine; see the module docstring."""

    protocol = "gomocup"
    quit_line = "END"

    def __init__(self, command: Any, **kw: Any) -> None:
        super().__init__(command, **kw)
        self.known: list[tuple[str, int]] = []     # stones the engine has been told

    def forget(self) -> None:
        self.known = []

    async def _answer(self, wait_s: float) -> str:
        lines = await self.engine.read_until(
            lambda s: not s.startswith(("MESSAGE", "DEBUG", "UNKNOWN")), wait_s)
        return lines[-1]

    async def greet(self, runner: Any, seat: int) -> None:
        check_game(runner.game)
        await self.engine.send(f"START {SIZE}")
        ok = await self._answer(self.startup_ms / 1000)
        if ok.strip() != "OK":
            raise EngineError(f"START {SIZE} answered {ok!r}")
        await self.engine.send(f"INFO timeout_turn {self.turn_limit(runner.clocks[seat].spec)}")
        spec = runner.clocks[seat].spec
        await self.engine.send(f"INFO timeout_match {spec.bank or 0}")
        await self.engine.send("INFO max_memory 0")
        await self.engine.send("INFO game_type 1")
        await self.engine.send(f"INFO rule {RULE_CODES[runner.game.options['ruleset']]}")
        for k, v in self.options.items():
            await self.engine.send(f"INFO {k} {v}")

    def turn_limit(self, spec: Any) -> int:
        """``timeout_turn`` (ms) for a clock: the move cap, else an overtime period, else the
        whole bank; untimed: the door's ``movetime`` (1000 by default). Never above the door's
        ``movetime`` when it has one (Gomocup reads 0 as "as fast as you can": never sent)."""
        ot = spec.overtime
        limit = spec.move_cap or (ot.period if ot is not None else None) or spec.bank
        if limit is None:
            return self.movetime or 1000
        return min(limit, self.movetime) if self.movetime else limit

    def _stones(self, state: Any) -> list[tuple[str, int]]:
        start = state.game.new_state(position=state.position) if state.position else None
        out = []
        if start is not None:
            for colour in ("x", "o"):
                out += [(colour, p) for p in start.board.stones(colour)]
        out += [(c, p) for c, p in state.moves if p is not None]
        return out

    async def think(self, runner: Any, seat: int, wait_s: float) -> Any:
        state = runner.state
        if not clock_parts(runner, seat)["untimed"]:
            left = self.time_left(runner, seat)
            await self.engine.send(f"INFO time_left {max(0, (left or 0) - self.margin_ms)}")
        stones = self._stones(state)
        mine = state.colour_of(seat)
        if not stones:
            await self.engine.send("BEGIN")
        elif (len(stones) == len(self.known) + 1 and stones[:-1] == self.known
              and stones[-1][0] != mine and self.known):
            await self.engine.send(f"TURN {to_xy(stones[-1][1])}")
        else:
            await self.engine.send("BOARD")
            for colour, p in stones:
                await self.engine.send(f"{to_xy(p)},{1 if colour == mine else 2}")
            await self.engine.send("DONE")
        answer = await self._answer(wait_s)
        move = from_xy(answer)
        self.known = stones + ([(mine, _point_of(move))] if _point_of(move) is not None else [])
        return move


def _point_of(name: str) -> int | None:
    from qipai.games.gomoku.notation import parse_point

    try:
        return parse_point(name)
    except ValueError:
        return None
