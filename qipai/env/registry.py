"""Which encoder serves which game (imported on first use)."""

from __future__ import annotations

import importlib
from typing import Any

from .base import Encoder, EnvError

# game id -> "module:class" under qipai.env
ENCODERS: dict[str, str] = {
    "go": "boards:GoEncoder",
    "gomoku": "boards:GomokuEncoder",
    "xiangqi": "boards:XiangqiEncoder",
    "chinese-checkers": "pieces:CheckersEncoder",
    "junqi": "pieces:JunqiEncoder",
    "doudizhu": "doudizhu:DoudizhuEncoder",
    "wakeng": "climbing:ClimbingEncoder",
    "fouafour": "climbing:ClimbingEncoder",
    "baohuang": "climbing:ClimbingEncoder",
    "shengji": "tricks:TrickEncoder",
    "sandayi": "tricks:TrickEncoder",
    "mahjong-gb": "tiles:TileEncoder",
    "laizi-mahjong": "tiles:TileEncoder",
    "baibian-bajue": "tiles:TileEncoder",
}


def make_encoder(game: Any, num_seats: int) -> Encoder:
    """The encoder of ``game`` (a loaded :class:`qipai.core.game.Game`) for ``num_seats``.
    Raises :class:`EnvError` (``env.no_encoding``) for a game without one."""
    where = ENCODERS.get(game.id)
    if where is None:
        raise EnvError(f"no research encoding for {game.id!r}; encoded games: {', '.join(sorted(ENCODERS))}",
                       "env.no_encoding", {"game": game.id})
    module, cls = where.split(":")
    return getattr(importlib.import_module(f"qipai.env.{module}"), cls)(game, num_seats)
