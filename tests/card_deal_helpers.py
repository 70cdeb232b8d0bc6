"""Writing deals for card-game tests: each hand names some cards, the rest is filled in; and
random play from a seeded deal."""

from __future__ import annotations

import random


def fill_hands(specs: list[str], sizes: list[int], fill: list[str]) -> list[list[str]]:
    """Hands (lists of face codes) of the given ``sizes``: each spec names card codes exactly
    (``5H``, ``LJ``) or ranks (``KK``, ``L``) as the first free card of that rank in ``fill``
    order; every hand is then completed from the free cards, in ``fill`` order."""
    used = {t for spec in specs for t in spec.split() if t in fill}
    out: list[list[str]] = []
    for spec in specs:
        cards = []
        for tok in spec.split():
            if tok in fill:
                cards.append(tok)
                continue
            for r in tok.upper().replace("10", "T"):
                c = next(c for c in fill if c[0] == r and c not in used)
                used.add(c)
                cards.append(c)
        out.append(cards)
    free = [c for c in fill if c not in used]
    for hand, size in zip(out, sizes):
        while len(hand) < size:
            hand.append(free.pop(0))
        assert len(hand) == size, f"a hand holds {len(hand)} cards, not {size}"
    return out


def advance(game, seed, depth, **start):
    """A state of ``game`` dealt from ``seed`` (``start``: more arguments of ``new_state``, e.g.
    a ``deal``) after up to ``depth`` random legal actions, and the generator that chose them
    (seeded with ``seed``)."""
    state = game.new_state(seed=seed, **start)
    rng = random.Random(seed)
    for _ in range(depth):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state, rng
