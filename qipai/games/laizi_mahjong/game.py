"""The ``laizi-mahjong`` game: its options (rule file 4.4 and 5) and action parsing."""

from __future__ import annotations

from qipai.core.errors import IllegalAction, OptionError
from qipai.core.game import Game
from qipai.core.options import Option
from qipai.core.registry import register

from .actions import Action, parse_action
from .state import LaiziState


@register
class LaiziMahjong(Game):
    id = "laizi-mahjong"
    seats = (4,)
    hidden_information = True
    option_spec = (
        Option("allow_pihu", False, kind=bool,
               doc="a plain hand (no pattern of the point table) wins with base 1"),
        Option("concealed_bonus", True, kind=bool, doc="门前清 ×2: no exposed set (the seed's worked lines)"),
        Option("laizi_kong_factor", 2, choices=(2, 4),
               doc="multiplier of each laizi kong (Wuhan tables use 4)"),
        Option("discard_payers", "all", choices=("all", "discarder"),
               doc="on a discard: the discarder pays money(2P) and the two others money(P), or the "
                   "discarder alone"),
        Option("money_floor", 5, kind=int, minimum=0, doc="least money a payer pays for a win"),
        Option("money_cap", 35, kind=int, minimum=0, doc="most money a payer pays for a win"),
        Option("extrapolated_pairs_combos", True, kind=bool,
               doc="清七对, 将七对, 风七对 = 8 (c × s × 2); false: the larger single value, 2"),
        Option("hands_per_match", 16, choices=(16, 8, 4, 1),
               doc="hands of a match; the deal moves on every hand"),
        Option("first_place_tiebreak", False, kind=bool,
               doc="a tie for first place after the last hand plays one more hand at a time (at most 16)"),
    )

    def __init__(self, **options) -> None:
        super().__init__(**options)
        if self.options["money_cap"] < self.options["money_floor"]:
            raise OptionError(f"option 'money_cap': must be >= money_floor ({self.options['money_floor']}), "
                              f"got {self.options['money_cap']}",
                              code="option.conflict",
                              params={"label": "laizi-mahjong.money_cap",
                                      "other": "laizi-mahjong.money_floor"})

    def new_state(self, *, seed=None, deal=None, position=None, num_seats=None) -> LaiziState:
        """A match at its first hand. ``deal`` replays given walls (see :class:`.state.LaiziState`)."""
        return LaiziState(self, seed=seed, deal=deal, position=position, num_seats=num_seats)

    def parse_action(self, text: str, state=None) -> Action:
        """``discard 5p``, ``win``, ``kong 5p``, ``add 5p``, ``peel 4p``, ``laizi 5p``, ``pass``,
        ``pung``, ``kong``, ``chow 345p``."""
        if not isinstance(text, str):
            raise IllegalAction("an action is text", text, code="laizi-mahjong.action_text")
        return parse_action(text)
