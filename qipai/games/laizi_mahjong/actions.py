"""Actions of laizi mahjong and their canonical text (rules/laizi-mahjong.md 2.3-2.4).

In one's own turn: ``win`` (self-drawn), ``kong 5p`` (concealed kong), ``add 5p`` (add the tile
to one's exposed pung), ``peel 4p`` (皮子杠: play out a tile of the indicator's kind), ``laizi
5p`` (赖子杠: play out a laizi), ``discard 5p``. Answering a discard: ``pass``, ``win``,
``kong``, ``pung``, ``chow 345p``; answering a laizi kong: ``pass`` or ``win``.
"""

from __future__ import annotations

from qipai.tiles.action import Action
from qipai.tiles.action import parse_action as parse_tile_action

KINDS = ("discard", "win", "kong", "add", "peel", "laizi", "pass", "pung", "chow")
_WITH_TILE = frozenset({"discard", "add", "chow", "peel", "laizi"})
_NO_TILE = frozenset({"win", "pass", "pung"})


def parse_action(text: str) -> Action:
    """Read an action's text. Raises :class:`IllegalAction` naming what is wrong."""
    return parse_tile_action(text, KINDS, with_tile=_WITH_TILE, without_tile=_NO_TILE)
