"""The shengji rule bot: plain card sense, no search. Reads only ``view(seat)`` and
``legal_actions(seat)``.

* Declarations: declares when the suit of the offered level card makes up at least a quarter
  of the cards received so far (jokers for no-trump when holding few of any suit); else passes.
* Bury: the lowest side cards without points, longest side suits kept.
* Lead: a side-suit tractor or pair, else a side ace (or the top card of its suit), else the
  lowest side card; trumps last. Never throws (a failed throw costs points).
* Follow: if the partner is winning, the legal play with the most points (then the cheapest);
  otherwise the cheapest play that takes the trick, else the cheapest legal play.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from qipai.bots import register_bot
from qipai.games.shengji import combos as cb
from qipai.games.shengji.actions import Action
from qipai.games.shengji.trump import TRUMP, Trump, face_points

SAMPLE = 150            # candidate plays examined when the legal set is larger


def _spread(actions, n: int) -> list:
    total = len(actions)
    if total <= n:
        return list(actions)
    step = total / n
    return [actions[int(i * step)] for i in range(n)]


class ShengjiRuleBot:
    """See the module docstring."""

    name = "rule"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, state: Any, seat: int) -> Any:
        view = state.view(seat)
        if seat not in view["to_act"]:
            raise ValueError(f"seat {seat} has no legal action")
        phase = view["phase"]
        if phase in ("deal", "window", "bao", "fan"):
            return self._declare(view, state.legal_actions(seat))
        trump = Trump(view["level"], None if view["trump"] == "NT" else view["trump"],
                      state.game.options["two_always_trump"])
        if phase == "bury":
            return self._bury(view, trump)
        if not view["trick"]:
            return self._lead(view, trump, state.game.options["decks"])
        return self._follow(view, seat, state.legal_actions(seat), trump)

    def _declare(self, view: dict, actions: list) -> Any:
        hand = view["hand"]
        suits = Counter(f[1] for f in hand if f not in ("LJ", "BJ"))
        best = None
        for a in actions:
            if a.kind != "declare":
                continue
            suit = next((f[1] for f in a.faces if f not in ("LJ", "BJ")), None)
            size = max(1, len(hand))
            share = suits[suit] / size if suit else 1 - max(suits.values(), default=0) / size
            if share >= 0.25 and (best is None or len(a.faces) > len(best.faces)):
                best = a
        return best if best is not None else actions[0]

    def _bury(self, view: dict, trump: Trump) -> Action:
        hand = view["hand"]
        n = view["legal"]["count"]
        lengths = Counter(trump.eff[f] for f in hand)
        order = sorted(hand, key=lambda f: (trump.eff[f] == TRUMP, face_points(f) > 0,
                                            lengths[trump.eff[f]], trump.pos[f]))
        return Action("bury", tuple(order[:n]))

    def _lead(self, view: dict, trump: Trump, decks: int) -> Action:
        hand = Counter(view["hand"])
        best = None
        for suit in ("S", "H", "C", "D", TRUMP):
            hold = {f: c for f, c in hand.items() if trump.eff[f] == suit}
            if not hold:
                continue
            comps = cb.decompose(hold, trump.pos, decks)
            top = max(trump.pos[f] for f in hold)
            for c in comps:
                rank = (suit == TRUMP, c.kind not in ("tractor", "pair"), -c.size,
                        -(c.kind == "single" and c.top == top and c.top >= 10), c.top)
                if best is None or rank < best[0]:
                    best = (rank, c)
        assert best is not None
        return Action("play", best[1].faces)

    def _follow(self, view: dict, seat: int, actions, trump: Trump) -> Action:
        trick = view["trick"]
        lead = Counter(trick[0][1])
        fmt = cb.format_of(cb.decompose(dict(lead), trump.pos))
        lead_suit = trump.eff[trick[0][1][0]]
        win_seat = view["winning"]
        win_cards = next(fs for s, fs in trick if s == win_seat)
        win_suit = trump.eff[win_cards[0]]
        win_key = cb.contender_key(dict(Counter(win_cards)), trump.pos, fmt)
        cands = _spread(actions, SAMPLE)

        def cost(a: Action) -> tuple:
            return (sum(face_points(f) for f in a.faces), sorted(trump.sort_key(f) for f in a.faces))

        if win_seat % 2 == seat % 2:
            return max(cands, key=lambda a: (cost(a)[0], [tuple(-x for x in k) for k in cost(a)[1]]))
        winners = []
        for a in cands:
            suits = {trump.eff[f] for f in a.faces}
            if len(suits) != 1:
                continue
            s = suits.pop()
            if s not in (lead_suit, TRUMP):
                continue
            key = cb.contender_key(dict(Counter(a.faces)), trump.pos, fmt)
            if key is None:
                continue
            if (s == TRUMP and win_suit != TRUMP) or (s == win_suit and key > win_key):
                winners.append(a)
        if winners:
            return min(winners, key=lambda a: sorted(trump.sort_key(f) for f in a.faces)[::-1])
        return min(cands, key=cost)


register_bot("shengji", "rule", ShengjiRuleBot)
