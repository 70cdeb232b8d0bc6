"""The ``baibian-bajue`` game (a proposal, rules/baibian-bajue.md §4): options and action text."""

from __future__ import annotations

from qipai.core.errors import IllegalAction
from qipai.core.game import Game
from qipai.core.options import Option
from qipai.core.registry import register
from qipai.tiles.action import Action
from qipai.tiles.action import parse_action as parse_tile_action

from .state import KINDS, BajueState

_WITH_TILE = frozenset({"discard", "chow"})
_NO_TILE = frozenset({"win", "pass", "pung"})


@register
class BaibianBajue(Game):
    """百变八雀 as rules/baibian-bajue.md §4 proposes it: marked ``proposal``."""

    id = "baibian-bajue"
    seats = (4,)
    hidden_information = True
    status = "proposal"
    option_spec = (
        Option("tiles", 136, choices=(136, 108), kind=int,
               doc="§4.1: 136 tiles (suits and honours), or 108 (the seed's number: no honours)"),
        Option("bomb_bonus", 10, kind=int, minimum=0,
               doc="§4.3: what each other player pays the maker of a bomb at once"),
        Option("hands_per_match", 16, choices=(16, 8, 4, 1), kind=int,
               doc="§4.3: hands of a match; the deal passes every hand; highest total wins"),
        Option("first_place_tiebreak", False, kind=bool,
               doc="§4.3: 'extra hand if a single winner is needed': a tie for first after the last "
                   "hand plays one more hand at a time (16 at most)"),
    )

    def new_state(self, *, seed=None, deal=None, position=None, num_seats=None) -> BajueState:
        """A match at its first hand, from ``seed`` or an explicit ``deal`` (see
        :class:`.state.BajueState`). Raises NotationError for a bad deal or a position."""
        return BajueState(self, seed=seed, deal=deal, position=position, num_seats=num_seats)

    def parse_action(self, text: str, state=None) -> Action:
        """``discard 5p``, ``win``, ``bomb 5p`` (four in hand), ``pass``, ``pung``, ``bomb``
        (claiming a discard), ``chow 345p``. Raises IllegalAction naming what is wrong."""
        if not isinstance(text, str):
            raise IllegalAction("an action is text", text, code="baibian-bajue.action_text")
        return parse_tile_action(text, KINDS, with_tile=_WITH_TILE, without_tile=_NO_TILE)
