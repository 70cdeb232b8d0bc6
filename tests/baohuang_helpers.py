"""Helpers for the 保皇 tests: explicit deals with chosen cards, positions in the play phase and
a driver that makes the players finish in a chosen order."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator

import qipai
from qipai.bots import make_bot
from qipai.bots.search import searcher_for
from qipai.cards import parse_card
from qipai.games.baohuang.match import Match
from qipai.games.baohuang.selection import DECK, HAND, SEATS
from qipai.games.baohuang.sets import NRANKS, ORDER


def make_deal(fixed: dict[int, list[str]], c0: int = 0, reserve: str = "BJ0",
              avoid: dict[int, str] | None = None, previous: dict | None = None) -> dict:
    """A deal where seat ``s`` holds the card ids ``fixed[s]``; the other cards are spread so
    that nobody gets a qualifying triple by accident (each card goes to the seat with the fewest
    copies of its face that still needs cards), and seat ``s`` gets no further card of a rank in
    ``avoid[s]`` (a rank string). ``previous`` is the tribute basis of the previous deal."""
    avoid = avoid or {}
    used = {c for cards in fixed.values() for c in cards}
    hands = {s: list(fixed.get(s, [])) for s in range(SEATS)}
    faces = {s: Counter(parse_card(c).face for c in hands[s]) for s in range(SEATS)}
    avoided = "".join(avoid.values())
    rest = sorted((c for c in DECK if c.id not in used and c.id != reserve),
                  key=lambda c: (c.rank not in avoided, c.face, c.deck))   # constrained ranks first
    for c in rest:
        s = min((s for s in range(SEATS) if len(hands[s]) < HAND and c.rank not in avoid.get(s, "")),
                key=lambda s: (faces[s][c.face], len(hands[s]), s))
        hands[s].append(c.id)
        faces[s][c.face] += 1
    out = {"hands": [hands[s] for s in range(SEATS)], "c0": c0}
    if previous is not None:
        out["previous"] = previous
    return out


def start_play(emperor: int = 0, guard: int | None = 1, four: bool = False, **options):
    """A deal in the play phase: ``emperor`` (the first candidate) accepts and names ♥7; ``guard``
    holds the fourth ♥7 (``None``: the emperor holds it, hidden 独; ``four``: 明独)."""
    fixed = {emperor: ["7H0", "7H1", "7H2"]}
    if guard is None:
        fixed[emperor].append("7H3")
    else:
        fixed[guard] = ["7H3"]
    game = qipai.load("baohuang", **options)
    state = game.new_state(deal=make_deal(fixed, c0=emperor))
    state.apply("accept")
    state.apply("declare 7H0 7H1 7H2 7H3" if four else "declare 7H0 7H1 7H2")
    return state


def set_hands(state, ranks: dict[int, str]) -> None:
    """Replace every seat's hand by the rank string ``ranks[s]`` (distinct physical cards)."""
    used: set = set()
    for s in range(SEATS):
        cards = []
        for ch in ranks[s]:
            c = next(c for c in DECK if c.rank == ch and c not in used)
            used.add(c)
            cards.append(c)
        per = [[] for _ in range(NRANKS)]
        for c in sorted(cards, key=ORDER.card_key):
            per[ORDER.index[c.rank]].append(c)
        state.hands[s] = per
        state.counts[s] = [len(x) for x in per]
        state.sizes[s] = len(cards)


def finish_in_order(state, order: list[int]) -> None:
    """Play the deal out so that the seats finish in ``order`` (the last one is left holding
    cards): the emperor leads a low 3 (unless he finishes first), then each finisher in turn
    plays one higher card."""
    e = state.emperor
    rank = "456789"
    hands = {s: rank[order.index(s)] for s in range(SEATS)}
    if order[0] != e:
        hands[e] = "3" + hands[e]
    set_hands(state, hands)
    done = 0
    while not state.is_terminal():
        seat = state.current_player
        if seat == order[done]:
            state.apply(rank[done])
            done += 1
        elif state.top is None:
            state.apply("3")
        else:
            state.apply("pass")


def rule_bot_views(game, seed: int, every: int) -> Iterator[dict]:
    """Every seat's view at every ``every``-th turn of play of a deal of the rule bots: 保皇, a
    match's second deal (after a first one: the tribute) and its first; 山东保皇, one deal."""
    sdbh = game.options["ruleset"] != "seed000"
    match = None if sdbh else Match(game, seed)
    for _ in range(1 if sdbh else 2):
        state = game.new_state(seed=seed) if sdbh else match.next_state()
        bots = [make_bot("baohuang", "rule", seed=s) for s in range(state.num_seats)]
        turn = 0
        while not state.is_terminal():
            seat = state.to_act[0]
            if getattr(state, "phase", "play") == "play":
                turn += 1
                if turn % every == 0:
                    yield from (state.view(s) for s in range(state.num_seats))
            state.apply(bots[seat].choose(state, seat), seat)
        if match is not None:
            match.record(state)


#: the sample of tests/test_baohuang_sampler.py: (options, seeds, every). 保皇 match 3's second
#: deal has a tribute with a 2 added to the package, match 9's a 2 added and no tribute
SAMPLER_SAMPLE = (({}, (3, 9), 3), ({"ruleset": "sdbh.provisional"}, range(20), 1))


def sampler_sweep(sample: Iterable[tuple[dict, Iterable[int], int]]) -> Counter:
    """Every seat's view of :func:`rule_bot_views` over ``sample`` gets a determinization from the
    searcher's ``root_states`` (within its tries) that shows the seat the same view (asserted).
    Counts: ``views`` checked, and those of the cases the sampler treats apart: ``sdbh`` (山东保皇),
    ``tribute`` (a 保皇 deal after one), ``gave`` (the seat gave a tribute), ``others_tribute``
    (a tribute the seat took no part in, shown by its rank), ``added_twos`` (2s added to the
    package, shown by their ranks) and ``plain`` (a 保皇 deal with neither)."""
    searcher = searcher_for("baohuang")
    counts: Counter = Counter()
    for options, seeds, every in sample:
        game = qipai.load("baohuang", **options)
        for seed in seeds:
            for i, view in enumerate(rule_bot_views(game, seed, every)):
                got = searcher.root_states(game, {"view": view})(random.Random(i))
                assert got.view(view["seat"]) == view, (options, seed, view["seat"])
                seat, tribute = view["seat"], view.get("tribute") or []
                added = any(t.startswith("decline 2") for _, t in view.get("selection") or [])
                counts["views"] += 1
                counts["sdbh"] += bool(options)
                counts["tribute"] += bool(tribute)
                counts["gave"] += any(t[0] == seat for t in tribute)
                counts["others_tribute"] += any(seat not in t[:2] for t in tribute)
                counts["added_twos"] += added
                counts["plain"] += not options and not tribute and not added
    return counts
