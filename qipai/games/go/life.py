"""The dead-stone proposer: which stones are dead at the end of a game (a suggestion only).

:func:`propose_dead` combines two steps.

1. **Benson's unconditional life** (:func:`benson_alive`). For a colour, take its chains X and
   the regions R (maximal connected sets of points that are not of that colour). A region is
   *vital* to a chain when every empty point of the region is a liberty of that chain. Repeat
   until nothing changes: drop from X every chain with fewer than two vital regions among the
   regions whose bordering chains are all still in X; drop from R every region bordering a
   dropped chain. The chains left in X can never be captured, even if their owner always
   passes. Such chains are alive. Stones of the other colour standing in a region enclosed only
   by such chains, in which every empty point touches the enclosing chains, have no room for
   an eye: they are dead.
2. **Monte Carlo ownership** (the heuristic) for every other chain: ``playouts`` random games
   are played from the position (half with Black first, half with White first), in which
   neither side fills its own eye (an empty point whose neighbours are all its stones, with at
   most one opposing diagonal, none at the edge) nor plays a self-atari of more than one stone
   unless it captures; each playout ends after two passes and is counted by area. A chain is
   proposed dead when its points belong to the opponent at the end of more than half of the
   playouts. The random stream is seeded from the board's hash, so a position always gets the
   same proposal.

The proposal is never applied by itself: players mark and agree (rules §4.2), or an arbiter
decides.
"""

from __future__ import annotations

import random

from .board import BLACK, EMPTY, WHITE, Board, diagonals

DEFAULT_PLAYOUTS = 64


def _regions(board: Board, colour: int) -> list[tuple[list[int], list[int], set[int]]]:
    """Regions of points not of ``colour``: (points, empty points, bordering chain heads)."""
    color, head, nbr = board.color, board.head, board.nbr
    seen = [False] * board.n
    out = []
    for start in range(board.n):
        if color[start] == colour or seen[start]:
            continue
        seen[start] = True
        stack, pts, empties, border = [start], [], [], set()
        while stack:
            p = stack.pop()
            pts.append(p)
            if color[p] == EMPTY:
                empties.append(p)
            for q in nbr[p]:
                if color[q] == colour:
                    border.add(head[q])
                elif not seen[q]:
                    seen[q] = True
                    stack.append(q)
        out.append((pts, empties, border))
    return out


def benson_alive(board: Board, colour: int) -> tuple[set[int], list[list[int]]]:
    """Benson's algorithm: the heads of the unconditionally alive chains of ``colour``, and the
    regions (point lists) enclosed only by them."""
    libs = board.libs
    chains = {h for h in board.chain_heads() if board.color[h] == colour}
    regions = _regions(board, colour)
    # vital[i] = chains to which region i is vital
    vital = []
    for _pts, empties, border in regions:
        v = set()
        for h in border:
            if all(e in libs[h] for e in empties):
                v.add(h)
        vital.append(v)
    live_regions = set(range(len(regions)))
    while True:
        healthy_count = dict.fromkeys(chains, 0)
        for i in live_regions:
            for h in vital[i]:
                if h in healthy_count:
                    healthy_count[h] += 1
        drop = {h for h, k in healthy_count.items() if k < 2}
        if not drop:
            break
        chains -= drop
        live_regions = {i for i in live_regions if regions[i][2] <= chains}
    enclosed = [regions[i][0] for i in live_regions if regions[i][2] and regions[i][2] <= chains]
    return chains, enclosed


def _unconditional(board: Board) -> tuple[set[int], set[int]]:
    """(alive stones, dead stones) that Benson's analysis settles."""
    alive: set[int] = set()
    dead: set[int] = set()
    for colour in (BLACK, WHITE):
        chains, enclosed = benson_alive(board, colour)
        for h in chains:
            alive.update(board.stones[h])
        for pts in enclosed:
            empties = [p for p in pts if board.color[p] == EMPTY]
            touching = all(any(board.color[q] == colour for q in board.nbr[e]) for e in empties)
            if touching:
                dead.update(p for p in pts if board.color[p] == 3 - colour)
    return alive, dead - alive


def _is_own_eye(board: Board, p: int, c: int, diag) -> bool:
    color = board.color
    for q in board.nbr[p]:
        if color[q] != c:
            return False
    bad = 0
    for q in diag[p]:
        if color[q] == 3 - c:
            bad += 1
    return bad == 0 if len(diag[p]) < 4 else bad <= 1


def _self_atari(board: Board, p: int, c: int) -> bool:
    """A play that leaves its own chain of 2+ stones with one liberty and captures nothing."""
    color, head, libs, nbr = board.color, board.head, board.libs, board.nbr
    new_libs = set()
    size = 1
    merged = []
    for q in nbr[p]:
        cq = color[q]
        if cq == EMPTY:
            new_libs.add(q)
        elif cq == c:
            h = head[q]
            if h not in merged:
                merged.append(h)
                size += len(board.stones[h])
                new_libs |= libs[h]
        elif len(libs[head[q]]) == 1:
            return False               # captures
    new_libs.discard(p)
    return size >= 2 and len(new_libs) <= 1


def playout_owners(board: Board, first: int, rng: random.Random) -> list[int]:
    """Play one random game from ``board`` (a copy is used) and return the area owner of
    every point at its end (0 for shared points)."""
    b = board.copy()
    diag = diagonals(b.size)
    c = first
    passes = 0
    ko = -1
    limit = 3 * b.n
    moves = 0
    while passes < 2 and moves < limit:
        empties = b.empties
        k = len(empties)
        played = False
        while k:
            i = rng.randrange(k)
            p = empties[i]
            ok = p != ko and not _is_own_eye(b, p, c, diag) and b.play_hash(p, c) != -1 \
                and not _self_atari(b, p, c)
            if ok:
                caps = b.play(p, c)
                ko = caps[0] if len(caps) == 1 and len(b.stones[b.head[p]]) == 1 else -1
                played = True
                break
            k -= 1
            empties[i], empties[k] = empties[k], empties[i]
            b.epos[empties[i]] = i
            b.epos[empties[k]] = k
        passes = 0 if played else passes + 1
        if not played:
            ko = -1
        c = 3 - c
        moves += 1
    return b.owners()


def _tally(board: Board, playouts: int) -> tuple[list[int], list[int]]:
    """Over ``playouts`` random games from ``board`` (half with Black first), how often each
    point ends Black's and how often White's. Seeded from the board's hash."""
    rng = random.Random(board.hash ^ 0x51ED)
    black = [0] * board.n
    white = [0] * board.n
    for i in range(playouts):
        owners = playout_owners(board, BLACK if i % 2 == 0 else WHITE, rng)
        for p, o in enumerate(owners):
            if o == BLACK:
                black[p] += 1
            elif o == WHITE:
                white[p] += 1
    return black, white


def _dead(board: Board, playouts: int, tally=None) -> tuple[set[int], tuple | None]:
    alive, dead = _unconditional(board)
    undecided = [h for h in board.chain_heads() if board.stones[h][0] not in alive
                 and board.stones[h][0] not in dead]
    if not undecided or playouts <= 0:
        return dead, tally
    if tally is None:
        tally = _tally(board, playouts)
    for h in undecided:
        stones = board.stones[h]
        theirs = tally[1] if board.color[stones[0]] == BLACK else tally[0]
        share = sum(theirs[p] for p in stones) / (len(stones) * playouts)
        if share > 0.5:
            dead.update(stones)
    return dead, tally


def propose_dead(board: Board, playouts: int = DEFAULT_PLAYOUTS) -> set[int]:
    """The stones proposed dead on ``board`` (a set of points, whole chains). See the module
    docstring for the method."""
    return _dead(board, playouts)[0]


ESTIMATE_PLAYOUTS = 128
NEAR = 4                        # how far (steps) a stone's influence reaches in an estimate


def _distances(board: Board, colour: int, dead: set[int]) -> list[int]:
    """Steps from every point to the nearest stone of ``colour`` not in ``dead`` (a large
    number where there is none)."""
    far = 4 * board.n
    dist = [far] * board.n
    frontier = [p for p in range(board.n) if board.color[p] == colour and p not in dead]
    for p in frontier:
        dist[p] = 0
    while frontier:
        nxt = []
        for p in frontier:
            d = dist[p] + 1
            for q in board.nbr[p]:
                if dist[q] > d:
                    dist[q] = d
                    nxt.append(q)
        frontier = nxt
    return dist


def estimate(board: Board, playouts: int = ESTIMATE_PLAYOUTS) -> tuple[set[int], list[int]]:
    """A score estimate during play (as OGS's on request): ``(dead, owners)``, the stones the
    proposer's method (:func:`propose_dead`, here with ``playouts`` playouts) takes off and the
    owner of every point (``BLACK``, ``WHITE`` or ``0``). A point the area count with those
    stones off gives one side is that side's (so a settled position estimates as it counts).
    A point it leaves shared (an open area touching both colours, or a dame) goes to a side
    only when two signs agree: that side owns it at the end of more than half of the playouts,
    and its nearest living stone is that side's, nearer than the other side's and at most
    :data:`NEAR` steps away; else it stays shared. (Random playouts alone lean the whole board
    to whichever side wins most of them: an empty board came out 30 points to one side.)"""
    tally = _tally(board, playouts) if playouts > 0 else None
    dead, tally = _dead(board, playouts, tally)
    owners = board.owners(dead)
    if tally is not None:
        black, white = tally
        to_b, to_w = _distances(board, BLACK, dead), _distances(board, WHITE, dead)
        for p, o in enumerate(owners):
            if o != EMPTY:
                continue
            if black[p] * 2 > playouts and to_b[p] < to_w[p] and to_b[p] <= NEAR:
                owners[p] = BLACK
            elif white[p] * 2 > playouts and to_w[p] < to_b[p] and to_w[p] <= NEAR:
                owners[p] = WHITE
    return dead, owners
