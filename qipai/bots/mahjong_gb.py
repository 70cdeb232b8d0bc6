"""Guobiao mahjong bot ``fast``: wins when it can, otherwise discards toward the fastest hand.

Reads only ``state.view(seat)`` and ``state.legal_actions(seat)``. A discard is chosen by
(1) keeping the most winning tiles when one discard leaves the hand ready (tenpai), else
(2) throwing the least connected tile: pairs and pungs, neighbours within one or two ranks
count for a tile; isolated honors and terminals go first. Concealed kongs are declared (they
cost nothing). A discard is claimed for a pung, chow or kong only when that lowers the hand's
standard-shape shanten (for a pung or chow: after the best discard that follows; for a kong:
the claim keeps it no worse and brings a replacement tile); among several such claims the
lowest shanten wins, then kong, pung, chow. Deterministic except for seeded tie-breaks.
"""

from __future__ import annotations

import random

from qipai.bots import register_bot
from qipai.bots.search import register_searcher
from qipai.bots.tilerules import after_discard, discard_claim, hand_counts, legal_and_win, tile_value
from qipai.bots.tilesearch import TileSearcher
from qipai.tiles.shapes import shanten, waits
from qipai.tiles.wall import tile_set


def choose_discard(counts: list[int], options: list[int], rng: random.Random) -> int:
    """The discard (a kind in ``options``) that leaves the best hand of ``counts``."""
    best = None
    best_key = None
    for t in options:
        counts[t] -= 1
        w = waits(counts)
        live = sum(4 - counts[k] for k in w)
        key = (1 if w else 0, live, -tile_value(counts, t) if not w else 0, rng.random())
        counts[t] += 1
        if best_key is None or key > best_key:
            best, best_key = t, key
    return best


def choose_claim(counts: list[int], melds: int, view: dict, actions: list):
    """The pung, chow or kong among ``actions`` that brings the hand (``counts`` concealed, with
    ``melds`` declared sets) closer to winning on the claimed tile, or ``None``: a kong that
    keeps the shanten, a pung or chow that lowers it after the best discard."""
    now = shanten(counts, melds)

    def value(a, c: list[int]) -> int | None:
        if a.kind == "kong":
            v = shanten(c, melds + 1)
            return v if v <= now else None
        v = after_discard(c, lambda x: shanten(x, melds + 1))
        return v if v < now else None

    return discard_claim(view, counts, actions, value)


class FastBot:
    name = "fast"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state, seat: int):
        actions, win = legal_and_win(state, seat)
        if win is not None:
            return win
        kongs = [a for a in actions if a.kind == "kong" and a.tile is not None]
        if kongs:
            return kongs[0]
        discards = [a for a in actions if a.kind == "discard"]
        view = state.view(seat)
        counts = hand_counts(view["seats"][seat]["hand"])
        if not discards:
            claim = choose_claim(counts, len(view["seats"][seat]["melds"]), view, actions)
            return claim or next(a for a in actions if a.kind == "pass")
        t = choose_discard(counts, [a.tile for a in discards], self.rng)
        return next(a for a in discards if a.tile == t)


register_bot("mahjong-gb", "fast", FastBot)
register_bot("mahjong-gb", "greedy", FastBot)


# ----- search (levels 3-5) -------------------------------------------------------------------
class MahjongSearcher(TileSearcher):
    """Guobiao mahjong for information-set MCTS (:class:`~qipai.bots.tilesearch.TileSearcher`),
    the ``fast`` bot playing out."""

    game_id = "mahjong-gb"
    rule_bot = FastBot

    def tiles(self, game):
        return tile_set(game.options["use_flowers"])


register_searcher(MahjongSearcher(), FastBot)
