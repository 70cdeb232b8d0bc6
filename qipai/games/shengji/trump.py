"""Trump membership, effective suit and card order of a hand (rules/shengji.md §3.1, §3.2).

A :class:`Trump` is fixed by the hand level ``r`` (2..14), the trump suit (``S H D C`` or
``None`` for no-trump) and the 常主 option (every 2 is a trump). It maps each of the 54 face
codes to its effective suit (``TRUMP`` or the printed suit) and its ``pos`` (a step number in
that effective suit: higher beats lower, equal is equal strength).
"""

from __future__ import annotations

from functools import cache

from qipai.cards.card import RANKS

TRUMP = "TRUMP"
SUITS = "SHDC"
SUIT_PREF = {"S": 0, "H": 1, "C": 2, "D": 3}     # tie-break order S, H, C, D (first wins)
SUIT_ASC = {"D": 0, "C": 1, "H": 2, "S": 3}      # ascending D < C < H < S (default actions)
FACES = tuple([r + s for r in RANKS for s in SUITS] + ["LJ", "BJ"])
POINTS = {"5": 5, "T": 10, "K": 10}


def rank_char(level: int) -> str:
    """The rank character of a level 2..14 (``T`` for 10, ``A`` for 14)."""
    return RANKS[level - 2]


def face_points(face: str) -> int:
    """Card points of a face: 5 → 5, T → 10, K → 10, else 0 (§1.1)."""
    return POINTS.get(face[0], 0) if face[1] != "J" else 0


#: :func:`face_points` of every face code
FACE_POINTS = {f: face_points(f) for f in FACES}


class Trump:
    """The trump context of one hand: ``level`` (2..14), ``suit`` (``S H D C`` or ``None`` =
    NT), ``two_always`` (常主). ``eff[face]`` and ``pos[face]`` for every face code."""

    __slots__ = ("level", "suit", "two_always", "eff", "pos", "r", "sort_keys", "_display")

    def __init__(self, level: int, suit: str | None, two_always: bool = False) -> None:
        if not 2 <= level <= 14:
            raise ValueError(f"level must be 2..14, got {level}")
        if suit is not None and suit not in SUITS:
            raise ValueError(f"trump suit must be S, H, D, C or None (NT), got {suit!r}")
        self.level, self.suit = level, suit
        r = rank_char(level)
        self.r = r
        two = two_always and r != "2"
        self.two_always = two
        side_ranks = [x for x in RANKS if x != r and not (two and x == "2")]
        eff: dict[str, str] = {}
        pos: dict[str, int] = {}
        for s in SUITS:
            for i, x in enumerate(side_ranks):
                eff[x + s] = s
                pos[x + s] = i
        steps: list[list[str]] = []
        if suit is not None:
            steps += [[x + suit] for x in side_ranks]
        if two:
            if suit is not None:
                steps.append(["2" + s for s in SUITS if s != suit])
                steps.append(["2" + suit])
            else:
                steps.append(["2" + s for s in SUITS])
        if suit is not None:
            steps.append([r + s for s in SUITS if s != suit])
            steps.append([r + suit])
        else:
            steps.append([r + s for s in SUITS])
        steps += [["LJ"], ["BJ"]]
        for i, group in enumerate(steps):
            for f in group:
                eff[f] = TRUMP
                pos[f] = i
        self.eff, self.pos = eff, pos
        #: :meth:`sort_key` of every face code
        self.sort_keys = {f: self.sort_key(f) for f in eff}
        self._display: dict[str, tuple[int, int, int]] | None = None

    @property
    def spec(self) -> str:
        """``H`` or ``NT``."""
        return self.suit or "NT"

    def is_trump(self, face: str) -> bool:
        return self.eff[face] == TRUMP

    def sort_key(self, face: str) -> tuple[int, int, int]:
        """Ascending order of §5.4: non-trump before trump, then ``pos``, then D < C < H < S."""
        return (self.eff[face] == TRUMP, self.pos[face], SUIT_ASC.get(face[1], 0))

    def display_key(self, face: str) -> tuple[int, int, int]:
        """Strongest first within groups: trump, then S, H, C, D; high ``pos`` first."""
        e = self.eff[face]
        group = -1 if e == TRUMP else SUIT_PREF[e]
        return (group, -self.pos[face], SUIT_PREF.get(face[1], 0))

    def display_keys(self) -> dict[str, tuple[int, int, int]]:
        """:meth:`display_key` of every face code (computed on the first call, then kept)."""
        keys = self._display
        if keys is None:
            keys = self._display = {f: self.display_key(f) for f in self.eff}
        return keys

    def __repr__(self) -> str:
        return f"Trump(level={self.level}, suit={self.spec}, two_always={self.two_always})"


@cache
def trump_of(level: int, suit: str | None, two_always: bool = False) -> Trump:
    """``Trump(level, suit, two_always)``, made once per context and shared (a Trump never
    changes once made; a search makes a hand's many times)."""
    return Trump(level, suit, two_always)
