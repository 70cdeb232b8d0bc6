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
from collections.abc import Callable
from typing import Any

from qipai.bots import register_bot
from qipai.bots.search import register_searcher
from qipai.bots.tilesearch import TileSearcher
from qipai.tiles.shapes import shanten, waits
from qipai.tiles.tile import NUM_KINDS, parse_tiles
from qipai.tiles.wall import tile_set


def _value(c: list[int], t: int) -> float:
    v = 0.0
    n = c[t]
    if n >= 2:
        v += 4 + 2 * (n - 2)
    if t < 27:
        r = t % 9
        for d, w in ((1, 2.0), (2, 1.0)):
            if r - d >= 0 and c[t - d]:
                v += w
            if r + d <= 8 and c[t + d]:
                v += w
        if r in (0, 8):
            v -= 0.3
    else:
        v -= 0.5
    return v


def choose_discard(counts: list[int], options: list[int], rng: random.Random) -> int:
    """The discard (a kind in ``options``) that leaves the best hand of ``counts``."""
    best = None
    best_key = None
    for t in options:
        counts[t] -= 1
        w = waits(counts)
        live = sum(4 - counts[k] for k in w)
        key = (1 if w else 0, live, -_value(counts, t) if not w else 0, rng.random())
        counts[t] += 1
        if best_key is None or key > best_key:
            best, best_key = t, key
    return best


def _after_discard(counts: list[int], melds: int) -> int:
    """The lowest shanten reachable by discarding one tile of ``counts``."""
    best = 9
    for t in range(NUM_KINDS):
        if counts[t]:
            counts[t] -= 1
            best = min(best, shanten(counts, melds))
            counts[t] += 1
    return best


#: the claims a bot weighs, in the order it prefers them on equal merit
CLAIM_RANK = {"kong": 0, "pung": 1, "chow": 2}


def claimed_counts(counts: list[int], kind: str, low: int | None, t: int) -> list[int]:
    """The concealed ``counts`` after a claim of ``kind`` (a chow from its lowest tile ``low``)
    on the discard ``t``: the tiles of the hand the set uses are gone."""
    c = list(counts)
    if kind == "chow":
        for x in (low, low + 1, low + 2):
            if x != t:
                c[x] -= 1
    else:
        c[t] -= 2 if kind == "pung" else 3
    return c


def best_claim(actions: list, t: int, after: Callable[[Any, int], int | None]):
    """The claim (kong, pung or chow) of ``actions`` on the discard ``t`` with the lowest
    ``(after(action, t), CLAIM_RANK)``: ``after`` measures the hand once the claim is made
    (:func:`claimed_counts`; lower is nearer a win) and returns ``None`` for a claim not worth
    making. ``None`` when no claim is."""
    best, best_key = None, None
    for a in actions:
        if a.kind not in CLAIM_RANK:
            continue
        value = after(a, t)
        if value is None:
            continue
        key = (value, CLAIM_RANK[a.kind])
        if best_key is None or key < best_key:
            best, best_key = a, key
    return best


def choose_claim(counts: list[int], melds: int, claim: dict | None, actions: list):
    """The pung, chow or kong among ``actions`` that brings the hand (``counts`` concealed, with
    ``melds`` declared sets) closer to winning on the claimed tile, or ``None``: a kong that
    keeps the shanten, a pung or chow that lowers it after the best discard."""
    if not claim or claim.get("kind") != "discard" or not claim.get("tile"):
        return None
    now = shanten(counts, melds)

    def after(a, t: int) -> int | None:
        c = claimed_counts(counts, a.kind, a.tile, t)
        if a.kind == "kong":
            value = shanten(c, melds + 1)
            return value if value <= now else None
        value = _after_discard(c, melds + 1)
        return value if value < now else None

    return best_claim(actions, parse_tiles(claim["tile"])[0], after)


def legal_and_win(state, seat: int) -> tuple[list, Any]:
    """``seat``'s legal actions and the win among them (``None`` when it has none). Raises
    ValueError when the seat has no action."""
    actions = state.legal_actions(seat)
    if not actions:
        raise ValueError(f"seat {seat} has no legal action")
    return actions, next((a for a in actions if a.kind == "win"), None)


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
        counts = [0] * NUM_KINDS
        for t in parse_tiles(view["seats"][seat]["hand"]):
            counts[t] += 1
        if not discards:
            claim = choose_claim(counts, len(view["seats"][seat]["melds"]), view.get("claim"), actions)
            return claim or next(a for a in actions if a.kind == "pass")
        t = choose_discard(counts, [a.tile for a in discards], self.rng)
        return next(a for a in discards if a.tile == t)


register_bot("mahjong-gb", "fast", FastBot)
register_bot("mahjong-gb", "greedy", FastBot)


# ----- search (levels 3-5) -------------------------------------------------------------------
class MahjongSearcher(TileSearcher):
    """Guobiao mahjong for information-set MCTS (:class:`~qipai.bots.tilesearch.TileSearcher`),
    the ``fast`` bot playing out and answering discards."""

    game_id = "mahjong-gb"
    rule_bot = FastBot

    def tiles(self, game):
        return tile_set(game.options["use_flowers"])


register_searcher(MahjongSearcher(), FastBot)
