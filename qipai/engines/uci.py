"""UCI and UCCI doors for xiangqi.

* **UCI** (Fairy-Stockfish with ``UCI_Variant=xiangqi``, Pikafish): ``uci`` / ``uciok``,
  ``setoption name N value V``, ``isready`` / ``readyok``, ``position fen F moves ...``,
  ``go wtime W btime B winc I binc I`` from the seat's real clock (``movetime`` when the clock
  counts per move, or a fixed ``depth``), ``bestmove M``.
* **UCCI** (ElephantEye and its kin): ``ucci`` / ``ucciok``, ``setoption N V``, the same
  ``position``, ``banmoves`` with the moves the repetition rules forbid (a move that would lose
  by perpetual check or chase, rules/xiangqi.md §4.3; under ``seed000_same_move`` the moves that
  rule bans), ``go time T increment I opptime T2 oppincrement I2`` (ms; ``go time T movestogo 1`` for a
  per-move allowance) or ``go depth N``,
  ``bestmove M`` (``nobestmove``: the engine gives up).

Squares: ICCS files ``a``-``i``; ranks ``0``-``9`` (Pikafish, UCCI: dialect ``iccs``) or
``1``-``10`` (Fairy-Stockfish: dialect ``fsf``). With ``dialect="auto"`` an engine that offers
the ``UCI_Variant`` option is taken to be Fairy-Stockfish.
"""

from __future__ import annotations

import re
from typing import Any

from qipai.games.xiangqi.fen import START_FEN
from qipai.games.xiangqi.rules import Move

from .player import RESIGN, EnginePlayer, clock_parts

_SQUARE = re.compile(r"([a-i])(10|[0-9])")


def to_dialect(iccs: str, dialect: str) -> str:
    """An ICCS move (``h2e2``) in the engine's squares (``fsf``: ``h3e3``)."""
    if dialect != "fsf":
        return iccs
    return _SQUARE.sub(lambda m: f"{m.group(1)}{int(m.group(2)) + 1}", iccs)


def from_dialect(text: str, dialect: str) -> str:
    """The engine's move in ICCS; text that is not two squares is returned as it is (the
    referee then refuses it as a person's malformed move)."""
    m = re.fullmatch(r"([a-i])(10|[0-9])([a-i])(10|[0-9])", text.strip())
    if not m or dialect != "fsf":
        return text.strip()
    a, r1, b, r2 = m.groups()
    return f"{a}{int(r1) - 1}{b}{int(r2) - 1}"


def forbidden_moves(state: Any) -> list[str]:
    """The moves of the side to move that the repetition rule forbids or punishes: under
    ``seed000_same_move`` the moves it bans; otherwise every move after which the game is lost
    by repetition (perpetual check or chase) by the side that made it."""
    if state.is_terminal():
        return []
    if state.game.options["repetition_rule"] == "seed000_same_move":
        legal = set(state._legal_codes())
        return [str(Move(c >> 7, c & 127)) for c in state._unbanned or () if c not in legal]
    out = []
    seat = state.turn
    for m in state.legal_moves():
        child = state.clone()
        child.apply(m)
        res = child.result
        if res is not None and res.reason == "repetition_loss" and seat not in res.winners:
            out.append(str(m))
    return out


class UciPlayer(EnginePlayer):
    """A UCI (or, with ``ucci=True``, UCCI) xiangqi engine; see the module docstring.
    ``options`` are sent with ``setoption`` after the greeting (``{"Skill Level": 3}``)."""

    def __init__(self, command: Any, *, ucci: bool = False, dialect: str = "auto",
                 variant: str = "xiangqi", **kw: Any) -> None:
        super().__init__(command, **kw)
        if dialect not in ("auto", "fsf", "iccs"):
            raise ValueError(f"dialect must be auto, fsf or iccs, not {dialect!r}")
        self.ucci = ucci
        self.protocol = "ucci" if ucci else "uci"
        self.dialect = dialect
        self.variant = variant
        self.engine_name = ""
        self.engine.mute = ("info ",)
        self._sq = "iccs" if ucci else dialect

    async def greet(self, runner: Any, seat: int) -> None:
        await self.engine.send("ucci" if self.ucci else "uci")
        ok = "ucciok" if self.ucci else "uciok"
        lines = await self.engine.read_until(lambda s: s.strip() == ok, self.startup_ms / 1000)
        has_variant = any(re.match(r"option\s+name\s+UCI_Variant\b", s) for s in lines)
        for s in lines:
            if s.startswith("id name "):
                self.engine_name = s[8:].strip()
        if not self.ucci:
            self._sq = ("fsf" if has_variant else "iccs") if self.dialect == "auto" else self.dialect
        if has_variant:
            await self._setoption("UCI_Variant", self.variant)
        for k, v in self.options.items():
            await self._setoption(k, v)
        await self.engine.send("isready")
        await self.engine.read_until(lambda s: s.strip() == "readyok", self.startup_ms / 1000)
        if not self.ucci:
            await self.engine.send("ucinewgame")

    async def _setoption(self, name: str, value: Any) -> None:
        if isinstance(value, bool):
            value = "true" if value else "false"
        if self.ucci:
            await self.engine.send(f"setoption {name} {value}")
        else:
            await self.engine.send(f"setoption name {name} value {value}")

    def position_line(self, state: Any) -> str:
        fen = state.position or START_FEN
        moves = [to_dialect(m, self._sq) for m in state.log]
        return f"position fen {fen}" + (f" moves {' '.join(moves)}" if moves else "")

    def go_line(self, runner: Any, seat: int) -> str:
        if self.depth is not None:
            return f"go depth {self.depth}"
        parts = clock_parts(runner, seat)
        opp = clock_parts(runner, 1 - seat)
        left = self.time_left(runner, seat)
        plain = (parts["bank"] is not None and not parts["overtime"] and parts["cap"] is None
                 and "byoyomi" not in parts and "canadian" not in parts)
        if left is None or not plain or self.movetime:
            budget = self.move_budget(runner, seat)
            budget = budget if budget is not None else 1000
            # UCCI has no movetime: all of a one-move allowance
            return f"go time {budget} movestogo 1" if self.ucci else f"go movetime {budget}"
        mine = max(10, left - self.margin_ms)
        theirs = opp["bank"] if opp["bank"] is not None else mine
        inc, oinc = parts["increment"], opp["increment"]
        if self.ucci:
            return f"go time {mine} increment {inc} opptime {theirs} oppincrement {oinc}"
        w, b = (mine, theirs) if runner.state.turn == 0 else (theirs, mine)
        wi, bi = (inc, oinc) if runner.state.turn == 0 else (oinc, inc)
        return f"go wtime {w} btime {b} winc {wi} binc {bi}"

    async def think(self, runner: Any, seat: int, wait_s: float) -> Any:
        state = runner.state
        await self.engine.send(self.position_line(state))
        if self.ucci:
            ban = forbidden_moves(state) + [m for m in self.refused if m]
            if ban:
                await self.engine.send("banmoves " + " ".join(dict.fromkeys(ban)))
        await self.engine.send(self.go_line(runner, seat))
        lines = await self.engine.read_until(
            lambda s: s.startswith("bestmove") or s.strip() == "nobestmove", wait_s)
        words = lines[-1].split()
        if words[0] == "nobestmove" or (len(words) > 1 and words[1] in ("(none)", "0000", "resign")):
            return RESIGN
        return from_dialect(words[1], self._sq) if len(words) > 1 else lines[-1]
