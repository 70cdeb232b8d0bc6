"""The legal-point set of a go game, kept up to date move by move.

Almost every empty point is a legal play. The exceptions are few and local:

* **suicide**: an empty point whose neighbours are all stones, where every chain of the
  player's own colour around it is in atari (one liberty, this point) and no opposing chain
  around it is in atari (so the play captures nothing);
* **repetition**: a play that would recreate a board seen before (positional or situational
  superko, or the immediate retake of simple ko).

:class:`LegalPoints` keeps, per colour, the sorted list of empty points that are not
suicide for it, and the chains in atari with their one liberty. A play changes these only near the
point played and the stones it captured, so each play re-examines a handful of points instead
of every empty point of the board.

Repetitions are found without trying every point either. A play that captures nothing adds one
stone of its colour, so the board it makes can only equal a seen board with exactly that many
stones of each colour; the seen boards are indexed by their stone counts, and the XOR of the
current hash with each such board names the one point (if any) whose stone makes it. Plays
that capture are the liberties of the opposing chains in atari, a few points, each checked in
full. Every candidate found this way is confirmed by the referee's own legality check, so the
ko rule in force (positional, situational, natural situational superko, simple ko) decides.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from .board import BLACK, EMPTY, WHITE, Board, zobrist


class LegalPoints:
    """Incremental legality facts of one :class:`~.board.Board` (which it plays on).

    ``points[c]``: the empty points where colour ``c`` (1 Black, 2 White) may play as far as
    liberties go (every empty point but its suicide points), sorted; ``moves[c]``: the action
    object of each, in the same order (``table[p]``; ``table`` holds one action per point, then
    the pass: :func:`.rules.moves_table`); ``playable[c]``: a ``bytearray`` of one flag per
    point, ``1`` where ``p`` is in ``points[c]`` (the research env's action mask is a copy of
    it); ``atari``: chain
    head -> its only liberty; ``counts[c]``: stones of colour ``c`` on the board; ``boards``:
    ``(black stones, white stones)`` -> the hashes of the boards seen with those counts;
    ``fewest[c]``: stones of ``c`` -> the fewest opposing stones on a seen board with that many.

    Every change of the board must go through :meth:`play` once this object exists.
    """

    __slots__ = ("board", "table", "points", "moves", "playable", "atari", "counts", "boards",
                 "fewest")

    def __init__(self, board: Board, table: Sequence[Any]) -> None:
        self.board = board
        self.table = table
        self.points: list[list[int]] = [[], [], []]
        self.moves: list[list[Any]] = [[], [], []]
        self.playable = [bytearray(), bytearray(board.n), bytearray(board.n)]  # q in points[c]
        self.atari: dict[int, int] = {}
        for h in board.chain_heads():
            if len(board.libs[h]) == 1:
                self.atari[h] = next(iter(board.libs[h]))
        self._recheck(range(board.n))
        color = board.color
        self.counts = [0, color.count(BLACK), color.count(WHITE)]
        self.boards: dict[tuple[int, int], list[int]] = {}
        self.fewest: list[dict[int, int]] = [{}, {}, {}]
        self._remember()

    def copy(self, board: Board) -> LegalPoints:
        """A copy that follows ``board`` (a copy of this object's board)."""
        new = object.__new__(LegalPoints)
        new.board = board
        new.table = self.table
        new.points = [p[:] for p in self.points]
        new.moves = [m[:] for m in self.moves]
        new.playable = [p[:] for p in self.playable]
        new.atari = dict(self.atari)
        new.counts = self.counts[:]
        new.boards = {k: v[:] for k, v in self.boards.items()}
        new.fewest = [dict(f) for f in self.fewest]
        return new

    # ----- changes ------------------------------------------------------------------------
    def play(self, p: int, c: int) -> list[int]:
        """Play colour ``c`` on the empty point ``p`` (a play the referee accepted) and bring
        the facts up to date. Returns the captured points, as :meth:`Board.play`."""
        board = self.board
        head, nbr, atari = board.head, board.nbr, self.atari
        recheck = {p, *nbr[p]}
        # chains around p change their liberties: forget their atari entries (old liberty
        # points are re-examined), the entries are made again below from their new liberties
        if atari:
            for q in nbr[p]:
                lib = atari.pop(head[q], None)
                if lib is not None:
                    recheck.add(lib)
        captured = board.play(p, c)
        changed = [head[p]]                       # the chain of the new stone, those around
        for q in nbr[p]:
            if head[q] >= 0:
                changed.append(head[q])
        if captured:
            recheck.update(captured)
            for s in captured:
                for t in nbr[s]:
                    h = head[t]
                    if h >= 0:
                        changed.append(h)
                        lib = atari.pop(h, None)
                        if lib is not None:
                            recheck.add(lib)
        libs = board.libs
        for h in changed:
            if len(libs[h]) == 1:
                lib = next(iter(libs[h]))
                atari[h] = lib
                recheck.add(lib)
        self._recheck(recheck)
        counts = self.counts
        counts[c] += 1
        counts[3 - c] -= len(captured)
        self._remember()
        return captured

    def _remember(self) -> None:
        _, black, white = self.counts
        self.boards.setdefault((black, white), []).append(self.board.hash)
        fewest = self.fewest
        if white < fewest[BLACK].get(black, white + 1):
            fewest[BLACK][black] = white
        if black < fewest[WHITE].get(white, black + 1):
            fewest[WHITE][white] = black

    def _recheck(self, points) -> None:
        """Bring the membership of ``points`` in ``points[c]`` (and ``moves[c]``) up to date
        for both colours."""
        board = self.board
        color, head, nbr, atari = board.color, board.head, board.nbr, self.atari
        playable = self.playable
        black, white = playable[BLACK], playable[WHITE]
        for q in points:
            ok_black = ok_white = 0         # flags as the bytearrays hold them
            if color[q] == EMPTY:
                # a colour may play on q when a neighbour is empty, when a chain of its own
                # around q has another liberty, or when an opposing chain around q is in atari
                for t in nbr[q]:
                    ct = color[t]
                    if ct == EMPTY:
                        ok_black = ok_white = 1
                        break
                    if head[t] in atari:          # that chain's only liberty is q
                        if ct == BLACK:
                            ok_white = 1
                        else:
                            ok_black = 1
                    elif ct == BLACK:
                        ok_black = 1
                    else:
                        ok_white = 1
            if black[q] != ok_black:
                self._toggle(BLACK, q, ok_black)
            if white[q] != ok_white:
                self._toggle(WHITE, q, ok_white)

    def _toggle(self, c: int, q: int, now: int) -> None:
        """Put ``q`` into ``points[c]`` (and ``moves[c]``) when ``now`` (1), else take it out."""
        points = self.points[c]
        i = bisect_left(points, q)
        if now:
            points.insert(i, q)
            self.moves[c].insert(i, self.table[q])
        else:
            del points[i]
            del self.moves[c][i]
        self.playable[c][q] = now

    # ----- queries ------------------------------------------------------------------------
    def repeating(self, c: int, play_hash: Callable[[int, int], int]) -> frozenset[int] | set[int]:
        """The points of ``points[c]`` where the ko rule forbids ``c`` to play.
        ``play_hash(p, c)`` is the referee's full check (``-1``: illegal); it decides every
        play that might repeat a board."""
        board = self.board
        color, counts, boards = board.color, self.counts, self.boards
        mine, theirs = counts[c] + 1, counts[3 - c]       # stones after a play of c
        candidates = []
        # plays that capture: the liberties of the opposing chains in atari, with the stones
        # each would take; only stone counts seen before can repeat a board
        if self.fewest[c].get(mine, theirs) < theirs:
            taken: dict[int, int] = {}
            stones = board.stones
            for h, lib in self.atari.items():
                if color[h] != c:
                    taken[lib] = taken.get(lib, 0) + len(stones[h])
            for lib, k in taken.items():
                if ((mine, theirs - k) if c == BLACK else (theirs - k, mine)) in boards:
                    candidates.append(lib)
        # plays that capture nothing: the point whose stone turns this board into a seen one
        seen_boards = boards.get((mine, theirs) if c == BLACK else (theirs, mine))
        if seen_boards:
            hh = board.hash
            keys = point_of_key(board.size)[c]
            for seen in seen_boards:
                p = keys.get(hh ^ seen)
                if p is not None and color[p] == EMPTY:
                    candidates.append(p)
        if not candidates:
            return _NOTHING
        playable = self.playable[c]
        return {p for p in candidates if playable[p] and play_hash(p, c) == -1}

    def index(self, c: int, p: int) -> int:
        """The index of ``p`` in ``points[c]`` (it must be there)."""
        return bisect_left(self.points[c], p)

    def check(self) -> None:
        """Recompute every fact from the board and compare (for tests)."""
        fresh = LegalPoints(self.board, self.table)
        assert fresh.points == self.points, (fresh.points, self.points)
        assert fresh.moves == self.moves
        assert fresh.atari == self.atari, (fresh.atari, self.atari)
        assert fresh.counts == self.counts


_NOTHING: frozenset[int] = frozenset()


@cache
def point_of_key(size: int) -> tuple[dict[int, int], ...]:
    """``point_of_key(size)[c]``: the Zobrist key of a stone of colour ``c`` -> its point."""
    zob = zobrist(size)
    return ({}, *({k: p for p, k in enumerate(zob[c])} for c in (BLACK, WHITE)))
