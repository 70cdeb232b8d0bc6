"""挖坑 (wakeng, "dig the pit"): rules, notation, session scoring and terminal play.

>>> import qipai
>>> game = qipai.load("wakeng")
>>> state = game.new_state(seed=7)
>>> [str(a) for a in state.legal_actions()]
['pass', 'bid 1', 'bid 2', 'bid 3']
"""

from .combos import ALL_PLAYS, TYPES, Play, answers, leads, play_of
from .game import BIDS, FOUL, PASS, Wakeng, WakengState, check_deal, draw_deal

__all__ = ["ALL_PLAYS", "BIDS", "FOUL", "PASS", "TYPES", "Play", "Wakeng", "WakengState",
           "answers", "check_deal", "draw_deal", "leads", "play_of"]
