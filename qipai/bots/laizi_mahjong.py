"""Laizi mahjong bot ``rule``: wins when it can, makes every kong that costs nothing, keeps its
wildcards, and discards toward the cheapest pattern of the point table.

Reads only ``state.view(seat)`` and ``state.legal_actions(seat)``. A plain hand does not win
here (no 屁胡 by default), so the bot aims at a pattern: one suit with honours (奏一色 or
清一色), all pungs (碰碰糊) or seven pairs (七对). *Need* is how many tiles the concealed hand
still lacks for the nearest of these, its wildcards filling holes
(:mod:`qipai.tiles.jokers`); a discard is chosen by the need it leaves, then by how isolated the
tile is (the Guobiao bot's measure). Peel tiles are played out at once (a ×2 kong that costs
nothing); a laizi is played out only when nothing else can go. A discard is claimed for a pung,
chow or kong when that lowers the need. Deterministic except for seeded tie-breaks.
"""

from __future__ import annotations

import random

from qipai.bots import register_bot
from qipai.bots.search import register_searcher
from qipai.bots.tilerules import claim_or_pass, hand_counts, legal_and_win, tile_value
from qipai.bots.tilesearch import TileSearcher
from qipai.tiles.jokers import pairs_cost, standard_cost
from qipai.tiles.tile import parse_tile, parse_tiles
from qipai.tiles.wall import tile_set

_NO_CHOWS = (False,) * 4


def need(counts: list[int], jokers: int, melds: int, chow_melds: bool) -> int:
    """Tiles the hand ``counts`` (wildcards apart, ``melds`` declared sets) lacks for its
    nearest pattern: one suit with honours, all pungs, or seven pairs."""
    best = 99
    for suit in range(3):
        allowed = [g == suit or g == 3 for g in range(4)]
        off = sum(n for t, n in enumerate(counts) if not allowed[t // 9 if t < 27 else 3])
        kept = [n if allowed[t // 9 if t < 27 else 3] else 0 for t, n in enumerate(counts)]
        best = min(best, off + standard_cost(kept, allowed=allowed))
    if not chow_melds:
        best = min(best, standard_cost(counts, chows=_NO_CHOWS))
    if not melds:
        best = min(best, pairs_cost(counts))
    return best - jokers


class RuleBot:
    name = "rule"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state, seat: int):
        actions, win = legal_and_win(state, seat)
        if win is not None:
            return win
        for kind in ("peel", "add"):
            for a in actions:
                if a.kind == kind:
                    return a
        kongs = [a for a in actions if a.kind == "kong" and a.tile is not None]
        if kongs:
            return kongs[0]
        if all(a.kind == "pass" for a in actions if a.kind not in ("peel", "laizi")) and len(actions) == 1:
            return actions[0]                # a window with nothing to claim
        view = state.view(seat)
        me = view["seats"][seat]
        laizi = parse_tiles(view["laizi"])[0]
        counts = hand_counts(me["hand"])
        jokers = counts[laizi]
        counts[laizi] = 0
        melds = len(me["melds"])
        chow_melds = any(m.get("kind") == "chow" for m in me["melds"])
        discards = [a for a in actions if a.kind == "discard"]
        if view["phase"] != "turn":
            return self._claim(view, counts, jokers, melds, chow_melds, actions)
        if not discards:
            return next(a for a in actions if a.kind in ("peel", "laizi"))
        return self._discard(counts, jokers, melds, chow_melds, discards, laizi)

    def _discard(self, counts, jokers, melds, chow_melds, discards, laizi):
        best, best_key = None, None
        for a in discards:
            if a.tile == laizi:          # the wall is empty: a wildcard goes last
                key = (99, 0, 0)
            else:
                counts[a.tile] -= 1
                key = (need(counts, jokers, melds, chow_melds), tile_value(counts, a.tile), self.rng.random())
                counts[a.tile] += 1
            if best_key is None or key < best_key:
                best, best_key = a, key
        return best

    def _claim(self, view, counts, jokers, melds, chow_melds, actions):
        now = need(counts, jokers, melds, chow_melds)

        def value(a, c: list[int]) -> int | None:
            v = need(c, jokers, melds + 1, chow_melds or a.kind == "chow")
            return v if v < now else None

        return claim_or_pass(view, counts, actions, value)


register_bot("laizi-mahjong", "rule", RuleBot)


# ----- search (levels 3-5) -------------------------------------------------------------------
class LaiziSearcher(TileSearcher):
    """Laizi mahjong for information-set MCTS (:class:`~qipai.bots.tilesearch.TileSearcher`),
    the rule bot playing out. The indicator, and the tiles of every peel
    kong (the indicator's kind) and laizi kong (the laizi) are out of play and seen by all."""

    game_id = "laizi-mahjong"
    rule_bot = RuleBot

    def tiles(self, game):
        return tile_set(flowers=False)

    def shown(self, view):
        seats = view["seats"]
        indicator, laizi = parse_tile(view["indicator"]), parse_tile(view["laizi"])
        return ([indicator] * (1 + sum(s["peel_kongs"] for s in seats))
                + [laizi] * sum(s["laizi_kongs"] for s in seats))

    def finish(self, state, view):
        state.indicator, state.laizi = parse_tile(view["indicator"]), parse_tile(view["laizi"])
        state.peels = [s["peel_kongs"] for s in view["seats"]]
        state.lzks = [s["laizi_kongs"] for s in view["seats"]]
        state.dealer = view["dealer"]


register_searcher(LaiziSearcher(), RuleBot)
