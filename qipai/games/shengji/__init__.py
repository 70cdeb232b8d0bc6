"""升级 / 拖拉机 (shengji, tractor): rules engine for one hand, profiles of the seed sheets, a match
helper chaining hands, and terminal play.

>>> import qipai
>>> state = qipai.load("shengji").new_state(seed=7)
>>> state.phase in ("deal", "window", "bury")
True
"""

from .actions import PASS, Action, parse_action
from .game import PROFILES, Shengji
from .state import ShengjiState
from .trump import TRUMP, Trump

__all__ = ["PASS", "PROFILES", "TRUMP", "Action", "Shengji", "ShengjiState", "Trump", "parse_action"]
