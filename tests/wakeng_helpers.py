"""Building 挖坑 deals for tests: hands written as card codes and rank strings."""

from __future__ import annotations

import qipai
from qipai.cards import make_deck
from tests.card_deal_helpers import fill_hands

DECK = [c.id[:2] for c in make_deck(1, jokers=False)]
# free cards are handed out hearts last, 4H-9H at the very end, so that a hand only holds the
# cards that set the first bidder or the first leader when a test names them
_FILL = sorted(DECK, key=lambda c: (c[1] == "H" and c[0] in "456789", c[1] == "H", c))


def make_deal(*hands: str, pit: str = "") -> dict:
    """A deal where each hand (and the pit) holds the cards named: card codes (``5H``) exactly,
    rank characters (``KK``) as any free card of that rank; hands are then filled to 16 and
    the pit to 4 from the free cards."""
    out = fill_hands([*hands, *[""] * (3 - len(hands)), pit], [16, 16, 16, 4], _FILL)
    return {"hands": [[c + "0" for c in h] for h in out[:3]], "pit": [c + "0" for c in out[3]]}


def new(*hands: str, pit: str = "", **options):
    """A fresh state of ``make_deal(*hands, pit=pit)`` under ``options``."""
    return qipai.load("wakeng", **options).new_state(deal=make_deal(*hands, pit=pit))


def run(state, *actions: str):
    """Apply each action text in turn (to the seat to act)."""
    for a in actions:
        state.apply(a)
    return state
