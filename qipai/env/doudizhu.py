"""Doudizhu's fixed action space: every distinct play of the rule set, then pass, then the bids.

Order (rules/doudizhu.md §3.2, §3.8): plays sorted by their type in the order of the §3.2
table (``single, pair, trio, bomb, rocket, trio_single, trio_pair, straight, pair_chain,
plane, plane_solo, plane_pair, four_two_solo, four_two_pair``), then by chain length, then by
key rank, then by the rank counts from the lowest rank up (kickers included). Under the rule
file's kicker rules that is 27,471 plays, so slot 27,471 is ``pass`` (不出 in play, 不叫 in
bidding) and 27,472 actions hold every play and the pass. Bidding adds four slots after them:
``bid 1``, ``bid 2``, ``bid 3`` (``points_1_3`` and ``auction_1_3``) and ``call``
(``call_1_4``): ``Discrete(27,476)``. Other kicker options change the number of plays; the
numbering is built from the game's own play table, so it always covers every play.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from qipai.games.doudizhu.combos import TYPES

from .base import FixedActions
from .climbing import ClimbingEncoder


@lru_cache(maxsize=8)
def play_order(table: Any) -> tuple[list[Any], dict[tuple[str, int], int]]:
    """The plays of ``table`` (a :class:`~qipai.games.doudizhu.combos.PlayTable`, one per
    kicker-rule set) in slot order, and the slot of each ``(type, code)``."""
    rank = {t: i for i, t in enumerate(TYPES)}
    plays = sorted(table.plays, key=lambda p: (rank[p.type], p.length, p.key, p.counts))
    return plays, {(p.type, p.code): i for i, p in enumerate(plays)}


class PlayNumbering:
    """Doudizhu's slots of ``table``'s plays, the pass and the bids (``index``, ``label`` and
    ``batch`` of the :class:`FixedActions`). It never changes: a copy shares it, and a pickle
    holds the table alone and numbers it again."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self.plays, self.slot = play_order(table)
        npl = self.npl = len(self.plays)
        self.specials = {"pass": npl, "bid 1": npl + 1, "bid 2": npl + 2, "bid 3": npl + 3, "call": npl + 4}

    def __reduce__(self) -> tuple:
        return PlayNumbering, (self.table,)

    def __deepcopy__(self, memo: dict) -> PlayNumbering:
        return self

    def index(self, action: Any, position: int) -> int:
        code = getattr(action, "code", None)
        if code is not None:
            return self.slot[(action.type, code)]
        return self.specials[str(action)]

    def label(self, i: int) -> str:
        return self.plays[i].text if i < self.npl else next(k for k, v in self.specials.items() if v == i)

    def batch(self, actions: Any) -> list[int]:
        specials, slot = self.specials, self.slot
        return [specials[a.text] if a.type in ("pass", "bid", "call") else slot[(a.type, a.code)]
                for a in actions]


class DoudizhuEncoder(ClimbingEncoder):
    def make_actions(self) -> FixedActions:
        numbering = PlayNumbering(self.game.table)
        self.plays = numbering.plays
        npl = numbering.npl
        doc = (f"Discrete({npl + 5}): {npl} plays in rule-file order (type as in §3.2, length, key, "
               f"rank counts), {npl} pass, {npl + 1}..{npl + 3} bid 1..3, {npl + 4} call")
        return FixedActions(npl + 5, numbering.index, doc, numbering.label, numbering.batch)
