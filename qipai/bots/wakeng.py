"""The 挖坑 rule bot. Bidding: a hand count (each 3 three points, each 2 two, each A one, each
four-of-a-kind two) bids 3 from 11, 2 from 8, 1 from 5, never below what is already bid.
Play: go out when one play empties the hand; otherwise lead the lowest straight or group of the
lowest rank held (longest straight first), follow with the smallest beating play, and do not
beat a partner (the other opponent of the digger). Reads only ``view(seat)`` and
``legal_actions(seat)``."""

from __future__ import annotations

import random
from typing import Any

from qipai.bots import register_bot
from qipai.bots.ismcts import DeterminizedSearcher, played_by_seat, replay
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
        plays = [a for a in actions if str(a) != "pass"]
        passing = [a for a in actions if str(a) == "pass"]
        left = len(view["hand_ranks"])
        for p in plays:
            if p.ncards == left:
                return p
        top = view["top"]
        digger = view["digger"]
        if top is None:
            return min(plays, key=lambda p: (p.key - p.length + 1, -p.ncards))
        if passing and seat != digger and top["seat"] != digger:
            return passing[0]                   # the partner holds the trick
        if plays:
            return min(plays, key=lambda p: p.key)
        return passing[0]


register_bot("wakeng", "rule", WakengRuleBot)


# ----- search (levels 3-5) -------------------------------------------------------------------
def determinize(game: Any, view: dict, rng: random.Random) -> Any:
    """A full 挖坑 state agreeing with ``view`` (one seat's view during play): the seat's own
    hand, the bids, every play, the pit where the seat saw it; the unseen cards dealt at random
    into the other hands by their counts (:func:`qipai.cards.sample.deal_unseen`). A pit the seat
    did not see is four random cards of the digger's. Raises ``ValueError`` (or the game's
    errors) for a sample that disagrees with the first bidder or a replayed action."""
    from qipai.games.wakeng.combos import ORDER
    from qipai.games.wakeng.game import DECK, FIRST_BIDDER_CARDS, FIRST_LEAD_CARD, SEATS

    me, digger, pit, first = view["seat"], view["digger"], view["pit"], view["first_bidder"]
    # cards a seat is known to have held: the pit the digger took (where the seat saw it), the
    # 4H of the first leader, the 5H the first bidder was dealt (unless it is in the pit, D8);
    # a play is shown by its ranks
    # (qipai.cards.table_ids), so its cards are stood in for by those (place_played)
    shown: dict[int, list[str]] = {s: [] for s in range(SEATS)}
    if pit is not None:
        shown[digger] += pit
    lead = FIRST_LEAD_CARD.id                 # the first leader holds the 4H (§2.6)
    if view["first_leader"] is not None and lead not in shown[view["first_leader"]]:
        shown[view["first_leader"]].append(lead)
    five = FIRST_BIDDER_CARDS[0].id
    five_seen = five in view["hand"] or five in (pit or ())
    if not five_seen:
        shown[first].append(five)
    played, still = place_played([c.id for c in DECK], {me: list(view["hand"])}, shown,
                                 played_by_seat(view["plays"], SEATS),
                                 key=id_order(ORDER))
    known: dict[int, list[str]] = {s: [] if s == me else still[s] for s in range(SEATS)}
    known[me] = list(view["hand"])
    # the first bidder holds no 5H and has laid none: it is in the pit
    in_pit = first == me and not five_seen and five in still[me]
    now = deal_unseen([c.id for c in DECK], dict(enumerate(view["counts"])), known,
                      [c for s in range(SEATS) for c in played[s]], rng)
    hands = [now[s] + played[s] for s in range(SEATS)]
    if pit is None:
        pool = [c for c in now[digger] if c != five or in_pit]
        rng.shuffle(pool)
        if in_pit and five in pool:
            pool.insert(0, pool.pop(pool.index(five)))
        pit = pool[:4] if len(pool) >= 4 else pool + rng.sample(played[digger], 4 - len(pool))
    hands[digger] = [c for c in hands[digger] if c not in pit]
    state = game.new_state(deal={"hands": hands, "pit": pit})
    if state.first_bidder != view["first_bidder"]:
        raise ValueError("the sample gives another first bidder")
    return replay(replay(state, view["bids"]), view["plays"])


#: the play is searched (bidding, and 4A4's 叉/勾 windows, are the rule bot's), each iteration
#: from a fresh :func:`determinize` of the seat's view; playouts by the rule bot
SEARCHER = DeterminizedSearcher("wakeng", WakengRuleBot, determinize, phases=("play",))
register_searcher(SEARCHER, WakengRuleBot)
