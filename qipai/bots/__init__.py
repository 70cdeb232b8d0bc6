"""Built-in bots.

A bot is any object with ``choose(state, seat) -> action`` that returns one of
``state.legal_actions(seat)``. Bots never see more than a seat may: they are handed the real
state by the match layer, and built-in bots read only ``state.view(seat)`` and
``state.legal_actions(seat)``.

``make_bot(game_id, name, seed)`` builds a bot by name; ``bot_names(game_id)`` lists them.
Game-specific bots live in ``qipai/bots/<game package>.py`` and register with :func:`register_bot`.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any, Protocol

from qipai.core.errors import OptionError


class Bot(Protocol):
    name: str

    def choose(self, state: Any, seat: int) -> Any: ...


class RandomBot:
    """Plays a uniformly random legal action (seeded)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: Any, seat: int) -> Any:
        actions = state.legal_actions(seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        return self.rng.choice(actions)


# (game id or "*", bot name) -> factory(seed) -> bot
_BOTS: dict[tuple[str, str], Callable[[int | None], Bot]] = {("*", "random"): RandomBot}
_LOADED: set[str] = set()


def register_bot(game_id: str, name: str, factory: Callable[[int | None], Bot]) -> None:
    _BOTS[(game_id, name)] = factory


def _load(game_id: str) -> None:
    if game_id in _LOADED:
        return
    _LOADED.add(game_id)
    try:
        importlib.import_module(f"qipai.bots.{game_id.replace('-', '_')}")
    except ModuleNotFoundError as e:
        if e.name != f"qipai.bots.{game_id.replace('-', '_')}":
            raise


def _real_id(game_id: str) -> str:
    """The game id behind an alias (``tiaoqi`` is ``chinese-checkers``, ``renju`` is ``gomoku``);
    an unknown id is returned as it is."""
    from qipai.core.errors import OptionError
    from qipai.core.registry import game_class

    try:
        return game_class(game_id).id
    except OptionError:
        return game_id


def bot_names(game_id: str) -> list[str]:
    """The bots that play ``game_id`` (a game id or an alias)."""
    game_id = _real_id(game_id)
    _load(game_id)
    return sorted({n for (g, n) in _BOTS if g in (game_id, "*")})


def make_bot(game_id: str, name: str, seed: int | None = None) -> Bot:
    """The bot ``name`` for ``game_id`` (a game id or an alias). Raises :class:`OptionError`
    listing the valid names."""
    game_id = _real_id(game_id)
    _load(game_id)
    factory = _BOTS.get((game_id, name)) or _BOTS.get(("*", name))
    if factory is None:
        raise OptionError(f"unknown bot {name!r} for {game_id}; valid bots: {', '.join(bot_names(game_id))}")
    return factory(seed)
