"""挖坑 combinations (rule file §3.1-§3.3): the play types, comparison, and legal-play generation.

Ranks are indexes 0..12 of ``4 5 6 7 8 9 T J Q K A 2 3`` (``4`` lowest, ``3`` highest); the
straight ranks are 0..9 (``4``..``K``). A play is a rank multiset (suits never matter), so every
play is one interned :class:`Play` found by its rank counts. The 88 plays are: 13 each of
``single``, ``pair``, ``triple``, ``four``, and 36 ``straight`` (3 to 10 consecutive ranks from
``4``..``K``). No other card set is a play (no pair chains, kickers or bombs).
"""

from __future__ import annotations

from collections.abc import Sequence

from qipai.cards import WAKENG
from qipai.cards.rankplay import RankPlay
from qipai.core.errors import Message

ORDER = WAKENG
NRANKS = 13
STRAIGHT_TOP = 9                  # K: the highest straight rank
KINDS = ("single", "pair", "triple", "four")     # n cards of one rank, n = 1..4
TYPES = (*KINDS, "straight")
TYPE_NAMES_ZH = {"single": "单张", "pair": "对", "triple": "三头", "four": "四头", "straight": "连牌"}


class Play(RankPlay):
    """One distinct play (see :class:`~qipai.cards.rankplay.RankPlay`): ``type`` is one of
    :data:`TYPES`; ``length`` the cards of a straight, else 1; ``key`` the rank, or a straight's
    highest rank."""

    __slots__ = ()
    order = ORDER

    def beats(self, other: Play) -> bool:
        """§3.3: the same type, the same length and a higher key; nothing else beats."""
        return self.type == other.type and self.length == other.length and self.key > other.key

    def __reduce__(self):
        return (play_of, (self.counts,))


def _counts(pairs: dict[int, int]) -> tuple[int, ...]:
    c = [0] * NRANKS
    for r, n in pairs.items():
        c[r] = n
    return tuple(c)


#: ``OF_A_KIND[n][r]``: the play of ``n`` cards of rank index ``r`` (n = 1..4)
OF_A_KIND: list[list[Play]] = [[]] + [
    [Play(KINDS[n - 1], 1, r, _counts({r: n})) for r in range(NRANKS)] for n in range(1, 5)]
#: ``STRAIGHTS[(start, n)]``: the straight of ``n`` ranks from rank index ``start``
STRAIGHTS: dict[tuple[int, int], Play] = {
    (a, n): Play("straight", n, a + n - 1, _counts({r: 1 for r in range(a, a + n)}))
    for n in range(3, STRAIGHT_TOP + 2) for a in range(0, STRAIGHT_TOP - n + 2)}
ALL_PLAYS: tuple[Play, ...] = tuple(p for row in OF_A_KIND for p in row) + tuple(STRAIGHTS.values())
_BY_COUNTS: dict[tuple[int, ...], Play] = {p.counts: p for p in ALL_PLAYS}


def play_of(counts: Sequence[int]) -> Play | None:
    """The play made of exactly these rank counts, or ``None`` when they are no combination."""
    return _BY_COUNTS.get(tuple(counts))


def leads(counts: Sequence[int]) -> list[Play]:
    """Every play a leader holding ``counts`` may make: all of a kind (singles first), then the
    straights by start rank and length."""
    out = [OF_A_KIND[n][r] for n in range(1, 5) for r in range(NRANKS) if counts[r] >= n]
    a = 0
    while a <= STRAIGHT_TOP:
        if not counts[a]:
            a += 1
            continue
        e = a
        while e < STRAIGHT_TOP and counts[e + 1]:
            e += 1
        for start in range(a, e - 1):
            for n in range(3, e - start + 2):
                out.append(STRAIGHTS[(start, n)])
        a = e + 1
    return out


def answers(counts: Sequence[int], top: Play) -> list[Play]:
    """Every play in ``counts`` that beats ``top`` (pass not included), lowest first."""
    if top.type != "straight":
        n = top.ncards
        row = OF_A_KIND[n]
        return [row[r] for r in range(top.key + 1, NRANKS) if counts[r] >= n]
    n = top.length
    out = []
    for start in range(top.key - n + 2, STRAIGHT_TOP - n + 2):
        if all(counts[r] for r in range(start, start + n)):
            out.append(STRAIGHTS[(start, n)])
    return out


def explain(counts: Sequence[int]) -> str:
    """Why these rank counts are not a combination, in words (for ``IllegalAction``)."""
    n = sum(counts)
    if n == 0:
        return Message("no cards", code="wakeng.no_cards")
    if any(c > 4 for c in counts):
        return Message("more cards of a rank than the pack has", code="wakeng.more_cards_rank_pack")
    ranks = [r for r in range(NRANKS) if counts[r]]
    if all(counts[r] == 1 for r in ranks) and n >= 2:
        if n == 2:
            return Message("two cards must be a pair of one rank (straights have at least 3 cards)",
                           code="wakeng.two_cards_must_pair")
        if any(r > STRAIGHT_TOP for r in ranks):
            return Message("A, 2 and 3 never join a straight", code="wakeng.never_join_straight")
        return Message("the cards are not consecutive ranks", code="wakeng.cards_not_consecutive_ranks")
    return (Message("not a combination: plays are a single, pair, triple or four of one rank, or a "
            "straight of 3+ ranks from 4 to K (no kickers, pair chains or bombs)",
                code="wakeng.not_combination_plays_single"))
