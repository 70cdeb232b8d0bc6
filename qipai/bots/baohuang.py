"""The 保皇 rule bot. Reads only ``view(seat)`` and ``legal_actions(seat)``.

* Selection: accepts when it holds a qualifying triple and a fair hand (at least four cards among
  2s and jokers), and always on the first candidate's second chance (a void deal helps nobody).
* Declaration: names the lowest triple it holds exactly three of (a guard to play with); with
  only four-copy triples, the lowest one with three revealed (hidden 独).
* Play: leads all its cards of its lowest rank, without jokers; follows with the beating set
  that uses the fewest jokers, then the lowest rank, then the fewest cards of that rank left
  behind; passes when the set on the table is a known partner's (the guard knows the emperor)
  or when beating it would cost a joker on a set of its own rank 2 or lower while it still holds
  many cards.
* 山东保皇 (``ruleset=sdbh.provisional``, experimental): :class:`ShandongRuleBot` — goes out when
  one play empties its hand; leads its longest straight, else all its cards of its lowest rank;
  follows with the lowest play that beats, keeping jokers back while it holds many cards.
"""

from __future__ import annotations

from typing import Any

from qipai.bots import register_bot


class BaohuangRuleBot:
    """Simple rule-following bot; see the module docstring."""

    name = "rule"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed                 # deterministic; the seed is kept for the bot API

    def choose(self, state: Any, seat: int) -> Any:
        actions = state.legal_actions(seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        view = state.view(seat)
        if view.get("ruleset") == "sdbh.provisional":
            return ShandongRuleBot.pick(view, seat, actions)
        by_text = {str(a): a for a in actions}
        if view["phase"] == "select":
            ranks = view["hand_ranks"]
            strong = sum(ranks.count(x) for x in "2LB") >= 4
            second = seat == view["c0"] and len(view["selection"]) >= 5
            if "accept" in by_text and (strong or second):
                return by_text["accept"]
            return next(a for a in actions if str(a).startswith("decline"))
        if view["phase"] == "declare":
            four = {a.face for a in actions if len(str(a).split()) == 5}   # faces held four times
            three = [a for a in actions if len(str(a).split()) == 4 and a.face not in four]
            return three[0] if three else actions[0]
        return self._play(view, seat, actions)

    def _play(self, view: dict, seat: int, actions: list) -> Any:
        plays = [a for a in actions if not str(a).startswith("pass")]
        passes = [a for a in actions if str(a).startswith("pass")]
        left = view["counts"][seat]
        finishing = [p for p in plays if p.size == left]
        if finishing:
            return finishing[0]
        top = view["top"]
        if top is None:
            plain = [p for p in plays if p.s == 0 and p.b == 0]
            if plain:
                low = min(p.base for p in plain)
                return max((p for p in plain if p.base == low), key=lambda p: p.n)
            return min(plays, key=lambda p: (p.b, p.size))
        if not plays:
            return passes[0]
        partner = view["emperor"] if view["guard"] == seat else None
        if top["seat"] == partner:
            return passes[0]
        counts = _counts(view["hand_ranks"])
        best = min(plays, key=lambda p: (p.s + p.b, p.base, counts.get(p.text[:1], 0) - p.n))
        if best.s + best.b and left > 10:
            return passes[0]
        return best


class ShandongRuleBot:
    """The 山东保皇 (experimental rule set) part of the rule bot; see the module docstring."""

    @staticmethod
    def pick(view: dict, seat: int, actions: list) -> Any:
        plays = [a for a in actions if str(a) != "pass"]
        left = view["counts"][seat]
        out = [p for p in plays if p.ncards == left]
        if out:
            return out[0]
        if view["top"] is None:
            straights = [p for p in plays if p.type == "straight"]
            if straights:
                return max(straights, key=lambda p: (p.length, -p.key))
            low = min(p.key for p in plays)
            return max((p for p in plays if p.key == low), key=lambda p: p.length)
        if not plays:
            return actions[0]
        best = min(plays, key=lambda p: p.key)
        if best.type == "set" and best.key >= 13 and left > 6:      # a joker, early: keep it
            return actions[0]
        return best


def _counts(ranks: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for ch in ranks:
        out[ch] = out.get(ch, 0) + 1
    return out


register_bot("baohuang", "rule", BaohuangRuleBot)
