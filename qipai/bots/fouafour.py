"""The 4A4 rule bot. Goes out when one play empties the hand. In a 叉/勾 window it claims unless
the single or 叉 answered is its partner's. Leading: the lowest non-bomb play, the longest
first among plays starting at the same rank (bombs only when nothing else is left). Following:
passes while its partner holds the trick; otherwise the smallest non-bomb play that beats, and
a bomb (the smallest) only when the opponent on top has at most 5 cards left. Reads only
``view(seat)`` and ``legal_actions(seat)``."""

from __future__ import annotations

import random
from typing import Any

from qipai.bots import register_bot
from qipai.bots.ismcts import HalvingSearcher, played_by_seat
from qipai.bots.search import register_searcher
from qipai.cards.sample import deal_unseen, id_order, place_played


class FouafourRuleBot:
    """See the module docstring. Deterministic; the seed is kept for the bot API."""

    name = "rule"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, state: Any, seat: int) -> Any:
        actions = state.legal_actions(seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        view = state.view(seat)
        window, top = view["window"], view["top"]
        return rule_play(actions, seat, None if window is None else window["by"],
                         None if top is None else top["seat"], view["counts"])


def rule_play(actions: list, seat: int, window_by: int | None, top_seat: int | None,
              counts: list[int]) -> Any:
    """The rule bot's choice among ``actions`` (the legal set) for ``seat``: ``window_by`` the
    seat whose single or 叉 an open window answers (``None``: no window), ``top_seat`` the seat
    holding the trick (``None`` on a lead), ``counts`` every seat's cards left. See the module
    docstring."""
    passing = next((a for a in actions if str(a) == "pass"), None)
    partner = (seat + 2) % 4
    if window_by is not None:
        claims = [a for a in actions if a is not passing]
        return claims[0] if claims and window_by != partner else passing
    plays = [a for a in actions if a is not passing]
    left = counts[seat]
    for p in plays:
        if p.ncards == left:
            return p
    normal = [p for p in plays if not p.bomb]
    if top_seat is None:
        pool = normal or plays
        return min(pool, key=lambda p: (p.bomb, p.key - p.length + 1, -p.ncards))
    if top_seat == partner:
        return passing
    if normal:
        return min(normal, key=lambda p: p.key)
    bombs = [p for p in plays if p.bomb]
    if bombs and counts[top_seat] <= 5:
        return min(bombs, key=lambda p: (p.bomb, p.key))
    return passing


register_bot("fouafour", "rule", FouafourRuleBot)


# ----- search (levels 3-5) -------------------------------------------------------------------
def determinize(game: Any, view: dict, rng: random.Random) -> Any:
    """A full 4A4 state agreeing with ``view``: the seat's own hand, the dealer, the 3H in the
    first leader's hand until played, every play, pass, 叉 and 勾; the unseen cards dealt at
    random into the other hands by their counts (:func:`qipai.cards.sample.deal_unseen`). A
    sample under which a replayed answer of a 叉/勾 window is not possible (or one that was
    possible is missing) is refused by the game and drawn again by the searcher. A 叉/勾
    window the view shows the seat still to answer stays open with the seat alone to answer
    (the others decline); any other open window is closed by declines."""
    from qipai.games.fouafour.combos import ORDER
    from qipai.games.fouafour.game import DECK, SEATS

    me, leader = view["seat"], view["first_leader"]
    # the first leader was dealt the card it showed (3H); a play is shown by its ranks
    # (qipai.cards.table_ids), so its cards are stood in for by those (place_played)
    shown: dict[int, list[str]] = {s: [] for s in range(SEATS)}
    shown[leader].append(view["shown"])
    played, still = place_played([c.id for c in DECK], {me: list(view["hand"])}, shown,
                                 played_by_seat(view["plays"], SEATS),
                                 key=id_order(ORDER))
    known: dict[int, list[str]] = {s: [] if s == me else still[s] for s in range(SEATS)}
    known[me] = list(view["hand"])
    now = deal_unseen([c.id for c in DECK], dict(enumerate(view["counts"])), known,
                      [c for s in range(SEATS) for c in played[s]], rng)
    state = game.new_state(deal={"dealer": view["dealer"],
                                 "hands": [now[s] + played[s] for s in range(SEATS)]})
    for seat, text, *_ in view["plays"]:
        if state.window is not None and not (seat in state.to_act and text.split()[0] in ("cha", "gou")):
            _decline(state)
        state.apply(text, seat)
    if state.window is not None:
        # the seat's own answer to the open window is what is searched: the others decline
        # (whoever could claim too would hold a card the seat holds: with the seat able to
        # claim, nobody else is)
        _decline(state, keep=me if me in view["to_act"] and view["window"] is not None else None)
    return state


def _decline(state: Any, keep: int | None = None) -> None:
    """Every seat still waiting in the open 叉/勾 window passes (declines are not in a view),
    but ``keep``, left to answer."""
    for s in list(state.to_act):
        if s != keep:
            state.apply("pass", s)


class FouafourSearcher(HalvingSearcher):
    """The play, and the seat's answer to a 叉/勾 window in which it can claim (pass or claim),
    are searched by sequential halving over the seat's legal actions with common samples
    (:class:`~qipai.bots.ismcts.HalvingSearcher`):
    every candidate still in the race is played out from the same fresh :func:`determinize`
    samples and the better half goes on; the rule bot's play is the first candidate, races to
    the end, and is left only for a play better on the same samples by :attr:`margin`
    standard errors of the paired differences. A playout is the rule bot in every seat (the
    windows too) to the end of the deal, no random play; valued by the deal's result (won,
    drawn or lost by the seat's team). In a window the samples leave it open with only the seat
    to answer (:func:`determinize`), and the rule bot's answer (claim, but not on the
    partner's single or 叉) is kept unless the other is better by the margin.

    Why: docs/bots.md, "Wakeng and 4A4 level 3 by halving, 2026-12-07" and "4A4 level 3
    searches its 叉/勾 windows, 2026-12-08"."""

    def searched(self, state: Any, seat: int) -> bool:
        """Every play, and the seat's answer to a 叉/勾 window when it can claim (a window
        with only the pass is answered at once)."""
        if state.window is not None:
            return seat in state.to_act and len(state.legal_actions(seat)) > 1
        return super().searched(state, seat)

    def rule_play(self, state: Any, seat: int, actions: list) -> Any:
        """:func:`rule_play` read from the state."""
        w = state.window
        return rule_play(actions, seat, None if w is None else w["by"], state.top_seat,
                         [len(h) for h in state.hands])


#: the play and the seat's claim windows are searched, see :class:`FouafourSearcher`
SEARCHER = FouafourSearcher("fouafour", FouafourRuleBot, determinize, phases=("play", "cha", "gou"),
                            own_hand=lambda state, seat: [c.id for c in state.hand(seat)])
register_searcher(SEARCHER, FouafourRuleBot)
