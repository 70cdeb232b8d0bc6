"""Building 4A4 deals for tests: hands written as card codes and rank strings."""

from __future__ import annotations

import qipai
from qipai.cards import make_deck
from qipai.games.fouafour.game import hand_sizes
from tests.card_deal_helpers import fill_hands

DECK = [c.face for c in make_deck(1, jokers=True)]
# free cards are handed out with 3H last, so only a hand that names it leads
_FILL = sorted(DECK, key=lambda c: (c == "3H", c))


def make_deal(*hands: str, dealer: int = 3) -> dict:
    """A deal by ``dealer`` where each hand holds the cards named: card codes (``3H``, ``LJ``)
    exactly, rank characters (``77``, ``L``) as any free card of that rank; hands are then
    filled to their sizes (dealer 3: seats 0 and 1 hold 14, seats 2 and 3 hold 13)."""
    out = fill_hands([*hands, *[""] * (4 - len(hands))], hand_sizes(dealer), _FILL)
    return {"dealer": dealer, "hands": [[c + "0" for c in h] for h in out]}


def new(*hands: str, dealer: int = 3, **options):
    return qipai.load("fouafour", **options).new_state(deal=make_deal(*hands, dealer=dealer))


def run(state, *actions: str):
    """Apply each action: ``"text"`` for the seat to act, ``"s:text"`` for seat ``s``."""
    for a in actions:
        if len(a) > 2 and a[1] == ":" and a[0].isdigit():
            state.apply(a[2:], seat=int(a[0]))
        else:
            state.apply(a)
    return state


def decline_window(state):
    """Every seat still asked in the open 叉/勾 window passes."""
    for s in list(state.to_act):
        state.apply("pass", seat=s)
    return state
