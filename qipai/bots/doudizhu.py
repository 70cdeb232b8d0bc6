"""The doudizhu rule bot: bids by a simple hand count, then plays the smallest combination that
beats the play on the table, keeps its bombs (and the rocket) unless they finish the hand or
nothing else is left, and never beats its partner's play. Reads only ``view(seat)`` and
``legal_actions(seat)``."""

from __future__ import annotations

import logging
import random
from typing import Any

from qipai.bots import register_bot
from qipai.bots.ismcts import HalvingSearcher, NoDeterminization, halving_search
from qipai.bots.mcts import check_time, result_values
from qipai.bots.search import register_searcher
from qipai.cards.sample import id_order, place_played, sample_hands, unseen
from qipai.games.doudizhu.bidding import DECK
from qipai.games.doudizhu.combos import ORDER, PACKER

log = logging.getLogger(__name__)


def hand_strength(ranks: str) -> int:
    """A crude count: big joker 4, small joker 3, each 2 two points, each A one point, each bomb 4."""
    score = 4 * ranks.count("B") + 3 * ranks.count("L") + 2 * ranks.count("2") + ranks.count("A")
    score += 4 * sum(1 for r in set(ranks) if ranks.count(r) == 4)
    return score


class DoudizhuRuleBot:
    """Smallest beating combination, bombs kept; see the module docstring."""

    name = "rule"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed                 # the rule bot is deterministic; the seed is kept for the API

    def choose(self, state: Any, seat: int) -> Any:
        view = state.view(seat)
        actions = state.legal_actions(seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        if view["phase"] == "bidding":
            return self._bid(view, actions)
        return self._play(view, seat, actions)

    def _bid(self, view: dict, actions: list) -> Any:
        strength = hand_strength(view["hand_ranks"])
        texts = {str(a): a for a in actions}
        if "call" in texts:
            return texts["call"] if strength >= 7 else texts["pass"]
        want = 3 if strength >= 10 else 2 if strength >= 7 else 1 if strength >= 4 else 0
        best = max((a for a in actions if getattr(a, "value", 0) and a.value <= want),
                   key=lambda a: a.value, default=None)
        return best if best is not None else texts["pass"]

    def _play(self, view: dict, seat: int, actions: list) -> Any:
        top = view["top"]
        return rule_play(actions, seat, len(view["hand_ranks"]), None if top is None else top["seat"],
                         view["landlord"])


def rule_play(actions: list, seat: int, left: int, top_seat: int | None, landlord: int) -> Any:
    """The rule bot's play among ``actions`` (``seat``'s legal set) for ``seat`` holding
    ``left`` cards, ``top_seat`` holding the trick (``None`` on a lead), ``landlord`` the
    landlord: see the module docstring."""
    plays = [a for a in actions if str(a) != PASS_TEXT]
    can_pass = len(plays) < len(actions)
    finishing = [p for p in plays if p.ncards == left]
    if finishing:
        return finishing[0]
    if can_pass and top_seat is not None and seat != landlord and top_seat != landlord:
        return next(a for a in actions if str(a) == PASS_TEXT)       # partner is winning
    normal = [p for p in plays if not p.is_bomb]
    if normal:
        if top_seat is None:
            return min(normal, key=lambda p: (p.key, -p.ncards, p.counts[::-1]))
        return min(normal, key=lambda p: (p.key, p.counts[::-1]))
    if can_pass:
        return next(a for a in actions if str(a) == PASS_TEXT)
    return min(plays, key=lambda p: (p.type == "rocket", p.key))


register_bot("doudizhu", "rule", DoudizhuRuleBot)


# ----- search (levels 3-5) -------------------------------------------------------------------
def determinize(game: Any, view: dict, rng: random.Random) -> Any:
    """A full doudizhu state that agrees with ``view`` (one seat's view during play): one draw
    of a :class:`Determinizer` of the view (a search prepares one per decision and draws from
    it at each iteration). Raises ``ValueError`` on a view that no deal agrees with."""
    return Determinizer(game, view)(rng)


class Determinizer:
    """The determinizations of one seat's view during play, prepared once per decision:
    ``Determinizer(game, view)(rng)`` is a full state agreeing with the view: the seat's own
    hand, the bids, the kitty, every play, the face-up card; the cards the seat has not seen
    are dealt at random (:func:`qipai.cards.sample.sample_hands`) into the other hands by their
    counts, fitting what the other seats' passes (:func:`pass_bounds`) and, under
    ``points_1_3``, bids (:func:`bid_brackets`) show as the rule bot reads them. Deals voided
    before this one (``redeals``) are stood in for by random deals that everybody passed.

    The passes and the bids are read as the rule bot passes and bids, and another player (a
    search bot's passes, a person) may contradict that reading, so that no deal fits both: a
    draw that does not fit is drawn again, at most :data:`DEAL_TRIES` deals in one
    determinization (then the last is kept), and a reading that fits fewer than one deal in
    :data:`RARE` over the decision's draws (or that no deal keeps) is dropped for the rest of
    the decision when a determinization runs out of tries, in the order of :attr:`readings`
    (``(passes, bids)``: both, the passes alone, the bids alone, none). A decision thus draws
    about one deal an iteration even when no deal fits the view (each determinization used to
    run out 30 tries at the bids of 20 at the passes each, 600 deals: a level-4 decision took
    a minute). ``draws`` counts the deals drawn, ``determinizations`` the states returned.
    Raises ``ValueError`` on a view that no deal agrees with."""

    def __init__(self, game: Any, view: dict) -> None:
        self.game, self.view = game, view
        me, lord = view["seat"], view["landlord"]
        labels: dict[int, list[str]] = {0: [], 1: [], 2: []}
        for entry in view["plays"]:
            if len(entry) == 3:
                labels[entry[0]] += entry[2]
        kitty = view["kitty"] or []
        face = view.get("face_up")
        # cards a seat is known to have held: the landlord's kitty, the face-up card; a play is
        # shown by its ranks (qipai.cards.table_ids), so its cards are stood in for by those
        # (place_played), and a known card not played is in its holder's hand now
        shown: dict[int, list[str]] = {0: [], 1: [], 2: []}
        if lord is not None:
            shown[lord] += kitty
        if face is not None and face["card"] not in shown[face["seat"]]:
            shown[face["seat"]].append(face["card"])
        played, still = place_played([c.id for c in DECK], {me: list(view["hand"])}, shown, labels,
                                     key=id_order(ORDER))
        known: dict[int, list[str]] = {s: [] if s == me else still[s] for s in range(3)}
        known[me] = list(view["hand"])
        self.known, self.played, self.kitty = known, played, kitty
        seen = [c for s in range(3) for c in known[s] + played[s]]
        self.hidden = unseen([c.id for c in DECK], seen)
        self.sizes = {s: view["counts"][s] - len(known[s]) for s in range(3) if s != me}
        if lord is None:                      # during bidding the kitty is hidden too
            self.sizes[-1] = 3
        # each seat's dealt cards that are not sampled: in its hand now, played, less the kitty
        self.fixed = {s: [c for c in known[s] + played[s] if s != lord or c not in kitty]
                      for s in range(3)}
        brackets = bid_brackets(view) if game.options["bidding"] == "points_1_3" else {}
        # a bound that the cards known in the seat's hand break is dropped (a seat that passed
        # by choice, not as the rule bot would)
        bounds = {s: b for s, b in pass_bounds(view).items() if not breaks_bound(known[s], b)}
        self.brackets, self.bounds = brackets, bounds
        self.top = {s: b.get(1, len(RANKS)) for s, b in bounds.items()}
        self.rank = {c: RANKS.index(c[0]) for c in self.hidden}
        #: the readings still fitted, most first: (passes, bids)
        self.readings = [r for r in ((True, True), (True, False), (False, True), (False, False))
                         if (bounds or not r[0]) and (brackets or not r[1])]
        self._fitted = {r: [0, 0] for r in self.readings}       # reading -> [draws, fits]
        self.draws = self.determinizations = 0

    def _allowed(self, place: Any, card: str) -> bool:
        return self.rank[card] <= self.top.get(place, len(RANKS))

    def _draw(self, passes: bool, rng: random.Random) -> dict[Any, list[str]]:
        """One deal of the unseen cards; ``passes``: a card above a seat's single bound never
        goes to it (``ValueError`` when no deal keeps that)."""
        self.draws += 1
        if passes and self.top:
            return sample_hands(self.hidden, self.sizes, rng, self._allowed, tries=3)
        return sample_hands(self.hidden, self.sizes, rng)

    def _fits(self, hands: dict[Any, list[str]], passes: bool, bids: bool) -> bool:
        if passes and any(breaks_bound(hands[s] + self.known[s], b) for s, b in self.bounds.items()):
            return False
        return not bids or all(lo <= hand_strength("".join(c[0] for c in self.fixed[s] + hands[s])) < hi
                               for s, (lo, hi) in self.brackets.items())

    def deal(self, rng: random.Random) -> dict[Any, list[str]]:
        """The unseen cards dealt (see the class docstring): ``{seat or -1 (the kitty): cards}``."""
        while True:
            reading = self.readings[0]
            fitted = self._fitted[reading]
            hands = None
            try:
                for _ in range(DEAL_TRIES):
                    hands = self._draw(reading[0], rng)
                    fitted[0] += 1
                    if self._fits(hands, *reading):
                        fitted[1] += 1
                        return hands
            except ValueError:               # no deal keeps the single bounds
                hands = None
            if hands is not None and fitted[1] * RARE >= fitted[0]:
                return hands                 # a reading that fits often enough: the last deal
            # (the last reading, none, fits every deal)
            log.debug("doudizhu: %d of %d deals fit the reading %s of the view; dropped",
                      fitted[1], fitted[0], reading)
            self.readings.pop(0)
            if not self.readings:            # not even a deal that reads nothing: a bad view
                raise ValueError("no deal of the unseen cards agrees with the view")

    def __call__(self, rng: random.Random) -> Any:
        view, lord, kitty = self.view, self.view["landlord"], self.kitty
        hands = self.deal(rng)
        self.determinizations += 1
        dealt = [[c for c in self.known[s] + hands.get(s, []) + self.played[s]
                  if s != lord or c not in kitty] for s in range(3)]
        deal = {"hands": dealt, "kitty": kitty if lord is not None else hands[-1],
                "first_bidder": view["first_bidder"]}
        face = view.get("face_up")
        if face is not None:
            deal["face_up"] = face["card"]
        deals = [_voided_deal(view["first_bidder"], view["redeals"] - k, face is not None, rng)
                 for k in range(view["redeals"])] + [deal]
        state = self.game.new_state(deal=deals)
        while state.redeals < view["redeals"]:
            state.apply(PASS_TEXT)
        for _, text in view["bids"]:
            state.apply(text)
        for entry in view["plays"]:
            state.apply(entry[1])
        return state


PASS_TEXT = "pass"
#: the deals one determinization draws to fit the passes and the bids before it keeps the last
DEAL_TRIES = 30
#: a reading of the passes and bids that fits fewer than one deal in RARE, over a decision's
#: draws, is dropped when a determinization runs out of tries (:class:`Determinizer`)
RARE = 8
#: the rule bot's bid by :func:`hand_strength`: bid k from BID_FROM[k - 1] on
BID_FROM = (4, 7, 10)


def bid_brackets(view: dict) -> dict[int, tuple[int, int]]:
    """What the other seats' bids (``points_1_3``) say of their dealt hands, read as the rule
    bot bids: ``{seat: (lo, hi)}``, the seat's :func:`hand_strength` at the bidding is at least
    ``lo`` and under ``hi``. A seat that bid k when k + 1 was open wanted exactly k (strength
    from ``BID_FROM[k - 1]`` to the next threshold); one that passed wanted less than the
    lowest bid open to it."""
    me = view["seat"]
    out: dict[int, tuple[int, int]] = {}
    high = 0
    for seat, text in view["bids"]:
        if text == PASS_TEXT:
            lo, hi = 0, BID_FROM[high] if high < 3 else 99
        elif text.startswith("bid "):
            k = int(text.split()[1])
            lo, hi = BID_FROM[k - 1], BID_FROM[k] if k < 3 else 99
            high = max(high, k)
        else:
            return {}
        if seat != me:
            out[seat] = (lo, hi)
    return out
#: the ranks of a card id's first letter, lowest first (L and B the jokers)
RANKS = "3456789TJQKA2LB"


def pass_bounds(view: dict) -> dict[int, dict[int, int]]:
    """What the other seats' passes say they did not hold, read as the rule bot passes: a seat
    that passed on an opponent's single, pair or trio (a peasant on the landlord's, the landlord
    on a peasant's) held no single, pair or trio (no kicker) above it that is not a bomb.
    Returns ``{seat: {n: rank}}``: at the pass the seat held no rank above ``rank`` (an index of
    :data:`RANKS`) ``n`` times or more (1: no card above it at all). A seat whose later plays
    contradict a bound (it played a card it was taken not to hold) gets none."""
    me, lord = view["seat"], view["landlord"]
    bounds: dict[int, dict[int, int]] = {}
    top = None
    passes = 0
    marks = []
    for i, entry in enumerate(view["plays"]):
        seat, text = entry[0], entry[1]
        if text != PASS_TEXT:
            top, passes = (seat, text), 0
            continue
        passes += 1
        if top is not None and seat != me and lord in (seat, top[0]) and len(set(top[1])) == 1 \
                and len(top[1]) <= 3 and top[1] != "LB":
            marks.append((i, seat, len(top[1]), RANKS.index(top[1][0])))
        if passes == 2:
            top, passes = None, 0
    dropped = set()
    for i, seat, n, rank in marks:
        later = [RANKS.index(c[0]) for entry in view["plays"][i + 1:] if entry[0] == seat
                 and len(entry) == 3 for c in entry[2]]
        if any(later.count(r) >= n for r in set(later) if r > rank):
            dropped.add(seat)
        b = bounds.setdefault(seat, {})
        b[n] = min(b.get(n, rank), rank)
    return {s: b for s, b in bounds.items() if s not in dropped}


def breaks_bound(cards: list[str], bound: dict[int, int]) -> bool:
    """Whether ``cards`` hold a rank above a :func:`pass_bounds` bound as often as it counts."""
    ranks = [RANKS.index(c[0]) for c in cards]
    return any(ranks.count(r) >= n for n, lim in bound.items() for r in set(ranks) if r > lim)


def _voided_deal(first: int, back: int, faceup: bool, rng: random.Random) -> dict:
    """A random deal standing for a voided one ``back`` deals before the current one, whose
    first bidder is ``first``: the seat ``back`` places before it."""
    cards = [c.id for c in DECK]
    rng.shuffle(cards)
    bidder = (first - back) % 3
    hands = [cards[s * 17:(s + 1) * 17] for s in range(3)]
    out = {"hands": hands, "kitty": cards[51:], "first_bidder": bidder}
    if faceup:
        out["face_up"] = hands[bidder][0]
    return out


class DoudizhuSearcher(HalvingSearcher):
    """Doudizhu's bids and plays are searched by sequential halving over the seat's
    :meth:`candidates` with common samples (:class:`~qipai.bots.ismcts.HalvingSearcher`, wakeng's
    scheme): every candidate still in the race is played out from the same determinizations (a
    :class:`Determinizer` of the seat's view, prepared once a decision; during the bidding the
    other hands and the kitty are dealt from the cards the seat does not hold, fitting the bids
    before it) and the better half goes on; the rule bot's bid or play is the first candidate,
    races to the end, and is left only for one better on the same samples by :attr:`margin`
    standard errors of the paired differences. A playout is the rule bot in every seat to the end
    of the deal (the rest of the bidding from its view, the play read from the state by
    :meth:`rule_play`), with no random play. A play is valued by the deal won or lost, a bid by
    the deal's points (the bid sets the stake).

    Why: docs/bots.md, "Doudizhu level 3 by halving, 2026-12-08"."""

    game_id = "doudizhu"
    rule_bot = DoudizhuRuleBot
    phases = ("bidding", "play")
    #: the values of the decision searched now are the deal's points (a bid), not won or lost
    points = False

    def root_states(self, game, inputs: dict):
        """Draws of a :class:`Determinizer` of the view; a view that no deal agrees with raises
        :class:`~qipai.bots.ismcts.NoDeterminization` (the rule bot answers then)."""
        self._policy = None
        try:
            determinizer = Determinizer(game, inputs["view"])
        except ValueError as e:
            raise NoDeterminization(str(e)) from e

        def root(rng: random.Random) -> Any:
            try:
                return determinizer(rng)
            except ValueError as e:
                raise NoDeterminization(str(e)) from e
        return root

    def search(self, roots: Any, seat: int, budget: Any, rng: random.Random) -> Any:
        """:func:`~qipai.bots.ismcts.halving_search` with the margin; a bid is raced by the
        deal's points (:attr:`points`), a play by the deal won or lost."""
        def marked(r: random.Random) -> Any:
            state = roots(r)
            self.points = state.phase == "bidding"
            return state
        return halving_search(self, marked, seat, budget, rng, self.margin)

    def rule_play(self, state, seat: int, actions: list) -> Any:
        """:func:`rule_play` read from the state (the bidding: ``None``, the rule bot's view)."""
        if state.phase != "play":
            return None
        return rule_play(actions, seat, PACKER.total(state.codes[seat]), state.top_seat, state.landlord)

    def candidates(self, state, seat: int) -> list:
        """The rule bot's play first, then the other legal plays, one kicker choice per main
        part, in the rule bot's order: a lead by (bomb last, rank, longest first); an answer by
        rank with bombs last and the pass before the bombs, or first when the partner's play is
        on the table. Of the plays that differ only in their kickers, the one whose ranks break
        the fewest groups of the hand (a single taken from a pair, a pair from a trio), then the
        lowest, is kept (the rule bot's own play kept too, whatever its kickers)."""
        actions = state.legal_actions(seat)
        if state.phase == "bidding" and len(actions) > 1:
            first = self.playout_bot().choose(state, seat)      # the rule bot's bid, from the view
            return [first, *(a for a in actions if str(a) != str(first))]
        if state.phase != "play" or len(actions) <= 1:
            return actions
        first = self.rule_play(state, seat, actions)
        held = PACKER.counts(state.codes[seat])
        best: dict[tuple[str, str], tuple[tuple[int, int], Any]] = {}
        passes = []
        for a in actions:
            if str(a) == PASS_TEXT:
                passes.append(a)
                continue
            cost = (sum(1 for r, n in a.parts if held[r] != n), sum(r * n for r, n in a.parts))
            key = (a.type, a.main)
            if key not in best or cost < best[key][0]:
                best[key] = (cost, a)
        plays = sorted((a for _, a in best.values()), key=lambda p: (p.is_bomb, p.key, -p.ncards))
        normal = [p for p in plays if not p.is_bomb]
        bombs = plays[len(normal):]
        if not passes:
            order = plays
        elif seat != state.landlord and state.top_seat != state.landlord:
            order = passes + normal + bombs
        else:
            order = normal + passes + bombs
        return [first, *(a for a in order if str(a) != str(first))]

    def playout(self, state, rng: random.Random) -> list[float]:
        """The rule bot in every seat to the end of the deal (:func:`rule_play`, inlined: the
        pass is the first answer when there is a play to beat)."""
        while not state.is_terminal():
            check_time()
            seat = state.turn
            if state.phase != "play":                 # the bidding: the rule bot, from the view
                state.apply(self.playout_bot().choose(state, seat), seat)
                continue
            actions = state.legal_actions(seat)
            left = PACKER.total(state.codes[seat])
            top = state.top
            plays = actions if top is None else actions[1:]
            action = next((p for p in plays if p.ncards == left), None)
            if action is None:
                if top is not None and seat != state.landlord and state.top_seat != state.landlord:
                    action = actions[0]
                else:
                    normal = [p for p in plays if not p.is_bomb]
                    if normal:
                        if top is None:
                            action = min(normal, key=lambda p: (p.key, -p.ncards, p.counts[::-1]))
                        else:
                            action = min(normal, key=lambda p: (p.key, p.counts[::-1]))
                    elif top is not None:
                        action = actions[0]
                    else:
                        action = min(plays, key=lambda p: (p.type == "rocket", p.key))
            state.apply(action, seat)
        return self.terminal_values(state)

    def terminal_values(self, state) -> list[float]:
        """Won 1, lost 0 in a race of plays; the points (the deal's returns) in a race of bids,
        whose stake they change (:attr:`points`, set by :meth:`search` at each root state)."""
        if self.points:
            return [float(r) for r in state.result.returns]
        return result_values(state)


#: the bids and plays are searched, see :class:`DoudizhuSearcher`
SEARCHER = DoudizhuSearcher()
register_searcher(SEARCHER, DoudizhuRuleBot)
