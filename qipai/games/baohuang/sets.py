"""Sets (一套牌) of 保皇 and the comparison rule (``rules/baohuang.md`` §3.2-§3.3).

A set is ``n`` cards of one normal rank ``r`` (``3`` … ``2``) plus ``s`` small and ``b`` big
jokers (挂花), ``n + s + b >= 1``. Rank indexes follow :data:`ORDER` (``3`` = 0 … ``2`` = 12,
small joker 13, big joker 14). A :class:`Play` names a set by ``(rank, n, s, b)``; which physical
cards make it up is chosen when it is played (suits and deck indices never matter in play).

Canonical text: the rank string with the normal cards first, then ``L`` then ``B`` (``999LL``,
``JJJBB``, ``LB``); any order of the characters is read (``LL999`` = ``999LL``).
"""

from __future__ import annotations

from collections.abc import Sequence

from qipai.cards import DOUDIZHU
from qipai.core.errors import Message

ORDER = DOUDIZHU                 # 3 < 4 < … < A < 2 < small joker < big joker (§3.1)
NRANKS = len(ORDER)              # 15
SMALL = ORDER.index["L"]         # 13
BIG = ORDER.index["B"]           # 14
NORMAL = SMALL                   # normal ranks are 0 .. 12

PLAIN, SMALL_CLASS, BIG_CLASS = 0, 1, 2
CLASS_NAMES = ("plain", "small", "big")


class Play:
    """One set: ``rank`` (normal rank index 0..12, or ``None`` for a joker-only set), ``n``
    normal cards, ``s`` small jokers, ``b`` big jokers. Derived: ``size`` (#P), ``base``
    (rank index of §3.2: the normal rank, else small joker if ``s``, else big joker) and
    ``cls`` (0 plain, 1 small-joker class, 2 big-joker class). Instances are shared: build them
    with :func:`play`. ``cards`` is ``None`` (the referee picks the physical cards)."""

    __slots__ = ("rank", "n", "s", "b", "size", "base", "cls", "text", "counts")
    kind = "play"
    cards = None

    def __init__(self, rank: int | None, n: int, s: int, b: int) -> None:
        self.rank = rank if n else None
        self.n, self.s, self.b = n, s, b
        self.size = n + s + b
        self.base = rank if n else (SMALL if s else BIG)
        self.cls = BIG_CLASS if b else (SMALL_CLASS if s else PLAIN)
        self.text = (ORDER.ranks[rank] * n if n else "") + "L" * s + "B" * b
        counts = [0] * NRANKS
        if n:
            counts[rank] = n
        counts[SMALL] = s
        counts[BIG] = b
        self.counts = tuple(counts)

    def beats(self, top: Play) -> bool:
        """§3.3: same size, the top set has no big joker, a higher base rank, and against a
        small-joker set the follower carries a big joker."""
        return (self.size == top.size and top.cls != BIG_CLASS and self.base > top.base
                and (top.cls == PLAIN or self.cls == BIG_CLASS))

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Play({self.text!r})"

    def __reduce__(self):
        return (play, (self.rank, self.n, self.s, self.b))


_PLAYS: dict[tuple[int | None, int, int, int], Play] = {}


def play(rank: int | None, n: int, s: int, b: int) -> Play:
    """The shared :class:`Play` for ``(rank, n, s, b)``."""
    key = (rank if n else None, n, s, b)
    p = _PLAYS.get(key)
    if p is None:
        if n < 0 or s < 0 or b < 0 or n + s + b < 1 or (n and not (0 <= rank < NORMAL)):
            raise ValueError(f"not a set: rank={rank} n={n} s={s} b={b}")
        p = _PLAYS[key] = Play(rank, n, s, b)
    return p


def from_counts(counts: Sequence[int]) -> Play:
    """The set with these per-rank counts. Raises ``ValueError`` (with the reason) when the
    cards are not one set: two normal ranks, or no card at all."""
    normal = [r for r in range(NORMAL) if counts[r]]
    if len(normal) > 1:
        names = " and ".join(ORDER.ranks[r] for r in normal)
        raise ValueError(Message(f"a set holds one normal rank only (got {names}); there are no straights",
                                 code="baohuang.one_rank",
                                 params={"ranks": [ORDER.ranks[r] for r in normal]}))
    s, b = counts[SMALL], counts[BIG]
    if normal:
        return play(normal[0], counts[normal[0]], s, b)
    if s + b == 0:
        raise ValueError(Message("a set needs at least one card", code="baohuang.empty_set"))
    return play(None, 0, s, b)


def leads(counts: Sequence[int]) -> list[Play]:
    """Every distinct set a leader holding ``counts`` may play (§3.6), lowest base first."""
    S, B = counts[SMALL], counts[BIG]
    out: list[Play] = []
    for r in range(NORMAL):
        for n in range(1, counts[r] + 1):
            for s in range(S + 1):
                for b in range(B + 1):
                    out.append(play(r, n, s, b))
    for s in range(S + 1):
        for b in range(B + 1):
            if s + b:
                out.append(play(None, 0, s, b))
    return out


def answers(counts: Sequence[int], top: Play) -> list[Play]:
    """Every distinct set from ``counts`` that beats ``top`` (§3.3), lowest base first."""
    if top.cls == BIG_CLASS:
        return []
    k = top.size
    S, B = counts[SMALL], counts[BIG]
    need_big = top.cls != PLAIN
    out: list[Play] = []
    for r in range(top.base + 1, NORMAL):
        for n in range(1, min(counts[r], k) + 1):
            jokers = k - n
            for b in range(max(1 if need_big else 0, jokers - S), min(B, jokers) + 1):
                out.append(play(r, n, jokers - b, b))
    # joker-only sets of size k: base small joker (s >= 1) or big joker (s = 0)
    if top.base < SMALL:
        for b in range(max(1 if need_big else 0, k - S), min(B, k - 1) + 1):
            out.append(play(None, 0, k - b, b))
    if top.base < BIG and B >= k:
        out.append(play(None, 0, 0, k))
    return out


def why_not(p: Play, top: Play) -> str:
    """Why ``p`` does not beat ``top`` (for the IllegalAction reason)."""
    if top.cls == BIG_CLASS:
        return Message(f"{top.text} carries a big joker and cannot be beaten; you must pass",
                       code="baohuang.carries_big_joker_cannot", params={"text": top.text})
    if p.size != top.size:
        return Message(f"a set must have as many cards as the one on the table ({top.size}, not {p.size})",
                       code="baohuang.set_must_many_cards", params={"size": top.size, "size2": p.size})
    if p.base <= top.base:
        return (Message(f"the base rank {ORDER.ranks[p.base]} is not higher than {ORDER.ranks[top.base]} "
                f"(a joker does not raise the rank of the cards it is hung on)",
                    code="baohuang.base_rank_not_higher",
                    params={"ranks": ORDER.ranks[p.base], "ranks2": ORDER.ranks[top.base]}))
    return Message(f"{top.text} is hung with small jokers: only a set with a big joker beats it",
                   code="baohuang.hung_small_jokers_only", params={"text": top.text})
