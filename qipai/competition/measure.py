"""What a session reads from a finished deal or game (competition.md §0.4 item 5, §2.3).

A score session needs only ``Result.returns`` (and, for a game whose next deal depends on the
previous one, what carries over: ``deal``, see :func:`carried_deal`). Level sessions
(shengji/tuolaji) and placement sessions (multi-player tiaoqi) need more; when a deal is stored,
:func:`facts` reads it from the game's ``Result.details`` into a small dict kept with the game's
result, in game-seat terms:

* ``places``: the place of every seat (1 = best; shared places repeat), placement games;
* ``levels``: the level of every seat's side after the deal (2..14, 15 = has passed A);
  ``on_stage``: a seat of the side that declares the next deal (台上); ``attackers``: the seats
  of the deal's attacking side and ``attack_total`` its total S (trick points plus kitty bonus
  and penalty adjustments, shengji §4.1); ``next``: what the game needs to start the next deal
  of the session where this one left off (game options: levels, dealer), given back by
  :func:`next_start`; ``forfeit``: the seats of a side that forfeited the deal (and the session).

:func:`deal_outcome` turns stored facts into a :class:`~qipai.competition.sessionrule.DealOutcome`
per unit of the session (sides for pair tables, otherwise seats).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .sessionrule import DealOutcome, SessionRule


class MeasureError(ValueError):
    """A finished deal lacks what the session's measure needs."""


def facts(rule: SessionRule | None, state: Any) -> dict[str, Any]:
    """The facts of finished ``state`` the session ``rule`` needs ({} for score sessions or
    two-sided series). Raises MeasureError naming the missing number."""
    if rule is None:
        return {}
    details = dict(state.result.details or {})
    n = state.num_seats
    carry = carried_deal(state.game.id, details)
    if rule.measure == "score":
        return {"deal": carry} if carry else {}
    if rule.measure == "placement":
        places = details.get("places")
        if not isinstance(places, list | tuple) or len(places) != n:
            raise MeasureError(f"{state.game.id}: a placement session needs Result.details['places'] "
                               f"(the place of each of the {n} seats)")
        return {"places": [int(p) for p in places]}
    return _level_facts(state, details)


def _level_facts(state: Any, details: dict[str, Any]) -> dict[str, Any]:
    """Level facts from a deal's details: ``levels`` per side (in ``state.sides()`` order) or per
    seat; the side on stage from ``next_dealer`` (a seat) or ``on_stage`` (a side); the
    attacking side ``attackers`` (a side) and its ``attack_total``. A deal ended by a forfeit
    (``forfeit_team``, a side) gives ``forfeit``: the seats of the side that forfeited."""
    n = state.num_seats
    sides = [tuple(x) for x in state.sides()]
    side_of = {s: i for i, side in enumerate(sides) for s in side}
    levels = details.get("levels")
    if isinstance(levels, list | tuple) and len(levels) == len(sides) != n:
        levels = [levels[side_of[s]] for s in range(n)]
    if not isinstance(levels, list | tuple) or len(levels) != n:
        raise MeasureError(f"{state.game.id}: a level session needs Result.details['levels'] (the level "
                           "of each side after the deal)")
    out: dict[str, Any] = {"levels": [int(x) for x in levels]}
    if details.get("forfeit_team") is not None:
        out["forfeit"] = list(sides[int(details["forfeit_team"])])
        return out
    if details.get("next_dealer") is not None:
        out["on_stage"] = int(details["next_dealer"])
    elif details.get("on_stage") is not None:
        out["on_stage"] = sides[int(details["on_stage"])][0]
    else:
        raise MeasureError(f"{state.game.id}: a level session needs Result.details['next_dealer'] or "
                           "['on_stage'] (who declares the next deal)")
    if details.get("attackers") is None or details.get("attack_total") is None:
        raise MeasureError(f"{state.game.id}: a level session needs Result.details['attackers'] and "
                           "['attack_total'] (the attacking side and its total S)")
    out["attackers"] = list(sides[int(details["attackers"])])
    out["attack_total"] = float(details["attack_total"])
    out["next"] = next_deal_options(state.game.id, details, sides)
    return out


def next_deal_options(game_id: str, details: dict[str, Any], sides: list[tuple[int, ...]]) -> dict[str, Any]:
    """The game options that start the next deal of a level session where this one left off.
    shengji: ``team0_level`` / ``team1_level`` (the levels of sides 0 and 1) and ``dealer`` (the
    next dealer); other games: none."""
    if game_id != "shengji":
        return {}
    levels = [int(x) for x in details["levels"]]
    if len(levels) != len(sides):
        levels = [levels[side[0]] for side in sides]
    return {"team0_level": min(levels[0], 14), "team1_level": min(levels[1], 14),
            "dealer": int(details["next_dealer"])}


def carried_deal(game_id: str, details: dict[str, Any]) -> dict[str, Any] | None:
    """What the next deal at the table inherits as ``new_state(deal=...)``, for games whose deals
    depend on the previous one. baohuang: the tribute owed, ``{"previous":
    details["tribute_basis"]}`` (none after a deal without a basis, baohuang §4.4); sandayi: the
    next hand's first bidder, ``{"first_bidder": details["next_first_bidder"]}`` (sandayi §2.2)."""
    if game_id == "baohuang" and details.get("tribute_basis") is not None:
        return {"previous": details["tribute_basis"]}
    if game_id == "sandayi" and details.get("next_first_bidder") is not None:
        return {"first_bidder": details["next_first_bidder"]}
    return None


def session_options(game_cls: Any, rule: SessionRule | None) -> dict[str, Any]:
    """Options a level session hands to its game (``start_level``, ``must_play_levels``,
    §2.3 "passed to the shengji module"), for each the game has."""
    if rule is None or rule.measure != "level":
        return {}
    names = {o.name for o in game_cls.option_spec}
    out: dict[str, Any] = {}
    if "start_level" in names:
        out["start_level"] = rule.start_level
    if "must_play_levels" in names and rule.must_play_levels is not None:
        out["must_play_levels"] = list(rule.must_play_levels)
    return out


def deal_outcome(rule: SessionRule, result: dict[str, Any], seats: Sequence[int],
                 entrants: Sequence[int]) -> DealOutcome:
    """The :class:`DealOutcome` of a stored deal ``result`` played with draw number ``seats[s]``
    in seat s, for the session of ``entrants`` (its units, in order). Score: the returns summed
    per unit; placement: each unit's place; level: each unit's level, the unit on stage, the
    attacking unit credited with its total S. Raises MeasureError if a fact is missing."""
    unit = [entrants.index(d) for d in seats]
    n = len(entrants)
    ms = int(result.get("duration") or 0)
    f = result.get("facts") or {}
    if rule.measure == "score":
        vals = [0.0] * n
        for s, r in enumerate(result["returns"]):
            vals[unit[s]] += r
        return DealOutcome(tuple(vals), ms)
    if rule.measure == "placement":
        if "places" not in f:
            raise MeasureError("a deal of a placement session has no places")
        places = [0.0] * n
        for s, p in enumerate(f["places"]):
            places[unit[s]] = float(p)
        return DealOutcome(tuple(places), ms)
    if "levels" not in f:
        raise MeasureError("a deal of a level session has no levels")
    levels = [0.0] * n
    for s, lv in enumerate(f["levels"]):
        levels[unit[s]] = float(lv)
    if f.get("forfeit"):
        return DealOutcome(tuple(levels), ms, forfeit=unit[f["forfeit"][0]])
    attack = [0.0] * n
    if f.get("attackers"):
        attack[unit[f["attackers"][0]]] = float(f.get("attack_total") or 0)
    return DealOutcome(tuple(levels), ms, on_stage=unit[f["on_stage"]], attack=tuple(attack))


def next_deal(result: dict[str, Any] | None) -> dict[str, Any] | None:
    """The ``deal`` argument the next deal of a session starts from: the ``deal`` fact of the
    previous deal (None before the first deal or when nothing carries over)."""
    return (result.get("facts") or {}).get("deal") if result else None


def next_start(result: dict[str, Any] | None) -> dict[str, Any]:
    """The game options the next deal of a level session starts from: the ``next`` fact of the
    previous deal ({} before the first deal)."""
    if not result:
        return {}
    return dict((result.get("facts") or {}).get("next") or {})
