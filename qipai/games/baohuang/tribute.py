"""Tribute 进贡 (``rules/baohuang.md`` §4.4), applied at the start of the next deal (§2.2, D2).

The previous completed deal is summarised by a *basis* (``Result.details["tribute_basis"]``)::

    {"emperor": 3, "guard": 0 or None, "mode": "normal" | "hidden_du" | "ming_du",
     "side_score": T, "order": [seats from first finisher to last]}

:func:`transfers` turns a basis and the freshly dealt hands into a list of
``(giver, receiver, card)``. The givers hand over their largest cards (rank order §3.1; among
cards of the top rank the lowest card id, D10); the receivers never give back (不还贡).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from qipai.cards import Card

from .sets import ORDER

MODES = ("normal", "hidden_du", "ming_du")


def largest(hand: Sequence[Card], k: int) -> list[Card]:
    """The ``k`` largest cards of ``hand``, largest first: highest rank, and among equal ranks
    the lowest card id first (D10)."""
    key = ORDER.card_key
    ranked = sorted(hand, key=lambda c: (-key(c)[0], key(c)[1], key(c)[2]))
    return ranked[:k]


def check_basis(basis: Any, place_points: Sequence[int] = (4, 2, 0, -2, -4)) -> dict[str, Any]:
    """Validate a tribute basis; returns it normalised. ``side_score`` must be the sum of the
    ``place_points`` (§4.1) of the emperor's side in ``order`` (§4.2). Raises ``ValueError``
    naming the problem."""
    if not isinstance(basis, dict):
        raise ValueError("the previous deal is an object with emperor, guard, mode, side_score, order")
    order = basis.get("order")
    if not isinstance(order, list) or sorted(order) != [0, 1, 2, 3, 4] or \
            not all(type(s) is int for s in order):
        raise ValueError("'order' lists the five seats from the first finisher to the last")
    emperor, guard, mode, t = basis.get("emperor"), basis.get("guard"), basis.get("mode"), \
        basis.get("side_score")
    if type(emperor) is not int or not 0 <= emperor < 5:
        raise ValueError("'emperor' is a seat 0..4")
    if mode not in MODES:
        raise ValueError(f"'mode' is one of {', '.join(MODES)}")
    if mode == "normal":
        if type(guard) is not int or not 0 <= guard < 5 or guard == emperor:
            raise ValueError("a normal deal has a guard seat other than the emperor")
    elif guard is not None:
        raise ValueError("in 独 there is no guard (guard must be null)")
    if type(t) is not int:
        raise ValueError("'side_score' is an integer")
    team = [emperor] + ([guard] if guard is not None else [])
    expected = sum(place_points[order.index(s)] for s in team)
    if t != expected:
        raise ValueError(f"'side_score' {t} contradicts 'order': the emperor's side scores {expected}")
    return {"emperor": emperor, "guard": guard, "mode": mode, "side_score": t, "order": list(order)}


def transfers(basis: dict[str, Any], hands: Sequence[Sequence[Card]]) -> list[tuple[int, int, Card]]:
    """The tribute ``(giver, receiver, card)`` owed after the deal summarised by ``basis``, taken
    from ``hands`` (seat -> cards). Empty after a draw (T = 0)."""
    t = basis["side_score"]
    if t == 0:
        return []
    emperor, guard, mode = basis["emperor"], basis["guard"], basis["mode"]
    place = {s: i for i, s in enumerate(basis["order"])}
    team = {emperor} | ({guard} if guard is not None else set())
    others = [s for s in basis["order"] if s not in team]          # in finishing order
    per = 2 if mode == "ming_du" else 1
    out: list[tuple[int, int, Card]] = []
    if mode == "normal":
        if t > 0:
            given = [(largest(hands[s], 1)[0], place[s], 0, s) for s in others]
            ranked = sorted(given, key=lambda x: (-ORDER.rank_of(x[0]), x[1]))
            big, mid, small = ranked
            out += [(big[3], emperor, big[0]), (mid[3], guard, mid[0]), (small[3], emperor, small[0])]
        else:
            pool = [(c, place[emperor], i, emperor) for i, c in enumerate(largest(hands[emperor], 2))]
            pool += [(largest(hands[guard], 1)[0], place[guard], 0, guard)]
            ranked = sorted(pool, key=lambda x: (-ORDER.rank_of(x[0]), x[1], x[2]))
            out += [(g, r, c) for (c, _, _, g), r in zip(ranked, others)]
        return out
    if t > 0:
        for s in others:
            out += [(s, emperor, c) for c in largest(hands[s], per)]
        return out
    cards = largest(hands[emperor], per * len(others))
    for i, s in enumerate(others):
        out += [(emperor, s, c) for c in cards[i * per:(i + 1) * per]]
    return out
