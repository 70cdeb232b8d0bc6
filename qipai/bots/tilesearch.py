"""Information-set MCTS for the mahjong games built on :class:`~qipai.tiles.match.TileMatch`
(Guobiao, laizi mahjong, 百变八雀): the shared :class:`TileSearcher`.

A seat's own turn is searched (win, kong or bomb, discard), and so is its answer in a claim
window (a discard, a robbed kong, laizi mahjong's laizi kong) when it has more than the pass:
claiming a set or winning is weighed against passing by the same playouts. Each iteration plays
on a fresh determinization of the seat's view in a one-hand match of the same options
(:mod:`qipai.tiles.sample`: the other hands, hidden kongs and the wall order sampled from the
unseen tiles; in a window the other seats answer afresh, since their answers are not seen). A
playout lets the rule bot play every seat for ``max_plies`` actions; a finished hand is valued
by what it paid each seat (a logistic curve, 16 points about 0.73), an unfinished one by the
seats' shanten against each other's.
"""

from __future__ import annotations

import math
import random
from functools import cache
from typing import Any

from qipai.bots.ismcts import DeterminizedSearcher
from qipai.tiles.sample import set_table, table_sample
from qipai.tiles.shapes import shanten


class TileSearcher(DeterminizedSearcher):
    """See the module docstring. A game gives ``game_id``, ``rule_bot``, :meth:`tiles` and,
    for state beyond the shared table, :meth:`shown` and :meth:`finish`."""

    phases = None
    epsilon = 0.0
    max_plies = 24

    def tiles(self, game: Any) -> list[int]:
        """Every physical tile of ``game`` (see :func:`qipai.tiles.wall.tile_set`)."""
        raise NotImplementedError

    def shown(self, view: dict[str, Any]) -> list[int]:
        """Tiles out of play shown besides discards, sets and flowers (default: none)."""
        return []

    def finish(self, state: Any, view: dict[str, Any]) -> None:
        """Write the game's own public state of ``view`` into a determinization (default: none)."""

    def searched(self, state: Any, seat: int) -> bool:
        if state.phase == "turn":
            return state.current == seat
        # a window: searched when the seat has more than the pass and sees the tile claimed
        # (a robbed concealed kong hides it)
        if seat not in state.to_act or len(state.legal_actions(seat)) < 2:
            return False
        return bool((state.view(seat).get("claim") or {}).get("tile"))

    def write(self, state: Any, view: dict[str, Any], rng: random.Random) -> Any:
        """A sample of ``view`` (:func:`~qipai.tiles.sample.table_sample`) written into
        ``state``, a fresh state of the game (:func:`~qipai.tiles.sample.set_table`)."""
        set_table(state, view, table_sample(view, self.tiles(state.game), rng, self.shown(view)))
        self.finish(state, view)
        return state

    def determinize(self, game: Any, view: dict[str, Any], rng: random.Random) -> Any:
        return self.write(one_hand(game).new_state(seed=0), view, rng)

    def terminal_values(self, state: Any) -> list[float]:
        return [1 / (1 + math.exp(-s / 16)) for s in state.scores]

    def evaluate(self, state: Any) -> list[float]:
        n = state.num_seats
        sh = [shanten(state.hands[s], len(state.melds[s])) for s in range(n)]
        return [min(1.0, max(0.0, 0.5 - 0.12 * (sh[s] - (sum(sh) - sh[s]) / (n - 1)))) for s in range(n)]


@cache
def one_hand(game: Any) -> Any:
    """``game`` with the same options, one hand long and without tie-break hands (a
    determinization plays the current hand only)."""
    import qipai

    opts = {**dict(game.options), "hands_per_match": 1}
    if "first_place_tiebreak" in opts:
        opts["first_place_tiebreak"] = False
    return qipai.load(game.id, **opts)
