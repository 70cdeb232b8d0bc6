"""The ``mahjong-gb`` game: its options (rule file 4.6) and action parsing."""

from __future__ import annotations

from qipai.core.errors import IllegalAction
from qipai.core.game import Game
from qipai.core.options import Option
from qipai.core.registry import register

from .actions import Action, parse_action
from .state import MahjongState


@register
class MahjongGB(Game):
    id = "mahjong-gb"
    seats = (4,)
    hidden_information = True
    option_spec = (
        Option("use_flowers", True, kind=bool, doc="144 tiles with 8 flowers (false: 136 tiles)"),
        Option("min_fan", 8, kind=int, minimum=0, doc="fans needed to win, flowers not counted"),
        Option("base_points", 8, kind=int, minimum=0, doc="base payment of every loser"),
        Option("flowers_count_toward_min", False, kind=bool, doc="flowers help reach min_fan"),
        Option("multiple_winners", False, kind=bool,
               doc="false: head bump (first claimant after the discarder wins); true: every claimant wins"),
        Option("duplicate_scoring", False, kind=bool,
               doc="duplicate MCR settlement of a discard: each winner gets 3×base+fans, the discarder pays "
                   "the base once plus every winner's fans, the others the base once"),
        Option("mixed_kongs", "combined", choices=("combined", "separate"),
               doc="one exposed + one concealed kong: 明暗杠 5 (combined) or 暗杠 2 + 明杠 1"),
        Option("exclusions", "pymahjonggb", choices=("pymahjonggb", "strict1998"),
               doc="exclusion table of the reference calculator, or the strict 1998 reading"),
        Option("wall_layout", "single", choices=("single", "botzone4"),
               doc="one wall (head/tail), or four per-seat segments as on Botzone"),
        Option("hands_per_match", 16, choices=(16, 4, 1),
               doc="16-hand match (4 rounds), one round of 4 hands, or one hand (Botzone)"),
        Option("seat_rotation", "mcr", choices=("mcr", "fixed"), doc="MCR seat changes between rounds"),
        Option("rob_concealed_kong_for_13_orphans", False, kind=bool,
               doc="a concealed kong may be robbed, only by a thirteen-orphans win"),
        Option("illegal_action_policy", "refuse", choices=("refuse", "botzone"),
               doc="refuse: a refused action costs nothing but time; botzone: the offender pays "
                   "10 to each other seat and the hand ends (applied by the match layer)"),
    )

    def new_state(self, *, seed=None, deal=None, position=None, num_seats=None) -> MahjongState:
        """A match at its first hand. ``deal`` replays given walls (see :class:`.state.MahjongState`)."""
        return MahjongState(self, seed=seed, deal=deal, position=position, num_seats=num_seats)

    def parse_action(self, text: str, state=None) -> Action:
        """``discard 5p``, ``win``, ``kong 5p``, ``add 5p``, ``pass``, ``pung``, ``kong``, ``chow 345p``
        (and ``penalty``, the record of a sanction, see :meth:`MahjongState.penalize_illegal`)."""
        if not isinstance(text, str):
            raise IllegalAction("an action is text", text, code="mahjong-gb.action_text")
        return parse_action(text)
