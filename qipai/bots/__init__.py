"""Built-in bots.

A bot is any object with ``choose(state, seat) -> action`` that returns one of
``state.legal_actions(seat)``. Bots never see more than a seat may: they are handed the real
state by the match layer, and built-in bots read only ``state.view(seat)`` and
``state.legal_actions(seat)``.

``make_bot(game_id, name, seed)`` builds a bot by name; ``bot_names(game_id)`` lists them.
Game-specific bots live in ``qipai/bots/<game package>.py`` and register with :func:`register_bot`.

Levels (docs/bots.md): 1 is ``random``, 2 the game's rule bot (``rule`` or ``greedy``), 3–5
the search bots ``mcts3`` .. ``mcts5`` (:mod:`qipai.bots.search`) of the games that have a
searcher. :func:`level_bot` names the bot of a level, :func:`bot_levels` lists a game's levels.
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
        raise OptionError(f"unknown bot {name!r} for {game_id}; valid bots: {', '.join(bot_names(game_id))}",
                          code="bot.unknown", params={"bot": name, "valid": bot_names(game_id)})
    return factory(seed)


#: every level a game may offer; a game without a searcher offers 1 and 2
LEVELS = (1, 2, 3, 4, 5)


def rule_bot_name(game_id: str) -> str:
    """The game's rule bot (level 2): ``rule``, else ``greedy``, else ``random``."""
    names = bot_names(game_id)
    return next((n for n in ("rule", "greedy") if n in names), "random")


def bot_levels(game_id: str) -> dict[int, str]:
    """The levels ``game_id`` offers, each with its bot's name."""
    names = bot_names(game_id)
    out = {1: "random", 2: rule_bot_name(game_id)}
    out.update({lv: f"mcts{lv}" for lv in (3, 4, 5) if f"mcts{lv}" in names})
    return out


def level_bot(game_id: str, level: Any) -> str:
    """The bot name of ``level`` for ``game_id``. Raises :class:`OptionError` when ``level`` is
    not an integer 1–5 or the game does not offer it (the message lists the levels it has)."""
    offered = bot_levels(game_id)
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise OptionError(f"a bot level is an integer 1-5, not {level!r}",
                          code="bot.bad_level", params={"level": level})
    if level not in offered:
        raise OptionError(f"{_real_id(game_id)} has no level {level} bot; levels: "
                          f"{', '.join(map(str, offered))}",
                          code="bot.no_level", params={"level": level, "levels": list(offered)})
    return offered[level]
