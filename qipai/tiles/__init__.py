"""Mahjong tile primitives shared by the mahjong games: tiles, melds, hand notation, wall.

See :mod:`qipai.tiles.tile` for the tile numbering, :mod:`qipai.tiles.notation` for the
one-line hand notation, :mod:`qipai.tiles.shapes` for hand shapes (sets and pair) and
:mod:`qipai.tiles.wall` for seeded walls.
"""

from .meld import CHOW, KONG, PUNG, Meld, parse_meld
from .notation import Hand, parse_hand
from .tile import NAMES, NUM_KINDS, counts, format_tiles, name, parse_tile, parse_tiles
from .wall import Wall, deal_hands, shuffled, tile_set

__all__ = [
    "CHOW", "KONG", "NAMES", "NUM_KINDS", "PUNG", "Hand", "Meld", "Wall", "counts", "deal_hands",
    "format_tiles", "name", "parse_hand", "parse_meld", "parse_tile", "parse_tiles", "shuffled",
    "tile_set",
]
