"""斗地主 (doudizhu, Fight the Landlord): rules, notation, record formats and terminal play.

>>> import qipai
>>> game = qipai.load("doudizhu")                # preset "classic"; qipai.load("doudizhu", preset="seed002")
>>> state = game.new_state(seed=7)
>>> state.legal_actions()[:2]
[PASS, Bid(1)]
"""

from . import formats as _formats  # noqa: F401,E402  (registers the record readers)
from .bidding import BIDS, CALL, Bid, Call, draw_deal
from .combos import PASS, KickerRules, Play, PlayTable, table
from .game import PRESETS, Doudizhu, DoudizhuState

__all__ = ["BIDS", "CALL", "PASS", "PRESETS", "Bid", "Call", "Doudizhu", "DoudizhuState", "KickerRules",
           "Play", "PlayTable", "draw_deal", "table"]
