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


ESTIMATE_PLAYOUTS = 32         # playouts of an estimate, run only when a chain is in doubt
DILATIONS, EROSIONS = 5, 21     # Bouzy's 5/21: a lone stone gains nothing, walls gain their side


def bouzy(board: Board, dead: set[int] | frozenset[int] = frozenset(),
          dilations: int = DILATIONS, erosions: int = EROSIONS) -> list[int]:
    """Bouzy's dilation-erosion influence (as GNU Go's territory map): every living stone starts
    at +128 (Black) or -128 (White); a dilation adds to a point not touching the other sign the
    number of its neighbours of its own sign (an empty point takes the sign of its neighbours
    when they agree); an erosion takes from a point the number of its neighbours of the other
    sign or zero. Returns each point's value after the passes: > 0 Black's, < 0 White's, 0
    nobody's. With 5 dilations and 21 erosions a lone stone's influence erodes away; what
    survives is area walled or framed by stones."""
    nbr = board.nbr
    n = board.n
    val = [0] * n
    for p, c in enumerate(board.color):
        if c and p not in dead:
            val[p] = 128 if c == BLACK else -128
    rng = range(n)
    for _ in range(dilations):
        new = val[:]
        for p in rng:
            v = val[p]
            pos = neg = 0
            for q in nbr[p]:
                w = val[q]
                if w > 0:
                    pos += 1
                elif w < 0:
                    neg += 1
            if v >= 0 and not neg:
                new[p] = v + pos
            elif v <= 0 and not pos:
                new[p] = v - neg
        val = new
    for _ in range(erosions):
        new = val[:]
        changed = False
        for p in rng:
            v = val[p]
            if v > 0:
                k = 0
                for q in nbr[p]:
                    if val[q] <= 0:
                        k += 1
                if k:
                    new[p] = v - k if v > k else 0
                    changed = True
            elif v < 0:
                k = 0
                for q in nbr[p]:
                    if val[q] >= 0:
                        k += 1
                if k:
                    new[p] = v + k if -v > k else 0
                    changed = True
        val = new
        if not changed:
            break
    return val


def _in_doubt(board: Board, val: list[int], settled: set[int]) -> list[int]:
    """Heads of the chains worth a playout check: not settled by Benson's analysis, none of
    whose liberties lies in its own side's influence, and most of whose stones lie in the area
    the other side's stones alone would wall or frame (:func:`bouzy` without this side's
    stones). A chain with room of its own, or standing in open space (every chain of an
    opening), is taken alive without playouts."""
    out = []
    alone = {}
    for h in board.chain_heads():
        if board.stones[h][0] in settled:
            continue
        c = board.color[h]
        sign = 1 if c == BLACK else -1
        if any(val[q] * sign > 0 for q in board.libs[h]):
            continue
        if c not in alone:
            alone[c] = bouzy(board, {p for p in range(board.n) if board.color[p] == c})
        theirs = alone[c]
        stones = board.stones[h]
        if sum(1 for p in stones if theirs[p] * sign < 0) * 2 > len(stones):
            out.append(h)
    return out


def estimate(board: Board, playouts: int = ESTIMATE_PLAYOUTS) -> tuple[set[int], list[int]]:
    """A score estimate during play (as OGS's on request): ``(dead, owners)``, the stones taken
    off and the owner of every point (``BLACK``, ``WHITE`` or ``0``).

    Dead stones: those Benson's analysis finds dead, and every chain in doubt (:func:`_in_doubt`:
    no room of its own, standing in the other side's area) that the proposer's playouts
    (:func:`propose_dead`'s rule, ``playouts`` of them, run only when some chain is in doubt)
    give to the other side.
    Owners, with those stones off: a living stone is its colour's; an empty region bordered by
    one side only (what the area count gives that side) is wholly that side's when Bouzy's map
    gives none of it to the other side and either most of it to that side or the region is
    walled off (at most a quarter of the board: a closed corner, not the open board around a
    lone stone), so a settled position estimates exactly as it counts; every other point is the
    side's whose Bouzy influence it has, and nobody's where neither has any (an open point far
    from walls and frameworks)."""
    alive, dead = _unconditional(board)
    val = bouzy(board)
    doubt = _in_doubt(board, val, alive | dead)
    if doubt and playouts > 0:
        black, white = _tally(board, playouts)
        for h in doubt:
            stones = board.stones[h]
            theirs = white if board.color[stones[0]] == BLACK else black
            if sum(theirs[p] for p in stones) > 0.5 * len(stones) * playouts:
                dead.update(stones)
    if dead:
        val = bouzy(board, dead)
    owners = [BLACK if v > 0 else WHITE if v < 0 else EMPTY for v in val]
    color = board.color
    for p, c in enumerate(color):
        if c and p not in dead:
            owners[p] = c
    for pts, touches in board.regions(dead):
        if touches not in (BLACK, WHITE):
            continue
        empties = [p for p in pts if color[p] == EMPTY or p in dead]
        mine = sum(1 for p in empties if owners[p] == touches)
        if (mine * 2 >= len(empties) or len(empties) * 4 <= board.n) \
                and all(owners[p] in (touches, EMPTY) for p in empties):
            for p in empties:
                owners[p] = touches
    return dead, owners
