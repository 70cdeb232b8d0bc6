"""4A4 combinations (rule file §3.1-§3.3): the play types, the bomb order, legal-play generation,
and the out-of-turn 叉/勾 answers (§3.4).

Ranks are indexes 0..14 of ``3 4 5 6 7 8 9 T J Q K A 2 L B`` (``L``/``B`` = small/big joker);
chain ranks are 0..11 (``3``..``A``; ``A`` only high). A play is a rank multiset (suits never
matter) and every card set reads as at most one type, so each play is one interned
:class:`Play` found by its rank counts and written as its rank string, lowest rank first.
"""

from __future__ import annotations

from collections.abc import Sequence

from qipai.cards import DOUDIZHU
from qipai.cards.rankplay import RankPlay
from qipai.core.errors import Message

ORDER = DOUDIZHU
NRANKS = 15
CHAIN_TOP = 11                  # A
TWO, SMALL, BIG = 12, 13, 14
FOUR, ACE = 1, 11
TYPES = ("single", "pair", "straight", "sisters", "bomb3", "bomb4", "joker_bomb", "fouafour")
#: bomb class (§3.3): fouafour > joker_bomb > bomb4 > bomb3 > every non-bomb (0)
BOMB_CLASS = {"bomb3": 1, "bomb4": 2, "joker_bomb": 3, "fouafour": 4}
TYPE_NAMES_ZH = {"single": "单张", "pair": "对子", "straight": "顺子", "sisters": "姊妹对",
                 "bomb3": "三张炸弹", "bomb4": "四张炸弹", "joker_bomb": "双王炸弹", "fouafour": "4A4"}


class Play(RankPlay):
    """One distinct play (see :class:`~qipai.cards.rankplay.RankPlay`): ``type`` is one of
    :data:`TYPES`; ``length`` the ranks of a chain, else 1; ``key`` the rank, or a chain's
    highest rank; ``bomb`` its bomb class (0 for a non-bomb)."""

    __slots__ = ("bomb",)
    order = ORDER

    def __init__(self, type_: str, length: int, key: int, counts: tuple[int, ...]) -> None:
        super().__init__(type_, length, key, counts)
        self.bomb = BOMB_CLASS.get(type_, 0)

    def beats(self, other: Play) -> bool:
        """§3.3: a bomb beats every play of a lower class; within ``bomb3`` or ``bomb4`` the
        higher rank beats; nothing beats a ``joker_bomb`` but a ``fouafour``, and nothing beats a
        ``fouafour`` (D9); non-bombs need the same type, the same length and a higher key."""
        if self.bomb != other.bomb:
            return self.bomb > other.bomb
        if self.bomb == 0:
            return self.type == other.type and self.length == other.length and self.key > other.key
        return self.bomb in (1, 2) and self.key > other.key

    def __reduce__(self):
        return (play_of, (self.counts,))


class Claim:
    """An out-of-turn answer (§3.4, D5): ``cha`` (叉) plays the two other cards of the rank of a
    single just played; ``gou`` (勾) plays the fourth card after a 叉. ``play`` is the pair or
    single; ``rank`` its rank index; ``text`` is ``cha 77`` or ``gou 7``."""

    __slots__ = ("type", "rank", "play", "text")

    def __init__(self, kind: str, rank: int) -> None:
        self.type = kind
        self.rank = rank
        self.play = OF_A_KIND[2 if kind == "cha" else 1][rank]
        self.text = f"{kind} {self.play.text}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Claim({self.text!r})"

    def __reduce__(self):
        return (claim, (self.type, self.rank))


def _counts(pairs: dict[int, int]) -> tuple[int, ...]:
    c = [0] * NRANKS
    for r, n in pairs.items():
        c[r] = n
    return tuple(c)


_KIND_NAMES = {1: "single", 2: "pair", 3: "bomb3", 4: "bomb4"}
#: ``OF_A_KIND[n][r]``: ``n`` cards of rank index ``r`` (jokers only as singles)
OF_A_KIND: list[dict[int, Play]] = [{}] + [
    {r: Play(_KIND_NAMES[n], 1, r, _counts({r: n})) for r in range(NRANKS if n == 1 else TWO + 1)}
    for n in range(1, 5)]
#: ``CHAINS[(per, start, n)]``: ``n`` consecutive chain ranks from ``start``, ``per`` cards each
CHAINS: dict[tuple[int, int, int], Play] = {
    (per, a, n): Play("straight" if per == 1 else "sisters", n, a + n - 1,
                      _counts({r: per for r in range(a, a + n)}))
    for per in (1, 2) for n in range(3, CHAIN_TOP + 2) for a in range(0, CHAIN_TOP - n + 2)}
JOKER_BOMB = Play("joker_bomb", 1, BIG, _counts({SMALL: 1, BIG: 1}))
FOUAFOUR = Play("fouafour", 1, ACE, _counts({FOUR: 2, ACE: 1}))
ALL_PLAYS: tuple[Play, ...] = (*(p for row in OF_A_KIND for p in row.values()), *CHAINS.values(),
                               JOKER_BOMB, FOUAFOUR)
_BY_COUNTS: dict[tuple[int, ...], Play] = {p.counts: p for p in ALL_PLAYS}
_CLAIMS = {(k, r): Claim(k, r) for k in ("cha", "gou") for r in range(TWO + 1)}


def play_of(counts: Sequence[int]) -> Play | None:
    """The play made of exactly these rank counts, or ``None`` when they are no combination."""
    return _BY_COUNTS.get(tuple(counts))


def claim(kind: str, rank: int) -> Claim:
    """The interned ``cha`` or ``gou`` of rank index ``rank`` (``3``..``2``). Raises ``KeyError``."""
    return _CLAIMS[(kind, rank)]


def leads(counts: Sequence[int]) -> list[Play]:
    """Every play contained in ``counts``: singles, pairs, straights, sisters, then bombs."""
    out = [OF_A_KIND[1][r] for r in range(NRANKS) if counts[r]]
    out += [OF_A_KIND[2][r] for r in range(TWO + 1) if counts[r] >= 2]
    for per in (1, 2):
        a = 0
        while a <= CHAIN_TOP:
            if counts[a] < per:
                a += 1
                continue
            e = a
            while e < CHAIN_TOP and counts[e + 1] >= per:
                e += 1
            for start in range(a, e - 1):
                for n in range(3, e - start + 2):
                    out.append(CHAINS[(per, start, n)])
            a = e + 1
    out += [OF_A_KIND[3][r] for r in range(TWO + 1) if counts[r] >= 3]
    out += [OF_A_KIND[4][r] for r in range(TWO + 1) if counts[r] == 4]
    if counts[SMALL] and counts[BIG]:
        out.append(JOKER_BOMB)
    if counts[FOUR] >= 2 and counts[ACE]:
        out.append(FOUAFOUR)
    return out


def answers(counts: Sequence[int], top: Play) -> list[Play]:
    """Every play in ``counts`` that beats ``top`` (pass not included)."""
    return [p for p in leads(counts) if p.beats(top)]


def explain(counts: Sequence[int]) -> str:
    """Why these rank counts are not a combination, in words (for ``IllegalAction``)."""
    n = sum(counts)
    if n == 0:
        return Message("no cards", code="fouafour.no_cards")
    if any(c > 4 for c in counts) or counts[SMALL] > 1 or counts[BIG] > 1:
        return Message("more cards of a rank than the pack has", code="fouafour.more_cards_rank_pack")
    ranks = [r for r in range(NRANKS) if counts[r]]
    if n == 2 and ranks[0] < SMALL <= ranks[-1]:
        return Message("a joker pairs only with the other joker (LB)", code="fouafour.joker_pairs_only_other")
    if len(ranks) >= 2 and len({counts[r] for r in ranks}) == 1 and counts[ranks[0]] in (1, 2):
        if any(r > CHAIN_TOP for r in ranks):
            return Message("2s and jokers never join a straight or sisters",
                           code="fouafour.jokers_never_join_straight")
        if len(ranks) < 3:
            return Message("a chain needs at least three consecutive ranks (straight 345, sisters 334455)",
                           code="fouafour.chain_needs_least_three")
        return Message("the ranks are not consecutive", code="fouafour.ranks_not_consecutive")
    return (Message("not a combination: single, pair, straight, sisters, three or four of a kind (bombs), "
            "LB or 44A (no kickers)", code="fouafour.not_combination_single_pair"))
