"""三打一 (sandayi, "three against one"): rules, notation, match scoring.

>>> import qipai
>>> state = qipai.load("sandayi").new_state(seed=7)
>>> [str(a) for a in state.legal_actions()][:3]
['pass', 'bid 60', 'bid 65']
"""

from .actions import PASS, Bury, NameTrump, Play, bid, parse, play, trump
from .cards import eff, points, pos
from .game import Sandayi, SandayiState, check_deal, draw_deal, trick_winner
from .scoring import Payout, settle

__all__ = ["PASS", "Bury", "NameTrump", "Payout", "Play", "Sandayi", "SandayiState", "bid",
           "check_deal", "draw_deal", "eff", "parse", "play", "points", "pos", "settle",
           "trick_winner", "trump"]
