"""The 挖坑 rule bot. Bidding: a hand count (each 3 three points, each 2 two, each A one, each
four-of-a-kind two) bids 3 from 11, 2 from 8, 1 from 5, never below what is already bid.
Play: go out when one play empties the hand; otherwise lead the lowest straight or group of the
lowest rank held (longest straight first), follow with the smallest beating play, and do not
beat a partner (the other opponent of the digger). Reads only ``view(seat)`` and
``legal_actions(seat)``."""

from __future__ import annotations

import math
import random
from typing import Any

from qipai.bots import register_bot
from qipai.bots.ismcts import HalvingSearcher, played_by_seat, replay
from qipai.bots.search import register_searcher
from qipai.cards.sample import deal_unseen, id_order, place_played


def hand_strength(ranks: str) -> int:
    """Points of a rank string: 3 -> 3, 2 -> 2, A -> 1, and 2 per rank held four times."""
    score = 3 * ranks.count("3") + 2 * ranks.count("2") + ranks.count("A")
    return score + 2 * sum(1 for r in set(ranks) if ranks.count(r) == 4)


class WakengRuleBot:
    """See the module docstring. Deterministic; the seed is kept for the bot API."""

    name = "rule"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, state: Any, seat: int) -> Any:
        actions = state.legal_actions(seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        view = state.view(seat)
        if view["phase"] == "bidding":
            strength = hand_strength(view["hand_ranks"])
            want = 3 if strength >= 11 else 2 if strength >= 8 else 1 if strength >= 5 else 0
            bids = [a for a in actions if getattr(a, "value", 0) and a.value <= want]
            return max(bids, key=lambda a: a.value) if bids else actions[0]
        top = view["top"]
        return rule_play(actions, seat, len(view["hand_ranks"]), None if top is None else top["seat"],
                         view["digger"])


def rule_play(actions: list, seat: int, left: int, top_seat: int | None, digger: int) -> Any:
    """The rule bot's play among ``actions`` (the legal set) for ``seat`` holding ``left``
    cards, ``top_seat`` holding the trick (``None`` on a lead): see the module docstring."""
    plays = [a for a in actions if str(a) != "pass"]
    passing = [a for a in actions if str(a) == "pass"]
    for p in plays:
        if p.ncards == left:
            return p
    if top_seat is None:
        return min(plays, key=lambda p: (p.key - p.length + 1, -p.ncards))
    if passing and seat != digger and top_seat != digger:
        return passing[0]                   # the partner holds the trick
    if plays:
        return min(plays, key=lambda p: p.key)
    return passing[0]


register_bot("wakeng", "rule", WakengRuleBot)


# ----- search (levels 3-5) -------------------------------------------------------------------
def pit_chains(view: dict, rng: random.Random) -> list[int]:
    """How many of 5H, 6H, 7H, 8H (§2.3, D8: the first bidder holds the first of 5H-9H not in
    the pit) may lie in the pit, as ``view``'s seat knows it, in the order a determinization
    tries them: the number the pit shows where the seat saw it; else every number its own hand
    allows (a card of the chain it holds is not in the pit, and is the first bidder's only when
    the seat bids first), drawn in proportion to the chance that those cards of the 36 the seat
    did not see fell among the 4 of the pit."""
    from qipai.games.wakeng.game import FIRST_BIDDER_CARDS

    chain = [c.id for c in FIRST_BIDDER_CARDS]
    if view["pit"] is not None:
        return [next(k for k, c in enumerate(chain) if c not in view["pit"])]
    hand, mine = set(view["hand"]), view["first_bidder"] == view["seat"]
    ks = [k for k in range(len(chain)) if not hand & set(chain[:k]) and (mine or chain[k] not in hand)]
    weights = [math.prod((4 - i) / (36 - i) for i in range(k)) for k in ks]
    out = []
    while ks:
        j = rng.choices(range(len(ks)), weights)[0]
        out.append(ks.pop(j))
        weights.pop(j)
    return out


def determinize(game: Any, view: dict, rng: random.Random) -> Any:
    """A full 挖坑 state agreeing with ``view`` (one seat's view during play): the seat's own
    hand, the bids, every play, the pit where the seat saw it; the unseen cards dealt at random
    into the other hands by their counts (:func:`qipai.cards.sample.deal_unseen`). A pit the seat
    did not see is four random cards of the digger's, holding the cards of 5H-8H the sample puts
    there (:func:`pit_chains`: the first bidder's 5H may have been in the pit, and then the
    digger held it). Raises ``ValueError`` (or the game's errors) for a sample that disagrees
    with the first bidder or a replayed action."""
    from qipai.games.wakeng.combos import ORDER
    from qipai.games.wakeng.game import DECK, FIRST_BIDDER_CARDS, FIRST_LEAD_CARD, SEATS

    me, digger, pit, first = view["seat"], view["digger"], view["pit"], view["first_bidder"]
    chain = [c.id for c in FIRST_BIDDER_CARDS]
    labels = played_by_seat(view["plays"], SEATS)
    error = "no number of 5H-8H in the pit agrees with the plays"
    for k in pit_chains(view, rng):
        # cards a seat is known to have held: the pit the digger took (where the seat saw it,
        # else the chain's cards put there), the 4H of the first leader, the first bidder's card
        # of the chain; a play is shown by its ranks (qipai.cards.table_ids), so its cards are
        # stood in for by those (place_played)
        shown: dict[int, list[str]] = {s: [] for s in range(SEATS)}
        shown[digger] += pit if pit is not None else chain[:k]
        lead = FIRST_LEAD_CARD.id                 # the first leader holds the 4H (§2.6)
        if view["first_leader"] is not None and lead not in shown[view["first_leader"]]:
            shown[view["first_leader"]].append(lead)
        if chain[k] not in view["hand"]:
            shown[first].append(chain[k])
        try:
            played, still = place_played([c.id for c in DECK], {me: list(view["hand"])}, shown,
                                         labels, key=id_order(ORDER))
        except ValueError as e:
            error = str(e)
            continue
        if chain[k] in still[me]:                 # the seat bids first and has not its card
            continue
        break
    else:
        raise ValueError(error)
    known: dict[int, list[str]] = {s: [] if s == me else still[s] for s in range(SEATS)}
    known[me] = list(view["hand"])
    now = deal_unseen([c.id for c in DECK], dict(enumerate(view["counts"])), known,
                      [c for s in range(SEATS) for c in played[s]], rng)
    hands = [now[s] + played[s] for s in range(SEATS)]
    if pit is None:
        # the chain's cards before the first bidder's, and not its own, then cards of the
        # digger's hand (those it played when it holds fewer than 4)
        must, out = chain[:k], set(chain[:k + 1])
        pool = [c for c in now[digger] if c not in out]
        rng.shuffle(pool)
        need = 4 - len(must)
        rest = [c for c in played[digger] if c not in out]
        pit = must + (pool[:need] if len(pool) >= need else pool + rng.sample(rest, need - len(pool)))
    hands[digger] = [c for c in hands[digger] if c not in pit]
    state = game.new_state(deal={"hands": hands, "pit": pit})
    if state.first_bidder != view["first_bidder"]:
        raise ValueError("the sample gives another first bidder")
    return replay(replay(state, view["bids"]), view["plays"])


class WakengSearcher(HalvingSearcher):
    """The play is searched (the bidding is the rule bot's) by sequential halving over the
    seat's legal plays with common samples (:class:`~qipai.bots.ismcts.HalvingSearcher`): every
    candidate still in the race is played out from the same fresh :func:`determinize` samples
    and the better half goes on; the rule bot's play is the first candidate, races to the end,
    and is left only for a play better on the same samples by :attr:`margin` standard errors
    of the paired differences. A playout is the rule bot in every seat to the end of the deal,
    no random play; a deal is won or lost (the bid, fixed by then, only scales it).

    Why: docs/bots.md, "Wakeng and 4A4 level 3 by halving, 2026-12-07"."""

    def rule_play(self, state: Any, seat: int, actions: list) -> Any:
        """:func:`rule_play` read from the state (the bidding: ``None``, the rule bot's view)."""
        if state.phase != "play":
            return None
        return rule_play(actions, seat, len(state.hands[seat]), state.top_seat, state.digger)


#: the play is searched (the bidding is the rule bot's), see :class:`WakengSearcher`
SEARCHER = WakengSearcher("wakeng", WakengRuleBot, determinize, phases=("play",),
                          own_hand=lambda state, seat: [c.id for c in state.hand(seat)])
register_searcher(SEARCHER, WakengRuleBot)
