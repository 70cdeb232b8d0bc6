"""Building 挖坑 deals for tests: hands written as card codes and rank strings."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

import qipai
from qipai.bots import make_bot
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


def five_h_in_pit(seed: int) -> bool:
    """Whether deal ``seed``'s pit holds the 5H (which decides the first bidder)."""
    return any(c.id == "5H0" for c in qipai.load("wakeng").new_state(seed=seed).pit)


def sampler_sample(deals: int, first: int) -> list[int]:
    """Every deal of seeds ``0..deals-1`` whose pit holds the 5H, and the first ``first`` deals."""
    return sorted({*range(first), *(s for s in range(deals) if five_h_in_pit(s))})


def sampler_sweep(reveal_pit: bool, seeds: Iterable[int]) -> Counter:
    """Deals of the rule bots with a move in five at random: at every turn of the play each
    seat's view gives a state at the first draw of ``qipai.bots.wakeng.determinize``, and that
    state shows the seat the same view (asserted). Counts: ``deals``, ``views``, ``in_pit``
    (deals whose pit holds the 5H) and ``unseen_5h`` (views of such a deal by a seat that did
    not see the pit)."""
    from qipai.bots.wakeng import determinize

    game = qipai.load("wakeng", reveal_pit=reveal_pit)
    counts: Counter = Counter()
    for seed in seeds:
        state = game.new_state(seed=seed)
        in_pit = any(c.id == "5H0" for c in state.pit)
        counts["deals"] += 1
        counts["in_pit"] += in_pit
        rule = [make_bot("wakeng", "rule", seed=s) for s in range(3)]
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.to_act[0]
            if state.phase == "play":
                for me in range(3):
                    view = state.view(me)
                    assert determinize(game, view, random.Random(me)).view(me) == view, (seed, me)
                    counts["views"] += 1
                    counts["unseen_5h"] += in_pit and view["pit"] is None
            action = rule[seat].choose(state, seat) if rng.random() < 0.8 else \
                rng.choice(state.legal_actions(seat))
            state.apply(action, seat)
    return counts
