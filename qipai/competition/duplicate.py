"""Duplicate deals (复式, competition.md §2.8): the same deals at every table of a group, hands
rotated, scores compared between the entrants who held the same hand.

A duplicate group is ``tables`` tables of ``k`` seats. Deal ``d`` of the group is one shuffle
(one seed); at table ``i`` the hand that seat ``j`` receives is hand ``(j + i) mod k`` of that
shuffle (:func:`hand_of`). Everything else that belongs to a position of the deal (the first
bidder, the face-up card's holder) moves with the hand, so seat ``j`` at table ``i`` is in
exactly the situation of seat ``(j + i) mod k`` at table 0, and play order is unchanged.

* :func:`group_deals` builds the deal objects of one deal number for every table of a group
  (the deal and its spare redeals, rotated), ready for ``game.new_state(deal=...)``;
* :func:`duplicate_scores` compares the results: per hand and deal, each holder gets
  ``matchpoints`` (2 per other holder it beat, 1 per tie, 0 per loss) or its ``average``
  difference (its score minus the mean of all holders of that hand).

Rotation needs the game's deal layout; :data:`ROTATORS` maps a game id to a function
``rotate(deal, shift) -> deal``. Games without one raise :class:`OptionError`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from qipai.core.errors import OptionError

#: spare redeals prepared with each duplicate deal (doudizhu: everybody passed), so a redeal at
#: one table gets the same cards as a redeal at any other table
SPARE_REDEALS = 4


def hand_of(table: int, seat: int, k: int) -> int:
    """The hand (position of the table-0 deal) held by ``seat`` at ``table`` (0-based)."""
    return (seat + table) % k


def seat_of(table: int, hand: int, k: int) -> int:
    """The seat holding ``hand`` at ``table``: the inverse of :func:`hand_of`."""
    return (hand - table) % k


def _rotate_doudizhu(deal: dict[str, Any], shift: int) -> dict[str, Any]:
    k = len(deal["hands"])
    out = dict(deal)
    out["hands"] = [list(deal["hands"][(j + shift) % k]) for j in range(k)]
    out["first_bidder"] = seat_of(shift, deal["first_bidder"], k)
    return out


def _doudizhu_deals(game: Any, seed: str, count: int) -> list[dict[str, Any]]:
    from qipai.core.rng import DealRng
    from qipai.games.doudizhu.bidding import draw_deal

    rng = DealRng(seed)
    out, prev = [], None
    for _ in range(count):
        d = draw_deal(rng, game.options["deal"], prev)
        prev = d["first_bidder"]
        out.append(d)
    return out


#: game id -> rotate(deal, shift): the deal with seat j given position (j + shift) mod k
ROTATORS: dict[str, Callable[[dict[str, Any], int], dict[str, Any]]] = {"doudizhu": _rotate_doudizhu}
#: game id -> deals(game, seed, count): the deal and its redeals drawn from one seed
DEALERS: dict[str, Callable[[Any, str, int], list[dict[str, Any]]]] = {"doudizhu": _doudizhu_deals}


def supports(game_id: str) -> bool:
    return game_id in ROTATORS and game_id in DEALERS


def rotate(game_id: str, deal: dict[str, Any], shift: int) -> dict[str, Any]:
    """The deal as table ``shift`` of a group receives it. Raises OptionError for a game
    without duplicate support."""
    if game_id not in ROTATORS:
        raise OptionError(f"duplicate deals are not available for {game_id}; "
                          f"available: {', '.join(sorted(ROTATORS))}",
                          code="duplicate.unavailable", params={"game": game_id})
    return ROTATORS[game_id](deal, shift)


def group_deals(game: Any, seed: str, tables: int) -> list[list[dict[str, Any]]]:
    """For one deal number with seed ``seed``: per table ``i`` of the group, the deal and its
    spare redeals rotated by ``i`` (a list to pass as ``game.new_state(deal=...)``)."""
    if not supports(game.id):
        raise OptionError(f"duplicate deals are not available for {game.id}; "
                          f"available: {', '.join(sorted(ROTATORS))}",
                          code="duplicate.unavailable", params={"game": game.id})
    if tables < 1:
        raise OptionError("a duplicate group needs at least one table",
                          code="duplicate.no_tables")
    base = DEALERS[game.id](game, seed, 1 + SPARE_REDEALS)
    return [[rotate(game.id, d, i) for d in base] for i in range(tables)]


def table_deals(game: Any, seed: str, table: int) -> list[dict[str, Any]]:
    """The deal list of one table of a group (``group_deals(...)[table]`` without the others)."""
    if not supports(game.id):
        raise OptionError(f"duplicate deals are not available for {game.id}; "
                          f"available: {', '.join(sorted(ROTATORS))}",
                          code="duplicate.unavailable", params={"game": game.id})
    return [rotate(game.id, d, table) for d in DEALERS[game.id](game, seed, 1 + SPARE_REDEALS)]


def duplicate_scores(results: Sequence[Sequence[Sequence[float] | None]], k: int,
                     method: str = "matchpoints") -> list[list[float]]:
    """Compare the tables of a duplicate group.

    ``results[i][d]`` is the score of each seat of table ``i`` in deal ``d`` (a list of ``k``
    numbers, by seat), or ``None`` for a deal the table did not complete (that hand is then
    compared among the tables that did). Returns ``totals[i][seat]``, summed over the deals:

    * ``matchpoints``: per other holder of the same hand in the same deal, 2 if this seat scored
      more, 1 if equal, 0 if less;
    * ``average``: the seat's score minus the mean score of every holder of that hand.

    Raises OptionError for an unknown method or results of the wrong shape.
    """
    if method not in ("matchpoints", "average"):
        raise OptionError(f"unknown duplicate scoring {method!r}; valid: matchpoints, average",
                          code="config.not_one_of",
                          params={"field": "session.advance_by", "valid": ["matchpoints", "average"]})
    tables = len(results)
    deals = max((len(r) for r in results), default=0)
    totals = [[0.0] * k for _ in range(tables)]
    for i, r in enumerate(results):
        for d, row in enumerate(r):
            if row is not None and len(row) != k:
                raise OptionError(f"table {i + 1}, deal {d + 1}: {len(row)} scores for {k} seats",
                                  code="duplicate.scores",
                                  params={"table": i + 1, "deal": d + 1, "given": len(row), "seats": k})
    for d in range(deals):
        for hand in range(k):
            holders = []
            for i in range(tables):
                row = results[i][d] if d < len(results[i]) else None
                if row is not None:
                    s = seat_of(i, hand, k)
                    holders.append((i, s, float(row[s])))
            if not holders:
                continue
            mean = sum(v for _, _, v in holders) / len(holders)
            for i, s, v in holders:
                if method == "average":
                    totals[i][s] += v - mean
                else:
                    totals[i][s] += sum(2 if v > w else 1 if v == w else 0
                                        for j, _, w in holders if j != i)
    return totals
