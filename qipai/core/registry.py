"""Game ids, aliases, and loading games with options."""

from __future__ import annotations

import importlib
from typing import Any

from .errors import OptionError
from .game import Game, GameInfo

# id -> module that defines it (imported on first use, so `import qipai` stays light)
_MODULES: dict[str, str] = {
    "xiangqi": "qipai.games.xiangqi",
    "gomoku": "qipai.games.gomoku",
    "doudizhu": "qipai.games.doudizhu",
    "go": "qipai.games.go",
    "mahjong-gb": "qipai.games.mahjong_gb",
    "laizi-mahjong": "qipai.games.laizi_mahjong",
    "shengji": "qipai.games.shengji",
    "chinese-checkers": "qipai.games.chinese_checkers",
    "wakeng": "qipai.games.wakeng",
    "fouafour": "qipai.games.fouafour",
    "baohuang": "qipai.games.baohuang",
    "junqi": "qipai.games.junqi",
    "sandayi": "qipai.games.sandayi",
    "baibian-bajue": "qipai.games.baibian_bajue",
}
# alias -> (id, preset options)
_ALIASES: dict[str, tuple[str, dict[str, Any]]] = {}
_GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make ``cls`` loadable by its ``id``."""
    _GAMES[cls.id] = cls
    return cls


def add_game_module(game_id: str, module: str) -> None:
    _MODULES[game_id] = module


def add_alias(alias: str, game_id: str, **preset: Any) -> None:
    _ALIASES[alias] = (game_id, preset)


def alias_options(name: str) -> dict[str, Any] | None:
    """The options the alias ``name`` stands for: ``{}`` for another id of its game (``tuolaji``
    is shengji, named as shengji), ``None`` when ``name`` is no alias."""
    _discover_alias(name)
    got = _ALIASES.get(name)
    return dict(got[1]) if got else None


def _discover_alias(game_id: str) -> None:
    """Aliases are registered by the game modules: import them to find an unknown ``game_id``."""
    if game_id in _ALIASES or game_id in _MODULES:
        return
    for module in list(_MODULES.values()):
        try:
            importlib.import_module(module)
        except ImportError:
            continue


def game_class(game_id: str) -> type[Game]:
    if game_id not in _GAMES:
        _discover_alias(game_id)
        if game_id in _ALIASES:
            return game_class(_ALIASES[game_id][0])
        if game_id not in _MODULES:
            valid = ", ".join(sorted(set(_MODULES) | set(_ALIASES)))
            raise OptionError(f"unknown game {game_id!r}; valid games: {valid}",
                              code="game.unknown", params={"game": game_id})
        importlib.import_module(_MODULES[game_id])
        if game_id not in _GAMES:
            raise OptionError(f"module {_MODULES[game_id]} does not register the game {game_id!r}",
                              code="game.unknown", params={"game": game_id})
    return _GAMES[game_id]


def load(game_id: str, **options: Any) -> Game:
    """The game ``game_id`` (or an alias) with ``options`` (its rule variants) applied.

    Raises :class:`OptionError` for an unknown game, option or value, listing the valid ones.
    """
    _discover_alias(game_id)
    if game_id in _ALIASES:
        real, preset = _ALIASES[game_id]
        return game_class(real)(**{**preset, **options})
    return game_class(game_id)(**options)


def games() -> list[GameInfo]:
    """Every game: id, Chinese and English names, seat counts, options with defaults."""
    out = []
    for gid in sorted(_MODULES):
        cls = game_class(gid)         # imports the module, which registers its aliases
        aliases = [a for a, (real, _) in _ALIASES.items() if real == gid]
        out.append(cls.info(aliases))
    return out
