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

import json
import math
import random
from collections import Counter
from functools import cache
from typing import Any

from qipai.bots import register_bot
from qipai.bots.ismcts import DeterminizedSearcher, halving_search
from qipai.bots.search import register_searcher
from qipai.cards.card import make_deck
from qipai.cards.sample import deal_unseen, fill, unseen
from qipai.core.errors import IllegalAction
from qipai.games.shengji import combos as cb
from qipai.games.shengji.actions import Action, parse_action
from qipai.games.shengji.trump import FACE_POINTS, TRUMP, Trump, face_points, trump_of

SAMPLE = 150            # candidate plays examined when the legal set is larger
#: candidate follows a playout's rule bot examines (the tree's rule bot play examines SAMPLE)
PLAYOUT_SAMPLE = 30
#: whole shuffles a determinization tries before it fills the most constrained places first (a
#: plain kitty and the voids reject nearly every shuffle: more would only cost time)
SHUFFLES = 4


def _spread(actions, n: int) -> list:
    total = len(actions)
    if total <= n:
        return list(actions)
    step = total / n
    at = [int(i * step) for i in range(n)]
    # a lazy legal set picks them in one walk, not one unranking each
    return actions.pick(at) if hasattr(actions, "pick") else [actions[i] for i in at]


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
        trump = trump_of(view["level"], None if view["trump"] == "NT" else view["trump"],
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

    def _follow(self, view: dict, seat: int, actions, trump: Trump, sample: int = SAMPLE) -> Action:
        trick = view["trick"]
        single = len(trick[0][1]) == 1          # a one-card lead: a contender's key is its pos
        lead_suit = trump.eff[trick[0][1][0]]
        win_seat = view["winning"]
        win_cards = next(fs for s, fs in trick if s == win_seat)
        win_suit = trump.eff[win_cards[0]]
        cands = _spread(actions, sample)
        keys = trump.sort_keys

        def cost(a: Action) -> tuple:
            return (sum(FACE_POINTS[f] for f in a.faces), sorted(keys[f] for f in a.faces))

        def most(a: Action) -> tuple:
            points, low = cost(a)
            return (points, [(-k[0], -k[1], -k[2]) for k in low])

        if win_seat % 2 == seat % 2:
            return max(cands, key=most)
        if single:
            fmt, win_key = None, (trump.pos[win_cards[0]],)
        else:
            fmt = cb.format_of(cb.decompose(cb.counts(trick[0][1]), trump.pos))
            win_key = cb.contender_key(cb.counts(win_cards), trump.pos, fmt)
        winners = []
        for a in cands:
            suits = {trump.eff[f] for f in a.faces}
            if len(suits) != 1:
                continue
            s = suits.pop()
            if s not in (lead_suit, TRUMP):
                continue
            key = (trump.pos[a.faces[0]],) if single else \
                cb.contender_key(cb.counts(a.faces), trump.pos, fmt)
            if key is None:
                continue
            if (s == TRUMP and win_suit != TRUMP) or (s == win_suit and key > win_key):
                winners.append(a)
        if winners:
            return min(winners, key=lambda a: sorted(keys[f] for f in a.faces)[::-1])
        return min(cands, key=cost)


register_bot("shengji", "rule", ShengjiRuleBot)


# ----- search (levels 3-5) -------------------------------------------------------------------
BURIED = "buried"


class _NoDeal(ValueError):
    """No deal of the unseen cards keeps every constraint of a view."""


def determinize(game: Any, view: dict, rng: random.Random, infer: bool = True) -> Any:
    """A full 升级 hand agreeing with ``view`` (one seat's view during play): a play-phase
    position (:meth:`~qipai.games.shengji.state.ShengjiState._setup_position`) whose hands are
    what each seat held when play began — its cards now and those it played — and whose kitty
    is the buried cards, with every trick replayed (a failed throw is attempted again, and
    must fail the same way). The seat's own hand, and the buried cards when it is the dealer,
    are its own; the unseen cards (by face, several packs) are dealt at random into the other
    hands by their counts and into the kitty (:func:`qipai.cards.sample.deal_unseen`; an unseen
    kitty of side cards without points when the unseen cards allow it, as a dealer buries), never
    giving a seat a card of an effective suit it showed void in (it followed a lead of that
    suit short) nor a pair in a suit where it followed a lead's pairs with fewer (nor a second
    copy of a card of that suit it played since), nor a card that would have beaten a throw it
    let stand (:func:`_unbeaten_throws`), nor (``infer``) a card the rule bot would have
    played instead of its follow to a one-card lead (:func:`_rule_follows`) or that its lead
    shows it did not hold (:func:`_rule_lead`; both readings dropped for a sample when no deal
    keeps them, and for the view after :data:`UNREAD` samples in a row refused by the replay:
    a person's plays), and keeping with their seats the cards of a
    declaration not yet played (the dealer's, and kitty cards turned up, may be in its hand or
    buried), and the cards of a failed throw not played with the thrower. The deal's public
    record (declarations, trump's name, the turned-up kitty cards) is copied from the view.
    Raises ``ValueError`` (or the game's errors) for a sample the replay refuses."""
    if view["phase"] == "bury":
        return _bury_sample(game, view, rng)
    read = _READ[0]
    if infer and not (read is not None and read[0] is view and read[2] >= UNREAD):
        try:
            state = _determinize(game, view, rng, True)
        except _NoDeal:
            pass            # the seats did not play as the rule bot would (a person): unread
        except (ValueError, IllegalAction):
            read = _READ[0]
            if read is not None and read[0] is view:
                read[2] += 1        # the readings of this view missed once more
            raise
        else:
            read = _READ[0]
            if read is not None and read[0] is view:
                read[2] = 0
            return state
    return _determinize(game, view, rng, False)


def _determinize(game: Any, view: dict, rng: random.Random, infer: bool) -> Any:
    """:func:`determinize` of a play-phase view, the rule bot's plays read when ``infer``;
    raises :class:`_NoDeal` when no deal keeps the constraints."""
    from qipai.games.shengji.seats import SEATS

    me, dealer = view["seat"], view["dealer"]
    trump = trump_of(view["level"], None if view["trump"] == "NT" else view["trump"],
                     game.options["two_always_trump"])
    tricks = [t["plays"] for t in view["tricks"]] + ([view["trick"]] if view["trick"] else [])
    played: dict[int, Counter] = {s: Counter() for s in range(SEATS)}
    voids: dict[Any, set[str]] = {s: set() for s in range(SEATS)}
    no_pair: dict[int, set[str]] = {s: set() for s in range(SEATS)}
    single: dict[Any, set[str]] = {s: set() for s in (*range(SEATS), BURIED)}   # no second copy
    shown: dict[int, Counter] = {s: Counter() for s in range(SEATS)}   # a failed throw's rest
    throws = {(x["trick"], x["seat"]): x for x in view["failed_throws"]}
    inferred: dict[int, set[str]] = {s: set() for s in range(SEATS)}
    leads: dict[int, tuple[set[str], set[str], set[str]]] = {}
    if infer:
        inferred, leads = _readings(view, tricks, throws, trump, game.options["decks"])
        inferred = {s: set(b) for s, b in inferred.items()}
    for k, plays in enumerate(tricks, start=1):
        lead = trump.eff[plays[0][1][0]]
        n = len(plays[0][1])
        pairs = _pairs(plays[0][1])
        if k in leads:
            leader = plays[0][0]
            voids[leader] |= leads[k][0]
            no_pair[leader] |= leads[k][1]
            inferred[leader] |= leads[k][2]
        for s, faces in plays:
            played[s].update(faces)
            shown[s] -= Counter(faces)
            if (k, s) in throws:
                shown[s] |= Counter(throws[(k, s)]["attempted"]) - Counter(faces)
            if sum(trump.eff[f] == lead for f in faces) < n:
                voids[s].add(lead)
            if _pairs([f for f in faces if trump.eff[f] == lead]) < pairs:
                no_pair[s].add(lead)          # it played every pair of the suit it held
            single[s].update(f for f in faces if trump.eff[f] in no_pair[s])
    voids[BURIED] = set()
    unheld = _unbeaten_throws(tricks, throws, trump, game.options["decks"], SEATS)
    known: dict[Any, list[str]] = {s: [] for s in (*range(SEATS), BURIED)}
    declared: dict[int, Counter] = {s: Counter() for s in range(SEATS)}
    for d in view["declarations"]:
        declared[d["seat"]] |= Counter(d["cards"])       # a later declaration may show them again
    counts: dict[Any, int] = dict(enumerate(view["counts"]))
    buried = view["buried"]
    counts[BURIED] = game.options["kitty_size"] if buried is None else len(buried)
    known[BURIED] = list(buried or [])
    share = counts[BURIED] / (counts[BURIED] + counts[dealer])
    maybe: list[str] = []          # the dealer's cards shown since the deal: held or buried
    for s in range(SEATS):
        if s == me:
            continue
        sure = shown[s] | (declared[s] - played[s])
        if s == dealer and buried is None:
            # the dealer's declared cards, and kitty cards turned up, may have been buried
            maybe = list(((declared[s] + Counter(view["kitty_shown"])) - played[s] - shown[s]).elements())
            sure = shown[s]
        known[s] += list(sure.elements())
    known[me] = list(view["hand"])
    for place in list(known):
        if place != me and len(known[place]) > counts[place]:
            raise ValueError("more cards known in a place than it holds")

    plain_kitty = [True]           # the dealer buried side cards without points, if it can be
    eff = trump.eff
    barred = {p: {f for f in eff if eff[f] in voids[p] or f in single[p]} | unheld.get(p, set())
              | inferred.get(p, set()) for p in voids}
    marked = {f for f in eff if eff[f] == TRUMP or FACE_POINTS[f]}     # a trump or points

    def allowed(place: Any, face: str) -> bool:
        if place == BURIED and plain_kitty[0] and face in marked:
            return False
        return face not in barred[place]

    pack = _pack(game.options["decks"])
    gone = [f for s in range(SEATS) for f in played[s].elements()]
    others = [s for s in range(SEATS) if s != me] + ([BURIED] if buried is None else [])
    try:
        # most samples: each of the dealer's shown cards is buried in the kitty's share of its
        # cards, the rest dealt by shuffles, a seat's pairs then broken by swaps
        split = {place: [] for place in known}
        for f in maybe:
            split[BURIED if rng.random() < share else dealer].append(f)
        try:
            now = deal_unseen(pack, counts, {p: split[p] + known[p] for p in known}, gone, rng,
                              allowed, tries=SHUFFLES, complete=False)
        except ValueError:
            plain_kitty[0] = False
            now = deal_unseen(pack, counts, {p: split[p] + known[p] for p in known}, gone, rng,
                              allowed, tries=SHUFFLES, complete=False)
        _part_pairs(now, others, {s: no_pair[s] for s in range(SEATS) if s != me}, trump.eff, allowed, rng,
                    {p: len(split[p]) + len(known[p]) for p in known})
    except ValueError:
        # a view those miss nearly always (the dealer's shown cards all held, a seat's last
        # cards tied by its voids and pairs): a deal that keeps every constraint at once
        plain_kitty[0] = True
        try:
            now = _fill(pack, counts, known, maybe, gone, others, dealer, no_pair, trump.eff, allowed,
                        plain_kitty, rng)
        except ValueError as e:
            raise _NoDeal(str(e)) from e
    hands = [now[s] + list(played[s].elements()) for s in range(SEATS)]
    leader = tricks[0][0][0] if tricks else view["to_act"][0]
    state = _sampled_state(game, view, hands, now[BURIED], dealer, leader)
    for k, plays in enumerate(tricks, start=1):
        for i, (s, faces) in enumerate(plays):
            throw = throws.get((k, s)) if i == 0 else None
            state.apply(Action("play", tuple(throw["attempted"] if throw else faces)), s)
            if throw and state.failed_throws[-1:] != [throw]:
                raise ValueError("the sample does not break the throw the same way")
    if state.failed_throws != view["failed_throws"] or state.penalty != view["penalty"]:
        raise ValueError("the sample breaks a throw the view saw succeed")
    return state


def _bury_sample(game: Any, view: dict, rng: random.Random) -> Any:
    """A whole hand at the dealer's bury agreeing with its ``view``: its hand (the kitty taken
    up) as it is, the unseen cards dealt at random into the three other hands, each keeping
    the cards it declared (:func:`determinize` for the play)."""
    from qipai.games.shengji.seats import SEATS

    me = view["seat"]
    declared: dict[int, Counter] = {s: Counter() for s in range(SEATS) if s != me}
    for d in view["declarations"]:
        if d["seat"] != me:
            declared[d["seat"]] |= Counter(d["cards"])
    known = {s: list(c.elements()) for s, c in declared.items()}
    counts = {s: view["counts"][s] for s in declared}
    now = deal_unseen(_pack(game.options["decks"]), counts, known, view["hand"], rng)
    size = view["counts"][(me + 1) % SEATS]
    mine = list(view["hand"])
    hands = [mine[:size] if s == me else now[s] for s in range(SEATS)]
    state = _sampled_state(game, view, hands, mine[size:], me, me)
    state.unbury()
    return state


def _sampled_state(game: Any, view: dict, hands: list[list[str]], buried: list[str], dealer: int,
                   leader: int) -> Any:
    """The play-phase position of a sample, before its first lead: the ``hands`` as play began
    and the ``buried`` cards, with the deal's public record (declarations, trump's name, the
    turned-up kitty cards) copied from ``view``."""
    position = {"hands": hands, "buried": buried, "level": view["level"], "trump": view["trump"],
                "dealer": dealer, "leader": leader, "levels": view["levels"]}
    state = game.new_state(position=json.dumps(position))
    state.p = view["deal_start"]
    state.declarations = [dict(d, cards=tuple(d["cards"])) for d in view["declarations"]]
    state.kitty_shown = list(view["kitty_shown"])
    state.trump_name = view["trump_name"]
    return state


def bury_candidates(state: Any, seat: int) -> list[Action]:
    """The buries a search considers for the dealer ``seat`` (the rule bot's first, then the
    others that differ): the kitty's size of cards taken in orders that put first the rule
    bot's choice (trumps and points last, the shortest side suits first, then the lowest
    cards), the lowest cards whatever their suit, cards not in a pair, no ace or king, points
    allowed; and each side suit short enough to be buried whole (a void), alone or with another,
    the rest in the rule bot's order."""
    n = state.kitty_size
    trump = state.trump
    eff, pos = trump.eff, trump.pos
    hand = state.hand_faces(seat)
    held = Counter(hand)
    length = Counter(eff[f] for f in hand)

    def rule(f: str) -> tuple:
        return (eff[f] == TRUMP, face_points(f) > 0, length[eff[f]], pos[f])

    orders = [rule,
              lambda f: (eff[f] == TRUMP, face_points(f) > 0, pos[f]),
              lambda f: (eff[f] == TRUMP, face_points(f) > 0, held[f] > 1, length[eff[f]], pos[f]),
              lambda f: (eff[f] == TRUMP, face_points(f) > 0, f[0] in "AK", length[eff[f]], pos[f]),
              lambda f: (eff[f] == TRUMP, length[eff[f]], pos[f])]
    side = sorted((s for s in length if s != TRUMP and length[s] <= n), key=lambda s: length[s])
    voids = [{s} for s in side] + [{a, b} for i, a in enumerate(side) for b in side[i + 1:]
                                   if length[a] + length[b] <= n]
    for v in voids:
        orders.append(lambda f, v=v: (eff[f] not in v,) + rule(f))
    first = _RULE._bury({"hand": list(hand), "legal": {"count": n}}, trump)
    out = [first]
    seen = {first.faces}
    for key in orders:
        a = Action("bury", tuple(sorted(hand, key=key)[:n]))
        if a.faces not in seen:
            seen.add(a.faces)
            out.append(a)
    return out


@cache
def _pack(decks: int) -> tuple[str, ...]:
    """The faces of a fresh pack of ``decks`` decks, in pack order."""
    return tuple(c.face for c in make_deck(decks))


def _fill(pack: tuple[str, ...], counts: dict[Any, int], known: dict[Any, list[str]], maybe: list[str],
          gone: list[str], others: list[Any], dealer: int, no_pair: dict[int, set[str]],
          eff: dict[str, str], allowed: Any, plain_kitty: list[bool],
          rng: random.Random) -> dict[Any, list[str]]:
    """What each place holds, dealt by :func:`qipai.cards.sample.fill` (found whenever such a
    deal exists): the ``known`` cards in their places, the dealer's shown cards ``maybe`` in its
    hand or the kitty, the unseen ones in the ``others`` places, every card where ``allowed``
    lets it be (a plain kitty first) and no seat given a pair in a suit of its ``no_pair``.
    Raises ``ValueError`` when no deal does."""
    hidden: list[Any] = unseen(pack, [f for p in counts for f in known[p]] + gone + maybe)
    hidden += [(f,) for f in maybe]                 # one of the dealer's: (face,)
    sizes = {p: counts[p] - len(known[p]) for p in others}

    def fits(place: Any, card: Any) -> bool:
        if isinstance(card, tuple):
            return place in (dealer, BURIED) and allowed(place, card[0])
        return allowed(place, card)

    def most(place: Any, face: Any) -> int | None:
        if place in no_pair and eff[face] in no_pair[place]:
            return 1 - known[place].count(face)
        return None

    def face(card: Any) -> str:
        return card[0] if isinstance(card, tuple) else card

    try:
        dealt = fill(hidden, sizes, rng, fits, most, face)
    except ValueError:
        plain_kitty[0] = False
        dealt = fill(hidden, sizes, rng, fits, most, face)
    now = {p: list(cards) for p, cards in known.items()}
    for p in others:
        now[p] += [face(c) for c in dealt[p]]
    return now


def _unbeaten_throws(tricks: list[list], throws: dict, trump: Any, decks: int,
                     seats: int) -> dict[int, set[str]]:
    """The cards each seat cannot hold, by the throws it could not beat (§3.6): every component
    of a throw that stood, and of a failed one those with a lower top than the component it was
    cut to. No other seat held a higher card of the suit than a single of them, nor a pair
    higher than a pair of them; cards leave a hand and never come back, so it holds none of
    those now, nor another copy of such a card it played since. (A failed throw's beaten
    component, and tractors, are left to the replay.)"""
    out: dict[int, set[str]] = {s: set() for s in range(seats)}
    eff, pos = trump.eff, trump.pos
    for k, plays in enumerate(tricks, start=1):
        thrower, faces = plays[0]
        throw = throws.get((k, thrower))
        if throw is None and len(set(faces)) < 2:        # a single, a pair: no throw
            continue
        comps = cb.decompose(Counter(throw["attempted"] if throw else faces), pos, decks)
        if len(comps) < 2:
            continue
        cut = max(pos[f] for f in throw["forced"]) if throw else None
        for c in comps:
            if (cut is not None and c.top >= cut) or c.kind not in ("single", "pair"):
                continue
            suit = eff[c.faces[0]]
            higher = {f for f in eff if eff[f] == suit and pos[f] > c.top}
            for o in range(seats):
                if o == thrower:
                    continue
                if c.kind == "single":
                    out[o] |= higher
                else:
                    since = {f for t in tricks[k - 1:] for s, fs in t if s == o for f in fs}
                    out[o] |= higher & since
    return out


def _rule_follows(tricks: list[list], trump: Any, me: int, seats: int) -> dict[int, set[str]]:
    """The cards each other seat did not hold, read from its follows to one-card leads as the
    rule bot chooses them (:meth:`ShengjiRuleBot._follow`): when its partner was winning, the
    card with the most points, then the lowest: it held no card (of the led suit, or of any
    suit when void in it) with more points, nor one as rich and lower; otherwise the lowest
    card that took the trick: it held no lower one that would have; or, when it did not take
    it, none that would have and none with fewer points (then lower). A seat held none of them
    when it played, and cards never come back: it holds none now. Against the rule bot (and
    the search's playouts are the rule bot) these are what its plays show."""
    out: dict[int, set[str]] = {s: set() for s in range(seats)}
    eff, pos, keys = trump.eff, trump.pos, trump.sort_keys
    faces = list(eff)
    for plays in tricks:
        if len(plays[0][1]) != 1:
            continue
        lead = eff[plays[0][1][0]]
        win_seat, win = plays[0][0], plays[0][1][0]
        for s, (c,) in ((s, fs) for s, fs in plays[1:]):
            wsuit, wpos = eff[win], pos[win]
            own = [f for f in faces if eff[f] == lead] if eff[c] == lead else faces
            if s != me:
                if win_seat % 2 == s % 2:
                    out[s] |= {f for f in own if FACE_POINTS[f] > FACE_POINTS[c]
                               or (FACE_POINTS[f] == FACE_POINTS[c] and keys[f] < keys[c])}
                else:
                    winners = {f for f in own if eff[f] in (lead, TRUMP) and (
                        (eff[f] == TRUMP and wsuit != TRUMP) or (eff[f] == wsuit and pos[f] > wpos))}
                    if c in winners:
                        out[s] |= {f for f in winners if keys[f] < keys[c]}
                    else:
                        cheap = (FACE_POINTS[c], keys[c])
                        out[s] |= winners | {f for f in own if (FACE_POINTS[f], keys[f]) < cheap}
            if (eff[c] == TRUMP and wsuit != TRUMP) or (eff[c] == wsuit and pos[c] > wpos):
                win_seat, win = s, c
    return out


_LEAD_ORDER = {"S": 0, "H": 1, "C": 2, "D": 3}
#: ``[view, readings, refused]``: the last view read by :func:`_readings`, what was read (a
#: search determinizes one view a hundred times and more) and its samples refused in a row
#: since the last one kept (one list, replaced whole)
_READ: list[Any] = [None]
#: a view whose samples with the readings the replay refused this many times in a row is
#: sampled without them (the seats did not play as the rule bot would: no deal agrees)
UNREAD = 8


def _readings(view: dict, tricks: list[list], throws: dict, trump: Any,
              decks: int) -> tuple[dict[int, set[str]], dict[int, tuple[set[str], set[str], set[str]]]]:
    """What the other seats' plays show as the rule bot's (:func:`_rule_follows`, and
    :func:`_rule_lead` by trick number, a throw's trick left out), for :func:`determinize`;
    kept for the same view object (not to be changed by the caller)."""
    read = _READ[0]
    if read is not None and read[0] is view:
        return read[1]
    me = view["seat"]
    follows = _rule_follows(tricks, trump, me, len(view["counts"]))
    leads = {}
    for k, plays in enumerate(tricks, start=1):
        leader = plays[0][0]
        if leader != me and (k, leader) not in throws:
            reading = _rule_lead(plays[0][1], trump, decks)
            if reading is not None:
                leads[k] = reading
    _READ[0] = [view, (follows, leads), 0]
    return follows, leads


def _rule_lead(faces: Any, trump: Any, decks: int) -> tuple[set[str], set[str], set[str]] | None:
    """What the rule bot's lead ``faces`` shows of the hand it led from
    (:meth:`ShengjiRuleBot._lead`: side tractors, then side pairs, then a side suit's top card
    if a king or higher, then the lowest side single; trumps last): the effective suits it held
    none of, those it held no pair in, and the faces it did not hold. A trump lead: no side card
    at all. A side single: no side pair; if below a king, no side card of a king or higher and
    none lower (nor as low in a suit the rule bot looks at first); else none higher of its suit.
    ``None`` for a pair or a tractor (little is read) and for a throw."""
    eff, pos = trump.eff, trump.pos
    side = {s for s in _LEAD_ORDER if any(eff[f] == s for f in eff)}
    suit = eff[faces[0]]
    if suit == TRUMP:
        if any(eff[f] != TRUMP for f in faces) or len(cb.decompose(Counter(faces), pos, decks)) != 1:
            return None
        return side, set(), set()
    if len(faces) != 1:
        return None
    c = faces[0]
    p = pos[c]
    if p >= 10:
        return set(), side, {f for f in eff if eff[f] == suit and pos[f] > p}
    return set(), side, {f for f in eff if eff[f] in side and (
        pos[f] >= 10 or pos[f] < p or (pos[f] == p and _LEAD_ORDER[eff[f]] < _LEAD_ORDER[suit]))}


def _pairs(faces: list[str] | tuple[str, ...]) -> int:
    """The pairs among ``faces`` (two copies of a face; three copies count as one pair)."""
    return sum(c // 2 for c in Counter(faces).values())


def _part_pairs(now: dict[Any, list[str]], places: list[Any], no_pair: dict[int, set[str]],
                eff: dict[str, str], allowed: Any, rng: random.Random, fixed: dict[Any, int]) -> None:
    """Break, in ``now``, the pairs a seat cannot hold (``no_pair``: the effective suits in which
    it showed it held none): one card of each such pair is swapped with a card of another of the
    sampled ``places`` that keeps both places within what they may hold. The first ``fixed[p]``
    cards of a place are known to be there and stay. Raises ``ValueError`` when none fits."""
    for s, suits in no_pair.items():
        for _ in range(30):
            held = Counter(f for f in now[s] if eff[f] in suits)
            bad = [f for f, c in held.items() if c >= 2]
            if not bad:
                break
            f = rng.choice(bad)
            at = [i for i in range(fixed[s], len(now[s])) if now[s][i] == f]
            swaps = [(p, i) for p in places if p != s for i in range(fixed[p], len(now[p]))
                     if (g := now[p][i]) != f and allowed(s, g) and allowed(p, f)
                     and not (eff[g] in suits and held[g])
                     and not (p in no_pair and eff[f] in no_pair[p] and f in now[p])]
            if not swaps or not at:
                raise ValueError("no deal keeps the seats' pairs as they showed")
            p, i = rng.choice(swaps)
            now[p][i], now[s][at[0]] = f, now[p][i]
        else:
            raise ValueError("no deal keeps the seats' pairs as they showed")


class ShengjiSearcher(DeterminizedSearcher):
    """The bury and the play are searched (declarations are the rule bot's) by sequential halving
    over the seat's candidates (:func:`~qipai.bots.ismcts.halving_search`): in each round
    every candidate still in the race is played out from the same fresh determinizations
    (:func:`determinize`), and the better half goes on. A candidate is played out to the end of
    the hand by the rule bot in every seat (read from the state: a lead from the hand alone, a
    follow to a one-card lead among the distinct faces, another among 30 plays spread over the
    legal set, a short follow without the legal set), with no random play, and valued by the
    hand's score: the attackers' total with the kitty's bonus and the penalties
    (logistic around 40 points a pack, 10 points a pack ≈ 0.73).

    Candidates: the rule bot's play first, then as a lead each single, pair, triple and
    tractor of the hand (:func:`lead_candidates`; no throws), as a follow up to :attr:`width`
    legal plays spread over the legal set (a follow may have thousands), as the dealer's bury
    a few other kitties (:func:`bury_candidates`, each sample dealing the three other hands).
    The rule bot's choice is kept unless the race's winner beats it in a duel on fresh samples
    (:attr:`duel`): many of the race's wins are by a few thousandths of mean value, luck of
    the race's samples more than knowledge.

    Why (docs/bots.md, "Shengji's level 3 plays its hands out"): the tree search before cut its
    playouts after 9 tricks and valued the rest by a heuristic (the kitty, doubled or more for
    the last trick, is most of what decides a close hand), its tree gave the other seats' turns
    up to 25 spread plays each (their rule-bot plays then weighed as much as a random one), and
    300 playouts over 25 candidates, each from another deal, could not tell two plays apart."""

    max_plies = 400             # to the end of the hand (100 plies at most)
    epsilon = 0.0               # the other seats are rule bots: no random play in a playout

    #: a follow's candidates: the rule bot's play first, then up to this many others
    width = 24
    #: the rule bot's play is kept unless another is shown better (:func:`halving_search`): the
    #: share of the budget left for the duel of the race's winner against it, and the standard
    #: errors its paired mean difference must clear
    duel: tuple[float, float] | None = (0.4, 1.5)
    #: instead of the duel, the race's margin (:func:`halving_search`): the rule bot's play
    #: races to the end and is kept unless the best other beats it by this many standard errors
    margin: float | None = None

    def search(self, roots: Any, seat: int, budget: Any, rng: random.Random) -> Any:
        return halving_search(self, roots, seat, budget, rng, self.margin)

    def resolver(self, state: Any, seat: int) -> Any:
        """The legal set is never listed: it can be huge (the bury: every kitty of the dealer's
        hand, millions with two decks; a follow by a seat void in the led suit: any cards of its
        count, over a million against a two-deck tractor), and the look-up is made on a live
        table's event loop. A text is legal when it parses and a copy of the state, taken now,
        accepts it, as the referee checks a person's play."""
        snapshot = state.clone()
        decks = state.game.options["decks"]

        def legal(text: str) -> Action | None:
            try:
                action = parse_action(text, decks)
                if not isinstance(action, Action):
                    return None
                snapshot.clone().apply(action, seat)
            except IllegalAction:
                return None
            return action
        return legal

    def candidates(self, state: Any, seat: int) -> list[Any]:
        """The rule bot's play first, then as a lead :func:`lead_candidates`, as a follow up to
        :attr:`width` other legal plays spread over the legal set (the game's lazy sequence:
        only the plays picked are built)."""
        if state.phase == "bury":
            return bury_candidates(state, seat)
        if state.phase != "play":
            return list(state.legal_actions(seat))
        if not state.trick:
            first = self.rule_play(state, seat, None)
            return [first] + [a for a in lead_candidates(state, seat) if a != first]
        actions = state._follows(seat)
        if len(actions) <= 1:
            return list(actions)
        first = self.rule_play(state, seat, actions)
        return [first] + [a for a in _spread(actions, self.width) if a != first]

    @staticmethod
    def rule_play(state: Any, seat: int, actions: Any, sample: int = SAMPLE) -> Any:
        """The rule bot's play, read from the state (the same choice as from the seat's view;
        a follow chosen among ``sample`` plays spread over the legal set)."""
        light = {"hand": [f for f, c in state.hands[seat].items() for _ in range(c)],
                 "trick": [[s, list(fs)] for s, fs in state.trick],
                 "winning": state.win_seat if state.trick else None}
        if not state.trick:
            return _RULE._lead(light, state.trump, state.decks)
        return _RULE._follow(light, seat, actions, state.trump, sample)

    def policy(self, state: Any, seat: int, rng: random.Random) -> Any:
        if state.phase != "play":
            if rng.random() < self.epsilon:
                return rng.choice(state.legal_actions(seat))
            return _RULE.choose(state, seat)
        # in play the legal set is the game's lazy sequence (not a list of up to 200 plays),
        # and a lead is chosen from the hand alone, without it
        moves = state._follows if state.trick else state._leads
        if rng.random() < self.epsilon:
            return rng.choice(moves(seat))
        if not state.trick:
            return self.rule_play(state, seat, None)
        return _short_follow(state, seat) or _single_follow(state, seat) or \
            self.rule_play(state, seat, moves(seat), PLAYOUT_SAMPLE)

    def apply(self, state: Any, action: Any, seat: int) -> None:
        state.apply_legal(action, seat)

    def copy(self, state: Any) -> Any:
        """:meth:`ShengjiState.play_copy`: what the play changes copied, the rest shared."""
        return state.play_copy()

    def terminal_values(self, state: Any) -> list[float]:
        d = state.result.details
        if "attack_total" not in d:
            return super().terminal_values(state)
        return _attack_values(state, d["attack_total"])

    def evaluate(self, state: Any) -> list[float]:
        left = sum(face_points(f) * c for h in state.hands for f, c in h.items())
        return _attack_values(state, state.trick_points + state.penalty + left / 3)


def lead_candidates(state: Any, seat: int) -> list[Action]:
    """The leads a search considers from ``seat``'s hand: in each effective suit every card
    alone, every face held twice or more as a pair (and as a triple with three decks), and the
    tractors (and Titanics) of the suit's canonical split. No throw: a throw of several parts
    may fail and cost points, and the rule bot never throws."""
    trump, decks = state.trump, state.decks
    suits: dict[str, dict[str, int]] = {}
    for f, c in state.hands[seat].items():
        if c:
            suits.setdefault(trump.eff[f], {})[f] = c
    out: list[Action] = []
    seen: set[tuple[str, ...]] = set()
    for suit in sorted(suits):
        hold = suits[suit]
        plays = [(f,) * k for f, c in hold.items() for k in range(1, min(c, 3) + 1)]
        plays += [c.faces for c in cb.decompose(hold, trump.pos, decks)
                  if c.kind not in ("single", "pair", "triple")]
        for faces in plays:
            a = Action("play", faces)
            if a.faces not in seen:
                seen.add(a.faces)
                out.append(a)
    return out


def _short_follow(state: Any, seat: int) -> Action | None:
    """A playout's follow when ``seat`` holds no more cards of the led suit than the lead has
    but some (a mixed play, which never wins the trick): all of them, and the rest as the rule
    bot picks, the most points when the partner is winning, else the fewest, then the lowest
    cards. Built without the legal set; ``None`` in the other cases."""
    he = state._suit_holding(seat, state.lead_suit)
    held = sum(he.values())
    n = state.lead_n
    if not held or held > n:
        return None
    mine = [f for f, c in he.items() for _ in range(c)]
    if held < n:
        key = state.trump.sort_key
        partner = state.win_seat % 2 == seat % 2
        rest = sorted((f for f, c in state.hands[seat].items() if f not in he for _ in range(c)),
                      key=lambda f: (-face_points(f) if partner else face_points(f), key(f)))
        mine += rest[:n - held]
    return Action("play", tuple(mine))


def _single_follow(state: Any, seat: int) -> Action | None:
    """A playout's follow to a lead of one card, when ``seat`` holds two or more cards of the
    led suit or none: the rule bot's choice (:meth:`ShengjiRuleBot._follow`) among its distinct
    faces of the suit (or of the hand), read without the legal set: when the partner is winning
    the most points, then the lowest card; else the lowest card that takes the trick, else the
    fewest points, then the lowest card. ``None`` for another lead."""
    if state.lead_n != 1:
        return None
    trump = state.trump
    eff, keys, pos = trump.eff, trump.sort_keys, trump.pos
    lead = state.lead_suit
    hand = state.hands[seat]
    faces = [f for f, c in hand.items() if c and eff[f] == lead]
    if len(faces) == 1 and hand[faces[0]] == 1:
        return None                               # one card of the suit: a short follow
    if not faces:
        faces = [f for f, c in hand.items() if c]
    win = state.win_seat
    if win % 2 == seat % 2:
        best = max(faces, key=lambda f: (FACE_POINTS[f], tuple(-k for k in keys[f])))
        return Action("play", (best,))
    top = next(fs for s, fs in state.trick if s == win)[0]
    win_suit, win_pos = eff[top], pos[top]
    winners = [f for f in faces if (eff[f] == TRUMP and win_suit != TRUMP)
               or (eff[f] == win_suit and pos[f] > win_pos)]
    if winners:
        return Action("play", (min(winners, key=keys.__getitem__),))
    return Action("play", (min(faces, key=lambda f: (FACE_POINTS[f], keys[f])),))


def _attack_values(state: Any, total: float) -> list[float]:
    """Values per seat of the attackers' ``total`` (see :class:`ShengjiSearcher`)."""
    decks = state.game.options["decks"]
    attack = 1 / (1 + math.exp(-(total - 40 * decks) / (10 * decks)))
    return [1 - attack if s % 2 == state.dealer % 2 else attack for s in range(state.num_seats)]


_RULE = ShengjiRuleBot()
#: the play is searched, each iteration from a fresh :func:`determinize` of the seat's view
SEARCHER = ShengjiSearcher("shengji", ShengjiRuleBot, determinize, phases=("bury", "play"))
register_searcher(SEARCHER, ShengjiRuleBot)
