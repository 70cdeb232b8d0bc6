"""What the rule bots of the mahjong games (Guobiao ``fast``, laizi mahjong and 百变八雀 ``rule``)
share: reading the seat's hand from its view, the connectedness of a tile, and the answer to a
discard — claim the set (kong, pung or chow) that brings the hand nearest a win by the game's
own measure, or pass.

A game's bot gives only its measure (shanten, the laizi table's *need*, ...) and which claims
are worth making; :func:`claim_or_pass` does the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from qipai.tiles.tile import NUM_KINDS, parse_tile, parse_tiles

#: the claims a bot weighs, in the order it prefers them on equal merit
CLAIM_RANK = {"kong": 0, "pung": 1, "chow": 2}


def hand_counts(text: str) -> list[int]:
    """The 34 counts of the tiles in ``text`` (a view's ``hand``)."""
    c = [0] * NUM_KINDS
    for t in parse_tiles(text):
        c[t] += 1
    return c


def tile_value(c: list[int], t: int) -> float:
    """How well the tile ``t`` is connected in the counts ``c``: pairs and pungs, neighbours
    within one or two ranks; isolated honours and terminals are worth least."""
    v = 0.0
    n = c[t]
    if n >= 2:
        v += 4 + 2 * (n - 2)
    if t < 27:
        r = t % 9
        for d, w in ((1, 2.0), (2, 1.0)):
            if r - d >= 0 and c[t - d]:
                v += w
            if r + d <= 8 and c[t + d]:
                v += w
        if r in (0, 8):
            v -= 0.3
    else:
        v -= 0.5
    return v


def after_discard(counts: list[int], measure: Callable[[list[int]], Any]) -> Any:
    """The lowest ``measure(counts less one tile)`` over the tiles of ``counts``."""
    best = None
    for t in range(NUM_KINDS):
        if counts[t]:
            counts[t] -= 1
            m = measure(counts)
            counts[t] += 1
            if best is None or m < best:
                best = m
    return best


def claimed_counts(counts: list[int], kind: str, low: int | None, t: int) -> list[int]:
    """The concealed ``counts`` after a claim of ``kind`` (a chow from its lowest tile ``low``)
    on the discard ``t``: the tiles of the hand the set uses are gone."""
    c = list(counts)
    if kind == "chow":
        for x in (low, low + 1, low + 2):
            if x != t:
                c[x] -= 1
    else:
        c[t] -= 2 if kind == "pung" else 3
    return c


def best_claim(actions: list, t: int, after: Callable[[Any, int], Any]):
    """The claim (kong, pung or chow) of ``actions`` on the discard ``t`` with the lowest
    ``(after(action, t), CLAIM_RANK)``: ``after`` measures the hand once the claim is made
    (:func:`claimed_counts`; lower is nearer a win) and returns ``None`` for a claim not worth
    making. ``None`` when no claim is."""
    best, best_key = None, None
    for a in actions:
        if a.kind not in CLAIM_RANK:
            continue
        value = after(a, t)
        if value is None:
            continue
        key = (value, CLAIM_RANK[a.kind])
        if best_key is None or key < best_key:
            best, best_key = a, key
    return best


def discard_claim(view: dict[str, Any], counts: list[int], actions: list,
                  value: Callable[[Any, list[int]], Any]):
    """The set to claim on the discard of ``view``'s claim window, or ``None``: among the kongs,
    pungs and chows of ``actions``, the one with the lowest ``value(action, counts after the
    claim)`` (the game's measure, lower nearer a win; ``None`` for a claim not worth making).
    ``None`` outside a discard's window (a robbed kong, laizi mahjong's laizi kong)."""
    claim = view.get("claim") or {}
    if claim.get("kind") != "discard" or not claim.get("tile"):
        return None
    return best_claim(actions, parse_tile(claim["tile"]),
                      lambda a, t: value(a, claimed_counts(counts, a.kind, a.tile, t)))


def claim_or_pass(view: dict[str, Any], counts: list[int], actions: list,
                  value: Callable[[Any, list[int]], Any]):
    """:func:`discard_claim`, else the pass of ``actions``."""
    return discard_claim(view, counts, actions, value) or next(a for a in actions if a.kind == "pass")


def legal_and_win(state, seat: int) -> tuple[list, Any]:
    """``seat``'s legal actions and the win among them (``None`` when it has none). Raises
    ValueError when the seat has no action."""
    actions = state.legal_actions(seat)
    if not actions:
        raise ValueError(f"seat {seat} has no legal action")
    return actions, next((a for a in actions if a.kind == "win"), None)
