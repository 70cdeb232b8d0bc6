"""4A4 / 四幺四 (fouafour): rules with 叉/勾, notation, match scoring and terminal play.

>>> import qipai
>>> game = qipai.load("fouafour")
>>> state = game.new_state(seed=7)
>>> state.current_player == state.first_leader
True
"""

from .combos import ALL_PLAYS, FOUAFOUR, JOKER_BOMB, TYPES, Claim, Play, answers, claim, leads, play_of
from .game import PASS, Fouafour, FouafourState, check_deal, draw_deal, partner, team_of

__all__ = ["ALL_PLAYS", "FOUAFOUR", "JOKER_BOMB", "PASS", "TYPES", "Claim", "Fouafour", "FouafourState",
           "Play", "answers", "check_deal", "claim", "draw_deal", "leads", "partner", "play_of", "team_of"]
