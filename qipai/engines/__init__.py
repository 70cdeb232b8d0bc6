"""Doors to external engine processes, and qipai behind the same protocols (docs/engines.md).

>>> from qipai.engines import engine_player, EngineBot
>>> player = engine_player(qipai.load("xiangqi"), "/usr/games/fairy-stockfish", movetime=200)

* :func:`engine_player` — a match-runner :class:`~qipai.match.players.Player` for the game's
  protocol: UCI (or UCCI) for xiangqi, GTP for go, Gomocup for gomoku / renju, and Botzone JSON
  (:mod:`.botzone`) for every game;
* :class:`~qipai.engines.sync.EngineBot` — the same engine as a plain bot with
  ``choose(state, seat)`` (terminal play, scripts);
* :func:`parse_engine` — ``NAME=COMMAND`` as organizers write it on the command line.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Any

from qipai.core.errors import OptionError

from .player import EnginePlayer
from .process import EngineDied, EngineError, EngineProcess, EngineTimeout

#: the protocols each game is played through, the first being the default; every game is also
#: played through :data:`ANY_GAME` (Botzone JSON), the only one of the card and tile games
PROTOCOLS = {"xiangqi": ("uci", "ucci"), "go": ("gtp",), "gomoku": ("gomocup",)}
ANY_GAME = "botzone"
KNOWN = frozenset({p for ps in PROTOCOLS.values() for p in ps} | {ANY_GAME})


@dataclass(frozen=True)
class EngineSpec:
    """An engine an organizer offers: its ``name``, the ``command`` that starts it, its
    ``protocol`` (None: the game's default) and door settings (``movetime``, ``depth``, engine
    ``options``)."""

    name: str
    command: str
    protocol: str | None = None
    settings: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {"command": self.command, **({"protocol": self.protocol} if self.protocol else {}),
                **self.settings}

    @property
    def game(self) -> str | None:
        """The game its protocol plays (a Botzone bot: the game it was offered for; None while
        the protocol is not known)."""
        from .detect import GAME_OF

        if self.protocol == ANY_GAME:
            return self.settings.get("game")
        return GAME_OF.get(self.protocol) if self.protocol else None

    def detected(self) -> EngineSpec:
        """This spec with its protocol found by greeting the engine when none was named
        (:func:`qipai.engines.detect.detect_protocol`). Raises :class:`EngineError`."""
        if self.protocol:
            return self
        import asyncio

        from .detect import detect_protocol

        return EngineSpec(self.name, self.command, asyncio.run(detect_protocol(self.command)),
                          self.settings)


def _botzone_game(name: str, game: str | None) -> str:
    """The game id a Botzone bot is offered for (aliases resolved); raises OptionError."""
    from qipai.core.registry import load

    if not game:
        raise OptionError(f"engine {name}: a Botzone bot names its game: NAME:botzone:GAME=COMMAND, "
                          "or game = \"...\" in its table",
                          code="engine.botzone_game", params={"name": name})
    try:
        return load(game).id
    except Exception:
        raise OptionError(f"engine {name}: unknown game {game!r}",
                          code="engine.unknown_game", params={"name": name, "game": game}) from None


def parse_engine(text: str) -> EngineSpec:
    """``NAME=COMMAND`` (``fsf=/usr/games/fairy-stockfish``); ``NAME:PROTOCOL=COMMAND`` names
    the protocol (``eleeye:ucci=/opt/eleeye``); a Botzone bot names its game too
    (``ddz:botzone:doudizhu=python3 bot.py``). Raises OptionError."""
    name, sep, command = text.partition("=")
    name, _, protocol = name.strip().partition(":")
    protocol, _, game = protocol.partition(":")
    if not sep or not name or not command.strip():
        raise OptionError(f"engine {text!r}: write NAME=COMMAND, e.g. fsf=/usr/games/fairy-stockfish",
                          code="engine.bad_spec", params={"name": text})
    if protocol and protocol not in KNOWN:
        raise OptionError(f"engine {name}: unknown protocol {protocol!r}; valid: uci, ucci, gtp, "
                          "gomocup, botzone",
                          code="engine.unknown_protocol", params={"name": name, "protocol": protocol})
    try:
        shlex.split(command)
    except ValueError as e:
        raise OptionError(f"engine {name}: bad command: {e}",
                          code="engine.bad_command", params={"name": name}) from None
    if protocol == ANY_GAME:
        return EngineSpec(name, command.strip(), protocol, {"game": _botzone_game(name, game)})
    return EngineSpec(name, command.strip(), protocol or None)


def engine_spec(name: str, value: Any) -> EngineSpec:
    """An engine of an event's ``[engines]`` table: a command, or a table with ``command`` and
    optionally ``protocol``, ``movetime``, ``depth``, ``options``. Raises OptionError."""
    if isinstance(value, str):
        return EngineSpec(name, value)
    if not isinstance(value, dict) or not isinstance(value.get("command"), str):
        raise OptionError(f"engine {name}: give a command, or a table with command = \"...\"",
                          code="engine.bad_spec", params={"name": name})
    rest = {k: v for k, v in value.items() if k not in ("command", "protocol")}
    bad = set(rest) - {"movetime", "depth", "options", "max_restarts", "game"}
    if bad:
        raise OptionError(f"engine {name}: unknown key(s) {sorted(bad)}; valid: command, protocol, "
                          "movetime, depth, options, max_restarts, game (Botzone)",
                          code="engine.unknown_keys", params={"name": name, "keys": sorted(bad)})
    protocol = value.get("protocol")
    if protocol is not None and protocol not in KNOWN:
        raise OptionError(f"engine {name}: unknown protocol {protocol!r}; valid: uci, ucci, gtp, "
                          "gomocup, botzone",
                          code="engine.unknown_protocol", params={"name": name, "protocol": protocol})
    if protocol == ANY_GAME:
        rest["game"] = _botzone_game(name, rest.get("game"))
    return EngineSpec(name, value["command"], protocol, rest)


def protocols(game_id: str) -> tuple[str, ...]:
    """The protocols engines of ``game_id`` speak, its own first, Botzone JSON last."""
    return (*PROTOCOLS.get(game_id, ()), ANY_GAME)


def engine_player(game: Any, command: Any, protocol: str | None = None, **kw: Any) -> EnginePlayer:
    """The door for ``game`` (a loaded game) to the engine ``command`` (an
    :class:`EngineSpec`, a command line or an argument list). Raises OptionError for a game no
    engine protocol plays, or a protocol the game is not played through."""
    if isinstance(command, EngineSpec):
        protocol = protocol or command.protocol
        kw = {**command.settings, "name": command.name, **kw}
        kw.pop("game", None)               # a Botzone bot's game: where it is offered
        command = command.command
    allowed = protocols(game.id)
    protocol = protocol or allowed[0]
    if protocol not in allowed:
        raise OptionError(f"{game.id} engines speak {' or '.join(allowed)}, not {protocol}",
                          code="engine.protocol_unfit", params={"protocol": protocol, "valid": list(allowed)})
    if protocol == ANY_GAME:
        from .botzone import BotzonePlayer

        return BotzonePlayer(command, **kw)
    if protocol in ("uci", "ucci"):
        from .uci import UciPlayer

        return UciPlayer(command, ucci=protocol == "ucci", **kw)
    if protocol == "gtp":
        from .gtp import GtpPlayer

        return GtpPlayer(command, **kw)
    from .gomocup import GomocupPlayer, check_game

    check_game(game)
    return GomocupPlayer(command, **kw)


def __getattr__(name: str) -> Any:
    if name == "EngineBot":
        from .sync import EngineBot

        return EngineBot
    raise AttributeError(name)


__all__ = ["EngineBot", "EngineDied", "EngineError", "EnginePlayer", "EngineProcess", "EngineSpec",
           "EngineTimeout", "engine_player", "engine_spec", "parse_engine", "protocols"]
