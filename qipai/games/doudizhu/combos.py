"""Doudizhu combinations (rule file §3): classification, comparison, and legal-play generation.

Ranks are indexes 0..14 of ``3 4 5 6 7 8 9 T J Q K A 2 L B`` (``L``/``B`` = small/big joker);
chain ranks are 0..11 (``3``..``A``). A play is a rank multiset; suits never matter (§3.4).

Every legal play of the game is built once per kicker-rule set into a :class:`PlayTable`, as
interned :class:`Play` objects with their packed rank counts. Legal plays of a hand are then
found by testing packed sub-multiset containment (:class:`qipai.cards.Packer`) on small,
pre-grouped candidate lists, never by searching the hand.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, fields
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from typing import Any

from qipai.cards import DOUDIZHU, Packer
from qipai.core.errors import Message

ORDER = DOUDIZHU
NRANKS = 15
TWO, SMALL, BIG = 12, 13, 14
CHAIN_TOP = 11                    # A: highest chain rank
PACKER = Packer(NRANKS, 4)
GUARD = PACKER.guard
# a count is at most 4, so it is 4 exactly when its field's bit 2 is set: a hand holds a bomb
# (four of a rank 3..2) when it shares a bit with FOURS
FOURS = sum(4 << (PACKER.width * r) for r in range(TWO + 1))
# rank masks: bit 0 of each rank's field of a packed code stands for the rank (see held())
UNIT = PACKER.unit
ONES = sum(UNIT)
CHAIN_RANKS = sum(UNIT[:CHAIN_TOP + 1])
ROCKET_BITS = UNIT[SMALL] | UNIT[BIG]
ABOVE = [ONES & ~((UNIT[r] << PACKER.width) - 1) for r in range(NRANKS)]   # ranks above r

TYPES = ("single", "pair", "trio", "bomb", "rocket", "trio_single", "trio_pair", "straight",
         "pair_chain", "plane", "plane_solo", "plane_pair", "four_two_solo", "four_two_pair")
CHAIN_TYPES = frozenset({"straight", "pair_chain", "plane"})
KICKER_TYPES = frozenset({"trio_single", "trio_pair", "plane_solo", "plane_pair",
                          "four_two_solo", "four_two_pair"})
TYPE_NAMES_ZH = {
    "single": "单牌", "pair": "对牌", "trio": "三张", "bomb": "炸弹", "rocket": "火箭",
    "trio_single": "三带一", "trio_pair": "三带一对", "straight": "单顺", "pair_chain": "双顺",
    "plane": "飞机", "plane_solo": "飞机带单翅膀", "plane_pair": "飞机带对翅膀",
    "four_two_solo": "四带二", "four_two_pair": "四带两对",
}


@dataclass(frozen=True)
class KickerRules:
    """The kicker decisions of §3.3 / D10 as switches; the defaults are the rule file's.

    * ``four_with_two`` — the types ``four_two_solo`` and ``four_two_pair`` exist (OpenSpiel: no).
    * ``four_two_solo_pair`` — the two single kickers of ``four_two_solo`` may be a pair (``444455``).
    * ``four_two_same_pairs`` — ``four_two_pair`` may carry two pairs of one rank (``44445555``).
    * ``adjacent_trio_wings`` — drops K4: single wings may hold a trio of the chain rank just
      below or above the body (OpenSpiel: yes).
    * ``wings_body_rank`` — drops K1: a single wing may have a body rank (``33334444``).
    * ``bomb_in_wings`` — drops K3: single wings may hold all four cards of a rank.
    * ``rocket_in_wings`` — drops K2: the two jokers may both be single kickers.
    * ``chain_from_bomb_rank`` — a straight, pair chain or plane may start at a rank of which the
      player holds all four cards (OpenSpiel: no; its generator skips such chain heads).
    * ``bomb_answers_rocket`` — any bomb may answer the rocket (OpenSpiel: yes; rule file: the
      rocket is unbeatable).
    """

    four_with_two: bool = True
    four_two_solo_pair: bool = True
    four_two_same_pairs: bool = False
    adjacent_trio_wings: bool = False
    wings_body_rank: bool = False
    bomb_in_wings: bool = False
    rocket_in_wings: bool = False
    chain_from_bomb_rank: bool = True
    bomb_answers_rocket: bool = False

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    def __reduce__(self) -> tuple[type[KickerRules], tuple[bool, ...]]:
        """Copied and pickled through the constructor: a compiled build of this module (mypyc)
        makes classes whose ``__new__`` wants the constructor's arguments and frozen fields that
        ``__setstate__`` may not set."""
        return (KickerRules, tuple([getattr(self, f.name) for f in fields(self)]))


# (type, length) -> the number of that kind of play (Play.kind)
_KINDS: dict[tuple[str, int], int] = {}


class Play:
    """One distinct play: ``type``, ``length`` (chain length, 1 otherwise), ``key`` (rank index
    used for comparison), ``counts`` (cards per rank index), ``parts`` (``(rank index, cards)``
    of the ranks played, ascending), ``code`` (packed counts), ``main``
    and ``kickers`` (rank strings), ``text`` (canonical notation). Interned per rule set; compare
    plays by identity or by ``(type, code)``. For :meth:`beats`: ``power`` (2 the rocket, 1 a
    bomb, 0 any other play) and ``kind`` (a number per ``(type, length)``); ``rules`` those of
    its table."""

    __slots__ = ("type", "length", "key", "counts", "parts", "code", "main", "kickers", "text",
                 "ncards", "is_bomb", "power", "kind", "rules")

    def __init__(self, type_: str, length: int, key: int, counts: tuple[int, ...],
                 main_counts: tuple[int, ...]) -> None:
        self.type = type_
        self.length = length
        self.key = key
        self.counts = counts
        self.parts = tuple((r, n) for r, n in enumerate(counts) if n)
        self.code = PACKER.pack(counts)
        self.main = ORDER.format_counts(main_counts)
        kick = tuple(c - m for c, m in zip(counts, main_counts))
        self.kickers = ORDER.format_counts(kick)
        self.text = self.main + ("+" + self.kickers if self.kickers else "")
        self.ncards = sum(counts)
        self.is_bomb = type_ in ("bomb", "rocket")
        self.power = 2 if type_ == "rocket" else 1 if type_ == "bomb" else 0
        self.kind = _KINDS.setdefault((type_, length), len(_KINDS))
        self.rules = KickerRules()      # the rules of the table that made it (set by the table)

    @property
    def ranks(self) -> str:
        """The rank string, lowest rank first (no ``+``)."""
        return ORDER.format_counts(self.counts)

    def beats(self, other: Play) -> bool:
        """§3.5: rocket beats all; a bomb beats any non-bomb and lower bombs; otherwise same type,
        same length and a higher key: a higher power wins, an equal power needs the same kind
        and a higher key (the rocket's kind is its own, and it has no higher key)."""
        return self.power > other.power or (self.kind == other.kind and self.key > other.key)

    def to_json(self) -> dict:
        return {"type": self.type, "length": self.length, "key": ORDER.ranks[self.key],
                "cards": self.ranks}

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Play({self.type} {self.text})"

    def __reduce__(self) -> tuple[Any, tuple]:
        """A copy (or unpickling) of a play is the same play of its rules' interned table, as a
        copy of the table is that table (:meth:`PlayTable.__reduce__`): plays compare by
        identity. A compiled class also wants its constructor's arguments in ``__new__``
        (see :meth:`KickerRules.__reduce__`)."""
        return (_interned_play, (self.rules, self.type, self.code))


def _interned_play(rules: KickerRules, type_: str, code: int) -> Play:
    return next(p for p in table(rules).by_code[code] if p.type == type_)


class Pass:
    """Pass (不出 / 不叫): one object serves both bidding and play."""

    __slots__ = ()
    type = "pass"
    text = "pass"
    is_bomb = False

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "PASS"

    def __reduce__(self):
        return "PASS"


PASS = Pass()


def _run(a: int, n: int, c: int) -> list[int]:
    counts = [0] * NRANKS
    for r in range(a, a + n):
        counts[r] = c
    return counts


def _wings_ok_solo(body: range, wing: tuple[int, ...], rules: KickerRules) -> bool:
    cnt: dict[int, int] = {}
    for r in wing:
        cnt[r] = cnt.get(r, 0) + 1
    for r, c in cnt.items():
        if r >= SMALL and c > 1:
            return False
        if r in body:
            if not rules.wings_body_rank or c > 1:
                return False
        elif c > 4 or (c == 4 and not rules.bomb_in_wings):
            return False
        if c == 3 and not rules.adjacent_trio_wings and r <= CHAIN_TOP and (
                r == body.start - 1 or r == body.stop):
            return False
    if SMALL in cnt and BIG in cnt and not rules.rocket_in_wings:
        return False
    return True


def _enumerate(rules: KickerRules):
    """Yield ``(type, length, key, counts, main_counts)`` for every reading of every play."""
    for r in range(NRANKS):
        c = [0] * NRANKS
        c[r] = 1
        yield "single", 1, r, c, c
    for k, name in ((2, "pair"), (3, "trio"), (4, "bomb")):
        for r in range(TWO + 1):
            c = [0] * NRANKS
            c[r] = k
            yield name, 1, r, c, c
    rocket = [0] * NRANKS
    rocket[SMALL] = rocket[BIG] = 1
    yield "rocket", 1, BIG, rocket, rocket
    for t in range(TWO + 1):
        main = [0] * NRANKS
        main[t] = 3
        for k in range(NRANKS):
            if k != t:
                c = list(main)
                c[k] = 1
                yield "trio_single", 1, t, c, main
                if k <= TWO:
                    c = list(main)
                    c[k] = 2
                    yield "trio_pair", 1, t, c, main
    for per, name, lo, maxcards in ((1, "straight", 5, 12), (2, "pair_chain", 3, 20), (3, "plane", 2, 20)):
        for n in range(lo, CHAIN_TOP + 2):
            if n * per > maxcards:
                break
            for a in range(0, CHAIN_TOP - n + 2):
                c = _run(a, n, per)
                yield name, n, a + n - 1, c, c
    for n in range(2, 6):                       # plane_solo: 4n <= 20
        for a in range(0, CHAIN_TOP - n + 2):
            body = range(a, a + n)
            main = _run(a, n, 3)
            for wing in combinations_with_replacement(range(NRANKS), n):
                if _wings_ok_solo(body, wing, rules):
                    c = list(main)
                    for r in wing:
                        c[r] += 1
                    yield "plane_solo", n, a + n - 1, c, main
    for n in range(2, 5):                       # plane_pair: 5n <= 20
        for a in range(0, CHAIN_TOP - n + 2):
            main = _run(a, n, 3)
            others = [r for r in range(TWO + 1) if not a <= r < a + n]
            for wing in combinations(others, n):
                c = list(main)
                for r in wing:
                    c[r] = 2
                yield "plane_pair", n, a + n - 1, c, main
    if rules.four_with_two:
        for q in range(TWO + 1):
            main = [0] * NRANKS
            main[q] = 4
            others = [r for r in range(NRANKS) if r != q]
            for x, y in combinations_with_replacement(others, 2):
                if x == y and (x >= SMALL or not rules.four_two_solo_pair):
                    continue
                if x == SMALL and y == BIG and not rules.rocket_in_wings:
                    continue
                c = list(main)
                c[x] += 1
                c[y] += 1
                yield "four_two_solo", 1, q, c, main
            pair_ranks = [r for r in range(TWO + 1) if r != q]
            for x, y in combinations_with_replacement(pair_ranks, 2):
                if x == y and not rules.four_two_same_pairs:
                    continue
                c = list(main)
                c[x] += 2
                c[y] += 2
                yield "four_two_pair", 1, q, c, main


def held(hand: int) -> tuple[int, int, int, int]:
    """The rank masks of a packed ``hand``: the ranks of which it holds at least 1, 2, 3 and 4
    cards. A count (0..4) has the bits c0, c1, c2 in its field: it is at least 1 when any is
    set, at least 2 when c1 or c2 is, at least 3 when c2 is or c0 and c1 both are, 4 when c2 is."""
    half, quarter = hand >> 1, hand >> 2
    return ((hand | half | quarter) & ONES, (half | quarter) & ONES,
            ((hand & half) | quarter) & ONES, quarter & ONES)


class RankIndex:
    """Items that each stand for one rank (a single, a pair, a trio's kicker ...), listed in
    ascending rank for any rank mask (see :func:`held`). The lists of every subset of the low
    eight ranks and of the high seven are built once; a look-up joins the two halves."""

    __slots__ = ("low", "low_mask", "high", "high_mask")

    def __init__(self, by_rank: dict[int, Any]) -> None:
        self.low, self.low_mask = self._half({r: x for r, x in by_rank.items() if r < 8})
        self.high, self.high_mask = self._half({r: x for r, x in by_rank.items() if r >= 8})

    @staticmethod
    def _half(by_rank: dict[int, Any]) -> tuple[dict[int, list], int]:
        ranks = sorted(by_rank)
        lists = {sum(UNIT[r] for r in subset): [by_rank[r] for r in subset]
                 for n in range(len(ranks) + 1) for subset in combinations(ranks, n)}
        return lists, sum(UNIT[r] for r in ranks)

    def of(self, mask: int) -> list:
        """A new list of the items of the ranks in ``mask``, lowest rank first."""
        return self.low[mask & self.low_mask] + self.high[mask & self.high_mask]


class PlayTable:
    """Every distinct play under one :class:`KickerRules`, indexed for fast generation.

    A card set with readings of two types gives two plays (two actions); readings of one type
    with two keys give one play with the highest key (§3.4).
    """

    def __reduce__(self) -> tuple[Any, tuple[KickerRules]]:
        """A copy of a table is the table of its rules (see :meth:`KickerRules.__reduce__`)."""
        return (table, (self.rules,))

    def __init__(self, rules: KickerRules) -> None:
        self.rules = rules
        best: dict[tuple[str, tuple[int, ...]], tuple] = {}
        for t, n, k, c, m in _enumerate(rules):
            key = (t, tuple(c))
            old = best.get(key)
            if old is None or k > old[2]:
                best[key] = (t, n, k, tuple(c), tuple(m))
        self.plays: list[Play] = [Play(*v) for v in best.values()]
        for p in self.plays:
            p.rules = rules
        self.members = frozenset(self.plays)        # a play of this table (by identity)
        self.no_bomb_heads = not rules.chain_from_bomb_rank
        by_code: dict[int, list[Play]] = {}
        for p in self.plays:
            by_code.setdefault(p.code, []).append(p)
        self.by_code = by_code
        for plist in by_code.values():
            if len(plist) > 1:                  # several types: the text names the type
                for p in plist:
                    p.text = f"{p.type}:{p.text}"
        # direct lookups for generation from rank counts
        self.single: list[Play | None] = [None] * NRANKS
        self.pair: list[Play | None] = [None] * NRANKS
        self.trio: list[Play | None] = [None] * NRANKS
        self.bomb: list[Play | None] = [None] * NRANKS
        self.chain: dict[tuple[str, int, int], Play] = {}
        self.trio_single: list[list[tuple[int, Play]]] = [[] for _ in range(NRANKS)]
        self.trio_pair: list[list[tuple[int, Play]]] = [[] for _ in range(NRANKS)]
        groups: dict[tuple[str, int, int], list[Play]] = {}
        for p in self.plays:
            t = p.type
            if t in ("single", "pair", "trio", "bomb"):
                getattr(self, t)[p.key] = p
            elif t in CHAIN_TYPES:
                self.chain[(t, p.key - p.length + 1, p.length)] = p
            elif t == "trio_single":
                self.trio_single[p.key].append((p.counts.index(1), p))
            elif t == "trio_pair":
                self.trio_pair[p.key].append((p.counts.index(2), p))
            if t in KICKER_TYPES:
                body = PACKER.pack(ORDER.parse_counts(p.main))
                groups.setdefault((t, p.length, body), []).append(p)
        # four-with-two by quad rank, planes with wings by (first body rank, length)
        self.four_groups: list[list[tuple[int, Play]]] = [[] for _ in range(NRANKS)]
        self.plane_groups: dict[tuple[int, int], list[tuple[int, Play]]] = {}
        for (t, n, _), ps in groups.items():
            pairs = [(p.code, p) for p in ps]
            if t in ("four_two_solo", "four_two_pair"):
                self.four_groups[ps[0].key] += pairs
            elif t in ("plane_solo", "plane_pair"):
                self.plane_groups.setdefault((ps[0].key - n + 1, n), []).extend(pairs)
        # follow: per (type, length), groups in ascending key order
        follow: dict[tuple[str, int], list[tuple[int, int, list]]] = {}
        for (t, n, body), ps in groups.items():
            follow.setdefault((t, n), []).append((ps[0].key, body, [(p.code, p) for p in ps]))
        for p in self.plays:
            if p.type not in KICKER_TYPES:
                follow.setdefault((p.type, p.length), []).append((p.key, p.code, [(p.code, p)]))
        self.follow: dict[tuple[str, int], tuple[list[int], list[tuple[int, int, list]]]] = {}
        for k, v in follow.items():
            v.sort(key=lambda g: g[0])
            self.follow[k] = ([g[0] for g in v], v)
        self.bombs = sorted((p for p in self.plays if p.type == "bomb"), key=lambda p: p.key)
        self.rocket = next(p for p in self.plays if p.type == "rocket")
        # the plays of one rank and the trios' kickers, looked up by the rank masks of held()
        self.ranks = RankIndex({r: r for r in range(TWO + 1)})
        self.singles = RankIndex(dict(enumerate(self.single)))
        self.pairs, self.trios, self.bombs_held = (
            RankIndex({r: p for r, p in enumerate(plays) if p is not None})
            for plays in (self.pair, self.trio, self.bomb))
        self.trio_singles = [RankIndex(dict(kp)) for kp in self.trio_single]
        self.trio_pairs = [RankIndex(dict(kp)) for kp in self.trio_pair]
        self._chains: dict[str, dict[int, list[Play]]] = {n: {} for n in ("straight", "pair_chain", "plane")}

    def count_by_type(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for p in self.plays:
            out[p.type] = out.get(p.type, 0) + 1
        return out

    def readings(self, counts: list[int] | tuple[int, ...]) -> list[Play]:
        """Every play (one per type) made of exactly these rank counts; empty if none."""
        if any(c > 4 for c in counts) or counts[SMALL] > 1 or counts[BIG] > 1:
            return []
        return list(self.by_code.get(PACKER.pack(counts), ()))

    def leads(self, hand: int) -> list[Play]:
        """Every play contained in the packed ``hand`` (a leader's choices)."""
        ge1, ge2, ge3, ge4 = held(hand)
        out = self.singles.of(ge1) + self.pairs.of(ge2)
        hg = hand | GUARD
        for t in self.ranks.of(ge3) if ge3 else ():     # late in a deal most hands hold no trio
            out.append(self.trio[t])
            out += self.trio_singles[t].of(ge1)
            out += self.trio_pairs[t].of(ge2)
            if ge4 & UNIT[t]:
                out.append(self.bomb[t])
                out += [p for code, p in self.four_groups[t] if (hg - code) & GUARD == GUARD]
        out += self.chains("straight", ge1 & CHAIN_RANKS)
        if ge2:
            out += self.chains("pair_chain", ge2 & CHAIN_RANKS)
        for p in self.chains("plane", ge3 & CHAIN_RANKS) if ge3 else ():
            if p.type == "plane":
                out.append(p)
            elif (hg - p.code) & GUARD == GUARD:         # a plane with wings: are they held?
                out.append(p)
        if ge1 & ROCKET_BITS == ROCKET_BITS:
            out.append(self.rocket)
        if ge4 and self.no_bomb_heads:                    # without a bomb no head is on one
            out = [p for p in out if not self.head_on_bomb(hand, p)]
        return out

    def chains(self, name: str, mask: int) -> list[Play]:
        """The chains of type ``name`` (straight, pair_chain, plane) whose ranks are all in the
        chain-rank ``mask`` (the ranks held at least 1, 2 or 3 times), by start then length; a
        plane is followed by every plane with wings on its body (held or not). Built once per
        mask (at most 2**12 of each type)."""
        memo = self._chains[name]
        out = memo.get(mask)
        if out is None:
            out = memo[mask] = self._build_chains(name, mask)
        return out

    def _build_chains(self, name: str, mask: int) -> list[Play]:
        shortest = {"straight": 5, "pair_chain": 3, "plane": 2}[name]
        out = []
        a = 0
        while a <= CHAIN_TOP:
            if not mask & UNIT[a]:
                a += 1
                continue
            e = a
            while e < CHAIN_TOP and mask & UNIT[e + 1]:
                e += 1
            for start in range(a, e - shortest + 2):
                for n in range(shortest, e - start + 2):
                    p = self.chain.get((name, start, n))
                    if p is not None:
                        out.append(p)
                    if name == "plane":
                        out += [q for _, q in self.plane_groups.get((start, n), ())]
            a = e + 1
        return out

    @staticmethod
    def head_on_bomb(hand: int, play: Play) -> bool:
        """True for a chain-only play starting at a rank of which ``hand`` holds four cards."""
        return play.type in CHAIN_TYPES and PACKER.count(hand, play.key - play.length + 1) == 4

    def answers(self, hand: int, top: Play, first: Any = None) -> list[Any]:
        """Every play in the packed ``hand`` that beats ``top`` (pass not included), after
        ``first`` when one is given (a state's legal list puts pass first)."""
        out = [] if first is None else [first]
        t = top.type
        if t == "single":                        # seven answers in ten: only the ranks held
            out += self.singles.of((hand | hand >> 1 | hand >> 2) & ABOVE[top.key])
        elif t == "pair":                        # the ranks held twice or more (see held())
            out += self.pairs.of((hand >> 1 | hand >> 2) & ABOVE[top.key])
        elif t == "rocket":
            if self.rules.bomb_answers_rocket:
                out += self.bombs_held.of(hand >> 2 & ONES)
            return out
        elif t == "bomb":
            out += self.bombs_held.of(hand >> 2 & ABOVE[top.key])
        elif t == "trio":
            out += self.trios.of(held(hand)[2] & ABOVE[top.key])
        else:
            self._follow(hand, top, out)
        if t != "bomb" and hand & FOURS:         # the ranks held four times (see held())
            out += self.bombs_held.of(hand >> 2 & ONES)
        if hand & ROCKET_BITS == ROCKET_BITS:    # a joker's count is 0 or 1: its bit 0
            out.append(self.rocket)
        return out

    def _follow(self, hand: int, top: Play, out: list) -> None:
        """Append to ``out`` the plays of ``top``'s type and length in ``hand`` with a higher
        key (the chains and the plays with kickers)."""
        hg = hand | GUARD
        start = len(out)
        keys, groups = self.follow.get((top.type, top.length), ((), ()))
        for i in range(bisect_right(keys, top.key), len(keys)):
            _, body, plays = groups[i]
            if (hg - body) & GUARD == GUARD:
                out += [p for code, p in plays if (hg - code) & GUARD == GUARD]
        if (hand >> 2 & ONES and self.no_bomb_heads
                and top.type in CHAIN_TYPES and len(out) > start):
            out[start:] = [p for p in out[start:] if not self.head_on_bomb(hand, p)]


@lru_cache(maxsize=16)
def table(rules: KickerRules = KickerRules()) -> PlayTable:
    """The (cached) play table of ``rules``."""
    return PlayTable(rules)


def explain_no_reading(counts: list[int], rules: KickerRules) -> str:
    """Why a rank multiset is not a combination, in words (for ``IllegalAction``)."""
    n = sum(counts)
    if n == 0:
        return Message("no cards", code="doudizhu.no_cards")
    if counts[SMALL] > 1 or counts[BIG] > 1 or any(c > 4 for c in counts):
        return Message("more cards of a rank than the pack has", code="doudizhu.more_cards_rank_pack")
    quads = [r for r in range(NRANKS) if counts[r] == 4]
    trios = [r for r in range(NRANKS) if counts[r] >= 3]
    if counts[SMALL] and counts[BIG] and n > 2:
        if quads and n == 6:
            return Message("the rocket is never a kicker", code="doudizhu.rocket_never_kicker")
    if quads and n in (6, 8) and not rules.four_with_two:
        return Message("four-with-two is not played under these options", code="doudizhu.four_two_not_played")
    if n == 8 and len(quads) == 2:
        return Message("two bombs are not one play (four-with-two-pairs needs two different pair ranks)",
                       code="doudizhu.two_bombs_not_play")
    if len(trios) >= 2 or (trios and n >= 8):
        runs = [r for r in trios if r <= CHAIN_TOP]
        if not runs:
            return Message("2s and jokers never join a plane", code="doudizhu.jokers_never_join_plane")
        # longest run of trio ranks
        best = 1
        cur = 1
        for a, b in zip(runs, runs[1:]):
            cur = cur + 1 if b == a + 1 else 1
            best = max(best, cur)
        if best < 2:
            return Message("the trios are not consecutive ranks", code="doudizhu.trios_not_consecutive_ranks")
        if n % 4 == 0 or n % 5 == 0:
            return Message("kicker count does not match airplane length or the wings break a kicker rule",
                           code="doudizhu.kicker_count_does_not_2")
        return Message("kicker count does not match airplane length", code="doudizhu.kicker_count_does_not")
    if len(trios) == 1 and n in (4, 5):
        return Message("a trio takes one single or one pair of another rank",
                       code="doudizhu.trio_takes_single_pair")
    if n >= 5 and all(c <= 1 for c in counts):
        if any(counts[r] for r in (TWO, SMALL, BIG)):
            return Message("2s and jokers never join a straight", code="doudizhu.jokers_never_join_straight")
        return Message("the cards are not consecutive ranks", code="doudizhu.cards_not_consecutive_ranks")
    if n >= 6 and all(c in (0, 2) for c in counts):
        if counts[TWO]:
            return Message("2s never join a pair chain", code="doudizhu.never_join_pair_chain")
        return Message("the pairs are not three or more consecutive ranks",
                       code="doudizhu.pairs_not_three_more")
    if n == 2:
        return Message("two cards must be a pair of one rank or the rocket (LB)",
                       code="doudizhu.two_cards_must_pair")
    if n == 4 and len([c for c in counts if c == 2]) == 2:
        return Message("two pairs are not a combination (a pair chain needs three pairs)",
                       code="doudizhu.two_pairs_not_combination")
    return Message("not a combination", code="doudizhu.not_combination")
