"""保皇 (baohuang, "protect the emperor"): five players, four packs, an emperor with a hidden
guard against three revolutionaries (``rules/baohuang.md`` Part A).

>>> import qipai
>>> state = qipai.load("baohuang").new_state(seed=7)
>>> state.phase
'select'
"""

from .actions import ACCEPT, JIEFENG, PASS, Accept, CardPlay, Declare, Decline, Pass
from .game import PLACE_POINTS, Baohuang, BaohuangState
from .selection import check_deal, draw_deal
from .sets import ORDER, Play, answers, from_counts, leads, play

__all__ = ["ACCEPT", "JIEFENG", "ORDER", "PASS", "PLACE_POINTS", "Accept", "Baohuang", "BaohuangState",
           "CardPlay", "Declare", "Decline", "Pass", "Play", "answers", "check_deal", "draw_deal",
           "from_counts", "leads", "play"]
