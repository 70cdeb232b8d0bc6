"""Actions of Guobiao mahjong and their canonical text.

In one's own turn: ``discard 5p``, ``win`` (self-drawn), ``kong 5p`` (concealed kong),
``add 5p`` (add the tile to one's exposed pung). Answering a discard: ``pass``, ``win``,
``kong``, ``pung``, ``chow 345p`` (the chow made, written from its lowest tile). Answering an
added kong: ``pass`` or ``win`` (robbing the kong).

``penalty`` is never a legal action: it is the record entry of the sanction the match layer
applies, through :meth:`MahjongState.penalize_illegal`, for a refused action under
``illegal_action_policy="botzone"``; replaying a record re-applies it.
"""

from __future__ import annotations

from qipai.tiles.action import Action
from qipai.tiles.action import parse_action as parse_tile_action

KINDS = ("discard", "win", "kong", "add", "pass", "pung", "chow", "penalty")
_WITH_TILE = frozenset({"discard", "add", "chow"})
_NO_TILE = frozenset({"win", "pass", "pung", "penalty"})


def parse_action(text: str) -> Action:
    """Read an action's text. Raises :class:`IllegalAction` naming what is wrong."""
    return parse_tile_action(text, KINDS, with_tile=_WITH_TILE, without_tile=_NO_TILE)
