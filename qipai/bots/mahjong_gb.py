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
from qipai.bots.ismcts import HalvingSearcher
from qipai.bots.search import register_searcher
from qipai.bots.tilerules import after_discard, discard_claim, hand_counts, legal_and_win, tile_value
from qipai.bots.tilesearch import TileSearcher
from qipai.tiles.shapes import shanten, waits
from qipai.tiles.tile import format_tiles
from qipai.tiles.wall import tile_set


def choose_discard(counts: list[int], options: list[int], rng: random.Random) -> int:
    """The discard (a kind in ``options``) that leaves the best hand of ``counts``. A hand
    of shanten 1 or more (14 − 3k tiles beside k sets) leaves no discard ready: its waits are
    not looked for (the same choice, a fraction of the cost)."""
    best = None
    best_key = None
    far = shanten(counts, (14 - sum(counts)) // 3) >= 1
    for t in options:
        counts[t] -= 1
        w = () if far else waits(counts)
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
        if any(a.kind == "kong" and a.tile is not None for a in actions) or len(actions) == 1:
            return self.decide(actions, [], 0, None)
        view = state.view(seat)
        mine = view["seats"][seat]
        return self.decide(actions, hand_counts(mine["hand"]), len(mine["melds"]), view.get("claim"))

    def decide(self, actions: list, counts: list[int], melds: int, claim: dict | None):
        """The choice among ``actions`` (no win among them) of a seat with the concealed
        ``counts`` and ``melds`` declared sets, ``claim`` its view's claim window (or None)."""
        if len(actions) == 1:
            return actions[0]
        kongs = [a for a in actions if a.kind == "kong" and a.tile is not None]
        if kongs:
            return kongs[0]
        discards = [a for a in actions if a.kind == "discard"]
        if not discards:
            made = choose_claim(list(counts), melds, {"claim": claim}, actions)
            return made or next(a for a in actions if a.kind == "pass")
        t = choose_discard(list(counts), [a.tile for a in discards], self.rng)
        return next(a for a in discards if a.tile == t)


register_bot("mahjong-gb", "fast", FastBot)
register_bot("mahjong-gb", "greedy", FastBot)


# ----- search (levels 3-5) -------------------------------------------------------------------
class MahjongSearcher(TileSearcher, HalvingSearcher):
    """Guobiao mahjong's search: the seat's candidates (the ``fast`` bot's choice first, then
    every other legal action) raced by sequential halving on common determinizations
    (:class:`~qipai.bots.tilesearch.TileSearcher`'s samples, :class:`~qipai.bots.ismcts.
    HalvingSearcher`'s race), the ``fast`` bot playing every seat to the end of the hand, which
    is valued by its points. The rule bot's choice is kept unless the race's winner is shown
    better in a duel on fresh samples (:func:`~qipai.bots.ismcts.halving_search`'s ``duel``);
    a win it takes is taken without a search."""

    game_id = "mahjong-gb"
    rule_bot = FastBot
    max_plies = 400             # to the end of the hand
    margin = None
    #: the race takes 60% of the budget; its winner, when not the rule bot's choice, is played
    #: against it on fresh samples and chosen when 1.5 standard errors better (the race's best
    #: of a dozen discards is lucky on the race's samples)
    duel = (0.4, 1.5)

    def rule_play(self, state, seat: int, actions: list):
        """The ``fast`` bot's choice read from the state (its hand, sets and claim window)."""
        win = next((a for a in actions if a.kind == "win"), None)
        if win is not None:
            return win
        if len(actions) == 1:       # most seats in a claim window: the pass alone
            return actions[0]
        p = state.pending
        claim = None
        if p is not None:
            hidden = p["kind"] == "rob_concealed" and seat != p["from"]
            claim = {"kind": p["kind"], "tile": None if hidden else format_tiles([p["tile"]])}
        return self.playout_bot().decide(actions, state.hands[seat], len(state.melds[seat]), claim)

    def candidates(self, state, seat: int) -> list:
        """The rule bot's play first, then every other legal action; a win alone."""
        cands = super().candidates(state, seat)
        return cands[:1] if cands[0].kind == "win" else cands

    def tiles(self, game):
        return tile_set(game.options["use_flowers"])


register_searcher(MahjongSearcher(), FastBot)
