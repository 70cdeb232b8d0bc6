"""百变八雀 (a proposal) bot ``rule``: wins when it can, makes every bomb (each one is paid at once),
otherwise discards toward the fastest hand. Reads only ``state.view(seat)`` and
``state.legal_actions(seat)``.

A discard keeps the lowest standard-shape shanten; among equal ones it throws the tile of least
value (§4.3: a win is worth the tile values of the hand, so high tiles are kept). A discard is
claimed for a bomb always, for a pung or a chow only when that lowers the shanten (after the best
discard that follows).
"""

from __future__ import annotations

from qipai.bots import register_bot
from qipai.bots.search import register_searcher
from qipai.bots.tilerules import claim_or_pass, hand_counts
from qipai.bots.tilesearch import TileSearcher
from qipai.games.baibian_bajue.state import HONOURS, tile_value
from qipai.tiles.shapes import shanten
from qipai.tiles.tile import NUM_KINDS, parse_tile
from qipai.tiles.wall import tile_set


def _best_discard(c: list[int], melds: int, allowed: set[int] | None = None) -> tuple[int, int]:
    """``(shanten after it, tile)`` of the best discard from the counts ``c``."""
    best = None
    for t in range(NUM_KINDS):
        if not c[t] or (allowed is not None and t not in allowed):
            continue
        c[t] -= 1
        key = (shanten(c, melds), tile_value(t), t)
        c[t] += 1
        if best is None or key < best:
            best = key
    return best[0], best[2]


class BajueRuleBot:
    """See the module docstring."""

    name = "rule"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, state, seat: int):
        legal = state.legal_actions(seat)
        by_kind: dict[str, list] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        for kind in ("win", "bomb"):
            if kind in by_kind:
                return by_kind[kind][0]
        view = state.view(seat)
        me = view["seats"][seat]
        c = hand_counts(me["hand"])
        melds = len(me["melds"])
        if view["phase"] == "turn":
            allowed = {a.tile for a in by_kind.get("discard", [])}
            t = _best_discard(c, melds, allowed)[1]
            return next(a for a in by_kind["discard"] if a.tile == t)
        now = shanten(c, melds)

        def value(a, after: list[int]) -> int | None:
            v = _best_discard(after, melds + 1)[0]
            return v if v < now else None

        return claim_or_pass(view, c, by_kind.get("pung", []) + by_kind.get("chow", []) + by_kind["pass"],
                             value)


register_bot("baibian-bajue", "rule", BajueRuleBot)


# ----- search (levels 3-5) -------------------------------------------------------------------
class BajueSearcher(TileSearcher):
    """百变八雀 for information-set MCTS (:class:`~qipai.bots.tilesearch.TileSearcher`), the
    rule bot playing out; the hand's bombs and dealer come from the view
    (bomb bonuses already paid are not counted again: a playout values what is still to pay)."""

    game_id = "baibian-bajue"
    rule_bot = BajueRuleBot

    def tiles(self, game):
        return [t for t in tile_set(flowers=False) if game.options["tiles"] == 136 or t < HONOURS]

    def finish(self, state, view):
        state.bombs = [[s, parse_tile(t)] for s, t in view["bombs"]]
        state.bonus = [0] * 4
        state.dealer = view["dealer"]


register_searcher(BajueSearcher(), BajueRuleBot)
