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

import math
import random
from collections import Counter
from itertools import product
from typing import Any

from qipai.bots import register_bot
from qipai.bots.ismcts import DeterminizedSearcher, played_by_seat, replay
from qipai.bots.mcts import check_time
from qipai.bots.search import register_searcher
from qipai.cards import parse_card, shown_ids
from qipai.cards.sample import deal_unseen, id_order, place_played


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


# ----- search (levels 3-5) -------------------------------------------------------------------
def _tribute_rank(card_id: str) -> tuple:
    """The order in which tribute takes a hand's cards (largest first: highest rank, then the
    lowest card id, D10)."""
    from qipai.games.baohuang.sets import ORDER

    k = ORDER.card_key(parse_card(card_id))
    return (-k[0], k[1], k[2])


def determinize(game: Any, view: dict, rng: random.Random) -> Any:
    """A full 保皇 deal agreeing with ``view`` (one seat's view during play, rules/baohuang.md
    Part A), or a 山东保皇 deal (Part B, :func:`determinize_shandong`).

    A view shows the seat's cards by their faces (its labels number the copies of a face within
    each list, :func:`qipai.cards.shown_ids`), and the plays, and a tribute the seat took no part
    in, by their ranks only (:func:`qipai.cards.table_ids`), so the sample works in faces, the
    plays' cards stood in for by faces of their ranks (:func:`qipai.cards.sample.place_played`).
    Known to be in a hand now: the seat's own cards; the tribute in its receivers'; the package
    (the reserved joker and the 2s added by decliners, named in their ``decline`` texts) and the
    revealed copies in the emperor's, less what each has played since (it may have played those
    first). The unseen
    faces are dealt at random into the other hands by their counts
    (:func:`qipai.cards.sample.deal_unseen`), never giving a tribute giver a card larger than the
    ones it gave (it gave its largest), nor a 2 to a decliner that owed one and added none. The
    deal is rebuilt from those hands (the 43 each held before the tribute, with the tribute basis
    of ``previous``; each face's physical copies handed out in pack order), the selection
    replayed (automatic declines must come out the same), the declaration and every play. Deals
    voided before this one are random deals that every candidate declines. Raises
    ``ValueError`` (or the game's errors) for a sample the replay refuses."""
    if view.get("ruleset") is not None:
        return determinize_shandong(game, view, rng)
    from qipai.games.baohuang.selection import DECK, HAND, SEATS, TWO, reserved
    from qipai.games.baohuang.sets import ORDER

    me, emperor = view["seat"], view["emperor"]
    reserve = reserved(game)
    pack = [c.face for c in DECK]
    mine = [c[:2] for c in view["hand"]]
    labels = {s: [c[:2] for c in ids] for s, ids in played_by_seat(view["plays"], SEATS).items()}
    # what the seat knows by face (its hand, the revealed copies, a tribute it took part in);
    # the other cards it was shown by their ranks only (a tribute it took no part in, the 2s
    # added to the package: qipai.cards.table_ids) get faces drawn from the ones left
    revealed = Counter(c[:2] for c in view["revealed"])
    seen = Counter(mine) + revealed if emperor != me else Counter(mine) | revealed
    seen |= Counter(c[:2] for g, r, c in view["tribute"] if r == me)     # held, or played
    seen += Counter(c[:2] for g, r, c in view["tribute"] if g == me)
    given: dict[int, list[str]] = {s: [] for s in range(SEATS)}
    received: dict[int, list[str]] = {s: [] for s in range(SEATS)}
    top_given: dict[int, tuple] = {}
    for g, r, c in view["tribute"]:
        # a tribute the seat took no part in is shown by its rank only (qipai.cards.table_ids)
        # (at random when the giver handed the seat a card of that rank too: which copy is
        # larger decides who got which, and the seat got its own)
        mixed = any(g2 == g and me in (g2, r2) and c2[0] == c[0] for g2, r2, c2 in view["tribute"])
        face = c[:2] if me in (g, r) else _draw(pack, seen, c[0], rng if mixed else None)
        given[g].append(face)
        received[r].append(face)
        key = _tribute_rank(face + "0")
        top_given[g] = max(top_given.get(g, key), key)
    adders: list[int] = []                       # the seats that added a 2, in order
    no_two: set[int] = set()
    for i, (s, text) in enumerate(view["selection"]):
        parts = text.split()
        if parts[0] != "decline":
            continue
        if len(parts) > 1:
            adders.append(s)
        elif i:                                  # it owed a 2 (all but c0's first) and held none
            no_two.add(s)

    named, guard = view["named_card"], view["guard"]

    def allowed(seat: Any, face: str) -> bool:
        if seat in top_given and _tribute_rank(face + "0") < top_given[seat]:
            return False
        if seat == me and face == named and guard != me and not (me == emperor and view["hidden_du"]):
            return False                         # a copy beyond the revealed: it would be the guard
        return not (seat in no_two and seat != emperor and face[0] == "2")

    # the 2s added are shown by their rank only (Selection._decline): any 2s the adders could
    # have added; in the seat's own hand when it is the emperor (chosen below, among its 2s)
    added: dict[int, list[str]] = {s: [] for s in range(SEATS)}
    if emperor != me:
        free = Counter(f for f in pack if f[0] == "2") - seen
        # a 2 the seat received that it neither holds nor can have played is the one it added
        gone_twos = Counter(f for f in received[me] if f[0] == "2") - Counter(mine)
        twos_laid = sum(c[0] == "2" for c in labels[me])
        must = set(gone_twos) if me in adders and gone_twos.total() > twos_laid else set()

        def fits(s: int, f: str) -> bool:
            return allowed(s, f) and (s != me or not must or f in must)
        for s, f in zip(adders, _added_twos(free + gone_twos if must else free, adders, fits, None, rng)):
            added[s].append(f)
    twos = [f for s in adders for f in added[s]]
    # the cards each seat held at once at the declaration (tribute, package, revealed copies,
    # which may include a received copy); a play is shown by its ranks (qipai.cards.table_ids),
    # so its cards are stood in for by faces of those ranks, those of these first (place_played)
    held = {s: Counter(received[s]) for s in range(SEATS)}
    if emperor is not None:
        held[emperor] = (held[emperor] + Counter([reserve.face] + twos)) | revealed
    if guard == me and named not in mine:
        held[me][named] += 1                     # the guard held the named card (and played it)
    if emperor == me and view["hidden_du"]:
        held[me][named] = 4                      # 独: the emperor held the fourth copy too
    # the seat's own plays take the lowest faces it could have held (a tribute it gave was its
    # largest: no lower copy of that rank was in its hand)
    order = id_order(ORDER)
    played, still = place_played(pack, {me: mine},
                                 {s: list(held[s].elements()) for s in range(SEATS)}, labels, rng,
                                 key=lambda f: (not allowed(me, f), order(f)), lowest_held=False)
    _fit_played(pack, played, held, still, mine, me, allowed, rng)
    if emperor == me and adders:
        # the seat's 2s (held or played) less those it received hold the package's
        pool = Counter(f for f in mine + played[me] if f[0] == "2") - \
            Counter(f for f in received[me] if f[0] == "2")
        for s, f in zip(adders, _added_twos(pool, adders, allowed, lambda f: allowed(me, f), rng)):
            added[s].append(f)
        twos = [f for s in adders for f in added[s]]
    package = [reserve.face] + twos
    gone = [f for s in range(SEATS) for f in played[s]]
    known = {s: still[s] for s in range(SEATS) if s != me}
    known[me] = mine

    now = deal_unseen(pack, dict(enumerate(view["counts"])), known, gone, rng, allowed)
    copies: dict[str, list[str]] = {}
    for c in reversed(DECK):
        if c is not reserve:
            copies.setdefault(c.face, []).append(c.id)
    hands = []
    for s in range(SEATS):
        h = Counter(now[s] + played[s] + given[s] + added[s])
        drop = Counter(received[s]) + (Counter(package) if s == emperor else Counter())
        if drop - h:
            raise ValueError(f"seat {s} would have given cards it never held: "
                             f"{sorted((drop - h).elements())}")
        h -= drop
        if h.total() != HAND or any(len(copies.get(f, ())) < n for f, n in h.items()):
            raise ValueError(f"seat {s} would have been dealt {h.total()} cards")
        hands.append([copies[f].pop() for f in sorted(h.elements())])
    current = {"hands": hands, "c0": view["c0"]}
    voided = []
    for _ in range(view["voids"]):
        ids = [c.id for c in DECK if c is not reserve]
        rng.shuffle(ids)
        voided.append({"hands": [ids[s::SEATS] for s in range(SEATS)], "c0": rng.randrange(SEATS)})
    chain = voided + [current]
    deal: dict[str, Any] = {**chain[0], "redeals": chain[1:]}
    if view["previous"] is not None:
        deal["previous"] = view["previous"]
    state = game.new_state(deal=deal)
    while state.voids < view["voids"]:
        seat = state.turn
        declines = [a for a in state.legal_actions(seat) if str(a).startswith("decline")]
        if not declines:
            raise ValueError("a stand-in for a void deal cannot be declined")
        state.apply(declines[0], seat)
    if state.view(me)["tribute"] != view["tribute"]:
        raise ValueError("the sample gives another tribute")
    faces = iter(f for s in adders for f in added[s])
    for i, (s, text) in enumerate(view["selection"]):
        if i < len(state.selection):             # declined automatically in the sample too
            if list(state.selection[i][:2]) != [s, text]:
                raise ValueError("the sample's automatic declines differ from the view's")
            continue
        if text.startswith("decline "):          # a 2 added, shown by its rank only
            face = next(faces)
            if any(c.face == face for c in state.hands[s][TWO]):
                state.apply(f"decline {face}0", s)
            elif emperor == me:                  # the package is in the seat's own hand
                raise ValueError(f"seat {s} holds no {face} to add")
            else:                                # it gave that 2 in tribute: it added another
                state.apply("decline", s)
            if state.selection[-1][1] != text:
                raise ValueError(f"seat {s} holds no 2 to add")
            continue
        state.apply(text, s)
    if len(state.selection) != len(view["selection"]):
        raise ValueError("the sample's automatic declines differ from the view's")
    if view["revealed"]:
        state.apply("declare " + " ".join(view["revealed"]), emperor)
    for e in view["plays"]:
        state.apply(e[1], e[0])                  # the set's rank text, or "pass"
    return state


def _draw(pack: list[str], seen: Counter, rank: str, rng: random.Random | None) -> str:
    """A face of ``rank`` for a tribute card shown by its rank only, among the copies of
    ``pack`` not in ``seen`` (which then counts it): the lowest, the one a giver holding it would
    have given first (its largest, lowest id, D10), so that no copy the sample deals it
    contradicts the tribute; one at random with ``rng``. Raises ``ValueError`` when no copy is
    left."""
    free = Counter(f for f in pack if f[0] == rank) - seen
    if not free:
        raise ValueError(f"no card of rank {rank} left for a card shown by its rank")
    if rng is None:
        face = min(free, key=lambda f: _tribute_rank(f + "0"))
    else:
        face = rng.choice(list(free.elements()))
    seen[face] += 1
    return face


def _fit_played(pack: list[str], played: dict[int, list[str]], held: dict[int, Counter],
                still: dict[int, list[str]], mine: list[str], me: int, allowed: Any,
                rng: random.Random) -> None:
    """Swap the faces standing for another seat's plays (drawn at random among the free ones,
    :func:`qipai.cards.sample.place_played`) that it cannot have been dealt (a tribute giver
    held nothing larger than it gave) for faces of the same rank it can: a free one, else one
    standing for a third seat's play that may take the first face; in place. The cards a seat
    is known to have held since (``held`` less ``still``) stay, and so does a face with nothing
    to swap for (the replay may then refuse the sample)."""
    free = Counter(pack) - Counter(mine) - Counter(f for s in played for f in played[s])
    free -= Counter(f for s in held for f in still[s])
    loose: list[tuple[int, int]] = []            # (seat, index) of the faces drawn at random
    for s, faces in played.items():
        kept = held[s] - Counter(still[s])       # its shown cards that it played
        for i, f in enumerate(faces):
            if kept[f]:
                kept[f] -= 1
            elif s != me:
                loose.append((s, i))
    for s, i in loose:
        f = played[s][i]
        if allowed(s, f):
            continue
        fits = [g for g in sorted(free) if g[0] == f[0] and free[g] and allowed(s, g)]
        if fits:
            g = rng.choices(fits, [free[g] for g in fits])[0]
            free[g] -= 1
            free[f] += 1
            played[s][i] = g
            continue
        other = [(t, j) for t, j in loose if t != s and played[t][j][0] == f[0]
                 and allowed(s, played[t][j]) and allowed(t, f)]
        if other:
            t, j = rng.choice(other)
            played[s][i], played[t][j] = played[t][j], f


def _added_twos(pool: Counter, adders: list[int], allowed: Any, left_ok: Any,
                rng: random.Random) -> list[str]:
    """Faces of the 2s the ``adders`` added to the package, drawn from ``pool`` (a multiset of
    2s) by their copies: each one ``allowed`` to its adder (a tribute giver held nothing larger
    than it gave) and, with ``left_ok``, every 2 of ``pool`` left over allowed too (the emperor
    holds the package among its 2s: the rest were its own). Raises ``ValueError`` when no
    choice fits."""
    options, weights = [], []
    for combo in product(sorted(pool), repeat=len(adders)):
        want = Counter(combo)
        if want - pool or not all(allowed(s, f) for s, f in zip(adders, combo)):
            continue
        if left_ok is not None and not all(left_ok(f) for f in (pool - want)):
            continue
        options.append(combo)
        weights.append(math.prod(math.perm(pool[f], n) for f, n in want.items()))
    if not options:
        raise ValueError("no 2s the decliners could have added")
    return list(rng.choices(options, weights)[0])


def determinize_shandong(game: Any, view: dict, rng: random.Random) -> Any:
    """A full 山东保皇 deal (the deal in progress of a match) agreeing with ``view``: the seat's
    own hand, the start draw, every play; the unseen cards dealt at random into the other hands
    by their counts (the plays' cards stood in for by cards of their ranks,
    :func:`qipai.cards.sample.place_played`). The state is one deal
    (:class:`~qipai.games.baohuang.shandong.ShandongState`) even when the view is a match's."""
    from qipai.games.baohuang.shandong import DECK, ORDER, SEATS, ShandongState

    me = view["seat"]
    # a play is shown by its ranks (qipai.cards.table_ids): its cards are stood in for
    played, _ = place_played([c.id for c in DECK], {me: list(view["hand"])}, {},
                             played_by_seat(view["plays"], SEATS), rng,
                             key=id_order(ORDER))
    now = deal_unseen([c.id for c in DECK], dict(enumerate(view["counts"])), {me: list(view["hand"])},
                      [c for s in range(SEATS) for c in played[s]], rng)
    hands = [now[s] + played[s] for s in range(SEATS)]
    state = ShandongState(game, deal={"draw": list(view["draw"]), "hands": hands})
    return replay(state, [[e[0], e[1]] for e in view["plays"]])


class BaohuangSearcher(DeterminizedSearcher):
    """The play of both rule sets, searched from :func:`determinize`; the selection and the
    declaration are the rule bot's. Playouts by the rule bot, read from the state directly (the
    same choice as from the seat's view, without building it).

    保皇: a node considers the rule bot's play first (progressive bias :attr:`BAOHUANG_BIAS`
    toward it), then every other legal answer to a set on the table, or as a lead each rank
    held whole, with one big joker hung on, and the jokers alone (:func:`lead_candidates`);
    playouts go to the end of the deal (:attr:`deal_plies`, one random action in fifty,
    :attr:`deal_epsilon`). 山东保皇: every legal play, playouts of :attr:`max_plies` valued by
    :meth:`evaluate`, one random action in ten, no bias.

    Why (docs/bots.md, "Baohuang's level 3, 2026-12-07"): cut at 40 plies of a deal of about
    200, the playouts were valued by the sets each seat still needed, jokers apart, so the
    search spent jokers and 2s to shed ranks early (the rule bot keeps them) and lost the
    deal's end; and a lead offered up to 257 sets (every count of every rank with every choice
    of jokers), more than the 300 iterations of level 3, so leads were picked by one playout
    each."""

    max_plies = 40
    #: 保皇: the playout's length (a deal is about 200 plies: to its end)
    deal_plies = 1000
    #: 保皇: the share of random actions in a playout
    deal_epsilon = 0.02
    #: 保皇: the progressive bias toward the rule bot's play (山东保皇: none)
    BAOHUANG_BIAS = 1.0

    def searched(self, state: Any, seat: int) -> bool:
        deal = getattr(state, "playing", state)          # a 山东保皇 match: its deal in progress
        return getattr(deal, "phase", None) == "play"

    def root_states(self, game: Any, inputs: dict[str, Any]) -> Any:
        # the bias is the searcher's, read by the search once per iteration: set per search
        self.bias = 0.0 if inputs["view"].get("ruleset") is not None else self.BAOHUANG_BIAS
        return super().root_states(game, inputs)

    def own_hand(self, state: Any, seat: int) -> list[str]:
        if hasattr(state, "emperor"):             # 保皇: the copies of a face numbered
            return shown_ids(state.hand(seat))
        return [c.id for c in state.hand(seat)]

    def candidates(self, state: Any, seat: int) -> list[Any]:
        if getattr(state, "phase", None) != "play" or not hasattr(state, "emperor"):
            return state.legal_actions(seat)
        first = _rule_play(state, seat)
        rest = state.legal_actions(seat) if state.top is not None else lead_candidates(state.counts[seat])
        return [first, *(a for a in rest if str(a) != str(first))]

    def policy(self, state: Any, seat: int, rng: random.Random) -> Any:
        baohuang = hasattr(state, "emperor")
        if rng.random() < (self.deal_epsilon if baohuang else self.epsilon):
            return rng.choice(state.legal_actions(seat))
        if getattr(state, "phase", None) != "play":
            return _RULE.choose(state, seat)
        if baohuang:
            return _rule_play(state, seat)
        light = {"counts": [len(h) for h in state.hands],
                 "top": None if state.top is None else {"seat": state.top_seat}}
        return ShandongRuleBot.pick(light, seat, state.legal_actions(seat))

    def playout(self, state: Any, rng: random.Random) -> list[float]:
        for _ in range(self.deal_plies if hasattr(state, "emperor") else self.max_plies):
            if state.is_terminal():
                return self.terminal_values(state)
            check_time()
            seat = state.to_act[0]
            self.apply(state, self.policy(state, seat, rng), seat)
        return self.terminal_values(state) if state.is_terminal() else self.evaluate(state)

    def terminal_values(self, state: Any) -> list[float]:
        """保皇: the deal's returns (logistic, 4 points ≈ 0.73); 山东保皇: :func:`_points_values`
        of the deal's points."""
        if hasattr(state, "emperor"):
            return [1 / (1 + math.exp(-r / 4)) for r in state.result.returns]
        return _points_values(state.result.details["points"])

    def evaluate(self, state: Any) -> list[float]:
        """An unfinished playout. 保皇 (only past :attr:`deal_plies`): the seats still holding
        cards finish in the order of the sets they still need (their distinct ranks, jokers
        apart), then fewer cards, and the deal is scored from that order; 山东保皇: the points
        of the cards each seat holds."""
        if not hasattr(state, "emperor"):
            return _points_values([state.points(s) for s in range(state.num_seats)])
        from qipai.games.baohuang.sets import NRANKS

        rest = sorted(state.active(), key=lambda s: (sum(1 for r in range(NRANKS - 2) if state.counts[s][r]),
                                                     state.sizes[s]))
        return [1 / (1 + math.exp(-r / 4)) for r in state._score(state.finished + rest, "finished").returns]


def _rule_play(state: Any, seat: int) -> Any:
    """The 保皇 rule bot's play for ``seat`` read from the state: the same choice as
    :meth:`BaohuangRuleBot.choose` (:meth:`BaohuangRuleBot._play` on the view), computed from the
    seat's rank counts without listing every legal lead (a playout's main cost)."""
    from qipai.games.baohuang.actions import JIEFENG, PASS
    from qipai.games.baohuang.sets import BIG, NORMAL, SMALL, answers, play

    counts = state.counts[seat]
    left = state.sizes[seat]
    top = state.top
    if top is None:
        # a lead that empties the hand (one normal rank and every joker), else all the cards of
        # the lowest rank (jokers alone when no normal card is left: they empty the hand)
        ranks = [r for r in range(NORMAL) if counts[r]]
        if len(ranks) > 1:
            return play(ranks[0], counts[ranks[0]], 0, 0)
        return play(ranks[0] if ranks else None, counts[ranks[0]] if ranks else 0, counts[SMALL], counts[BIG])
    plays = answers(counts, top)
    if plays and plays[0].size == left:          # every answer has the size of the set on top
        return plays[0]
    if not plays or (seat == state.guard and state.top_seat == state.emperor):
        return JIEFENG if seat == state._jiefeng else PASS
    # fewest jokers, lowest rank, fewest cards of its rank (or kind of joker) left behind
    best = min(plays, key=lambda p: (p.s + p.b, p.base,
                                     counts[p.rank if p.n else SMALL if p.s else BIG] - p.n))
    if best.s + best.b and left > 10:
        return JIEFENG if seat == state._jiefeng else PASS
    return best


def lead_candidates(counts: Any) -> list[Any]:
    """The 保皇 leads a search node considers from a hand of ``counts`` (per rank index): each
    normal rank held, all its cards, alone and with one big joker hung on (a set nobody can
    beat: the lead comes back), lowest rank first; then the jokers alone: all of them, one big,
    one small. Splitting a rank, or hanging small jokers on a lead, leaves out sets the rule
    bot never leads and the search could not weigh: a lead may have hundreds of sets."""
    from qipai.games.baohuang.sets import BIG, NORMAL, SMALL, play

    small, big = counts[SMALL], counts[BIG]
    out = []
    for r in range(NORMAL):
        if counts[r]:
            out.append(play(r, counts[r], 0, 0))
            if big:
                out.append(play(r, counts[r], 0, 1))
    if small + big:
        out.append(play(None, 0, small, big))
        for alone in ([play(None, 0, 0, 1)] if big else []) + ([play(None, 0, 1, 0)] if small else []):
            if alone not in out:
                out.append(alone)
    return out


def _points_values(pts: list[int]) -> list[float]:
    """山东保皇 values: each seat's card points against the others' mean (fewer is better;
    logistic, 20 points ≈ 0.73)."""
    n = len(pts)
    return [1 / (1 + math.exp(-((sum(pts) - p) / (n - 1) - p) / 20)) for p in pts]


_RULE = BaohuangRuleBot()
#: the play is searched (selection and declaration are the rule bot's)
SEARCHER = BaohuangSearcher("baohuang", BaohuangRuleBot, determinize)
register_searcher(SEARCHER, BaohuangRuleBot)
