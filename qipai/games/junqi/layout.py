"""Layouts (布阵, rules/junqi.md §4): reading, writing, checking and the seeded random layout.

A layout is written as 25 entries ``point=code`` separated by spaces (``b1=F d1=M a1=M ...``);
the canonical text lists the entries in the area's local order (row 1 = front first, then by
column). Constraints: every one of the 25 non-camp points of the player's own area holds one
piece, the counts are those of §2, the flag stands on a headquarters (local row 6, column 2 or 4),
mines only in local rows 5-6, bombs not in local row 1.
"""

from __future__ import annotations

from collections import Counter

from ...core.errors import IllegalAction
from ...core.rng import DealRng
from .board import Board
from .pieces import BOMB, CODE, COUNTS, FLAG, MINE, OFFICERS, PIECE

#: the order the random layout places pieces in (§4): F, M, M, M, B, B, then officers by code
RANDOM_ORDER = ([FLAG] + [MINE] * 3 + [BOMB] * 2
                + [r for r in OFFICERS for _ in range(COUNTS[r])])


def allowed(board: Board, p: int, piece: int) -> bool:
    """May ``piece`` start on point ``p`` of its owner's area (§4)? ``p`` must be in the area."""
    r, c = board.local[p]
    if board.camp[p]:
        return False
    if piece == FLAG:
        return board.hq[p]
    if piece == MINE:
        return r >= 5
    if piece == BOMB:
        return r != 1
    return True


def format_layout(board: Board, placement: dict[int, int]) -> str:
    """Canonical text of ``placement`` (point -> piece), entries in local order (r, then c)."""
    order = sorted(placement, key=lambda p: (board.area[p], board.local[p]))
    return " ".join(f"{board.names[p]}={CODE[placement[p]]}" for p in order)


def parse_layout(board: Board, seat: int, text: str) -> dict[int, int]:
    """The placement (point -> piece) written ``text`` for ``seat``, fully checked (§4).

    Raises :class:`IllegalAction` naming the first problem: an unknown point or code, a point
    twice, a point outside the seat's area, a camp, a piece on a point it may not start on,
    wrong counts or a missing point.
    """
    out: dict[int, int] = {}
    entries = text.replace(",", " ").split()
    for e in entries:
        point_text, eq, code = e.partition("=")
        if not eq:
            raise IllegalAction(f"layout entry {e!r} is not point=code",
                                code="junqi.layout_entry_not_point", params={"entry": e})
        try:
            p = board.point(point_text)
        except KeyError:
            raise IllegalAction(f"layout entry {e!r}: no point {point_text!r}",
                                code="junqi.layout_entry_no_point",
                                params={"entry": e, "point_text": point_text}) from None
        piece = PIECE.get(code.strip().upper())
        if piece is None:
            raise IllegalAction(f"layout entry {e!r}: no piece code {code!r} "
                                f"(codes: {' '.join(CODE.values())})",
                                code="junqi.layout_entry_no_piece",
                                params={"entry": e, "code": code, "value": ' '.join(CODE.values())})
        if p in out:
            raise IllegalAction(f"layout: {board.names[p]} is given twice",
                                code="junqi.layout_given_twice", params={"names": board.names[p]})
        if board.area[p] != seat:
            raise IllegalAction(f"layout: {board.names[p]} is not in {board.seats[seat]}'s area",
                                code="junqi.layout_not_area",
                                params={"names": board.names[p], "seats": board.seats[seat]})
        if board.camp[p]:
            raise IllegalAction(f"layout: {board.names[p]} is a camp (camps start empty)",
                                code="junqi.layout_camp_camps_start", params={"names": board.names[p]})
        if not allowed(board, p, piece):
            why, key = {FLAG: ("the flag must stand on a headquarters", "flag_hq"),
                        MINE: ("mines only in the last two rows", "mine_rows"),
                        BOMB: ("no bomb in the front row", "bomb_front")}[piece]
            raise IllegalAction(f"layout: {board.names[p]}={CODE[piece]}: {why}",
                                code="junqi.layout",
                                params={"names": board.names[p], "code": CODE[piece], "why": key})
        out[p] = piece
    have = Counter(out.values())
    for piece, n in COUNTS.items():
        if have[piece] != n:
            raise IllegalAction(f"layout: {n} x {CODE[piece]} needed, {have[piece]} given",
                                code="junqi.layout_x_needed_given",
                                params={"n": n, "code": CODE[piece], "have": have[piece]})
    if len(out) != 25:      # the counts add to 25, so this only guards against surprises
        raise IllegalAction(f"layout: 25 pieces needed, {len(out)} given",
                            code="junqi.layout_pieces_needed_given", params={"n_out": len(out)})
    return out


def random_layout(board: Board, seat: int, rng: DealRng) -> dict[int, int]:
    """The seeded random legal layout of §4: pieces in :data:`RANDOM_ORDER`, each on the point
    ``rng.below(n)`` picks among the n still-empty points allowed for it in local order (no draw
    when n = 1). Always succeeds."""
    free = [p for p in board.area_points[seat] if not board.camp[p]]
    out: dict[int, int] = {}
    for piece in RANDOM_ORDER:
        options = [p for p in free if allowed(board, p, piece)]
        p = options[0] if len(options) == 1 else options[rng.below(len(options))]
        free.remove(p)
        out[p] = piece
    return out
