"""The fast core of the go referee: a board with incremental chains, liberties and Zobrist hashes.

Points are ints ``0 .. size*size - 1`` numbered row by row from the top-left corner, the SGF
order (``point = row * size + col``). Colours are ``EMPTY = 0``, ``BLACK = 1``, ``WHITE = 2``
(so the other colour of ``c`` is ``3 - c``).

Every chain keeps its stone list and its liberty set under its *head* point; ``head[p]`` names
the chain of the stone on ``p``. A play updates only the chains next to the point (merge the
smaller chains into the largest, take the point off neighbouring liberty sets, remove chains
left without liberties and give their points back as liberties), so nothing is flood-filled
per move. The board hash is the XOR of one random 64-bit key per (point, colour), updated with
every stone placed or removed, so a repetition check is one set lookup.
"""

from __future__ import annotations

import random
from functools import cache

from qipai.core.errors import Message

EMPTY, BLACK, WHITE = 0, 1, 2
COLOUR_NAMES = ("empty", "Black", "White")
# the fixed seed of the Zobrist keys: hashes are stable between runs and machines
_ZOBRIST_SEED = 0x9E3779B97F4A7C15


@cache
def neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """``neighbours(size)[p]``: the points orthogonally next to ``p`` (2 to 4 of them)."""
    out = []
    for p in range(size * size):
        r, c = divmod(p, size)
        nb = []
        if r > 0:
            nb.append(p - size)
        if c > 0:
            nb.append(p - 1)
        if c < size - 1:
            nb.append(p + 1)
        if r < size - 1:
            nb.append(p + size)
        out.append(tuple(nb))
    return tuple(out)


@cache
def diagonals(size: int) -> tuple[tuple[int, ...], ...]:
    """``diagonals(size)[p]``: the points diagonally next to ``p`` (1 to 4 of them)."""
    out = []
    for p in range(size * size):
        r, c = divmod(p, size)
        out.append(tuple((r + dr) * size + c + dc for dr in (-1, 1) for dc in (-1, 1)
                         if 0 <= r + dr < size and 0 <= c + dc < size))
    return tuple(out)


@cache
def zobrist(size: int) -> tuple[tuple[int, ...], ...]:
    """``zobrist(size)[colour][point]``: the 64-bit key of a stone (row 0 is unused)."""
    rng = random.Random(_ZOBRIST_SEED + size)
    n = size * size
    return ((0,) * n, tuple(rng.getrandbits(64) for _ in range(n)),
            tuple(rng.getrandbits(64) for _ in range(n)))


class Board:
    """Stones, chains and liberties of one board; no rules about turns or repetition.

    ``play(p, c)`` must only be called for a play that :meth:`play_hash` accepted (an empty
    point that is not suicide); the referee (``rules.GoState``) adds turn, ko and superko rules.
    """

    __slots__ = ("size", "n", "nbr", "zob", "color", "head", "stones", "libs", "hash",
                 "empties", "epos", "prisoners")

    def __init__(self, size: int) -> None:
        self.size = size
        self.n = n = size * size
        self.nbr = neighbours(size)
        self.zob = zobrist(size)
        self.color: list[int] = [EMPTY] * n
        self.head: list[int] = [-1] * n            # head point of the chain on p, -1 if empty
        self.stones: list[list[int] | None] = [None] * n   # by head: the chain's stones
        self.libs: list[set[int] | None] = [None] * n      # by head: the chain's liberties
        self.hash = 0
        self.empties: list[int] = list(range(n))   # the empty points, in no order
        self.epos: list[int] = list(range(n))      # index of p in empties (valid when empty)
        self.prisoners = [0, 0, 0]                 # stones captured by each colour

    # ----- copies ------------------------------------------------------------------------
    def copy(self) -> Board:
        new = object.__new__(Board)
        new.size, new.n, new.nbr, new.zob = self.size, self.n, self.nbr, self.zob
        new.color = self.color[:]
        new.head = self.head[:]
        new.stones = [s[:] if s is not None else None for s in self.stones]
        new.libs = [set(s) if s is not None else None for s in self.libs]
        new.hash = self.hash
        new.empties = self.empties[:]
        new.epos = self.epos[:]
        new.prisoners = self.prisoners[:]
        return new

    __copy__ = copy

    def __deepcopy__(self, memo) -> Board:
        return self.copy()

    # ----- queries -----------------------------------------------------------------------
    def chain(self, p: int) -> list[int]:
        """The stones of the chain on ``p`` (empty list for an empty point)."""
        h = self.head[p]
        return list(self.stones[h]) if h >= 0 else []

    def liberties(self, p: int) -> set[int]:
        """The liberties of the chain on ``p`` (empty set for an empty point)."""
        h = self.head[p]
        return set(self.libs[h]) if h >= 0 else set()

    def chain_heads(self) -> list[int]:
        """The head point of every chain on the board."""
        return [p for p in range(self.n) if self.head[p] == p]

    def play_hash(self, p: int, c: int) -> int:
        """The board hash after colour ``c`` plays on the empty point ``p`` (captures done),
        or ``-1`` when the play is suicide (the new chain would have no liberty)."""
        color = self.color
        head = self.head
        libs = self.libs
        any_lib = False
        caps = None
        for q in self.nbr[p]:
            cq = color[q]
            if cq == EMPTY:
                any_lib = True
            elif cq == c:
                if len(libs[head[q]]) > 1:
                    any_lib = True
            else:
                h = head[q]
                if len(libs[h]) == 1:
                    if caps is None:
                        caps = [h]
                    elif h not in caps:
                        caps.append(h)
        if caps is None:
            if not any_lib:
                return -1
            return self.hash ^ self.zob[c][p]
        hh = self.hash ^ self.zob[c][p]
        zo = self.zob[3 - c]
        stones = self.stones
        for h in caps:
            for s in stones[h]:
                hh ^= zo[s]
        return hh

    def would_capture(self, p: int, c: int) -> int:
        """How many stones a play of ``c`` on the empty point ``p`` would capture."""
        color, head, libs = self.color, self.head, self.libs
        seen = []
        total = 0
        for q in self.nbr[p]:
            if color[q] == 3 - c:
                h = head[q]
                if h not in seen and len(libs[h]) == 1:
                    seen.append(h)
                    total += len(self.stones[h])
        return total

    # ----- changes -----------------------------------------------------------------------
    def play(self, p: int, c: int) -> list[int]:
        """Put a stone of colour ``c`` on the empty point ``p`` and remove the opposing chains
        left without liberties. Returns the captured points. No legality check."""
        color = self.color
        head = self.head
        libs = self.libs
        stones = self.stones
        color[p] = c
        self.hash ^= self.zob[c][p]
        # take p out of the empty list
        empties, epos = self.empties, self.epos
        i = epos[p]
        last = empties.pop()
        if last != p:
            empties[i] = last
            epos[last] = i
        newlibs = set()
        friends = []
        enemies = []
        for q in self.nbr[p]:
            cq = color[q]
            if cq == EMPTY:
                newlibs.add(q)
            elif cq == c:
                h = head[q]
                if h not in friends:
                    friends.append(h)
            else:
                h = head[q]
                if h not in enemies:
                    enemies.append(h)
        if not friends:
            head[p] = p
            stones[p] = [p]
            libs[p] = newlibs
        else:
            big = friends[0]
            for h in friends:
                if len(stones[h]) > len(stones[big]):
                    big = h
            bs = stones[big]
            bl = libs[big]
            for h in friends:
                if h != big:
                    hs = stones[h]
                    for s in hs:
                        head[s] = big
                    bs.extend(hs)
                    bl |= libs[h]
                    stones[h] = None
                    libs[h] = None
            bl.discard(p)
            bl |= newlibs
            bs.append(p)
            head[p] = big
        captured: list[int] = []
        for h in enemies:
            hl = libs[h]
            hl.discard(p)
            if not hl:
                captured.extend(self._remove_chain(h))
        if captured:
            self.prisoners[c] += len(captured)
        return captured

    def _remove_chain(self, h: int) -> list[int]:
        color = self.color
        head = self.head
        zo = self.zob[color[h]]
        chain = self.stones[h]
        self.stones[h] = None
        self.libs[h] = None
        empties, epos = self.empties, self.epos
        hh = self.hash
        for s in chain:
            color[s] = EMPTY
            head[s] = -1
            hh ^= zo[s]
            epos[s] = len(empties)
            empties.append(s)
        self.hash = hh
        libs = self.libs
        nbr = self.nbr
        for s in chain:
            for t in nbr[s]:
                ht = head[t]
                if ht >= 0:
                    libs[ht].add(s)
        return chain

    def place(self, p: int, c: int) -> None:
        """Put a setup stone (SGF AB/AW, handicap). Raises ``ValueError`` when the point is
        taken or the stone would leave a chain without liberty."""
        if self.color[p] != EMPTY:
            raise ValueError(Message("the point is already occupied", code="go.point_taken"))
        if self.play_hash(p, c) == -1 or self.would_capture(p, c):
            raise ValueError(Message("a setup stone may not leave a chain without liberty",
                                     code="go.setup_no_liberty"))
        self.play(p, c)

    def remove(self, points) -> None:
        """Take the stones on ``points`` off the board (dead stones at the end, SGF AE)."""
        for p in points:
            if self.color[p] == EMPTY:
                continue
            h = self.head[p]
            chain = [s for s in self.stones[h] if s != p]
            c = self.color[p]
            self._remove_chain(h)
            for s in chain:       # put the rest of the chain back stone by stone
                self.play(s, c)

    # ----- scoring -----------------------------------------------------------------------
    def regions(self, dead: set[int] | frozenset[int] = frozenset()):
        """The empty regions with the points in ``dead`` counted as empty.

        Yields ``(points, touches)``: the region's points and a bit set of the colours of the
        stones around it (1 = Black, 2 = White, 3 = both, 0 = none).
        """
        color = [EMPTY if p in dead else c for p, c in enumerate(self.color)] if dead else self.color
        seen = [False] * self.n
        nbr = self.nbr
        for start in range(self.n):
            if color[start] != EMPTY or seen[start]:
                continue
            seen[start] = True
            stack = [start]
            pts = []
            touches = 0
            while stack:
                p = stack.pop()
                pts.append(p)
                for q in nbr[p]:
                    cq = color[q]
                    if cq == EMPTY:
                        if not seen[q]:
                            seen[q] = True
                            stack.append(q)
                    else:
                        touches |= cq
            yield pts, touches

    def area(self, dead: set[int] | frozenset[int] = frozenset()) -> tuple[float, float]:
        """Area count (数子法) with the stones on ``dead`` removed: ``(black, white)``.

        A stone counts 1 for its colour; an empty region touching only one colour counts 1 per
        point for that colour; a region touching both colours or none is shared, 1/2 per point
        to each side (rules §4.3). ``black + white == size * size``.
        """
        b = w = 0.0
        for p, c in enumerate(self.color):
            if c and p not in dead:
                if c == BLACK:
                    b += 1
                else:
                    w += 1
        for pts, touches in self.regions(dead):
            k = len(pts)
            if touches == BLACK:
                b += k
            elif touches == WHITE:
                w += k
            else:
                b += k / 2
                w += k / 2
        return b, w

    def owners(self, dead: set[int] | frozenset[int] = frozenset()) -> list[int]:
        """Per point: the colour the area count gives it (0 for a shared point)."""
        out = [EMPTY] * self.n
        for p, c in enumerate(self.color):
            if c and p not in dead:
                out[p] = c
        for pts, touches in self.regions(dead):
            if touches in (BLACK, WHITE):
                for p in pts:
                    out[p] = touches
        return out

    def check(self) -> None:
        """Recompute chains and liberties from scratch and compare (for tests)."""
        seen = set()
        for p in range(self.n):
            c = self.color[p]
            if c == EMPTY:
                assert self.head[p] == -1, p
                continue
            if p in seen:
                continue
            stack, chain, libs = [p], {p}, set()
            while stack:
                q = stack.pop()
                for t in self.nbr[q]:
                    if self.color[t] == c and t not in chain:
                        chain.add(t)
                        stack.append(t)
                    elif self.color[t] == EMPTY:
                        libs.add(t)
            seen |= chain
            h = self.head[p]
            assert all(self.head[q] == h for q in chain), p
            assert set(self.stones[h]) == chain, p
            assert self.libs[h] == libs, (p, self.libs[h], libs)
            assert libs, p
        assert sorted(self.empties) == [p for p in range(self.n) if self.color[p] == EMPTY]
        assert all(self.empties[self.epos[p]] == p for p in self.empties)
        hh = 0
        for p, c in enumerate(self.color):
            if c:
                hh ^= self.zob[c][p]
        assert hh == self.hash
