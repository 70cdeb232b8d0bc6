"""What a junqi seat may know of the hidden pieces, for the search of levels 3-5
(:mod:`qipai.bots.junqi`): :func:`trace` follows every piece through the public history and
:func:`determinize` draws identities for the hidden pieces that fit everything the seat has seen."""

from __future__ import annotations

import random
from typing import Any

from qipai.games.junqi.board import Board
from qipai.games.junqi.pieces import CODE, ENGINEER, FLAG_TAKEN


def trace(board: Board, history: list, seats: int) -> tuple[dict[int, tuple], list[tuple], set[tuple],
                                                             set[tuple]]:
    """Follow every piece from the point it was laid out on through the public ``history``:
    ``(piece id by point now, battles, pieces that moved, engineers)``. A piece id is ``(seat,
    starting point)`` (every non-camp point of a seat's area holds a piece at the start); a
    battle is ``(attacker id, defender id, outcome)``; an engineer is a piece that made a move
    only an engineer can make (neither a step nor a straight run along one railway line over
    empty points: it turned on the railway)."""
    at = {p: (s, p) for s in range(seats) for p in board.area_points[s] if not board.camp[p]}
    battles: list[tuple] = []
    moved: set[tuple] = set()
    engineers: set[tuple] = set()
    for _, text in history:
        move, _, outcome = text.partition(":")
        if "-" not in move:
            continue                                   # timeout, resign, forfeit
        frm, to = (board.point(x) for x in move.split("-"))
        a = at.pop(frm, None)
        if a is None:
            continue
        moved.add(a)
        if not _straight(board, at, frm, to):
            engineers.add(a)
        d = at.get(to)
        if outcome and d is not None:
            battles.append((a, d, outcome))
        if not outcome or outcome in ("win", FLAG_TAKEN):
            at[to] = a
        elif outcome == "both":
            at.pop(to, None)
    return at, battles, moved, engineers


def _straight(board: Board, occupied: dict[int, Any], p: int, q: int) -> bool:
    """Whether any movable piece may go from ``p`` to ``q`` (a step, or a run along one railway
    line whose points before ``q`` are not in ``occupied``)."""
    if q in board.steps[p]:
        return True
    for ray in board.rays[p]:
        for x in ray:
            if x == q:
                return True
            if x in occupied:
                break
    return False


def determinize(game: Any, view: dict, rng: random.Random) -> Any:
    """A full junqi position agreeing with ``view`` (one seat's view during play): the pieces
    where the view shows them, the identities it shows (and those of the seat's own lost
    pieces, from its layout and the history), and for every hidden piece an identity
    drawn at random among those that fit what the seat has seen: the army's counts (§2, less
    the identities shown or drawn for the other pieces of that seat, dead ones included), the
    layout rules for the point it started on (the flag on a headquarters, mines in the last
    two rows, no bomb in the front row), no mine or flag for a piece that moved, and every
    battle of the public history (a piece that beat a 38 is a 39 or 40; a piece that took a
    33 and an engineer both with it is a 33 or a bomb, ...). Battles between two hidden pieces
    narrow both pieces' identities first, and are checked as the identities are drawn (most
    constrained piece first, restarted when one has no identity left). The state is a play position
    (:meth:`~qipai.games.junqi.position.PositionText`) with the view's counters and public
    history. Raises ``ValueError`` when no drawing fits."""
    from qipai.games.junqi.pieces import COUNTS, combat

    board: Board = game.board
    seats = len(view["seats"])
    at, here, ids, options, by_piece = _prepared(game, view)
    for _ in range(200):
        got = _draw(ids, options, by_piece, seats, rng, COUNTS, combat)
        if got is not None:
            break
    else:
        raise ValueError("no identities fit the battles seen")
    L = board.seats
    parts = [f"{L[x['seat']]}:{x['point']}={CODE[got[at[p]]]}" for p, x in here.items()]
    parts += [f"turn={L[view['to_move']]}", f"quiet={view['quiet']}",
              "attacks=" + ",".join(map(str, view["attacks"])),
              "timeouts=" + ",".join(map(str, view["timeouts"]))]
    out = [L[s] for s in range(seats) if view["eliminated"][s]]
    if out:
        parts.append("out=" + ",".join(out))
    rev = [L[s] for s in range(seats) if view["flag_revealed"][s]]
    if rev:
        parts.append("revealed=" + ",".join(rev))
    mv = [x["point"] for x in view["pieces"] if x["moved"]]
    if mv:
        parts.append("moved=" + ",".join(mv))
    state = game.new_state(position=" ".join(parts))
    state.eliminated = list(view["eliminated"])
    state.layouts[view["seat"]] = view["layout"]
    state.history = [list(h) for h in view["history"]]
    return state


#: the last view prepared by :func:`_prepared` and what was read from it
_PREPARED: list[Any] = [None, None]


def _prepared(game: Any, view: dict) -> tuple:
    """What :func:`determinize` reads from ``view`` before drawing (the same for every sample of
    one view, so a search reads it once): each piece's id by point, the view's pieces by point,
    the ids, each piece's possible identities (narrowed by the battles) and its battles."""
    if _PREPARED[0] is view:
        return _PREPARED[1]
    from qipai.games.junqi.layout import allowed as may_start
    from qipai.games.junqi.pieces import COUNTS, PIECE, combat, movable

    board: Board = game.board
    seats = len(view["seats"])
    at, battles, moved, engineers = trace(board, view["history"], seats)
    shown: dict[tuple, int] = {}
    here: dict[int, dict] = {}
    for x in view["pieces"]:
        p = board.point(x["point"])
        here[p] = x
        pid = at.get(p)
        if pid is None or pid[0] != x["seat"]:
            raise ValueError("the history does not lead to the pieces shown")
        if x["piece"] != "?":
            shown[pid] = PIECE[x["piece"]]
        if x["moved"]:
            moved.add(pid)
    if view["layout"]:                                # the seat's own pieces, lost ones too
        for e in view["layout"].split():
            point, _, code = e.partition("=")
            shown[(view["seat"], board.point(point))] = PIECE[code]
    ids = [(s, p) for s in range(seats) for p in board.area_points[s] if not board.camp[p]]
    kinds = {k for k in COUNTS}
    options: dict[tuple, list[int]] = {}
    for pid in ids:
        if pid in shown:
            options[pid] = [shown[pid]]
            continue
        ok = [k for k in kinds if may_start(board, pid[1], k) and (pid not in moved or movable(k))
              and (pid not in engineers or k == ENGINEER)]
        for a, d, outcome in battles:
            if a == pid and d in shown:
                ok = [k for k in ok if combat(k, shown[d]) == outcome]
            elif d == pid and a in shown:
                ok = [k for k in ok if combat(shown[a], k) == outcome]
        options[pid] = ok
    by_piece: dict[tuple, list[tuple]] = {pid: [] for pid in ids}
    for b in battles:
        by_piece[b[0]].append(b)
        by_piece[b[1]].append(b)
    _narrow(options, battles, combat)
    _PREPARED[:] = [view, (at, here, ids, options, by_piece)]
    return _PREPARED[1]


def _narrow(options: dict[tuple, list[int]], battles: list[tuple], combat: Any) -> None:
    """Keep, for each piece, only the identities that some identity of its opponent fits in
    every battle it fought (repeated until nothing changes). Raises ``ValueError`` when a
    piece is left with none."""
    changed = True
    while changed:
        changed = False
        for a, d, o in battles:
            ka = [k for k in options[a] if any(combat(k, x) == o for x in options[d])]
            kd = [k for k in options[d] if any(combat(x, k) == o for x in ka)]
            if not ka or not kd:
                raise ValueError("no identities fit the battles seen")
            if len(ka) < len(options[a]) or len(kd) < len(options[d]):
                options[a], options[d] = ka, kd
                changed = True


def _draw(ids: list[tuple], options: dict[tuple, list[int]], by_piece: dict[tuple, list[tuple]],
          seats: int, rng: random.Random, counts: dict[int, int], combat: Any) -> dict[tuple, int] | None:
    """One random drawing of every piece's identity (see :func:`determinize`): the pieces that
    fought, each time the one with the fewest identities still fitting; then the others, the
    most constrained first. None when a piece has no identity left."""
    left = [dict(counts) for _ in range(seats)]
    got: dict[tuple, int] = {}

    def fought(pid: tuple) -> list[int]:             # fitting the battles with drawn pieces
        return [k for k in options[pid] if all(
            combat(k if a == pid else got[a], k if d == pid else got[d]) == o
            for a, d, o in by_piece[pid] if (a == pid or a in got) and (d == pid or d in got))]

    for pid in ids:                                  # identities shown or forced
        if len(options[pid]) == 1:
            k = options[pid][0]
            if not left[pid[0]][k]:
                return None
            got[pid] = k
            left[pid[0]][k] -= 1
    free = [pid for pid in ids if pid not in got and by_piece[pid]]
    quiet = sorted((pid for pid in ids if pid not in got and not by_piece[pid]),
                   key=lambda pid: (len(options[pid]), rng.random()))
    rng.shuffle(free)
    # what fits each free piece's battles, brought up to date only for the opponents of the
    # piece just drawn (the counts are applied when reading it)
    fit = {pid: fought(pid) for pid in free}
    while free:
        best = None
        for i, pid in enumerate(free):
            lp = left[pid[0]]
            f = [k for k in fit[pid] if lp[k]]
            if best is None or len(f) < len(best[1]):
                best = (i, f)
                if len(f) <= 1:
                    break
        i, f = best
        if not f:
            return None
        pid = free.pop(i)
        k = rng.choices(f, weights=[left[pid[0]][x] for x in f])[0]
        got[pid] = k
        left[pid[0]][k] -= 1
        for a, d, _ in by_piece[pid]:
            other = d if a == pid else a
            if other in fit and other not in got:
                fit[other] = fought(other)
    for pid in quiet:                               # the pieces that fought no battle
        f = [k for k in options[pid] if left[pid[0]][k]]
        if not f:
            return None
        k = rng.choices(f, weights=[left[pid[0]][x] for x in f])[0]
        got[pid] = k
        left[pid[0]][k] -= 1
    return got
