"""What the other seats' passes on discards tell a seat, for sampling their hidden tiles.

Every other seat answers every discard (rule files: asking only the seats that could claim would
tell who holds what), and a pung needs two tiles like the discard in the hand. A discard that
nobody took, or that a seat took for a chow (a pung ranks above a chow), was passed by each other
seat for a pung: when the rule bots and most players pass with a pair they seldom would, so a seat
is taken to have held *at most one* tile of that kind then. It may have drawn one since, so the
limit on the tiles of that kind it holds now is one plus the tiles it may have drawn after the
pass (counted generously: one for each discard it made since, one for each of its sets and kongs,
one when it is on its own turn now). A sample that keeps these limits never contradicts a pass;
one that gives a seat a pair of a tile it just let go by does.

The view has no history, only each seat's pond in order (claimed discards marked) and each set's
source: :func:`discard_order` puts the discards back in the order they were made by following the
turn order from the dealer and each claim to its claimer (the claimer's next claimed set whose
source and tile match). When the ponds cannot be replayed so (a view this module does not know),
no limit is drawn from them.
"""

from __future__ import annotations

import random
from typing import Any

from .tile import NUM_KINDS, WIND_LETTERS, parse_tile

#: a limit this high never binds: four tiles of a kind
FREE = 4


def _turn_order(view: dict[str, Any]) -> list[int]:
    seats = view["seats"]
    if "wind" in seats[0]:
        return sorted(range(len(seats)), key=lambda s: WIND_LETTERS.index(seats[s]["wind"]))
    return list(range(len(seats)))


def discard_order(view: dict[str, Any]) -> list[tuple[int, int, int | None]] | None:
    """The discards of ``view`` in the order they were made: ``(seat, tile kind, claimer)``
    (``claimer`` ``None`` when nobody took it), or ``None`` when the ponds and sets cannot be
    replayed from the dealer by the turn order and the claims."""
    seats = view["seats"]
    n = len(seats)
    order = _turn_order(view)
    ponds = [[(parse_tile(d["tile"]), d["claimed"]) for d in info["discards"]] for info in seats]
    claims = [[(m["source"], parse_tile(m["claimed"])) for m in info["melds"]
               if m.get("source") is not None and m.get("claimed")] for info in seats]
    used = [0] * n
    done = [0] * n
    cur = view.get("dealer", order[0])
    out: list[tuple[int, int, int | None]] = []
    while done[cur] < len(ponds[cur]):
        t, claimed = ponds[cur][done[cur]]
        done[cur] += 1
        if not claimed:
            out.append((cur, t, None))
            cur = order[(order.index(cur) + 1) % n]
            continue
        takers = [s for s in range(n)
                  if s != cur and used[s] < len(claims[s]) and claims[s][used[s]] == (cur, t)]
        if not takers:
            return None
        used[takers[0]] += 1
        out.append((cur, t, takers[0]))
        cur = takers[0]
    if done != [len(p) for p in ponds] or used != [len(c) for c in claims]:
        return None
    return out


def pass_limits(view: dict[str, Any]) -> dict[int, dict[int, int]]:
    """For each seat other than ``view["you"]``, the most tiles of a kind it can hold now by its
    passes (module docstring): ``{seat: {kind: limit}}``, only limits under four. Empty when the
    order of the discards cannot be read (:func:`discard_order`) or the wall is empty (the last
    discard may be claimed only for a win). The discard of an open claim window is left out:
    nobody has passed on it yet."""
    events = discard_order(view)
    if not events or view.get("wall", 0) <= 0:
        return {}
    claim = view.get("claim") or {}
    if claim.get("kind") == "discard" and view.get("phase") != "turn":
        events = events[:-1]
    seats = view["seats"]
    me = view["you"]
    extra = {}
    for s, info in enumerate(seats):
        extra[s] = (len(info["melds"]) + info.get("peel_kongs", 0) + info.get("laizi_kongs", 0)
                    + (1 if view.get("phase") == "turn" and view.get("current") == s else 0))
    later = [0] * len(seats)          # discards each seat made after the event looked at
    limits: dict[int, dict[int, int]] = {}
    for frm, t, taker in reversed(events):
        for s in range(len(seats)):
            if s in (me, frm) or s == taker:
                continue
            if taker is not None and not _by_chow(seats[taker], frm, t):
                continue                  # taken for a pung or kong: no pass of a pung to read
            cap = 1 + later[s] + extra[s]
            if cap < FREE and cap < limits.setdefault(s, {}).get(t, FREE):
                limits[s][t] = cap
        later[frm] += 1
    return {s: lim for s, lim in limits.items() if lim}


def _by_chow(info: dict[str, Any], frm: int, t: int) -> bool:
    """Whether a set of ``info`` (a seat's public part) claimed the tile ``t`` from ``frm`` as
    a chow."""
    return any(m.get("source") == frm and m.get("claimed") and parse_tile(m["claimed"]) == t
               and m["kind"] == "chow" for m in info["melds"])


def keep_limits(dealt: dict[Any, list[int]], limits: dict[int, dict[int, int]], wall: Any,
                rng: random.Random) -> None:
    """Make the deal ``dealt`` (place → tiles, as :func:`qipai.cards.sample.deal_unseen` gives)
    keep ``limits`` (:func:`pass_limits`) in place: a tile over its seat's limit is swapped with
    a random tile of the place ``wall`` that the seat may take (a kind under its limit, never a
    flower). A tile with no such swap stays (the sample is then only less informed)."""
    pool = dealt[wall]
    for s, lim in limits.items():
        hand = dealt.get(s)
        if not hand:
            continue
        count: dict[int, int] = {}
        for t in hand:
            count[t] = count.get(t, 0) + 1
        for i, t in enumerate(hand):
            if count[t] <= lim.get(t, FREE):
                continue
            fits = [j for j, u in enumerate(pool)
                    if u != t and u < NUM_KINDS and count.get(u, 0) < lim.get(u, FREE)]
            if not fits:
                continue
            j = rng.choice(fits)
            u = pool[j]
            hand[i], pool[j] = u, t
            count[t] -= 1
            count[u] = count.get(u, 0) + 1
