"""The action object of the mahjong games: a kind and the tile it names.

Each game lists its kinds and reads their text (``discard 5p``, ``win``, ``chow 345p`` ...);
the object and its canonical text are the same for all: the kind, then the tile if any, a chow
written as its three tiles from its lowest one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .tile import format_tiles


@dataclass(frozen=True, order=True)
class Action:
    """``kind`` is one of the game's kinds; ``tile`` the tile it names (the lowest tile of a
    chow), ``None`` for kinds that name none (``win``, ``pass``, ``pung``, a claimed ``kong``)."""

    kind: str
    tile: int | None = None

    def __str__(self) -> str:
        return _text(self.kind, self.tile)


@cache
def _text(kind: str, tile: int | None) -> str:
    """An action's canonical text, kept per kind and tile (views and the research door write
    every legal action's text at every step)."""
    if tile is None:
        return kind
    if kind == "chow":
        return f"chow {format_tiles([tile, tile + 1, tile + 2])}"
    return f"{kind} {format_tiles([tile])}"


def parse_action(text: str, kinds: tuple[str, ...], *, with_tile: frozenset[str],
                 without_tile: frozenset[str]) -> Action:
    """Read an action's text: a kind of ``kinds``, then a tile for the kinds of ``with_tile``
    (a chow as its three tiles), none for ``without_tile``, either for the others (a kong:
    concealed with its tile, claimed without). Raises :class:`IllegalAction` naming what is
    wrong."""
    from qipai.core.errors import IllegalAction, NotationError, why

    from .tile import parse_tiles

    words = text.strip().split()
    if not words or words[0] not in kinds:
        raise IllegalAction(f"unknown action (expected one of {', '.join(kinds)})", text,
                            code="mahjong.unknown_action_expected", params={"KINDS": ', '.join(kinds)})
    kind = words[0]
    if len(words) == 1:
        if kind in with_tile:
            raise IllegalAction(f"{kind} needs a tile", text,
                                code="mahjong.needs_tile", params={"kind": kind})
        return Action(kind)
    if len(words) > 2:
        raise IllegalAction("too many words", text, code="mahjong.too_many_words")
    try:
        tiles = sorted(parse_tiles(words[1]))
    except NotationError as e:
        raise IllegalAction(str(e), text, code="bad_notation",
                            params={"text": text, **why(e, "unreadable")}) from None
    if kind == "chow":
        if (len(tiles) != 3 or tiles[0] >= 27 or tiles[1] != tiles[0] + 1 or tiles[2] != tiles[0] + 2
                or tiles[0] // 9 != tiles[2] // 9):
            raise IllegalAction("a chow is three consecutive tiles of one suit, e.g. chow 345p", text,
                                code="mahjong.chow_three_consecutive_tiles")
        return Action("chow", tiles[0])
    if len(tiles) != 1 or tiles[0] >= 34:
        raise IllegalAction("name exactly one playing tile", text, code="mahjong.name_exactly_playing_tile")
    if kind in without_tile:
        raise IllegalAction(f"{kind} takes no tile", text,
                            code="mahjong.takes_no_tile", params={"kind": kind})
    return Action(kind, tiles[0])


def check_action(action: object, kinds: tuple[str, ...]) -> None:
    """Raise :class:`IllegalAction` unless ``action`` is an :class:`Action` of one of ``kinds``
    naming a playing tile (kinds 0..33; a chow by its lowest tile, ranks 1..7 of a suit) or
    no tile."""
    from qipai.core.errors import IllegalAction

    if not isinstance(action, Action):
        raise IllegalAction(f"not an action of this game: {action!r}", repr(action),
                            code="mahjong.not_an_action", params={"action": action})
    t = action.tile
    if action.kind not in kinds:
        raise IllegalAction(f"unknown action kind {action.kind!r}", repr(action),
                            code="mahjong.unknown_action_kind", params={"kind": action.kind})
    if t is not None and (type(t) is not int or not 0 <= t < 34
                          or (action.kind == "chow" and (t >= 27 or t % 9 > 6))):
        raise IllegalAction(f"no such tile or chow: {t!r}", repr(action),
                            code="mahjong.no_such_tile_chow", params={"text": t})
