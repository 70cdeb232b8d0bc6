"""Building 三打一 hands for tests: explicit deals with chosen cards and filler from chosen suits,
and states driven to the play phase with seat0 as dealer."""

from __future__ import annotations

import qipai
from qipai.games.sandayi.cards import DECK

SIDE_RANKS = "3456789TJQKA"


def make_deal(spec: dict[int, tuple[str, str | None]], kitty: str = "", first_bidder: int | None = 0) -> dict:
    """An explicit deal. ``spec[seat] = (required face codes, filler suits)``: the seat holds the
    required cards and is filled up to 12 with non-2 cards of the filler suits (lowest first).
    The kitty gets ``kitty`` plus filler; seats with filler ``None`` or not in ``spec`` take
    their required cards and then what is left."""
    spec = {s: spec.get(s, ("", None)) for s in range(4)}
    used: set[str] = set(kitty.split())
    for req, _ in spec.values():
        used.update(req.split())
    pool = [c.face for c in DECK if c.face not in used]

    def take(n: int, suits: str) -> list[str]:
        out = [f for f in pool if f[1] in suits and f[0] in SIDE_RANKS][:n]
        if len(out) < n:
            raise ValueError(f"not enough filler cards in suits {suits}")
        for f in out:
            pool.remove(f)
        return out

    hands: list[list[str]] = [[] for _ in range(4)]
    fixed = [s for s in range(4) if spec[s][1] is not None]
    for seat in sorted(fixed, key=lambda s: len(spec[s][1])):
        req, suits = spec[seat]
        hands[seat] = req.split() + take(12 - len(req.split()), suits)
    k = kitty.split()
    k += take(6 - len(k), "SHDC")
    for seat in range(4):
        if seat not in fixed:
            req = spec[seat][0].split()
            n = 12 - len(req)
            hands[seat] = req + pool[:n]
            del pool[:n]
    assert not pool and all(len(h) == 12 for h in hands), (pool, hands)
    deal = {"hands": hands, "kitty": k}
    if first_bidder is not None:
        deal["first_bidder"] = first_bidder
    return deal


def to_play(deal: dict, trump: str = "H", contract: int = 80, game=None, bury: str | None = None):
    """Start ``deal``; seat0 (the first bidder) bids ``contract``, the others pass; seat0 buries
    ``bury`` (default: the kitty back) and names ``trump``. Returns the state at the first lead."""
    game = game or qipai.load("sandayi")
    state = game.new_state(deal=deal)
    assert state.first_bidder == 0
    state.apply(f"bid {contract}", 0)
    for s in (1, 2, 3):
        state.apply("pass", s)
    state.apply(bury or state.default_action(0), 0)
    state.apply(f"trump {trump}", 0)
    return state


def faces(actions) -> set[str]:
    return {str(a) for a in actions}
