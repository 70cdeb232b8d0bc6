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

from dataclasses import dataclass

from qipai.core.errors import IllegalAction, NotationError
from qipai.tiles.tile import format_tiles, parse_tiles

KINDS = ("discard", "win", "kong", "add", "pass", "pung", "chow", "penalty")
_WITH_TILE = {"discard", "add", "chow"}


@dataclass(frozen=True, order=True)
class Action:
    """``kind`` is one of :data:`KINDS`; ``tile`` the tile it names (the lowest tile of a chow),
    ``None`` for ``win``, ``pass``, ``pung``, ``penalty`` and a claimed ``kong``."""

    kind: str
    tile: int | None = None

    def __str__(self) -> str:
        if self.tile is None:
            return self.kind
        if self.kind == "chow":
            return f"chow {format_tiles([self.tile, self.tile + 1, self.tile + 2])}"
        return f"{self.kind} {format_tiles([self.tile])}"


def parse_action(text: str) -> Action:
    """Read an action's text. Raises :class:`IllegalAction` naming what is wrong."""
    words = text.strip().split()
    if not words or words[0] not in KINDS:
        raise IllegalAction(f"unknown action (expected one of {', '.join(KINDS)})", text,
                            code="mahjong-gb.unknown_action_expected", params={"KINDS": ', '.join(KINDS)})
    kind = words[0]
    if len(words) == 1:
        if kind in _WITH_TILE:
            raise IllegalAction(f"{kind} needs a tile", text,
                                code="mahjong-gb.needs_tile", params={"kind": kind})
        return Action(kind)
    if len(words) > 2:
        raise IllegalAction("too many words", text, code="mahjong-gb.too_many_words")
    try:
        tiles = sorted(parse_tiles(words[1]))
    except NotationError as e:
        raise IllegalAction(str(e), text, code="bad_notation", params={"detail": str(e)}) from None
    if kind == "chow":
        if (len(tiles) != 3 or tiles[0] >= 27 or tiles[1] != tiles[0] + 1 or tiles[2] != tiles[0] + 2
                or tiles[0] // 9 != tiles[2] // 9):
            raise IllegalAction("a chow is three consecutive tiles of one suit, e.g. chow 345p", text,
                                code="mahjong-gb.chow_three_consecutive_tiles")
        return Action("chow", tiles[0])
    if len(tiles) != 1 or tiles[0] >= 34:
        raise IllegalAction("name exactly one playing tile", text,
                            code="mahjong-gb.name_exactly_playing_tile")
    if kind in ("win", "pass", "pung", "penalty"):
        raise IllegalAction(f"{kind} takes no tile", text,
                            code="mahjong-gb.takes_no_tile", params={"kind": kind})
    return Action(kind, tiles[0])
