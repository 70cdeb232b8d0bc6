"""The fast core of the xiangqi referee: board encoding, move tables, move generation, perft.

Everything here works on plain Python values so that it stays fast:

* a square is ``rank * 9 + file`` (file 0..8 = a..i, rank 0..9 = ICCS rank; Red at the bottom);
* a board is a ``list`` of 90 ints: 0 for an empty point, a piece code otherwise;
* a piece code is ``kind | colour``: kinds :data:`KING` .. :data:`PAWN` (1..7) and colour 0 for
  Red, :data:`BLACK` (8) for Black, so ``code >> 3`` is the side (0 Red, 1 Black);
* a move is the int ``from_sq << 7 | to_sq``.

Legal move generation computes, once per position, which own pieces could expose their king
when they move (pieces on a line to the king in front of an enemy rook, cannon or king, and
pieces blocking an enemy horse's leg) and which empty points the king's side may not fill (a
point between the king and an enemy cannon that would become the cannon's screen). Every other
move is legal without trying it; only king moves, moves of those pieces and moves in check are
tried on the board (make, test, unmake).
"""

from __future__ import annotations

KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN = 1, 2, 3, 4, 5, 6, 7
BLACK = 8
RED_SIDE, BLACK_SIDE = 0, 1

KIND_LETTERS = " KABNRCP"          # index = kind; FEN letters, uppercase
KIND_NAMES = ("", "king", "advisor", "elephant", "horse", "rook", "cannon", "pawn")
SIDE_NAMES = ("Red", "Black")

NSQ = 90


def sq_of(file: int, rank: int) -> int:
    return rank * 9 + file


def sq_name(sq: int) -> str:
    return "abcdefghi"[sq % 9] + str(sq // 9)


def _on(file: int, rank: int) -> bool:
    return 0 <= file < 9 and 0 <= rank < 10


def _in_palace(side: int, file: int, rank: int) -> bool:
    if not (3 <= file <= 5 and 0 <= rank <= 9):
        return False
    return rank <= 2 if side == RED_SIDE else rank >= 7


def _own_half(side: int, rank: int) -> bool:
    return rank <= 4 if side == RED_SIDE else rank >= 5


def _build_tables():
    rays = []                        # rays[sq] = (up, down, right, left): squares nearest first
    horse = []                       # horse[sq] = ((leg, target), ...)
    horse_attack = [[] for _ in range(NSQ)]   # horse_attack[t] = ((leg, horse_sq), ...)
    king = ([], [])
    advisor = ([], [])
    elephant = ([], [])              # ((eye, target), ...)
    pawn = ([], [])
    pawn_attack = ([[] for _ in range(NSQ)], [[] for _ in range(NSQ)])  # [side][t] = pawn squares of side
    for sq in range(NSQ):
        f, r = sq % 9, sq // 9
        sq_rays = []
        for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            ray = []
            nf, nr = f + df, r + dr
            while _on(nf, nr):
                ray.append(sq_of(nf, nr))
                nf, nr = nf + df, nr + dr
            sq_rays.append(tuple(ray))
        rays.append(tuple(sq_rays))
        hm = []
        for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            lf, lr = f + df, r + dr
            if not _on(lf, lr):
                continue
            for sf, sr in (((1, 0), (-1, 0)) if df == 0 else ((0, 1), (0, -1))):
                tf, tr = lf + df + sf, lr + dr + sr
                if _on(tf, tr):
                    hm.append((sq_of(lf, lr), sq_of(tf, tr)))
        horse.append(tuple(hm))
        for leg, t in hm:
            horse_attack[t].append((leg, sq))
        for side in (RED_SIDE, BLACK_SIDE):
            km = []
            if _in_palace(side, f, r):
                for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                    if _in_palace(side, f + df, r + dr):
                        km.append(sq_of(f + df, r + dr))
            king[side].append(tuple(km))
            am = []
            if _in_palace(side, f, r):
                for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                    if _in_palace(side, f + df, r + dr):
                        am.append(sq_of(f + df, r + dr))
            advisor[side].append(tuple(am))
            em = []
            if _own_half(side, r):
                for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                    tf, tr = f + 2 * df, r + 2 * dr
                    if _on(tf, tr) and _own_half(side, tr):
                        em.append((sq_of(f + df, r + dr), sq_of(tf, tr)))
            elephant[side].append(tuple(em))
            pm = []
            fwd = 1 if side == RED_SIDE else -1
            if _on(f, r + fwd):
                pm.append(sq_of(f, r + fwd))
            if not _own_half(side, r):
                for df in (-1, 1):
                    if _on(f + df, r):
                        pm.append(sq_of(f + df, r))
            pawn[side].append(tuple(pm))
            for t in pm:
                pawn_attack[side][t].append(sq)
    return (tuple(rays), tuple(horse), tuple(tuple(x) for x in horse_attack),
            tuple(tuple(x) for x in king), tuple(tuple(x) for x in advisor),
            tuple(tuple(x) for x in elephant), tuple(tuple(x) for x in pawn),
            tuple(tuple(tuple(y) for y in x) for x in pawn_attack))


(RAYS, HORSE_MOVES, HORSE_ATTACK, KING_MOVES, ADVISOR_MOVES, ELEPHANT_MOVES, PAWN_MOVES,
 PAWN_ATTACK) = _build_tables()

# Points each kind may ever stand on (used by FEN validation).
KING_POINTS = tuple(frozenset(s for s in range(NSQ) if KING_MOVES[side][s]) for side in (0, 1))
ADVISOR_POINTS = tuple(frozenset(s for s in KING_POINTS[side] if (s % 9 + s // 9) % 2 == (0 if side else 1))
                       for side in (0, 1))
ELEPHANT_POINTS = tuple(frozenset(s for s in range(NSQ)
                                  if (s % 9, s // 9) in (((2, 0), (6, 0), (0, 2), (4, 2), (8, 2),
                                                          (2, 4), (6, 4)) if side == 0 else
                                                         ((2, 9), (6, 9), (0, 7), (4, 7), (8, 7),
                                                          (2, 5), (6, 5))))
                        for side in (0, 1))

# LAND[side][code]: True when a piece of ``side`` may end its move on a point holding ``code``
# (empty or enemy).
LAND = tuple(tuple(c == 0 or (c >> 3) != side for c in range(16)) for side in (0, 1))
# OWN[side][code]: True when ``code`` is a piece of ``side``.
OWN = tuple(tuple(c != 0 and (c & 7) != 0 and (c >> 3) == side for c in range(16)) for side in (0, 1))
# Enemy piece codes seen from ``side``: (king, rook, cannon, horse, pawn).
ENEMY = tuple(tuple(k | (BLACK if side == 0 else 0) for k in (KING, ROOK, CANNON, HORSE, PAWN))
              for side in (0, 1))


def attacked(board: list[int], sq: int, side: int) -> bool:
    """True when the king of ``side`` standing on ``sq`` is attacked by the other side.

    Includes the enemy king looking down an open file (flying general). Advisors and elephants
    never reach the other half, so they are not looked at.
    """
    e_king, e_rook, e_cannon, e_horse, e_pawn = ENEMY[side]
    for ray in RAYS[sq]:
        screen = False
        for s in ray:
            q = board[s]
            if q:
                if screen:
                    if q == e_cannon:
                        return True
                    break
                if q == e_rook or q == e_king:
                    return True
                screen = True
    for leg, h in HORSE_ATTACK[sq]:
        if board[h] == e_horse and not board[leg]:
            return True
    for s in PAWN_ATTACK[side ^ 1][sq]:
        if board[s] == e_pawn:
            return True
    return False


def piece_moves(board: list[int], f: int, p: int, side: int, app) -> None:
    """Append the pseudo-legal moves of the piece ``p`` on ``f`` (not flying king captures)."""
    kind = p & 7
    fb = f << 7
    land = LAND[side]
    if kind == ROOK:
        for ray in RAYS[f]:
            for t in ray:
                q = board[t]
                if q:
                    if land[q]:
                        app(fb | t)
                    break
                app(fb | t)
    elif kind == CANNON:
        for ray in RAYS[f]:
            it = iter(ray)
            for t in it:
                if board[t]:
                    break
                app(fb | t)
            for t in it:
                q = board[t]
                if q:
                    if land[q]:
                        app(fb | t)
                    break
    elif kind == HORSE:
        for leg, t in HORSE_MOVES[f]:
            if not board[leg] and land[board[t]]:
                app(fb | t)
    elif kind == PAWN:
        for t in PAWN_MOVES[side][f]:
            if land[board[t]]:
                app(fb | t)
    elif kind == ELEPHANT:
        for eye, t in ELEPHANT_MOVES[side][f]:
            if not board[eye] and land[board[t]]:
                app(fb | t)
    elif kind == ADVISOR:
        for t in ADVISOR_MOVES[side][f]:
            if land[board[t]]:
                app(fb | t)
    else:
        for t in KING_MOVES[side][f]:
            if land[board[t]]:
                app(fb | t)


def flying_capture(board: list[int], ksq: int, side: int) -> int:
    """The king-capture-mode move of ``side``'s king onto a facing enemy king, or -1."""
    e_king = ENEMY[side][0]
    for s in RAYS[ksq][0 if side == RED_SIDE else 1]:
        q = board[s]
        if q:
            return ksq << 7 | s if q == e_king else -1
    return -1


def pseudo_moves(board: list[int], side: int, flying: bool = False) -> list[int]:
    """Every pseudo-legal move of ``side`` (king-capture mode: ``flying=True``)."""
    moves: list[int] = []
    app = moves.append
    own = OWN[side]
    for f in range(NSQ):
        p = board[f]
        if own[p]:
            piece_moves(board, f, p, side, app)
            if flying and p & 7 == KING:
                m = flying_capture(board, f, side)
                if m >= 0:
                    app(m)
    return moves


def is_legal_after(board: list[int], m: int, side: int, ksq: int) -> bool:
    """Try ``m`` on the board: True when ``side``'s king is then safe. ``ksq``: king before."""
    f = m >> 7
    t = m & 127
    cap = board[t]
    board[t] = board[f]
    board[f] = 0
    bad = attacked(board, t if f == ksq else ksq, side)
    board[f] = board[t]
    board[t] = cap
    return not bad


def legal_moves(board: list[int], side: int, ksq: int) -> list[int]:
    """Every legal move of ``side`` (default rules) whose king stands on ``ksq``."""
    e_king, e_rook, e_cannon, e_horse, e_pawn = ENEMY[side]
    own = OWN[side]
    check = False
    special = {ksq}        # own squares whose moves must be tried on the board
    drop = None            # empty squares that would become an enemy cannon's screen
    for ray in RAYS[ksq]:
        p1 = p2 = 0
        s1 = -1
        for s in ray:
            q = board[s]
            if q:
                if not p1:
                    p1 = q
                    s1 = s
                elif not p2:
                    p2 = q
                    s2 = s
                else:
                    # third piece on the line
                    if q == e_cannon:
                        if own[p1]:
                            special.add(s1)
                        if own[p2]:
                            special.add(s2)
                    break
        if not p1:
            continue
        if p1 == e_rook or p1 == e_king or p2 == e_cannon:
            check = True
            break
        if own[p1] and (p2 == e_rook or p2 == e_king):
            special.add(s1)
        if p1 == e_cannon:
            if drop is None:
                drop = set()
            for s in ray:
                if s == s1:
                    break
                drop.add(s)
    if not check:
        for leg, h in HORSE_ATTACK[ksq]:
            if board[h] == e_horse:
                q = board[leg]
                if not q:
                    check = True
                    break
                if own[q]:
                    special.add(leg)
    if not check:
        for s in PAWN_ATTACK[side ^ 1][ksq]:
            if board[s] == e_pawn:
                check = True
                break
    if check:
        pseudo = pseudo_moves(board, side)
        return [m for m in pseudo if is_legal_after(board, m, side, ksq)]
    moves: list[int] = []
    app = moves.append
    tried: list[int] = []
    tapp = tried.append
    for f in range(NSQ):
        p = board[f]
        if own[p]:
            if f in special:
                piece_moves(board, f, p, side, tapp)
            else:
                piece_moves(board, f, p, side, app)
    if drop:
        moves = [m for m in moves if (m & 127) not in drop]
    for m in tried:
        if is_legal_after(board, m, side, ksq):
            moves.append(m)
    return moves


def find_king(board: list[int], side: int) -> int:
    """The square of ``side``'s king, or -1 when it has none."""
    code = KING | (BLACK if side else 0)
    try:
        return board.index(code)
    except ValueError:
        return -1


def perft_board(board: list[int], side: int, depth: int) -> int:
    """Number of legal move sequences of length ``depth`` (default rules; board restored)."""
    if depth <= 0:
        return 1
    kings = [find_king(board, 0), find_king(board, 1)]
    return _perft(board, side, depth, kings)


def _perft(board: list[int], side: int, depth: int, kings: list[int]) -> int:
    ksq = kings[side]
    moves = legal_moves(board, side, ksq)
    if depth == 1:
        return len(moves)
    total = 0
    other = side ^ 1
    d = depth - 1
    for m in moves:
        f = m >> 7
        t = m & 127
        cap = board[t]
        board[t] = board[f]
        board[f] = 0
        if f == ksq:
            kings[side] = t
        total += _perft(board, other, d, kings)
        board[f] = board[t]
        board[t] = cap
        if f == ksq:
            kings[side] = ksq
    return total
